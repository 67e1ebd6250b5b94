package ptx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// memType is the ld/st type suffix of a scalar leaf.
func (e *fnEmitter) memType(t types.Type) string {
	switch intBits(t) {
	case 1, 8:
		return "u8"
	}
	rc, _ := e.lay.classOf(t)
	switch rc {
	case rcF32, rcF64:
		return floatNames[rc]
	}
	return typeName('b', rc.bits())
}

// leafOffsets returns the byte offset of every leaf of t.
func (e *fnEmitter) leafOffsets(t types.Type, base int64, out []int64) ([]int64, error) {
	switch tt := t.(type) {
	case *types.VectorType, *types.ArrayType:
		var elem types.Type
		var n uint64
		if v, ok := tt.(*types.VectorType); ok {
			elem, n = v.ElemType, v.Len
		} else {
			a := tt.(*types.ArrayType)
			elem, n = a.ElemType, a.Len
		}
		size, _, err := e.lay.sizeAlign(elem)
		if err != nil {
			return nil, err
		}
		for i := uint64(0); i < n; i++ {
			if out, err = e.leafOffsets(elem, base+int64(i)*size, out); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *types.StructType:
		for i, f := range tt.Fields {
			fo, err := e.lay.fieldOffset(tt, i)
			if err != nil {
				return nil, err
			}
			if out, err = e.leafOffsets(f, base+fo, out); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return append(out, base), nil
}

// access describes one load or store.
type access struct {
	ptr    value.Value
	typ    types.Type
	align  ir.Align
	atomic bool
}

// plan returns the address (register and offset), the state space, the leaves of the
// accessed type and their offsets, and the register types of one ld/st that
// covers the whole access (nil when it must be split leaf by leaf). That is
// the leaves themselves when 2 or 4 of one type of 16 bits or more fill at
// most 16 aligned bytes; leaves of 8 or 16 bits that fill 2, 4, 8 or 16
// aligned bytes are packed into 1, 2 or 4 words of 16 or 32 bits instead
// (<8 x half> and <16 x i8> become ld.v4.b32), as LLVM does.
func (e *fnEmitter) plan(a access) (ad addr, space string, ts []types.Type, offs []int64, whole []types.Type, err error) {
	pt, ok := a.ptr.Type().(*types.PointerType)
	if !ok {
		return addr{}, "", nil, nil, nil, fmt.Errorf("address %s is not a pointer", a.ptr.Ident())
	}
	space, ok = spaceName[pt.AddrSpace]
	if !ok {
		return addr{}, "", nil, nil, nil, fmt.Errorf("address space %d is not supported", pt.AddrSpace)
	}
	ad, err = e.address(a.ptr, e.lay.pointerBits(pt.AddrSpace))
	if err != nil {
		return addr{}, "", nil, nil, nil, err
	}
	ts = e.leaves(a.typ)
	if offs, err = e.leafOffsets(a.typ, 0, e.offs[:0]); err != nil {
		return addr{}, "", nil, nil, nil, err
	}
	e.offs = offs
	size, _, _ := e.lay.sizeAlign(a.typ)
	same := len(ts) > 1 && size <= 16 && int64(a.align) >= size && intBits(ts[0]) != 1
	for _, t := range ts {
		same = same && types.Equal(t, ts[0])
	}
	bits := e.leafBits(ts[0])
	switch {
	case !same:
	case (len(ts) == 2 || len(ts) == 4) && bits >= 16:
		whole = ts
	case !a.atomic && bits <= 16 && (size == 2 || size == 4 || size == 8 || size == 16):
		whole = packWords[size]
	}
	for k := range offs {
		offs[k] += ad.off
	}
	return ad, space, ts, offs, whole, nil
}

// packWords are the words that leaves of 8 or 16 bits filling 2, 4, 8 or 16
// bytes are packed into, by size (shared: not to be modified).
var packWords = [17][]types.Type{
	2:  {types.I16},
	4:  {types.I32},
	8:  {types.I32, types.I32},
	16: {types.I32, types.I32, types.I32, types.I32},
}

// vecOperand is the register operand of an ld/st: "%r1" or "{%r1, %r2}".
func (e *fnEmitter) vecOperand(regs []string) string {
	if len(regs) == 1 {
		return regs[0]
	}
	return e.joinOps("{", regs, "}")
}

// vecSuffix is the ".vN" of an ld/st of n registers ("" for one).
func vecSuffix(n int) string {
	switch n {
	case 1:
		return ""
	case 2:
		return ".v2"
	case 4:
		return ".v4"
	}
	return ".v" + strconv.Itoa(n)
}

// at is the address operand [addr+off], carved out of e.names.
func (e *fnEmitter) at(addr string, off int64) string {
	start := e.strStart(len(addr) + 24)
	e.names = append(e.names, '[')
	e.names = append(e.names, addr...)
	if off != 0 {
		e.names = append(e.names, '+')
		e.names = appendInt(e.names, off)
	}
	e.names = append(e.names, ']')
	return e.strEnd(start)
}

// memOrder returns the ld/st/atom qualifiers of an atomic ordering and
// scope, and whether a fence.sc must precede the access.
func memOrder(o enum.AtomicOrdering, scope string, rmw bool) (string, bool, error) {
	sc, ok := scopes[scope]
	if !ok {
		return "", false, fmt.Errorf("sync scope %q is not supported", scope)
	}
	switch o {
	case enum.AtomicOrderingNone:
		return "", false, nil
	case enum.AtomicOrderingMonotonic, enum.AtomicOrderingUnordered:
		return ".relaxed" + sc, false, nil
	case enum.AtomicOrderingAcquire:
		return ".acquire" + sc, false, nil
	case enum.AtomicOrderingRelease:
		return ".release" + sc, false, nil
	case enum.AtomicOrderingAcquireRelease:
		return ".acq_rel" + sc, false, nil
	case enum.AtomicOrderingSequentiallyConsistent:
		if rmw {
			return ".acq_rel" + sc, true, nil
		}
		return ".acquire" + sc, true, nil
	}
	return "", false, fmt.Errorf("ordering %s is not supported", o)
}

// scopes maps LLVM NVPTX sync scopes to PTX scope qualifiers.
var scopes = map[string]string{"": ".sys", "block": ".cta", "cluster": ".cluster", "device": ".gpu", "singlethread": ".cta"}

// accessPrefix returns the opcode prefix of a load ("ld") or store ("st"):
// .volatile, or for an atomic access its memory order (a store's acquire
// becomes release), emitting the fence that a seq_cst order needs first.
func (e *fnEmitter) accessPrefix(op string, volatile, atomic bool, o enum.AtomicOrdering, scope string) (string, error) {
	prefix := op
	if volatile {
		prefix += ".volatile"
	}
	if atomic {
		q, fence, err := memOrder(o, scope, false)
		if err != nil {
			return "", err
		}
		if fence {
			e.emit("fence.sc" + scopes[scope])
		}
		if op == "st" {
			q = strings.Replace(q, ".acquire", ".release", 1)
		}
		prefix = op + q
	}
	return prefix, nil
}

func (e *fnEmitter) load(i *ir.InstLoad) error {
	prefix, err := e.accessPrefix("ld", i.Volatile, i.Atomic, i.Ordering, i.SyncScope)
	if err != nil {
		return err
	}
	ad, space, ts, offs, whole, err := e.plan(access{i.Src, i.ElemType, i.Align, i.Atomic})
	if err != nil {
		return err
	}
	var out []string
	if whole != nil {
		rcs, err := e.classesOfLeaves(whole)
		if err != nil {
			return err
		}
		regs := e.newRegs(rcs)
		e.emitOp(prefix, space, vecSuffix(len(regs)), ".", e.memType(whole[0]), e.vecOperand(regs), e.at(ad.reg, offs[0]))
		if out, err = e.repack(regs, whole, ts); err != nil {
			return err
		}
	} else {
		rcs, err := e.classesOf(i.ElemType)
		if err != nil {
			return err
		}
		out = e.newRegs(rcs)
		for k, t := range ts {
			if rcs[k] == rcPred {
				b := e.newReg(rcB16)
				e.emitOp(prefix, space, ".u8", "", "", b, e.at(ad.reg, offs[k]))
				e.emit("setp.ne.b16", out[k], b, "0")
				continue
			}
			e.emitOp(prefix, space, ".", e.memType(t), "", out[k], e.at(ad.reg, offs[k]))
		}
	}
	e.set(i, out)
	return nil
}

func (e *fnEmitter) store(i *ir.InstStore) error {
	prefix, err := e.accessPrefix("st", i.Volatile, i.Atomic, i.Ordering, i.SyncScope)
	if err != nil {
		return err
	}
	ad, space, ts, offs, whole, err := e.plan(access{i.Dst, i.Src.Type(), i.Align, i.Atomic})
	if err != nil {
		return err
	}
	vals, err := e.regs(i.Src)
	if err != nil {
		return err
	}
	if whole != nil {
		words, err := e.repack(vals, ts, whole)
		if err != nil {
			return err
		}
		e.emitOp(prefix, space, vecSuffix(len(words)), ".", e.memType(whole[0]), e.at(ad.reg, offs[0]), e.vecOperand(words))
		return nil
	}
	for k, t := range ts {
		v := vals[k]
		if intBits(t) == 1 {
			b := e.newReg(rcB16)
			e.emit("selp.b16", b, "1", "0", v)
			v = b
		}
		e.emitOp(prefix, space, ".", e.memType(t), "", e.at(ad.reg, offs[k]), v)
	}
	return nil
}

// atomicOps maps atomicrmw operations to PTX atom operations and the kind
// of their type suffix ('f' for the float type).
var atomicOps = map[enum.AtomicOp]struct {
	op   string
	kind byte
}{
	enum.AtomicOpXChg: {"exch", 'b'}, enum.AtomicOpAdd: {"add", 'u'}, enum.AtomicOpAnd: {"and", 'b'},
	enum.AtomicOpOr: {"or", 'b'}, enum.AtomicOpXor: {"xor", 'b'}, enum.AtomicOpMax: {"max", 's'},
	enum.AtomicOpMin: {"min", 's'}, enum.AtomicOpUMax: {"max", 'u'}, enum.AtomicOpUMin: {"min", 'u'},
	enum.AtomicOpFAdd: {"add", 'f'},
}

// atomPrefix returns "atom<sem><scope><space>" for an atomic on ptr.
func (e *fnEmitter) atomPrefix(ptr value.Value, o enum.AtomicOrdering, scope string) (string, string, error) {
	q, fence, err := memOrder(o, scope, true)
	if err != nil {
		return "", "", err
	}
	pt := ptr.Type().(*types.PointerType)
	space, ok := spaceName[pt.AddrSpace]
	if !ok || space == ".const" || space == ".local" {
		return "", "", fmt.Errorf("atomics in address space %d are not supported", pt.AddrSpace)
	}
	if fence {
		e.emit("fence.sc" + scopes[scope])
	}
	a, err := e.address(ptr, e.lay.pointerBits(pt.AddrSpace))
	if err != nil {
		return "", "", err
	}
	return "atom" + q + space, e.at(a.reg, a.off), nil
}

func (e *fnEmitter) atomicRMW(i *ir.InstAtomicRMW) error {
	spec, ok := atomicOps[i.Op]
	rc, err := e.lay.classOf(i.X.Type())
	if !ok || err != nil || rc == rcPred || intBits(i.X.Type()) == 8 {
		return fmt.Errorf("atomicrmw %s on %s is not supported", i.Op, i.X.Type())
	}
	prefix, addr, err := e.atomPrefix(i.Dst, i.Ordering, i.SyncScope)
	if err != nil {
		return err
	}
	x, err := e.getOne(i.X)
	if err != nil {
		return err
	}
	typ := fmt.Sprintf("%c%d", spec.kind, rc.bits())
	if spec.kind == 'f' {
		typ = floatNames[rc]
		if rc == rcF16 {
			typ = "noftz.f16"
		}
	}
	d := e.newReg(rc)
	e.emit(prefix+"."+spec.op+"."+typ, d, addr, x)
	e.set(i, e.one(d))
	return nil
}

func (e *fnEmitter) cmpXchg(i *ir.InstCmpXchg) error {
	rc, err := e.lay.classOf(i.Cmp.Type())
	if err != nil || rc.bits() < 32 {
		return fmt.Errorf("cmpxchg on %s is not supported", i.Cmp.Type())
	}
	prefix, addr, err := e.atomPrefix(i.Ptr, i.SuccessOrdering, i.SyncScope)
	if err != nil {
		return err
	}
	c, err := e.getOne(i.Cmp)
	if err != nil {
		return err
	}
	n, err := e.getOne(i.New)
	if err != nil {
		return err
	}
	d, ok := e.newReg(rc), e.newReg(rcPred)
	e.emit(fmt.Sprintf("%s.cas.b%d", prefix, rc.bits()), d, addr, c, n)
	e.emit("setp.eq.b"+strconv.Itoa(rc.bits()), ok, d, c)
	e.set(i, []string{d, ok})
	return nil
}

func (e *fnEmitter) fence(i *ir.InstFence) error {
	q, sc, err := memOrder(i.Ordering, i.SyncScope, true)
	if err != nil {
		return err
	}
	if sc {
		e.emit("fence.sc" + scopes[i.SyncScope])
		return nil
	}
	e.emit("fence.acq_rel" + q[strings.LastIndex(q, "."):])
	return nil
}

// extract shares the leaves of one member of an aggregate.
func (e *fnEmitter) extract(v value.Value, x value.Value, indices []uint64) error {
	xs, err := e.get(x)
	if err != nil {
		return err
	}
	start, n, err := aggIndex(x.Type(), indices)
	if err != nil {
		return err
	}
	e.set(v, xs[start:start+n])
	return nil
}

// insert builds a new leaf list with one member replaced. The undef lanes
// of an undef vector take the inserted element's operand: undef may be any
// value, and so no register is spent on lanes that are overwritten later.
func (e *fnEmitter) insert(v value.Value, x, elem value.Value, indices []uint64) error {
	es, err := e.get(elem)
	if err != nil {
		return err
	}
	start, n, err := aggIndex(x.Type(), indices)
	if err != nil {
		return err
	}
	var out []string
	if vt, ok := x.Type().(*types.VectorType); ok && isUndef(x) {
		out = e.opSlice(int(vt.Len))
		for k := range out {
			out[k] = es[0]
		}
	} else {
		xs, err := e.get(x)
		if err != nil {
			return err
		}
		out = append(e.opSlice(len(xs))[:0], xs...)
	}
	copy(out[start:start+n], es)
	e.set(v, out)
	return nil
}

// isUndef reports whether v is undef or poison.
func isUndef(v value.Value) bool {
	switch v.(type) {
	case *constant.Undef, *constant.Poison:
		return true
	}
	return false
}

// shuffle selects leaves of two vectors by a constant mask.
func (e *fnEmitter) shuffle(i *ir.InstShuffleVector) error {
	xs, err := e.get(i.X)
	if err != nil {
		return err
	}
	ys, err := e.get(i.Y)
	if err != nil {
		return err
	}
	both := append(append([]string(nil), xs...), ys...)
	mask, err := e.get(i.Mask)
	if err != nil {
		return err
	}
	rc, err := e.lay.classOf(i.Typ.ElemType)
	if err != nil {
		return err
	}
	out := make([]string, len(mask))
	for k, m := range mask {
		n, ok := immInt(m)
		switch {
		case !ok:
			return fmt.Errorf("shufflevector needs a constant mask")
		case n < 0 || n >= int64(len(both)):
			out[k] = e.zero(rc)
		default:
			out[k] = both[n]
		}
	}
	e.set(i, out)
	return nil
}
