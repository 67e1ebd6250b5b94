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

// amdNotLowered are the cases of our suite that the AMD lowering cannot lower yet, each
// with what its load error must contain: fp8 conversions, atomic_cas on floats, and the
// kernels with NVIDIA inline assembly (PDL's griddepcontrol and the inline PTX
// regressions), which reaches the AMD module and which the simulator refuses.
var amdNotLowered = []struct {
	cases *regexp.Regexp
	err   string
}{
	{regexp.MustCompile(`fp8|e4m3|e5m2`), "op: conversion from f8E"},
	{regexp.MustCompile(`^ours/language_ext/cas_tensor_kernel/(fp16|bf16|fp32|fp64)$`), "'tt.atomic_cas' op: atomic cas on"},
	{regexp.MustCompile(`^ours/pdl_add/.*/gdc/|^ours/regressions/inline_asm_`), "inline assembly is not supported for amd"},
}

// TestOurCasesAMDSim runs our suite through the AMD lowering and the SIMT interpreter of
// its LLVM IR (--device amd-sim, wave64): every case must pass but those amdNotLowered
// lists, which must fail to load as it says. gfx942 runs every case but the four large
// attention ones (80 s in the interpreter, whose FMA dots make 14,000 instructions; the
// small attention cases run the same kernels); gfx90a, lowered the same way but for its
// processor, runs the atomics and a matmul (not in -short).
func TestOurCasesAMDSim(t *testing.T) {
	for _, tc := range []struct {
		target     string
		only, skip *regexp.Regexp
	}{
		{"hip:gfx942:64", nil, regexp.MustCompile(`^ours/attention/attn_fwd_kernel/.*/4x16x128$`)},
		{"hip:gfx90a:64", regexp.MustCompile(`layer_norm|cas|matmul/grouped_matmul_kernel/fp16`), nil},
	} {
		t.Run(tc.target, func(t *testing.T) {
			if tc.only != nil && testing.Short() {
				t.Skip("short")
			}
			dev, err := SimDevice(tc.target, 2)
			if err != nil {
				t.Fatal(err)
			}
			cases := OurCases()
			if tc.skip != nil {
				cases = slices.DeleteFunc(cases, func(c Case) bool { return tc.skip.MatchString(c.Name) })
			}
			r := &Runner{Device: dev, KernelsDir: "kernels"}
			rep := r.Run(cases, tc.only)
			for _, res := range rep.Results {
				want := ""
				for _, nl := range amdNotLowered {
					if nl.cases.MatchString(res.Case) {
						want = nl.err
					}
				}
				switch {
				case res.Status == Pass && want != "":
					t.Errorf("%s passes: drop it from amdNotLowered", res.Case)
				case res.Status == Pass:
				case want == "":
					t.Errorf("%s: %s: %s", res.Case, res.Status, res.Error)
				case !strings.HasPrefix(res.Error, "load ") || !strings.Contains(res.Error, want):
					t.Errorf("%s: %s: %s; want a load error with %q", res.Case, res.Status, res.Error, want)
				}
			}
			if rep.Passed == 0 {
				t.Fatal("no case ran")
			}
			t.Logf("%s", rep.Summary())
		})
	}
}
