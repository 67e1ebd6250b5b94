package simt

import "math"

// minifloat is a binary floating-point format narrower than float32: exp exponent bits,
// mant mantissa bits; finite formats (fp8 e4m3fn) have no infinities and one NaN pattern.
type minifloat struct {
	exp, mant int
	finite    bool
}

var (
	half  = minifloat{5, 10, false}
	bf16  = minifloat{8, 7, false}
	e4m3  = minifloat{4, 3, true}
	e5m2  = minifloat{5, 2, false}
	f16of = newTable(half)
)

func (f minifloat) bits() int { return 1 + f.exp + f.mant }

// decode returns the float64 value of bit pattern b.
func (f minifloat) decode(b uint64) float64 {
	sign := 1.0
	if b>>(f.exp+f.mant)&1 != 0 {
		sign = -1
	}
	e := int(b >> f.mant & mask(f.exp))
	m := b & mask(f.mant)
	bias := 1<<(f.exp-1) - 1
	top := int(mask(f.exp))
	switch {
	case f.finite && e == top && m == mask(f.mant):
		return math.NaN()
	case !f.finite && e == top && m != 0:
		return math.NaN()
	case !f.finite && e == top:
		return sign * math.Inf(1)
	case e == 0:
		return sign * math.Ldexp(float64(m), 1-bias-f.mant)
	}
	return sign * math.Ldexp(float64(m|1<<f.mant), e-bias-f.mant)
}

// encode rounds x to the nearest value of the format (ties to even) and returns its bits.
// Overflow gives infinity, or for a finite format (satfinite conversions) the largest
// finite value when sat is set and NaN otherwise.
func (f minifloat) encode(x float64, sat bool) uint64 {
	signBit := uint64(1) << (f.exp + f.mant)
	var sign uint64
	if math.Signbit(x) {
		sign, x = signBit, -x
	}
	bias := 1<<(f.exp-1) - 1
	top := int(mask(f.exp))
	nan := uint64(mask(f.exp))<<f.mant | 1<<(f.mant-1)
	maxE, maxM := top-1, mask(f.mant)
	if f.finite {
		nan = mask(f.exp + f.mant)
		maxE, maxM = top, mask(f.mant)-1
	}
	maxBits := uint64(maxE)<<f.mant | maxM
	switch {
	case math.IsNaN(x):
		return sign | nan
	case math.IsInf(x, 0) && !f.finite && !sat:
		return sign | uint64(top)<<f.mant
	case math.IsInf(x, 0):
		if sat {
			return sign | maxBits
		}
		return sign | nan
	case x == 0:
		return sign
	}
	_, e := math.Frexp(x) // x = fr * 2^e, fr in [0.5, 1)
	e--                   // x = 1.m * 2^e
	if e < 1-bias {
		e = 1 - bias // subnormal: fixed quantum
	}
	q := math.Ldexp(1, e-f.mant)
	r := math.RoundToEven(x / q) // the mantissa with its implicit bit, in quanta
	v := r * q
	bits := uint64(0)
	if v != 0 {
		_, ve := math.Frexp(v)
		ve--
		if ve < 1-bias {
			bits = uint64(v / math.Ldexp(1, 1-bias-f.mant)) // subnormal
		} else {
			bits = uint64(ve+bias)<<f.mant | uint64(v/math.Ldexp(1, ve-f.mant))&mask(f.mant)
		}
	}
	if v > f.decode(maxBits) {
		switch {
		case sat:
			return sign | maxBits
		case f.finite:
			return sign | nan
		}
		return sign | uint64(top)<<f.mant
	}
	return sign | bits
}

// newTable decodes every bit pattern of a 16-bit or narrower format once.
func newTable(f minifloat) []float32 {
	t := make([]float32, 1<<f.bits())
	for b := range t {
		t[b] = float32(f.decode(uint64(b)))
	}
	return t
}

// toFloat returns the value of element bits b of float kind k.
func toFloat(k kind, b uint64) float64 {
	switch k {
	case kF16:
		return float64(f16of[b&0xFFFF])
	case kBF16:
		return float64(math.Float32frombits(uint32(b) << 16))
	case kF32:
		return float64(math.Float32frombits(uint32(b)))
	}
	return math.Float64frombits(b)
}

// fromFloat rounds x to float kind k (ties to even) and returns its bits.
func fromFloat(k kind, x float64) uint64 {
	switch k {
	case kF16:
		return half.encode(x, false)
	case kBF16:
		return bf16.encode(x, false)
	case kF32:
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(x)
}
