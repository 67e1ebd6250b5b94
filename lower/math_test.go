package lower

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goMath runs the math library in Go, rounding every step to f32 or f64. With fuse it
// contracts as the PTX and AMDGCN emitters do under enable_fp_fusion: a product that an
// add or sub takes as an operand is not rounded first (one fma), and still rounded for
// its other uses; of two product operands the first is fused.
type goMath struct{ double, fuse bool }

// product is a mul's result under fuse: its rounded value and its factors.
type product struct{ v, a, b float64 }

func (m goMath) r(x float64) num {
	if m.double {
		return x
	}
	return float64(float32(x))
}
func (m goMath) f(a num) float64 {
	if p, ok := a.(product); ok {
		return p.v
	}
	return a.(float64)
}

// sum is a + sign·b, as one fma when a or b is a product.
func (m goMath) sum(a, b num, sign float64) num {
	if p, ok := a.(product); ok {
		return m.r(math.FMA(p.a, p.b, sign*m.f(b)))
	}
	if p, ok := b.(product); ok {
		return m.r(math.FMA(sign*p.a, p.b, m.f(a)))
	}
	return m.r(m.f(a) + sign*m.f(b))
}

func (m goMath) f64() bool        { return m.double }
func (m goMath) k(x float64) num  { return m.r(x) }
func (m goMath) add(a, b num) num { return m.sum(a, b, 1) }
func (m goMath) sub(a, b num) num { return m.sum(a, b, -1) }
func (m goMath) mul(a, b num) num {
	v := m.r(m.f(a) * m.f(b)).(float64)
	if m.fuse {
		return product{v, m.f(a), m.f(b)}
	}
	return v
}
func (m goMath) div(a, b num) num    { return m.r(m.f(a) / m.f(b)) }
func (m goMath) fma(a, b, c num) num { return m.r(math.FMA(m.f(a), m.f(b), m.f(c))) }
func (m goMath) sqrt(a num) num      { return m.r(math.Sqrt(m.f(a))) }
func (m goMath) abs(a num) num       { return math.Abs(m.f(a)) }
func (m goMath) rint(a num) num      { return math.RoundToEven(m.f(a)) }
func (m goMath) floor(a num) num     { return math.Floor(m.f(a)) }
func (m goMath) lt(a, b num) cond    { return m.f(a) < m.f(b) }
func (m goMath) eq(a, b num) cond    { return m.f(a) == m.f(b) }
func (m goMath) isNaN(a num) cond    { return math.IsNaN(m.f(a)) }
func (m goMath) or(a, b cond) cond   { return a.(bool) || b.(bool) }
func (m goMath) sel(c cond, a, b num) num {
	if c.(bool) {
		return m.f(a)
	}
	return m.f(b)
}
func (m goMath) ldexp(a, n num) num     { return m.r(math.Ldexp(m.f(a), int(m.f(n)))) }
func (m goMath) ex2(a num) num          { return m.r(math.Exp2(m.f(a))) }
func (m goMath) exp2f(a num) num        { return m.ex2(a) }
func (m goMath) rcp(a num) num          { return m.r(1 / m.f(a)) }
func (m goMath) copysign(a, b num) num  { return math.Copysign(m.f(a), m.f(b)) }
func (m goMath) frexp(a num) (num, num) { f, e := math.Frexp(m.f(a)); return f, float64(e) }

// ulps returns the distance between got and want in units of the last place of want's
// precision.
func ulps(got, want float64, double bool) float64 {
	if math.IsNaN(want) {
		if math.IsNaN(got) {
			return 0
		}
		return math.Inf(1)
	}
	if math.IsInf(want, 0) || want == 0 {
		if got == want {
			return 0
		}
		if want == 0 {
			return math.Abs(got) / math.SmallestNonzeroFloat32
		}
		return math.Inf(1)
	}
	_, e := math.Frexp(want)
	mant := 24
	if double {
		mant = 53
	}
	return math.Abs(got-want) / math.Ldexp(1, e-mant)
}

