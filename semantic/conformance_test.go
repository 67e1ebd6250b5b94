package semantic

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
)

var update = flag.Bool("update", false, "rewrite golden files")

// confSpec is one entry of conformance/kernels/specs.json.
type confSpec struct {
	File      string `json:"file"`
	Kernel    string `json:"kernel"`
	Variant   string `json:"variant"`
	Signature string `json:"signature"`
	NumWarps  int    `json:"num_warps"`
	NumStages int    `json:"num_stages"`
}

// TestConformanceKernels compiles every specialization of our own kernel corpus and
// compares the printed tile IR with testdata/golden/<kernel>.<variant>.tileir.
func TestConformanceKernels(t *testing.T) {
	dir := filepath.Join("..", "conformance", "kernels")
	data, err := os.ReadFile(filepath.Join(dir, "specs.json"))
	if err != nil {
		t.Skip("no conformance specs:", err)
	}
	var specs []confSpec
	if err := json.Unmarshal(data, &specs); err != nil {
		t.Fatal(err)
	}
	files := map[string]*frontend.File{}
	for _, s := range specs {
		t.Run(s.Kernel+"/"+s.Variant, func(t *testing.T) {
			f := files[s.File]
			if f == nil {
				f, err = frontend.Load(filepath.Join(dir, s.File), pyeval.Options{})
				if err != nil {
					t.Fatal(err)
				}
				files[s.File] = f
			}
			m, err := Compile(f, s.Kernel, Options{SignatureText: s.Signature, NumWarps: s.NumWarps, NumStages: s.NumStages})
			if err != nil {
				t.Fatalf("%s", err)
			}
			golden := filepath.Join("testdata", "golden", strings.TrimSuffix(s.File, ".py")+"."+s.Kernel+"."+s.Variant+".tileir")
			got := m.String()
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("missing golden file (run go test ./semantic -update): %v", err)
			}
			if string(want) != got {
				t.Errorf("tile IR differs from %s; run go test ./semantic -update and review the diff", golden)
			}
		})
	}
}
