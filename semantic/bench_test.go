package semantic

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/internal/kernelspecs"
	"github.com/gotriton/gotriton/pyeval"
)

// BenchmarkTutorials compiles each tutorial specialization (parse and module evaluation
// included) to tile IR.
func BenchmarkTutorials(b *testing.B) {
	dir := os.Getenv("GOTRITON_TUTORIALS")
	if dir == "" {
		b.Skip("GOTRITON_TUTORIALS not set")
	}
	defer func(v bool) { verifyEachPass = v }(verifyEachPass)
	verifyEachPass = false // time what users get
	for _, s := range kernelspecs.Tutorials {
		src, err := os.ReadFile(filepath.Join(dir, s.File))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(s.File+"/"+s.Kernel, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f, err := frontend.LoadSource(s.File, src, pyeval.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := Compile(f, s.Kernel, Options{SignatureText: s.Signature}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzCompile mutates kernel sources and checks that compiling never panics, with and
// without debug (device asserts and integer overflow checks).
func FuzzCompile(f *testing.F) {
	f.Add(errPrelude+"    x = tl.arange(0, B)\n    tl.store(X + x, tl.load(X + x) * 2, mask=x < N)\n", "*fp32:16, i32, 128")
	f.Add(errPrelude+"    acc = tl.zeros([B], tl.float32)\n    for i in range(N):\n        acc += tl.load(X + tl.arange(0, B))\n    tl.store(X + tl.arange(0, B), acc)\n", "*fp32:16, i32, 128")
	// Whole real kernels, to mutate: our corpus, and the official tutorials when present.
	dir := filepath.Join("..", "conformance", "kernels")
	specs, err := kernelspecs.Load(dir)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range specs {
		if src, err := os.ReadFile(filepath.Join(dir, s.File)); err == nil {
			f.Add(string(src), s.Signature)
		}
	}
	if tut := os.Getenv("GOTRITON_TUTORIALS"); tut != "" {
		for _, s := range kernelspecs.Tutorials {
			if src, err := os.ReadFile(filepath.Join(tut, s.File)); err == nil {
				f.Add(string(src), s.Signature)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src, sig string) {
		file, err := frontend.LoadSource("fuzz.py", []byte(src), pyeval.Options{Steps: 10000})
		if err != nil {
			return
		}
		for _, k := range file.Kernels {
			for _, debug := range []bool{false, true} {
				Compile(file, k.Name, Options{SignatureText: sig, Debug: debug})
			}
		}
	})
}
