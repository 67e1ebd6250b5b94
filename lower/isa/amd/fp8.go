package amd

import (
	"math"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/tileir"
)

// The fp8 conversions follow Triton 3.6's AMD backend (ElementwiseOpToLLVM.cpp), which
// supports the OCP formats (fp8e4nv = f8E4M3FN, fp8e5 = f8E5M2) and AMD's FNUZ ones
// (fp8e4b8 = f8E4M3FNUZ, fp8e5b16 = f8E5M2FNUZ) on every CDNA target. CDNA3 (gfx942)
// has conversion instructions for the FNUZ formats only (v_cvt_f32_fp8 and
// v_cvt_pk_fp8_f32, with their bf8 twins); every other conversion is integer code on
// the bits, as Triton's software paths are. gfx950's OCP instructions
// (v_cvt_scalef32_*) are not used: CDNA4 converts in software here too.
//
// Narrowing rounds to nearest, ties to even, and saturates: a finite value beyond the
// largest one becomes it, and so does an infinity in the OCP formats; NaN stays NaN
// (sign kept in the OCP formats); in the FNUZ formats, which have neither infinities nor
// -0, an infinity becomes NaN (0x80) and a value that rounds to zero is +0.

// fp8Format is one fp8 encoding: exp exponent and mant mantissa bits after the sign.
type fp8Format struct {
	exp, mant int
	// ieee: the top exponent holds infinities and NaNs (e5m2). Otherwise it holds
	// numbers: but for the NaN of mantissa all ones (e4m3fn), or all of it when fnuz.
	ieee bool
	// fnuz: the exponent bias is one more than IEEE's, 0x80 is the only NaN, and there
	// is no -0.
	fnuz bool
	// hw names the CDNA3 instruction suffix of a FNUZ format ("fp8", "bf8").
	hw string
}

var fp8Formats = map[tileir.Scalar]fp8Format{
	tileir.F8E4M3FN:   {exp: 4, mant: 3},
	tileir.F8E5M2:     {exp: 5, mant: 2, ieee: true},
	tileir.F8E4M3FNUZ: {exp: 4, mant: 3, fnuz: true, hw: "fp8"},
	tileir.F8E5M2FNUZ: {exp: 5, mant: 2, fnuz: true, hw: "bf8"},
}

func (f fp8Format) bias() int {
	if f.fnuz {
		return 1 << (f.exp - 1)
	}
	return 1<<(f.exp-1) - 1
}

// maxFinite is the bit pattern of the largest finite value.
func (f fp8Format) maxFinite() int64 {
	switch {
	case f.fnuz:
		return 0x7F
	case f.ieee:
		return int64((1<<f.exp-2)<<f.mant | (1<<f.mant - 1))
	}
	return 0x7E
}

// nan is the NaN the conversions produce (before the sign, in the OCP formats): the
// quiet NaN.
func (f fp8Format) nan() int64 {
	switch {
	case f.fnuz:
		return 0x80
	case f.ieee:
		return int64((1<<f.exp-1)<<f.mant | 1<<(f.mant-1))
	}
	return 0x7F
}

// hardware reports whether the target converts format f with instructions: the FNUZ
// formats on CDNA3.
func (a *ISA) hardware(f fp8Format) bool { return f.fnuz && a.t.Arch == "gfx942" }

// FP8ToF16 widens the fp8 bits x: on CDNA3 a FNUZ value by v_cvt_f32_fp8 (bf8), exact in
// f16; otherwise by integer code.
func (a *ISA) FP8ToF16(x value.Value, from tileir.Scalar) (value.Value, bool) {
	f, ok := fp8Formats[from]
	if !ok {
		return nil, false
	}
	cur := a.b.Block()
	if a.hardware(f) {
		w := a.b.Call("llvm.amdgcn.cvt.f32."+f.hw, types.Float, cur.NewZExt(x, types.I32), isa.I32(0))
		return a.b.Block().NewFPTrunc(w, types.Half), true
	}
	if f.ieee { // e5m2 is f16 without its low byte
		return a.b.BitCast(cur.NewShl(cur.NewZExt(x, types.I16), i16(8)), types.Half), true
	}
	return a.widenSoftware(x, f), true
}

// widenSoftware converts e4m3fn or a FNUZ format to f16. Where the f16 is normal (the fp8
// exponent e is at least 1, and for e5m2fnuz, whose bias is f16's plus one, at least 2),
// the magnitude's bits shift into place and the exponent is rebiased. Below that, the
// magnitude is an integer times 2^(1-bias-mant) (for e5m2fnuz's e = 1 too), which f16
// represents exactly: it is converted and scaled.
func (a *ISA) widenSoftware(x value.Value, f fp8Format) value.Value {
	cur := a.b.Block()
	x16 := cur.NewZExt(x, types.I16)
	mag := cur.NewAnd(x16, i16(0x7F))
	sign := cur.NewShl(cur.NewAnd(x16, i16(0x80)), i16(8))
	normal := cur.NewAdd(cur.NewShl(mag, i16(int64(10-f.mant))), i16(int64(15-f.bias())<<10))
	scaled := cur.NewFMul(cur.NewUIToFP(mag, types.Half), constant.NewFloat(types.Half, math.Ldexp(1, 1-f.bias()-f.mant)))
	low := cur.NewICmp(enum.IPredULT, mag, i16(int64(max(1, f.bias()-14))<<f.mant))
	bits := cur.NewOr(cur.NewSelect(low, a.b.BitCast(scaled, types.I16), normal), sign)
	isNaN, nan := cur.NewICmp(enum.IPredEQ, mag, i16(0x7F)), value.Value(cur.NewOr(sign, i16(0x7E00))) // e4m3fn: S.1111.111
	if f.fnuz {
		isNaN, nan = cur.NewICmp(enum.IPredEQ, x, i8(0x80)), i16(0x7E00)
	}
	return a.b.BitCast(cur.NewSelect(isNaN, nan, bits), types.Half)
}

