package semantic

import (
	"fmt"
	"maps"
	"slices"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/tileir"
)

// gen generates tile IR for one kernel specialization by walking the kernel's AST, as
// Triton's CodeGenerator does: constexprs are evaluated with Python semantics, constexpr
// branches fold, static loops unroll, and nested jit functions are inlined at their calls
// (Triton emits tt.call and inlines it in make_ttir; the result is the same).
type gen struct {
	opts *Options
	// noOverflowCheck is set while tl.add, tl.sub or tl.mul with sanitize_overflow=False
	// generates its op
	noOverflowCheck bool
	frames          []frame
	node            ast.Node // the node being generated, for internal-error diagnostics

	scope map[string]Value // the current function's locals
	b     *tileir.Builder
	// ret collects the value of a return statement of the function being inlined.
	ret      Value
	returned bool
	loops    int // depth of runtime loops, where return is not allowed
	// unrolling counts the enclosing tl.static_range loops of the current function.
	unrolling int
	// rest holds, for each statement list enclosing the current one within the function
	// (constexpr if branches), the statements that follow it: the continuation that a
	// returning runtime if takes into its branches.
	rest   [][]ast.Stmt
	prints []string
	// assigned numbers the names the function assigns in the order of their first
	// assignment, the order that Triton's scope dict keeps (parameters come before all).
	assigned map[string]int
	// compileTime is set while running a plain Python function called from a kernel
	// (compileTimeCall): its loops unroll.
	compileTime bool
}

// mod returns the module of the function being generated.
func (g *gen) mod() *pyeval.Module { return g.frames[len(g.frames)-1].mod }

// loc returns the location of node n for an op.
func (g *gen) loc(n ast.Node) tileir.Loc {
	if n == nil {
		return tileir.Loc{}
	}
	p := n.Position()
	return tileir.Loc{File: g.mod().File, Line: int(p.Lineno), Col: int(p.ColOffset) + 1}
}

// ---- statements ----

// stmts generates a statement list, stopping after a return. A runtime if that returns
// takes the statements after it into its branches (see ifReturn).
func (g *gen) stmts(body []ast.Stmt) {
	for i, s := range body {
		if g.returned {
			return
		}
		if st, ok := s.(*ast.If); ok {
			g.node, g.b.Loc = st, g.loc(st)
			if g.ifStmt(st, body[i+1:]) {
				return
			}
			continue
		}
		g.stmt(s)
	}
}

func (g *gen) stmt(s ast.Stmt) {
	g.node = s
	g.b.Loc = g.loc(s)
	switch s := s.(type) {
	case *ast.ExprStmt:
		if c, ok := s.Value.(*ast.Constant); ok {
			if _, isStr := c.Value.(string); isStr {
				return // docstring
			}
		}
		g.expr(s.Value)
	case *ast.Assign:
		v := g.sanitize(s.Value, g.expr(s.Value))
		for _, t := range s.Targets {
			g.assign(t, v)
		}
	case *ast.AnnAssign:
		if s.Value == nil {
			return
		}
		v := g.expr(s.Value)
		if !g.isConstexprAnnotation(s.Annotation) {
			g.assign(s.Target, g.sanitize(s.Value, v))
			return
		}
		if name, ok := s.Target.(*ast.Name); ok {
			if _, defined := g.scope[name.ID]; defined {
				g.fail(s.Target, "%s is already defined. constexpr cannot be reassigned.", name.ID)
			}
		}
		g.assign(s.Target, v)
	case *ast.AugAssign:
		name, ok := s.Target.(*ast.Name)
		if !ok {
			g.fail(s.Target, "augmented assignment is only supported on names")
		}
		cur := g.lookup(name)
		rhs := g.expr(s.Value)
		g.b.Loc = g.loc(s)
		g.assign(s.Target, g.sanitize(s, g.binary(s, s.Op, cur, rhs, name, s.Value)))
	case *ast.If:
		g.ifStmt(s, nil)
	case *ast.For:
		g.forStmt(s)
	case *ast.While:
		g.whileStmt(s)
	case *ast.Return:
		if g.loops > 0 {
			g.fail(s, "Cannot have `return` statements inside `while` or `for` statements in triton.")
		}
		if s.Value != nil {
			g.ret = g.expr(s.Value)
		} else {
			g.ret = constNone
		}
		g.returned = true
	case *ast.Pass:
	case *ast.Assert:
		g.assertStmt(s)
	case *ast.Break, *ast.Continue:
		g.fail(s, "unsupported AST node type: %s", stmtName(s))
	case *ast.FunctionDef:
		g.fail(s, "nested function definition is not supported.")
	default:
		g.fail(s, "unsupported AST node type: %s", stmtName(s))
	}
}

