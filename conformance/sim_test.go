package conformance

import (
	"regexp"
	"testing"
)

// TestOurCasesNVSim runs our suite through the NVIDIA lowering and the SIMT interpreter of
// its LLVM IR (--device nv-sim): a GPU-free check of lower's NVIDIA output against the
// float64 references. sm_90 runs every case; sm_80, whose lowering differs in the
// descriptor and TMA paths, runs those.
func TestOurCasesNVSim(t *testing.T) {
	for _, tc := range []struct {
		target string
		only   *regexp.Regexp
	}{
		{"cuda:90:32", nil},
		{"cuda:80:32", regexp.MustCompile(`host|tma|descriptor`)},
	} {
		t.Run(tc.target, func(t *testing.T) {
			if tc.only != nil && testing.Short() {
				t.Skip("short")
			}
			dev, err := SimDevice(tc.target, 2)
			if err != nil {
				t.Fatal(err)
			}
			r := &Runner{Device: dev, KernelsDir: "kernels"}
			rep := r.Run(OurCases(), tc.only)
			for _, res := range rep.Results {
				if res.Status != Pass {
					t.Errorf("%s: %s: %s", res.Case, res.Status, res.Error)
				}
			}
			if rep.Passed == 0 {
				t.Fatal("no case ran")
			}
			t.Logf("%s", rep.Summary())
		})
	}
}

// TestDotInputsNVSim runs the matmul kernel with the mma.sync input types our suite leaves
// out, bf16 and tf32 (fp32 inputs), on nv-sim, checked against the reference and the CPU
// interpreter.
func TestDotInputsNVSim(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	mm := ours("matmul")
	rag := gemmConfig{128, 128, 64, 8, 4, 4}
	var cases []Case
	for _, in := range []DType{BF16, FP32} {
		cases = append(cases, matmulCases(mm, "grouped_matmul_kernel", string(in), in, FP16, rag, false, nil, []Arg{Const(nil)}, false, [3]int{200, 300, 150})...)
	}
	dev, err := SimDevice("cuda:90:32", 2)
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Device: dev, KernelsDir: "kernels", Compare: newRunner()}
	for _, res := range r.Run(cases, nil).Results {
		if res.Status != Pass {
			t.Errorf("%s: %s: %s", res.Case, res.Status, res.Error)
		}
	}
}
