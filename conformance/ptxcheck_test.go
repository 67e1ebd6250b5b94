package conformance

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gotriton/gotriton/ptx"
)

// TestPTXCheck runs ptx.Check on our PTX (sm_90a) of every case's launches, the official
// tutorials' at their test and real sizes too when GOTRITON_TUTORIALS is set: besides its
// structural checks, no wgmma accumulator may be touched while in flight, no wgmma
// register written after its fence, no empty wgmma group committed.
func TestPTXCheck(t *testing.T) {
	r := &Runner{KernelsDir: "kernels", TutorialsDir: os.Getenv("GOTRITON_TUTORIALS")}
	dir := t.TempDir()
	cases := AllCases()
	if r.TutorialsDir != "" {
		cases = append(cases, RealSizeCases()...) // building their inputs takes a minute
	}
	files, err := r.DumpPTX(cases, nil, dir, "cuda:90:32", false)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		if f.Error != "" {
			continue // compile errors are the cases' own tests' business
		}
		text, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		if err := ptx.Check(string(text)); err != nil {
			t.Errorf("%s %s [%s]: %v", filepath.Base(f.Path), f.Kernel, f.Signature, err)
		}
		checked++
	}
	if checked < 100 {
		t.Errorf("only %d specializations checked", checked)
	}
	t.Logf("%d specializations checked", checked)
}