// stmtName is CPython's class name of a statement, as Triton's messages show it.
func stmtName(s ast.Stmt) string {
	switch s.(type) {
	case *ast.Try, *ast.TryStar:
		return "Try"
	case *ast.With, *ast.AsyncWith:
		return "With"
	case *ast.Import, *ast.ImportFrom:
		return "Import"
	}
	return fmt.Sprintf("%T", s)[len("*ast."):]
}

func (g *gen) isConstexprAnnotation(e ast.Expr) bool {
	v := g.tryExpr(e)
	switch v := v.(type) {
	case BuiltinRef:
		return v.B.name == "tl.constexpr"
	case Const:
		s, ok := v.V.(pyeval.Str)
		return ok && s == "constexpr"
	}
	return false
}

// sanitize is what an assignment does to its value in Triton: Python numbers become
// tensors (only `x: tl.constexpr = ...` keeps a constexpr); None, dtypes, tuples of those and
// runtime values stay as they are.
func (g *gen) sanitize(n ast.Node, v Value) Value {
	if g.compileTime { // plain Python: values stay what they are
		return v
	}
	switch v := v.(type) {
	case Tuple:
		out := make(Tuple, len(v))
		for i, e := range v {
			out[i] = g.sanitize(n, e)
		}
		return out
	case Const:
		if v.V == pyeval.None {
			return v
		}
		return g.toTensor(n, v)
	}
	return v
}

// assign binds a value to a target: a name, or a tuple/list of targets (unpacking).
func (g *gen) assign(t ast.Expr, v Value) {
	switch t := t.(type) {
	case *ast.Name:
		if tup, ok := v.(Tuple); ok {
			v = slices.Clone(tup)
		}
		if _, seen := g.scope[t.ID]; !seen {
			if g.assigned == nil {
				g.assigned = map[string]int{}
			}
			if _, seen := g.assigned[t.ID]; !seen {
				g.assigned[t.ID] = len(g.assigned) + 1
			}
		}
		g.scope[t.ID] = v
	case *ast.Tuple:
		g.unpack(t, t.Elts, v)
	case *ast.List:
		g.unpack(t, t.Elts, v)
	case *ast.Attribute:
		g.fail(t, "Attribute assignment is not supported in triton")
	case *ast.Subscript:
		g.fail(t, "__setitem__ is not supported in triton")
	default:
		g.fail(t, "unsupported assignment target")
	}
}

func (g *gen) unpack(t ast.Expr, elts []ast.Expr, v Value) {
	var vals []Value
	switch v := v.(type) {
	case Tuple:
		vals = v
	case Const:
		if pt, ok := v.V.(pyeval.Tuple); ok {
			for _, e := range pt {
				vals = append(vals, Const{e})
			}
			break
		}
		g.fail(t, "cannot unpack non-iterable %s", describe(v))
	default:
		g.fail(t, "cannot unpack non-iterable %s", describe(v))
	}
	if len(vals) != len(elts) {
		if len(vals) < len(elts) {
			g.fail(t, "not enough values to unpack (expected %d, got %d)", len(elts), len(vals))
		}
		g.fail(t, "too many values to unpack (expected %d)", len(elts))
	}
	for i, e := range elts {
		g.assign(e, vals[i])
	}
}

func (g *gen) assertStmt(s *ast.Assert) {
	test := g.expr(s.Test)
	msg := ""
	if s.Msg != nil {
		m := g.expr(s.Msg)
		c, ok := m.(Const)
		if !ok {
			g.fail(s.Msg, "assert message must be a constexpr string")
		}
		msg = pyeval.ToStr(c.V)
	}
	g.deviceAssert(s.Test, test, msg, nil)
}

// ---- control flow ----

