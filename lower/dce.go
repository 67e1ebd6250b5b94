package lower

import (
	"github.com/llir/llvm/ir"
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
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		for _, op := range u.Operands() {
			if v, ok := (*op).(localID); ok {
				if inst, isInst := v.(ir.Instruction); isInst && v.ID() > 0 && !live[v.ID()-1] {
					live[v.ID()-1] = true
					work = append(work, inst)
				}
			}
		}
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

// removable reports whether inst may go when its result is unused.
func removable(inst ir.Instruction) bool {
	switch inst.(type) {
	case *ir.InstStore, *ir.InstCall, *ir.InstAtomicRMW, *ir.InstCmpXchg, *ir.InstFence, *ir.InstVAArg:
		return false
	}
	return true
}
