package lower

import "math"

// The math library: accurate implementations of our own (libdevice cannot be shipped),
// written once against mathOps so that the same code both emits LLVM IR and runs in Go,
// where the tests compare it with Go's math package.

// num is a float value and cond a boolean of a mathOps implementation.
type (
	num  = any
	cond = any
)

// mathOps are the operations the library is written in. Every result is rounded to the
// implementation's precision (f32 or f64).
type mathOps interface {
	k(x float64) num
	add(a, b num) num
	sub(a, b num) num
	mul(a, b num) num
	div(a, b num) num
	fma(a, b, c num) num
	sqrt(a num) num
	abs(a num) num
	rint(a num) num  // round to nearest even integer
	floor(a num) num // round down
	lt(a, b num) cond
	eq(a, b num) cond
	isNaN(a num) cond
	or(a, b cond) cond
	sel(c cond, a, b num) num
	ldexp(a, n num) num         // a·2^n, n an integer-valued float, |n| < 2·bias
	frexp(a num) (num, num)     // a = m·2^e, m in [0.5, 1), for finite a ≠ 0
	ex2(a num) num              // 2^a, as the ISA's Exp2Approx (PTX's ex2.approx)
	exp2f(a num) num            // 2^a in f32 as libdevice's exp2f: ex2, flushing subnormals under enable_reflect_ftz
	rcp(a num) num              // 1/a in f32 to within 1 ulp, as the ISA's RcpApprox (PTX's rcp.approx.ftz)
	copysign(mag, sign num) num // |mag| with sign's sign
	f64() bool
}

// poly evaluates c[0] + c[1]x + c[2]x² + … by Horner's rule.
func poly(m mathOps, x num, c ...float64) num {
	r := m.k(c[len(c)-1])
	for i := len(c) - 2; i >= 0; i-- {
		r = m.fma(r, x, m.k(c[i]))
	}
	return r
}

// mathExp is e^x as libdevice's exp (tl.exp on f32 is Triton's ex2.approx(x·log2 e),
// lowerMath). In f32 it is 2^n·2^f on ex2.approx, n = rint(x·log2 e) and f the rest, to
// the product's rounding error (which the fast form loses, up to 64 ulp near |x| = 88);
// in f64, Cody–Waite reduction by ln 2 and a Taylor series.
func mathExp(m mathOps, x num) num {
	var r num
	if m.f64() {
		n := m.rint(m.mul(x, m.k(math.Log2E)))
		f := m.fma(n, m.k(-6.93147180369123816490e-01), x) // ln2 hi: n·hi is exact
		f = m.fma(n, m.k(-1.90821492927058770002e-10), f)  // ln2 lo
		r = m.ldexp(poly(m, f, 1, 1, 1.0/2, 1.0/6, 1.0/24, 1.0/120, 1.0/720, 1.0/5040, 1.0/40320, 1.0/362880,
			1.0/3628800, 1.0/39916800, 1.0/479001600, 1.0/6227020800), n)
		r = m.sel(m.lt(x, m.k(-745.2)), m.k(0), r)
		r = m.sel(m.lt(m.k(709.8), x), m.k(math.Inf(1)), r)
	} else {
		// x·log2e - n in explicit fmas (log2e in two parts), so that no contraction of
		// a product with a subtraction can count the product's rounding error twice.
		n := m.rint(m.mul(x, m.k(math.Log2E)))
		lo := math.Log2E - float64(float32(math.Log2E))
		f := m.fma(x, m.k(lo), m.fma(x, m.k(math.Log2E), m.sub(m.k(0), n)))
		r = m.ldexp(m.ex2(f), n)
		r = m.sel(m.lt(x, m.k(-104)), m.k(0), r)
		r = m.sel(m.lt(m.k(88.73), x), m.k(math.Inf(1)), r)
	}
	return m.sel(m.isNaN(x), x, r)
}