// condition evaluates an if/while test: a Python truth value for constexprs, or an i1
// scalar for runtime values.
func (g *gen) condition(test ast.Expr, v Value, what string) (static bool, truth bool, cond *Tensor) {
	switch v := v.(type) {
	case *Tensor:
		if b, ok := v.T.(*BlockType); ok {
			if b.Numel() != 1 {
				g.fail(test, "Boolean value of Tensor with more than one value is ambiguous")
			}
			v = g.reshape(v, nil)
		}
		return false, false, g.cast(v, Int1) // a pointer is compared with null
	case Const:
		t, known := pyeval.Truth(v.V)
		if !known {
			g.fail(test, "`%s` condition is not known at compile time: %s", what, pyeval.Repr(v.V))
		}
		switch v.V.(type) {
		case pyeval.Bool, pyeval.Int, pyeval.Float, pyeval.NoneValue, pyeval.Str:
		default:
			g.fail(test, "`if` conditionals can only accept values of type {constexpr, bool, int, float, NoneType, str}, not objects of type %s", v.V.TypeName())
		}
		return true, t, nil
	}
	g.fail(test, "`if` conditionals can only accept values of type {constexpr, bool, int, float, NoneType, str}, not objects of type %s", v.valueKind())
	return
}

// ifStmt generates an if statement; rest is the statements after it in its list. It
// reports whether it generated rest too (a runtime if that returns).
func (g *gen) ifStmt(s *ast.If, rest []ast.Stmt) bool {
	static, truth, cond := g.condition(s.Test, g.expr(s.Test), "if")
	if static {
		g.rest = append(g.rest, rest)
		if truth {
			g.stmts(s.Body)
		} else {
			g.stmts(s.Orelse)
		}
		g.rest = g.rest[:len(g.rest)-1]
		return false
	}
	if containsReturn(s) {
		g.ifReturn(s, cond, rest)
		return true
	}
	live := g.scope
	thenScope := cloneScope(live)
	thenBlk := scratchBlock()
	g.withScope(thenScope, thenBlk, func() { g.stmts(s.Body) })
	elseScope := cloneScope(live)
	elseBlk := scratchBlock()
	if len(s.Orelse) > 0 {
		g.withScope(elseScope, elseBlk, func() { g.stmts(s.Orelse) })
	}
	// Names whose value changed in either branch, then names defined by both branches.
	var names []string
	for _, n := range slices.Sorted(maps.Keys(live)) {
		if !isRuntime(live[n]) {
			continue
		}
		if sameValue(thenScope[n], live[n]) && sameValue(elseScope[n], live[n]) {
			continue
		}
		g.checkBranchType(s, n, live[n], thenScope[n], "then")
		g.checkBranchType(s, n, live[n], elseScope[n], "else")
		names = append(names, n)
	}
	for _, n := range slices.Sorted(maps.Keys(thenScope)) {
		if _, ok := live[n]; ok {
			continue
		}
		ev, ok := elseScope[n]
		if !ok {
			continue
		}
		tv := thenScope[n]
		if !isRuntime(tv) || !isRuntime(ev) {
			if sameValue(tv, ev) {
				live[n] = tv
			}
			continue
		}
		if !sameValueType(tv, ev) {
			g.fail(s, "Mismatched type for %s between then block (%s) and else block (%s)", n, describe(tv), describe(ev))
		}
		names = append(names, n)
	}
	var thenVals, elseVals []*tileir.Value
	for _, n := range names {
		thenVals = append(thenVals, flatten(thenScope[n])...)
		elseVals = append(elseVals, flatten(elseScope[n])...)
	}
	results := g.ifOp(cond.V, thenBlk, elseBlk, thenVals, elseVals, len(s.Orelse) > 0 || len(names) > 0)
	for _, n := range names {
		var v Value
		v, results = unflatten(thenScope[n], results)
		live[n] = v
	}
	return false
}

