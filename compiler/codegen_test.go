package compiler

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
	"github.com/gotriton/gotriton/target"
)

// codegenKernels is our file of kernels for the code-generation options: capped_store
// calls two noinline functions, pow2 is tl.math.exp2 and natural_exp tl.exp on fp32.
const codegenKernels = "testdata/codegen_options.py"

// The regular expressions Triton's test_core.py (test_maxnreg, test_enable_reflect_ftz)
// searches the PTX with.
var (
	entryMaxNReg = regexp.MustCompile(`\.visible \.entry [^{;]*\.maxnreg 42`)
	funcMaxNReg  = regexp.MustCompile(`\.visible \.func [^{;]*\.maxnreg`)
	ex2FTZ       = regexp.MustCompile(`ex2.approx.ftz.f32`)
)

func loadCodegenKernels(t *testing.T) *frontend.File {
	t.Helper()
	f, err := frontend.Load(codegenKernels, pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// viaLLCModes are our emitter, and llc-22's NVPTX backend where it is installed.
func viaLLCModes() []bool {
	if _, err := exec.LookPath("llc-22"); err != nil {
		return []bool{false}
	}
	return []bool{false, true}
}

// TestMaxNReg compiles capped_store (which calls two noinline functions) with
// and without MaxNReg: with it, the LLVM IR's kernel has "nvvm.maxnreg"="42" and the PTX
// passes test_maxnreg's checks (.maxnreg 42 on the .entry, none on a .func), with our
// emitter and through llc-22; without it, there is no .maxnreg. An AMD target ignores it,
// as Triton's HIP backend does.
func TestMaxNReg(t *testing.T) {
	f := loadCodegenKernels(t)
	for _, viaLLC := range viaLLCModes() {
		for _, n := range []int{0, 42} {
			r, err := Compile(f, "capped_store", Options{Options: semantic.Options{SignatureText: "*i32", NumWarps: 4}, Codegen: Codegen{MaxNReg: n}, ViaLLC: viaLLC}, PTX)
			if err != nil {
				t.Fatal(err)
			}
			attr := strings.Contains(r.LLVM.String(), `"nvvm.maxnreg"="42"`)
			if set := n > 0; attr != set || entryMaxNReg.MatchString(r.PTX) != set || funcMaxNReg.MatchString(r.PTX) || strings.Contains(r.PTX, ".maxnreg") != set || r.MaxNReg != n {
				t.Errorf("MaxNReg %d, via llc %v: attribute %v, Result.MaxNReg %d, PTX:\n%s", n, viaLLC, attr, r.MaxNReg, r.PTX)
			}
		}
	}
	r, err := Compile(f, "capped_store", Options{Options: semantic.Options{SignatureText: "*i32", NumWarps: 4, Target: "hip:gfx942:64"}, Codegen: Codegen{MaxNReg: 42}}, LLVM)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(r.LLVM.String(), "maxnreg") {
		t.Errorf("AMD LLVM IR has maxnreg:\n%s", r.LLVM)
	}
}

// TestReflectFTZ compiles pow2 and natural_exp: tl.math.exp2 on fp32 is
// libdevice's __nv_exp2f, ex2.approx.ftz.f32 by default (enable_reflect_ftz) and
// ex2.approx.f32 under NoReflectFTZ, with our emitter and through llc-22; tl.exp is
// ex2.approx.f32 either way, as Triton's (ExpOpConversionApprox); a Result made by hand
// gets the default.
func TestReflectFTZ(t *testing.T) {
	f := loadCodegenKernels(t)
	for _, viaLLC := range viaLLCModes() {
		for _, off := range []bool{false, true} {
			opts := Options{Options: semantic.Options{SignatureText: "*fp32:16, 256", NumWarps: 4}, Codegen: Codegen{NoReflectFTZ: off}, ViaLLC: viaLLC}
			r, err := Compile(f, "pow2", opts, PTX)
			if err != nil {
				t.Fatal(err)
			}
			if ex2FTZ.MatchString(r.PTX) == off || !strings.Contains(r.PTX, "ex2.approx") || r.NoReflectFTZ != off {
				t.Errorf("exp2, NoReflectFTZ %v, via llc %v: Result.NoReflectFTZ %v, PTX:\n%s", off, viaLLC, r.NoReflectFTZ, r.PTX)
			}
			r, err = Compile(f, "natural_exp", opts, PTX)
			if err != nil {
				t.Fatal(err)
			}
			if ex2FTZ.MatchString(r.PTX) || !strings.Contains(r.PTX, "ex2.approx.f32") {
				t.Errorf("exp, NoReflectFTZ %v, via llc %v: want ex2.approx.f32 only:\n%s", off, viaLLC, r.PTX)
			}
		}
	}
	byHand, err := Compile(f, "pow2", Options{Options: semantic.Options{SignatureText: "*fp32:16, 256", NumWarps: 4}, Codegen: Codegen{NoReflectFTZ: true}}, TileIR)
	if err != nil {
		t.Fatal(err)
	}
	r := &Result{Kernel: "pow2", Target: target.Default, NumWarps: 4, NumStages: 3, TileIR: byHand.TileIR}
	if err := r.Backend(PTX, false, ""); err != nil {
		t.Fatal(err)
	}
	if !ex2FTZ.MatchString(r.PTX) {
		t.Errorf("a Result made by hand is not compiled with enable_reflect_ftz:\n%s", r.PTX)
	}
}
