package cpu

import (
	"math"
	"math/big"
	"testing"

	"github.com/gotriton/gotriton/tileir"
)

// roundBig rounds the exact value x once to type s (round to nearest even).
func roundBig(x *big.Float, s tileir.Scalar) float64 {
	switch s {
	case tileir.F64:
		f, _ := x.Float64()
		return f
	case tileir.F32:
		f, _ := x.Float32()
		return float64(f)
	}
	// fp16 and bf16, for values in their normal range (all the tests use).
	prec := map[tileir.Scalar]uint{tileir.F16: 11, tileir.BF16: 8}[s]
	r := new(big.Float).SetMode(big.ToNearestEven).SetPrec(prec).Set(x)
	f, _ := r.Float64()
	return f
}

// TestFMAExact: fma on narrow types rounds once, as the hardware's fma does; hard cases
// are those where a*b + c rounded to float64 lands exactly halfway between two fp32
// values while the exact sum does not.
func TestFMAExact(t *testing.T) {
	half := math.Ldexp(1, -24) // half an fp32 ulp at 1
	tiny := math.Ldexp(1, -60)
	tests := []struct {
		name    string
		a, b, c float64
		to      tileir.Scalar
	}{
		{"float64 rounds up to a tie that goes up", 1, 1, 3*half - tiny, tileir.F32},
		{"the same in the product", 1 + math.Ldexp(1, -23), 1 + math.Ldexp(1, -23), -math.Ldexp(1, -46) + 3*half - tiny, tileir.F32},
		{"tie broken by a tiny addend", 1, 1, half + tiny, tileir.F32},
		{"tie broken below", 1, 1, half - tiny, tileir.F32},
		{"exact tie stays even", 1, 1, half, tileir.F32},
		{"cancellation", float64(float32(1.1)), float64(float32(1.1)), -float64(float32(1.1) * float32(1.1)), tileir.F32},
		{"product below ulp of c", math.Ldexp(1, -30), math.Ldexp(1, -30), 1, tileir.F32},
		{"negative", -float64(float32(3.3)), float64(float32(7.7)), float64(float32(25.41)), tileir.F32},
		{"fp16 tie broken", 1, 1, math.Ldexp(1, -11) + math.Ldexp(1, -40), tileir.F16},
		{"bf16 tie broken", 1, 1, math.Ldexp(1, -8) - math.Ldexp(1, -40), tileir.BF16},
		{"f64", 0.1, 10, -1, tileir.F64},
	}
	for _, tt := range tests {
		exact := new(big.Float).SetPrec(2000).SetFloat64(tt.a)
		exact.Mul(exact, new(big.Float).SetFloat64(tt.b)).Add(exact, new(big.Float).SetFloat64(tt.c))
		want := roundBig(exact, tt.to)
		if got := rounder(tt.to)(fmaTo(tt.a, tt.b, tt.c, tt.to)); got != want {
			t.Errorf("%s: fma(%g, %g, %g) as %s = %.17g, want %.17g", tt.name, tt.a, tt.b, tt.c, tt.to, got, want)
		}
	}
}

// TestIntToFloatExact: integers wider than float64's 53 bits convert to fp32 (and
// narrower types) with one rounding.
func TestIntToFloatExact(t *testing.T) {
	tests := []struct {
		mag uint64
		neg bool
		to  tileir.Scalar
	}{
		// 2^60 + 2^36 + 1: float64 rounds to 2^60 + 2^36, a tie for fp32 that goes down
		// to even; the exact value is above the tie and rounds up.
		{1<<60 + 1<<36 + 1, false, tileir.F32},
		{1<<60 + 1<<36 + 1, true, tileir.F32},
		{1<<60 + 1<<36, false, tileir.F32}, // the exact tie: to even
		{1<<63 + 1<<39 + 1, false, tileir.F32},
		{math.MaxUint64, false, tileir.F32},
		{1<<63 - 1, false, tileir.F64},
		{1<<62 + 1<<54 + 1, false, tileir.BF16},
		{12345, true, tileir.F32},
	}
	for _, tt := range tests {
		exact := new(big.Float).SetPrec(128).SetUint64(tt.mag)
		if tt.neg {
			exact.Neg(exact)
		}
		want := roundBig(exact, tt.to)
		if got := rounder(tt.to)(uintTo(tt.mag, tt.neg, tt.to)); got != want {
			t.Errorf("%d (neg %v) as %s = %.17g, want %.17g", tt.mag, tt.neg, tt.to, got, want)
		}
	}
}

