package tileir

import "slices"

// Builder inserts ops at an insertion point (a block and a position in it) and stamps each
// with its current Loc. Methods that create regions (For, If, While, Reduce, Scan) call back
// with a Builder positioned inside the new region.
type Builder struct {
	// Loc is the source location given to every op built from now on.
	Loc Loc

	block *Block
	pos   int
}

// NewBuilder returns a builder that appends to the entry block of f.
func NewBuilder(f *Func) *Builder {
	b := &Builder{}
	b.SetInsertionPointToEnd(f.Body.Entry())
	return b
}

// SetLoc sets the location stamped on the ops built next and returns b.
func (b *Builder) SetLoc(file string, line, col int) *Builder {
	b.Loc = Loc{File: file, Line: line, Col: col}
	return b
}

// SetInsertionPointToEnd makes b append to blk.
func (b *Builder) SetInsertionPointToEnd(blk *Block) { b.block, b.pos = blk, len(blk.Ops) }

// SetInsertionPointBefore makes b insert just before op.
func (b *Builder) SetInsertionPointBefore(op *Op) { b.block, b.pos = op.block, op.block.indexOf(op) }

// SetInsertionPointAfter makes b insert just after op.
func (b *Builder) SetInsertionPointAfter(op *Op) { b.block, b.pos = op.block, op.block.indexOf(op)+1 }

// Last returns the op just before the insertion point (the op built last), or nil.
func (b *Builder) Last() *Op {
	if b.pos == 0 {
		return nil
	}
	return b.block.Ops[b.pos-1]
}

// Block returns the block b inserts into.
func (b *Builder) Block() *Block { return b.block }

// Create builds any op (in the catalogue or not) at the insertion point. attrs need not be
// sorted. Prefer the typed helpers below; Create is for ops they do not cover.
func (b *Builder) Create(name string, operands []*Value, results []Type, attrs ...NamedAttr) *Op {
	var op *Op
	if len(results) == 1 { // most ops: the op and its result are one allocation
		x := &opOneResult{op: Op{Name: name, Operands: operands, Loc: b.Loc}}
		op = &x.op
		x.r.v = Value{Type: results[0], def: op}
		x.r.list[0] = &x.r.v
		op.Results = x.r.list[:]
	} else {
		op = &Op{Name: name, Operands: operands, Loc: b.Loc}
		op.addResults(results...)
	}
	if len(attrs) > 0 {
		op.Attrs = make([]NamedAttr, 0, len(attrs))
		for _, a := range attrs {
			op.SetAttr(a.Name, a.Value)
		}
	}
	b.insert(op)
	return op
}

// opOneResult is the storage of an op with a single result, built by Create.
type opOneResult struct {
	op Op
	r  oneResult
}

func (b *Builder) insert(op *Op) {
	b.block.Insert(b.pos, op)
	b.pos++
}

func (b *Builder) one(name string, operands []*Value, result Type, attrs ...NamedAttr) *Value {
	return b.Create(name, operands, []Type{result}, attrs...).Results[0]
}

// nested returns a builder at the end of blk with b's location.
func (b *Builder) nested(blk *Block) *Builder {
	nb := &Builder{Loc: b.Loc}
	nb.SetInsertionPointToEnd(blk)
	return nb
}

// ---- constants ----

// Const builds arith.constant with value a (an IntAttr, FloatAttr or DenseAttr).
func (b *Builder) Const(a Attr) *Value {
	return b.one("arith.constant", nil, attrType(a), NamedAttr{"value", a})
}

// ConstInt builds an integer constant of type t: a scalar, or a splat when t is a tensor.
func (b *Builder) ConstInt(v int64, t Type) *Value {
	s := ScalarOf(t)
	return b.Const(wrap(IntAttr{normInt(v, s.Bits()), s}, t))
}