// mathExp2 is 2^x: in f32 libdevice's exp2f (ex2.approx); in f64 2^n·e^(f·ln2) for
// n = rint(x) and f = x - n (exact), the product f·ln2 carried with its rounding error c
// (e^(p+c) ≈ e^p + e^p·c), so that large |x| loses nothing to it (e^(x·ln2) would be off
// by |x|·ln2·2⁻⁵³ relative: hundreds of ulp near |x| = 1000).
func mathExp2(m mathOps, x num) num {
	if !m.f64() {
		return m.exp2f(x)
	}
	xc := m.sel(m.lt(x, m.k(-1100)), m.k(-1100), m.sel(m.lt(m.k(1100), x), m.k(1100), x))
	n := m.rint(xc)
	f := m.sub(xc, n)
	p := m.mul(f, m.k(math.Ln2))
	c := m.fma(f, m.k(2.319046813846299558e-17), m.fma(f, m.k(math.Ln2), m.sub(m.k(0), p))) // ln2 - double(ln2), and the product's error
	e := mathExp(m, p)
	r := m.ldexp(m.fma(e, c, e), n)
	return m.sel(m.isNaN(x), x, r)
}

// mathLog is the natural logarithm: log(m·2^e) = e·ln2 + log(m) with m scaled into
// [√½, √2). In f32, log(1+f) = f + f²·P(f) for f = m-1 (exact), a minimax fit of our
// own to 0.07·2⁻²⁴ relative, with no division; in f64, 2·atanh((m-1)/(m+1)) by its series.
func mathLog(m mathOps, x num) num {
	mant, e := m.frexp(x)
	small := m.lt(mant, m.k(math.Sqrt2/2))
	mant = m.sel(small, m.add(mant, mant), mant)
	e = m.sel(small, m.sub(e, m.k(1)), e)
	var lm num
	if m.f64() {
		s := m.div(m.sub(mant, m.k(1)), m.add(mant, m.k(1)))
		// 2·atanh(s) = 2s + 2s³/3 + 2s⁵/5 + …, |s| < 0.172
		lm = m.mul(s, poly(m, m.mul(s, s), 2, 2.0/3, 2.0/5, 2.0/7, 2.0/9, 2.0/11, 2.0/13, 2.0/15, 2.0/17, 2.0/19))
	} else {
		f := m.sub(mant, m.k(1))
		lm = m.fma(m.mul(f, f), poly(m, f, log1pF32...), f)
	}
	r := m.fma(e, m.k(math.Ln2), lm)
	r = m.sel(m.eq(x, m.k(0)), m.k(math.Inf(-1)), r)
	r = m.sel(m.lt(x, m.k(0)), m.k(math.NaN()), r)
	r = m.sel(m.eq(x, m.k(math.Inf(1))), x, r)
	return m.sel(m.isNaN(x), x, r)
}

// log1pF32 is P in log(1+f) ≈ f + f²·P(f) on [√½-1, √2-1].
var log1pF32 = []float64{-0.4999998831898141, 0.33333325527803703, -0.2500158452196225, 0.200019833792117,
	-0.16609061115869694, 0.14181657063779962, -0.1324297139460323, 0.1290537615371781, -0.07622932798102566}

// mathLog1p is log(1+x), exact for small x by Kahan's correction: log(u) for u = 1+x
// rounded, plus (x - (u-1))/u, the part of x the rounding lost (in f32 through the
// approximate reciprocal: the term is at most half an ulp of u).
func mathLog1p(m mathOps, x num) num {
	u := m.add(m.k(1), x)
	d := m.sub(u, m.k(1))
	var r num
	if m.f64() {
		r = m.div(m.mul(mathLog(m, u), x), d)
		r = m.sel(m.eq(d, m.k(0)), x, r)
	} else {
		r = m.fma(m.sub(x, d), m.rcp(u), mathLog(m, u))
		r = m.sel(m.eq(u, m.k(0)), m.k(math.Inf(-1)), r)
	}
	return m.sel(m.eq(u, m.k(math.Inf(1))), u, r)
}