// High-precision references for the ULP tests, in big.Float at refPrec bits: series
// and Newton steps started from Go's float64 value, independent of the interpreter's
// functions.
const refPrec = 320

func bf(x float64) *big.Float { return new(big.Float).SetPrec(refPrec).SetFloat64(x) }

func bigExp(x *big.Float) *big.Float {
	// exp(x) = exp(x / 2^m)^(2^m), with the Taylor series where |x / 2^m| < 2^-8.
	m := max(0, x.MantExp(nil)+8)
	r := new(big.Float).SetPrec(refPrec).SetMantExp(x, -m)
	sum, term := bf(1), bf(1)
	for n := 1; n < 60; n++ {
		term.Mul(term, r).Quo(term, bf(float64(n)))
		sum.Add(sum, term)
	}
	for range m {
		sum.Mul(sum, sum)
	}
	return sum
}

func bigLog(x *big.Float) *big.Float {
	f, _ := x.Float64()
	y := bf(math.Log(f))
	for range 4 { // Newton: y += 2 (x - e^y) / (x + e^y)
		e := bigExp(y)
		d := new(big.Float).Sub(x, e)
		d.Quo(d.Mul(d, bf(2)), new(big.Float).Add(x, e))
		y.Add(y, d)
	}
	return y
}

// bigSinCos returns sin(y) and cos(y) by their series (|y| <= 2).
func bigSinCos(y *big.Float) (sin, cos *big.Float) {
	sin, cos = bf(0), bf(0)
	term := bf(1) // y^n / n!
	for n := 0; n < 90; n++ {
		switch n % 4 {
		case 0:
			cos.Add(cos, term)
		case 1:
			sin.Add(sin, term)
		case 2:
			cos.Sub(cos, term)
		case 3:
			sin.Sub(sin, term)
		}
		term.Mul(term, y).Quo(term, bf(float64(n+1)))
	}
	return sin, cos
}

func bigAsin(x *big.Float) *big.Float {
	f, _ := x.Float64()
	y := bf(math.Asin(f))
	for range 4 { // Newton on sin(y) = x
		s, c := bigSinCos(y)
		y.Sub(y, s.Sub(s, x).Quo(s, c))
	}
	return y
}

func bigTanh(x *big.Float) *big.Float {
	e := bigExp(new(big.Float).Mul(x, bf(2)))
	return new(big.Float).Quo(new(big.Float).Sub(e, bf(1)), new(big.Float).Add(e, bf(1)))
}

func bigErf(x *big.Float) *big.Float {
	// erf(x) = 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1)), for |x| <= 4.
	sum, term := bf(0), new(big.Float).Set(x) // term = (-1)^n x^(2n+1) / n!
	x2 := new(big.Float).Mul(x, x)
	for n := 0; n < 200; n++ {
		sum.Add(sum, new(big.Float).Quo(term, bf(float64(2*n+1))))
		term.Mul(term, x2).Quo(term, bf(float64(-(n + 1))))
	}
	pi := new(big.Float).Mul(bigAsin(bf(0.5)), bf(6))
	return sum.Mul(sum, bf(2)).Quo(sum, new(big.Float).Sqrt(pi))
}

func bigRsqrt(x *big.Float) *big.Float { return new(big.Float).Quo(bf(1), new(big.Float).Sqrt(x)) }

func bigExp2(x *big.Float) *big.Float { return bigExp(new(big.Float).Mul(x, bigLog(bf(2)))) }