// ConstFloat builds a float constant of type t (scalar or splat tensor), rounded to t.
func (b *Builder) ConstFloat(v float64, t Type) *Value {
	s := ScalarOf(t)
	return b.Const(wrap(FloatAttr{RoundFloat(v, s), s}, t))
}

// ConstBool builds an i1 constant (%true / %false).
func (b *Builder) ConstBool(v bool) *Value { return b.ConstInt(boolInt(v), I1) }

// Zero builds the zero of type t (integer or float, scalar or tensor).
func (b *Builder) Zero(t Type) *Value {
	if IsFloatLike(t) {
		return b.ConstFloat(0, t)
	}
	return b.ConstInt(0, t)
}

// ---- arith and math ----

// Binary builds a two-operand SameType op such as "arith.addi" or "arith.maxnumf".
func (b *Builder) Binary(name string, x, y *Value) *Value {
	return b.one(name, []*Value{x, y}, x.Type)
}

// Unary builds a one-operand SameType op such as "arith.negf" or "tt.precise_sqrt".
func (b *Builder) Unary(name string, x *Value) *Value { return b.one(name, []*Value{x}, x.Type) }

// Math builds math.<fn> (exp, exp2, log, log2, sqrt, rsqrt, sin, cos, absf, absi, floor,
// ceil, erf, tanh, fma ...), typed like its first operand.
func (b *Builder) Math(fn string, args ...*Value) *Value {
	return b.one("math."+fn, args, args[0].Type)
}

// AddI builds arith.addi.
func (b *Builder) AddI(x, y *Value) *Value { return b.Binary("arith.addi", x, y) }

// SubI builds arith.subi.
func (b *Builder) SubI(x, y *Value) *Value { return b.Binary("arith.subi", x, y) }

// MulI builds arith.muli.
func (b *Builder) MulI(x, y *Value) *Value { return b.Binary("arith.muli", x, y) }

// AddF builds arith.addf.
func (b *Builder) AddF(x, y *Value) *Value { return b.Binary("arith.addf", x, y) }

// SubF builds arith.subf.
func (b *Builder) SubF(x, y *Value) *Value { return b.Binary("arith.subf", x, y) }

// MulF builds arith.mulf.
func (b *Builder) MulF(x, y *Value) *Value { return b.Binary("arith.mulf", x, y) }

// DivF builds arith.divf.
func (b *Builder) DivF(x, y *Value) *Value { return b.Binary("arith.divf", x, y) }

// NegF builds arith.negf.
func (b *Builder) NegF(x *Value) *Value { return b.Unary("arith.negf", x) }

// IntOp returns the signed or unsigned variant of an integer op: IntOp("div", true) is
// "arith.divui", IntOp("shr", false) "arith.shrsi", IntOp("max", true) "arith.maxui";
// base is one of div, rem, shr, max, min, ceildiv.
func IntOp(base string, unsigned bool) string {
	if unsigned {
		return "arith." + base + "ui"
	}
	return "arith." + base + "si"
}

