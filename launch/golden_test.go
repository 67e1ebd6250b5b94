package launch

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
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

// TestTritonReference compares the specializations inferred for a file with those real
// Triton 3.6 compiled when it ran the same file (testdata/triton/NAME.txt, written on the
// GPU machine by tools/triton_launch_specs.py): the same set for every kernel.
func TestTritonReference(t *testing.T) {
	dir := os.Getenv("GOTRITON_TUTORIALS")
	refs, _ := filepath.Glob(filepath.Join("testdata", "triton", "*.txt"))
	if dir == "" || len(refs) == 0 {
		t.Skip("GOTRITON_TUTORIALS is not set, or no reference in testdata/triton")
	}
	for _, ref := range refs {
		name := strings.TrimSuffix(filepath.Base(ref), ".txt")
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(ref)
			if err != nil {
				t.Fatal(err)
			}
			f, err := frontend.Load(filepath.Join(dir, name+".py"), pyeval.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := tritonView(Infer(f, Options{})); got != string(want) {
				t.Errorf("inferred specializations differ from Triton's at %s", golden.FirstDiff(got, string(want)))
			}
		})
	}
}

// tritonView prints launched specializations as tools/triton_launch_specs.py does:
// kernels by name, each one's specializations sorted, without sites or config indices.
func tritonView(res *Result) string {
	byKernel := map[string][]string{}
	for _, kr := range res.Kernels {
		for _, s := range kr.Specs {
			if !s.Guessed {
				byKernel[kr.Kernel.Name] = append(byKernel[kr.Kernel.Name], fmt.Sprintf("%s | num_warps=%d num_stages=%d", s.SignatureText(), s.NumWarps, s.NumStages))
			}
		}
	}
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(byKernel)) {
		fmt.Fprintf(&b, "%s\n", name)
		lines := slices.Compact(slices.Sorted(slices.Values(byKernel[name])))
		for _, l := range lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	return b.String()
}
