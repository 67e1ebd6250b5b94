package semantic

import (
	"strings"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/pyeval"
)

// expr evaluates an expression.
func (g *gen) expr(e ast.Expr) Value {
	saved := g.node
	g.node = e
	defer func() { g.node = saved }()
	switch e := e.(type) {
	case *ast.Constant:
		return Const{pyeval.ConstantValue(e.Value)}
	case *ast.Name:
		return g.lookup(e)
	case *ast.Attribute:
		return g.attribute(e, g.expr(e.Value))
	case *ast.Call:
		return g.call(e)
	case *ast.BinOp:
		l, r := g.expr(e.Left), g.expr(e.Right)
		g.b.Loc = g.loc(e)
		return g.binary(e, e.Op, l, r, e.Left, e.Right)
	case *ast.UnaryOp:
		v := g.expr(e.Operand)
		g.b.Loc = g.loc(e)
		return g.unary(e, v)
	case *ast.Compare:
		if len(e.Ops) != 1 {
			g.fail(e, "simultaneous multiple comparison is not supported")
		}
		l, r := g.expr(e.Left), g.expr(e.Comparators[0])
		g.b.Loc = g.loc(e)
		return g.compare(e, e.Ops[0], l, r)
	case *ast.BoolOp:
		return g.boolOp(e)
	case *ast.IfExp:
		return g.ifExp(e)
	case *ast.Tuple:
		return g.tuple(e.Elts)
	case *ast.List:
		return g.tuple(e.Elts)
	case *ast.Subscript:
		return g.subscript(e)
	case *ast.Slice:
		s := Slice{Lo: constNone, Hi: constNone, Step: constNone}
		if e.Lower != nil {
			s.Lo = g.expr(e.Lower)
		}
		if e.Upper != nil {
			s.Hi = g.expr(e.Upper)
		}
		if e.Step != nil {
			s.Step = g.expr(e.Step)
		}
		return s
	case *ast.JoinedStr:
		return g.joinedStr(e)
	case *ast.Starred:
		g.fail(e, "starred expressions are only supported as call arguments")
	case *ast.Lambda:
		g.fail(e, "unsupported AST node type: Lambda")
	case *ast.Yield, *ast.YieldFrom:
		g.fail(e, "unsupported AST node type: Yield")
	case *ast.ListComp, *ast.GeneratorExp, *ast.SetComp, *ast.DictComp:
		g.fail(e, "comprehensions are not supported in triton kernels")
	case *ast.NamedExpr:
		v := g.expr(e.Value)
		g.assign(e.Target, v)
		return v
	case *ast.Dict, *ast.Set:
		g.fail(e, "dict and set displays are not supported in triton kernels")
	case *ast.Await:
		g.fail(e, "unsupported AST node type: Await")
	}
	g.fail(e, "unsupported expression")
	return nil
}

// tryExpr evaluates an expression, returning nil instead of failing (for annotations).
func (g *gen) tryExpr(e ast.Expr) (v Value) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(semError); !ok {
				panic(r)
			}
			v = nil
		}
	}()
	return g.expr(e)
}

func (g *gen) tuple(elts []ast.Expr) Value {
	out := Tuple{}
	for _, el := range elts {
		if st, ok := el.(*ast.Starred); ok {
			t, ok := g.expr(st.Value).(Tuple)
			if !ok {
				g.fail(st.Value, "only tuples can be unpacked with *")
			}
			out = append(out, t...)
			continue
		}
		out = append(out, g.expr(el))
	}
	return out
}

// kernelBuiltins are the Python builtins of Triton's builtin_namespace that host code
// evaluation may lack; hostCall implements them.
var kernelBuiltins = map[string]*pyeval.Builtin{"getattr": {Name: "getattr"}, "hasattr": {Name: "hasattr"}}

// lookup resolves a name: a local, then a global of the function's module, then a Python
// builtin.
func (g *gen) lookup(n *ast.Name) Value {
	if v, ok := g.scope[n.ID]; ok {
		return v
	}
	m := g.mod()
	if v, ok := m.Lookup(n.ID); ok {
		return g.global(n, m, n.ID, n.ID, v)
	}
	if v, err := m.Eval(n, nil); err == nil {
		return g.global(n, m, n.ID, n.ID, v)
	}
	if b, ok := kernelBuiltins[n.ID]; ok {
		return HostFn{b}
	}
	g.fail(n, "name '%s' is not defined", n.ID)
	return nil
}

