package ptx_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/internal/kernelspecs"
	"github.com/gotriton/gotriton/ptx"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

// BenchmarkCompileCorpus times ptx.Compile alone on the LLVM IR that lower
// builds for the largest kernels of our own corpus (attention backward,
// fp16 and fp8 matmuls), the shapes that dominate PTX emission time.
func BenchmarkCompileCorpus(b *testing.B) {
	dir := filepath.Join("..", "conformance", "kernels")
	specs, err := kernelspecs.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	want := map[string]bool{
		"attention.attn_bwd_kernel.default":             true,
		"attention.attn_fwd_kernel.d128":                true,
		"persistent_matmul.matmul_tiled_kernel.default": true,
		"persistent_matmul.matmul_tiled_kernel.fp8":     true,
	}
	for _, s := range specs {
		if want[s.Name()] {
			benchEmit(b, s.Name(), dir, s, semantic.Options{SignatureText: s.Signature, NumWarps: s.NumWarps, NumStages: s.NumStages})
		}
	}
}

// benchEmit lowers spec s (its file in dir) to LLVM IR once and times ptx.Compile on it,
// with contraction as package compiler runs it by default, as sub-benchmark name.
func benchEmit(b *testing.B, name, dir string, s kernelspecs.Spec, opts semantic.Options) {
	src, err := os.ReadFile(filepath.Join(dir, s.File))
	if err != nil {
		b.Fatal(err)
	}
	f, err := frontend.LoadSource(s.File, src, pyeval.Options{})
	if err != nil {
		b.Fatal(err)
	}
	r, err := compiler.Compile(f, s.Kernel, compiler.Options{Options: opts}, compiler.LLVM)
	if err != nil {
		b.Fatal(err)
	}
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ptx.Compile(r.LLVM, ptx.Options{Arch: r.Target.Arch, FPFusion: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCompileTutorials times ptx.Compile alone on the LLVM IR of every
// specialization the official tutorials launch (as BenchmarkTutorialsPTX in
// package compiler names them, with the index among the kernel's
// specializations). Needs GOTRITON_TUTORIALS.
func BenchmarkCompileTutorials(b *testing.B) {
	dir := os.Getenv("GOTRITON_TUTORIALS")
	if dir == "" {
		b.Skip("GOTRITON_TUTORIALS not set")
	}
	seen := map[string]int{}
	for _, s := range kernelspecs.Tutorials {
		name := s.File + "/" + s.Kernel
		seen[name]++
		benchEmit(b, fmt.Sprintf("%s#%02d", name, seen[name]), dir, s, semantic.Options{SignatureText: s.Signature})
	}
}
