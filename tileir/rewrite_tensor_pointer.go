package tileir

import (
	"math"
	"slices"
)

// rewriteTensorPointer is Triton's RewriteTensorPointer pass
// (lib/Dialect/Triton/Transforms/RewriteTensorPointer.cpp): block pointers
// (tt.make_tensor_ptr, tt.advance) become i64 offsets, and each tt.load / tt.store through
// one becomes an access through a tensor of pointers (splat, make_range, expand_dims,
// broadcast, addptr), its boundary checks a mask (cmpi sge 0, cmpi slt shape, andi) and
// its padding the "other" value. Block pointers carried by scf.for become their offsets,
// one i64 iter_arg per dimension. A function whose block pointers flow anywhere else
// (scf.if, scf.while, calls, arguments) is left as it is.
func rewriteTensorPointer(f *Func) bool {
	if !tensorPtrRewritable(f) {
		return false
	}
	rw := &tptrRewrite{info: map[*Value]*tptrInfo{}}
	rw.block(f.Body)
	return rw.changed
}

// isTensorPtr reports whether t is a block pointer type, !tt.ptr<tensor<...>>.
func isTensorPtr(t Type) bool {
	p, ok := t.(*PtrType)
	if !ok {
		return false
	}
	_, ok = p.elem.(*TensorType)
	return ok
}

