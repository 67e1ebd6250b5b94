package ptx

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/value"
)

// Floating-point contraction (Options.FPFusion, Triton's enable_fp_fusion). Triton's
// target machine has AllowFPOpFusion=Fast when fusion is on, and LLVM's NVPTX backend then
// turns an fadd or fsub with an fmul operand into one fma (DAGCombiner's
// visitFADDForFMACombine and visitFSUBForFMACombine, in the aggressive mode NVPTX asks
// for), as planFusions does here:
//
//   - the fmul and the fadd/fsub are in one basic block (a selection DAG spans one);
//   - an fmul with other uses is fused all the same, and stays for those uses;
//   - of two fmul operands, the one with fewer uses is fused, the first on a tie; a block is
//     visited last instruction first, and a use that was fused no longer counts;
//   - fsub(x, m) is fma(-a, b, x) and fsub(m, x) is fma(a, b, -x); an fneg of an fmul of
//     the block is a negated product, as the DAG's fneg folds make it: fadd(fneg m, x) is
//     fma(-a, b, x), fsub(x, fneg m) is fma(a, b, x), and fsub(fneg m, x) is fma(-a, b, -x)
//     unless x is itself an fmul, which is fused first;
//   - f16, f32 and f64, and vectors of them, leaf by leaf (fma.rn.f16/f32/f64).
//
// A negated factor is the constant one, negated in place, else the first, through neg; the
// constant factor is written second, where the DAG puts it. An fmul or fneg whose every use
// was fused is not emitted. With fusion on, the fadd, fsub and fmul left unfused are written
// as plain add/sub/mul (no .rn), which ptxas may contract in turn, as LLVM writes them.
// Explicitly rounded operations are never contracted: llvm.fma and llvm.fmuladd are
// fma.rn already, and the llvm.nvvm.{add,mul}.{rn,rz,rm,rp} intrinsics of libdevice's
// __nv_fadd_rn, __nv_fmul_rn, ... are calls, not fadd or fmul.
//
// The IR's use counts stand in for the DAG's, which count the uses from other blocks as
// one; they differ only for a product used in two or more other blocks.

// fusion is an fadd or fsub written as fma.rn: mul's product, negated when negMul, plus
// addend, negated when negAdd.
type fusion struct {
	mul            *ir.InstFMul
	addend         value.Value
	negMul, negAdd bool
}

// operand is one operand of an fadd or fsub: v, subtracted when neg. mul is the fmul of
// the block whose product v is, nil when v is no product: v itself, or the operand of v
// when v is an fneg of the block (peeled); mulNeg is the product's sign in the sum.
type operand struct {
	v           value.Value
	mul         *ir.InstFMul
	neg, mulNeg bool
	peeled      bool
}

// planFusions decides which fadds and fsubs of the kernel become fma.rn. While it runs,
// uses.other of an fmul or fneg counts its uses that were not fused; one that reaches zero
// is absorbed.
func (e *fnEmitter) planFusions() {
	for n, b := range e.f.Blocks {
		tag := int32(n + 1)
		for _, inst := range b.Insts {
			switch i := inst.(type) {
			case *ir.InstFMul:
				e.infoOf(i).block = tag
			case *ir.InstFNeg:
				e.infoOf(i).block = tag
			}
		}
		for j := len(b.Insts) - 1; j >= 0; j-- {
			switch i := b.Insts[j].(type) {
			case *ir.InstFAdd:
				e.planFusion(i, false, e.operand(i.X, false, tag), e.operand(i.Y, false, tag))
			case *ir.InstFSub:
				e.planFusion(i, true, e.operand(i.X, false, tag), e.operand(i.Y, true, tag))
			}
		}
	}
}

// operand describes v, an operand of an fadd or fsub of the block tagged tag.
func (e *fnEmitter) operand(v value.Value, neg bool, tag int32) operand {
	o := operand{v: v, neg: neg}
	switch x := v.(type) {
	case *ir.InstFMul:
		if e.infoOf(x).block == tag {
			o.mul, o.mulNeg = x, neg
		}
	case *ir.InstFNeg:
		if m, ok := x.X.(*ir.InstFMul); ok && e.infoOf(x).block == tag && e.infoOf(m).block == tag {
			o.mul, o.mulNeg, o.peeled = m, !neg, true
		}
	}
	return o
}

