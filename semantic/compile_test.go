package semantic

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
)

// compileFile loads a kernel file and compiles one kernel under sig.
func compileFile(t testing.TB, path, kernel, sig string) (string, error) {
	t.Helper()
	f, err := frontend.Load(path, pyeval.Options{})
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	return compileKernel(f, kernel, sig)
}

// compileSource loads Python source text (named name in positions) and compiles one
// kernel under sig.
func compileSource(t testing.TB, name, src, kernel, sig string) (string, error) {
	t.Helper()
	f, err := frontend.LoadSource(name, []byte(src), pyeval.Options{})
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return compileKernel(f, kernel, sig)
}

// compileKernel compiles one kernel of f under sig and prints its TTIR.
func compileKernel(f *frontend.File, kernel, sig string) (string, error) {
	m, err := Compile(f, kernel, Options{SignatureText: sig})
	if err != nil {
		return "", err
	}
	return m.String(), nil
}

func TestVectorAddTutorial(t *testing.T) {
	dir := os.Getenv("GOTRITON_TUTORIALS")
	if dir == "" {
		t.Skip("GOTRITON_TUTORIALS not set")
	}
	ir, err := compileFile(t, filepath.Join(dir, "01-vector-add.py"), "add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 1024")
	if err != nil {
		t.Fatal(err)
	}
	t.Log(ir)
}
