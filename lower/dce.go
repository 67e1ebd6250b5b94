package lower

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/value"
)

// removeDeadCode deletes the instructions of f whose results nothing live uses and that
// have no effect besides their result (everything but stores, calls and atomics), as
// LLVM's dead code elimination would: lowering produces every register of a tensor, and
// accesses that move vectors use only the first pointer of each vector. It marks what the
// effectful instructions and the terminators use, transitively, and sweeps the rest.
//
// While it runs, each instruction's local ID (zero until the module is printed) holds its
// index plus one, so that finding an operand's instruction needs no map.
func removeDeadCode(f *ir.Func) {
	n := 0
	var work []value.User
	for _, b := range f.Blocks {
		n += len(b.Insts)
	}
	live := make([]bool, n)
	i := 0
	for _, b := range f.Blocks {
		for _, inst := range b.Insts {
			if v, ok := inst.(localID); ok {
				v.SetID(int64(i + 1))
			}
			if !removable(inst) {
				live[i] = true
				work = append(work, inst)
			}
			i++
		}
		work = append(work, b.Term)
	}
	mark := func(op value.Value) {
		if _, ok := op.(*constant.Int); ok { // the most frequent operand, and no instruction
			return
		}
		if inst, ok := op.(numberedInst); ok && inst.ID() > 0 && !live[inst.ID()-1] {
			live[inst.ID()-1] = true
			work = append(work, inst)
		}
	}
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		visitOperands(u, mark)
	}
	i = 0
	for _, b := range f.Blocks {
		kept := b.Insts[:0]
		for _, inst := range b.Insts {
			if v, ok := inst.(localID); ok {
				v.SetID(0)
			}
			if live[i] {
				kept = append(kept, inst)
			}
			i++
		}
		clear(b.Insts[len(kept):])
		b.Insts = kept
	}
}

// localID is a value with a local ID (%7), as every instruction with a result has.
type localID interface {
	ID() int64
	SetID(id int64)
}

// numberedInst is an instruction with a local ID.
type numberedInst interface {
	ir.Instruction
	localID
}

// removable reports whether inst may go when its result is unused.
func removable(inst ir.Instruction) bool {
	switch inst.(type) {
	case *ir.InstStore, *ir.InstCall, *ir.InstAtomicRMW, *ir.InstCmpXchg, *ir.InstFence, *ir.InstVAArg:
		return false
	}
	return true
}

// visitOperands calls visit with each operand of u that may be an instruction: the
// fields of the instructions lowering emits most, Operands() (which allocates) for the
// rest.
func visitOperands(u value.User, visit func(value.Value)) {
	switch i := u.(type) {
	case *ir.InstAdd:
		visit(i.X)
		visit(i.Y)
	case *ir.InstMul:
		visit(i.X)
		visit(i.Y)
	case *ir.InstFAdd:
		visit(i.X)
		visit(i.Y)
	case *ir.InstFMul:
		visit(i.X)
		visit(i.Y)
	case *ir.InstAnd:
		visit(i.X)
		visit(i.Y)
	case *ir.InstOr:
		visit(i.X)
		visit(i.Y)
	case *ir.InstICmp:
		visit(i.X)
		visit(i.Y)
	case *ir.InstSelect:
		visit(i.Cond)
		visit(i.ValueTrue)
		visit(i.ValueFalse)
	case *ir.InstSExt:
		visit(i.From)
	case *ir.InstBitCast:
		visit(i.From)
	case *ir.InstFPTrunc:
		visit(i.From)
	case *ir.InstFPExt:
		visit(i.From)
	case *ir.InstExtractValue:
		visit(i.X)
	case *ir.InstExtractElement:
		visit(i.X)
		visit(i.Index)
	case *ir.InstInsertElement:
		visit(i.X)
		visit(i.Elem)
		visit(i.Index)
	case *ir.InstGetElementPtr:
		visit(i.Src)
		for _, x := range i.Indices {
			visit(x)
		}
	case *ir.InstLoad:
		visit(i.Src)
	case *ir.InstStore:
		visit(i.Src)
		visit(i.Dst)
	case *ir.InstCall:
		visit(i.Callee)
		for _, x := range i.Args {
			visit(x)
		}
	case *ir.InstPhi:
		for _, inc := range i.Incs {
			visit(inc.X)
		}
	default:
		for _, op := range u.Operands() {
			visit(*op)
		}
	}
}
