package semantic

import (
	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/pyeval"
)

// argv is an evaluated call argument with the expression it came from (for carets).
type argv struct {
	v    Value
	node ast.Expr
}

// kwv is an evaluated keyword argument.
type kwv struct {
	name string
	v    Value
	node ast.Expr
}

// callArgs evaluates a call's arguments, expanding *tuple arguments.
func (g *gen) callArgs(e *ast.Call) ([]argv, []kwv) {
	var args []argv
	for _, a := range e.Args {
		if st, ok := a.(*ast.Starred); ok {
			t, ok := g.expr(st.Value).(Tuple)
			if !ok {
				g.fail(st.Value, "only tuples can be unpacked with *")
			}
			for _, v := range t {
				args = append(args, argv{v, st.Value})
			}
			continue
		}
		args = append(args, argv{g.expr(a), a})
	}
	var kws []kwv
	for _, k := range e.Keywords {
		if k.Arg == "" {
			g.fail(k.Value, "**kwargs in calls are not supported in triton kernels")
		}
		kws = append(kws, kwv{k.Arg, g.expr(k.Value), k.Value})
	}
	return args, kws
}

// call evaluates a call expression.
func (g *gen) call(e *ast.Call) Value {
	fn := g.expr(e.Func)
	args, kws := g.callArgs(e)
	g.node = e
	g.b.Loc = g.loc(e)
	switch f := fn.(type) {
	case BuiltinRef:
		if f.Recv != nil {
			args = append([]argv{{f.Recv, e.Func}}, args...)
		}
		c := g.bind(e, f.B, args, kws)
		v := f.B.impl(c)
		if v == nil {
			return constNone
		}
		return v
	case JITRef:
		return g.inline(e, f.J, args, kws)
	case HostFn:
		return g.hostCall(e, f, args, kws)
	case PyRef:
		g.fail(e.Func, "'%s' is not callable", f.Path)
	case DTypeVal:
		g.fail(e.Func, "'%s' is a dtype and cannot be called; use x.to(%s)", f.T, typeRepr(f.T))
	}
	g.fail(e.Func, "'%s' object is not callable", describe(fn))
	return nil
}

// hostCall calls a plain Python function or builtin with compile-time arguments.
func (g *gen) hostCall(e *ast.Call, f HostFn, args []argv, kws []kwv) Value {
	if b, ok := f.F.(*pyeval.Builtin); ok {
		switch b.Name {
		case "isinstance":
			return g.isinstance(e, args)
		case "len":
			if len(args) == 1 {
				if t, ok := args[0].v.(Tuple); ok {
					return constInt(int64(len(t)))
				}
			}
		case "getattr", "hasattr":
			return g.getattr(e, b.Name, args)
		case "print": // Triton's builtin_namespace makes print tl.device_print
			dp := registry["tl.device_print"]
			return dp.impl(g.bind(e, dp, args, kws))
		case "range":
			g.fail(e, "range() can only be used as the iterator of a for loop")
		case "min", "max":
			if isRuntimeArgs(args) {
				return g.pyMinMax(e, b.Name, args)
			}
		}
	}
	if fn, ok := f.F.(*pyeval.Function); ok && fn.Def != nil {
		return g.compileTimeCall(e, fn, args, kws)
	}
	pargs := make([]pyeval.Value, len(args))
	for i, a := range args {
		p, ok := toPy(a.v)
		if !ok {
			g.fail(a.node, "a Python function called from a kernel takes compile-time values only; got %s", describe(a.v))
		}
		pargs[i] = p
	}
	kw := &pyeval.Dict{}
	for _, k := range kws {
		p, ok := toPy(k.v)
		if !ok {
			g.fail(k.node, "a Python function called from a kernel takes compile-time values only; got %s", describe(k.v))
		}
		kw.Set(pyeval.Str(k.name), p)
	}
	r, err := g.mod().Call(f.F, pargs, kw)
	if err != nil {
		g.fail(e, "%v", err)
	}
	if u, ok := r.(pyeval.Unknown); ok {
		g.fail(e, "cannot evaluate at compile time: %s", u.Why)
	}
	return fromPy(r)
}

// getattr is getattr(obj, name[, default]) and hasattr(obj, name) on any kernel value (a
// module, a tensor, a dtype, a constexpr), with name a constexpr string: obj.name, as if
// written so at the call.
func (g *gen) getattr(e *ast.Call, fn string, args []argv) Value {
	if n := len(args); fn == "hasattr" && n != 2 {
		g.fail(e, "hasattr expected 2 arguments, got %d", n)
	} else if n < 2 || n > 3 {
		g.fail(e, "getattr expected 2 or 3 arguments, got %d", n)
	}
	name, ok := args[1].v.(Const)
	s, isStr := name.V.(pyeval.Str)
	if !ok || !isStr {
		g.fail(args[1].node, "%s(): attribute name must be a constexpr string, got %s", fn, describe(args[1].v))
	}
	node := &ast.Attribute{Value: args[0].node, Attr: string(s), Pos: e.Pos}
	if fn == "getattr" && len(args) == 2 {
		return g.attribute(node, args[0].v)
	}
	v, found := g.tryAttribute(node, args[0].v)
	if fn == "hasattr" {
		return Const{pyeval.Bool(found)}
	}
	if !found {
		return args[2].v
	}
	return v
}