// global converts a module-level value (a global, or an attribute of an imported module),
// rejecting what host code could not compute.
func (g *gen) global(n ast.Expr, m *pyeval.Module, bare, name string, v pyeval.Value) Value {
	if u, ok := v.(pyeval.Unknown); ok {
		if def := constexprFunctionDef(m, bare); def != nil {
			return HostFn{&pyeval.Function{Name: def.Name, Def: def, Module: m}}
		}
		g.fail(n, "global '%s' is not known at compile time: %s", name, u.Why)
	}
	return fromPy(v)
}

// constexprFunctionDef returns the module-level def of name when it is decorated with
// @triton.constexpr_function or @tl.constexpr (host evaluation leaves such globals
// unknown; kernels call them at compile time), else nil.
func constexprFunctionDef(m *pyeval.Module, name string) *ast.FunctionDef {
	if m == nil || m.AST == nil {
		return nil
	}
	var found *ast.FunctionDef
	for _, st := range m.AST.Body {
		if d, ok := st.(*ast.FunctionDef); ok && d.Name == name {
			found = d // the last def of the name wins, as in Python
		}
	}
	if found == nil || len(found.DecoratorList) != 1 {
		return nil
	}
	switch dec := found.DecoratorList[0].(type) {
	case *ast.Attribute:
		if dec.Attr == "constexpr_function" || dec.Attr == "constexpr" {
			return found
		}
	case *ast.Name:
		if dec.ID == "constexpr_function" {
			return found
		}
	}
	return nil
}

// attribute evaluates v.attr.
func (g *gen) attribute(e *ast.Attribute, v Value) Value {
	switch v := v.(type) {
	case PyRef:
		r := resolveAttrRef(v.Path, e.Attr)
		if p, ok := r.(PyRef); ok && !knownModule(p.Path) {
			g.fail(e, "%s", unknownNameMessage(v.Path, e.Attr))
		}
		return r
	case *Tensor:
		return g.tensorAttr(e, v)
	case *Desc:
		return g.descAttr(e, v)
	case DTypeVal:
		return g.dtypeAttr(e, v)
	case Const:
		if m, ok := v.V.(*pyeval.Module); ok {
			a, err := m.Attr(e.Attr)
			if err != nil {
				g.fail(e, "%v", err)
			}
			return g.global(e, m, e.Attr, m.Name+"."+e.Attr, a)
		}
		if e.Attr == "value" {
			return v
		}
		if cfg, ok := v.V.(*pyeval.Config); ok {
			if a, ok := cfg.Attr(e.Attr); ok {
				return Const{a}
			}
		}
		if o, ok := v.V.(*pyeval.Object); ok && !o.Open {
			if a, ok := o.Attrs[e.Attr]; ok {
				return fromPy(a)
			}
		}
		g.fail(e, "'%s' object has no attribute '%s'", v.V.TypeName(), e.Attr)
	case Tuple:
		g.fail(e, "'tuple' object has no attribute '%s'", e.Attr)
	case BuiltinRef:
		g.fail(e, "%s has no attribute '%s'", describe(v), e.Attr)
	}
	g.fail(e, "%s has no attribute '%s'", describe(v), e.Attr)
	return nil
}

// knownModule reports whether a qualified name is a module the kernel may take
// attributes of (tl.math, tl.extra.cuda, libdevice ...).
func knownModule(path string) bool {
	switch path {
	case "triton", "triton.language", "triton.language.math", "triton.language.core", "triton.language.standard",
		"triton.language.random", "triton.language.extra", "triton.language.extra.cuda", "triton.language.extra.libdevice",
		"triton.language.extra.cuda.libdevice", "triton.language.extra.hip", "triton.language.extra.hip.libdevice",
		"triton.language.extra.cuda.gdc", "triton.language.libdevice", "triton.language.PropagateNan", "triton.language.core.PropagateNan",
		"triton.language.target_info":
		return true
	}
	return false
}

// unknownNameMessage reports an unknown tl attribute, suggesting the nearest known one.
func unknownNameMessage(module, attr string) string {
	short := module
	prefix := "tl."
	switch {
	case strings.HasPrefix(canonicalName(module+".x"), "libdevice."):
		prefix = "libdevice."
	case strings.HasPrefix(canonicalName(module+".x"), "cuda."):
		prefix = "cuda."
	}
	if module == "triton.language" {
		short = "triton.language"
	}
	msg := "module '" + short + "' has no attribute '" + attr + "'"
	if s := nearestName(prefix, attr); s != "" {
		display := s
		if prefix == "tl." {
			display = "tl." + strings.TrimPrefix(s, "tl.")
		}
		msg += "; did you mean '" + display + "'?"
	}
	return msg
}