// ifReturn generates a runtime if that returns from the function. Triton's
// visit_if_top_level branches to separate blocks, each ending in a return or joining after
// the if; here the rest of the function (rest, then the continuations of the enclosing
// constexpr ifs) joins each branch instead, so that both branches end the function and
// the scf.if yields the return value. As in Triton, this is not allowed inside loops.
func (g *gen) ifReturn(s *ast.If, cond *Tensor, rest []ast.Stmt) {
	if g.loops > 0 {
		g.fail(s, "Cannot have `return` statements inside `while` or `for` statements in triton.")
	}
	if g.unrolling > 0 {
		g.fail(s, "returning from a runtime `if` inside tl.static_range is not supported by gotriton")
	}
	cont := append([]ast.Stmt{}, rest...)
	for i := len(g.rest) - 1; i >= 0; i-- {
		cont = append(cont, g.rest[i]...)
	}
	outer := g.rest
	// branch generates one side; fell reports that it ran off the end of the function.
	branch := func(body []ast.Stmt) (blk *tileir.Block, ret Value, fell bool) {
		blk = scratchBlock()
		g.rest, g.ret, g.returned = nil, nil, false
		g.withScope(cloneScope(g.scope), blk, func() { g.stmts(append(append([]ast.Stmt{}, body...), cont...)) })
		if !g.returned {
			return blk, constNone, true
		}
		return blk, g.ret, false
	}
	thenBlk, thenRet, thenFell := branch(s.Body)
	elseBlk, elseRet, elseFell := branch(s.Orelse)
	g.rest = outer
	ret := thenRet
	var thenVals, elseVals []*tileir.Value
	if !sameValue(thenRet, elseRet) {
		// Triton returns constexprs as tensors.
		var t, e Value
		g.inBlock(thenBlk, func() { t = g.decay(s, thenRet) })
		g.inBlock(elseBlk, func() { e = g.decay(s, elseRet) })
		// A side that runs off the end returns poison of the other side's type, as the
		// implicit return at the end of a Triton function does.
		if thenFell && !elseFell && isRuntime(e) {
			g.inBlock(thenBlk, func() { t = g.poisonLike(e) })
		}
		if elseFell && !thenFell && isRuntime(t) {
			g.inBlock(elseBlk, func() { e = g.poisonLike(t) })
		}
		if !sameValueType(t, e) {
			g.fail(s, "Inconsistent return types: %s and %s", describe(t), describe(e))
		}
		ret, thenVals, elseVals = t, flatten(t), flatten(e)
	}
	if results := g.ifOp(cond.V, thenBlk, elseBlk, thenVals, elseVals, true); len(results) > 0 {
		ret, _ = unflatten(ret, results)
	}
	g.ret, g.returned = ret, true
}

// poisonLike returns a value of v's structure and types whose runtime parts are ub.poison.
func (g *gen) poisonLike(v Value) Value {
	vals := flatten(v)
	ps := make([]*tileir.Value, len(vals))
	for i, x := range vals {
		ps[i] = g.b.Poison(x.Type)
	}
	out, _ := unflatten(v, ps)
	return out
}

// decay turns the constexpr numbers of a returned value into tensors, as Triton's
// visit_Return does; None and other values stay.
func (g *gen) decay(n ast.Node, v Value) Value {
	switch v := v.(type) {
	case Const:
		if _, ok := literalType(v.V); ok {
			return g.toTensor(n, v)
		}
	case Tuple:
		out := make(Tuple, len(v))
		for i, e := range v {
			out[i] = g.decay(n, e)
		}
		return out
	}
	return v
}

func (g *gen) checkBranchType(s ast.Node, name string, live, v Value, block string) {
	if !sameValueType(live, v) {
		g.fail(s, "initial value for `%s` is of type %s, but the %s block redefines it as %s", name, describe(live), block, describe(v))
	}
}

// withScope runs f with the given scope and insertion block, restoring both after.
func (g *gen) withScope(scope map[string]Value, blk *tileir.Block, f func()) {
	saved := g.scope
	g.scope = scope
	defer func() { g.scope = saved }()
	g.inBlock(blk, f)
}