func bigLog2(x *big.Float) *big.Float { return new(big.Float).Quo(bigLog(x), bigLog(bf(2))) }

// ulpErr returns |got - exact| in units of the last place of type s at exact.
func ulpErr(got float64, exact *big.Float, s tileir.Scalar) float64 {
	w := roundBig(exact, s)
	var ulp float64
	if s == tileir.F64 {
		ulp = math.Nextafter(math.Abs(w), math.Inf(1)) - math.Abs(w)
	} else {
		ulp = float64(math.Nextafter32(float32(math.Abs(w)), float32(math.Inf(1)))) - math.Abs(w)
	}
	d := new(big.Float).Sub(bf(got), exact)
	e, _ := d.Abs(d).Float64()
	return e / ulp
}

// TestLibdeviceULP: the math the tutorials and our kernels use (libdevice asin, exp,
// tanh, erf, rsqrt; tl.exp, exp2, log, log2, sqrt) stays within the maximum ULP errors
// CUDA documents for libdevice (CUDA Math API, "Mathematical Functions" appendix), in
// fp32 and, for asin and exp, fp64, over a sweep of each function's useful domain.
func TestLibdeviceULP(t *testing.T) {
	tests := []struct {
		name   string
		f      func(float64) float64
		ref    func(*big.Float) *big.Float
		lo, hi float64
		s      tileir.Scalar
		bound  float64
	}{
		{"__nv_asinf", libFloat1["asin"], bigAsin, -0.9999, 0.9999, tileir.F32, 2},
		{"__nv_asin", libFloat1["asin"], bigAsin, -0.9999, 0.9999, tileir.F64, 2},
		{"__nv_asin near 1", libFloat1["asin"], bigAsin, 0.999, 1 - 1e-12, tileir.F64, 2},
		{"__nv_expf", libFloat1["exp"], bigExp, -80, 80, tileir.F32, 2},
		{"__nv_exp", libFloat1["exp"], bigExp, -700, 700, tileir.F64, 1},
		{"__nv_tanhf", libFloat1["tanh"], bigTanh, -9, 9, tileir.F32, 2},
		{"__nv_erff", libFloat1["erf"], bigErf, -3.9, 3.9, tileir.F32, 2},
		{"__nv_rsqrtf", libFloat1["rsqrt"], bigRsqrt, 1e-30, 1e30, tileir.F32, 2},
		{"math.exp", floatUnary["math.exp"], bigExp, -80, 80, tileir.F32, 2},
		{"math.exp2", floatUnary["math.exp2"], bigExp2, -120, 120, tileir.F32, 2},
		{"math.log", floatUnary["math.log"], bigLog, 1e-30, 1e30, tileir.F32, 1},
		{"math.log2", floatUnary["math.log2"], bigLog2, 1e-30, 1e30, tileir.F32, 1},
		{"math.sqrt", floatUnary["math.sqrt"], func(x *big.Float) *big.Float { return new(big.Float).Sqrt(x) }, 1e-30, 1e30, tileir.F32, 0.5},
	}
	const n = 300
	for _, tt := range tests {
		round := rounder(tt.s)
		worst, at := 0.0, 0.0
		for i := range n {
			// Uniform for ranges around zero, log-uniform for positive ones.
			x := tt.lo + (tt.hi-tt.lo)*float64(i)/(n-1)
			if tt.lo > 0 {
				x = tt.lo * math.Pow(tt.hi/tt.lo, float64(i)/(n-1))
			}
			x = round(x)
			if e := ulpErr(round(tt.f(x)), tt.ref(bf(x)), tt.s); e > worst {
				worst, at = e, x
			}
		}
		if worst > tt.bound {
			t.Errorf("%s: %.2f ulp at %g, above libdevice's %g", tt.name, worst, at, tt.bound)
		}
		t.Logf("%s: worst %.3f ulp (bound %g)", tt.name, worst, tt.bound)
	}
}
