package ptx

import (
	"math"
	"strconv"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// Address folding. A getelementptr whose every use is the address of a load
// or store (directly or through pointer bitcasts) is not computed: it stays
// a register plus a constant byte offset, written into the access as
// [%r+off]. A constant added to an index of the pointer's width moves into
// that offset, so that the geps of one block that index one base with
// x+C1, x+C2, ... share one base+x*stride register. An index add or an i32
// to i64 extension whose every use is such an index is not emitted at all.

// addr is a folded address: a register and a byte offset.
type addr struct {
	reg string
	off int64
}

// fieldKey is one field of a struct value.
type fieldKey struct {
	agg   value.Value
	index uint64
}

// useCount counts the uses of a value that address folding absorbs (fold)
// and all the others (other).
type useCount struct{ fold, other int32 }

// scaledKey identifies base + index*stride within one block, or
// index*stride when base is "".
type scaledKey struct {
	base   string
	index  value.Value
	stride int64
}

// countUses counts the uses of the values address folding may absorb:
// getelementptrs, pointer bitcasts, index adds and index extensions; and of the
// fmuls and fnegs that floating-point contraction may absorb; and of the phis and
// extractvalues that a tied inline asm operand may take over (with the extractvalues of
// each struct field, fieldUses), see inlineAsm.
func (e *fnEmitter) countUses() {
	clear(e.fieldUses)
	e.phiUses = nil
	note := func(v value.Value, fold bool) {
		switch v.(type) {
		case *ir.InstGetElementPtr, *ir.InstBitCast, *ir.InstAdd, *ir.InstSExt, *ir.InstZExt,
			*ir.InstFMul, *ir.InstFNeg, // for planFusions
			*ir.InstPhi, *ir.InstExtractValue: // for tied inline asm operands
			in := e.infoOf(v)
			if in == nil {
				return // an instruction of another function
			}
			c := &in.uses
			if fold {
				c.fold++
			} else {
				c.other++
			}
		}
	}
	for _, b := range e.f.Blocks {
		for _, inst := range b.Insts {
			switch i := inst.(type) {
			case *ir.InstLoad:
				note(i.Src, true)
			case *ir.InstStore:
				note(i.Dst, true)
				note(i.Src, false)
			case *ir.InstBitCast:
				_, ptr := i.To.(*types.PointerType)
				note(i.From, ptr)
			case *ir.InstGetElementPtr:
				note(i.Src, true)
				for n, ix := range i.Indices {
					note(ix, n == 0 && len(i.Indices) == 1 && e.foldableIndex(i, ix))
				}
			case *ir.InstInsertElement:
				note(i.X, false)
				note(i.Elem, false)
			case *ir.InstExtractElement:
				note(i.X, false)
			case *ir.InstExtractValue:
				note(i.X, false)
				if len(i.Indices) == 1 {
					if e.fieldUses == nil {
						e.fieldUses = map[fieldKey]int32{}
					}
					e.fieldUses[fieldKey{i.X, i.Indices[0]}]++
				}
			case *ir.InstCall:
				for _, a := range i.Args {
					note(a, false)
				}
				e.noteTiedInputs(i)
			default:
				eachOperand(inst, note)
			}
		}
		if u, ok := b.Term.(value.User); ok {
			for _, op := range u.Operands() {
				note(*op, false)
			}
		}
	}
}

// eachOperand calls note(op, false) for each operand of inst, without allocating for
// calls and the most frequent instructions.
func eachOperand(inst ir.Instruction, note func(value.Value, bool)) {
	if c, ok := inst.(*ir.InstCall); ok {
		for _, a := range c.Args {
			note(a, false)
		}
		return
	}
	if binaryOperands(inst, note) {
		return
	}
	if u, ok := inst.(value.User); ok {
		for _, op := range u.Operands() {
			note(*op, false)
		}
	}
}

// binaryOperands calls note(op, false) for each operand of the most frequent
// instructions, whose Operands method would allocate, and reports whether
// inst was one of them.
func binaryOperands(inst ir.Instruction, note func(value.Value, bool)) bool {
	switch i := inst.(type) {
	case *ir.InstFAdd:
		note(i.X, false)
		note(i.Y, false)
	case *ir.InstFSub:
		note(i.X, false)
		note(i.Y, false)
	case *ir.InstFMul:
		note(i.X, false)
		note(i.Y, false)
	case *ir.InstFDiv:
		note(i.X, false)
		note(i.Y, false)
	case *ir.InstAdd:
		note(i.X, false)
		note(i.Y, false)
	case *ir.InstSub:
		note(i.X, false)
		note(i.Y, false)
	case *ir.InstMul:
		note(i.X, false)
		note(i.Y, false)
	case *ir.InstAnd:
		note(i.X, false)
		note(i.Y, false)
	case *ir.InstOr:
		note(i.X, false)
		note(i.Y, false)
	case *ir.InstXor:
		note(i.X, false)
		note(i.Y, false)
	case *ir.InstShl:
		note(i.X, false)
		note(i.Y, false)
	case *ir.InstLShr:
		note(i.X, false)
		note(i.Y, false)
	case *ir.InstAShr:
		note(i.X, false)
		note(i.Y, false)
	case *ir.InstICmp:
		note(i.X, false)
		note(i.Y, false)
	case *ir.InstFCmp:
		note(i.X, false)
		note(i.Y, false)
	case *ir.InstSelect:
		note(i.Cond, false)
		note(i.ValueTrue, false)
		note(i.ValueFalse, false)
	case *ir.InstFPTrunc:
		note(i.From, false)
	case *ir.InstFPExt:
		note(i.From, false)
	case *ir.InstSExt:
		note(i.From, false)
	case *ir.InstZExt:
		note(i.From, false)
	case *ir.InstTrunc:
		note(i.From, false)
	case *ir.InstSIToFP:
		note(i.From, false)
	case *ir.InstUIToFP:
		note(i.From, false)
	case *ir.InstFPToSI:
		note(i.From, false)
	case *ir.InstPtrToInt:
		note(i.From, false)
	case *ir.InstIntToPtr:
		note(i.From, false)
	case *ir.InstPhi:
		for _, inc := range i.Incs {
			note(inc.X, false)
			note(inc.Pred, false)
		}
	default:
		return false
	}
	return true
}

// foldableIndex reports whether the single index ix of gep is absorbed by
// folding: an add of a constant in the pointer's width, or an i32 to i64
// extension that mul.wide takes over.
func (e *fnEmitter) foldableIndex(gep *ir.InstGetElementPtr, ix value.Value) bool {
	pt, ok := gep.Src.Type().(*types.PointerType)
	if !ok {
		return false
	}
	pbits := e.lay.pointerBits(pt.AddrSpace)
	switch x := ix.(type) {
	case *ir.InstAdd:
		_, _, ok := splitAddConst(x)
		return ok && intBits(x.Typ) == pbits
	case *ir.InstSExt:
		return e.wideIndex(gep, x.From, pbits)
	case *ir.InstZExt:
		return e.wideIndex(gep, x.From, pbits)
	}
	return false
}

// wideIndex reports whether scaledIndex folds the extension of the i32
// from into mul.wide for an index of gep.
func (e *fnEmitter) wideIndex(gep *ir.InstGetElementPtr, from value.Value, pbits int) bool {
	stride, _, err := e.lay.sizeAlign(gep.ElemType)
	return err == nil && stride != 1 && pbits == 64 && intBits(from.Type()) == 32
}

// splitAddConst splits "add x, C" (either order) into x and C.
func splitAddConst(a *ir.InstAdd) (value.Value, int64, bool) {
	if c, ok := constIndex(a.Y); ok {
		return a.X, c, true
	}
	if c, ok := constIndex(a.X); ok {
		return a.Y, c, true
	}
	return nil, 0, false
}

// peelConstant strips the adds of constants off an index of the pointer's
// width, returning the remaining index and the sum of the constants.
func peelConstant(ix value.Value, pbits int) (value.Value, int64) {
	var sum int64
	for {
		a, ok := ix.(*ir.InstAdd)
		if !ok || intBits(a.Typ) != pbits {
			return ix, sum
		}
		x, c, ok := splitAddConst(a)
		if !ok {
			return ix, sum
		}
		ix, sum = x, sum+c
	}
}

// deferred reports whether v, an index add or extension, is left out
// because folding absorbs every use of it.
func (e *fnEmitter) deferred(v value.Value) bool {
	if e.materializing == v {
		return false
	}
	in := e.infoOf(v)
	return in != nil && in.uses.other == 0 && in.uses.fold > 0
}

// address returns the register and byte offset of pointer v.
func (e *fnEmitter) address(v value.Value, pbits int) (addr, error) {
	if in := e.infoOf(v); in != nil && in.folded {
		return in.addr, nil
	}
	op, err := e.getOne(v)
	if err != nil {
		return addr{}, err
	}
	return addr{e.inReg(op, bitsClass(pbits)), 0}, nil
}

// offsetReg computes reg+off into a register.
func (e *fnEmitter) offsetReg(a addr, pbits int) string {
	if a.off == 0 {
		return a.reg
	}
	d := e.newReg(bitsClass(pbits))
	e.emit("add.s"+strconv.Itoa(pbits), d, a.reg, strconv.FormatInt(a.off, 10))
	return d
}

// materialize selects a value that was left out (a folded address, a
// deferred index) at a use that needs it in a register. The result is not
// recorded, as this use need not dominate the others.
func (e *fnEmitter) materialize(v value.Value) ([]string, bool, error) {
	in := e.infoOf(v)
	if in != nil && in.folded {
		pt := v.Type().(*types.PointerType)
		return []string{e.offsetReg(in.addr, e.lay.pointerBits(pt.AddrSpace))}, true, nil
	}
	inst, ok := v.(ir.Instruction)
	if !ok || !e.deferred(v) {
		return nil, false, nil
	}
	saved := e.materializing
	e.materializing = v
	err := e.inst(inst)
	e.materializing = saved
	ops := in.ops
	in.ops, in.defined = nil, false
	return ops, true, err
}

// fitsOffset reports whether off can be an ld/st immediate offset.
func fitsOffset(off int64) bool { return off >= math.MinInt32 && off <= math.MaxInt32 }