// carried finds the loop-carried names: live runtime values that the body reassigns, in
// the order the function first assigned them. Like Triton's _find_carries it generates the
// body once into a scratch block and compares.
func (g *gen) carried(node ast.Node, body []ast.Stmt, iv string, ivType DType) []string {
	live := g.scope
	scratch := cloneScope(live)
	blk := scratchBlock()
	if iv != "" {
		scratch[iv] = &Tensor{V: blk.AddArg(ivType.IR()), T: ivType}
	}
	g.loops++
	g.withScope(scratch, blk, func() { g.stmts(body) })
	g.loops--
	var names []string
	for _, n := range slices.Sorted(maps.Keys(live)) {
		if n == iv || sameValue(scratch[n], live[n]) {
			continue
		}
		if !isRuntime(live[n]) || !isRuntime(scratch[n]) {
			if _, isTensor := scratch[n].(*Tensor); isTensor {
				g.fail(node, "Loop carried variable %s is not a triton value: it is %s before the loop and %s in it", n, describe(live[n]), describe(scratch[n]))
			}
			g.fail(node, "cannot reassign constexpr %s in the loop", n)
		}
		if !sameValueType(live[n], scratch[n]) {
			g.fail(node, "Loop-carried variable %s has initial type %s but is re-assigned to %s in loop! Please make sure that the type stays consistent.", n, describe(live[n]), describe(scratch[n]))
		}
		names = append(names, n)
	}
	// Triton carries them in the order of its scope dict.
	slices.SortStableFunc(names, func(a, b string) int { return g.assigned[a] - g.assigned[b] })
	return names
}

// loopAttrs are tl.range's options, which become attributes of the scf.for.
type loopAttrs struct {
	numStages, unroll                       Value
	flatten, warpSpecialize, disallowAccBuf bool
	disableLicm                             bool
}

func (g *gen) forStmt(s *ast.For) {
	if g.compileTime {
		g.compileTimeFor(s)
		return
	}
	call, ok := s.Iter.(*ast.Call)
	if !ok {
		g.fail(s.Iter, "Only `range` and `static_range` iterators are currently supported")
	}
	target, ok := s.Target.(*ast.Name)
	if !ok {
		g.fail(s.Target, "a for loop target must be a single name")
	}
	if len(s.Orelse) > 0 {
		g.fail(s.Orelse[0], "Don't know what to do with else after for")
	}
	fn := g.expr(call.Func)
	args, kwargs := g.callArgs(call)
	var lb, ub, step Value
	var la loopAttrs
	switch f := fn.(type) {
	case BuiltinRef:
		if f.B.name != "tl.range" && f.B.name != "tl.static_range" {
			g.fail(s.Iter, "Only `range` and `static_range` iterators are currently supported")
		}
		c := g.bind(call, f.B, args, kwargs)
		lb, ub, step = c.arg("arg1"), c.arg("arg2"), c.arg("step")
		if isNone(ub) {
			lb, ub = constInt(0), lb
		}
		if isNone(step) {
			step = constInt(1)
		}
		if f.B.name == "tl.static_range" {
			g.staticFor(s, target.ID, c, lb, ub, step)
			return
		}
		la = loopAttrs{numStages: c.arg("num_stages"), unroll: c.arg("loop_unroll_factor"),
			flatten: c.constBool("flatten"), warpSpecialize: c.constBool("warp_specialize"),
			disallowAccBuf: c.constBool("disallow_acc_multi_buffer"), disableLicm: c.constBool("disable_licm")}
	case HostFn:
		if bi, ok := f.F.(*pyeval.Builtin); !ok || bi.Name != "range" {
			g.fail(s.Iter, "Only `range` and `static_range` iterators are currently supported")
		}
		if len(kwargs) > 0 || len(args) == 0 || len(args) > 3 {
			g.fail(call, "range expects 1 to 3 positional arguments")
		}
		lb, ub, step = constInt(0), args[0].v, constInt(1)
		if len(args) > 1 {
			lb, ub = args[0].v, args[1].v
		}
		if len(args) > 2 {
			step = args[2].v
		}
	default:
		g.fail(s.Iter, "Only `range` and `static_range` iterators are currently supported")
	}
	g.runtimeFor(s, target.ID, call, lb, ub, step, la)
}

func (g *gen) staticFor(s *ast.For, name string, c *callCtx, lb, ub, step Value) {
	lo, hi, st := c.intOf("arg1", lb), c.intOf("arg2", ub), c.intOf("step", step)
	if st == 0 {
		g.fail(s.Iter, "static_range() arg 3 must not be zero")
	}
	g.unrolling++
	defer func() { g.unrolling-- }()
	for i := lo; (st > 0 && i < hi) || (st < 0 && i > hi); i += st {
		g.scope[name] = constInt(i)
		g.stmts(s.Body)
		if g.returned {
			return
		}
	}
}

