package semantic

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/tileir"
)

// This file holds the type rules of Triton's semantic.py: literal typing, implicit
// promotion, broadcasting, casts, and the arithmetic, bitwise and comparison operators.

// literalType is the dtype Triton gives a Python literal (to_tensor).
func literalType(v pyeval.Value) (DType, bool) {
	switch v := v.(type) {
	case pyeval.Bool:
		return Int1, true
	case pyeval.Int:
		x := v.V
		switch {
		case fitsRange(x, -1<<31, 1<<31):
			return Int32, true
		case fitsRange(x, 1<<31, 1<<32):
			return UInt32, true
		case x.IsInt64():
			return Int64, true
		case x.Sign() > 0 && x.BitLen() <= 64:
			return UInt64, true
		}
		return Void, false
	case pyeval.Float:
		f := math.Abs(float64(v))
		if math.IsInf(f, 0) || f == 0 || math.IsNaN(f) || f >= 0x1p-126 && f <= (2-0x1p-23)*0x1p127 {
			return FP32, true
		}
		return FP64, true
	}
	return Void, false
}

func fitsRange(x *big.Int, lo, hi int64) bool {
	return x.IsInt64() && x.Int64() >= lo && x.Int64() < hi
}

// isNumber reports a Python number (bool, int, float), as numbers.Number does.
func isNumber(v Value) bool {
	c, ok := v.(Const)
	if !ok {
		return false
	}
	switch c.V.(type) {
	case pyeval.Bool, pyeval.Int, pyeval.Float:
		return true
	}
	return false
}

// toTensor converts a value to a tensor: a Python number becomes a scalar constant of its
// literal type; anything else that is not a tensor is an error at n.
func (g *gen) toTensor(n ast.Node, v Value) *Tensor {
	switch v := v.(type) {
	case *Tensor:
		return v
	case Const:
		d, ok := literalType(v.V)
		if !ok {
			if _, isInt := v.V.(pyeval.Int); isInt {
				g.fail(n, "Nonrepresentable integer %s.", pyeval.Repr(v.V))
			}
			g.fail(n, "cannot convert %s of type %s to tensor", pyeval.Repr(v.V), v.V.TypeName())
		}
		return g.constant(n, v.V, d)
	}
	g.fail(n, "cannot convert %s to tensor", describe(v))
	return nil
}

// constant emits a scalar arith.constant of dtype d.
func (g *gen) constant(n ast.Node, v pyeval.Value, d DType) *Tensor {
	var attr tileir.Attr
	if d.IsFloat() {
		f, ok := pyFloat(v)
		if !ok {
			g.fail(n, "cannot make a %s constant from %s", d, pyeval.Repr(v))
		}
		attr = tileir.FloatAttr{V: tileir.RoundFloat(f, d.IR().(tileir.Scalar)), T: d.IR().(tileir.Scalar)}
	} else {
		i, ok := pyInt(v)
		if !ok {
			g.fail(n, "cannot make a %s constant from %s", d, pyeval.Repr(v))
		}
		if d == Int1 {
			attr = tileir.IntAttr{V: i & 1, T: tileir.I1}
			if i != 0 {
				attr = tileir.IntAttr{V: 1, T: tileir.I1}
			}
		} else {
			attr = tileir.IntAttr{V: truncBits(i, d.Bits()), T: d.IR().(tileir.Scalar)}
		}
	}
	return &Tensor{V: g.b.Const(attr), T: d}
}

// truncBits wraps i to a signed n-bit value, as MLIR stores integer attributes.
func truncBits(i int64, n int) int64 {
	if n >= 64 {
		return i
	}
	s := 64 - uint(n)
	return i << s >> s
}

func pyInt(v pyeval.Value) (int64, bool) {
	switch v := v.(type) {
	case pyeval.Bool:
		if v {
			return 1, true
		}
		return 0, true
	case pyeval.Int:
		if v.V.IsInt64() {
			return v.V.Int64(), true
		}
		if v.V.IsUint64() {
			return int64(v.V.Uint64()), true
		}
	case pyeval.Float:
		return int64(v), true
	}
	return 0, false
}

