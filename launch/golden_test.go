package launch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/internal/golden"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/target"
)

// report prints what inference found for a file, one kernel after the other.
func report(t *testing.T, path string, tgt target.Target) string {
	t.Helper()
	f, err := frontend.Load(path, pyeval.Options{Target: tgt})
	if err != nil {
		t.Fatal(err)
	}
	res := Infer(f, Options{})
	var b strings.Builder
	for _, kr := range res.Kernels {
		fmt.Fprintf(&b, "%s\n", kr.Kernel.Name)
		for _, s := range kr.Specs {
			fmt.Fprintf(&b, "  %s\n", strings.ReplaceAll(s.String(), path, filepath.Base(path)))
		}
		for _, e := range kr.Errors {
			fmt.Fprintf(&b, "  error: %s\n", strings.ReplaceAll(e.Error(), path, filepath.Base(path)))
		}
		for _, u := range kr.Unknown {
			fmt.Fprintf(&b, "  not checked: %s\n", strings.ReplaceAll(u, path, filepath.Base(path)))
		}
	}
	return b.String()
}

// TestTutorials compares the specializations inferred for each official tutorial with
// golden text (testdata/tutorials/NAME.txt).
func TestTutorials(t *testing.T) {
	dir := os.Getenv("GOTRITON_TUTORIALS")
	if dir == "" {
		t.Skip("GOTRITON_TUTORIALS is not set")
	}
	checkFolder(t, dir, "tutorials")
	// Block-scaled matmul launches only where the GPU has block scaling (sm_100).
	sm100, err := target.Parse("cuda:100:32")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "tutorials", "10-block-scaled-matmul.sm100.txt"),
		report(t, filepath.Join(dir, "10-block-scaled-matmul.py"), sm100))
}

// TestConformanceKernels does the same for our own kernels (their __main__ blocks).
func TestConformanceKernels(t *testing.T) {
	checkFolder(t, filepath.Join("..", "conformance", "kernels"), "kernels")
}

func checkFolder(t *testing.T, dir, goldenDir string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.py"))
	if len(files) == 0 {
		t.Fatalf("no .py files in %s", dir)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".py")
		t.Run(name, func(t *testing.T) {
			golden.Check(t, filepath.Join("testdata", goldenDir, name+".txt"), report(t, path, target.Target{}))
		})
	}
}
