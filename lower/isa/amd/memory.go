package amd

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
)

// accessType is the LLVM type of one access: its word, or a vector of its words.
func accessType(acc isa.Access) types.Type {
	wt := types.NewInt(uint64(acc.WordBits))
	if acc.Words == 1 {
		return wt
	}
	return types.NewVector(uint64(acc.Words), wt)
}

// pointerTo returns t addrspace(space)*.
func pointerTo(t types.Type, space int) *types.PointerType {
	p := types.NewPointer(t)
	p.AddrSpace = types.AddrSpace(space)
	return p
}

// pack puts words into a value of type t (accessType).
func (a *ISA) pack(t types.Type, words []value.Value) value.Value {
	if len(words) == 1 {
		return words[0]
	}
	var v value.Value = zero(t)
	for i, w := range words {
		v = a.b.Block().NewInsertElement(v, w, isa.I32(int64(i)))
	}
	return v
}

// unpack takes n words out of v.
func (a *ISA) unpack(v value.Value, n int) []value.Value {
	if n == 1 {
		return []value.Value{v}
	}
	out := make([]value.Value, n)
	for i := range out {
		out[i] = a.b.Block().NewExtractElement(v, isa.I32(int64(i)))
	}
	return out
}

// predicated runs emit in a block of its own that runs only where pred holds, and
// continues in the block after it. It returns the block that branched (from) and the
// one emit ended in (then), for the phis of the block after.
func (a *ISA) predicated(pred value.Value, emit func()) (from, then *ir.Block) {
	from = a.b.Block()
	then, after := a.b.NewBlock(), a.b.NewBlock()
	from.NewCondBr(pred, then, after)
	a.b.SetBlock(then)
	emit()
	then = a.b.Block()
	then.NewBr(after)
	a.b.SetBlock(after)
	return from, then
}

// LoadGlobal loads the access as one (vector) load, in a block of its own when pred is
// given, its result merged with other (or zero) as Triton's MaskedLoadOp is lowered.
func (a *ISA) LoadGlobal(acc isa.Access, ptr, pred value.Value, other []value.Value) []value.Value {
	t := accessType(acc)
	var fallback value.Value = zero(t)
	if other != nil {
		fallback = a.pack(t, other)
	}
	p := a.b.BitCast(ptr, pointerTo(t, 1))
	load := func() value.Value {
		ld := a.b.Block().NewLoad(t, p)
		ld.Align = ir.Align(acc.WordBits / 8 * acc.Words)
		ld.Volatile = acc.Volatile
		return ld
	}
	if pred == nil {
		return a.unpack(load(), acc.Words)
	}
	var ld value.Value
	from, then := a.predicated(pred, func() { ld = load() })
	phi := a.b.Block().NewPhi(ir.NewIncoming(ld, then), ir.NewIncoming(fallback, from))
	return a.unpack(phi, acc.Words)
}

// StoreGlobal stores the words as one (vector) store, in a block of its own when pred
// is given.
func (a *ISA) StoreGlobal(acc isa.Access, ptr, pred value.Value, words []value.Value) {
	t := accessType(acc)
	v := a.pack(t, words)
	p := a.b.BitCast(ptr, pointerTo(t, 1))
	store := func() { a.b.Store(v, p).Align = ir.Align(acc.WordBits / 8 * acc.Words) }
	if pred == nil {
		store()
		return
	}
	a.predicated(pred, store)
}

// StoreShared stores v at the LDS pointer ptr in a block of its own that runs where pred
// holds.
func (a *ISA) StoreShared(ptr, v, pred value.Value) {
	a.predicated(pred, func() { a.b.Store(v, ptr) })
}