// mathExpm1 is e^x - 1. In f64, exp's result with Kahan's correction for small x; in
// f32, with no division, as libdevice's expm1f: x = j·ln2 + f (Cody–Waite, |f| ≤ ln2/2),
// e^f - 1 = f + f²·P(f) (a minimax fit of our own, 0.004·2⁻²⁴ relative), and
// e^x - 1 = 2·(2^(j-1)·(e^f - 1) + 2^(j-1) - ½), the halving keeping 2^(j-1) finite
// up to the overflow.
func mathExpm1(m mathOps, x num) num {
	if !m.f64() {
		xc := m.sel(m.lt(x, m.k(-18)), m.k(-18), m.sel(m.lt(m.k(89), x), m.k(89), x)) // e^-18 - 1 rounds to -1
		j := m.rint(m.mul(xc, m.k(math.Log2E)))
		f := m.fma(j, m.k(-0.693145751953125), xc) // ln2's upper 16 bits: j·hi is exact
		f = m.fma(j, m.k(-1.4286068203094172e-06), f)
		p := m.fma(m.mul(f, f), poly(m, f, expm1F32...), f)
		s := m.ldexp(m.k(1), m.sub(j, m.k(1)))
		r := m.mul(m.fma(s, p, m.sub(s, m.k(0.5))), m.k(2))
		return m.sel(m.isNaN(x), x, r)
	}
	u := mathExp(m, x)
	um := m.sub(u, m.k(1))
	r := m.div(m.mul(um, x), mathLog(m, u))
	r = m.sel(m.eq(um, m.k(-1)), m.k(-1), r)
	r = m.sel(m.eq(u, m.k(math.Inf(1))), u, r)
	return m.sel(m.eq(u, m.k(1)), x, r)
}

// expm1F32 is P in e^f - 1 ≈ f + f²·P(f) on [-ln2/2, ln2/2].
var expm1F32 = []float64{0.5000000044139326, 0.1666666637062005, 0.04166636102973797, 0.008333389349078416,
	0.0013940617345296895, 0.0001984587639196901}

// reduceHalfPi returns q = rint(x·2/π) and r = x - q·π/2 (three-part Cody–Waite).
func reduceHalfPi(m mathOps, x num) (q, r num) {
	q = m.rint(m.mul(x, m.k(2/math.Pi)))
	r = m.fma(q, m.k(-1.5707963705062866), x)
	r = m.fma(q, m.k(4.3711388286737929e-08), r)
	r = m.fma(q, m.k(1.7151245100059206e-15), r)
	return q, r
}

// sinCos reduces x by π/2 and returns sin or cos.
func sinCos(m mathOps, x num, cos bool) num {
	q, r := reduceHalfPi(m, x)
	z := m.mul(r, r)
	s := m.mul(r, poly(m, z, 1, -1.0/6, 1.0/120, -1.0/5040, 1.0/362880, -1.0/39916800, 1.0/6227020800, -1.0/1307674368000))
	c := poly(m, z, 1, -1.0/2, 1.0/24, -1.0/720, 1.0/40320, -1.0/3628800, 1.0/479001600, -1.0/87178291200, 1.0/20922789888000)
	// quadrant: q mod 4
	qm := m.sub(q, m.mul(m.floor(m.mul(q, m.k(0.25))), m.k(4)))
	if cos {
		qm = m.add(qm, m.k(1)) // cos x = sin(x + π/2)
		qm = m.sel(m.eq(qm, m.k(4)), m.k(0), qm)
	}
	res := m.sel(m.or(m.eq(qm, m.k(1)), m.eq(qm, m.k(3))), c, s)
	neg := m.or(m.eq(qm, m.k(2)), m.eq(qm, m.k(3)))
	return m.sel(neg, m.sub(m.k(0), res), res)
}

func mathSin(m mathOps, x num) num { return sinCos(m, x, false) }
func mathCos(m mathOps, x num) num { return sinCos(m, x, true) }

