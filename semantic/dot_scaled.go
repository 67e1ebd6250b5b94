package semantic

import (
	"github.com/gotriton/gotriton/tileir"
)

// scaledFormats are the element formats tl.dot_scaled accepts, with the type their
// operand holds (e2m1 comes packed two to a uint8) and the unsigned type a caller may
// pass instead, which is bitcast.
var scaledFormats = map[string]struct{ typ, bits DType }{
	"e2m1": {UInt8, UInt8},
	"e4m3": {FP8E4NV, UInt8},
	"e5m2": {FP8E5, UInt8},
	"bf16": {BF16, UInt16},
	"fp16": {FP16, UInt16},
}

func init() {
	def("tl.dot_scaled", "lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, acc=None, fast_math=False, lhs_k_pack=True, rhs_k_pack=True, out_dtype=tl.float32", dotScaledImpl)
}

// dotScaledImpl is tl.dot_scaled: the product of two microscaled blocks (Triton 3.6's
// core.dot_scaled and semantic.dot_scaled). It yields tt.dot_scaled, which the op
// catalogue does not describe, in MLIR's generic form: operands lhs, lhs_scale, rhs,
// rhs_scale, acc (a scale that is None is left out, as operandSegmentSizes records).
func dotScaledImpl(c *callCtx) Value {
	g := c.g
	if !sameType(c.dtype("out_dtype"), FP32) {
		c.fail("out_dtype", "Only float32 is supported for out_dtype at the moment")
	}
	lhs, rhs := c.tensor("lhs"), c.tensor("rhs")
	ls, rs := shapeOf(lhs.T), shapeOf(rhs.T)
	if ls == nil || rs == nil {
		g.fail(c.call, "dot_scaled operands must be blocks, got %s and %s", lhs.T, rhs.T)
	}
	if len(ls) != len(rs) || len(ls) != 2 && len(ls) != 3 {
		g.fail(c.call, "Both inputs must be either 2D or 3D; (lhs: %s vs rhs: %s)", shapeString(ls), shapeString(rs))
	}
	lfmt, rfmt := c.scaledFormat("lhs_format"), c.scaledFormat("rhs_format")
	lhs, rhs = c.scaledOperand("lhs", lhs, lfmt), c.scaledOperand("rhs", rhs, rfmt)
	lpack, rpack := c.constBool("lhs_k_pack"), c.constBool("rhs_k_pack")
	if !lpack && lfmt != "e2m1" || !rpack && rfmt != "e2m1" {
		g.fail(c.call, "only mxfp4 inputs can be packed along a dimension different than K")
	}
	m, kl := ls[len(ls)-2], ls[len(ls)-1]
	kr, n := rs[len(rs)-2], rs[len(rs)-1]
	packedA, packedB := packFactor(lfmt), packFactor(rfmt)
	if lpack {
		kl *= packedA
	} else {
		m *= packedA
	}
	if rpack {
		kr *= packedB
	} else {
		n *= packedB
	}
	if kl != kr {
		g.fail(c.call, "Reduction dimension should pack the same number of elements; (lhs: %s vs rhs: %s)", shapeString(ls), shapeString(rs))
	}
	rt := dotResultType(ls, m, n, FP32)
	acc := c.accumulator(rt, "dot_scaled", func(elem Type) bool { return sameType(elem, FP32) })
	operands := []*tileir.Value{lhs.V}
	segments := []int32{1, 0, 1, 0, 1}
	if c.given("lhs_scale") {
		operands = append(operands, c.tensor("lhs_scale").V)
		segments[1] = 1
	}
	operands = append(operands, rhs.V)
	if c.given("rhs_scale") {
		operands = append(operands, c.tensor("rhs_scale").V)
		segments[3] = 1
	}
	operands = append(operands, acc.V)
	op := g.b.Create("tt.dot_scaled", operands, []tileir.Type{rt.IR()},
		tileir.NamedAttr{Name: "a_elem_type", Value: tileir.EnumAttr("#tt<scale_dot_elem_type " + lfmt + ">")},
		tileir.NamedAttr{Name: "b_elem_type", Value: tileir.EnumAttr("#tt<scale_dot_elem_type " + rfmt + ">")},
		tileir.NamedAttr{Name: "fastMath", Value: tileir.BoolAttr(c.constBool("fast_math"))},
		tileir.NamedAttr{Name: "lhs_k_pack", Value: tileir.BoolAttr(lpack)},
		tileir.NamedAttr{Name: "rhs_k_pack", Value: tileir.BoolAttr(rpack)},
		tileir.NamedAttr{Name: "operandSegmentSizes", Value: tileir.I32ArrayAttr(segments)})
	return &Tensor{V: op.Results[0], T: rt}
}

// scaledFormat reads a dot_scaled format argument: a constexpr string naming a format.
func (c *callCtx) scaledFormat(name string) string {
	f := c.constStr(name)
	if _, ok := scaledFormats[f]; !ok {
		c.fail(name, "NYI: %s %s", name, f)
	}
	return f
}

// scaledOperand checks a dot_scaled operand against its format, bitcasting an unsigned
// integer block to the format's float type.
func (c *callCtx) scaledOperand(name string, t *Tensor, format string) *Tensor {
	f := scaledFormats[format]
	d := dtypeOf(t.T)
	switch {
	case d == f.typ:
		return t
	case format == "e2m1":
		c.fail(name, "e2m1 format must be packed as uint8. Got %s", d)
	case d != f.bits:
		c.fail(name, "Unexpected dtype for %s. Got %s", format, d)
	}
	return c.g.bitcast(c.node(name), t, f.typ)
}

// packFactor is how many elements of a format one stored element holds.
func packFactor(format string) int64 {
	if format == "e2m1" {
		return 2
	}
	return 1
}