// planFusion picks the product that sum, x + y (an fsub when sub), fuses, if any, as the
// DAG does. Its fneg folds come first: fadd(x, fneg m) becomes fsub(x, m), fadd(fneg m, y)
// fsub(y, m) and fsub(x, fneg m) fadd(x, m); what remains of the form fsub(fneg m, y) fuses
// y's product if y has one, else m's.
func (e *fnEmitter) planFusion(sum value.Value, sub bool, x, y operand) {
	if x.peeled {
		if sub != y.peeled {
			if y.mul == nil {
				e.fuse(sum, x, y)
			} else {
				e.fuse(sum, y, x)
			}
			return
		}
		x, y = y, x
	}
	switch {
	case x.mul != nil && y.mul != nil && e.infoOf(x.mul).uses.other > e.infoOf(y.mul).uses.other:
		e.fuse(sum, y, x)
	case x.mul != nil:
		e.fuse(sum, x, y)
	case y.mul != nil:
		e.fuse(sum, y, x)
	}
}

// fuse records sum as p's product plus addend.
func (e *fnEmitter) fuse(sum value.Value, p, addend operand) {
	e.infoOf(sum).fused = &fusion{mul: p.mul, addend: addend.v, negMul: p.mulNeg, negAdd: addend.neg}
	e.dropUse(p.v)
}

// dropUse discounts one use of v, an fmul or fneg, that a fusion took over; without uses
// left it is absorbed, and an fneg's use of its operand goes with it.
func (e *fnEmitter) dropUse(v value.Value) {
	in := e.infoOf(v)
	if in.uses.other--; in.uses.other > 0 {
		return
	}
	in.absorbed = true
	if n, ok := v.(*ir.InstFNeg); ok {
		e.dropUse(n.X)
	}
}

// fusedOf is the fusion planned for an fadd or fsub, nil when it stays one.
func (e *fnEmitter) fusedOf(v value.Value) *fusion {
	if in := e.infoOf(v); in != nil {
		return in.fused
	}
	return nil
}

// absorbedInst reports whether v, an fmul or fneg, is left out: every use of it was fused.
func (e *fnEmitter) absorbedInst(v value.Value) bool {
	in := e.infoOf(v)
	return in != nil && in.absorbed
}

// fma writes v, an fadd or fsub, as the fma.rn that f plans, leaf by leaf.
func (e *fnEmitter) fma(v value.Value, f *fusion) error {
	a, b := f.mul.X, f.mul.Y
	if isConstant(a) && !isConstant(b) {
		a, b = b, a
	}
	as, ts, err := e.leafOps(a)
	if err != nil {
		return err
	}
	bs, err := e.get(b)
	if err != nil {
		return err
	}
	cs, err := e.get(f.addend)
	if err != nil {
		return err
	}
	out := e.opSlice(len(as))
	for k, t := range ts {
		rc, err := e.lay.classOf(t)
		if err != nil {
			return err
		}
		x, y, z := as[k], bs[k], cs[k]
		if f.negMul {
			if isConstant(b) {
				y = e.negated(b, k, y, rc)
			} else {
				x = e.negated(a, k, x, rc)
			}
		}
		if f.negAdd {
			z = e.negated(f.addend, k, z, rc)
		}
		out[k] = e.newReg(rc)
		e.emitOp("fma.rn.", floatNames[rc], "", "", "", out[k], e.inReg(x, rc), y, z)
	}
	e.set(v, out)
	return nil
}

func isConstant(v value.Value) bool {
	_, ok := v.(constant.Constant)
	return ok
}

// negated returns -op for op, leaf k of v: a float constant's negated immediate (in a
// register for f16, which has no immediates), else neg of the register, once per block
// as the DAG has one fneg node per value.
func (e *fnEmitter) negated(v value.Value, k int, op string, rc regClass) string {
	if c := floatLeaf(v, k); c != nil {
		if bits, err := floatBits(c); err == nil {
			imm := e.floatImm(rc, bits^1<<(rc.bits()-1))
			if rc == rcF16 {
				return e.inReg(imm, rc)
			}
			return imm
		}
	}
	op = e.inReg(op, rc)
	if d, ok := e.negs[op]; ok {
		return d
	}
	d := e.newReg(rc)
	e.emit("neg."+floatNames[rc], d, op)
	if e.negs == nil {
		e.negs = map[string]string{}
	}
	e.negs[op] = d
	return d
}

// floatLeaf is leaf k of v when v is a float constant or a vector of them, else nil.
func floatLeaf(v value.Value, k int) *constant.Float {
	switch c := v.(type) {
	case *constant.Float:
		return c
	case *constant.Vector:
		if f, ok := c.Elems[k].(*constant.Float); ok {
			return f
		}
	}
	return nil
}