func (g *gen) runtimeFor(s *ast.For, name string, call *ast.Call, lbV, ubV, stepV Value, la loopAttrs) {
	negative := false
	if c, ok := stepV.(Const); ok {
		if n, ok := c.V.(pyeval.Int); ok && n.V.Sign() < 0 {
			neg, _ := pyeval.UnaryOp("-", c.V)
			stepV, negative = Const{neg}, true
			lbV, ubV = ubV, lbV
		}
	}
	lb, ub, step := g.toTensor(call, lbV), g.toTensor(call, ubV), g.toTensor(call, stepV)
	for _, b := range []struct {
		what string
		t    *Tensor
	}{{"lower bound", lb}, {"upper bound", ub}, {"step", step}} {
		if !dtypeOf(b.t.T).IsInt() {
			g.fail(call, "For loop bounds and step must all be ints, are (%s, %s, %s)", lb.T, ub.T, step.T)
		}
		if _, blk := b.t.T.(*BlockType); blk {
			g.fail(call, "For %s must be a scalar, got %s", b.what, b.t.T)
		}
	}
	ivType := integerPromote(integerPromote(dtypeOf(lb.T), dtypeOf(ub.T)), dtypeOf(step.T))
	lb, ub, step = g.intCast(lb, ivType), g.intCast(ub, ivType), g.intCast(step, ivType)

	names := g.carried(s, s.Body, name, ivType)
	var inits []*tileir.Value
	for _, n := range names {
		inits = append(inits, flatten(g.scope[n])...)
	}
	live := g.scope
	g.b.Loc = g.loc(s)
	var op *tileir.Op
	results := g.b.For(lb.V, ub.V, step.V, inits, func(b *tileir.Builder, ivV *tileir.Value, args []*tileir.Value) []*tileir.Value {
		op = b.Block().Region().Op()
		loopScope := cloneScope(live)
		for _, n := range names {
			loopScope[n], args = unflatten(live[n], args)
		}
		var yields []*tileir.Value
		g.loops++
		g.withScope(loopScope, b.Block(), func() {
			iv := &Tensor{V: ivV, T: ivType}
			if negative {
				iv = g.arith(ub, iv, "subi", "subi")
				iv = g.arith(iv, lb, "addi", "addi")
			}
			loopScope[name] = iv
			g.stmts(s.Body)
			for _, n := range names {
				yields = append(yields, flatten(loopScope[n])...)
			}
		})
		g.loops--
		b.SetInsertionPointToEnd(b.Block())
		return yields
	})
	if !isNone(la.numStages) {
		op.SetAttr("tt.num_stages", tileir.IntAttr{V: g.constIntOf(call, la.numStages, "num_stages"), T: tileir.I32})
	}
	if !isNone(la.unroll) {
		op.SetAttr("tt.loop_unroll_factor", tileir.IntAttr{V: g.constIntOf(call, la.unroll, "loop_unroll_factor"), T: tileir.I32})
	}
	if la.disallowAccBuf {
		op.SetAttr("tt.disallow_acc_multi_buffer", tileir.UnitAttr{})
	}
	if la.flatten {
		op.SetAttr("tt.flatten", tileir.UnitAttr{})
	}
	if la.warpSpecialize {
		op.SetAttr("tt.warp_specialize", tileir.UnitAttr{})
	}
	if la.disableLicm {
		op.SetAttr("llvm.loop_annotation", tileir.StringAttr(disableLicmAnnotation))
	}
	for _, n := range names {
		g.scope[n], results = unflatten(live[n], results)
	}
}

