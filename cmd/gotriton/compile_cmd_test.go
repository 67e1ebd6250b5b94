package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/internal/golden"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

// buildVaries matches the metadata that changes with every build of gotriton.
var buildVaries = regexp.MustCompile(`"(hash|gotriton_version)": "[^"]*"`)

// TestCompileJSON runs `compile --emit json` exactly as ../shared/tools/triton_suite.py
// does and checks the metadata against golden files and against the lowering's own numbers.
func TestCompileJSON(t *testing.T) {
	for _, tt := range []struct {
		golden, file, kernel, sig string
		warps, stages             int
		shared                    bool
	}{
		{"vector_add.json", "vector_add.py", "vector_add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 1024", 4, 3, false},
		{"matmul.json", "matmul.py", "grouped_matmul_kernel", "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 64, 8, None", 8, 3, true},
		{"attn_fwd.json", "attention.py", "attn_fwd_kernel", "fp32, *fp32:16, i32, i32:16, tensordesc<fp16[128, 64]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[128, 64]>, i32:16, 64, 128, 64, 1, False", 4, 3, true},
	} {
		t.Run(tt.kernel, func(t *testing.T) {
			path := filepath.Join("..", "..", "conformance", "kernels", tt.file)
			out := filepath.Join(t.TempDir(), "k.json")
			_, errOut, code := gotriton("compile", path, "-n", tt.kernel, "-s", tt.sig, "-w", strconv.Itoa(tt.warps), "-ns", strconv.Itoa(tt.stages), "-t", "cuda:90:32", "--emit", "json", "-o", out)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			text, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "aot", tt.golden), buildVaries.ReplaceAllString(string(text), `"$1": "(varies)"`))
			var meta struct {
				Shared             *int   `json:"shared"`
				GlobalScratchSize  *int   `json:"global_scratch_size"`
				ProfileScratchSize *int   `json:"profile_scratch_size"`
				Hash               string `json:"hash"`
				Name               string `json:"name"`
			}
			if err := json.Unmarshal(text, &meta); err != nil {
				t.Fatal(err)
			}
			f, err := frontend.Load(path, pyeval.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := compiler.Compile(f, tt.kernel, compiler.Options{Options: semantic.Options{SignatureText: tt.sig, NumWarps: tt.warps, NumStages: tt.stages}}, compiler.LLVM)
			if err != nil {
				t.Fatal(err)
			}
			if meta.Shared == nil || *meta.Shared != r.Meta.SharedBytes || (*meta.Shared > 0) != tt.shared ||
				meta.GlobalScratchSize == nil || *meta.GlobalScratchSize != r.Meta.GlobalScratchSize ||
				meta.ProfileScratchSize == nil || *meta.ProfileScratchSize != r.Meta.ProfileScratchSize ||
				meta.Name != tt.kernel || len(meta.Hash) != 64 {
				t.Errorf("metadata %+v, lowering says %+v", meta, r.Meta)
			}
		})
	}
}