func pyFloat(v pyeval.Value) (float64, bool) {
	switch v := v.(type) {
	case pyeval.Float:
		return float64(v), true
	case pyeval.Int:
		f, _ := new(big.Float).SetInt(v.V).Float64()
		return f, true
	case pyeval.Bool:
		if v {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// integerPromote is integer_promote_impl: C's usual arithmetic conversions.
func integerPromote(a, b DType) DType {
	ar, br := a.Bits(), b.Bits()
	as, bs := !a.IsUnsigned(), !b.IsUnsigned()
	switch {
	case as == bs:
		if ar > br {
			return a
		}
		return b
	case !as:
		if ar >= br {
			return a
		}
		return b
	default:
		if br >= ar {
			return b
		}
		return a
	}
}

// computationType is computation_type_impl; errMsg is non-empty on a type error.
func computationType(a DType, aScalar bool, b DType, bScalar bool, divOrMod bool) (DType, string) {
	if aScalar != bScalar {
		scalar, tensor := a, b
		if bScalar {
			scalar, tensor = b, a
		}
		if scalar.kind() <= tensor.kind() {
			if divOrMod && (tensor == FP16 || tensor == BF16) {
				return FP32, ""
			}
			return tensor, ""
		}
	}
	switch {
	case a == FP64 || b == FP64:
		return FP64, ""
	case a == FP32 || b == FP32:
		return FP32, ""
	case a == FP16 || b == FP16:
		if divOrMod {
			return FP32, ""
		}
		return FP16, ""
	case a == BF16 && b == BF16:
		if divOrMod {
			return FP32, ""
		}
		return BF16, ""
	case a == BF16 || b == BF16:
		return FP32, ""
	case a.IsFP8() && b.IsFP8():
		if a == b {
			return a, ""
		}
		return FP16, ""
	}
	if !a.IsInt() || !b.IsInt() {
		return Void, "unexpected type " + a.String() + " and " + b.String()
	}
	if divOrMod && a.IsUnsigned() != b.IsUnsigned() {
		return Void, "Cannot use /, #, or % with " + typeRepr(a) + " and " + typeRepr(b) +
			" because they have different signedness;this is unlikely to result in a useful answer. Cast them to the same signedness."
	}
	return integerPromote(a, b), ""
}

// operand is one side of a binary operator: a tensor or a Python number, with its node.
type operand struct {
	v    Value
	node ast.Node
}

// binaryTypeCheck is binary_op_type_checking_impl: it converts Python numbers, checks
// pointer use, promotes both sides to the computation type, and broadcasts.
func (g *gen) binaryTypeCheck(n ast.Node, l, r operand, allowLPtr, allowRPtr, arith, divOrMod bool) (*Tensor, *Tensor) {
	lScalar, rScalar := isNumber(l.v), isNumber(r.v)
	lt, rt := g.lazyTensor(l), g.lazyTensor(r)
	ls, rs := scalarOf(lt.T), scalarOf(rt.T)
	g.checkPtr(n, ls, rs, allowLPtr)
	g.checkPtr(n, rs, ls, allowRPtr)
	if arith && !isPtr(ls) && !isPtr(rs) {
		ret, msg := computationType(ls.(DType), lScalar, rs.(DType), rScalar, divOrMod)
		if msg != "" {
			g.fail(n, "%s", msg)
		}
		for _, side := range []struct {
			scalar bool
			o      operand
		}{{lScalar, l}, {rScalar, r}} {
			if !side.scalar {
				continue
			}
			c := side.o.v.(Const).V
			if ret.IsUnsigned() && isNegative(c) {
				g.fail(side.o.node, "Cannot perform a binary operation between an unsigned tensor and a negative scalar. Perform a explicit cast on one of them.")
			}
			if ret.IsInt() {
				lo, hi := ret.intRange()
				f, _ := pyFloat(c)
				if f < lo || f > hi {
					g.fail(side.o.node, "Scalar %s is out of range for type %s", pyeval.Repr(c), ret)
				}
			}
		}
		if lScalar {
			lt = g.constant(l.node, l.v.(Const).V, ret)
		} else {
			lt = g.cast(lt, ret)
		}
		if rScalar {
			rt = g.constant(r.node, r.v.(Const).V, ret)
		} else {
			rt = g.cast(rt, ret)
		}
	}
	if lt.V == nil {
		lt = g.toTensor(l.node, l.v)
	}
	if rt.V == nil {
		rt = g.toTensor(r.node, r.v)
	}
	return g.broadcastPair(n, lt, rt)
}

// lazyTensor is toTensor without emitting the constant of a Python number yet (its V is
// nil), since promotion usually gives it another type.
func (g *gen) lazyTensor(o operand) *Tensor {
	if c, ok := o.v.(Const); ok && isNumber(c) {
		d, ok := literalType(c.V)
		if !ok {
			g.toTensor(o.node, c)
		}
		return &Tensor{T: d}
	}
	return g.toTensor(o.node, o.v)
}

func isNegative(v pyeval.Value) bool {
	f, _ := pyFloat(v)
	return f < 0
}

// checkPtr is check_ptr_type_impl.
func (g *gen) checkPtr(n ast.Node, a, b Type, allowA bool) {
	if !isPtr(a) {
		return
	}
	if !allowA || isPtr(b) && !sameType(a, b) || dtypeOf(b).IsFloat() {
		g.fail(n, "invalid operands of type %s and %s", typeRepr(a), typeRepr(b))
	}
}

// broadcastPair is broadcast_impl_value.
func (g *gen) broadcastPair(n ast.Node, l, r *Tensor) (*Tensor, *Tensor) {
	lb, lBlock := l.T.(*BlockType)
	rb, rBlock := r.T.(*BlockType)
	switch {
	case lBlock && !rBlock:
		r = g.splat(r, lb.Shape)
	case !lBlock && rBlock:
		l = g.splat(l, rb.Shape)
	case lBlock && rBlock:
		for len(lb.Shape) < len(rb.Shape) {
			l = g.expandDims(l, 0)
			lb = l.T.(*BlockType)
		}
		for len(rb.Shape) < len(lb.Shape) {
			r = g.expandDims(r, 0)
			rb = r.T.(*BlockType)
		}
		shape := make([]int64, len(lb.Shape))
		for i, left := range lb.Shape {
			right := rb.Shape[i]
			switch {
			case left == 1:
				shape[i] = right
			case right == 1 || right == left:
				shape[i] = left
			default:
				g.fail(n, "incompatible shapes %s and %s: dimensions at index %d are %d and %d", shapeString(lb.Shape), shapeString(rb.Shape), i, left, right)
			}
		}
		l = g.broadcastTo(n, l, shape)
		r = g.broadcastTo(n, r, shape)
	}
	return l, r
}

// broadcastTo is broadcast_impl_shape.
func (g *gen) broadcastTo(n ast.Node, t *Tensor, shape []int64) *Tensor {
	b, ok := t.T.(*BlockType)
	if !ok {
		return g.splat(t, shape)
	}
	if len(b.Shape) != len(shape) {
		g.fail(n, "Cannot broadcast, rank mismatch: %s, %s", shapeString(b.Shape), shapeString(shape))
	}
	if slices.Equal(b.Shape, shape) {
		return t
	}
	for i, d := range b.Shape {
		if shape[i] != d && d != 1 {
			g.fail(n, "Cannot broadcast, the expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d: %s, %s", shape[i], d, i, shapeString(b.Shape), shapeString(shape))
		}
	}
	r := newBlockTensor(b.Elem, shape)
	r.V = g.emit("tt.broadcast", r.T.IR(), t.V)
	return r
}

// blockTensor is the storage of a tensor of a new block type of rank 4 or less: the
// tensor, its type and the type's shape, allocated together.
type blockTensor struct {
	t     Tensor
	bt    BlockType
	shape [4]int64
}

// newBlockTensor returns a tensor (its value yet to set) of a new block type with a copy
// of shape.
func newBlockTensor(elem Type, shape []int64) *Tensor {
	if len(shape) == 0 || len(shape) > 4 {
		return &Tensor{T: &BlockType{Elem: elem, Shape: append([]int64(nil), shape...)}}
	}
	x := &blockTensor{}
	n := copy(x.shape[:], shape)
	x.bt = BlockType{Elem: elem, Shape: x.shape[:n:n]}
	x.t.T = &x.bt
	return &x.t
}

// splat broadcasts a scalar to a block (a no-op for an empty shape).
func (g *gen) splat(t *Tensor, shape []int64) *Tensor {
	if len(shape) == 0 {
		return t
	}
	r := newBlockTensor(t.T, shape)
	r.V = g.emit("tt.splat", r.T.IR(), t.V)
	return r
}

// expandDims inserts a unit dimension at axis.
func (g *gen) expandDims(t *Tensor, axis int) *Tensor {
	old := shapeOf(t.T)
	var buf [4]int64
	shape := append(buf[:0], old[:axis]...)
	shape = append(shape, 1)
	shape = append(shape, old[axis:]...)
	if _, ok := t.T.(*BlockType); !ok {
		return g.splat(t, shape)
	}
	r := newBlockTensor(scalarOf(t.T), shape)
	r.V = g.emit("tt.expand_dims", r.T.IR(), t.V, tileir.NamedAttr{Name: "axis", Value: tileir.IntAttr{V: int64(axis), T: tileir.I32}})
	return r
}

// reshape changes a block's shape (to a scalar for an empty shape, via tt.unsplat's
// reshape-then-reduce form Triton uses: a reshape to [1] and a reduction).
func (g *gen) reshape(t *Tensor, shape []int64) *Tensor {
	if len(shape) == 0 {
		return g.unsplat(t)
	}
	nt := &BlockType{Elem: scalarOf(t.T), Shape: append([]int64(nil), shape...)}
	if _, ok := t.T.(*BlockType); !ok {
		return g.splat(t, shape)
	}
	return &Tensor{V: g.emit("tt.reshape", nt.IR(), t.V), T: nt}
}

// cast is semantic.cast: the implicit and explicit conversion between dtypes and pointers.
func (g *gen) cast(t *Tensor, dst Type) *Tensor {
	src := scalarOf(t.T)
	dst = scalarOf(dst)
	if sameType(src, dst) {
		return t
	}
	res := withElem(t.T, dst)
	sd, srcIsD := src.(DType)
	dd, dstIsD := dst.(DType)
	emit := func(op string) *Tensor { return &Tensor{V: g.emit(op, res.IR(), t.V), T: res} }
	switch {
	case srcIsD && dstIsD && (sd == FP8E4B15 || dd == FP8E4B15 || sd.IsFP8() && dd.IsFloat() || sd.IsFloat() && dd.IsFP8()):
		rounding := ""
		if dd.Bits() < sd.Bits() {
			rounding = "rtne"
		}
		return &Tensor{V: g.b.FpToFp(t.V, res.IR(), rounding), T: res}
	case srcIsD && dstIsD && (sd == FP16 || sd == BF16) && dd != FP32 && dd.IsFloat():
		return g.cast(g.cast(t, FP32), dd)
	case srcIsD && dstIsD && sd.IsFloat() && dd.IsFloat() && sd.Bits() > dd.Bits():
		return emit("arith.truncf")
	case srcIsD && dstIsD && sd.IsFloat() && dd.IsFloat() && sd.Bits() < dd.Bits():
		return emit("arith.extf")
	case srcIsD && dstIsD && sd.IsInt() && dd.IsInt():
		if dd == Int1 {
			return g.cmp(t, g.splatLike(g.constant(nil, pyeval.NewInt(0), sd), t), "arith.cmpi", "ne")
		}
		return g.intCast(t, dd)
	case srcIsD && dstIsD && sd.IsStandardFloat() && dd.IsInt():
		if dd == Int1 {
			return g.cmp(t, g.splatLike(g.constant(nil, pyeval.Float(0), sd), t), "arith.cmpf", "une")
		}
		if dd.IsSigned() {
			return emit("arith.fptosi")
		}
		return emit("arith.fptoui")
	case srcIsD && dstIsD && sd.IsInt() && dd.IsStandardFloat():
		if sd == Int1 || sd.IsUnsigned() {
			return emit("arith.uitofp")
		}
		return emit("arith.sitofp")
	case !srcIsD && dstIsD && dd.IsInt():
		if dd.Bits() == 64 {
			return emit("tt.ptr_to_int")
		}
		if dd == Int1 {
			i := g.cast(t, Int64)
			return g.cmp(i, g.splatLike(g.constant(nil, pyeval.NewInt(0), Int64), i), "arith.cmpi", "ne")
		}
	case srcIsD && sd.IsInt() && !dstIsD:
		return emit("tt.int_to_ptr")
	case !srcIsD && !dstIsD:
		return emit("tt.bitcast")
	}
	g.fail(g.node, "cannot cast %s to %s", t.T, dst)
	return nil
}

// intCast is create_int_cast: extend (signed unless the source is unsigned or bool) or
// truncate; a same-width cast only changes the Triton type.
func (g *gen) intCast(t *Tensor, dd DType) *Tensor {
	sd := dtypeOf(t.T)
	res := withElem(t.T, dd)
	switch {
	case sd.Bits() == dd.Bits():
		return &Tensor{V: t.V, T: res}
	case sd.Bits() > dd.Bits():
		return &Tensor{V: g.emit("arith.trunci", res.IR(), t.V), T: res}
	case sd.IsSigned() && sd != Int1:
		return &Tensor{V: g.emit("arith.extsi", res.IR(), t.V), T: res}
	}
	return &Tensor{V: g.emit("arith.extui", res.IR(), t.V), T: res}
}

// bitcast is semantic.bitcast.
func (g *gen) bitcast(n ast.Node, t *Tensor, dst Type) *Tensor {
	src := scalarOf(t.T)
	dst = scalarOf(dst)
	if sameType(src, dst) {
		return t
	}
	if isPtr(src) || isPtr(dst) {
		return g.cast(t, dst)
	}
	sb, db := src.(DType).Bits(), dst.(DType).Bits()
	if sb != db {
		g.fail(n, "Cannot bitcast data-type of size %d to data-type of size %d", sb, db)
	}
	res := withElem(t.T, dst)
	return &Tensor{V: g.emit("tt.bitcast", res.IR(), t.V), T: res}
}

// splatLike broadcasts a scalar to the shape of like.
func (g *gen) splatLike(s, like *Tensor) *Tensor { return g.splat(s, shapeOf(like.T)) }

// cmp emits a comparison with an i1 result of the operands' shape.
func (g *gen) cmp(a, b *Tensor, op, pred string) *Tensor {
	res := withElem(a.T, Int1)
	return &Tensor{V: g.emit(op, res.IR(), a.V, b.V, tileir.NamedAttr{Name: "predicate", Value: tileir.EnumAttr(pred)}), T: res}
}

// arith emits a same-typed binary op, choosing the float or integer name.
func (g *gen) arith(a, b *Tensor, floatOp, intOp string) *Tensor {
	name := intOp
	if dtypeOf(a.T).IsFloat() {
		name = floatOp
	}
	return &Tensor{V: g.emit("arith."+name, a.T.IR(), a.V, b.V), T: a.T}
}

// binary applies a Python binary operator.
func (g *gen) binary(n ast.Node, op ast.Operator, l, r Value, ln, rn ast.Node) Value {
	lc, lConst := toPy(l)
	rc, rConst := toPy(r)
	if lConst && rConst {
		if lt, ok := l.(Tuple); ok && op == ast.Add {
			if rt, ok := r.(Tuple); ok {
				return append(append(Tuple{}, lt...), rt...)
			}
		}
		v, err := pyeval.BinOp(op.Symbol(), lc, rc)
		if err != nil {
			g.fail(n, "%v", err)
		}
		return fromPy(v)
	}
	if lt, ok := l.(Tuple); ok && op == ast.Add {
		if rt, ok := r.(Tuple); ok {
			return append(append(Tuple{}, lt...), rt...)
		}
	}
	for _, s := range []operand{{l, ln}, {r, rn}} {
		if _, ok := s.v.(*Tensor); !ok && !isNumber(s.v) {
			g.fail(n, "unsupported operand type(s) for %s: %s and %s", op.Symbol(), describe(l), describe(r))
		}
	}
	lo, ro := operand{l, ln}, operand{r, rn}
	switch op {
	case ast.Add:
		a, b := g.binaryTypeCheck(n, lo, ro, true, true, true, false)
		if isPtr(a.T) && isPtr(b.T) {
			g.fail(n, "cannot add pointers together")
		}
		if isPtr(b.T) {
			a, b = b, a
		}
		if isPtr(a.T) {
			return g.addPtr(a, b)
		}
		g.checkOverflow(n, a, b, ast.Add)
		return g.arith(a, b, "addf", "addi")
	case ast.Sub:
		a, b := g.binaryTypeCheck(n, lo, ro, true, false, true, false)
		if isPtr(a.T) {
			return g.addPtr(a, g.negate(n, b))
		}
		g.checkOverflow(n, a, b, ast.Sub)
		return g.arith(a, b, "subf", "subi")
	case ast.Mult:
		a, b := g.binaryTypeCheck(n, lo, ro, false, false, true, false)
		g.checkOverflow(n, a, b, ast.Mult)
		return g.arith(a, b, "mulf", "muli")
	case ast.Div:
		a, b := g.binaryTypeCheck(n, lo, ro, false, false, true, true)
		ad, bd := dtypeOf(a.T), dtypeOf(b.T)
		switch {
		case ad.IsFloat() && bd.IsInt():
			b = g.cast(b, ad)
		case ad.IsInt() && bd.IsFloat():
			a = g.cast(a, bd)
		case ad.IsInt() && bd.IsInt():
			a, b = g.cast(a, FP32), g.cast(b, FP32)
		case ad.mantissa() > bd.mantissa():
			b = g.cast(b, ad)
		default:
			a = g.cast(a, bd)
		}
		return &Tensor{V: g.emit("arith.divf", a.T.IR(), a.V, b.V), T: a.T}
	case ast.FloorDiv:
		a, b := g.binaryTypeCheck(n, lo, ro, false, false, true, true)
		ad, bd := dtypeOf(a.T), dtypeOf(b.T)
		if !ad.IsInt() || !bd.IsInt() {
			g.fail(n, "unexpected type %s", ad)
		}
		ret := integerPromote(ad, bd)
		a, b = g.cast(a, ret), g.cast(b, ret)
		if ret.IsSigned() {
			return g.arith(a, b, "", "divsi")
		}
		return g.arith(a, b, "", "divui")
	case ast.Mod:
		a, b := g.binaryTypeCheck(n, lo, ro, false, false, true, true)
		ad, bd := dtypeOf(a.T), dtypeOf(b.T)
		if ad.IsFloat() {
			return g.arith(a, b, "remf", "")
		}
		if ad.IsUnsigned() != bd.IsUnsigned() {
			g.fail(n, "Cannot mod %s by %s because they have different signedness;this is unlikely to result in a useful answer. Cast them to the same signedness.", typeRepr(ad), typeRepr(bd))
		}
		if ad.IsSigned() {
			return g.arith(a, b, "", "remsi")
		}
		return g.arith(a, b, "", "remui")
	case ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift:
		// Triton picks ashr or lshr by the signedness of the tensor whose __rshift__ runs
		// (__rrshift__'s for a Python number on the left), before the operands are promoted:
		// int8 >> uint64 is an arithmetic shift of uint64 operands.
		shifted := lo
		if isNumber(lo.v) {
			shifted = ro
		}
		a, b := g.bitwiseTypeCheck(n, lo, ro)
		name := map[ast.Operator]string{ast.BitAnd: "andi", ast.BitOr: "ori", ast.BitXor: "xori", ast.LShift: "shli"}[op]
		if op == ast.RShift {
			signed := dtypeOf(a.T).IsSigned()
			if t, ok := shifted.v.(*Tensor); ok {
				signed = dtypeOf(t.T).IsSigned()
			}
			name = "shrui"
			if signed {
				name = "shrsi"
			}
		}
		return g.arith(a, b, "", name)
	}
	g.fail(n, "AST binary operator '%s' is not (currently) implemented.", op)
	return nil
}

// checkOverflow is binary_op_sanitize_overflow_impl, which Triton runs before an integer
// add, sub or mul (of operands narrower than 64 bits) unless the call passed
// sanitize_overflow=False (g.noOverflowCheck): the op again in int64 and a device_assert
// that the result fits the operands' type. The assert, and so the check, exists only
// with debug.
func (g *gen) checkOverflow(n ast.Node, a, b *Tensor, op ast.Operator) {
	d := dtypeOf(a.T)
	if !g.opts.Debug || g.noOverflowCheck || !d.IsInt() || d.Bits() >= 64 {
		return
	}
	name := map[ast.Operator]string{ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul"}[op]
	wide := g.arith(g.cast(a, Int64), g.cast(b, Int64), "", name+"i")
	hi, lo := int64(1)<<(d.Bits()-1)-1, -int64(1)<<(d.Bits()-1)
	if d.IsUnsigned() {
		hi, lo = int64(1)<<d.Bits()-1, 0
	}
	le := g.compare(n, ast.LtE, wide, constInt(hi))
	ge := g.compare(n, ast.GtE, wide, constInt(lo))
	ok := g.binary(n, ast.BitAnd, le, ge, n, n)
	g.deviceAssert(n, ok, fmt.Sprintf("int%d overflow detected for operation %s", d.Bits(), name), nil)
}

// bitwiseTypeCheck is bitwise_op_type_checking_impl.
func (g *gen) bitwiseTypeCheck(n ast.Node, l, r operand) (*Tensor, *Tensor) {
	a, b := g.binaryTypeCheck(n, l, r, false, false, true, false)
	ad, bd := dtypeOf(a.T), dtypeOf(b.T)
	if !ad.IsInt() || !bd.IsInt() {
		g.fail(n, "invalid operands of type %s and %s", typeRepr(scalarOf(a.T)), typeRepr(scalarOf(b.T)))
	}
	ret := integerPromote(ad, bd)
	return g.cast(a, ret), g.cast(b, ret)
}

// logical is logical_and / logical_or: both sides become int1 first.
func (g *gen) logical(n ast.Node, a, b *Tensor, op string) *Tensor {
	if dtypeOf(a.T) != Int1 {
		a = g.bitcast(n, a, Int1)
	}
	if dtypeOf(b.T) != Int1 {
		b = g.bitcast(n, b, Int1)
	}
	x, y := g.bitwiseTypeCheck(n, operand{a, n}, operand{b, n})
	return g.arith(x, y, "", op)
}

// addPtr is ptr + offset; unsigned offsets narrower than 64 bits are zero-extended.
func (g *gen) addPtr(p, off *Tensor) *Tensor {
	if d := dtypeOf(off.T); d.IsUnsigned() && d.Bits() < 64 {
		off = &Tensor{V: g.emit("arith.extui", withElem(off.T, Int64).IR(), off.V), T: withElem(off.T, Int64)}
	}
	return &Tensor{V: g.emit("tt.addptr", p.T.IR(), p.V, off.V), T: p.T}
}

// negate is semantic.minus: 0 - x.
func (g *gen) negate(n ast.Node, t *Tensor) *Tensor {
	s := scalarOf(t.T)
	if isPtr(s) {
		g.fail(n, "wrong type argument to unary minus (%s)", typeRepr(s))
	}
	zero := g.constant(n, pyeval.NewInt(0), s.(DType))
	a, b := g.binaryTypeCheck(n, operand{zero, n}, operand{t, n}, true, false, true, false)
	return g.arith(a, b, "subf", "subi")
}

// unary applies -, +, ~ or not.
func (g *gen) unary(e *ast.UnaryOp, v Value) Value {
	if c, ok := toPy(v); ok {
		sym := map[ast.UnaryOperator]string{ast.USub: "-", ast.UAdd: "+", ast.Invert: "~", ast.Not: "not"}[e.Op]
		r, err := pyeval.UnaryOp(sym, c)
		if err != nil {
			g.fail(e, "%v", err)
		}
		return fromPy(r)
	}
	t, ok := v.(*Tensor)
	if !ok {
		g.fail(e, "bad operand type for unary operator: %s", describe(v))
	}
	switch e.Op {
	case ast.UAdd:
		return t
	case ast.USub:
		return g.negate(e, t)
	case ast.Invert:
		return g.invert(e, t)
	default:
		if dtypeOf(t.T) != Int1 {
			t = g.bitcast(e, t, Int1)
		}
		return g.invert(e, t)
	}
}

// invert is x ^ all-ones.
func (g *gen) invert(n ast.Node, t *Tensor) *Tensor {
	s := scalarOf(t.T)
	if isPtr(s) || dtypeOf(s).IsFloat() {
		g.fail(n, "wrong type argument to unary invert (%s)", typeRepr(s))
	}
	ones := g.constant(n, pyeval.NewInt(-1), s.(DType))
	a, b := g.bitwiseTypeCheck(n, operand{t, n}, operand{ones, n})
	return g.arith(a, b, "", "xori")
}

// compare applies a comparison operator.
func (g *gen) compare(n ast.Node, op ast.CmpOp, l, r Value) Value {
	lc, lConst := toPy(l)
	rc, rConst := toPy(r)
	if op == ast.Is || op == ast.IsNot {
		same := lConst && rConst && pyeval.Repr(lc) == pyeval.Repr(rc) && lc.TypeName() == rc.TypeName()
		if !lConst || !rConst {
			same = sameValue(l, r)
		}
		return Const{pyeval.Bool(same == (op == ast.Is))}
	}
	if lConst && rConst {
		v, err := pyeval.Compare(op.Symbol(), lc, rc)
		if err != nil {
			g.fail(n, "%v", err)
		}
		return Const{v}
	}
	if ld, ok := l.(DTypeVal); ok {
		if rd, ok := r.(DTypeVal); ok {
			eq := sameType(ld.T, rd.T)
			return Const{pyeval.Bool(eq == (op == ast.Eq))}
		}
	}
	if op == ast.In || op == ast.NotIn {
		g.fail(n, "AST comparison operator '%s' is not (currently) implemented.", op)
	}
	for _, s := range []Value{l, r} {
		if _, ok := s.(*Tensor); !ok && !isNumber(s) {
			g.fail(n, "'%s' not supported between %s and %s", op.Symbol(), describe(l), describe(r))
		}
	}
	a, b := g.binaryTypeCheck(n, operand{l, n}, operand{r, n}, false, false, true, false)
	d := scalarOf(a.T)
	if isPtr(d) {
		g.fail(n, "unexpected type %s", d)
	}
	dt := d.(DType)
	if dt.IsFloat() {
		pred := map[ast.CmpOp]string{ast.Lt: "olt", ast.LtE: "ole", ast.Gt: "ogt", ast.GtE: "oge", ast.Eq: "oeq", ast.NotEq: "une"}[op]
		return g.cmp(a, b, "arith.cmpf", pred)
	}
	pred := map[ast.CmpOp]string{ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Eq: "eq", ast.NotEq: "ne"}[op]
	if op != ast.Eq && op != ast.NotEq {
		if dt.IsSigned() {
			pred = "s" + pred
		} else {
			pred = "u" + pred
		}
	}
	return g.cmp(a, b, "arith.cmpi", pred)
}
