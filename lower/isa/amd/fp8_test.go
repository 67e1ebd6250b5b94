package amd_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llir/llvm/ir"

	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/driver/simt"
	"github.com/gotriton/gotriton/lower"
	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// format is the test's own description of an fp8 format, for its reference conversions.
type format struct {
	name       string // tile IR's
	exp, mant  int
	ieee, fnuz bool
}

var formats = []format{
	{name: "f8E4M3FN", exp: 4, mant: 3},
	{name: "f8E5M2", exp: 5, mant: 2, ieee: true},
	{name: "f8E4M3FNUZ", exp: 4, mant: 3, fnuz: true},
	{name: "f8E5M2FNUZ", exp: 5, mant: 2, fnuz: true},
}

// decode is the value of bits b.
func (f format) decode(b int) float64 {
	bias := 1<<(f.exp-1) - 1
	if f.fnuz {
		bias++
	}
	e, m := b>>f.mant&(1<<f.exp-1), b&(1<<f.mant-1)
	top := e == 1<<f.exp-1
	switch {
	case f.fnuz && b == 0x80,
		f.ieee && top && m != 0,
		!f.ieee && !f.fnuz && top && m == 1<<f.mant-1:
		return math.NaN()
	case f.ieee && top && b&0x80 != 0:
		return math.Inf(-1)
	case f.ieee && top:
		return math.Inf(1)
	}
	v := math.Ldexp(float64(m), 1-bias-f.mant)
	if e > 0 {
		v = math.Ldexp(float64(m|1<<f.mant), e-bias-f.mant)
	}
	if b&0x80 != 0 {
		v = -v
	}
	return v
}

// encode is the nearest finite pattern to x by search (ties to the even pattern), so
// saturating; NaN is 0x7F (e4m3fn) or 0x7E (e5m2) with x's sign, or 0x80 (FNUZ, for
// infinities too); FNUZ has no -0.
func (f format) encode(x float64) int {
	sign := 0
	if math.Signbit(x) {
		sign = 0x80
	}
	switch {
	case f.fnuz && (math.IsNaN(x) || math.IsInf(x, 0)):
		return 0x80
	case math.IsNaN(x) && f.ieee:
		return sign | 0x7E
	case math.IsNaN(x):
		return sign | 0x7F
	}
	best, bestD := 0, math.Inf(1)
	for b := range 0x80 {
		v := f.decode(b)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		d := math.Abs(math.Abs(x) - v)
		if math.Abs(x) >= v || d < bestD || d == bestD && b&1 == 0 { // the patterns ascend
			best, bestD = b, d
		}
	}
	if f.fnuz && best == 0 {
		return 0
	}
	return sign | best
}