// tryAttribute is attribute, with found false where the attribute does not exist.
func (g *gen) tryAttribute(e *ast.Attribute, v Value) (attr Value, found bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(semError); !ok {
				panic(r)
			}
			attr, found = nil, false
		}
	}()
	return g.attribute(e, v), true
}

func isRuntimeArgs(args []argv) bool {
	for _, a := range args {
		if isRuntime(a.v) {
			return true
		}
	}
	return false
}

// pyMinMax is Python's min/max with a runtime argument: Triton 3.6's builtin_min and
// builtin_max fold the arguments with tl.minimum / tl.maximum.
func (g *gen) pyMinMax(e *ast.Call, name string, args []argv) Value {
	if len(args) < 2 {
		g.fail(e, "%s requires at least 2 values", name)
	}
	acc := args[0]
	for _, a := range args[1:] {
		l, r := g.binaryTypeCheck(e, operand{acc.v, acc.node}, operand{a.v, a.node}, false, false, true, false)
		acc = argv{g.minMax(e, l, r, name == "max", false), e}
	}
	return acc.v
}

func (g *gen) isinstance(e *ast.Call, args []argv) Value {
	if len(args) != 2 {
		g.fail(e, "isinstance expected 2 arguments, got %d", len(args))
	}
	classes := []Value{args[1].v}
	if t, ok := args[1].v.(Tuple); ok {
		classes = t
	}
	for _, c := range classes {
		if g.isInstanceOf(args[0].v, c, args[1].node) {
			return constTrue
		}
	}
	return constFalse
}

func (g *gen) isInstanceOf(v, class Value, n ast.Node) bool {
	switch c := class.(type) {
	case BuiltinRef:
		switch c.B.name {
		case "tl.tensor_descriptor", "tl.tensor_descriptor_base":
			_, ok := v.(*Desc)
			return ok
		case "tl.tensor":
			_, ok := v.(*Tensor)
			return ok
		case "tl.constexpr":
			_, ok := v.(Const)
			return ok
		case "tl.tuple":
			_, ok := v.(Tuple)
			return ok
		case "tl.dtype":
			_, ok := v.(DTypeVal)
			return ok
		case "tl.pointer_type":
			d, ok := v.(DTypeVal)
			_, isPtr := d.T.(*PtrType)
			return ok && isPtr
		}
	case HostFn:
		if b, ok := c.F.(*pyeval.Builtin); ok {
			cv, isConst := v.(Const)
			if !isConst {
				return b.Name == "tuple" && isTuple(v)
			}
			return cv.V.TypeName() == b.Name
		}
	}
	g.fail(n, "isinstance() arg 2 must be a type the kernel language knows, got %s", describe(class))
	return false
}

func isTuple(v Value) bool {
	_, ok := v.(Tuple)
	return ok
}

// inline generates a nested jit function's body at the call site, with its parameters
// bound to the call's arguments.
func (g *gen) inline(e *ast.Call, j *pyeval.JITFunction, args []argv, kws []kwv) Value {
	for _, f := range g.frames {
		if f.name == j.Fn.Name && f.mod == j.Fn.Module {
			g.fail(e, "recursive call of jit function '%s' is not supported", j.Fn.Name)
		}
	}
	if len(g.frames) > 64 {
		g.fail(e, "jit calls nest too deeply")
	}
	def := j.Fn.Def
	m := j.Fn.Module
	scope := g.bindParams(e, def, m, args, kws)
	callee := &gen{opts: g.opts, frames: append(g.frames[:len(g.frames):len(g.frames)], frame{name: def.Name, mod: m, call: e}), scope: scope, b: g.b, prints: nil}
	savedLoc := g.b.Loc
	callee.stmts(def.Body)
	g.b.Loc = savedLoc
	g.prints = append(g.prints, callee.prints...)
	if callee.ret == nil {
		return constNone
	}
	return callee.ret
}

// bindParams binds a call's arguments to the parameters of def (a function of module m),
// with defaults evaluated in m, as Python does.
func (g *gen) bindParams(e *ast.Call, def *ast.FunctionDef, m *pyeval.Module, args []argv, kws []kwv) map[string]Value {
	params := jitParams(def)
	scope := map[string]Value{}
	if len(args) > len(params.positional) {
		g.fail(e, "%s() takes %d positional arguments but %d were given", def.Name, len(params.positional), len(args))
	}
	for i, a := range args {
		scope[params.positional[i].Arg] = a.v
	}
	for _, k := range kws {
		if !params.has(k.name) {
			g.fail(k.node, "%s() got an unexpected keyword argument '%s'", def.Name, k.name)
		}
		if _, dup := scope[k.name]; dup {
			g.fail(k.node, "%s() got multiple values for argument '%s'", def.Name, k.name)
		}
		scope[k.name] = k.v
	}
	for _, p := range params.all {
		if _, ok := scope[p.arg.Arg]; ok {
			continue
		}
		if p.def == nil {
			g.fail(e, "%s() missing 1 required positional argument: '%s'", def.Name, p.arg.Arg)
		}
		dv, err := m.Eval(p.def, nil)
		if err != nil {
			g.fail(e, "default of parameter '%s' of %s(): %v", p.arg.Arg, def.Name, err)
		}
		scope[p.arg.Arg] = fromPy(dv)
	}
	return scope
}

