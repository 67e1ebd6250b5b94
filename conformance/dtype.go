package conformance

import (
	"encoding/binary"
	"fmt"
	"math"
)

// DType is an element type, spelled as in triton.tools.compile signatures.
type DType string

// The element types a case's tensors can have.
const (
	FP64    DType = "fp64"
	FP32    DType = "fp32"
	FP16    DType = "fp16"
	BF16    DType = "bf16"
	FP8E4NV DType = "fp8e4nv" // e4m3fn: no infinities, max 448
	FP8E5   DType = "fp8e5"   // e5m2: IEEE-like
	I1      DType = "i1"      // one byte per element, 0 or 1
	I8      DType = "i8"
	I16     DType = "i16"
	I32     DType = "i32"
	I64     DType = "i64"
	U8      DType = "u8"
	U16     DType = "u16"
	U32     DType = "u32"
	U64     DType = "u64"
)

// Size returns the element size in bytes.
func (d DType) Size() int {
	switch d {
	case FP64, I64, U64:
		return 8
	case FP32, I32, U32:
		return 4
	case FP16, BF16, I16, U16:
		return 2
	case FP8E4NV, FP8E5, I1, I8, U8:
		return 1
	}
	panic(fmt.Sprintf("conformance: unknown dtype %q", string(d)))
}

// IsFloat reports whether d is a floating-point type.
func (d DType) IsFloat() bool {
	switch d {
	case FP64, FP32, FP16, BF16, FP8E4NV, FP8E5:
		return true
	}
	return false
}

// Tolerance is the largest relative L2 error an output of type d may have. Integer outputs
// must be exact. tf32 results are fp32 tensors checked with TF32Tolerance instead.
func (d DType) Tolerance() float64 {
	switch d {
	case FP64:
		return 1e-12
	case FP32:
		return 1e-5
	case FP16, BF16:
		return 1e-2
	case FP8E4NV, FP8E5:
		// Three (e4m3) or two (e5m2) mantissa bits: one rounding alone is up to 6%
		// (e4m3) or 12.5% (e5m2) of a value; the L2 average is about a third of that.
		return 1e-1
	}
	return 0
}

// TF32Tolerance is the tolerance for fp32 outputs of tl.dot with tf32 inputs.
const TF32Tolerance = 1e-3

// minifloat is a binary float format narrower than fp32.
type minifloat struct {
	exp, mant int
	ieee      bool // has infinities and NaNs at the top exponent (else: e4m3fn)
}

func (d DType) mini() (minifloat, bool) {
	switch d {
	case FP16:
		return minifloat{5, 10, true}, true
	case BF16:
		return minifloat{8, 7, true}, true
	case FP8E5:
		return minifloat{5, 2, true}, true
	case FP8E4NV:
		return minifloat{4, 3, false}, true
	}
	return minifloat{}, false
}

func (f minifloat) bias() int { return 1<<(f.exp-1) - 1 }

// maxFinite is the largest finite value.
func (f minifloat) maxFinite() float64 {
	if f.ieee {
		return math.Ldexp(2-math.Ldexp(1, -f.mant), f.bias())
	}
	// e4m3fn: the top exponent is usable, except mantissa all-ones (NaN).
	return math.Ldexp(2-math.Ldexp(1, 1-f.mant), f.bias()+1)
}

// round rounds x to the nearest representable value, ties to even. Values past the
// largest finite one become infinities (ieee) or NaN (e4m3fn, as a saturating-free cast).
func (f minifloat) round(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		if !f.ieee && math.IsInf(x, 0) {
			return math.NaN()
		}
		return x
	}
	_, e := math.Frexp(x)
	e--
	e = max(e, 1-f.bias())
	q := math.Ldexp(1, e-f.mant)
	r := math.RoundToEven(x/q) * q
	if math.Abs(r) > f.maxFinite() {
		if f.ieee {
			return math.Copysign(math.Inf(1), x)
		}
		return math.NaN()
	}
	return r
}

