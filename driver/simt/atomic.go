package simt

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// fence: the lanes of a program run in lockstep and programs see each other's stores at
// once, so a fence orders nothing more (a barrier's fences come with its intrinsic).
func (b *builder) fence(*ir.InstFence) (op, error) {
	return func(*frame) error { return nil }, nil
}

// rmw is one read-modify-write: the new value from the old one and the operands.
type rmw func(old uint64, operands []uint64) uint64

// atomicRMWOp gives the update of an atomicrmw on elements of kind k and w bits.
func atomicRMWOp(op enum.AtomicOp, k kind, w int) (rmw, error) {
	switch op {
	case enum.AtomicOpXChg:
		return func(_ uint64, x []uint64) uint64 { return x[0] }, nil
	case enum.AtomicOpAdd:
		return func(o uint64, x []uint64) uint64 { return o + x[0] }, nil
	case enum.AtomicOpSub:
		return func(o uint64, x []uint64) uint64 { return o - x[0] }, nil
	case enum.AtomicOpAnd:
		return func(o uint64, x []uint64) uint64 { return o & x[0] }, nil
	case enum.AtomicOpOr:
		return func(o uint64, x []uint64) uint64 { return o | x[0] }, nil
	case enum.AtomicOpXor:
		return func(o uint64, x []uint64) uint64 { return o ^ x[0] }, nil
	case enum.AtomicOpMax:
		return func(o uint64, x []uint64) uint64 { return pick(sext(x[0], w) > sext(o, w), x[0], o) }, nil
	case enum.AtomicOpMin:
		return func(o uint64, x []uint64) uint64 { return pick(sext(x[0], w) < sext(o, w), x[0], o) }, nil
	case enum.AtomicOpUMax:
		return func(o uint64, x []uint64) uint64 { return max(o, x[0]) }, nil
	case enum.AtomicOpUMin:
		return func(o uint64, x []uint64) uint64 { return min(o, x[0]) }, nil
	case enum.AtomicOpFAdd:
		if !k.isFloat() {
			break
		}
		return func(o uint64, x []uint64) uint64 { return fromFloat(k, toFloat(k, o)+toFloat(k, x[0])) }, nil
	}
	return nil, fmt.Errorf("atomicrmw %s on %s is not supported", op, kindName(k))
}

func pick(c bool, x, y uint64) uint64 {
	if c {
		return x
	}
	return y
}

func kindName(k kind) string {
	return [...]string{"i1", "i8", "i16", "i32", "i64", "half", "bfloat", "float", "double", "ptr"}[k]
}

func (b *builder) atomicRMW(in *ir.InstAtomicRMW) (op, error) {
	k, err := scalarKind(in.X.Type())
	if err != nil || k == kI1 {
		return nil, fmt.Errorf("atomicrmw %s on %s is not supported", in.Op, in.X.Type())
	}
	fn, err := atomicRMWOp(in.Op, k, k.bits())
	if err != nil {
		return nil, err
	}
	return b.atomic(in, in.Dst, k, fn, false, in.X)
}

// cmpxchg stores the new value where the old one equals the expected one; its result is
// {old, success}.
func (b *builder) cmpXchg(in *ir.InstCmpXchg) (op, error) {
	k, err := scalarKind(in.Cmp.Type())
	if err != nil || k == kI1 {
		return nil, fmt.Errorf("cmpxchg on %s is not supported", in.Cmp.Type())
	}
	fn := func(o uint64, x []uint64) uint64 { return pick(o == x[0], x[1], o) }
	return b.atomic(in, in.Ptr, k, fn, true, in.Cmp, in.New)
}

// atomic compiles a read-modify-write of the k element at ptr under the device's atomic
// lock: the result (in, a value) is the old element, paired with whether it was replaced
// when pair is set (cmpxchg's {old, success}).
func (b *builder) atomic(in value.Value, ptr value.Value, k kind, fn rmw, pair bool, operands ...value.Value) (op, error) {
	pt, ok := ptr.Type().(*types.PointerType)
	if !ok {
		return nil, fmt.Errorf("atomic on %s", ptr.Type())
	}
	ops, err := b.operands(append([]value.Value{ptr}, operands...)...)
	if err != nil {
		return nil, err
	}
	dst, lanes, space := b.slots[in], b.k.lanes, int(pt.AddrSpace)
	size := k.bits() / 8
	if k == kPtr {
		size = b.k.isa.ptrBits(pt.ElemType) / 8
	}
	w := mask(8 * size)
	return func(f *frame) error {
		x := make([]uint64, len(operands))
		for l := range lanes {
			if !f.on(l) {
				continue
			}
			for i := range x {
				x[i] = f.regs[ops[i+1].off+l]
			}
			if err := f.atomically(space, f.regs[ops[0].off+l], size, l, func(old uint64) uint64 {
				f.regs[dst.off+l] = old
				if pair {
					f.regs[dst.off+lanes+l] = pick(old == x[0], 1, 0)
				}
				return fn(old, x) & w
			}); err != nil {
				return laneErr(f, l, fmt.Errorf("%v", err))
			}
		}
		return nil
	}, nil
}

// atomically replaces the size bytes at addr of address space as (for lane l) by
// update(old), under the device's atomic lock.
func (f *frame) atomically(as int, addr uint64, size, l int, update func(old uint64) uint64) error {
	d := f.k.d
	d.atomic.Lock()
	defer d.atomic.Unlock()
	mem, err := f.mem(as, addr, size, size, l, untracked)
	if err != nil {
		return err
	}
	writeLE(mem, update(readLE(mem)))
	return nil
}
