package simt

import (
	"fmt"
	"math"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
)

// CDNA3's fp8 conversion instructions and the MODE register bit that makes them
// saturate, as package lower emits them for gfx942 (lower/isa/amd/fp8.go). Their fp8 and
// bf8 are AMD's FNUZ formats (gfx942's; gfx950 reads them as OCP's, which lower does not
// emit them for).

// fnuz is an fp8 format of AMD's FNUZ kind: exp exponent bits of bias 2^(exp-1), mant
// mantissa bits, every exponent holding numbers, 0x80 the only NaN, no -0 and no
// infinities.
type fnuz struct{ exp, mant int }

var (
	e4m3fnuz = fnuz{4, 3}
	e5m2fnuz = fnuz{5, 2}
)

// modeFP16Overflow is MODE.fp16_ovfl, the bit that makes the conversions saturate.
const modeFP16Overflow = 1 << 23

func (f fnuz) bias() int { return 1 << (f.exp - 1) }

// decode returns the value of bit pattern b.
func (f fnuz) decode(b uint64) float64 {
	b &= 0xFF
	if b == 0x80 {
		return math.NaN()
	}
	e, m := int(b>>f.mant&mask(f.exp)), float64(b&mask(f.mant))
	v := math.Ldexp(m, 1-f.bias()-f.mant)
	if e > 0 {
		v = math.Ldexp(m+float64(int(1)<<f.mant), e-f.bias()-f.mant)
	}
	if b&0x80 != 0 {
		return -v
	}
	return v
}

// encode rounds x to nearest, ties to even. NaN and infinities give NaN, and so do
// finite values beyond the largest one unless clamp (MODE.fp16_ovfl) makes them it; a
// value that rounds to zero is +0. With clamp this is what Triton's software conversion
// for targets without the instructions computes.
func (f fnuz) encode(x float64, clamp bool) uint64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0x80
	}
	var sign uint64
	if x < 0 {
		sign, x = 0x80, -x
	}
	_, e := math.Frexp(x) // x = fr * 2^e, fr in [0.5, 1)
	e = max(e-1, 1-f.bias())
	q := math.Ldexp(1, e-f.mant) // the quantum of x's binade
	v := math.RoundToEven(x/q) * q
	switch {
	case v > f.decode(0x7F) && clamp:
		return sign | 0x7F
	case v > f.decode(0x7F):
		return 0x80
	case v == 0:
		return 0
	}
	_, ve := math.Frexp(v)
	ve--
	if ve < 1-f.bias() { // subnormal
		return sign | uint64(v/math.Ldexp(1, 1-f.bias()-f.mant))
	}
	return sign | uint64(ve+f.bias())<<f.mant | uint64(v/math.Ldexp(1, ve-f.mant))&mask(f.mant)
}

// modeKey keys a kernel's MODE register in its builder's slots: one i32 per lane, zero
// (the hardware's default) when a frame is made.
var modeKey = ir.NewGlobal("amdgcn.mode", types.I32)

func modeRegister(b *builder) (operand, error) {
	if o, ok := b.slots[modeKey]; ok {
		return o, nil
	}
	o, err := b.alloc(types.I32)
	if err == nil {
		b.slots[modeKey] = o
	}
	return o, err
}

// setreg is s_setreg_b32 hwreg(id, offset, size), v: it writes the low size bits of v
// at offset of the hardware register id, of which only MODE (1) is modelled.
func setreg(s *site) (op, error) {
	c, ok := s.inst.Args[0].(*constant.Int)
	if !ok || len(s.args) != 2 {
		return nil, fmt.Errorf("s.setreg needs a constant hwreg operand and a value")
	}
	reg := c.X.Int64()
	if id := reg & 63; id != 1 {
		return nil, fmt.Errorf("s.setreg of hardware register %d: only MODE (1) is modelled", id)
	}
	offset, size := reg>>6&31, reg>>11&31+1
	field := mask(int(size)) << offset
	mode, err := modeRegister(s.b)
	if err != nil {
		return nil, err
	}
	v := s.args[1]
	return func(f *frame) error {
		for l := range f.lanes {
			if f.on(l) {
				r := &f.regs[mode.off+l]
				*r = *r&^field | f.regs[v.off+l]<<offset&field
			}
		}
		return nil
	}, nil
}

// cvtFromFP8 is v_cvt_f32_fp8 (bf8): byte byte_sel of src widened to f32.
func cvtFromFP8(format fnuz) intrinsic {
	return func(s *site) (op, error) {
		if len(s.args) != 2 {
			return nil, fmt.Errorf("cvt.f32.fp8 with %d operands", len(s.args))
		}
		src, sel, dst := s.args[0], s.args[1], s.dst
		return func(f *frame) error {
			for l := range f.lanes {
				if f.on(l) {
					b := f.regs[src.off+l] >> (8 * (f.regs[sel.off+l] & 3))
					f.regs[dst.off+l] = fromFloat(kF32, format.decode(b))
				}
			}
			return nil
		}, nil
	}
}

// cvtPkToFP8 is v_cvt_pk_fp8_f32 (bf8) a, b, old, word_sel: a and b narrowed into the
// low (word_sel false) or high half of old, saturating where MODE.fp16_ovfl is set.
func cvtPkToFP8(format fnuz) intrinsic {
	return func(s *site) (op, error) {
		if len(s.args) != 4 {
			return nil, fmt.Errorf("cvt.pk.fp8.f32 with %d operands", len(s.args))
		}
		mode, err := modeRegister(s.b)
		if err != nil {
			return nil, err
		}
		x, y, old, hi, dst := s.args[0], s.args[1], s.args[2], s.args[3], s.dst
		return func(f *frame) error {
			for l := range f.lanes {
				if !f.on(l) {
					continue
				}
				clamp := f.regs[mode.off+l]&modeFP16Overflow != 0
				pair := format.encode(toFloat(kF32, f.regs[x.off+l]), clamp) | format.encode(toFloat(kF32, f.regs[y.off+l]), clamp)<<8
				shift := 16 * (f.regs[hi.off+l] & 1)
				f.regs[dst.off+l] = f.regs[old.off+l]&^(0xFFFF<<shift)&0xFFFFFFFF | pair<<shift
			}
			return nil
		}, nil
	}
}
