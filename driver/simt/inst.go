package simt

import (
	"fmt"
	"math"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// inst compiles one non-phi instruction.
func (b *builder) inst(inst ir.Instruction) (op, error) {
	switch in := inst.(type) {
	case *ir.InstAdd:
		return b.intBin(in, in.X, in.Y, func(x, y uint64, _ int) uint64 { return x + y })
	case *ir.InstSub:
		return b.intBin(in, in.X, in.Y, func(x, y uint64, _ int) uint64 { return x - y })
	case *ir.InstMul:
		return b.intBin(in, in.X, in.Y, func(x, y uint64, _ int) uint64 { return x * y })
	case *ir.InstUDiv:
		return b.intBin(in, in.X, in.Y, func(x, y uint64, _ int) uint64 {
			if y == 0 {
				return ^uint64(0) // as PTX's div.u: all ones
			}
			return x / y
		})
	case *ir.InstURem:
		return b.intBin(in, in.X, in.Y, func(x, y uint64, _ int) uint64 {
			if y == 0 {
				return x
			}
			return x % y
		})
	case *ir.InstSDiv:
		return b.intBin(in, in.X, in.Y, func(x, y uint64, w int) uint64 {
			a, c := sext(x, w), sext(y, w)
			if c == 0 {
				return ^uint64(0)
			}
			if c == -1 {
				return uint64(-a)
			}
			return uint64(a / c)
		})
	case *ir.InstSRem:
		return b.intBin(in, in.X, in.Y, func(x, y uint64, w int) uint64 {
			a, c := sext(x, w), sext(y, w)
			if c == 0 {
				return x
			}
			if c == -1 {
				return 0
			}
			return uint64(a % c)
		})
	case *ir.InstShl:
		return b.intBin(in, in.X, in.Y, func(x, y uint64, w int) uint64 {
			if y >= uint64(w) {
				return 0
			}
			return x << y
		})
	case *ir.InstLShr:
		return b.intBin(in, in.X, in.Y, func(x, y uint64, w int) uint64 {
			if y >= uint64(w) {
				return 0
			}
			return x >> y
		})
	case *ir.InstAShr:
		return b.intBin(in, in.X, in.Y, func(x, y uint64, w int) uint64 {
			return uint64(sext(x, w) >> min(y, uint64(w-1)))
		})
	case *ir.InstAnd:
		return b.intBin(in, in.X, in.Y, func(x, y uint64, _ int) uint64 { return x & y })
	case *ir.InstOr:
		return b.intBin(in, in.X, in.Y, func(x, y uint64, _ int) uint64 { return x | y })
	case *ir.InstXor:
		return b.intBin(in, in.X, in.Y, func(x, y uint64, _ int) uint64 { return x ^ y })
	case *ir.InstFAdd:
		return b.floatBin(in, in.X, in.Y, func(x, y float64) float64 { return x + y })
	case *ir.InstFSub:
		return b.floatBin(in, in.X, in.Y, func(x, y float64) float64 { return x - y })
	case *ir.InstFMul:
		return b.floatBin(in, in.X, in.Y, func(x, y float64) float64 { return x * y })
	case *ir.InstFDiv:
		return b.floatBin(in, in.X, in.Y, func(x, y float64) float64 { return x / y })
	case *ir.InstFRem:
		return b.floatBin(in, in.X, in.Y, math.Mod)
	case *ir.InstFNeg:
		return b.floatMap(in, []value.Value{in.X}, func(x []float64) float64 { return -x[0] })
	case *ir.InstICmp:
		return b.icmp(in)
	case *ir.InstFCmp:
		return b.fcmp(in)
	case *ir.InstSelect:
		return b.selectOp(in)
	case *ir.InstTrunc, *ir.InstZExt, *ir.InstSExt, *ir.InstFPTrunc, *ir.InstFPExt, *ir.InstFPToUI,
		*ir.InstFPToSI, *ir.InstUIToFP, *ir.InstSIToFP, *ir.InstPtrToInt, *ir.InstIntToPtr,
		*ir.InstBitCast, *ir.InstAddrSpaceCast:
		return b.conversion(in)
	case *ir.InstFreeze:
		return b.copyOp(in, in.X)
	case *ir.InstExtractValue:
		return b.extractValue(in)
	case *ir.InstInsertValue:
		return b.insertValue(in)
	case *ir.InstExtractElement:
		return b.extractElement(in)
	case *ir.InstInsertElement:
		return b.insertElement(in)
	case *ir.InstShuffleVector:
		return b.shuffle(in)
	case *ir.InstGetElementPtr:
		return b.gep(in)
	case *ir.InstLoad:
		return b.load(in)
	case *ir.InstStore:
		return b.store(in)
	case *ir.InstCall:
		return b.call(in)
	case *ir.InstAlloca:
		return b.alloca(in)
	case *ir.InstFence:
		return b.fence(in)
	case *ir.InstAtomicRMW:
		return b.atomicRMW(in)
	case *ir.InstCmpXchg:
		return b.cmpXchg(in)
	}
	return nil, fmt.Errorf("instruction %T is not supported", inst)
}

// operands returns the slots of vs.
func (b *builder) operands(vs ...value.Value) ([]operand, error) {
	out := make([]operand, len(vs))
	for i, v := range vs {
		o, err := b.val(v)
		if err != nil {
			return nil, err
		}
		out[i] = o
	}
	return out, nil
}

func (b *builder) intBin(in value.Value, x, y value.Value, fn func(x, y uint64, w int) uint64) (op, error) {
	ops, err := b.operands(x, y)
	if err != nil {
		return nil, err
	}
	dst := b.slots[in]
	w := dst.kinds[0].bits()
	m := mask(w)
	n := dst.n() * b.k.lanes
	xo, yo, do := ops[0].off, ops[1].off, dst.off
	return func(f *frame) error {
		xs, ys, ds := f.regs[xo:xo+n], f.regs[yo:yo+n], f.regs[do:do+n]
		for i := range ds {
			ds[i] = fn(xs[i], ys[i], w) & m
		}
		return nil
	}, nil
}

func (b *builder) floatBin(in value.Value, x, y value.Value, fn func(x, y float64) float64) (op, error) {
	return b.floatMap(in, []value.Value{x, y}, func(a []float64) float64 { return fn(a[0], a[1]) })
}

// floatMap compiles an elementwise float operation of any arity; the result is rounded
// to the result's type (computing in float64 and rounding once is exact for +, -, *, /
// and sqrt of float32 and narrower).
func (b *builder) floatMap(in value.Value, args []value.Value, fn func(a []float64) float64) (op, error) {
	ops, err := b.operands(args...)
	if err != nil {
		return nil, err
	}
	dst := b.slots[in]
	k := dst.kinds[0]
	if !k.isFloat() {
		return nil, fmt.Errorf("float operation on %s", dst.typ)
	}
	if len(ops) > 3 {
		return nil, fmt.Errorf("float operation of %d operands", len(ops))
	}
	n := dst.n() * b.k.lanes
	return func(f *frame) error {
		var buf [3]float64
		a := buf[:len(ops)]
		ds := f.regs[dst.off : dst.off+n]
		for i := range ds {
			for j, o := range ops {
				a[j] = toFloat(k, f.regs[o.off+i])
			}
			ds[i] = fromFloat(k, fn(a))
		}
		return nil
	}, nil
}

func (b *builder) icmp(in *ir.InstICmp) (op, error) {
	ops, err := b.operands(in.X, in.Y)
	if err != nil {
		return nil, err
	}
	w := ops[0].kinds[0].bits()
	if ops[0].kinds[0] == kPtr {
		w = b.k.isa.ptrBits(elemPtrType(ops[0].typ))
	}
	var cmp func(x, y uint64) bool
	switch in.Pred {
	case enum.IPredEQ:
		cmp = func(x, y uint64) bool { return x == y }
	case enum.IPredNE:
		cmp = func(x, y uint64) bool { return x != y }
	case enum.IPredUGT:
		cmp = func(x, y uint64) bool { return x > y }
	case enum.IPredUGE:
		cmp = func(x, y uint64) bool { return x >= y }
	case enum.IPredULT:
		cmp = func(x, y uint64) bool { return x < y }
	case enum.IPredULE:
		cmp = func(x, y uint64) bool { return x <= y }
	case enum.IPredSGT:
		cmp = func(x, y uint64) bool { return sext(x, w) > sext(y, w) }
	case enum.IPredSGE:
		cmp = func(x, y uint64) bool { return sext(x, w) >= sext(y, w) }
	case enum.IPredSLT:
		cmp = func(x, y uint64) bool { return sext(x, w) < sext(y, w) }
	case enum.IPredSLE:
		cmp = func(x, y uint64) bool { return sext(x, w) <= sext(y, w) }
	default:
		return nil, fmt.Errorf("icmp predicate %s", in.Pred)
	}
	return b.compare(in, ops, cmp), nil
}

func (b *builder) compare(in value.Value, ops []operand, cmp func(x, y uint64) bool) op {
	dst := b.slots[in]
	n := dst.n() * b.k.lanes
	xo, yo := ops[0].off, ops[1].off
	return func(f *frame) error {
		xs, ys, ds := f.regs[xo:xo+n], f.regs[yo:yo+n], f.regs[dst.off:dst.off+n]
		for i := range ds {
			ds[i] = 0
			if cmp(xs[i], ys[i]) {
				ds[i] = 1
			}
		}
		return nil
	}
}

func (b *builder) fcmp(in *ir.InstFCmp) (op, error) {
	ops, err := b.operands(in.X, in.Y)
	if err != nil {
		return nil, err
	}
	k := ops[0].kinds[0]
	// ordered: the relation with both operands non-NaN; unordered: the relation or a NaN.
	var rel func(x, y float64) bool
	ordered := true
	switch in.Pred {
	case enum.FPredFalse:
		rel = func(x, y float64) bool { return false }
	case enum.FPredTrue:
		rel, ordered = func(x, y float64) bool { return true }, false
	case enum.FPredOEQ, enum.FPredUEQ:
		rel = func(x, y float64) bool { return x == y }
	case enum.FPredONE, enum.FPredUNE:
		rel = func(x, y float64) bool { return x != y }
	case enum.FPredOGT, enum.FPredUGT:
		rel = func(x, y float64) bool { return x > y }
	case enum.FPredOGE, enum.FPredUGE:
		rel = func(x, y float64) bool { return x >= y }
	case enum.FPredOLT, enum.FPredULT:
		rel = func(x, y float64) bool { return x < y }
	case enum.FPredOLE, enum.FPredULE:
		rel = func(x, y float64) bool { return x <= y }
	case enum.FPredORD:
		rel = func(x, y float64) bool { return true }
	case enum.FPredUNO:
		rel = func(x, y float64) bool { return false }
	default:
		return nil, fmt.Errorf("fcmp predicate %s", in.Pred)
	}
	switch in.Pred {
	case enum.FPredUEQ, enum.FPredUNE, enum.FPredUGT, enum.FPredUGE, enum.FPredULT, enum.FPredULE, enum.FPredUNO:
		ordered = false
	}
	return b.compare(in, ops, func(xb, yb uint64) bool {
		x, y := toFloat(k, xb), toFloat(k, yb)
		if math.IsNaN(x) || math.IsNaN(y) {
			return !ordered
		}
		return rel(x, y)
	}), nil
}

func (b *builder) selectOp(in *ir.InstSelect) (op, error) {
	ops, err := b.operands(in.Cond, in.ValueTrue, in.ValueFalse)
	if err != nil {
		return nil, err
	}
	dst := b.slots[in]
	lanes := b.k.lanes
	vecCond := ops[0].n() > 1
	return func(f *frame) error {
		for e := range dst.n() {
			ce := 0
			if vecCond {
				ce = e
			}
			c := f.regs[ops[0].off+ce*lanes:]
			t, fl := f.regs[ops[1].off+e*lanes:], f.regs[ops[2].off+e*lanes:]
			d := f.regs[dst.off+e*lanes : dst.off+(e+1)*lanes]
			for l := range d {
				if c[l]&1 != 0 {
					d[l] = t[l]
				} else {
					d[l] = fl[l]
				}
			}
		}
		return nil
	}, nil
}

func (b *builder) copyOp(in value.Value, x value.Value) (op, error) {
	src, err := b.val(x)
	if err != nil {
		return nil, err
	}
	dst := b.slots[in]
	n := dst.n() * b.k.lanes
	return func(f *frame) error {
		copy(f.regs[dst.off:dst.off+n], f.regs[src.off:src.off+n])
		return nil
	}, nil
}

// conversion compiles the cast instructions.
func (b *builder) conversion(inst ir.Instruction) (op, error) {
	v := inst.(value.Value)
	var from value.Value
	switch in := inst.(type) {
	case *ir.InstTrunc:
		from = in.From
	case *ir.InstZExt:
		from = in.From
	case *ir.InstSExt:
		from = in.From
	case *ir.InstFPTrunc:
		from = in.From
	case *ir.InstFPExt:
		from = in.From
	case *ir.InstFPToUI:
		from = in.From
	case *ir.InstFPToSI:
		from = in.From
	case *ir.InstUIToFP:
		from = in.From
	case *ir.InstSIToFP:
		from = in.From
	case *ir.InstPtrToInt:
		from = in.From
	case *ir.InstIntToPtr:
		from = in.From
	case *ir.InstBitCast:
		from = in.From
	case *ir.InstAddrSpaceCast:
		from = in.From
	}
	src, err := b.val(from)
	if err != nil {
		return nil, err
	}
	dst := b.slots[v]
	fk, tk := src.kinds[0], dst.kinds[0]
	fw, tw := fk.bits(), tk.bits()
	if fk == kPtr {
		fw = b.k.isa.ptrBits(elemPtrType(src.typ))
	}
	if tk == kPtr {
		tw = b.k.isa.ptrBits(elemPtrType(dst.typ))
	}
	var fn func(x uint64) uint64
	switch inst.(type) {
	case *ir.InstTrunc, *ir.InstZExt, *ir.InstPtrToInt, *ir.InstIntToPtr, *ir.InstAddrSpaceCast:
		fn = func(x uint64) uint64 { return x & mask(tw) }
	case *ir.InstSExt:
		fn = func(x uint64) uint64 { return uint64(sext(x, fw)) & mask(tw) }
	case *ir.InstFPTrunc, *ir.InstFPExt:
		fn = func(x uint64) uint64 { return fromFloat(tk, toFloat(fk, x)) }
	case *ir.InstFPToSI:
		fn = func(x uint64) uint64 { return uint64(floatToInt(toFloat(fk, x), tw, true)) & mask(tw) }
	case *ir.InstFPToUI:
		fn = func(x uint64) uint64 { return uint64(floatToInt(toFloat(fk, x), tw, false)) & mask(tw) }
	case *ir.InstSIToFP:
		fn = func(x uint64) uint64 { return fromFloat(tk, float64(sext(x, fw))) }
	case *ir.InstUIToFP:
		fn = func(x uint64) uint64 { return fromFloat(tk, float64(x)) }
	case *ir.InstBitCast:
		if src.n() != dst.n() || fw != tw {
			return b.bitcast(src, dst), nil
		}
		fn = func(x uint64) uint64 { return x }
	}
	n := dst.n() * b.k.lanes
	return func(f *frame) error {
		xs, ds := f.regs[src.off:src.off+n], f.regs[dst.off:dst.off+n]
		for i := range ds {
			ds[i] = fn(xs[i])
		}
		return nil
	}, nil
}

// bitcast reinterprets a lane's bits between shapes (<2 x half> to i32 and back).
func (b *builder) bitcast(src, dst operand) op {
	lanes := b.k.lanes
	return func(f *frame) error {
		s := f.regs[src.off : src.off+src.n()*lanes]
		d := f.regs[dst.off : dst.off+dst.n()*lanes]
		for l := range lanes {
			repack(src.kinds, s, lanes, l, dst.kinds, d)
		}
		return nil
	}
}

// floatToInt converts with truncation toward zero, saturating as PTX's cvt.rzi does
// (NaN gives 0).
func floatToInt(x float64, w int, signed bool) int64 {
	switch {
	case math.IsNaN(x):
		return 0
	case signed:
		lo, hi := -math.Ldexp(1, w-1), math.Ldexp(1, w-1)
		if x <= lo {
			return int64(lo)
		}
		if x >= hi {
			return int64(mask(w - 1))
		}
		return int64(math.Trunc(x))
	}
	if x <= 0 {
		return 0
	}
	if x >= math.Ldexp(1, w) {
		return int64(mask(w))
	}
	return int64(uint64(math.Trunc(x)))
}

// elementIndex is the flattened element offset and count of an aggregate's member.
func elementIndex(t types.Type, idx []uint64) (int, int, error) {
	off := 0
	for _, i := range idx {
		switch tt := t.(type) {
		case *types.StructType:
			for _, f := range tt.Fields[:i] {
				ks, err := flatten(f)
				if err != nil {
					return 0, 0, err
				}
				off += len(ks)
			}
			t = tt.Fields[i]
		case *types.ArrayType:
			ks, err := flatten(tt.ElemType)
			if err != nil {
				return 0, 0, err
			}
			off += int(i) * len(ks)
			t = tt.ElemType
		default:
			return 0, 0, fmt.Errorf("index into %s", t)
		}
	}
	ks, err := flatten(t)
	return off, len(ks), err
}

func (b *builder) extractValue(in *ir.InstExtractValue) (op, error) {
	src, err := b.val(in.X)
	if err != nil {
		return nil, err
	}
	off, n, err := elementIndex(in.X.Type(), in.Indices)
	if err != nil {
		return nil, err
	}
	dst, lanes := b.slots[in], b.k.lanes
	s := src.off + off*lanes
	return func(f *frame) error {
		copy(f.regs[dst.off:dst.off+n*lanes], f.regs[s:s+n*lanes])
		return nil
	}, nil
}

func (b *builder) insertValue(in *ir.InstInsertValue) (op, error) {
	ops, err := b.operands(in.X, in.Elem)
	if err != nil {
		return nil, err
	}
	off, n, err := elementIndex(in.X.Type(), in.Indices)
	if err != nil {
		return nil, err
	}
	dst, lanes := b.slots[in], b.k.lanes
	return func(f *frame) error {
		copy(f.regs[dst.off:dst.off+dst.n()*lanes], f.regs[ops[0].off:ops[0].off+dst.n()*lanes])
		copy(f.regs[dst.off+off*lanes:dst.off+(off+n)*lanes], f.regs[ops[1].off:ops[1].off+n*lanes])
		return nil
	}, nil
}

// constIndex returns v's value when it is an integer constant.
func constIndex(v value.Value) (int, bool) {
	c, ok := v.(*constant.Int)
	if !ok || !c.X.IsInt64() {
		return 0, false
	}
	return int(c.X.Int64()), true
}

func (b *builder) extractElement(in *ir.InstExtractElement) (op, error) {
	ops, err := b.operands(in.X, in.Index)
	if err != nil {
		return nil, err
	}
	src, dst, lanes, n := ops[0], b.slots[in], b.k.lanes, ops[0].n()
	if i, ok := constIndex(in.Index); ok && i >= 0 && i < n {
		s := src.off + i*lanes
		return func(f *frame) error {
			copy(f.regs[dst.off:dst.off+lanes], f.regs[s:s+lanes])
			return nil
		}, nil
	}
	return func(f *frame) error {
		for l := range lanes {
			if !f.on(l) {
				continue
			}
			i := f.regs[ops[1].off+l]
			if i >= uint64(n) {
				return laneErr(f, l, fmt.Errorf("extractelement index %d of a %d-element vector", i, n))
			}
			f.regs[dst.off+l] = f.regs[src.off+int(i)*lanes+l]
		}
		return nil
	}, nil
}

func (b *builder) insertElement(in *ir.InstInsertElement) (op, error) {
	ops, err := b.operands(in.X, in.Elem, in.Index)
	if err != nil {
		return nil, err
	}
	src, dst, lanes, n := ops[0], b.slots[in], b.k.lanes, ops[0].n()
	return func(f *frame) error {
		copy(f.regs[dst.off:dst.off+n*lanes], f.regs[src.off:src.off+n*lanes])
		for l := range lanes {
			if !f.on(l) {
				continue
			}
			i := f.regs[ops[2].off+l]
			if i >= uint64(n) {
				return laneErr(f, l, fmt.Errorf("insertelement index %d of a %d-element vector", i, n))
			}
			f.regs[dst.off+int(i)*lanes+l] = f.regs[ops[1].off+l]
		}
		return nil
	}, nil
}

func (b *builder) shuffle(in *ir.InstShuffleVector) (op, error) {
	ops, err := b.operands(in.X, in.Y)
	if err != nil {
		return nil, err
	}
	mc, ok := in.Mask.(constant.Constant)
	if !ok {
		return nil, fmt.Errorf("shufflevector mask is not a constant")
	}
	sel, err := b.constElems(mc)
	if err != nil {
		return nil, err
	}
	dst, lanes, nx := b.slots[in], b.k.lanes, ops[0].n()
	return func(f *frame) error {
		for e, s := range sel {
			src := ops[0].off + int(s)*lanes
			if int(s) >= nx {
				src = ops[1].off + (int(s)-nx)*lanes
			}
			copy(f.regs[dst.off+e*lanes:dst.off+(e+1)*lanes], f.regs[src:src+lanes])
		}
		return nil
	}, nil
}

func (b *builder) gep(in *ir.InstGetElementPtr) (op, error) {
	ops, err := b.operands(append([]value.Value{in.Src}, in.Indices...)...)
	if err != nil {
		return nil, err
	}
	if ops[0].n() != 1 {
		return nil, fmt.Errorf("vector getelementptr is not supported")
	}
	dst, lanes, isa := b.slots[in], b.k.lanes, b.k.isa
	m := mask(isa.ptrBits(in.Typ))
	widths := make([]int, len(in.Indices))
	for i, x := range in.Indices {
		it, ok := x.Type().(*types.IntType)
		if !ok {
			return nil, fmt.Errorf("getelementptr index of type %s", x.Type())
		}
		widths[i] = int(it.BitSize)
	}
	// The common case, one index into an array of elements: base + index * size.
	if len(in.Indices) == 1 {
		size, err := isa.sizeOf(in.ElemType)
		if err != nil {
			return nil, err
		}
		w := widths[0]
		return func(f *frame) error {
			p, x, d := f.regs[ops[0].off:], f.regs[ops[1].off:], f.regs[dst.off:dst.off+lanes]
			for l := range d {
				d[l] = (p[l] + uint64(sext(x[l], w)*int64(size))) & m
			}
			return nil
		}, nil
	}
	return func(f *frame) error {
		idx := make([]int64, len(in.Indices))
		for l := range lanes {
			for i := range idx {
				idx[i] = sext(f.regs[ops[i+1].off+l], widths[i])
			}
			off, err := isa.gepOffset(in.ElemType, idx)
			if err != nil {
				return err
			}
			f.regs[dst.off+l] = (f.regs[ops[0].off+l] + uint64(off)) & m
		}
		return nil
	}, nil
}

func (b *builder) load(in *ir.InstLoad) (op, error) {
	if in.Atomic { // a read-modify-write that keeps the value, under the atomic lock
		k, err := scalarKind(in.ElemType)
		if err != nil || k == kI1 {
			return nil, fmt.Errorf("load atomic of %s is not supported", in.ElemType)
		}
		return b.atomic(in, in.Src, k, func(old uint64, _ []uint64) uint64 { return old }, false)
	}
	src, err := b.val(in.Src)
	if err != nil {
		return nil, err
	}
	pt, ok := in.Src.Type().(*types.PointerType)
	if !ok {
		return nil, fmt.Errorf("load from %s", in.Src.Type())
	}
	dst, lanes := b.slots[in], b.k.lanes
	sizes, err := b.k.isa.elemSizes(in.ElemType)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, s := range sizes {
		total += s
	}
	space, align := int(pt.AddrSpace), max(int(in.Align), 1)
	return func(f *frame) error {
		for l := range lanes {
			if !f.on(l) {
				continue
			}
			addr := f.regs[src.off+l]
			mem, err := f.mem(space, addr, total, align, l, read)
			if err != nil {
				return laneErr(f, l, fmt.Errorf("load: %v", err))
			}
			pos := 0
			for e, s := range sizes {
				f.regs[dst.off+e*lanes+l] = readLE(mem[pos : pos+s])
				pos += s
			}
		}
		return nil
	}, nil
}

func (b *builder) store(in *ir.InstStore) (op, error) {
	ops, err := b.operands(in.Src, in.Dst)
	if err != nil {
		return nil, err
	}
	pt, ok := in.Dst.Type().(*types.PointerType)
	if !ok {
		return nil, fmt.Errorf("store to %s", in.Dst.Type())
	}
	src, dst, lanes := ops[0], ops[1], b.k.lanes
	sizes, err := b.k.isa.elemSizes(in.Src.Type())
	if err != nil {
		return nil, err
	}
	total := 0
	for _, s := range sizes {
		total += s
	}
	if total > 64 {
		return nil, fmt.Errorf("store of %d bytes", total)
	}
	space, align := int(pt.AddrSpace), max(int(in.Align), 1)
	return func(f *frame) error {
		var buf [64]byte
		data := buf[:total]
		for l := range lanes {
			if !f.on(l) {
				continue
			}
			pos := 0
			for e, s := range sizes {
				writeLE(data[pos:pos+s], f.regs[src.off+e*lanes+l])
				pos += s
			}
			if err := f.store(space, f.regs[dst.off+l], data, align, l); err != nil {
				return laneErr(f, l, fmt.Errorf("store: %v", err))
			}
		}
		return nil
	}, nil
}

func readLE(b []byte) uint64 {
	var v uint64
	for i := len(b) - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

func writeLE(b []byte, v uint64) {
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
}

// alloca gives each thread its own bytes of the frame's private memory, in a buffer of
// the device's global address space (so that generic pointers reach it), or, in the
// ISA's private address space, at an offset into the thread's own part of that buffer.
func (b *builder) alloca(in *ir.InstAlloca) (op, error) {
	if in.NElems != nil {
		if n, ok := constIndex(in.NElems); !ok || n != 1 {
			return nil, fmt.Errorf("alloca of a variable number of elements")
		}
	}
	as := int(in.Typ.AddrSpace)
	private := as == b.k.isa.Private && as != 0
	if !private && !b.k.isa.Global[as] {
		return nil, fmt.Errorf("alloca in address space %d is not supported", in.Typ.AddrSpace)
	}
	size, err := b.k.isa.sizeOf(in.ElemType)
	if err != nil {
		return nil, err
	}
	off := (b.k.localBytes + 15) &^ 15
	b.k.localBytes = off + size
	dst := b.slots[in]
	return func(f *frame) error {
		stride := uint64(f.k.localBytes+15) &^ 15
		d := f.regs[dst.off : dst.off+f.lanes]
		for l := range d {
			if private { // an offset into the thread's own memory
				d[l] = uint64(off)
			} else {
				d[l] = f.local.Addr() + uint64(l)*stride + uint64(off)
			}
		}
		return nil
	}, nil
}
