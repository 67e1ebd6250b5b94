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
// GPU machine by tools/triton_launch_specs.py). Every specialization Triton compiled must
// be inferred. Ours may have more in one case only: Triton's autotuner benchmarks every
// config at the first launch of an autotune key and then reuses the winner, so a later
// launch whose key matches (06's non-causal forward, whose STAGE is not in the key) gets
// one config in Triton and every config here, since the winner is not known offline. An
// extra specialization must therefore come from an autotune config, and Triton must have
// compiled the same launch (equal outside the config's parameters and options).
func TestTritonReference(t *testing.T) {
	dir := os.Getenv("GOTRITON_TUTORIALS")
	refs, _ := filepath.Glob(filepath.Join("testdata", "triton", "*.txt"))
	if dir == "" || len(refs) == 0 {
		t.Skip("GOTRITON_TUTORIALS is not set, or no reference in testdata/triton")
	}
	for _, ref := range refs {
		name := strings.TrimSuffix(filepath.Base(ref), ".txt")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(ref)
			if err != nil {
				t.Fatal(err)
			}
			want := parseTritonView(string(data))
			f, err := frontend.Load(filepath.Join(dir, name+".py"), pyeval.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res := Infer(f, Options{})
			got := parseTritonView(tritonView(res))
			for kernel, specs := range want {
				for spec := range specs {
					if !got[kernel][spec] {
						t.Errorf("%s: Triton compiled %s; not inferred", kernel, spec)
					}
				}
			}
			for _, kr := range res.Kernels {
				owned := configParams(kr)
				launches := map[string]bool{}
				for spec := range want[kr.Kernel.Name] {
					launches[launchOf(spec, owned)] = true
				}
				for spec := range got[kr.Kernel.Name] {
					if want[kr.Kernel.Name][spec] {
						continue
					}
					if len(owned) == 0 || !launches[launchOf(spec, owned)] {
						t.Errorf("%s: inferred %s; Triton did not compile it or the same launch under another config", kr.Kernel.Name, spec)
					}
				}
			}
		})
	}
}

// parseTritonView reads tritonView's text: kernel -> set of "signature | options" lines;
// lines starting with # are notes.
func parseTritonView(text string) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	var kernel string
	for _, line := range strings.Split(text, "\n") {
		switch {
		case line == "", strings.HasPrefix(line, "#"): // a note of ours, not Triton's output
		case strings.HasPrefix(line, "  "):
			out[kernel][strings.TrimSpace(line)] = true
		default:
			kernel = line
			out[kernel] = map[string]bool{}
		}
	}
	return out
}

// configParams are the positions of the parameters that kr's autotune configs set.
func configParams(kr *Kernel) map[int]bool {
	at := kr.Kernel.JIT.Autotune
	if at == nil {
		return nil
	}
	list, ok := at.Configs.(*pyeval.List)
	if !ok {
		return nil
	}
	names := map[string]bool{}
	for _, c := range configsOf(list) {
		if c == nil {
			continue
		}
		for _, k := range c.Kwargs.Keys {
			names[pyeval.ToStr(k)] = true
		}
	}
	owned := map[int]bool{}
	for i, p := range kr.Kernel.Params {
		if names[p.Name] {
			owned[i] = true
		}
	}
	return owned
}

// launchOf is a "signature | options" line without what an autotune config decides: the
// values of the parameters it owns, num_warps, num_stages, and the block shapes of tensor
// descriptors (which configs' pre-hooks set from their block sizes, as 06's does).
func launchOf(spec string, owned map[int]bool) string {
	sig, _, _ := strings.Cut(spec, " | ")
	entries := splitSignature(sig)
	for i, e := range entries {
		if owned[i] {
			entries[i] = "*"
		} else if elem, ok := strings.CutPrefix(e, "tensordesc<"); ok {
			elem, _, _ = strings.Cut(elem, "[")
			entries[i] = "tensordesc<" + elem + ">"
		}
	}
	return strings.Join(entries, ", ")
}

// splitSignature splits a signature at its top-level commas (tensordesc<fp16[64, 64]> is
// one entry).
func splitSignature(sig string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range sig {
		switch r {
		case '<', '[', '(':
			depth++
		case '>', ']', ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(sig[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(sig[start:]))
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
