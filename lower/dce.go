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
			if id, _ := idField(inst); id != nil {
				*id = int64(i + 1)
			} else if v, ok := inst.(localID); ok {
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
		switch op.(type) {
		case *constant.Int, *constant.Float, *constant.Undef, *ir.Param, *ir.Func, *ir.InlineAsm, *ir.Global:
			return // the most frequent operands, and no instructions
		}
		var id int64
		p, u := idField(op)
		if p != nil {
			id = *p
		} else if inst, ok := op.(numberedInst); ok {
			id, u = inst.ID(), inst
		}
		if id > 0 && !live[id-1] {
			live[id-1] = true
			work = append(work, u)
		}
	}
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		visitOperands(u, mark)
	}
	i = 0
	for _, b := range f.Blocks {
		k := 0
		for j, inst := range b.Insts {
			if id, _ := idField(inst); id != nil {
				*id = 0
			} else if v, ok := inst.(localID); ok {
				v.SetID(0)
			}
			if live[i] {
				if k != j { // no store (and no write barrier) while nothing moves
					b.Insts[k] = inst
				}
				k++
			}
			i++
		}
		clear(b.Insts[k:])
		b.Insts = b.Insts[:k]
	}
}

// idField returns a pointer to the local ID of the instructions lowering emits (a type
// switch on concrete types, cheaper than asserting an interface), nil for other values.
func idField(v any) (*int64, value.User) {
	switch i := v.(type) {
	case *ir.InstAdd:
		return &i.LocalID, i
	case *ir.InstSub:
		return &i.LocalID, i
	case *ir.InstMul:
		return &i.LocalID, i
	case *ir.InstSDiv:
		return &i.LocalID, i
	case *ir.InstUDiv:
		return &i.LocalID, i
	case *ir.InstSRem:
		return &i.LocalID, i
	case *ir.InstURem:
		return &i.LocalID, i
	case *ir.InstShl:
		return &i.LocalID, i
	case *ir.InstLShr:
		return &i.LocalID, i
	case *ir.InstAShr:
		return &i.LocalID, i
	case *ir.InstAnd:
		return &i.LocalID, i
	case *ir.InstOr:
		return &i.LocalID, i
	case *ir.InstXor:
		return &i.LocalID, i
	case *ir.InstFAdd:
		return &i.LocalID, i
	case *ir.InstFSub:
		return &i.LocalID, i
	case *ir.InstFMul:
		return &i.LocalID, i
	case *ir.InstFDiv:
		return &i.LocalID, i
	case *ir.InstFRem:
		return &i.LocalID, i
	case *ir.InstFNeg:
		return &i.LocalID, i
	case *ir.InstICmp:
		return &i.LocalID, i
	case *ir.InstFCmp:
		return &i.LocalID, i
	case *ir.InstSelect:
		return &i.LocalID, i
	case *ir.InstPhi:
		return &i.LocalID, i
	case *ir.InstSExt:
		return &i.LocalID, i
	case *ir.InstZExt:
		return &i.LocalID, i
	case *ir.InstTrunc:
		return &i.LocalID, i
	case *ir.InstFPExt:
		return &i.LocalID, i
	case *ir.InstFPTrunc:
		return &i.LocalID, i
	case *ir.InstBitCast:
		return &i.LocalID, i
	case *ir.InstSIToFP:
		return &i.LocalID, i
	case *ir.InstUIToFP:
		return &i.LocalID, i
	case *ir.InstFPToSI:
		return &i.LocalID, i
	case *ir.InstFPToUI:
		return &i.LocalID, i
	case *ir.InstPtrToInt:
		return &i.LocalID, i
	case *ir.InstIntToPtr:
		return &i.LocalID, i
	case *ir.InstAddrSpaceCast:
		return &i.LocalID, i
	case *ir.InstExtractValue:
		return &i.LocalID, i
	case *ir.InstInsertValue:
		return &i.LocalID, i
	case *ir.InstExtractElement:
		return &i.LocalID, i
	case *ir.InstInsertElement:
		return &i.LocalID, i
	case *ir.InstShuffleVector:
		return &i.LocalID, i
	case *ir.InstGetElementPtr:
		return &i.LocalID, i
	case *ir.InstLoad:
		return &i.LocalID, i
	case *ir.InstCall:
		return &i.LocalID, i
	case *ir.InstAlloca:
		return &i.LocalID, i
	case *ir.InstAtomicRMW:
		return &i.LocalID, i
	case *ir.InstCmpXchg:
		return &i.LocalID, i
	case *ir.InstFreeze:
		return &i.LocalID, i
	case *ir.InstVAArg:
		return &i.LocalID, i
	}
	return nil, nil
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
	case *ir.InstSub:
		visit(i.X)
		visit(i.Y)
	case *ir.InstFSub:
		visit(i.X)
		visit(i.Y)
	case *ir.InstFDiv:
		visit(i.X)
		visit(i.Y)
	case *ir.InstShl:
		visit(i.X)
		visit(i.Y)
	case *ir.InstLShr:
		visit(i.X)
		visit(i.Y)
	case *ir.InstAShr:
		visit(i.X)
		visit(i.Y)
	case *ir.InstXor:
		visit(i.X)
		visit(i.Y)
	case *ir.InstSDiv:
		visit(i.X)
		visit(i.Y)
	case *ir.InstUDiv:
		visit(i.X)
		visit(i.Y)
	case *ir.InstSRem:
		visit(i.X)
		visit(i.Y)
	case *ir.InstURem:
		visit(i.X)
		visit(i.Y)
	case *ir.InstFCmp:
		visit(i.X)
		visit(i.Y)
	case *ir.InstZExt:
		visit(i.From)
	case *ir.InstTrunc:
		visit(i.From)
	case *ir.InstSIToFP:
		visit(i.From)
	case *ir.InstUIToFP:
		visit(i.From)
	case *ir.InstFPToSI:
		visit(i.From)
	case *ir.InstFPToUI:
		visit(i.From)
	case *ir.InstPtrToInt:
		visit(i.From)
	case *ir.InstIntToPtr:
		visit(i.From)
	case *ir.InstAddrSpaceCast:
		visit(i.From)
	case *ir.InstFNeg:
		visit(i.X)
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
