package compiler

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/internal/kernelspecs"
	"github.com/gotriton/gotriton/ptx"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

// BenchmarkTutorialsPTX compiles each specialization the official tutorials launch on an
// H200, from source to PTX with gotriton's own emitter: parse, module evaluation,
// specialization, tile IR passes, lowering and PTX emission. Triton 3.6 takes 60–600 ms
// per kernel for the same (BASELINE.md). Needs GOTRITON_TUTORIALS.
func BenchmarkTutorialsPTX(b *testing.B) {
	dir := os.Getenv("GOTRITON_TUTORIALS")
	if dir == "" {
		b.Skip("GOTRITON_TUTORIALS not set")
	}
	for _, s := range kernelspecs.Tutorials {
		src, err := os.ReadFile(filepath.Join(dir, s.File))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(s.File+"/"+s.Kernel, func(b *testing.B) {
			var stages [3]time.Duration // source to tile IR, lowering, PTX emission
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				f, err := frontend.LoadSource(s.File, src, pyeval.Options{})
				if err != nil {
					b.Fatal(err)
				}
				r, err := Compile(f, s.Kernel, Options{Options: semantic.Options{SignatureText: s.Signature}}, TileIR)
				if err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if err := r.Backend(LLVM, false, ""); err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				if r.PTX, err = ptx.Compile(r.LLVM, ptx.Options{Arch: r.Target.Arch, FPFusion: true}); err != nil {
					b.Fatal(err)
				}
				t3 := time.Now()
				stages[0] += t1.Sub(t0)
				stages[1] += t2.Sub(t1)
				stages[2] += t3.Sub(t2)
			}
			for i, name := range []string{"front-ms", "lower-ms", "ptx-ms"} {
				b.ReportMetric(float64(stages[i].Microseconds())/1000/float64(b.N), name)
			}
		})
	}
}

// BenchmarkOwnKernelsPTX does the same for every specialization of our own corpus, so CI
// machines without the tutorials can measure it too.
func BenchmarkOwnKernelsPTX(b *testing.B) {
	dir := filepath.Join("..", "conformance", "kernels")
	specs, err := kernelspecs.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range specs {
		src, err := os.ReadFile(filepath.Join(dir, s.File))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(s.Name(), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f, err := frontend.LoadSource(s.File, src, pyeval.Options{})
				if err != nil {
					b.Fatal(err)
				}
				opts := Options{Options: semantic.Options{SignatureText: s.Signature, NumWarps: s.NumWarps, NumStages: s.NumStages}}
				if _, err := Compile(f, s.Kernel, opts, PTX); err != nil {
					b.Skipf("not compiled to PTX yet: %v", err)
				}
			}
		})
	}
}