func (f minifloat) encode(x float64) uint64 {
	x = f.round(x)
	var sign uint64
	if math.Signbit(x) {
		sign = 1 << (f.exp + f.mant)
	}
	top := uint64(1)<<f.exp - 1
	switch {
	case math.IsNaN(x):
		if f.ieee {
			return top<<f.mant | 1<<(f.mant-1)
		}
		return top<<f.mant | (1<<f.mant - 1)
	case math.IsInf(x, 0):
		return sign | top<<f.mant
	case x == 0:
		return sign
	}
	a := math.Abs(x)
	_, e := math.Frexp(a)
	e--
	if e < 1-f.bias() {
		return sign | uint64(math.Round(a/math.Ldexp(1, 1-f.bias()-f.mant)))
	}
	frac := uint64(math.Round((a/math.Ldexp(1, e) - 1) * math.Ldexp(1, f.mant)))
	return sign | uint64(e+f.bias())<<f.mant | frac
}

func (f minifloat) decode(b uint64) float64 {
	sign := 1.0
	if b>>(f.exp+f.mant)&1 == 1 {
		sign = -1
	}
	e := int(b>>f.mant) & (1<<f.exp - 1)
	m := b & (1<<f.mant - 1)
	top := 1<<f.exp - 1
	if f.ieee && e == top {
		if m == 0 {
			return sign * math.Inf(1)
		}
		return math.NaN()
	}
	if !f.ieee && e == top && m == 1<<f.mant-1 {
		return math.NaN()
	}
	if e == 0 {
		return sign * math.Ldexp(float64(m), 1-f.bias()-f.mant)
	}
	return sign * math.Ldexp(1+float64(m)/float64(uint64(1)<<f.mant), e-f.bias())
}

// Round returns x as the nearest value of type d (integers wrap as a C cast would after
// truncation toward zero; i1 is x != 0).
func (d DType) Round(x float64) float64 {
	if mf, ok := d.mini(); ok {
		return mf.round(x)
	}
	switch d {
	case FP64:
		return x
	case FP32:
		return float64(float32(x))
	case I1:
		if x != 0 {
			return 1
		}
		return 0
	}
	return d.Decode(d.Encode([]float64{x}))[0]
}

// Encode returns the little-endian bytes of xs as elements of type d.
func (d DType) Encode(xs []float64) []byte {
	n := d.Size()
	out := make([]byte, len(xs)*n)
	le := binary.LittleEndian
	mf, mini := d.mini()
	for i, x := range xs {
		b := out[i*n:]
		switch {
		case mini && n == 2:
			le.PutUint16(b, uint16(mf.encode(x)))
		case mini:
			b[0] = byte(mf.encode(x))
		case d == FP64:
			le.PutUint64(b, math.Float64bits(x))
		case d == FP32:
			le.PutUint32(b, math.Float32bits(float32(x)))
		case d == I1:
			if x != 0 {
				b[0] = 1
			}
		default:
			v := uint64(int64(x))
			if x >= 1<<63 {
				v = uint64(x)
			}
			switch n {
			case 1:
				b[0] = byte(v)
			case 2:
				le.PutUint16(b, uint16(v))
			case 4:
				le.PutUint32(b, uint32(v))
			case 8:
				le.PutUint64(b, v)
			}
		}
	}
	return out
}

// Decode reads little-endian elements of type d.
func (d DType) Decode(raw []byte) []float64 {
	n := d.Size()
	out := make([]float64, len(raw)/n)
	le := binary.LittleEndian
	mf, mini := d.mini()
	for i := range out {
		b := raw[i*n:]
		switch {
		case mini && n == 2:
			out[i] = mf.decode(uint64(le.Uint16(b)))
		case mini:
			out[i] = mf.decode(uint64(b[0]))
		case d == FP64:
			out[i] = math.Float64frombits(le.Uint64(b))
		case d == FP32:
			out[i] = float64(math.Float32frombits(le.Uint32(b)))
		case d == I1:
			out[i] = float64(b[0])
		case d == I8:
			out[i] = float64(int8(b[0]))
		case d == U8:
			out[i] = float64(b[0])
		case d == I16:
			out[i] = float64(int16(le.Uint16(b)))
		case d == U16:
			out[i] = float64(le.Uint16(b))
		case d == I32:
			out[i] = float64(int32(le.Uint32(b)))
		case d == U32:
			out[i] = float64(le.Uint32(b))
		case d == I64:
			out[i] = float64(int64(le.Uint64(b)))
		case d == U64:
			out[i] = float64(le.Uint64(b))
		}
	}
	return out
}
