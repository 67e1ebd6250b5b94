package cpu

import (
	"math"
	"math/bits"
	"sync"

	"github.com/gotriton/gotriton/tileir"
)

// Floats of every width live in float64 slices, each element exactly representable in its
// tile's element type. A format rounds float64 values to a narrower type (round to nearest
// even, as the GPU's cvt.rn) and converts between values and the type's bit patterns.

// format describes a binary floating-point type narrower than float64.
type format struct {
	exp, mant int
	// finite types (e4m3fn) have no infinities: the all-ones pattern is NaN and conversions
	// saturate to the largest finite value (cvt.rn.satfinite), as Triton's fp8 casts do.
	finite    bool
	bias      int
	maxFinite float64
	decode    []float64 // value of each bit pattern, for types of up to 16 bits
}

var (
	fmtF16    = newFormat(5, 10, false)
	fmtBF16   = newFormat(8, 7, false)
	fmtE5M2   = newFormat(5, 2, false)
	fmtE4M3FN = newFormat(4, 3, true)
	fmtTF32   = newFormat(8, 10, false)
	fmtF32    = newFormat(8, 23, false) // only for NaN payloads: float32 does the rest
)

func newFormat(exp, mant int, finite bool) *format {
	f := &format{exp: exp, mant: mant, finite: finite, bias: 1<<(exp-1) - 1}
	emax := f.bias
	top := 2 - math.Ldexp(1, -mant)
	if finite { // the top exponent holds numbers too, all but the NaN pattern
		emax++
		top -= math.Ldexp(1, -mant)
	}
	f.maxFinite = math.Ldexp(top, emax)
	return f
}

// formatOf returns the narrow format of s, or nil for f32, f64 and integers.
func formatOf(s tileir.Scalar) *format {
	switch s {
	case tileir.F16:
		return fmtF16
	case tileir.BF16:
		return fmtBF16
	case tileir.F8E5M2:
		return fmtE5M2
	case tileir.F8E4M3FN:
		return fmtE4M3FN
	}
	return nil
}

// round rounds x to the nearest value of f, ties to even.
func (f *format) round(x float64) float64 {
	ax := math.Abs(x)
	if ax == 0 || math.IsNaN(x) {
		return x
	}
	if math.IsInf(x, 0) {
		if f.finite {
			return math.Copysign(f.maxFinite, x)
		}
		return x
	}
	if ax >= 2*f.maxFinite {
		return math.Copysign(f.overflow(), x)
	}
	e := int(math.Float64bits(ax)>>52&0x7ff) - 1023
	q := max(e, 1-f.bias) - f.mant // exponent of one unit in the last place
	c := math.Float64frombits(uint64(q+52+1023) << 52)
	r := (ax + c) - c // float64 addition rounds ax to a multiple of 2^q, ties to even
	if r > f.maxFinite {
		r = f.overflow()
	}
	return math.Copysign(r, x)
}

// overflow is the magnitude that values past the largest finite one round to.
func (f *format) overflow() float64 {
	if f.finite {
		return f.maxFinite
	}
	return math.Inf(1)
}

// bits encodes x, which must already be a value of f.
func (f *format) bits(x float64) uint64 {
	var sign uint64
	if math.Signbit(x) {
		sign = 1 << (f.exp + f.mant)
	}
	ax := math.Abs(x)
	expMask := uint64(1)<<f.exp - 1
	switch {
	case math.IsNaN(x): // keep the payload's top bits
		frac := math.Float64bits(x) >> (52 - f.mant) & (1<<f.mant - 1)
		if f.finite {
			frac = 1<<f.mant - 1
		} else if frac == 0 {
			frac = 1 << (f.mant - 1)
		}
		return sign | expMask<<f.mant | frac
	case math.IsInf(x, 0):
		return sign | expMask<<f.mant
	case ax == 0:
		return sign
	}
	b := math.Float64bits(ax)
	e := int(b>>52&0x7ff) - 1023
	if e < 1-f.bias { // subnormal in f
		return sign | uint64(math.Ldexp(ax, f.bias-1+f.mant))
	}
	return sign | uint64(e+f.bias)<<f.mant | (b>>(52-f.mant))&(1<<f.mant-1)
}