// tensorPtrRewritable reports whether every block pointer of f is made, advanced, loaded,
// stored or carried by scf.for only.
func tensorPtrRewritable(f *Func) bool {
	for _, a := range f.Args() {
		if isTensorPtr(a.Type) {
			return false
		}
	}
	ok := true
	f.Walk(func(op *Op) bool {
		for i, v := range op.Operands {
			if !isTensorPtr(v.Type) {
				continue
			}
			switch {
			case op.Name == "tt.advance" && i == 0, op.Name == "tt.load" && i == 0, op.Name == "tt.store" && i == 0:
			case op.Name == "scf.for" && i >= 3:
			case op.Name == "scf.yield" && op.ParentOp() != nil && op.ParentOp().Name == "scf.for":
			default:
				ok = false
			}
		}
		for _, r := range op.Results {
			if isTensorPtr(r.Type) && op.Name != "tt.make_tensor_ptr" && op.Name != "tt.advance" && op.Name != "scf.for" {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// tptrInfo is what a block pointer stands for once rewritten: base, i64 shape, strides
// and offsets, and the block's shape and element type.
type tptrInfo struct {
	base                    *Value
	shape, strides, offsets []*Value
	block                   []int64
	elem                    Type
}

type tptrRewrite struct {
	info    map[*Value]*tptrInfo
	changed bool
}

func (rw *tptrRewrite) block(r *Region) {
	for _, blk := range r.Blocks {
		for _, op := range slices.Clone(blk.Ops) {
			rw.op(op)
		}
	}
}

func (rw *tptrRewrite) op(op *Op) {
	b := &Builder{Loc: op.Loc}
	switch op.Name {
	case "tt.make_tensor_ptr":
		t := op.Results[0].Type.(*PtrType).elem.(*TensorType)
		n := len(t.shape)
		b.SetInsertionPointBefore(op)
		in := &tptrInfo{base: op.Operands[0], shape: slices.Clone(op.Operands[1 : 1+n]),
			strides: slices.Clone(op.Operands[1+n : 1+2*n]), block: t.shape, elem: t.elem}
		for _, o := range op.Operands[1+2*n:] {
			in.offsets = append(in.offsets, b.IntCast(o, I64, false))
		}
		rw.info[op.Results[0]] = in
		op.Erase()
		rw.changed = true
	case "tt.advance":
		old := rw.info[op.Operands[0]]
		b.SetInsertionPointBefore(op)
		in := *old
		in.offsets = nil
		for i, o := range op.Operands[1:] {
			in.offsets = append(in.offsets, b.AddI(old.offsets[i], b.IntCast(o, I64, false)))
		}
		rw.info[op.Results[0]] = &in
		op.Erase()
		rw.changed = true
	case "tt.load", "tt.store":
		in, ok := rw.info[op.Operands[0]]
		if !ok {
			return
		}
		b.SetInsertionPointBefore(op)
		cache := map[int]*Value{}
		ptr := in.pointers(b, cache)
		var check []int32
		if a, ok := op.Attr("boundaryCheck").(I32ArrayAttr); ok {
			check = a
		}
		mask := in.mask(b, cache, check)
		ops := []*Value{ptr}
		if op.Name == "tt.store" {
			ops = append(ops, op.Operands[1])
		}
		if mask != nil {
			ops = append(ops, mask)
			if op.Name == "tt.load" {
				if other := in.other(b, op.IntAttr("padding")); other != nil {
					ops = append(ops, other)
				}
			}
		}
		op.Operands = ops
		op.RemoveAttr("boundaryCheck")
		op.RemoveAttr("padding")
		rw.changed = true
	case "scf.for":
		rw.forOp(op)
	case "scf.yield":
		var ops []*Value
		for _, v := range op.Operands {
			if in, ok := rw.info[v]; ok {
				ops = append(ops, in.offsets...)
			} else {
				ops = append(ops, v)
			}
		}
		op.Operands = ops
	default:
		for _, r := range op.Regions {
			rw.block(r)
		}
	}
}

// forOp replaces each block pointer init, iter_arg and result of loop by its offsets.
func (rw *tptrRewrite) forOp(loop *Op) {
	body := loop.Regions[0].Entry()
	var inits []*Value
	args := []*Value{body.Args[0]}
	var results []*Value
	for k, v := range loop.Operands[3:] {
		arg, res := body.Args[1+k], loop.Results[k]
		in, ok := rw.info[v]
		if !ok {
			inits = append(inits, v)
			args = append(args, arg)
			results = append(results, res)
			continue
		}
		argIn, resIn := *in, *in
		argIn.offsets, resIn.offsets = nil, nil
		for _, o := range in.offsets {
			inits = append(inits, o)
			a := &Value{Type: o.Type, block: body}
			args = append(args, a)
			argIn.offsets = append(argIn.offsets, a)
			r := &Value{Type: o.Type, def: loop}
			results = append(results, r)
			resIn.offsets = append(resIn.offsets, r)
		}
		rw.info[arg], rw.info[res] = &argIn, &resIn
		rw.changed = true
	}
	loop.Operands = append(loop.Operands[:3:3], inits...)
	for i, a := range args {
		a.index = int32(i)
	}
	body.Args = args
	for i, r := range results {
		r.index = int32(i)
	}
	loop.Results = results
	rw.block(loop.Regions[0])
}

// offsetWithRange is getExpandedOffsetWithRange: offset i plus 0..block[i]-1, in i64,
// expanded to the block's rank.
func (in *tptrInfo) offsetWithRange(b *Builder, cache map[int]*Value, i int) *Value {
	if v, ok := cache[i]; ok {
		return v
	}
	n := in.block[i]
	splat := b.Splat(in.offsets[i], []int64{n})
	r := b.IntCast(b.MakeRange(0, int32(n)), Tensor([]int64{n}, I64), false)
	v := b.AddI(splat, r)
	for axis := range in.block {
		if axis != i {
			v = b.ExpandDims(v, axis)
		}
	}
	cache[i] = v
	return v
}

// pointers is generatePtr: splat(base) advanced by (offset+range)*stride per dimension.
func (in *tptrInfo) pointers(b *Builder, cache map[int]*Value) *Value {
	ptr := b.Splat(in.base, in.block)
	for i := range in.block {
		o := in.offsetWithRange(b, cache, i)
		s := b.MulI(o, b.Splat(in.strides[i], ShapeOf(o.Type)))
		ptr = b.AddPtr(ptr, b.Broadcast(s, in.block))
	}
	return ptr
}

// mask is generateMask: 0 <= offset+range < shape along each checked dimension.
func (in *tptrInfo) mask(b *Builder, cache map[int]*Value, check []int32) *Value {
	var mask *Value
	for _, i := range check {
		o := in.offsetWithRange(b, cache, int(i))
		shape := ShapeOf(o.Type)
		lower := b.CmpI("sge", o, b.Splat(b.ConstInt(0, I64), shape))
		upper := b.CmpI("slt", o, b.Splat(in.shape[i], shape))
		m := b.Broadcast(b.Binary("arith.andi", lower, upper), in.block)
		if mask == nil {
			mask = m
		} else {
			mask = b.Binary("arith.andi", mask, m)
		}
	}
	return mask
}

// other is generateOther: the padding value (1 zero, 2 NaN), or nil without padding.
func (in *tptrInfo) other(b *Builder, padding int64) *Value {
	t := Tensor(in.block, in.elem)
	switch padding {
	case 1:
		return b.Zero(t)
	case 2:
		return b.ConstFloat(math.NaN(), t)
	}
	return nil
}

// forInvariantArgs is scf.for's iter_args folding (ForOpIterArgsFolder): an iter_arg that
// the body yields back unchanged is its init value, inside the loop and after it. It
// cleans up the offsets of block pointers advanced along some dimensions only.
func forInvariantArgs(rw *rewriter, loop *Op) bool {
	body := loop.Regions[0].Entry()
	yield := body.Terminator()
	if yield == nil || yield.Name != "scf.yield" {
		return false
	}
	inits := []*Value{}
	args := []*Value{body.Args[0]}
	var results, yields []*Value
	for k, init := range loop.Operands[3:] {
		arg, res, y := body.Args[1+k], loop.Results[k], rw.resolve(yield.Operands[k])
		if y == arg {
			rw.repl[arg], rw.repl[res] = init, init
			continue
		}
		inits, args, results, yields = append(inits, init), append(args, arg), append(results, res), append(yields, yield.Operands[k])
	}
	if len(results) == len(loop.Results) {
		return false
	}
	loop.Operands = append(loop.Operands[:3:3], inits...)
	for i, a := range args {
		a.index = int32(i)
	}
	body.Args = args
	for i, r := range results {
		r.index = int32(i)
	}
	loop.Results = results
	yield.Operands = yields
	return true
}

func init() {
	canonicalizers["scf.for"] = append(canonicalizers["scf.for"], forInvariantArgs)
}