func (g *gen) whileStmt(s *ast.While) {
	if g.compileTime {
		g.compileTimeWhile(s)
		return
	}
	if len(s.Orelse) > 0 {
		g.fail(s.Orelse[0], "else clauses of while loops are not supported")
	}
	names := g.carried(s, s.Body, "", Void)
	var inits []*tileir.Value
	for _, n := range names {
		inits = append(inits, flatten(g.scope[n])...)
	}
	live := g.scope
	rebind := func(args []*tileir.Value) map[string]Value {
		sc := cloneScope(live)
		for _, n := range names {
			sc[n], args = unflatten(live[n], args)
		}
		return sc
	}
	g.b.Loc = g.loc(s)
	disableLicm := false
	results := g.b.While(inits, valueTypes(inits), func(b *tileir.Builder, args []*tileir.Value) (*tileir.Value, []*tileir.Value) {
		var cond *tileir.Value
		g.withScope(rebind(args), b.Block(), func() {
			test := g.expr(s.Test)
			if wc, ok := test.(WhileCond); ok {
				test, disableLicm = wc.Cond, wc.DisableLicm
			}
			static, truth, c := g.condition(s.Test, test, "while")
			if static {
				c = g.constant(s.Test, pyeval.Bool(truth), Int1)
			}
			cond = c.V
		})
		b.SetInsertionPointToEnd(b.Block())
		return cond, args
	}, func(b *tileir.Builder, args []*tileir.Value) []*tileir.Value {
		afterScope := rebind(args)
		var yields []*tileir.Value
		g.loops++
		g.withScope(afterScope, b.Block(), func() {
			g.stmts(s.Body)
			for _, n := range names {
				yields = append(yields, flatten(afterScope[n])...)
			}
		})
		g.loops--
		b.SetInsertionPointToEnd(b.Block())
		return yields
	})
	if disableLicm {
		g.b.Last().SetAttr("llvm.loop_annotation", tileir.StringAttr(disableLicmAnnotation))
	}
	if disableLicm {
		g.b.Last().SetAttr("llvm.loop_annotation", tileir.StringAttr(disableLicmAnnotation))
	}
	for _, n := range names {
		g.scope[n], results = unflatten(live[n], results)
	}
}

// maxCompileTimeIterations bounds the loops of a compile-time function.
const maxCompileTimeIterations = 1 << 20

// compileTimeFor runs a for loop of a compile-time function, unrolled: over range(...),
// tl.range(...), tl.static_range(...) with constexpr bounds, or over a tuple.
func (g *gen) compileTimeFor(s *ast.For) {
	if len(s.Orelse) > 0 {
		g.fail(s.Orelse[0], "Don't know what to do with else after for")
	}
	var items []Value
	if call, ok := s.Iter.(*ast.Call); ok && isRangeFn(g.expr(call.Func)) {
		args, kws := g.callArgs(call)
		if len(kws) > 0 || len(args) == 0 || len(args) > 3 {
			g.fail(call, "range expects 1 to 3 positional arguments")
		}
		bounds := make([]int64, len(args))
		for i, a := range args {
			bounds[i] = g.constIntOf(a.node, a.v, "range bound")
		}
		lo, hi, st := int64(0), bounds[0], int64(1)
		if len(bounds) > 1 {
			lo, hi = bounds[0], bounds[1]
		}
		if len(bounds) > 2 {
			st = bounds[2]
		}
		if st == 0 {
			g.fail(call, "range() arg 3 must not be zero")
		}
		for i := lo; (st > 0 && i < hi) || (st < 0 && i > hi); i += st {
			if len(items) == maxCompileTimeIterations {
				g.fail(call, "a compile-time loop runs more than %d iterations", maxCompileTimeIterations)
			}
			items = append(items, constInt(i))
		}
	} else {
		t, ok := g.expr(s.Iter).(Tuple)
		if !ok {
			g.fail(s.Iter, "a compile-time function can only loop over range(...) or a tuple")
		}
		items = t
	}
	for _, it := range items {
		g.assign(s.Target, it)
		g.stmts(s.Body)
		if g.returned {
			return
		}
	}
}

func isRangeFn(fn Value) bool {
	switch f := fn.(type) {
	case HostFn:
		b, ok := f.F.(*pyeval.Builtin)
		return ok && b.Name == "range"
	case BuiltinRef:
		return f.B.name == "tl.range" || f.B.name == "tl.static_range"
	}
	return false
}

// compileTimeWhile runs a while loop of a compile-time function; its condition must be
// known at compile time.
func (g *gen) compileTimeWhile(s *ast.While) {
	if len(s.Orelse) > 0 {
		g.fail(s.Orelse[0], "else clauses of while loops are not supported")
	}
	for n := 0; ; n++ {
		static, truth, _ := g.condition(s.Test, g.expr(s.Test), "while")
		if !static {
			g.fail(s.Test, "the loop condition of a compile-time function must be known at compile time")
		}
		if !truth {
			return
		}
		if n == maxCompileTimeIterations {
			g.fail(s, "a compile-time loop runs more than %d iterations", maxCompileTimeIterations)
		}
		g.stmts(s.Body)
		if g.returned {
			return
		}
	}
}

