package tileir

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// decomposeDotScaledPass is the pass table's entry for DecomposeDotScaled: it rewrites the
// tt.dot_scaled ops it supports and leaves the others for the lowering to refuse.
func decomposeDotScaledPass(f *Func) bool {
	changed, _ := decomposeDotScaled(f)
	return changed
}

// DecomposeDotScaled rewrites every tt.dot_scaled of m into ops that every target lowers,
// as Triton 3.6's DecomposeScaledBlocked pattern does on targets without microscaling MMA
// (sm_80, sm_90): each operand is upcast to the compute type (fp16 when either format is
// fp16, else bf16; e2m1 nibbles unpacked along K, low nibble first), multiplied by its
// e8m0 scale 2^(s-127) in that type (s = 0 gives 0, as Triton's bit shift does; s = 0xFF
// gives NaN unless fastMath), and the two meet in a tt.dot with the fp32 accumulator.
// The first tt.dot_scaled that Triton cannot decompose either (operands packed along M or
// N, fp8 scales, scales of the wrong shape) is an error at its location; the supported
// ones are rewritten all the same.
func DecomposeDotScaled(m *Module) error {
	var first error
	for _, f := range m.Funcs {
		if _, err := decomposeDotScaled(f); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// decomposeDotScaled rewrites the supported tt.dot_scaled ops of f and returns the error of
// the first unsupported one.
func decomposeDotScaled(f *Func) (changed bool, first error) {
	rw := newRewriter()
	rw.walk(f, func(op *Op) {
		if op.Name != "tt.dot_scaled" {
			return
		}
		d, err := readDotScaled(op)
		if err != nil {
			if first == nil {
				first = fmt.Errorf("%s:%d:%d: 'tt.dot_scaled' op: %v", op.Loc.File, op.Loc.Line, op.Loc.Col, err)
			}
			return
		}
		b := &Builder{Loc: op.Loc}
		b.SetInsertionPointBefore(op)
		x := d.scaledOperand(b, 0)
		y := d.scaledOperand(b, 1)
		rw.replace(op, b.Dot(x, y, d.acc, "ieee", 0))
	})
	return rw.changed, first
}

// dotScaled is one tt.dot_scaled, read and checked.
type dotScaled struct {
	v, scale [2]*Value  // operands and their scales (nil when None)
	format   [2]string  // e2m1, e4m3, e5m2, bf16 or fp16
	acc      *Value     // the fp32 accumulator
	compute  Scalar     // F16 or BF16
	fastMath bool       // no NaN for a scale of 0xFF
	shape    [2][]int64 // the operands' shapes once unpacked
}

// readDotScaled reads op's operands (lhs, lhs_scale?, rhs, rhs_scale?, acc, as its
// operandSegmentSizes say) and attributes, and checks what the decomposition needs.
func readDotScaled(op *Op) (*dotScaled, error) {
	seg, ok := op.Attr("operandSegmentSizes").(I32ArrayAttr)
	if !ok || len(seg) != 5 || seg[0] != 1 || seg[2] != 1 || seg[4] != 1 || seg[1] > 1 || seg[3] > 1 ||
		int(seg[0]+seg[1]+seg[2]+seg[3]+seg[4]) != len(op.Operands) {
		return nil, fmt.Errorf("operandSegmentSizes must be array<i32: 1, 0|1, 1, 0|1, 1> and match the %d operands", len(op.Operands))
	}
	d := &dotScaled{fastMath: op.Attr("fastMath") == BoolAttr(true)}
	next := op.Operands
	take := func(n int32) *Value {
		if n == 0 {
			return nil
		}
		v := next[0]
		next = next[1:]
		return v
	}
	d.v[0], d.scale[0], d.v[1], d.scale[1], d.acc = take(seg[0]), take(seg[1]), take(seg[2]), take(seg[3]), take(seg[4])
	d.compute = BF16
	for i, side := range [2]string{"lhs", "rhs"} {
		attr := [2]string{"a_elem_type", "b_elem_type"}[i]
		a, ok := op.Attr(attr).(EnumAttr)
		f := strings.TrimSuffix(strings.TrimPrefix(string(a), "#tt<scale_dot_elem_type "), ">")
		if !ok || !slices.Contains([]string{"e2m1", "e4m3", "e5m2", "bf16", "fp16"}, f) {
			return nil, fmt.Errorf("%s = %v is not one of the formats e2m1, e4m3, e5m2, bf16, fp16", attr, op.Attr(attr))
		}
		d.format[i] = f
		if f == "fp16" {
			d.compute = F16
		}
		if op.Attr([2]string{"lhs_k_pack", "rhs_k_pack"}[i]) == BoolAttr(false) {
			return nil, fmt.Errorf("%s_k_pack=False is not supported: Triton 3.6 decomposes dot_scaled only for operands packed along K on targets without microscaling MMA (sm_80, sm_90), and gotriton lowers no such MMA", side)
		}
		t, ok := d.v[i].Type.(*TensorType)
		if !ok || t.Elem() != formatElem(f) {
			return nil, fmt.Errorf("%s must be a tensor of %s for format %s, got %s", side, formatElem(f), f, d.v[i].Type)
		}
		if r := len(t.Shape()); r != 2 && r != 3 {
			return nil, fmt.Errorf("operands must both be 2-D or both 3-D, got %s and %s", d.v[0].Type, d.v[1].Type)
		}
		d.shape[i] = slices.Clone(t.Shape())
		if f == "e2m1" {
			d.shape[i][kDim(i, len(t.Shape()))] *= 2
		}
	}
	r := len(d.shape[0])
	if len(d.shape[1]) != r {
		return nil, fmt.Errorf("operands must both be 2-D or both 3-D, got %s and %s", d.v[0].Type, d.v[1].Type)
	}
	m, k, n := d.shape[0][r-2], d.shape[0][r-1], d.shape[1][r-1]
	if d.shape[1][r-2] != k {
		return nil, fmt.Errorf("reduction dimensions differ: %s and %s hold %d and %d elements along K", d.v[0].Type, d.v[1].Type, k, d.shape[1][r-2])
	}
	want := Tensor(append(slices.Clone(d.shape[0][:r-2]), m, n), F32)
	if d.acc.Type != want || op.Results[0].Type != want {
		return nil, fmt.Errorf("the accumulator and the result must be %s, got %s and %s", want, d.acc.Type, op.Results[0].Type)
	}
	for i, rows := range [2]int64{m, n} {
		s := d.scale[i]
		if s == nil {
			continue
		}
		side := [2]string{"lhs", "rhs"}[i]
		st, ok := s.Type.(*TensorType)
		if !ok || st.Elem() != I8 {
			return nil, fmt.Errorf("%s_scale must be a tensor of uint8 (e8m0), got %s: Triton 3.6 decomposes no other scale type on targets without microscaling MMA", side, s.Type)
		}
		if want := []int64{rows, k / 32}; k%32 != 0 || !slices.Equal(st.Shape(), want) {
			return nil, fmt.Errorf("%s_scale must be a tensor of shape [%d, %d]. Got %s", side, rows, k/32, shapeList(st.Shape()))
		}
	}
	return d, nil
}

// formatElem is the element type an operand of format f has in tile IR.
func formatElem(f string) Scalar {
	return map[string]Scalar{"e2m1": I8, "e4m3": F8E4M3FN, "e5m2": F8E5M2, "bf16": BF16, "fp16": F16}[f]
}

// kDim is the reduction dimension of operand i (0 lhs, 1 rhs) of the given rank.
func kDim(i, rank int) int {
	if i == 0 {
		return rank - 1
	}
	return rank - 2
}

func shapeList(s []int64) string {
	return strings.ReplaceAll(fmt.Sprint(s), " ", ", ")
}

// scaledOperand builds operand i upcast to the compute type and, with a scale, scaled.
func (d *dotScaled) scaledOperand(b *Builder, i int) *Value {
	v := d.v[i]
	if d.format[i] == "e2m1" {
		v = d.fp4ToFp(b, v, i)
	} else {
		v = b.FloatCast(v, WithElem(v.Type, d.compute))
	}
	s := d.scale[i]
	if s == nil {
		return v
	}
	if i == 1 { // the rhs scale comes as [N, K/32]: move K/32 to the rhs's K position
		s = b.Trans(s, 1, 0)
	}
	k := kDim(i, 2)
	v = b.MulF(v, broadcastScale(b, scaleTo16(b, s, d.compute), k))
	if d.fastMath {
		return v
	}
	isNaN := b.CmpI("eq", s, b.ConstInt(0xFF, s.Type))
	return b.Select(broadcastScale(b, isNaN, k), b.ConstFloat(math.NaN(), v.Type), v)
}

// scaleTo16 turns e8m0 scales into 2^(s-127) of type t by placing s in the exponent field:
// of a bf16 directly, of an fp32 that is then rounded to fp16.
func scaleTo16(b *Builder, s *Value, t Scalar) *Value {
	wide, bits, mant := BF16, I16, int64(7)
	if t == F16 {
		wide, bits, mant = F32, I32, 23
	}
	x := b.Cast("arith.extui", s, WithElem(s.Type, bits))
	x = b.Binary("arith.shli", x, b.ConstInt(mant, x.Type))
	x = b.Bitcast(x, WithElem(s.Type, wide))
	return b.FloatCast(x, WithElem(s.Type, t))
}

// broadcastScale repeats each scale 32 times along dimension dim: [.., S, ..] becomes
// [.., 32*S, ..] (expand_dims, broadcast, trans, reshape, as Triton builds it).
func broadcastScale(b *Builder, s *Value, dim int) *Value {
	shape := ShapeOf(s.Type)
	rank := len(shape)
	x := b.Broadcast(b.ExpandDims(s, rank), append(slices.Clone(shape), 32))
	if dim != rank-1 {
		order := make([]int32, 0, rank+1)
		for j := range rank {
			order = append(order, int32(j))
			if j == dim {
				order = append(order, int32(rank))
			}
		}
		x = b.Trans(x, order...)
	}
	out := slices.Clone(shape)
	out[dim] *= 32
	return b.Reshape(x, out, false)
}

// fp4ToFp unpacks operand i, e2m1 values two to a byte (the low nibble first) along its
// reduction dimension, into the compute type: Triton's ttg.fp4_to_fp. A 3-D operand is
// unpacked as a 2-D one whose rows are the batch and the dimension before K.
func (d *dotScaled) fp4ToFp(b *Builder, v *Value, i int) *Value {
	shape := ShapeOf(v.Type)
	r := len(shape)
	x, flat := v, shape
	if r == 3 { // [B, M, K/2] as [B*M, K/2]; [B, K/2, N] as [B*K/2, N]
		flat = []int64{shape[0] * shape[1], shape[2]}
		x = b.Reshape(v, flat, false)
	}
	lo := b.Binary("arith.andi", x, b.ConstInt(0xF, x.Type))
	hi := b.Binary("arith.shrui", x, b.ConstInt(4, x.Type))
	pair := b.Join(lo, hi) // [R, C, 2]
	unpacked := []int64{flat[0], flat[1] * 2}
	if i == 1 {
		pair = b.Trans(pair, 0, 2, 1) // [R, 2, C]
		unpacked = []int64{flat[0] * 2, flat[1]}
	}
	nib := b.Reshape(pair, unpacked, false)
	out := e2m1ToFloat(b, nib, d.compute)
	if r == 3 {
		out = b.Reshape(out, d.shape[i], false)
	}
	return out
}

// e2m1ToFloat converts e2m1 nibbles (i8 values 0..15: sign, two exponent bits, one
// mantissa bit) to t, exactly, by building t's bits: zero stays (signed) zero, the
// subnormal 0b001 becomes 0.5 and the normal values are rebiased.
func e2m1ToFloat(b *Builder, nib *Value, t Scalar) *Value {
	mant, bias := int64(7), int64(127)
	if t == F16 {
		mant, bias = 10, 15
	}
	i16 := WithElem(nib.Type, I16)
	c := func(v int64) *Value { return b.ConstInt(v, i16) }
	x := b.Cast("arith.extui", nib, i16)
	em := b.Binary("arith.andi", x, c(7))
	sign := b.Binary("arith.shli", b.Binary("arith.andi", x, c(8)), c(12))
	half := c((bias - 1) << mant)
	normal := b.AddI(b.Binary("arith.shli", em, c(mant-1)), half)
	small := b.Select(b.CmpI("eq", em, c(1)), half, c(0))
	mag := b.Select(b.CmpI("uge", em, c(2)), normal, small)
	return b.Bitcast(b.Binary("arith.ori", mag, sign), WithElem(nib.Type, t))
}