// halfBits is the f16 bits of x, which must be exact in f16 (or NaN or infinite).
func halfBits(x float64) uint16 {
	switch {
	case math.IsNaN(x):
		return 0x7E00
	case math.IsInf(x, 0):
		return uint16(0x7C00 | 0x8000*boolInt(x < 0))
	}
	b := math.Float32bits(float32(x))
	sign, e, m := uint16(b>>16&0x8000), int(b>>23&0xFF)-127, b&0x7FFFFF
	switch {
	case x == 0:
		return sign
	case e < -14:
		return sign | uint16((m|0x800000)>>(13+(-14-e)))
	}
	return sign | uint16(e+15)<<10 | uint16(m>>13)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

const widenTTIR = `module {
  tt.func public @widen(%src: !tt.ptr<FMT>, %dst: !tt.ptr<f16>) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %sp = tt.splat %src : !tt.ptr<FMT> -> tensor<256x!tt.ptr<FMT>>
    %sa = tt.addptr %sp, %r : tensor<256x!tt.ptr<FMT>>, tensor<256xi32>
    %x = tt.load %sa : tensor<256x!tt.ptr<FMT>>
    %y = tt.fp_to_fp %x : tensor<256xFMT> -> tensor<256xf16>
    %dp = tt.splat %dst : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>>
    %da = tt.addptr %dp, %r : tensor<256x!tt.ptr<f16>>, tensor<256xi32>
    tt.store %da, %y : tensor<256x!tt.ptr<f16>>
    tt.return
  }
}
`

const narrowTTIR = `module {
  tt.func public @narrow(%src: !tt.ptr<f32>, %dst: !tt.ptr<FMT>) {
    %pid = tt.get_program_id x : i32
    %c = arith.constant 1024 : i32
    %base = arith.muli %pid, %c : i32
    %bs = tt.splat %base : i32 -> tensor<1024xi32>
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %i = arith.addi %bs, %r : tensor<1024xi32>
    %sp = tt.splat %src : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %sa = tt.addptr %sp, %i : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %x = tt.load %sa : tensor<1024x!tt.ptr<f32>>
    %y = tt.fp_to_fp %x, rounding = rtne : tensor<1024xf32> -> tensor<1024xFMT>
    %dp = tt.splat %dst : !tt.ptr<FMT> -> tensor<1024x!tt.ptr<FMT>>
    %da = tt.addptr %dp, %i : tensor<1024x!tt.ptr<FMT>>, tensor<1024xi32>
    tt.store %da, %y : tensor<1024x!tt.ptr<FMT>>
    tt.return
  }
}
`

// build lowers the kernel of text (FMT standing for f's type) for tgt and loads it on a
// simulated AMD device; where llc-22 is installed, the module must also compile for the
// architecture.
func build(t *testing.T, d *simt.Device, text string, f format, tgt string) (*ir.Module, driver.Kernel) {
	t.Helper()
	m, err := tileir.Parse("cvt.ttir", strings.ReplaceAll(text, "FMT", f.name))
	if err != nil {
		t.Fatal(err)
	}
	tg, err := target.Parse(tgt)
	if err != nil {
		t.Fatal(err)
	}
	mod, md, err := lower.Lower(m, tg, lower.Options{Options: isa.Options{NumWarps: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if llc, err := exec.LookPath("llc-22"); err == nil {
		path := filepath.Join(t.TempDir(), "cvt.ll")
		if err := os.WriteFile(path, []byte(mod.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(llc, "-march=amdgcn", "-mcpu="+tg.Arch, "-o", os.DevNull, path).CombinedOutput(); err != nil {
			t.Errorf("llc: %v: %s", err, out)
		}
	}
	k, err := d.Load(mod, md.Name, simt.LoadOptions{NumWarps: md.NumWarps, SharedBytes: md.SharedBytes})
	if err != nil {
		t.Fatal(err)
	}
	return mod, k
}

// narrowInputs are every f16 value, and for each pair of neighbouring fp8 values of f
// (and past the largest) their midpoint and the f32 values next to it.
func narrowInputs(f format) []float32 {
	var xs []float32
	for b := range 1 << 16 {
		xs = append(xs, float32(decodeHalf(uint16(b))))
	}
	var pos []float64
	for b := range 0x80 {
		if v := f.decode(b); !math.IsNaN(v) && !math.IsInf(v, 0) {
			pos = append(pos, v)
		}
	}
	pos = append(pos, 2*pos[len(pos)-1]-pos[len(pos)-2]) // the next step past the largest
	for i := 1; i < len(pos); i++ {
		mid := float32((pos[i-1] + pos[i]) / 2)
		for _, x := range []float32{mid, math.Nextafter32(mid, 0), math.Nextafter32(mid, 1e9)} {
			xs = append(xs, x, -x)
		}
	}
	xs = append(xs, math.MaxFloat32, -math.MaxFloat32, 1e-40, -1e-40, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()))
	for len(xs)%1024 != 0 {
		xs = append(xs, 0)
	}
	return xs
}

func decodeHalf(b uint16) float64 {
	sign := 1.0
	if b&0x8000 != 0 {
		sign = -1
	}
	e, m := int(b>>10&31), float64(b&0x3FF)
	switch {
	case e == 31 && m != 0:
		return math.NaN()
	case e == 31:
		return sign * math.Inf(1)
	case e == 0:
		return sign * math.Ldexp(m, -24)
	}
	return sign * math.Ldexp(m+1024, e-25)
}

// TestFP8Conversions converts every fp8 pattern of the four formats that Triton 3.6
// supports on AMD to f16, and f32 values around every rounding boundary to fp8, through
// the AMD lowering run by the SIMT interpreter, on the CDNA2, CDNA3 and CDNA4 targets,
// bit for bit against the test's reference. CDNA3 must use its instructions for the
// FNUZ formats (and set MODE.fp16_ovfl first in a kernel that narrows), and every other
// conversion must be integer code.
func TestFP8Conversions(t *testing.T) {
	d := simt.New(simt.AMD, simt.Options{Workers: 2})
	for _, arch := range []string{"gfx90a", "gfx942", "gfx950"} {
		for _, f := range formats {
			t.Run(arch+"/"+f.name, func(t *testing.T) {
				hw := arch == "gfx942" && f.fnuz
				suffix := map[bool]string{false: "fp8", true: "bf8"}[f.exp == 5]

				mod, k := build(t, d, widenTTIR, f, "hip:"+arch+":64")
				if got := strings.Contains(mod.String(), "@llvm.amdgcn.cvt.f32."+suffix+"("); got != hw {
					t.Errorf("widening uses v_cvt_f32_%s: %v, want %v", suffix, got, hw)
				}
				src := make([]byte, 256)
				for b := range src {
					src[b] = byte(b)
				}
				out := run(t, d, k, 1, src, 2*256)
				for b := range 256 {
					got, want := binary.LittleEndian.Uint16(out[2*b:]), halfBits(f.decode(b))
					if got != want && !(want == 0x7E00 && got&0x7C00 == 0x7C00 && got&0x3FF != 0) {
						t.Errorf("widen 0x%02x: f16 0x%04x, want 0x%04x (%v)", b, got, want, f.decode(b))
					}
				}

				mod, k = build(t, d, narrowTTIR, f, "hip:"+arch+":64")
				ll := mod.String()
				if got := strings.Contains(ll, "@llvm.amdgcn.cvt.pk."+suffix+".f32("); got != hw {
					t.Errorf("narrowing uses v_cvt_pk_%s_f32: %v, want %v", suffix, got, hw)
				}
				var entry string
				for _, fn := range mod.Funcs {
					if fn.Name() == "narrow" {
						entry = fn.Blocks[0].Insts[0].LLString()
					}
				}
				if !strings.HasPrefix(entry, "call void @llvm.amdgcn.s.setreg(i32 1473, i32 1)") || strings.Count(ll, "call void @llvm.amdgcn.s.setreg") != 1 {
					t.Errorf("the narrowing kernel starts with %q, want one s_setreg of MODE.fp16_ovfl", entry)
				}
				xs := narrowInputs(f)
				in := make([]byte, 4*len(xs))
				for i, x := range xs {
					binary.LittleEndian.PutUint32(in[4*i:], math.Float32bits(x))
				}
				out = run(t, d, k, len(xs)/1024, in, len(xs))
				bad := 0
				for i, x := range xs {
					if got, want := int(out[i]), f.encode(float64(x)); got != want && bad < 10 {
						bad++
						t.Errorf("narrow %v (0x%08x): 0x%02x, want 0x%02x", x, math.Float32bits(x), got, want)
					}
				}
			})
		}
	}
}

// run launches k on grid programs with a buffer holding in and one of outBytes, and
// returns the latter's bytes.
func run(t *testing.T, d *simt.Device, k driver.Kernel, programs int, in []byte, outBytes int) []byte {
	t.Helper()
	src, err := d.Alloc(len(in))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Free()
	if err := src.Write(0, in); err != nil {
		t.Fatal(err)
	}
	dst, err := d.Alloc(outBytes)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Free()
	if err := k.Launch(driver.Grid{programs, 1, 1}, src, dst); err != nil {
		t.Fatal(fmt.Errorf("launch: %w", err))
	}
	out := make([]byte, outBytes)
	if err := dst.Read(0, out); err != nil {
		t.Fatal(err)
	}
	return out
}