// nearestName finds the registry name with the given prefix closest to attr (edit distance
// at most a third of its length, at least 2).
func nearestName(prefix, attr string) string {
	best, bestD := "", max(2, len(attr)/3)+1
	consider := func(name string) {
		d := editDistance(attr, name)
		if d < bestD || d == bestD && best != "" && prefix+name < best {
			best, bestD = prefix+name, d
		}
	}
	for key := range registry {
		if rest, ok := strings.CutPrefix(key, prefix); ok {
			consider(rest)
		}
	}
	if prefix == "tl." {
		for name, d := range dtypeByName {
			if d != Void || name == "void" {
				consider(name)
			}
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func (g *gen) joinedStr(e *ast.JoinedStr) Value {
	var b strings.Builder
	for _, part := range e.Values {
		switch p := part.(type) {
		case *ast.Constant:
			b.WriteString(pyeval.ToStr(pyeval.ConstantValue(p.Value)))
		case *ast.FormattedValue:
			v := g.expr(p.Value)
			c, ok := toPy(v)
			if !ok {
				g.fail(p.Value, "Cannot evaluate f-string containing non-constexpr conversion values, found conversion of type %s", describe(v))
			}
			if p.Conversion == 'r' {
				b.WriteString(pyeval.Repr(c))
			} else {
				b.WriteString(pyeval.ToStr(c))
			}
		}
	}
	return Const{pyeval.Str(b.String())}
}

func (g *gen) ifExp(e *ast.IfExp) Value {
	static, truth, cond := g.condition(e.Test, g.expr(e.Test), "if")
	if static {
		if truth {
			return g.expr(e.Body)
		}
		return g.expr(e.Orelse)
	}
	thenBlk, elseBlk := scratchBlock(), scratchBlock()
	var tv, ev *Tensor
	g.withScope(g.scope, thenBlk, func() { tv = g.branchValue(e.Body) })
	g.withScope(g.scope, elseBlk, func() { ev = g.branchValue(e.Orelse) })
	g.b.Loc = g.loc(e)
	switch {
	case tv == nil && ev == nil: // both sides are void builtins (tl.store ...): an scf.if without results
		g.ifOp(cond.V, thenBlk, elseBlk, nil, nil, true)
		return constNone
	case tv == nil || ev == nil || !sameType(tv.T, ev.T):
		g.fail(e, "Ternary expression with dynamic condition has inconsistent types %s and %s", voidOr(tv), voidOr(ev))
	}
	res := g.ifOp(cond.V, thenBlk, elseBlk, flatten(tv), flatten(ev), true)
	return &Tensor{V: res[0], T: tv.T}
}

// branchValue evaluates one side of a dynamic ternary as a tensor, or nil where it is a
// call of a builtin that returns nothing (Triton's void tensor, as tl.store returns).
func (g *gen) branchValue(e ast.Expr) *Tensor {
	v := g.expr(e)
	if call, ok := e.(*ast.Call); ok && isNone(v) {
		if _, builtin := g.expr(call.Func).(BuiltinRef); builtin {
			return nil
		}
	}
	return g.toTensor(e, v)
}

// voidOr names a ternary side's type, "void" for nil.
func voidOr(t *Tensor) string {
	if t == nil {
		return "void"
	}
	return t.T.String()
}

// boolOp evaluates `and`/`or`: constexprs short-circuit, runtime values combine with
// logical_and/logical_or, as Triton's visit_BoolOp does.
func (g *gen) boolOp(e *ast.BoolOp) Value {
	isAnd := e.Op == ast.And
	var runtime []Value
	var last Value
	var lastNode ast.Expr
	for _, sub := range e.Values {
		v := g.expr(sub)
		last, lastNode = v, sub
		if c, ok := v.(Const); ok {
			t, known := pyeval.Truth(c.V)
			if !known {
				g.fail(sub, "value is not known at compile time")
			}
			if !t && isAnd || t && !isAnd {
				return v
			}
			continue
		}
		if _, ok := v.(*Tensor); !ok {
			g.fail(sub, "`%s` operands must be tensors or constexprs, got %s", map[bool]string{true: "and", false: "or"}[isAnd], describe(v))
		}
		runtime = append(runtime, v)
	}
	if len(runtime) == 0 {
		return last
	}
	_ = lastNode
	g.b.Loc = g.loc(e)
	for len(runtime) >= 2 {
		r, l := runtime[len(runtime)-1], runtime[len(runtime)-2]
		runtime = runtime[:len(runtime)-2]
		lt, rt := l.(*Tensor), r.(*Tensor)
		var res *Tensor
		if isAnd {
			res = g.logical(e, lt, rt, "andi")
		} else {
			res = g.logical(e, lt, rt, "ori")
		}
		runtime = append(runtime, res)
	}
	return runtime[0]
}

func (g *gen) subscript(e *ast.Subscript) Value {
	v := g.expr(e.Value)
	idx := g.expr(e.Slice)
	switch v := v.(type) {
	case *Tensor:
		return g.tensorIndex(e, v, idx)
	case Tuple:
		if s, ok := idx.(Slice); ok {
			return g.sliceTuple(e.Slice, v, s)
		}
		c, ok := idx.(Const)
		if !ok {
			g.fail(e.Slice, "tuple indices must be constexpr integers, got %s", describe(idx))
		}
		switch c.V.(type) {
		case pyeval.Int, pyeval.Bool:
			n := g.constIntOf(e.Slice, c, "index")
			if n < 0 {
				n += int64(len(v))
			}
			if n < 0 || n >= int64(len(v)) {
				g.fail(e.Slice, "tuple index out of range")
			}
			return v[n]
		}
		g.fail(e.Slice, "tuple indices must be integers, not %s", c.V.TypeName())
	case Const:
		if s, ok := idx.(Slice); ok {
			g.fail(e.Slice, "slicing constexprs is not supported (%s)", describe(s.Lo))
		}
		ic, ok := toPy(idx)
		if !ok {
			g.fail(e.Slice, "a constexpr can only be indexed by a constexpr")
		}
		if t, ok := v.V.(pyeval.Tuple); ok {
			return fromPy(t).(Tuple)[g.tupleIndex(e.Slice, ic, len(t))]
		}
		if l, ok := v.V.(*pyeval.List); ok {
			return fromPy(l.Elems[g.tupleIndex(e.Slice, ic, len(l.Elems))])
		}
		if d, ok := v.V.(*pyeval.Dict); ok {
			r := d.Get(ic)
			if r == nil {
				g.fail(e.Slice, "KeyError: %s", pyeval.Repr(ic))
			}
			return fromPy(r)
		}
		if s, ok := v.V.(pyeval.Str); ok {
			return Const{pyeval.Str(string(s)[g.tupleIndex(e.Slice, ic, len(s))])}
		}
	}
	g.fail(e, "'%s' object is not subscriptable", describe(v))
	return nil
}

func (g *gen) tupleIndex(n ast.Node, idx pyeval.Value, length int) int {
	i, ok := idx.(pyeval.Int)
	if !ok {
		g.fail(n, "indices must be integers, not %s", idx.TypeName())
	}
	k, _ := i.Int64()
	if k < 0 {
		k += int64(length)
	}
	if k < 0 || k >= int64(length) {
		g.fail(n, "index out of range")
	}
	return int(k)
}

// sliceTuple is t[lo:hi:step] with Python's rules; the bounds are constexpr ints or None.
func (g *gen) sliceTuple(n ast.Node, t Tuple, s Slice) Tuple {
	size := int64(len(t))
	step := int64(1)
	if !isNone(s.Step) {
		step = g.constIntOf(n, s.Step, "slice step")
	}
	if step == 0 {
		g.fail(n, "slice step cannot be zero")
	}
	bound := func(v Value, def int64) int64 {
		if isNone(v) {
			return def
		}
		i := g.constIntOf(n, v, "slice index")
		if i < 0 {
			i += size
		}
		lo, hi := int64(0), size
		if step < 0 {
			lo, hi = -1, size-1
		}
		return min(max(i, lo), hi)
	}
	var lo, hi int64
	if step > 0 {
		lo, hi = bound(s.Lo, 0), bound(s.Hi, size)
	} else {
		lo, hi = bound(s.Lo, size-1), bound(s.Hi, -1)
	}
	out := Tuple{}
	for i := lo; step > 0 && i < hi || step < 0 && i > hi; i += step {
		out = append(out, t[i])
	}
	return out
}
