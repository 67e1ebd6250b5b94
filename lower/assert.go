package lower

import (
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

func init() {
	lowerings["tt.assert"] = lowerAssert
}

// lowerAssert lowers tl.device_assert (kept under debug, semantic drops it otherwise) as
// Triton 3.6's AssertOpToLLVM does: a thread any of whose elements of the condition is
// false runs the ISA's assert failure (NVIDIA: the CUDA runtime's __assertfail with the
// message, the op's file and line and the function "unknown", which stops the kernel;
// AMD: a printf of the message and a trap), and after a tensor condition
// every thread waits at a barrier, so that no thread runs ahead into what the assert
// guards while another is still failing it.
func lowerAssert(g *gen, op *tileir.Op) error {
	msg, _ := op.Attr("message").(tileir.StringAttr)
	cond := op.Operands[0]
	var failed value.Value
	for _, x := range g.vals[cond] {
		bad := g.cur.NewICmp(enum.IPredEQ, x, constant.NewInt(x.Type().(*types.IntType), 0))
		if failed == nil {
			failed = bad
		} else {
			failed = g.cur.NewOr(failed, bad)
		}
	}
	fail, cont := g.f.NewBlock(""), g.f.NewBlock("")
	g.cur.NewCondBr(failed, fail, cont)
	g.cur = fail
	file := op.Loc.File
	if file == "" {
		file = "unknown"
	}
	if err := g.isa.AssertFail(string(msg), file, op.Loc.Line); err != nil {
		return g.errorf(op, "%v", err)
	}
	g.cur.NewBr(cont)
	g.cur = cont
	if isTensor(cond) {
		g.isa.Barrier()
	}
	return nil
}
