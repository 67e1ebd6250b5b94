package compiler

import (
	"os/exec"
	"regexp"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
	"github.com/gotriton/gotriton/target"
)

// TestFPFusion compiles scale_shift (x * 2.5 + 0.25) with Triton's default (enable_fp_fusion) and with
// NoFPFusion: on NVIDIA the PTX has the fused multiply-add test_enable_fp_fusion looks
// for exactly when fusion is on (our emitter, and llc-22 for ViaLLC), a Result made by hand
// gets the default, and on AMD (where llc-22 is) the assembly fuses likewise.
func TestFPFusion(t *testing.T) {
	f, err := frontend.Load(codegenKernels, pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tritonFMA := regexp.MustCompile(`(mad|fma)\.r[nzmp]\.(ftz\.)?f32`)
	amdFMA := regexp.MustCompile(`(?m)^\s*v_(fma|fmac|fmamk|fmaak|mad|madmk|madak)\w*_f32`)
	_, llcErr := exec.LookPath("llc-22")
	for _, off := range []bool{false, true} {
		for _, viaLLC := range []bool{false, true} {
			if viaLLC && llcErr != nil {
				continue
			}
			r, err := Compile(f, "scale_shift", Options{Options: semantic.Options{SignatureText: "*fp32:16, 256", NumWarps: 4}, Codegen: Codegen{NoFPFusion: off}, ViaLLC: viaLLC}, PTX)
			if err != nil {
				t.Fatal(err)
			}
			if r.NoFPFusion != off || tritonFMA.MatchString(r.PTX) == off {
				t.Errorf("NoFPFusion %v, via llc %v: Result.NoFPFusion %v, fused multiply-add %v:\n%s", off, viaLLC, r.NoFPFusion, !off, r.PTX)
			}
		}
		if llcErr != nil {
			continue
		}
		opts := Options{Options: semantic.Options{SignatureText: "*fp32:16, 256", NumWarps: 4, Target: "hip:gfx942:64"}, Codegen: Codegen{NoFPFusion: off}}
		r, err := Compile(f, "scale_shift", opts, AMDGCN)
		if err != nil {
			t.Fatal(err)
		}
		if amdFMA.MatchString(r.AMDGCN) == off {
			t.Errorf("AMD, NoFPFusion %v: fused multiply-add %v:\n%s", off, !off, r.AMDGCN)
		}
	}
	byHand, err := Compile(f, "scale_shift", Options{Options: semantic.Options{SignatureText: "*fp32:16, 256", NumWarps: 4}}, TileIR)
	if err != nil {
		t.Fatal(err)
	}
	r := &Result{Kernel: "scale_shift", Target: target.Default, NumWarps: 4, NumStages: 3, TileIR: byHand.TileIR}
	if err := r.Backend(PTX, false, ""); err != nil {
		t.Fatal(err)
	}
	if !tritonFMA.MatchString(r.PTX) {
		t.Errorf("a Result made by hand is not compiled with enable_fp_fusion:\n%s", r.PTX)
	}
}
