package lower

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"
)

// removeDeadCode deletes the instructions of f whose results nothing uses and that have
// no effect besides their result (everything but stores, calls and atomics), repeatedly,
// as LLVM's dead code elimination would: lowering produces every register of a tensor,
// and accesses that move vectors use only the first pointer of each vector.
func removeDeadCode(f *ir.Func) {
	uses := map[value.Value]int{}
	count := func(u value.User, delta int) {
		for _, op := range u.Operands() {
			uses[*op] += delta
		}
	}
	for _, b := range f.Blocks {
		for _, inst := range b.Insts {
			count(inst, 1)
		}
		count(b.Term, 1)
	}
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			kept := b.Insts[:0]
			for _, inst := range b.Insts {
				v, ok := inst.(value.Value)
				if ok && uses[v] == 0 && removable(inst) {
					count(inst, -1)
					changed = true
					continue
				}
				kept = append(kept, inst)
			}
			clear(b.Insts[len(kept):])
			b.Insts = kept
		}
	}
}

// removable reports whether inst may go when its result is unused.
func removable(inst ir.Instruction) bool {
	switch inst.(type) {
	case *ir.InstStore, *ir.InstCall, *ir.InstAtomicRMW, *ir.InstCmpXchg, *ir.InstFence, *ir.InstVAArg:
		return false
	}
	return true
}
