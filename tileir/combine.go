package tileir

import (
	"math"
	"slices"
)

// Triton's make_ttir rewrites, after its canonicalizer: combine
// (lib/Dialect/Triton/Transforms/Combine.cpp) and reorder_broadcast (ReorderBroadcast.cpp).
// Both are greedy pattern rewrites: patterns apply, with constant folding, until nothing
// changes. This file also adds to canonicalize the MLIR canonicalization patterns of arith
// and of Triton's ops that the TTIR Triton prints depends on.

// greedy is one sweep of a greedy pattern rewrite: the value replacements made so far and,
// once a pattern asks, the users of every value as the sweep began.
type greedy struct {
	*rewriter
	f     *Func
	users *userTable
}

// usersOf returns the ops that used v when the sweep began.
func (g *greedy) usersOf(v *Value) []*Op {
	if g.users == nil {
		g.users = collectUsers(g.f)
	}
	return g.users.of(v)
}

// pattern is one rewrite; it reports whether it changed the IR.
type pattern func(g *greedy, op *Op) bool

// userTable holds the users of every value of a function: vals[i] is used by
// users[start[i]:start[i+1]], in walk order. A value finds its entry through its slot
// (see Value.slot).
type userTable struct {
	vals  []*Value
	start []int32
	users []*Op
}

// of returns the ops that use v.
func (t *userTable) of(v *Value) []*Op {
	if i := int(v.slot) - 1; i >= 0 && i < len(t.vals) && t.vals[i] == v {
		return t.users[t.start[i]:t.start[i+1]:t.start[i+1]]
	}
	return nil
}

// collectUsers finds the users of every value of f.
func collectUsers(f *Func) *userTable {
	t := &userTable{}
	var ops []*Op
	uses := 0
	f.Walk(func(op *Op) bool {
		ops = append(ops, op)
		uses += len(op.Operands)
		return true
	})
	var count []int32
	for _, op := range ops {
		for _, v := range op.Operands {
			if i := int(v.slot) - 1; i >= 0 && i < len(t.vals) && t.vals[i] == v {
				count[i]++
				continue
			}
			t.vals = append(t.vals, v)
			v.slot = int32(len(t.vals))
			count = append(count, 1)
		}
	}
	t.start = make([]int32, len(t.vals)+1)
	for i, c := range count {
		t.start[i+1] = t.start[i] + c
	}
	t.users = make([]*Op, uses)
	next := count[:0]
	next = append(next, t.start[:len(t.vals)]...)
	for _, op := range ops {
		for _, v := range op.Operands {
			i := v.slot - 1
			t.users[next[i]] = op
			next[i]++
		}
	}
	return t
}

// applyGreedily folds constants and applies patterns (by op name) and anyOp (to every op)
// in sweeps over f until a sweep changes nothing. Like canonicalize, it leaves the ops it
// made dead to dce; patterns that count users therefore count dead ones too, which only
// makes them rewrite less.
func applyGreedily(f *Func, byName map[string][]pattern, anyOp ...pattern) bool {
	changed := false
	for range 64 {
		g := &greedy{rewriter: newRewriter(), f: f}
		g.walk(f, func(op *Op) {
			if g.tryFold(op) {
				return
			}
			for _, ps := range [2][]pattern{byName[op.Name], anyOp} {
				for _, p := range ps {
					if p(g, op) {
						g.changed = true
						return
					}
				}
			}
		})
		if !g.changed {
			break
		}
		changed = true
	}
	return changed
}

// insertBefore places a new op before at, with at's location, and returns it.
func insertBefore(at *Op, name string, operands []*Value, results []Type, attrs []NamedAttr) *Op {
	op := &Op{Name: name, Operands: operands, Attrs: append([]NamedAttr(nil), attrs...), Loc: at.Loc}
	op.addResults(results...)
	at.block.Insert(at.block.indexOf(at), op)
	return op
}

// defName returns the name of the op that defines v ("" for a block argument).
func defName(v *Value) string {
	if v.def == nil {
		return ""
	}
	return v.def.Name
}

// isZeroConst reports whether v is a constant integer or float zero (or a splat of one).
func isZeroConst(v *Value) bool { return isSplatOf(constOf(v), 0) }

// ---- combine ----

// combineOps is Triton's combine pass.
func combineOps(f *Func) bool { return applyGreedily(f, combinePatterns) }

