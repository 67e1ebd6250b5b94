package semantic

import (
	"path/filepath"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/internal/golden"
	"github.com/gotriton/gotriton/internal/kernelspecs"
	"github.com/gotriton/gotriton/pyeval"
)

// TestConformanceKernels compiles every specialization of our own kernel corpus and
// compares the printed tile IR with testdata/golden/<kernel>.<variant>.tileir.
func TestConformanceKernels(t *testing.T) {
	dir := filepath.Join("..", "conformance", "kernels")
	specs, err := kernelspecs.Load(dir)
	if err != nil {
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
			golden.Check(t, filepath.Join("testdata", "golden", s.Name()+".tileir"), m.String())
		})
	}
}
