package nvidia

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
)

// Printf calls vprintf(format, args): the arguments are stored, each aligned to its
// size, in a buffer allocated once in the entry block for this call site.
func (n *ISA) Printf(format string, args []value.Value) error {
	fields := make([]types.Type, len(args))
	for i, a := range args {
		fields[i] = a.Type()
	}
	st := types.NewStruct(fields...)
	buf := n.b.EntryAlloca(st, 8)
	for i, a := range args {
		p := n.b.Block().NewGetElementPtr(st, buf, isa.I32(0), isa.I32(int64(i)))
		n.b.Store(a, p)
	}
	vprintf := n.b.Declare("vprintf", types.I32, types.NewPointer(types.I8), types.NewPointer(types.I8))
	n.b.Block().NewCall(vprintf, n.formatString(format), n.b.BitCast(buf, types.NewPointer(types.I8)))
	return nil
}

// AssertFail calls the CUDA runtime's __assertfail(message, file, line, function,
// charSize), as Triton's TargetInfo::assertFail does (function "unknown", charSize 1):
// it reports the assert and stops the kernel (cuCtxSynchronize then returns
// CUDA_ERROR_ASSERT).
func (n *ISA) AssertFail(message, file string, line int) error {
	p := types.NewPointer(types.I8)
	fail := n.b.Declare("__assertfail", types.Void, p, p, types.I32, p, types.I64)
	n.b.Block().NewCall(fail, n.formatString(message), n.formatString(file), isa.I32(int64(line)), n.formatString("unknown"), constant.NewInt(types.I64, 1))
	return nil
}

// formatString returns a generic pointer to a NUL-terminated copy of s in global memory,
// one global per distinct string.
func (n *ISA) formatString(s string) value.Value {
	gl, ok := n.formats[s]
	if !ok {
		data := constant.NewCharArrayFromString(s + "\x00")
		gl = n.b.Module().NewGlobalDef(fmt.Sprintf("printfFormat_%d", len(n.formats)), data)
		gl.Immutable = true
		gl.Linkage = enum.LinkageInternal
		gl.Align = 1
		gl.AddrSpace = 1
		gl.Typ = types.NewPointer(data.Type())
		gl.Typ.AddrSpace = 1
		if n.formats == nil {
			n.formats = map[string]*ir.Global{}
		}
		n.formats[s] = gl
	}
	first := constant.NewGetElementPtr(gl.ContentType, gl, isa.I32(0), isa.I32(0))
	return constant.NewAddrSpaceCast(first, types.NewPointer(types.I8))
}