var combinePatterns = map[string][]pattern{
	"arith.addf":   {dotAdd},
	"arith.addi":   {dotAdd},
	"arith.select": {selectMaskedLoad},
	"tt.addptr":    {addPtrChain},
	"tt.reshape":   {reshapeForReduce},
}

// dotAdd: add(dot(a, b, 0), d) => dot(a, b, d), when the dot has no other use (and, for
// floats, no imprecise accumulation limit).
func dotAdd(g *greedy, op *Op) bool {
	for i, v := range op.Operands {
		dot := v.def
		if defName(v) != "tt.dot" || !isZeroConst(dot.Operands[2]) || len(g.usersOf(v)) != 1 {
			continue
		}
		if op.Name == "arith.addf" && dot.IntAttr("maxNumImpreciseAcc") != 0 {
			return false
		}
		dot.Erase()
		op.block.Insert(op.block.indexOf(op), dot)
		dot.Operands[2] = op.Operands[1-i]
		g.replace(op, dot.Results[0])
		return true
	}
	return false
}

// selectMaskedLoad: select(c, load(p, splat(c), _), x) => load(p, splat(c), x).
func selectMaskedLoad(g *greedy, op *Op) bool {
	load := op.Operands[1].def
	if defName(op.Operands[1]) != "tt.load" || len(load.Operands) < 2 {
		return false
	}
	mask := load.Operands[1]
	if defName(mask) != "tt.splat" || mask.def.Operands[0] != op.Operands[0] {
		return false
	}
	nl := insertBefore(op, "tt.load", []*Value{load.Operands[0], mask, op.Operands[2]}, []Type{op.Results[0].Type}, load.Attrs)
	if len(g.usersOf(load.Results[0])) == 1 && load.Attr("isVolatile") != BoolAttr(true) {
		load.Erase()
	}
	g.replace(op, nl.Results[0])
	return true
}

// addPtrChain: addptr(addptr(p, i), j) => addptr(p, i + j), when i and j are 64-bit, or
// constants whose sum does not overflow.
func addPtrChain(g *greedy, op *Op) bool {
	inner := op.Operands[0].def
	if defName(op.Operands[0]) != "tt.addptr" {
		return false
	}
	i, j := inner.Operands[1], op.Operands[1]
	if i.Type != j.Type || !addPtrOffsetsCombinable(i, j) {
		return false
	}
	sum := insertBefore(op, "arith.addi", []*Value{i, j}, []Type{i.Type}, nil)
	op.Operands = []*Value{inner.Operands[0], sum.Results[0]}
	return true
}

func addPtrOffsetsCombinable(i, j *Value) bool {
	if ScalarOf(i.Type).Bits() == 64 {
		return true
	}
	a, ok1 := splatOf(constOf(i)).(IntAttr)
	b, ok2 := splatOf(constOf(j)).(IntAttr)
	bits := ScalarOf(i.Type).Bits()
	return ok1 && ok2 && normInt(a.V+b.V, bits) == a.V+b.V
}

// reshapeForReduce lets a reshape to 1-D that only feeds reductions reorder elements.
func reshapeForReduce(g *greedy, op *Op) bool {
	if op.Attr("allow_reorder") != nil || len(ShapeOf(op.Results[0].Type)) != 1 || len(g.usersOf(op.Results[0])) == 0 {
		return false
	}
	for _, u := range g.usersOf(op.Results[0]) {
		if u.Name != "tt.reduce" && u.Name != "tt.histogram" {
			return false
		}
	}
	op.SetAttr("allow_reorder", UnitAttr{})
	return true
}

// ---- reorder_broadcast ----

// reorderBroadcast is Triton's reorder_broadcast pass: elementwise ops move after the
// splats and broadcasts that feed them, so that they compute on fewer elements.
func reorderBroadcast(f *Func) bool {
	return applyGreedily(f, reorderPatterns, splatAfterElementwise, broadcastAfterElementwise)
}

var reorderPatterns = map[string][]pattern{
	"tt.broadcast":   {canon(sameTypeNoop), canon(splatThrough), canon(broadcastOfBroadcast)},
	"tt.expand_dims": {canon(splatThrough), expandDimsOfBroadcast},
}

// canon adapts a canonicalizer to a pattern.
func canon(c func(rw *rewriter, op *Op) bool) pattern {
	return func(g *greedy, op *Op) bool { return c(g.rewriter, op) }
}

