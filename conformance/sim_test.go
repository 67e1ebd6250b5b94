package conformance

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestOurCasesNVSim runs our suite through the NVIDIA lowering and the SIMT interpreter of
// its LLVM IR (--device nv-sim): a GPU-free check of lower's NVIDIA output against the
// float64 references. sm_90 runs every case; sm_80, whose lowering differs in the
// descriptor and TMA paths, runs those.
//
// With debug (Triton's debug=True: device asserts kept, integer +, - and * checked for
// overflow) every case must pass too: the asserts lower and branch inside loops and
// pipelines, and no check fires on a kernel that does not overflow (Philox wraps by
// design, with sanitize_overflow=False as in Triton's random.py).
func TestOurCasesNVSim(t *testing.T) {
	for _, tc := range []struct {
		target string
		only   *regexp.Regexp
		debug  bool
	}{
		{"cuda:90:32", nil, false},
		{"cuda:80:32", regexp.MustCompile(`host|tma|descriptor`), false},
		{"cuda:90:32", nil, true},
	} {
		name := tc.target
		if tc.debug {
			name += "/debug"
		}
		t.Run(name, func(t *testing.T) {
			if tc.only != nil && testing.Short() {
				t.Skip("short")
			}
			dev, err := SimDevice(tc.target, 2)
			if err != nil {
				t.Fatal(err)
			}
			r := &Runner{Device: dev, KernelsDir: "kernels", Debug: tc.debug}
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

// nvidiaOnly are our cases with NVIDIA's inline PTX (programmatic dependent launch's
// griddepcontrol and the inline asm regressions) and those whose inputs only sm_90's
// partial accumulators of max_num_imprecise_acc sum right, and tf32x3 dots (NVIDIA's only).
var nvidiaOnly = regexp.MustCompile(`^ours/(pdl_add/pdl_add_kernel/gdc/|regressions/inline_asm_|regressions/imprecise_acc_kernel/.*/cancel$|dot_precision/[^/]+/tf32x3/)`)

// tf32Only are our dots with input_precision tf32, which gfx90a does not take.
var tf32Only = regexp.MustCompile(`^ours/regressions/dot.*/tf32$`)

// TestOurCasesAMDSim runs our suite through the AMD lowering and the SIMT interpreter of
// its LLVM IR (--device amd-sim, wave64), for gfx942 and (not in -short) gfx90a: every
// case must pass, but those that cannot apply to the target (targets.go: the NVIDIA-only
// ones, and tf32 on gfx90a) must come out as not applicable.
func TestOurCasesAMDSim(t *testing.T) {
	for _, tc := range []struct {
		target string
		na     []*regexp.Regexp
		short  bool
	}{
		{"hip:gfx942:64", []*regexp.Regexp{nvidiaOnly}, true},
		{"hip:gfx90a:64", []*regexp.Regexp{nvidiaOnly, tf32Only}, false},
	} {
		t.Run(tc.target, func(t *testing.T) {
			if !tc.short && testing.Short() {
				t.Skip("short")
			}
			dev, err := SimDevice(tc.target, 2)
			if err != nil {
				t.Fatal(err)
			}
			r := &Runner{Device: dev, KernelsDir: "kernels"}
			rep := r.Run(OurCases(), nil)
			for _, res := range rep.Results {
				na := slices.ContainsFunc(tc.na, func(re *regexp.Regexp) bool { return re.MatchString(res.Case) })
				switch {
				case na && (res.Status != NA || !strings.Contains(res.Error, "not applicable to "+tc.target)):
					t.Errorf("%s: %s: %s; want n/a on %s", res.Case, res.Status, res.Error, tc.target)
				case !na && res.Status != Pass:
					t.Errorf("%s: %s: %s", res.Case, res.Status, res.Error)
				}
			}
			if rep.NotApplicable == 0 {
				t.Error("no case is n/a: the NVIDIA-only ones ran")
			}
			if rep.Passed == 0 {
				t.Fatal("no case ran")
			}
			t.Logf("%s", rep.Summary())
		})
	}
}
