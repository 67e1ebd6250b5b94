package lower

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/ptx"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// divModule divides a loaded tensor of type ty by itself with op and stores the quotient.
func divModule(t *testing.T, op, ty string) *tileir.Module {
	t.Helper()
	src := fmt.Sprintf(`module {
  tt.func public @k(%%p: !tt.ptr<%[2]s> {tt.divisibility = 16 : i32}) {
    %%r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %%ps = tt.splat %%p : !tt.ptr<%[2]s> -> tensor<128x!tt.ptr<%[2]s>>
    %%pp = tt.addptr %%ps, %%r : tensor<128x!tt.ptr<%[2]s>>, tensor<128xi32>
    %%x = tt.load %%pp : tensor<128x!tt.ptr<%[2]s>>
    %%q = %[1]s %%x, %%x : tensor<128x%[2]s>
    tt.store %%pp, %%q : tensor<128x!tt.ptr<%[2]s>>
    tt.return
  }
}`, op, ty)
	m, err := tileir.Parse("div", src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var divInst = regexp.MustCompile(`\bdiv\.[a-z0-9.]+`)

// TestDivF checks the division instructions of the PTX, as Triton 3.6's NVIDIA backend
// chooses them: arith.divf (Python's /, tl.fdiv either way) is div.full.f32 for f32 and
// div.rn.f64 for f64, tt.precise_divf (tl.div_rn) div.rn.f32; bf16 divides in f32 by
// div.rn.f32 (Triton has no 16-bit divf lowering). On AMD an f32 arith.divf stays fdiv.
func TestDivF(t *testing.T) {
	for _, c := range []struct{ op, ty, want string }{
		{"arith.divf", "f32", "div.full.f32"},
		{"tt.precise_divf", "f32", "div.rn.f32"},
		{"arith.divf", "f64", "div.rn.f64"},
		{"arith.divf", "bf16", "div.rn.f32"},
	} {
		t.Run(c.op+"."+c.ty, func(t *testing.T) {
			mod, _, err := Lower(divModule(t, c.op, c.ty), target.Default, Options{Options: isa.Options{NumWarps: 4}})
			if err != nil {
				t.Fatal(err)
			}
			text, err := ptx.Compile(mod, ptx.Options{Arch: target.Default.Arch})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, d := range divInst.FindAllString(text, -1) {
				got[d] = true
			}
			if len(got) != 1 || !got[c.want] {
				t.Errorf("division instructions %v, want only %s", got, c.want)
			}
			llcAccepts(t, mod.String())
		})
	}
	mod, _, err := Lower(divModule(t, "arith.divf", "f32"), mustTarget(t, "hip:gfx942:64"), Options{Options: isa.Options{NumWarps: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if ll := mod.String(); strings.Contains(ll, "div.full") || !strings.Contains(ll, "fdiv float") {
		t.Errorf("AMD's f32 arith.divf is not LLVM's fdiv:\n%s", ll)
	}
}

// llcAccepts has llc-22 compile the LLVM IR ll for sm_90 (skipping without llc-22).
func llcAccepts(t *testing.T, ll string) {
	t.Helper()
	bin := llc(t)
	in := filepath.Join(t.TempDir(), "k.ll")
	if err := os.WriteFile(in, []byte(ll), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "-march=nvptx64", "-mcpu=sm_90", "-mattr=+ptx84", in, "-o", os.DevNull).CombinedOutput(); err != nil {
		t.Fatalf("llc-22: %v\n%s", err, out)
	}
}