// mathTan is sin/cos in f64. In f32, with no division, as libdevice's tanf: tan r =
// r + r³·P(r²) on the reduced argument (a minimax fit of our own, 0.02·2⁻²⁴ relative),
// and -1/tan r in odd quadrants, by rcp.approx and one Newton step.
func mathTan(m mathOps, x num) num {
	if m.f64() {
		return m.div(mathSin(m, x), mathCos(m, x))
	}
	q, r := reduceHalfPi(m, x)
	z := m.mul(r, r)
	t := m.fma(m.mul(r, z), poly(m, z, tanF32...), r)
	y := m.rcp(t)
	y = m.fma(y, m.fma(m.sub(m.k(0), t), y, m.k(1)), y)
	odd := m.eq(m.sub(q, m.mul(m.floor(m.mul(q, m.k(0.5))), m.k(2))), m.k(1))
	return m.sel(odd, m.sub(m.k(0), y), t)
}

// tanF32 is P in tan r ≈ r + r³·P(r²) on [0, π/4].
var tanF32 = []float64{0.3333334975530214, 0.13332663328280184, 0.05405991726346248, 0.021282185119675914,
	0.01083581352942266, 8.954292994309568e-05, 0.004376267751049174}

// mathTanh is, in f32, x + x³·P(x²) (a minimax fit of our own, 0.05·2⁻²⁴ relative)
// below |x| = tanhSeriesEnd and 1 - 2/(2^{2|x|·log2 e}+1) beyond, on ex2.approx and
// rcp.approx as libdevice's tanhf; f64 takes an odd series near zero,
// expm1(2|x|)/(expm1(2|x|)+2) up to 1 and the exp form beyond.
func mathTanh(m mathOps, x num) num {
	a := m.abs(x)
	z := m.mul(x, x)
	if !m.f64() {
		small := m.fma(m.mul(x, z), poly(m, z, tanhF32...), x)
		e := m.ex2(m.mul(a, m.k(2*math.Log2E)))
		big := m.copysign(m.fma(m.rcp(m.add(e, m.k(1))), m.k(-2), m.k(1)), x)
		return m.sel(m.isNaN(x), x, m.sel(m.lt(a, m.k(tanhSeriesEnd)), small, big))
	}
	a2 := m.add(a, a)
	big := m.sub(m.k(1), m.div(m.k(2), m.add(mathExp(m, a2), m.k(1))))
	em := mathExpm1(m, a2)
	mid := m.div(em, m.add(em, m.k(2)))
	small := m.mul(x, poly(m, z, 1, -1.0/3, 2.0/15, -17.0/315, 62.0/2835, -1382.0/155925, 21844.0/6081075, -929569.0/638512875))
	r := m.sel(m.lt(a, m.k(0.125)), small, m.copysign(m.sel(m.lt(a, m.k(1)), mid, big), x))
	return m.sel(m.isNaN(x), x, r)
}

// tanhF32 is P in tanh x ≈ x + x³·P(x²) on [0, tanhSeriesEnd].
var tanhF32 = []float64{-0.3333329800161839, 0.1333192411290965, -0.053783829104012894, 0.020795967749779074, -0.005895153593247734}

// tanhSeriesEnd is where f32 tanh leaves its polynomial for the exp form.
const tanhSeriesEnd = 0.6