// IntPredicate returns the cmpi predicate for a comparison operator (== != < <= > >=).
func IntPredicate(cmp string, unsigned bool) string {
	switch cmp {
	case "==":
		return "eq"
	case "!=":
		return "ne"
	}
	p := map[string]string{"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}[cmp]
	if unsigned {
		return "u" + p
	}
	return "s" + p
}

// FloatPredicate returns the ordered cmpf predicate for a comparison operator, except !=,
// which is "une" as in Triton.
func FloatPredicate(cmp string) string {
	return map[string]string{"==": "oeq", "!=": "une", "<": "olt", "<=": "ole", ">": "ogt", ">=": "oge"}[cmp]
}

// CmpI builds arith.cmpi with a predicate (eq ne slt sle sgt sge ult ule ugt uge).
func (b *Builder) CmpI(pred string, x, y *Value) *Value {
	return b.one("arith.cmpi", []*Value{x, y}, WithElem(x.Type, I1), NamedAttr{"predicate", EnumAttr(pred)})
}

// CmpF builds arith.cmpf with a predicate (oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno).
func (b *Builder) CmpF(pred string, x, y *Value) *Value {
	return b.one("arith.cmpf", []*Value{x, y}, WithElem(x.Type, I1), NamedAttr{"predicate", EnumAttr(pred)})
}

// Select builds arith.select: cond ? x : y, cond being i1 or an i1 tensor shaped like x.
func (b *Builder) Select(cond, x, y *Value) *Value {
	return b.one("arith.select", []*Value{cond, x, y}, x.Type)
}

// Cast builds a cast op by name ("arith.extsi", "arith.sitofp", "tt.int_to_ptr" ...) to type to.
func (b *Builder) Cast(name string, x *Value, to Type) *Value { return b.one(name, []*Value{x}, to) }

// IntCast converts between integer types: extsi/extui when widening, trunci when narrowing,
// x itself when the widths match.
func (b *Builder) IntCast(x *Value, to Type, unsigned bool) *Value {
	from, dst := ScalarOf(x.Type).Bits(), ScalarOf(to).Bits()
	switch {
	case dst > from && unsigned:
		return b.Cast("arith.extui", x, to)
	case dst > from:
		return b.Cast("arith.extsi", x, to)
	case dst < from:
		return b.Cast("arith.trunci", x, to)
	}
	return x
}

// IntToFloat builds sitofp or uitofp.
func (b *Builder) IntToFloat(x *Value, to Type, unsigned bool) *Value {
	if unsigned {
		return b.Cast("arith.uitofp", x, to)
	}
	return b.Cast("arith.sitofp", x, to)
}

// FloatToInt builds fptosi or fptoui.
func (b *Builder) FloatToInt(x *Value, to Type, unsigned bool) *Value {
	if unsigned {
		return b.Cast("arith.fptoui", x, to)
	}
	return b.Cast("arith.fptosi", x, to)
}

// FloatCast converts between float types: extf/truncf between f16, bf16, f32 and f64
// (f16 <-> bf16 through f32), tt.fp_to_fp when an fp8 type is involved (rounding to
// nearest even when narrowing), x itself when the types match.
func (b *Builder) FloatCast(x *Value, to Type) *Value {
	from, dst := ScalarOf(x.Type), ScalarOf(to)
	switch {
	case from == dst:
		return x
	case from.Bits() == 8 || dst.Bits() == 8:
		rounding := ""
		if dst.Bits() < from.Bits() {
			rounding = "rtne"
		}
		return b.FpToFp(x, to, rounding)
	case dst.Bits() > from.Bits():
		return b.Cast("arith.extf", x, to)
	case dst.Bits() < from.Bits():
		return b.Cast("arith.truncf", x, to)
	}
	return b.FloatCast(b.FloatCast(x, WithElem(x.Type, F32)), to)
}

// Bitcast reinterprets x as type to: tt.bitcast when pointers are involved, arith.bitcast otherwise.
func (b *Builder) Bitcast(x *Value, to Type) *Value {
	if IsPtrLike(x.Type) || IsPtrLike(to) {
		return b.Cast("tt.bitcast", x, to)
	}
	return b.Cast("arith.bitcast", x, to)
}

// FpToFp builds tt.fp_to_fp; rounding is "rtne", "rtz" or "" (none, for widening).
func (b *Builder) FpToFp(x *Value, to Type, rounding string) *Value {
	var attrs []NamedAttr
	if rounding != "" {
		attrs = append(attrs, NamedAttr{"rounding", EnumAttr(rounding)})
	}
	return b.one("tt.fp_to_fp", []*Value{x}, to, attrs...)
}

// ClampF builds tt.clampf; propagateNan is "none" or "all".
func (b *Builder) ClampF(x, lo, hi *Value, propagateNan string) *Value {
	return b.one("tt.clampf", []*Value{x, lo, hi}, x.Type, NamedAttr{"propagateNan", EnumAttr(propagateNan)})
}

// ---- program and tensor shape ops ----

var axisNames = [...]string{"x", "y", "z"}

// GetProgramID builds tt.get_program_id for axis 0, 1 or 2.
func (b *Builder) GetProgramID(axis int) *Value {
	return b.one("tt.get_program_id", nil, I32, NamedAttr{"axis", EnumAttr(axisNames[axis])})
}

// GetNumPrograms builds tt.get_num_programs for axis 0, 1 or 2.
func (b *Builder) GetNumPrograms(axis int) *Value {
	return b.one("tt.get_num_programs", nil, I32, NamedAttr{"axis", EnumAttr(axisNames[axis])})
}

// MakeRange builds tt.make_range [start, end) : tensor<(end-start)xi32>.
func (b *Builder) MakeRange(start, end int32) *Value {
	return b.one("tt.make_range", nil, Tensor([]int64{int64(end - start)}, I32),
		NamedAttr{"start", IntAttr{int64(start), I32}}, NamedAttr{"end", IntAttr{int64(end), I32}})
}

// Splat builds tt.splat of scalar v to a tensor of the given shape.
func (b *Builder) Splat(v *Value, shape []int64) *Value {
	return b.one("tt.splat", []*Value{v}, Tensor(shape, v.Type))
}

// Broadcast builds tt.broadcast of tensor v to shape (same rank; size-1 dims grow).
func (b *Builder) Broadcast(v *Value, shape []int64) *Value {
	return b.one("tt.broadcast", []*Value{v}, Tensor(shape, ElemType(v.Type)))
}

// ExpandDims builds tt.expand_dims, inserting a size-1 dimension at axis.
func (b *Builder) ExpandDims(v *Value, axis int) *Value {
	t := v.Type.(*TensorType)
	shape := slices.Insert(slices.Clone(t.shape), axis, 1)
	return b.one("tt.expand_dims", []*Value{v}, Tensor(shape, t.elem), NamedAttr{"axis", IntAttr{int64(axis), I32}})
}

// Reshape builds tt.reshape to shape; allowReorder lets the compiler permute elements.
func (b *Builder) Reshape(v *Value, shape []int64, allowReorder bool) *Value {
	var attrs []NamedAttr
	if allowReorder {
		attrs = append(attrs, NamedAttr{"allow_reorder", UnitAttr{}})
	}
	return b.one("tt.reshape", []*Value{v}, Tensor(shape, ElemType(v.Type)), attrs...)
}

// Trans builds tt.trans (tl.trans / tl.permute) with the given dimension order.
func (b *Builder) Trans(v *Value, order ...int32) *Value {
	t := v.Type.(*TensorType)
	shape := make([]int64, len(order))
	for i, o := range order {
		shape[i] = t.shape[o]
	}
	return b.one("tt.trans", []*Value{v}, Tensor(shape, t.elem), NamedAttr{"order", I32ArrayAttr(order)})
}

// Join builds tt.join: two same-typed tensors stacked along a new minor dimension of size 2.
func (b *Builder) Join(x, y *Value) *Value {
	t := x.Type.(*TensorType)
	return b.one("tt.join", []*Value{x, y}, Tensor(append(slices.Clone(t.shape), 2), t.elem))
}

// Split builds tt.split, the inverse of Join.
func (b *Builder) Split(v *Value) (lhs, rhs *Value) {
	t := v.Type.(*TensorType)
	rt := Tensor(t.shape[:len(t.shape)-1], t.elem)
	op := b.Create("tt.split", []*Value{v}, []Type{rt, rt})
	return op.Results[0], op.Results[1]
}

// Cat builds tt.cat, concatenating along dimension 0.
func (b *Builder) Cat(x, y *Value) *Value {
	t := x.Type.(*TensorType)
	shape := slices.Clone(t.shape)
	shape[0] *= 2
	return b.one("tt.cat", []*Value{x, y}, Tensor(shape, t.elem))
}

// Histogram builds tt.histogram with the given number of bins; mask may be nil.
func (b *Builder) Histogram(v *Value, bins int64, mask *Value) *Value {
	ops := []*Value{v}
	if mask != nil {
		ops = append(ops, mask)
	}
	return b.one("tt.histogram", ops, Tensor([]int64{bins}, I32))
}

// Gather builds tt.gather: out[i] = src[i with dimension axis replaced by idx[i]]; the
// result has idx's shape and src's element type.
func (b *Builder) Gather(src, idx *Value, axis int) *Value {
	it := idx.Type.(*TensorType)
	return b.one("tt.gather", []*Value{src, idx}, Tensor(it.shape, ElemType(src.Type)), NamedAttr{"axis", IntAttr{int64(axis), I32}})
}

// Poison builds ub.poison, an unspecified value of type t.
func (b *Builder) Poison(t Type) *Value { return b.one("ub.poison", nil, t) }

// Unsplat builds tt.unsplat: the one element of a single-element tensor, as a scalar.
func (b *Builder) Unsplat(v *Value) *Value {
	return b.one("tt.unsplat", []*Value{v}, ElemType(v.Type))
}

// ---- pointers and memory ----

// AddPtr builds tt.addptr: ptr (pointer or tensor of pointers) advanced by offset elements.
func (b *Builder) AddPtr(ptr, offset *Value) *Value {
	return b.one("tt.addptr", []*Value{ptr, offset}, ptr.Type)
}

// MemOpts are the optional attributes of loads and stores; the zero value is the default.
type MemOpts struct {
	Cache         string  // "" (none), "ca", "cg", "wb", "cs", "wt", "cv"
	Evict         string  // "" (normal), "evict_first", "evict_last"
	Volatile      bool    // loads only
	BoundaryCheck []int32 // block pointers: dimensions to check
	Padding       int     // block pointer loads: 0 none, 1 zero, 2 nan
}

func (o MemOpts) attrs() []NamedAttr {
	var a []NamedAttr
	if o.Cache != "" && o.Cache != "none" {
		a = append(a, NamedAttr{"cache", EnumAttr(o.Cache)})
	}
	if o.Evict != "" && o.Evict != "evict_normal" {
		a = append(a, NamedAttr{"evict", EnumAttr(o.Evict)})
	}
	if o.Volatile {
		a = append(a, NamedAttr{"isVolatile", BoolAttr(true)})
	}
	if len(o.BoundaryCheck) > 0 {
		a = append(a, NamedAttr{"boundaryCheck", I32ArrayAttr(o.BoundaryCheck)})
	}
	if o.Padding != 0 {
		a = append(a, NamedAttr{"padding", IntAttr{int64(o.Padding), I32}})
	}
	return a
}

// Load builds tt.load. mask and other may be nil (other needs a mask).
func (b *Builder) Load(ptr, mask, other *Value, opts MemOpts) *Value {
	ops := []*Value{ptr}
	if mask != nil {
		ops = append(ops, mask)
		if other != nil {
			ops = append(ops, other)
		}
	}
	return b.one("tt.load", ops, pointeeType(ptr.Type), opts.attrs()...)
}

// Store builds tt.store; mask may be nil.
func (b *Builder) Store(ptr, value, mask *Value, opts MemOpts) *Op {
	ops := []*Value{ptr, value}
	if mask != nil {
		ops = append(ops, mask)
	}
	return b.Create("tt.store", ops, nil, opts.attrs()...)
}

// AtomicRMW builds tt.atomic_rmw. kind is and, or, xor, add, fadd, max, min, umax, umin or
// exch; sem relaxed, acquire, release or acq_rel; scope gpu, cta or sys; mask may be nil.
func (b *Builder) AtomicRMW(kind string, ptr, val, mask *Value, sem, scope string) *Value {
	ops := []*Value{ptr, val}
	if mask != nil {
		ops = append(ops, mask)
	}
	return b.one("tt.atomic_rmw", ops, val.Type, NamedAttr{"atomic_rmw_op", EnumAttr(kind)},
		NamedAttr{"sem", EnumAttr(sem)}, NamedAttr{"scope", EnumAttr(scope)})
}

// AtomicCAS builds tt.atomic_cas.
func (b *Builder) AtomicCAS(ptr, cmp, val *Value, sem, scope string) *Value {
	return b.one("tt.atomic_cas", []*Value{ptr, cmp, val}, val.Type,
		NamedAttr{"sem", EnumAttr(sem)}, NamedAttr{"scope", EnumAttr(scope)})
}

// MakeTensorPtr builds tt.make_tensor_ptr: a block pointer over a tensor at base with the
// given (i64) shape and strides, (i32) offsets, block shape and order.
func (b *Builder) MakeTensorPtr(base *Value, shape, strides, offsets []*Value, block []int64, order []int32) *Value {
	ops := slices.Concat([]*Value{base}, shape, strides, offsets)
	pt := base.Type.(*PtrType)
	rt := PtrIn(Tensor(block, pt.elem), pt.addrSpace)
	return b.one("tt.make_tensor_ptr", ops, rt, NamedAttr{"order", I32ArrayAttr(order)})
}

// Advance builds tt.advance of a block pointer by (i32) offsets.
func (b *Builder) Advance(ptr *Value, offsets []*Value) *Value {
	return b.one("tt.advance", append([]*Value{ptr}, offsets...), ptr.Type)
}

// MakeTensorDesc builds tt.make_tensor_descriptor with (i32) shape and (i64) strides;
// padNaN is padding_option="nan" (out-of-bounds elements load as NaN, not zero).
func (b *Builder) MakeTensorDesc(base *Value, shape, strides []*Value, block []int64, padNaN bool) *Value {
	elem := base.Type.(*PtrType).elem
	var attrs []NamedAttr
	if padNaN {
		attrs = append(attrs, NamedAttr{"padding", IntAttr{2, I32}}) // Triton's PAD_NAN
	}
	return b.one("tt.make_tensor_descriptor", slices.Concat([]*Value{base}, shape, strides), TensorDesc(Tensor(block, elem)), attrs...)
}

// DescriptorLoad builds tt.descriptor_load of the descriptor's block at (i32) indices.
func (b *Builder) DescriptorLoad(desc *Value, indices []*Value, opts MemOpts) *Value {
	return b.one("tt.descriptor_load", append([]*Value{desc}, indices...), desc.Type.(*TensorDescType).block, opts.attrs()...)
}

// DescriptorStore builds tt.descriptor_store of value at (i32) indices.
func (b *Builder) DescriptorStore(desc, value *Value, indices []*Value) *Op {
	return b.Create("tt.descriptor_store", append([]*Value{desc, value}, indices...), nil)
}

// ---- compute ----

// Dot builds tt.dot: a (MxK) * b (KxN) + c (MxN). precision is "" (ieee, the default),
// "tf32", "tf32x3" or "ieee"; maxNumImpreciseAcc 0 is the default.
func (b *Builder) Dot(x, y, acc *Value, precision string, maxNumImpreciseAcc int) *Value {
	var attrs []NamedAttr
	if precision != "" && precision != "ieee" {
		attrs = append(attrs, NamedAttr{"inputPrecision", EnumAttr(precision)})
	}
	if maxNumImpreciseAcc != 0 {
		attrs = append(attrs, NamedAttr{"maxNumImpreciseAcc", IntAttr{int64(maxNumImpreciseAcc), I32}})
	}
	return b.one("tt.dot", []*Value{x, y, acc}, acc.Type, attrs...)
}

// Combiner builds a reduce or scan combine region: it gets the left and right scalar
// operands (one per reduced tensor) and returns the combined values.
type Combiner func(b *Builder, lhs, rhs []*Value) []*Value

func (b *Builder) combining(name, ret string, srcs []*Value, results []Type, combine Combiner, attrs ...NamedAttr) []*Value {
	op := b.Create(name, srcs, results, attrs...)
	var elems []Type
	for _, s := range srcs {
		elems = append(elems, ElemType(s.Type))
	}
	r := newRegion(op, append(slices.Clone(elems), elems...)...)
	op.Regions = []*Region{r}
	args := r.Entry().Args
	nb := b.nested(r.Entry())
	nb.Create(ret, combine(nb, args[:len(srcs)], args[len(srcs):]), nil)
	return op.Results
}

// Reduce builds tt.reduce of srcs along axis; results are the reduced tensors (scalars
// when the input is 1-D).
func (b *Builder) Reduce(srcs []*Value, axis int, combine Combiner) []*Value {
	var results []Type
	for _, s := range srcs {
		t := s.Type.(*TensorType)
		shape := slices.Delete(slices.Clone(t.shape), axis, axis+1)
		if len(shape) == 0 {
			results = append(results, t.elem)
		} else {
			results = append(results, Tensor(shape, t.elem))
		}
	}
	return b.combining("tt.reduce", "tt.reduce.return", srcs, results, combine, NamedAttr{"axis", IntAttr{int64(axis), I32}})
}

// Scan builds tt.scan (an inclusive associative scan) of srcs along axis.
func (b *Builder) Scan(srcs []*Value, axis int, reverse bool, combine Combiner) []*Value {
	return b.combining("tt.scan", "tt.scan.return", srcs, valueTypes(srcs), combine,
		NamedAttr{"axis", IntAttr{int64(axis), I32}}, NamedAttr{"reverse", BoolAttr(reverse)})
}

// MapElementwise builds tt.map_elementwise: body runs once per pack consecutive elements,
// on pack scalar arguments per source (source-major), and returns pack scalars per result
// (result-major). The results are tensors of the sources' shape.
func (b *Builder) MapElementwise(srcs []*Value, pack int, body func(b *Builder, args []*Value) []*Value) []*Value {
	op := b.Create("tt.map_elementwise", srcs, nil, NamedAttr{"pack", IntAttr{int64(pack), I32}})
	var args []Type
	for _, s := range srcs {
		for range pack {
			args = append(args, ElemType(s.Type))
		}
	}
	r := newRegion(op, args...)
	op.Regions = []*Region{r}
	nb := b.nested(r.Entry())
	rets := body(nb, r.Entry().Args)
	nb.SetInsertionPointToEnd(r.Entry())
	nb.Create("tt.map_elementwise.return", rets, nil)
	shape := srcs[0].Type.(*TensorType).shape
	for i := 0; i < len(rets); i += pack {
		op.addResults(Tensor(shape, rets[i].Type))
	}
	return op.Results
}

// ExternElementwise builds tt.extern_elementwise, a call of symbol in a device library.
func (b *Builder) ExternElementwise(libname, libpath, symbol string, pure bool, result Type, args ...*Value) *Value {
	return b.one("tt.extern_elementwise", args, result, NamedAttr{"libname", StringAttr(libname)},
		NamedAttr{"libpath", StringAttr(libpath)}, NamedAttr{"symbol", StringAttr(symbol)}, NamedAttr{"pure", BoolAttr(pure)})
}

// InlineAsm builds tt.elementwise_inline_asm.
func (b *Builder) InlineAsm(asm, constraints string, pure bool, packed int, results []Type, args ...*Value) []*Value {
	return b.Create("tt.elementwise_inline_asm", args, results, NamedAttr{"asm_string", StringAttr(asm)},
		NamedAttr{"constraints", StringAttr(constraints)}, NamedAttr{"pure", BoolAttr(pure)},
		NamedAttr{"packed_element", IntAttr{int64(packed), I32}}).Results
}

// ---- debugging, calls, control flow ----

// Print builds tt.print (tl.device_print); isSigned has one entry per arg.
func (b *Builder) Print(prefix string, hex bool, args []*Value, isSigned []bool) *Op {
	signed := I32ArrayAttr{}
	for _, s := range isSigned {
		signed = append(signed, int32(boolInt(s)))
	}
	return b.Create("tt.print", args, nil, NamedAttr{"prefix", StringAttr(prefix)},
		NamedAttr{"hex", BoolAttr(hex)}, NamedAttr{"isSigned", signed})
}

// Assert builds tt.assert (tl.device_assert).
func (b *Builder) Assert(cond *Value, message string) *Op {
	return b.Create("tt.assert", []*Value{cond}, nil, NamedAttr{"message", StringAttr(message)})
}

// Assume builds llvm.intr.assume (tl.assume).
func (b *Builder) Assume(cond *Value) *Op { return b.Create("llvm.intr.assume", []*Value{cond}, nil) }

// Barrier builds gpu.barrier (tl.debug_barrier).
func (b *Builder) Barrier() *Op { return b.Create("gpu.barrier", nil, nil) }

// Call builds tt.call of f.
func (b *Builder) Call(f *Func, args ...*Value) []*Value {
	return b.Create("tt.call", args, f.Results, NamedAttr{"callee", SymbolRefAttr(f.Name)}).Results
}

// Return builds tt.return.
func (b *Builder) Return(vals ...*Value) *Op { return b.Create("tt.return", vals, nil) }

// Yield builds scf.yield; the region helpers below add it for you.
func (b *Builder) Yield(vals ...*Value) *Op { return b.Create("scf.yield", vals, nil) }

// For builds scf.for iv = lb to ub step step with loop-carried values inits. body gets a
// builder inside the loop, the induction variable and the current carried values, and
// returns the next ones (scf.yield is added). The loop's results are the final values.
func (b *Builder) For(lb, ub, step *Value, inits []*Value, body func(b *Builder, iv *Value, args []*Value) []*Value) []*Value {
	op := b.Create("scf.for", slices.Concat([]*Value{lb, ub, step}, inits), valueTypes(inits))
	r := newRegion(op, append([]Type{lb.Type}, valueTypes(inits)...)...)
	op.Regions = []*Region{r}
	nb := b.nested(r.Entry())
	nb.Yield(body(nb, r.Entry().Args[0], r.Entry().Args[1:])...)
	return op.Results
}

// If builds scf.if with the given result types. then and els return the values to yield;
// els may be nil when there are no results (no else region is built).
func (b *Builder) If(cond *Value, results []Type, then, els func(b *Builder) []*Value) []*Value {
	op := b.Create("scf.if", []*Value{cond}, results)
	op.Regions = []*Region{newRegion(op), {op: op}}
	nb := b.nested(op.Regions[0].Entry())
	nb.Yield(then(nb)...)
	if els != nil {
		op.Regions[1] = newRegion(op)
		eb := b.nested(op.Regions[1].Entry())
		eb.Yield(els(eb)...)
	}
	return op.Results
}

// While builds scf.while. before gets the carried values and returns the loop condition
// and the values forwarded to after (and to the results when the loop ends); after gets the
// forwarded values and returns the next carried values.
func (b *Builder) While(inits []*Value, results []Type,
	before func(b *Builder, args []*Value) (cond *Value, forwarded []*Value),
	after func(b *Builder, args []*Value) []*Value) []*Value {
	op := b.Create("scf.while", inits, results)
	op.Regions = []*Region{newRegion(op, valueTypes(inits)...), newRegion(op, results...)}
	bb := b.nested(op.Regions[0].Entry())
	cond, fwd := before(bb, op.Regions[0].Entry().Args)
	bb.Create("scf.condition", append([]*Value{cond}, fwd...), nil)
	ab := b.nested(op.Regions[1].Entry())
	ab.Yield(after(ab, op.Regions[1].Entry().Args)...)
	return op.Results
}
