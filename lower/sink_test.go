package lower

import (
	"testing"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
)

// TestSinkPure: a value computed before a loop and used only after it moves to the
// loop's exit, before its use; one used inside the loop stays where it is.
func TestSinkPure(t *testing.T) {
	m := ir.NewModule()
	x := ir.NewParam("x", types.I32)
	p := ir.NewParam("p", types.NewPointer(types.I32))
	f := m.NewFunc("k", types.Void, x, p)
	entry, head, exit := f.NewBlock("entry"), f.NewBlock("head"), f.NewBlock("exit")
	late := entry.NewAdd(x, constant.NewInt(types.I32, 1))
	inLoop := entry.NewMul(x, constant.NewInt(types.I32, 3))
	entry.NewBr(head)
	i := head.NewPhi(ir.NewIncoming(constant.NewInt(types.I32, 0), entry))
	next := head.NewAdd(i, inLoop)
	i.Incs = append(i.Incs, ir.NewIncoming(next, head))
	head.NewCondBr(head.NewICmp(enum.IPredULT, next, constant.NewInt(types.I32, 100)), head, exit)
	exit.NewStore(late, p)
	exit.NewRet(nil)
	sinkPure(f)
	if len(entry.Insts) != 1 || entry.Insts[0] != inLoop {
		t.Errorf("entry keeps %v, want only the mul the loop uses", entry.Insts)
	}
	if len(exit.Insts) != 2 || exit.Insts[0] != late {
		t.Errorf("exit holds %v, want the add before the store", exit.Insts)
	}
}