// movable reports whether op is an elementwise op that reorder_broadcast may move.
func movable(op *Op) bool {
	return op.Has(Elementwise) && IsPure(op) && len(op.Operands) > 0 && len(op.Regions) == 0
}

// splatLike reports whether v is a tt.splat or a splat constant tensor.
func splatLike(v *Value) bool {
	if defName(v) == "tt.splat" {
		return true
	}
	_, dense := constOf(v).(DenseAttr)
	return dense
}

// splatAfterElementwise: elementwise(splat(a), splat(b), ...) => splat(elementwise(a, b, ...)).
func splatAfterElementwise(g *greedy, op *Op) bool {
	if !movable(op) {
		return false
	}
	for _, v := range op.Operands {
		if !splatLike(v) {
			return false
		}
	}
	scalars := make([]*Value, len(op.Operands))
	for i, v := range op.Operands {
		if d, ok := constOf(v).(DenseAttr); ok {
			scalars[i] = newConst(op, d.Splat)
		} else {
			scalars[i] = v.def.Operands[0]
		}
	}
	return g.rebuild(op, scalars, func(t Type) Type { return ElemType(t) }, "tt.splat")
}

// broadcastAfterElementwise: elementwise(broadcast(a), splat(b), ...) =>
// broadcast(elementwise(a, splat'(b), ...)), when every broadcast has a source of one shape.
func broadcastAfterElementwise(g *greedy, op *Op) bool {
	if !movable(op) {
		return false
	}
	var shape []int64
	for _, v := range op.Operands {
		switch {
		case defName(v) == "tt.broadcast":
			s := ShapeOf(v.def.Operands[0].Type)
			if shape != nil && !slices.Equal(shape, s) {
				return false
			}
			shape = s
		case !splatLike(v):
			return false
		}
	}
	if shape == nil {
		return false
	}
	small := func(t Type) Type { return Tensor(shape, ElemType(t)) }
	operands := make([]*Value, len(op.Operands))
	for i, v := range op.Operands {
		switch d := constOf(v).(type) {
		case DenseAttr:
			operands[i] = newConst(op, wrap(d.Splat, small(v.Type)))
		default:
			if defName(v) == "tt.broadcast" {
				operands[i] = v.def.Operands[0]
			} else {
				operands[i] = insertBefore(op, "tt.splat", []*Value{v.def.Operands[0]}, []Type{small(v.Type)}, nil).Results[0]
			}
		}
	}
	return g.rebuild(op, operands, small, "tt.broadcast")
}

// rebuild replaces op by a copy that takes operands and has result types resize(t) for
// each result type t, followed by an expand op (tt.splat or tt.broadcast) per result.
func (g *greedy) rebuild(op *Op, operands []*Value, resize func(Type) Type, expand string) bool {
	var types []Type
	for _, r := range op.Results {
		types = append(types, resize(r.Type))
	}
	small := insertBefore(op, op.Name, operands, types, op.Attrs)
	small.props = op.props
	out := make([]*Value, len(op.Results))
	for i, r := range op.Results {
		out[i] = insertBefore(op, expand, []*Value{small.Results[i]}, []Type{r.Type}, nil).Results[0]
	}
	g.replace(op, out...)
	return true
}

// expandDimsOfBroadcast: expand_dims(broadcast(x)) => broadcast(expand_dims(x)).
func expandDimsOfBroadcast(g *greedy, op *Op) bool {
	if defName(op.Operands[0]) != "tt.broadcast" {
		return false
	}
	src := op.Operands[0].def.Operands[0]
	axis := int(op.IntAttr("axis"))
	shape := append(append(append([]int64(nil), ShapeOf(src.Type)[:axis]...), 1), ShapeOf(src.Type)[axis:]...)
	e := insertBefore(op, "tt.expand_dims", []*Value{src}, []Type{Tensor(shape, ElemType(src.Type))}, op.Attrs)
	b := insertBefore(op, "tt.broadcast", []*Value{e.Results[0]}, []Type{op.Results[0].Type}, nil)
	g.replace(op, b.Results[0])
	return true
}

// ---- canonicalization patterns of arith and Triton ops ----