// compileTimeCall runs a plain Python function (undecorated, @tl.constexpr or
// @triton.constexpr_function) called from a kernel, as Triton 3.6 does: at compile time,
// on compile-time values (constexprs, dtypes, tuples), with the kernel language's view of
// them (dtype methods and attributes, tl names). Its loops run unrolled, and it must
// return a compile-time value. Where it uses Python this generator does not model, the
// host evaluator runs it instead; if that fails too, the first error stands.
func (g *gen) compileTimeCall(e *ast.Call, f *pyeval.Function, args []argv, kws []kwv) Value {
	if len(g.frames) > 64 {
		g.fail(e, "compile-time calls nest too deeply")
	}
	for _, a := range args {
		g.requireCompileTime(a.node, a.v)
	}
	for _, k := range kws {
		g.requireCompileTime(k.node, k.v)
	}
	scope := g.bindParams(e, f.Def, f.Module, args, kws)
	callee := &gen{opts: g.opts, frames: append(g.frames[:len(g.frames):len(g.frames)], frame{name: f.Name, mod: f.Module, call: e, kind: "compile-time function"}),
		scope: scope, b: g.b, compileTime: true}
	var staticErr *semError
	func() {
		defer func() {
			if r := recover(); r != nil {
				se, ok := r.(semError)
				if !ok {
					panic(r)
				}
				staticErr = &se
			}
		}()
		callee.inBlock(scratchBlock(), func() { callee.stmts(f.Def.Body) })
	}()
	if staticErr != nil {
		if f.Module != nil && !isPlaceholder(f) {
			if v, ok := g.tryHostCall(f, args, kws); ok {
				return v
			}
		}
		panic(*staticErr)
	}
	if callee.ret == nil {
		return constNone
	}
	g.requireCompileTime(e, callee.ret)
	return callee.ret
}

// isPlaceholder reports whether f was made from a def the host evaluator did not bind (a
// @triton.constexpr_function), which only compileTimeCall can run.
func isPlaceholder(f *pyeval.Function) bool {
	v, ok := f.Module.Lookup(f.Name)
	return !ok || v != pyeval.Value(f)
}

// tryHostCall calls f through the host evaluator; ok is false when it fails or cannot know
// the result.
func (g *gen) tryHostCall(f *pyeval.Function, args []argv, kws []kwv) (Value, bool) {
	pargs := make([]pyeval.Value, len(args))
	for i, a := range args {
		pargs[i], _ = toPy(a.v)
	}
	kw := &pyeval.Dict{}
	for _, k := range kws {
		p, _ := toPy(k.v)
		kw.Set(pyeval.Str(k.name), p)
	}
	r, err := f.Module.Call(f, pargs, kw)
	if err != nil {
		return nil, false
	}
	if _, unknown := r.(pyeval.Unknown); unknown {
		return nil, false
	}
	v := fromPy(r)
	if p, isRef := v.(PyRef); isRef && !knownModule(p.Path) {
		return nil, false
	}
	return v, true
}

// requireCompileTime fails unless v is known at compile time (what a Python function called
// from a kernel may take and return).
func (g *gen) requireCompileTime(n ast.Node, v Value) {
	if _, ok := toPy(v); !ok {
		g.fail(n, "a Python function called from a kernel runs at compile time and takes and returns compile-time values only; got %s", describe(v))
	}
}

// jitParam is one parameter of a jit function with its default expression.
type jitParam struct {
	arg *ast.Arg
	def ast.Expr
}

type jitParamList struct {
	positional []*ast.Arg
	all        []jitParam
}

func (l jitParamList) has(name string) bool {
	for _, p := range l.all {
		if p.arg.Arg == name {
			return true
		}
	}
	return false
}

func jitParams(def *ast.FunctionDef) jitParamList {
	a := def.Args
	var l jitParamList
	l.positional = append(append(l.positional, a.Posonlyargs...), a.Args...)
	first := len(l.positional) - len(a.Defaults)
	for i, p := range l.positional {
		var d ast.Expr
		if i >= first {
			d = a.Defaults[i-first]
		}
		l.all = append(l.all, jitParam{p, d})
	}
	for i, p := range a.Kwonlyargs {
		l.all = append(l.all, jitParam{p, a.KwDefaults[i]})
	}
	return l
}