// value decodes a bit pattern of f.
func (f *format) value(b uint64) float64 {
	sign := 1.0
	if b>>(f.exp+f.mant)&1 != 0 {
		sign = -1
	}
	e := int(b>>f.mant) & (1<<f.exp - 1)
	frac := b & (1<<f.mant - 1)
	switch {
	case e == 1<<f.exp-1 && f.finite && frac == 1<<f.mant-1:
		return nanWithPayload(b>>(f.exp+f.mant)&1, frac, f.mant)
	case e == 1<<f.exp-1 && !f.finite && frac == 0:
		return sign * math.Inf(1)
	case e == 1<<f.exp-1 && !f.finite:
		return nanWithPayload(b>>(f.exp+f.mant)&1, frac, f.mant)
	case e == 0:
		return sign * math.Ldexp(float64(frac), 1-f.bias-f.mant)
	}
	return sign * math.Ldexp(1+math.Ldexp(float64(frac), -f.mant), e-f.bias)
}

var decodeOnce sync.Once

// table returns f's decode table, built on first use.
func (f *format) table() []float64 {
	decodeOnce.Do(func() {
		for _, g := range []*format{fmtF16, fmtBF16, fmtE5M2, fmtE4M3FN} {
			n := 1 << (g.exp + g.mant + 1)
			g.decode = make([]float64, n)
			for b := range n {
				g.decode[b] = g.value(uint64(b))
			}
		}
	})
	return f.decode
}

// rounder returns the function that rounds float64 results to element type s.
func rounder(s tileir.Scalar) func(float64) float64 {
	if f := formatOf(s); f != nil {
		return f.round
	}
	if s == tileir.F32 {
		return func(x float64) float64 {
			if x != x { // a NaN keeps its payload (float32(x) would quiet it)
				return x
			}
			return float64(float32(x))
		}
	}
	return func(x float64) float64 { return x }
}

// floatBits returns the bit pattern of x as element type s.
func floatBits(x float64, s tileir.Scalar) uint64 {
	switch s {
	case tileir.F32:
		if x != x {
			return fmtF32.bits(x)
		}
		return uint64(math.Float32bits(float32(x)))
	case tileir.F64:
		return math.Float64bits(x)
	}
	return formatOf(s).bits(x)
}

// floatFromBits decodes a bit pattern of element type s.
func floatFromBits(b uint64, s tileir.Scalar) float64 {
	switch s {
	case tileir.F32:
		if b&0x7f800000 == 0x7f800000 && b&0x7fffff != 0 {
			return nanWithPayload(b>>31, b&0x7fffff, 23)
		}
		return float64(math.Float32frombits(uint32(b)))
	case tileir.F64:
		return math.Float64frombits(b)
	}
	return formatOf(s).table()[b]
}

// nanWithPayload returns a float64 NaN that carries the sign and the mant-bit payload frac
// in its top fraction bits, so that loads, stores and bitcasts keep NaN payloads (the
// hardware's float32 to float64 conversion would set the quiet bit).
func nanWithPayload(sign, frac uint64, mant int) float64 {
	return math.Float64frombits(sign<<63 | 0x7ff<<52 | frac<<(52-mant))
}

// Exact conversions and fused multiply-adds into narrow float types. Results are held in
// float64 and rounded to the result type afterwards (mapF), which rounds twice. Returning
// the exact value rounded to float64 by round-to-odd instead (the last bit set when bits
// were lost) makes the second rounding correct for every type of at most 51 significand
// bits: fp32, fp16, bf16, fp8 and tf32.

// toOdd returns s, the float64 nearest to the exact value s + e (e being the rounding
// error of s), moved one ulp toward e when the result was inexact and s is even: the
// round-to-odd value of s + e.
func toOdd(s, e float64) float64 {
	if e == 0 || math.IsInf(s, 0) || math.IsNaN(e) || math.Float64bits(s)&1 == 1 {
		return s
	}
	return math.Nextafter(s, math.Copysign(math.Inf(1), e))
}

// fmaTo returns a*b + c for a result of type to: exact and rounded once for f64, else
// rounded to odd in float64 so that the rounding to type to is the only one. For
// operands of at most 26 significand bits the product a*b is exact in float64, and
// TwoSum gives the sum's rounding error exactly.
func fmaTo(a, b, c float64, to tileir.Scalar) float64 {
	if to == tileir.F64 {
		return math.FMA(a, b, c)
	}
	p := a * b
	s := p + c
	bb := s - p
	return toOdd(s, (p-(s-bb))+(c-bb))
}

// uintTo converts the integer of magnitude mag and sign neg to float64 for a result of
// type to: rounded to nearest even for f64, else rounded to odd at 53 bits.
func uintTo(mag uint64, neg bool, to tileir.Scalar) float64 {
	var f float64
	if n := bits.Len64(mag); to == tileir.F64 || n <= 53 {
		f = float64(mag)
	} else {
		k := n - 53
		m := mag >> k
		if mag&(1<<k-1) != 0 {
			m |= 1
		}
		f = math.Ldexp(float64(m), k)
	}
	if neg {
		return -f
	}
	return f
}