func TestMathLib(t *testing.T) {
	for _, tc := range []struct {
		name   string
		f      func(mathOps, num) num
		ref    func(float64) float64
		lo, hi float64
		f32ULP float64 // worst error, fused or not; 0: not checked in f32
		f64ULP float64 // worst error, fused or not; 0: not checked in f64
	}{
		{"exp", mathExp, math.Exp, -87, 88, 1, 1},
		{"exp2", mathExp2, math.Exp2, -1020, 1023, 0.5, 1},
		{"log", mathLog, math.Log, 1e-30, 1e30, 2, 2},
		{"log1p", mathLog1p, math.Log1p, -0.9, 10, 2, 3},
		{"expm1", mathExpm1, math.Expm1, -20, 88.7, 1, 3},
		{"sin", mathSin, math.Sin, -100, 100, 2, 1},
		{"cos", mathCos, math.Cos, -100, 100, 2, 1},
		{"tan", mathTan, math.Tan, -1.5, 1.5, 2, 3},
		{"tanh", mathTanh, math.Tanh, -10, 10, 1, 2},
		{"erf", mathErf, math.Erf, -4, 4, 1, 0},
		{"asin", mathAsin, asinRef, -1, 1, 2, 3},
		{"round", mathRound, math.Round, -1e6, 1e6, 0.5, 0.5},
	} {
		for _, double := range []bool{false, true} {
			limit := tc.f32ULP
			if double {
				limit = tc.f64ULP
			}
			if limit == 0 {
				continue
			}
			for _, fuse := range []bool{false, true} {
				m := goMath{double, fuse}
				worst, at := 0.0, 0.0
				for i := 0; i <= 20000; i++ {
					x := tc.lo + (tc.hi-tc.lo)*float64(i)/20000
					if tc.name == "log" {
						x = math.Exp(math.Log(tc.lo) + (math.Log(tc.hi)-math.Log(tc.lo))*float64(i)/20000)
					}
					x = m.r(x).(float64)
					want := tc.ref(x)
					if !double {
						want = float64(float32(want))
					}
					if u := ulps(m.f(tc.f(m, x)), want, double); u > worst {
						worst, at = u, x
					}
				}
				t.Logf("%s (f64 %v, fused %v): %.2f ulp at %g", tc.name, double, fuse, worst, at)
				if worst > limit {
					t.Errorf("%s (f64 %v, fused %v): %.1f ulp at %g, want at most %g", tc.name, double, fuse, worst, at, limit)
				}
			}
		}
	}
	// special values
	m := goMath{}
	for _, c := range []struct {
		f    func(mathOps, num) num
		x    float64
		want float64
	}{{mathExp, math.Inf(-1), 0}, {mathExp, 1000, math.Inf(1)}, {mathLog, 0, math.Inf(-1)}, {mathLog, -1, math.NaN()},
		{mathLog, math.Inf(1), math.Inf(1)}, {mathAsin, 2, math.NaN()}, {mathTanh, 100, 1}, {mathErf, 10, 1}, {mathErf, -5, -1},
		{mathExpm1, -1000, -1}, {mathExpm1, 100, math.Inf(1)}, {mathExpm1, math.NaN(), math.NaN()},
		{mathExp2, math.Inf(-1), 0}, {mathExp2, 1e30, math.Inf(1)}, {mathExp2, math.NaN(), math.NaN()}, {mathTan, math.NaN(), math.NaN()},
		{mathRound, 2.5, 3}, {mathRound, -2.5, -3}, {mathRound, 0.49999997, 0}, {mathRound, -0.0, math.Copysign(0, -1)}} {
		if got := m.f(c.f(m, c.x)); ulps(got, c.want, false) != 0 {
			t.Errorf("special value %g: got %g, want %g", c.x, got, c.want)
		}
	}
}

// asinRef is asin through atan2, which stays accurate near ±1 (Go's math.Asin does not).
func asinRef(x float64) float64 { return math.Atan2(x, math.Sqrt((1-x)*(1+x))) }

// TestMathF32NoDivision: f32 asin, tanh (gelu), log1p (softplus), erf, expm1 and tan
// divide nowhere (a division is a dozen instructions and a slow path on NVIDIA); tanh,
// log1p and tan take one rcp.approx per element instead. The kernels are Triton's TTIR
// where testdata has it, else our own tile IR (semantic's goldens).
func TestMathF32NoDivision(t *testing.T) {
	for _, tc := range []struct {
		name string
		rcps int
	}{
		{"libdevice_math.asin_kernel.default", 0},
		{"libdevice_math.gelu_tanh_kernel.default", 8},
		{"libdevice_math.softplus_kernel.default", 8},
		{"libdevice_math.unary_math_kernel.erf", 0},
		{"libdevice_math.unary_math_kernel.expm1", 0},
		{"libdevice_math.unary_math_kernel.tan", 8},
	} {
		var ll string
		var err error
		if _, statErr := os.Stat(filepath.Join(ttirDir, tc.name+".ttir")); statErr == nil {
			ll, _, err = lowerFile(t, tc.name)
		} else {
			src, readErr := os.ReadFile(filepath.Join("..", "semantic", "testdata", "golden", tc.name+".tileir"))
			if readErr != nil {
				t.Fatal(readErr)
			}
			ll, err = lowerSource(t, tc.name, string(src))
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if n := strings.Count(ll, " fdiv "); n != 0 {
			t.Errorf("%s: %d fdiv, want none", tc.name, n)
		}
		if n := strings.Count(ll, "call float @llvm.nvvm.rcp.approx.ftz.f("); n != tc.rcps {
			t.Errorf("%s: %d rcp.approx calls, want %d", tc.name, n, tc.rcps)
		}
	}
}