// F32ToFP8 narrows the float f: on CDNA3 to a FNUZ format by v_cvt_pk_fp8_f32 (bf8),
// otherwise by integer code. As Triton does, a kernel that narrows to fp8 sets the
// MODE register's fp16_ovfl bit first, which makes those instructions saturate.
func (a *ISA) F32ToFP8(x value.Value, to tileir.Scalar) (value.Value, bool) {
	f, ok := fp8Formats[to]
	if !ok {
		return nil, false
	}
	a.setClamping()
	if a.hardware(f) {
		w := a.b.Call("llvm.amdgcn.cvt.pk."+f.hw+".f32", types.I32, x, constant.NewFloat(types.Float, 0), isa.I32(0), constant.False)
		return a.b.Block().NewTrunc(w, types.I8), true
	}
	return a.narrowSoftware(x, f), true
}

// modeFP16Overflow is s_setreg's hwreg(HW_REG_MODE, 23, 1): the register id (1) | the
// bit offset << 6 | (the width - 1) << 11.
const modeFP16Overflow = 1 | 23<<6

// setClamping sets MODE.fp16_ovfl at the kernel's entry, once: fp8 conversion
// instructions then saturate, as Triton's adjustModeRegister has every kernel with an fp8
// narrowing do. On gfx9 the bit also makes f16 results that overflow saturate.
func (a *ISA) setClamping() {
	if a.clamping {
		return
	}
	a.clamping = true
	setreg := ir.NewCall(a.b.Declare("llvm.amdgcn.s.setreg", types.Void, types.I32, types.I32), isa.I32(modeFP16Overflow), isa.I32(1))
	entry := a.b.Block().Parent.Blocks[0]
	entry.Insts = append([]ir.Instruction{setreg}, entry.Insts...)
}

// narrowSoftware rounds f to format f's bits on its f32 bits u. With a = |u|, a normal
// result is a with the exponent rebiased, shifted right by 23 - mant with rounding to
// nearest even; a subnormal one is the significand (1.m, 24 bits) shifted right by that
// plus how far the exponent lies below the format's least; shifts past 31 give 0. A
// rounding that carries into the next exponent gives the right bits in both. Results
// beyond the largest finite pattern saturate (infinities with them), then NaN (and for
// FNUZ, infinity) and the sign are applied.
func (a *ISA) narrowSoftware(x value.Value, f fp8Format) value.Value {
	cur := a.b.Block()
	u := a.b.BitCast(x, types.I32)
	abs := cur.NewAnd(u, isa.I32(0x7FFFFFFF))
	sign := cur.NewAnd(cur.NewLShr(u, isa.I32(24)), isa.I32(0x80))
	drop := int64(23 - f.mant)
	normal := roundShift(cur, cur.NewSub(abs, isa.I32(int64(127-f.bias())<<23)), isa.I32(drop), isa.I32(1<<(drop-1)-1))
	// shift = drop + (1 - bias) - (exponent - 127)
	shift := cur.NewSub(isa.I32(drop+int64(128-f.bias())), cur.NewLShr(abs, isa.I32(23)))
	shift31 := cur.NewSelect(cur.NewICmp(enum.IPredUGT, shift, isa.I32(31)), isa.I32(31), shift)
	signif := cur.NewOr(cur.NewAnd(abs, isa.I32(0x7FFFFF)), isa.I32(0x800000))
	sub := roundShift(cur, signif, shift31, cur.NewSub(cur.NewShl(isa.I32(1), cur.NewSub(shift31, isa.I32(1))), isa.I32(1)))
	isSub := cur.NewICmp(enum.IPredULT, abs, isa.I32(int64(128-f.bias())<<23))
	r := value.Value(cur.NewSelect(isSub, sub, normal))
	maxBits := isa.I32(f.maxFinite())
	r = cur.NewSelect(cur.NewICmp(enum.IPredUGT, r, maxBits), maxBits, r)
	special := enum.IPredUGT // NaN
	if f.fnuz {
		special = enum.IPredUGE // NaN or infinity
	}
	r = cur.NewSelect(cur.NewICmp(special, abs, isa.I32(0x7F800000)), isa.I32(f.nan()), r)
	if f.fnuz { // no -0; NaN is 0x80 whatever the sign
		signed := cur.NewSelect(cur.NewICmp(enum.IPredEQ, r, isa.I32(0)), isa.I32(0), sign)
		r = cur.NewOr(r, signed)
	} else {
		r = cur.NewOr(r, sign)
	}
	return cur.NewTrunc(r, types.I8)
}

// roundShift is x >> s (s from 1 to 31) rounded to nearest, ties to even: x plus
// below, half an output unit less one (2^(s-1) - 1), plus the kept low bit, shifted.
func roundShift(cur *ir.Block, x, s, below value.Value) value.Value {
	odd := cur.NewAnd(cur.NewLShr(x, s), isa.I32(1))
	return cur.NewLShr(cur.NewAdd(cur.NewAdd(x, below), odd), s)
}

func i8(v int64) *constant.Int  { return constant.NewInt(types.I8, v) }
func i16(v int64) *constant.Int { return constant.NewInt(types.I16, v) }