func init() {
	extra := map[string][]func(rw *rewriter, op *Op) bool{
		"arith.addi":     {addConstChain},
		"arith.subi":     {subConstChain},
		"arith.muli":     {mulConstChain},
		"tt.fp_to_fp":    {fpToFpZero},
		"tt.trans":       {transOfTrans},
		"tt.expand_dims": {func(rw *rewriter, op *Op) bool { return expandDimsOfBroadcast(&greedy{rewriter: rw}, op) }},
	}
	for name, rs := range extra {
		canonicalizers[name] = append(canonicalizers[name], rs...)
	}
}

// transNoop drops a tt.trans whose order is the identity (a square transpose keeps its
// type but is no no-op).
func transNoop(rw *rewriter, op *Op) bool {
	order, _ := op.Attr("order").(I32ArrayAttr)
	for i, o := range order {
		if int(o) != i {
			return false
		}
	}
	return sameTypeNoop(rw, op)
}

// transOfTrans: trans(trans(x, inner), outer) => trans(x, inner composed with outer).
func transOfTrans(rw *rewriter, op *Op) bool {
	if defName(op.Operands[0]) != "tt.trans" {
		return false
	}
	in := op.Operands[0].def
	inner, _ := in.Attr("order").(I32ArrayAttr)
	outer, _ := op.Attr("order").(I32ArrayAttr)
	order := make(I32ArrayAttr, len(outer))
	for i, o := range outer {
		order[i] = inner[o]
	}
	op.Operands[0] = in.Operands[0]
	op.SetAttr("order", order)
	return true
}

// intConst returns the integer inside constant v (a scalar or a splat).
func intConst(v *Value) (int64, bool) {
	c, ok := splatOf(constOf(v)).(IntAttr)
	return c.V, ok
}

// constLike returns a constant n shaped like v, inserted before op.
func constLike(op *Op, n int64, v *Value) *Value {
	s := ScalarOf(v.Type)
	return newConst(op, wrap(IntAttr{normInt(n, s.Bits()), s}, v.Type))
}

// constChain matches op(inner(x, c0), c1), where inner is one of the named ops and c0, c1
// are integer constants.
func constChain(op *Op, innerNames ...string) (inner *Op, c0, c1 int64, ok bool) {
	c1, ok = intConst(op.Operands[1])
	inner = op.Operands[0].def
	if !ok || inner == nil || !slices.Contains(innerNames, inner.Name) {
		return nil, 0, 0, false
	}
	c0, ok = intConst(inner.Operands[1])
	return inner, c0, c1, ok
}

// foldChain rewrites op(inner(x, c0), c1) to op(x, c).
func foldChain(op, inner *Op, c int64) {
	op.Operands = []*Value{inner.Operands[0], constLike(op, c, op.Operands[1])}
}

// addConstChain: (x + c0) + c1 => x + (c0 + c1), and (x - c0) + c1 => x + (c1 - c0).
func addConstChain(rw *rewriter, op *Op) bool {
	inner, c0, c1, ok := constChain(op, "arith.addi", "arith.subi")
	if !ok {
		return false
	}
	if inner.Name == "arith.subi" {
		c0 = -c0
	}
	foldChain(op, inner, c0+c1)
	return true
}

// subConstChain: (x + c0) - c1 => x + (c0 - c1), and (x - c0) - c1 => x - (c0 + c1).
func subConstChain(rw *rewriter, op *Op) bool {
	inner, c0, c1, ok := constChain(op, "arith.addi", "arith.subi")
	if !ok {
		return false
	}
	if inner.Name == "arith.addi" {
		op.Name = "arith.addi"
		foldChain(op, inner, c0-c1)
	} else {
		foldChain(op, inner, c0+c1)
	}
	return true
}

// mulConstChain: (x * c0) * c1 => x * (c0 * c1).
func mulConstChain(rw *rewriter, op *Op) bool {
	inner, c0, c1, ok := constChain(op, "arith.muli")
	if !ok {
		return false
	}
	foldChain(op, inner, c0*c1)
	return true
}

// fpToFpZero folds a conversion of (a splat of) +0.0 or -0.0, as FpToFpOp::fold does.
func fpToFpZero(rw *rewriter, op *Op) bool {
	c, ok := splatOf(constOf(op.Operands[0])).(FloatAttr)
	if !ok || c.V != 0 {
		return false
	}
	z := FloatAttr{V: math.Copysign(0, c.V), T: ScalarOf(op.Results[0].Type)}
	rw.replace(op, newConst(op, wrap(z, op.Results[0].Type)))
	return true
}