// disableLicmAnnotation is the loop attribute of disable_licm=True.
const disableLicmAnnotation = "#llvm.loop_annotation<licm = <disable = true>>"

func containsReturn(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		if _, ok := x.(*ast.Return); ok {
			found = true
		}
		return !found
	})
	return found
}

// ---- values across control flow ----

func cloneScope(s map[string]Value) map[string]Value {
	out := make(map[string]Value, len(s))
	for k, v := range s {
		out[k] = v
	}
	return out
}

// isRuntime reports whether v holds IR values (a tensor, a descriptor, or a tuple with one).
func isRuntime(v Value) bool {
	switch v := v.(type) { // len(flatten(v)) > 0, without building the list
	case *Tensor, *Desc:
		return true
	case Tuple:
		for _, e := range v {
			if isRuntime(e) {
				return true
			}
		}
	}
	return false
}

// flatten lists the IR values of a runtime value, in Triton's flattening order.
func flatten(v Value) []*tileir.Value {
	switch v := v.(type) {
	case *Tensor:
		return []*tileir.Value{v.V}
	case *Desc:
		out := []*tileir.Value{v.V}
		for _, s := range v.Shape {
			out = append(out, s.V)
		}
		for _, s := range v.Strides {
			out = append(out, s.V)
		}
		return out
	case Tuple:
		var out []*tileir.Value
		for _, e := range v {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return nil
}

// unflatten rebuilds a value shaped like template from IR values, returning the rest.
func unflatten(template Value, vals []*tileir.Value) (Value, []*tileir.Value) {
	switch t := template.(type) {
	case *Tensor:
		return &Tensor{V: vals[0], T: t.T}, vals[1:]
	case *Desc:
		d := &Desc{V: vals[0], T: t.T}
		vals = vals[1:]
		for _, s := range t.Shape {
			d.Shape = append(d.Shape, &Tensor{V: vals[0], T: s.T})
			vals = vals[1:]
		}
		for _, s := range t.Strides {
			d.Strides = append(d.Strides, &Tensor{V: vals[0], T: s.T})
			vals = vals[1:]
		}
		return d, vals
	case Tuple:
		out := make(Tuple, len(t))
		for i, e := range t {
			out[i], vals = unflatten(e, vals)
		}
		return out, vals
	}
	return template, vals
}

// sameValue reports whether two bindings hold the same value (the same IR values, or equal
// constants).
func sameValue(a, b Value) bool {
	if ta, ok := a.(*Tensor); ok {
		if tb, ok := b.(*Tensor); ok { // the common case, without flattening
			return ta.V == tb.V
		}
	}
	fa, fb := flatten(a), flatten(b)
	if len(fa) != len(fb) {
		return false
	}
	if len(fa) == 0 {
		switch x := a.(type) {
		case BuiltinRef:
			y, ok := b.(BuiltinRef)
			return ok && x.B == y.B && (x.Recv == nil) == (y.Recv == nil) && (x.Recv == nil || sameValue(x.Recv, y.Recv))
		case PyRef:
			y, ok := b.(PyRef)
			return ok && x.Path == y.Path
		}
		ca, okA := toPy(a)
		cb, okB := toPy(b)
		return okA && okB && pyeval.Repr(ca) == pyeval.Repr(cb) && ca.TypeName() == cb.TypeName()
	}
	for i := range fa {
		if fa[i] != fb[i] {
			return false
		}
	}
	return true
}

// sameValueType reports whether two runtime values have the same structure and types.
func sameValueType(a, b Value) bool {
	switch a := a.(type) {
	case *Tensor:
		bt, ok := b.(*Tensor)
		return ok && sameType(a.T, bt.T)
	case *Desc:
		bd, ok := b.(*Desc)
		return ok && sameType(a.T, bd.T)
	case Tuple:
		bt, ok := b.(Tuple)
		if !ok || len(a) != len(bt) {
			return false
		}
		for i := range a {
			if isRuntime(a[i]) != isRuntime(bt[i]) || isRuntime(a[i]) && !sameValueType(a[i], bt[i]) {
				return false
			}
		}
		return true
	}
	return sameValue(a, b)
}

func valueTypes(vs []*tileir.Value) []tileir.Type {
	out := make([]tileir.Type, len(vs))
	for i, v := range vs {
		out[i] = v.Type
	}
	return out
}
