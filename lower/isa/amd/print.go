package amd

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
)

// HIP's buffered printf, as clang emits it for -mprintf-kind=buffered (LLVM's
// AMDGPUEmitPrintf, buffered path), with the reservation of the device library's
// __printf_alloc written out inline so that no device library is linked. Triton instead
// calls the device library's hostcall printf (__ockl_printf_*), which needs ockl.bc.
//
// The runtime passes a buffer in the implicit kernel argument hidden_printf_buffer: a
// header of two u32 (the bytes of frames written so far, and the size of the area that
// follows the header), then the frames. A frame is a control dword (the frame's size in
// bytes shifted left by 2, bit 1 set for a constant format string, bit 0 clear for
// stdout), the low 64 bits of the MD5 of the format string, and each argument widened to
// 8 bytes. The module's llvm.printf.fmts lists "0:0:<hash in hex>,<format>" for each
// format, which llc writes to the code object as amdhsa.printf, and its presence makes
// llc declare hidden_printf_buffer among the kernel's arguments; the runtime reads the
// frames back after the kernel and formats them on the host.
const (
	// PrintfBufferArg is hidden_printf_buffer's byte offset in code object v5's implicit
	// kernel arguments.
	PrintfBufferArg = 72
	// PrintfHeaderBytes is the size of the buffer's header, before the first frame.
	PrintfHeaderBytes = 8
	// PrintfFormatsMD is the module's named metadata of format strings.
	PrintfFormatsMD = "llvm.printf.fmts"
)

// PrintfHash is the 64-bit hash a frame names its format by: the low half of the
// format's MD5, as LLVM's MD5Result::low reads it (the first 8 bytes, little-endian).
func PrintfHash(format string) uint64 {
	sum := md5.Sum([]byte(format))
	return binary.LittleEndian.Uint64(sum[:8])
}

// Printf writes one frame of HIP's buffered printf for the thread: it reserves the
// frame's bytes in the printf buffer with a compare-and-swap loop on the header's offset
// (writing nothing when the buffer is full, as __printf_alloc returns null), then stores
// the control dword, the format's hash and the arguments (integers zero-extended to 64
// bits, floats extended to double, pointers as their address).
func (a *ISA) Printf(format string, args []value.Value) error {
	words := make([]value.Value, len(args))
	for i, x := range args {
		w, err := a.printfWord(x)
		if err != nil {
			return err
		}
		words[i] = w
	}
	a.printfFormat(format)
	size := int64(4 + 8 + 8*len(words))

	i32p := pointerTo(types.I32, 1)
	bytePtr := pointerTo(types.I8, 1)
	cur := a.b.Block()
	implicit := a.b.Call("llvm.amdgcn.implicitarg.ptr", pointerTo(types.I8, 4))
	slot := cur.NewGetElementPtr(types.I8, implicit, i64(PrintfBufferArg))
	buf := cur.NewLoad(bytePtr, a.b.BitCast(slot, pointerTo(bytePtr, 4)))
	buf.Align = 8
	header := a.b.BitCast(buf, i32p)
	limit := cur.NewLoad(types.I32, cur.NewGetElementPtr(types.I32, header, i64(1)))
	limit.Align = 4
	first := cur.NewLoad(types.I32, header)
	first.Atomic, first.Ordering, first.SyncScope, first.Align = true, enum.AtomicOrderingMonotonic, "agent", 4

	reserve, claim, write, done := a.b.NewBlock(), a.b.NewBlock(), a.b.NewBlock(), a.b.NewBlock()
	cur.NewBr(reserve)
	// reserve: give up when the frame does not fit (the test of __printf_alloc, which
	// counts the header against the size too).
	off := reserve.NewPhi(ir.NewIncoming(first, cur))
	end := reserve.NewAdd(off, isa.I32(size+PrintfHeaderBytes))
	reserve.NewCondBr(reserve.NewICmp(enum.IPredUGT, end, limit), done, claim)
	// claim: move the offset past the frame unless another thread moved it first.
	x := claim.NewCmpXchg(header, off, claim.NewAdd(off, isa.I32(size)), enum.AtomicOrderingMonotonic, enum.AtomicOrderingMonotonic)
	x.SyncScope = "agent"
	a.b.SetBlock(claim)
	seen, won := a.b.Extract(x, 0), a.b.Extract(x, 1)
	off.Incs = append(off.Incs, ir.NewIncoming(seen, claim))
	claim.NewCondBr(won, write, reserve)

	a.b.SetBlock(write)
	at := write.NewZExt(write.NewAdd(off, isa.I32(PrintfHeaderBytes)), types.I64)
	frame := write.NewGetElementPtr(types.I8, buf, at)
	store := func(pos int64, v value.Value) {
		p := write.NewGetElementPtr(types.I8, frame, i64(pos))
		a.b.Store(v, a.b.BitCast(p, pointerTo(v.Type(), 1))).Align = 4
	}
	store(0, isa.I32(size<<2|2))
	store(4, constant.NewInt(types.I64, int64(PrintfHash(format))))
	for i, w := range words {
		store(12+8*int64(i), w)
	}
	write.NewBr(done)
	a.b.SetBlock(done)
	return nil
}

// i64 is an i64 constant.
func i64(v int64) *constant.Int { return constant.NewInt(types.I64, v) }

// printfWord widens a printf argument to the 8 bytes a frame gives it.
func (a *ISA) printfWord(x value.Value) (value.Value, error) {
	cur := a.b.Block()
	switch t := x.Type().(type) {
	case *types.IntType:
		switch {
		case t.BitSize < 64:
			return cur.NewZExt(x, types.I64), nil
		case t.BitSize == 64:
			return x, nil
		}
	case *types.FloatType:
		switch t.Kind {
		case types.FloatKindHalf, types.FloatKindFloat:
			return cur.NewFPExt(x, types.Double), nil
		case types.FloatKindDouble:
			return x, nil
		}
	case *types.PointerType:
		return cur.NewPtrToInt(x, types.I64), nil
	}
	return nil, fmt.Errorf("device_print of a %s argument is not supported on AMD", x.Type())
}

// printfFormat lists format in the module's llvm.printf.fmts, once.
func (a *ISA) printfFormat(format string) {
	m := a.b.Module()
	entry := fmt.Sprintf("0:0:%x,%s", PrintfHash(format), format)
	md, ok := m.NamedMetadataDefs[PrintfFormatsMD]
	if !ok {
		md = &metadata.NamedDef{Name: PrintfFormatsMD}
		m.NamedMetadataDefs[PrintfFormatsMD] = md
	}
	for _, n := range md.Nodes {
		if s := n.(*metadata.Tuple).Fields[0].(*metadata.String); s.Value == entry {
			return
		}
	}
	node := &metadata.Tuple{MetadataID: -1, Fields: []metadata.Field{&metadata.String{Value: entry}}}
	m.MetadataDefs = append(m.MetadataDefs, node)
	md.Nodes = append(md.Nodes, node)
}

// AssertFail prints "device assertion failed: 'message', in unknown at file:line" and
// traps, as Triton's AMD TargetInfo::assertFail does, but for the barrier Triton puts
// between the two: only the failing threads run it, and a barrier that not every thread
// of the block reaches is undefined (amd-sim rejects it).
func (a *ISA) AssertFail(message, file string, line int) error {
	text := fmt.Sprintf("device assertion failed: '%s', in unknown at %s:%d\n", message, file, line)
	if err := a.Printf(strings.ReplaceAll(text, "%", "%%"), nil); err != nil {
		return err
	}
	a.b.Block().NewCall(a.b.Declare("llvm.trap", types.Void))
	return nil
}