// mathErf: in f32, with no division, x·P(x²) below 1 and 1 - 2^Q(|x|) up to 3.92
// (Q fits log₂ erfc; beyond, erf rounds to ±1), minimax fits of our own (0.02·2⁻²⁴
// relative, 0.11·2⁻²⁴ absolute in log₂); in f64, the Maclaurin series below 1 and
// Numerical Recipes' erfc fit above.
func mathErf(m mathOps, x num) num {
	a := m.abs(x)
	z := m.mul(x, x)
	var small, erfc num
	if !m.f64() {
		small = m.fma(x, poly(m, z, erfSmallF32...), x) // x + x·(P(x²) - 1)
		erfc = m.ex2(poly(m, a, erfcLog2F32...))
	} else {
		c := make([]float64, 16)
		f := 1.0
		for n := range c {
			if n > 0 {
				f *= float64(n)
			}
			c[n] = 2 / math.SqrtPi * math.Pow(-1, float64(n)) / (f * float64(2*n+1))
		}
		small = m.mul(x, poly(m, z, c...))
		t := m.div(m.k(1), m.fma(m.k(0.5), a, m.k(1)))
		p := poly(m, t, -1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398, 1.48851587, -0.82215223, 0.17087277)
		erfc = m.mul(t, mathExp(m, m.fma(m.sub(m.k(0), a), a, p))) // p - x², rounded once, fused or not
	}
	big := m.copysign(m.sub(m.k(1), erfc), x)
	if !m.f64() {
		big = m.sel(m.lt(a, m.k(3.92)), big, m.copysign(m.k(1), x))
	}
	r := m.sel(m.lt(a, m.k(1)), small, big)
	return m.sel(m.isNaN(x), x, r)
}

// erfSmallF32 is P - 1 for erf x ≈ x·P(x²) on [0, 1]; erfcLog2F32 is Q in erfc a ≈ 2^Q(a) on
// [1, 3.92].
var (
	erfSmallF32 = []float64{1.1283791657322895 - 1, -0.37612625839604213, 0.1128358526967341, -0.026853816031646306,
		0.005188334438699963, -0.000801024715648788, 7.85402479392564e-05}
	erfcLog2F32 = []float64{0.000538781044703284, -1.630937778331351, -0.9108256699768417, -0.15960415744691503,
		0.0386700589950449, -0.007115417335725729, 0.000933456924757352, -7.962620925257795e-05,
		3.722938945266348e-06, -6.091077762975969e-08}
)

// mathAsin follows fdlibm: asin x = x + x·R(x²) below ½, and π/2 - 2·asin(√((1-|x|)/2))
// above. R is fdlibm's rational fit in f64; in f32, t·P(t), a minimax fit of our own
// (0.08·2⁻²⁴ relative), with no division.
func mathAsin(m mathOps, x num) num {
	R := func(t num) num {
		if !m.f64() {
			return m.mul(t, poly(m, t, asinF32...))
		}
		p := m.mul(t, poly(m, t, 1.66666666666666657415e-01, -3.25565818622400915405e-01, 2.01212532134862925881e-01,
			-4.00555345006794114027e-02, 7.91534994289814532176e-04, 3.47933107596021167570e-05))
		q := poly(m, t, 1, -2.40339491173441421878e+00, 2.02094576023350569471e+00, -6.88283971605453293030e-01, 7.70381505559019352791e-02)
		return m.div(p, q)
	}
	a := m.abs(x)
	small := m.fma(x, R(m.mul(x, x)), x)
	t := m.mul(m.sub(m.k(1), a), m.k(0.5))
	s := m.sqrt(t)
	// π/2 in two parts, as fdlibm
	big := m.copysign(m.sub(m.k(1.57079632679489655800e+00), m.sub(m.mul(m.k(2), m.fma(s, R(t), s)), m.k(6.12323399573676603587e-17))), x)
	r := m.sel(m.lt(a, m.k(0.5)), small, big)
	return m.sel(m.lt(m.k(1), a), m.k(math.NaN()), r)
}

// asinF32 is P in asin s ≈ s + s³·P(s²) on [0, ½].
var asinF32 = []float64{0.16666752478534047, 0.07495297770980967, 0.04547036108023448, 0.024179583608115125, 0.042166197652844455}

// mathRound rounds half away from zero: the integer part, plus one step away from zero
// when the fraction reaches one half.
func mathRound(m mathOps, x num) num {
	a := m.abs(x)
	t := m.floor(a)
	r := m.sel(m.lt(m.sub(a, t), m.k(0.5)), t, m.add(t, m.k(1)))
	return m.copysign(r, x)
}
