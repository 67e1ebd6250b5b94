package cpu

import (
	"math"
	"testing"

	"github.com/gotriton/gotriton/tileir"
)

func TestFloatRounding(t *testing.T) {
	cases := []struct {
		f    *format
		in   float64
		bits uint64
	}{
		{fmtF16, 1 + math.Ldexp(1, -11), 0x3c00},   // tie to even: down
		{fmtF16, 1 + 3*math.Ldexp(1, -11), 0x3c02}, // tie to even: up
		{fmtF16, 65504, 0x7bff},                    // largest finite
		{fmtF16, 65520, 0x7c00},                    // rounds to infinity
		{fmtF16, math.Ldexp(1, -24), 0x0001},       // smallest subnormal
		{fmtF16, math.Ldexp(1, -25), 0x0000},       // tie to even: zero
		{fmtF16, math.Copysign(0, -1), 0x8000},     // negative zero
		{fmtBF16, 1 + math.Ldexp(1, -8), 0x3f80},   // tie to even
		{fmtBF16, 3.0e38, 0x7f62},                  // large normal
		{fmtE4M3FN, 448, 0x7e},                     // largest finite
		{fmtE4M3FN, 1e6, 0x7e},                     // satfinite
		{fmtE4M3FN, math.Inf(-1), 0xfe},            // satfinite
		{fmtE4M3FN, math.Ldexp(1, -9), 0x01},       // smallest subnormal
		{fmtE5M2, 57344, 0x7b},                     // largest finite
		{fmtE5M2, 1e6, 0x7c},                       // infinity
		{fmtE5M2, 1.25 + math.Ldexp(1, -4), 0x3d},  // 1.3125 ties to 1.25 (even)
	}
	for _, c := range cases {
		r := c.f.round(c.in)
		if got := c.f.bits(r); got != c.bits {
			t.Errorf("%+v: round(%g) = %g bits %#x, want %#x", *c.f, c.in, r, got, c.bits)
		}
		if back := c.f.value(c.bits); back != r && !(math.IsNaN(back) && math.IsNaN(r)) {
			t.Errorf("value(%#x) = %g, want %g", c.bits, back, r)
		}
	}
	// Every fp16 and fp8 pattern decodes and encodes back to itself (NaNs with payload).
	for _, f := range []*format{fmtF16, fmtBF16, fmtE5M2, fmtE4M3FN} {
		for b := range uint64(1) << (f.exp + f.mant + 1) {
			v := f.value(b)
			if f.finite && math.IsNaN(v) && b&0x7f != 0x7f {
				t.Fatalf("pattern %#x is not NaN in e4m3fn", b)
			}
			if got := f.bits(f.round(v)); got != b {
				t.Fatalf("%+v: pattern %#x -> %g -> %#x", *f, b, v, got)
			}
		}
	}
	if got := fmtTF32.round(1 + math.Ldexp(1, -11) + math.Ldexp(1, -20)); got != 1+math.Ldexp(1, -10) {
		t.Errorf("tf32 rounding: %g", got)
	}
}

func TestIntegerSemantics(t *testing.T) {
	i32 := func(x int64) int64 { return int64(int32(x)) }
	cases := []struct {
		op   string
		a, b int64
		w    int
		want int64
	}{
		{"arith.addi", math.MaxInt32, 1, 32, math.MinInt32}, // wraps
		{"arith.muli", 65536, 65536, 32, 0},
		{"arith.divsi", -7, 2, 32, -3}, // truncates
		{"arith.divsi", math.MinInt32, -1, 32, math.MinInt32},
		{"arith.remsi", -7, 2, 32, -1}, // sign of the dividend
		{"arith.remsi", 7, -2, 32, 1},
		{"arith.divui", -1, 2, 32, math.MaxInt32},
		{"arith.remui", -1, 10, 32, 5}, // 4294967295 % 10
		{"arith.floordivsi", -7, 2, 32, -4},
		{"arith.ceildivsi", 7, 2, 32, 4},
		{"arith.ceildivsi", -7, 2, 32, -3},
		{"arith.shli", 1, 31, 32, math.MinInt32},
		{"arith.shli", 1, 32, 32, 0}, // shift >= width
		{"arith.shrui", -1, 28, 32, 15},
		{"arith.shrui", -1, 40, 32, 0},
		{"arith.shrsi", -8, 1, 32, -4},
		{"arith.shrsi", -8, 99, 32, -1},
		{"arith.maxui", -1, 1, 32, -1},
		{"arith.minui", -1, 1, 32, 1},
		{"tt.mulhiui", -1, -1, 32, i32(0xfffffffe)},
		{"tt.mulhiui", -1, 2, 64, 1},
		{"arith.addi", 127, 1, 8, -128},
	}
	for _, c := range cases {
		got := wrapper(map[int]tileir.Scalar{8: tileir.I8, 32: tileir.I32, 64: tileir.I64}[c.w])(intBinary[c.op](c.a, c.b, c.w))
		if got != c.want {
			t.Errorf("%s(%d, %d) i%d = %d, want %d", c.op, c.a, c.b, c.w, got, c.want)
		}
	}
}

func TestFloatSemantics(t *testing.T) {
	nan := math.NaN()
	if v := floatBinary["arith.maxnumf"](nan, 1); v != 1 {
		t.Errorf("maxnumf(NaN, 1) = %g", v)
	}
	if v := floatBinary["arith.maximumf"](nan, 1); !math.IsNaN(v) {
		t.Errorf("maximumf(NaN, 1) = %g", v)
	}
	if v := floatBinary["arith.maximumf"](math.Copysign(0, -1), 0); math.Signbit(v) {
		t.Errorf("maximumf(-0, +0) = -0")
	}
	if floatCompare["oeq"](nan, nan) || !floatCompare["une"](nan, 1) || !floatCompare["uno"](nan, 1) || floatCompare["ord"](nan, 1) {
		t.Error("ordered/unordered predicates")
	}
	if fpToInt(true)(3e9, tileir.I32) != math.MaxInt32 || fpToInt(true)(nan, tileir.I32) != 0 || fpToInt(true)(-2.7, tileir.I32) != -2 {
		t.Error("fptosi saturation")
	}
}
