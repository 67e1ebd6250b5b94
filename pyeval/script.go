package pyeval

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/gotriton/gotriton/ast"
)

// Script mode runs a file the way `python FILE` would, offline: its module-level code, the
// host functions it calls, its benchmarks and its `__main__` block, with torch tensors
// tracked abstractly (see Tensor). Every kernel launch it reaches, KERNEL[grid](...) or
// KERNEL.warmup(...), is recorded as a Launch; nothing runs on a GPU. Statements that
// cannot be evaluated offline are skipped (their targets become Unknown), so one torch
// call gotriton does not model never hides the launches after it.

// Launch is one kernel launch that script evaluation reached.
type Launch struct {
	Kernel *JITFunction
	Args   []Value
	Kwargs *Dict
	Pos    ast.Pos // the launching call
	// ArgExprs are the call's positional argument and keyword expressions (nil where the
	// call spreads *args or **kwargs), for messages about values not known offline.
	ArgExprs map[string]ast.Expr
	ArgList  []ast.Expr
	Warmup   bool
}

// ScriptResult is what a script run reached.
type ScriptResult struct {
	// Module is the module as the script left it (its globals evaluated as __main__).
	Module   *Module
	Launches []*Launch
	// Skipped lists the statements that could not be evaluated, as positioned errors.
	Skipped []error
}

// scriptState is the evaluation state of a script run, shared by every evaluator of it.
type scriptState struct {
	launches []*Launch
	skipped  []error
	// memo maps a call of a host function on abstractly equal arguments to its result,
	// so that benchmark loops (for _ in range(10000): fn(x)) cost one evaluation.
	memo map[string]Value
	// pinned keeps every value a memo key names by address alive, so that no later
	// object can take its address.
	pinned []any
	// nextAddr is the address the abstract allocator hands out next.
	nextAddr int64
	// params are the @pytest.mark.parametrize sets of each test function, innermost
	// decorator first.
	params map[*Function][]paramSet
	// calls are the call expressions being evaluated, innermost last: a launch finds
	// its argument expressions there, for messages.
	calls []*ast.Call
}

// RunScript evaluates the module again as a script (`__name__ == "__main__"`), recording
// every kernel launch. steps bounds the work; 0 means 20,000,000.
func (m *Module) RunScript(steps int) *ScriptResult {
	if steps == 0 {
		steps = 20_000_000
	}
	sm := &Module{Name: "__main__", File: m.File, Src: m.Src, AST: m.AST, Target: m.Target, Annotations: map[string]string{},
		importer: m.importer, lineStart: m.lineStart}
	sm.script = &scriptState{memo: map[string]Value{}, nextAddr: 0x7f0000000000, params: map[*Function][]paramSet{}}
	sm.globals = newScope(nil)
	sm.globals.set("__name__", Str("__main__"))
	sm.globals.set("__file__", Str(m.File))
	ev := &evaluator{mod: sm, steps: steps}
	func() {
		// A bug in modelling host code must cost the launches after it, not the process.
		defer func() {
			if r := recover(); r != nil {
				sm.script.skipped = append(sm.script.skipped, fmt.Errorf("%s: internal error while running host code: %v", m.File, r))
			}
		}()
		ev.execModuleBody(m.AST.Body, sm.globals)
	}()
	return &ScriptResult{Module: sm, Launches: sm.script.launches, Skipped: sm.script.skipped}
}

// inScript reports whether the evaluator runs a script.
func (ev *evaluator) inScript() bool { return ev.mod.script != nil }

// scriptStmt runs a module-level host statement in script mode, noting one that fails.
func (ev *evaluator) scriptStmt(st ast.Stmt, s *scope) {
	if _, err := ev.stmt(st, s); err != nil {
		ev.skip(st, s, err)
	}
}

// skip records a statement that could not be evaluated and binds its targets to Unknown.
func (ev *evaluator) skip(st ast.Stmt, s *scope, err error) {
	if err == errBudget {
		return
	}
	ev.mod.script.skipped = append(ev.mod.script.skipped, err)
	ev.bindUnknown(st, s, err)
}

// tolerate reports whether a statement's error is skipped rather than propagated: in
// script mode every error is, except the step budget and an exception the code raises
// for certain (a raise statement, an assert whose condition is known to be false,
// pytest.skip), which propagates as in Python.
func (ev *evaluator) tolerate(err error) bool {
	return ev.inScript() && err != errBudget && !errors.As(err, new(*raised)) && !isRaisedByCode(err)
}

// raised is an exception host code raises for certain (a raise statement, pytest.skip):
// it propagates out of functions as in Python, up to a try or the module-level
// statement.
type raised struct{ what string }

func (r *raised) Error() string { return r.what }

// extraStmt executes the statements only script mode runs (with, class, del, match).
func (ev *evaluator) extraStmt(st ast.Stmt, s *scope) (flow, error) {
	switch st := st.(type) {
	case *ast.With:
		for _, item := range st.Items {
			v, err := ev.expr(item.ContextExpr, s)
			if err != nil {
				return flowNext, err
			}
			if o, ok := v.(*Object); ok && o.Class == "RaisesContext" {
				// with pytest.raises(...): the body is meant to fail, its launches too.
				return flowNext, nil
			}
			if item.OptionalVars != nil {
				if err := ev.assign(item.OptionalVars, v, s); err != nil {
					return flowNext, err
				}
			}
		}
		return ev.block(st.Body, s)
	case *ast.ClassDef:
		return flowNext, ev.defineScriptClass(st, s)
	case *ast.Delete:
		return flowNext, nil
	}
	return flowNext, ev.errorf(st.Position(), "host code statement %T is not evaluated offline", st)
}

// scriptClass is a class defined by host code in a script run (a torch.autograd.Function, a helper class).
type scriptClass struct {
	Name  string
	Bases []Value
	dict  *scope
}

func (*scriptClass) TypeName() string { return "type" }
func (c *scriptClass) String() string { return "<class '" + c.Name + "'>" }

// lookup finds a class attribute, searching the bases in order.
func (c *scriptClass) lookup(name string) (Value, bool) {
	if i := c.dict.find(name); i >= 0 {
		return c.dict.vals[i], true
	}
	for _, b := range c.Bases {
		if bc, ok := b.(*scriptClass); ok {
			if v, ok := bc.lookup(name); ok {
				return v, true
			}
		}
	}
	return nil, false
}

// isAutogradFunction reports whether the class derives from torch.autograd.Function.
func (c *scriptClass) isAutogradFunction() bool {
	for _, b := range c.Bases {
		switch b := b.(type) {
		case Ref:
			if b.Path == "torch.autograd.Function" || b.Path == "torch.autograd.function.Function" {
				return true
			}
		case *scriptClass:
			if b.isAutogradFunction() {
				return true
			}
		}
	}
	return false
}

// scriptObject is an object of a host class of a script run, or a host object with settable attributes
// (an autograd ctx, an argparse namespace).
type scriptObject struct {
	Class *scriptClass // nil for a plain attribute bag
	Kind  string
	Attrs map[string]Value
}

func (i *scriptObject) TypeName() string {
	if i.Class != nil {
		return i.Class.Name
	}
	return i.Kind
}

func (ev *evaluator) defineScriptClass(def *ast.ClassDef, s *scope) error {
	c := &scriptClass{Name: def.Name, dict: newScope(s)}
	for _, b := range def.Bases {
		v, err := ev.expr(b, s)
		if err != nil {
			return err
		}
		c.Bases = append(c.Bases, v)
	}
	for _, st := range def.Body {
		if _, err := ev.stmt(st, c.dict); err != nil {
			ev.skip(st, c.dict, err)
		}
	}
	// Methods close over the module scope, not the class body (as in Python).
	for i, v := range c.dict.vals {
		if f, ok := v.(*Function); ok && f.scope == c.dict {
			f.scope = s
		}
		if sm, ok := v.(staticMethod); ok {
			if f, ok := sm.fn.(*Function); ok && f.scope == c.dict {
				f.scope = s
			}
			c.dict.vals[i] = sm
		}
	}
	s.set(def.Name, c)
	return nil
}

// staticMethod is a function wrapped by @staticmethod (or @classmethod, which host code
// in kernel files uses the same way).
type staticMethod struct{ fn Value }

func (staticMethod) TypeName() string { return "staticmethod" }

// boundFunction is a method of an instance, self bound.
type boundFunction struct {
	fn   Value
	self Value
}

func (boundFunction) TypeName() string { return "method" }

// scriptCallable is a value only script mode makes that host code may call.
type scriptCallable interface {
	Value
	callScript(ev *evaluator, args []Value, kwargs *Dict, pos ast.Pos) (Value, error)
}

func (m staticMethod) callScript(ev *evaluator, args []Value, kwargs *Dict, pos ast.Pos) (Value, error) {
	return ev.call(m.fn, args, kwargs, pos)
}

func (b boundFunction) callScript(ev *evaluator, args []Value, kwargs *Dict, pos ast.Pos) (Value, error) {
	return ev.call(b.fn, append([]Value{b.self}, args...), kwargs, pos)
}

func (c *scriptClass) callScript(ev *evaluator, args []Value, kwargs *Dict, pos ast.Pos) (Value, error) {
	inst := &scriptObject{Class: c, Attrs: map[string]Value{}}
	if init, ok := c.lookup("__init__"); ok {
		if _, err := ev.call(init, append([]Value{inst}, args...), kwargs, pos); err != nil {
			return nil, err
		}
	}
	return inst, nil
}

// scriptAttr evaluates obj.name for the values script mode makes; ok is false for
// values it does not handle.
func (ev *evaluator) scriptAttr(obj Value, name string, pos ast.Pos) (Value, bool, error) {
	switch o := obj.(type) {
	case *Tensor:
		v, err := ev.tensorAttr(o, name, pos)
		return v, true, err
	case *TensorDesc:
		return o.attr(name), true, nil
	case Device:
		return o.attr(name), true, nil
	case *scriptClass:
		if name == "apply" && o.isAutogradFunction() {
			return &Builtin{o.Name + ".apply", func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
				return ev.autogradApply(o, args, kwargs, pos)
			}}, true, nil
		}
		if v, ok := o.lookup(name); ok {
			if sm, ok := v.(staticMethod); ok {
				return sm.fn, true, nil
			}
			return v, true, nil
		}
		if name == "__name__" {
			return Str(o.Name), true, nil
		}
		return unknownf("%s.%s", o.Name, name), true, nil
	case *scriptObject:
		if v, ok := o.Attrs[name]; ok {
			return v, true, nil
		}
		if o.Class != nil {
			if v, ok := o.Class.lookup(name); ok {
				switch f := v.(type) {
				case *Function:
					return boundFunction{f, o}, true, nil
				case staticMethod:
					return f.fn, true, nil
				}
				return v, true, nil
			}
		}
		if m, ok := instanceMethods[o.Kind]; ok {
			if f, ok := m[name]; ok {
				return &Builtin{name, func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
					return f(ev, o, args, kwargs)
				}}, true, nil
			}
		}
		return unknownf("%s.%s", o.TypeName(), name), true, nil
	case *JITFunction:
		switch name {
		case "warmup":
			return &Builtin{o.Fn.Name + ".warmup", func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
				ev.recordLaunch(o, args, kwargs, pos, true)
				return &scriptObject{Kind: "CompiledKernel", Attrs: map[string]Value{}}, nil
			}}, true, nil
		case "run":
			return &Builtin{o.Fn.Name + ".run", func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
				ev.recordLaunch(o, args, kwargs, pos, false)
				return None, nil
			}}, true, nil
		}
	case *Object:
		if v, ok := o.Attrs[name]; ok {
			return v, true, nil
		}
		return unknownf("%s.%s", o.Class, name), true, nil
	}
	return nil, false, nil
}

// setAttr assigns obj.name = v in script mode (autograd ctx, argparse namespaces,
// descriptors' block_shape set by autotune pre-hooks, instances of host classes).
func (ev *evaluator) setAttr(t *ast.Attribute, v Value, s *scope) error {
	obj, err := ev.expr(t.Value, s)
	if err != nil {
		return err
	}
	switch o := obj.(type) {
	case *scriptObject:
		o.Attrs[t.Attr] = v
	case *TensorDesc:
		o.set(t.Attr, v)
	case *Object:
		o.Attrs[t.Attr] = v
	}
	return nil
}

// autogradApply runs a torch.autograd.Function's forward with a fresh ctx and ties the
// ctx to its tensor outputs, so that out.backward(dy) runs the class's backward.
func (ev *evaluator) autogradApply(c *scriptClass, args []Value, kwargs *Dict, pos ast.Pos) (Value, error) {
	fwd, ok := c.lookup("forward")
	if !ok {
		return unknownf("%s has no forward", c.Name), nil
	}
	if sm, ok := fwd.(staticMethod); ok {
		fwd = sm.fn
	}
	ctx := &scriptObject{Kind: "FunctionCtx", Attrs: map[string]Value{}}
	out, err := ev.call(fwd, append([]Value{ctx}, args...), kwargs, pos)
	if err != nil {
		return nil, err
	}
	bwd, _ := c.lookup("backward")
	if sm, ok := bwd.(staticMethod); ok {
		bwd = sm.fn
	}
	mark := func(v Value) Value {
		if t, ok := v.(*Tensor); ok && bwd != nil {
			cp := *t
			cp.backward = &gradFn{fn: bwd, ctx: ctx}
			return &cp
		}
		return v
	}
	if tup, ok := out.(Tuple); ok {
		res := make(Tuple, len(tup))
		for i, v := range tup {
			res[i] = mark(v)
		}
		return res, nil
	}
	return mark(out), nil
}

// gradFn is the backward of an autograd Function output.
type gradFn struct {
	fn  Value
	ctx *scriptObject
}

// instanceMethods are the methods of script-made host objects, by Instance.Kind.
var instanceMethods map[string]map[string]func(ev *evaluator, self *scriptObject, args []Value, kwargs *Dict) (Value, error)

func init() {
	instanceMethods = map[string]map[string]func(ev *evaluator, self *scriptObject, args []Value, kwargs *Dict) (Value, error){
		"FunctionCtx": {
			"save_for_backward": func(_ *evaluator, self *scriptObject, args []Value, _ *Dict) (Value, error) {
				self.Attrs["saved_tensors"] = Tuple(append([]Value{}, args...))
				return None, nil
			},
			"mark_non_differentiable": noneMethod,
			"mark_dirty":              noneMethod,
			"set_materialize_grads":   noneMethod,
		},
		"ArgumentParser": {
			"add_argument": func(_ *evaluator, self *scriptObject, args []Value, kwargs *Dict) (Value, error) {
				dest := ""
				for _, a := range args {
					name := ToStr(a)
					d := strings.TrimLeft(name, "-")
					if dest == "" || strings.HasPrefix(name, "--") {
						dest = strings.ReplaceAll(d, "-", "_")
					}
				}
				if v := kwargs.Get(Str("dest")); v != nil {
					dest = ToStr(v)
				}
				def := kwargs.Get(Str("default"))
				if def == nil {
					def = None
					if a, ok := kwargs.Get(Str("action")).(Str); ok && a == "store_true" {
						def = Bool(false)
					}
				}
				self.Attrs["__arg_"+dest] = def
				return None, nil
			},
			"parse_args": func(_ *evaluator, self *scriptObject, _ []Value, _ *Dict) (Value, error) {
				ns := &scriptObject{Kind: "Namespace", Attrs: map[string]Value{}}
				for k, v := range self.Attrs {
					if d, ok := strings.CutPrefix(k, "__arg_"); ok {
						ns.Attrs[d] = v
					}
				}
				return ns, nil
			},
			"add_mutually_exclusive_group": func(_ *evaluator, self *scriptObject, _ []Value, _ *Dict) (Value, error) {
				return self, nil
			},
		},
		"CompiledKernel": {
			"_init_handles": noneMethod,
		},
		"Mark": {
			"run": func(ev *evaluator, self *scriptObject, _ []Value, _ *Dict) (Value, error) {
				return None, ev.runBenchmarks(self.Attrs["fn"], self.Attrs["benchmarks"])
			},
		},
	}
}

func noneMethod(*evaluator, *scriptObject, []Value, *Dict) (Value, error) { return None, nil }

// runBenchmarks calls a perf_report-decorated function once per point of each
// triton.testing.Benchmark, as Mark.run does.
func (ev *evaluator) runBenchmarks(fn, benchmarks Value) error {
	var list []Value
	switch b := benchmarks.(type) {
	case *List:
		list = b.Elems
	case Tuple:
		list = b
	default:
		list = []Value{b}
	}
	for _, bv := range list {
		b, ok := bv.(*Object)
		if !ok {
			continue
		}
		xNames, _ := iterate(orDefault(b.Attrs["x_names"], &List{}))
		xVals, _ := iterate(orDefault(b.Attrs["x_vals"], &List{}))
		lineVals, _ := iterate(orDefault(b.Attrs["line_vals"], &List{}))
		lineArg := b.Attrs["line_arg"]
		extra, _ := b.Attrs["args"].(*Dict)
		for _, x := range xVals {
			for _, lv := range lineVals {
				kwargs := &Dict{}
				xs, isSeq := x.(Tuple)
				if l, ok := x.(*List); ok {
					xs, isSeq = l.Elems, true
				}
				for i, n := range xNames {
					if isSeq && i < len(xs) {
						kwargs.Set(n, xs[i])
					} else {
						kwargs.Set(n, x)
					}
				}
				if lineArg != nil {
					kwargs.Set(lineArg, lv)
				}
				if extra != nil {
					for i, k := range extra.Keys {
						kwargs.Set(k, extra.Vals[i])
					}
				}
				if _, err := ev.call(fn, nil, kwargs, ast.Pos{}); err != nil {
					if err == errBudget {
						return err
					}
					ev.mod.script.skipped = append(ev.mod.script.skipped, err)
				}
			}
		}
	}
	return nil
}

// launcher is KERNEL[grid]: calling it launches the kernel.
type launcher struct{ kernel *JITFunction }

func (launcher) TypeName() string { return "function" }

func (l launcher) callScript(ev *evaluator, args []Value, kwargs *Dict, pos ast.Pos) (Value, error) {
	ev.recordLaunch(l.kernel, args, kwargs, pos, false)
	return None, nil
}

// recordLaunch notes one launch of j.
func (ev *evaluator) recordLaunch(j *JITFunction, args []Value, kwargs *Dict, pos ast.Pos, warmup bool) {
	l := &Launch{Kernel: j, Args: args, Kwargs: kwargs, Pos: pos, Warmup: warmup}
	if n := len(ev.mod.script.calls); n > 0 {
		if c := ev.mod.script.calls[n-1]; c.Pos == pos {
			l.ArgList = c.Args
			l.ArgExprs = map[string]ast.Expr{}
			for _, k := range c.Keywords {
				if k.Arg != "" {
					l.ArgExprs[k.Arg] = k.Value
				}
			}
		}
	}
	if warmup {
		kwargs.Delete(Str("grid"))
	}
	ev.mod.script.launches = append(ev.mod.script.launches, l)
}

// Delete removes key from the dict.
func (d *Dict) Delete(key Value) {
	for i, k := range d.Keys {
		if Equal(k, key) {
			d.Keys = append(d.Keys[:i:i], d.Keys[i+1:]...)
			d.Vals = append(d.Vals[:i:i], d.Vals[i+1:]...)
			return
		}
	}
}

// scriptSubscript evaluates obj[key] for values script mode makes.
func (ev *evaluator) scriptSubscript(obj, key Value) (Value, bool) {
	switch o := obj.(type) {
	case *JITFunction:
		return launcher{kernel: o}, true
	case *scriptObject:
		if o.Kind == "CompiledKernel" {
			// A compiled kernel runs as it was compiled: no new specialization.
			return &Builtin{"CompiledKernel.run", func(*evaluator, []Value, *Dict) (Value, error) { return None, nil }}, true
		}
	case *Tensor:
		return o.index(key), true
	}
	return nil, false
}

// memoKey describes a call on abstract values so that equal calls share one evaluation;
// ok is false when an argument has no such description (an Unknown, a mutable host
// object).
func (ev *evaluator) memoKey(f *Function, args []Value, kwargs *Dict) (string, bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "%p(", f)
	var describe func(v Value) bool
	describe = func(v Value) bool {
		switch v := v.(type) {
		case NoneValue, Bool, Int, Float, Str, Ref, EllipsisValue:
			b.WriteString(v.TypeName() + ":" + Repr(v))
		case *Tensor:
			b.WriteString(v.describe())
		case *TensorDesc:
			b.WriteString("desc:" + v.Base.describe())
		case Tuple:
			b.WriteString("(")
			for _, e := range v {
				if !describe(e) {
					return false
				}
				b.WriteString(",")
			}
			b.WriteString(")")
		case *Function, *JITFunction, *scriptClass, *Builtin:
			fmt.Fprintf(&b, "%p", v)
			ev.mod.script.pinned = append(ev.mod.script.pinned, v)
		default:
			return false
		}
		return true
	}
	for _, a := range args {
		if !describe(a) {
			return "", false
		}
		b.WriteString(",")
	}
	for i, k := range kwargs.Keys {
		b.WriteString(ToStr(k) + "=")
		if !describe(kwargs.Vals[i]) {
			return "", false
		}
	}
	// A closure's result depends on the variables it closes over, as they are now.
	for s := f.scope; s != nil && s != ev.mod.globals; s = s.parent {
		b.WriteString("|")
		for i, n := range s.names {
			b.WriteString(n + "=")
			if !describe(s.vals[i]) {
				return "", false
			}
		}
	}
	ev.mod.script.pinned = append(ev.mod.script.pinned, f)
	return b.String(), true
}

// memoCall runs a host function in script mode, once per abstractly equal call.
func (ev *evaluator) memoCall(f *Function, args []Value, kwargs *Dict, pos ast.Pos) (Value, error) {
	key, ok := ev.memoKey(f, args, kwargs)
	if !ok {
		return ev.runFunction(f, args, kwargs, pos)
	}
	if v, done := ev.mod.script.memo[key]; done {
		return v, nil
	}
	v, err := ev.runFunction(f, args, kwargs, pos)
	if err == nil {
		ev.mod.script.memo[key] = v
	}
	return v, err
}

// scriptSlice evaluates obj[lo:hi:step] for tensors.
func (ev *evaluator) scriptSlice(obj Value, sl *ast.Slice, s *scope) (Value, error) {
	t, ok := obj.(*Tensor)
	if !ok {
		return unknownf("slice of %s", obj.TypeName()), nil
	}
	sv, err := ev.sliceObject(sl, s)
	if err != nil {
		return nil, err
	}
	return t.index(sv), nil
}

// sliceObject evaluates lo:hi:step inside a subscript to a slice object.
func (ev *evaluator) sliceObject(sl *ast.Slice, s *scope) (sliceValue, error) {
	bound := func(e ast.Expr) (Value, error) {
		if e == nil {
			return None, nil
		}
		return ev.expr(e, s)
	}
	var sv sliceValue
	var err error
	if sv.lo, err = bound(sl.Lower); err != nil {
		return sv, err
	}
	if sv.hi, err = bound(sl.Upper); err != nil {
		return sv, err
	}
	if sv.step, err = bound(sl.Step); err != nil {
		return sv, err
	}
	return sv, nil
}

// scriptModules are the modules script mode models though no kernel may use them
// (test and benchmark helpers): importing them never fails in a script.
var scriptModules = map[string]bool{"pytest": true}

// paramSet is one @pytest.mark.parametrize(argnames, argvalues).
type paramSet struct {
	names  []string
	values []Value
}

// maxTestCases bounds the parameter combinations one test function runs with.
const maxTestCases = 256

func init() {
	scriptFunctions["pytest.mark.parametrize"] = &Builtin{"pytest.mark.parametrize", func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		var ps paramSet
		switch names := kw(args, kwargs, 0, "argnames").(type) {
		case Str:
			for _, n := range strings.Split(string(names), ",") {
				ps.names = append(ps.names, strings.TrimSpace(n))
			}
		default:
			items, err := iterate(names)
			if err != nil {
				return unknownf("parametrize argnames %s", Repr(names)), nil
			}
			for _, n := range items {
				ps.names = append(ps.names, ToStr(n))
			}
		}
		values, err := iterate(orDefault(kw(args, kwargs, 1, "argvalues"), &List{}))
		if err != nil {
			return unknownf("parametrize argvalues: %v", err), nil
		}
		ps.values = values
		return &Builtin{"parametrize", func(ev *evaluator, fargs []Value, _ *Dict) (Value, error) {
			if len(fargs) == 1 {
				if f, ok := fargs[0].(*Function); ok {
					ev.mod.script.params[f] = append(ev.mod.script.params[f], ps)
				}
				return fargs[0], nil
			}
			return unknownf("parametrize of %d arguments", len(fargs)), nil
		}}, nil
	}}
	scriptFunctions["pytest.mark.skipif"] = &Builtin{"pytest.mark.skipif", func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		skip, known := Truth(kw(args, kwargs, 0, "condition"))
		return &Builtin{"skipif", func(_ *evaluator, fargs []Value, _ *Dict) (Value, error) {
			if len(fargs) != 1 || (known && !skip) {
				return orDefault(firstOf(fargs), None), nil
			}
			return unknownf("a test pytest skips (%s)", ToStr(orDefault(kwargs.Get(Str("reason")), Str("skipif")))), nil
		}}, nil
	}}
	scriptFunctions["pytest.raises"] = &Builtin{"pytest.raises", func(*evaluator, []Value, *Dict) (Value, error) {
		return &Object{Class: "RaisesContext", Attrs: map[string]Value{}}, nil
	}}
	for _, p := range []string{"pytest.skip", "pytest.fail", "pytest.xfail", "pytest.exit"} {
		scriptFunctions[p] = &Builtin{p, func(*evaluator, []Value, *Dict) (Value, error) {
			return nil, &raised{p + "()"}
		}}
	}
}

// RunTests calls the module's test functions (test_*) as pytest would, once per
// combination of their @pytest.mark.parametrize values (at most maxTestCases each), and
// returns the launches they reach. Fixtures other than parameters are Unknown.
func (r *ScriptResult) RunTests(steps int) []*Launch {
	if steps == 0 {
		steps = 20_000_000
	}
	sm := r.Module
	before := len(sm.script.launches)
	ev := &evaluator{mod: sm, steps: steps}
	for i, name := range sm.globals.names {
		f, ok := sm.globals.vals[i].(*Function)
		if !ok || !strings.HasPrefix(name, "test") || f.Def == nil {
			continue
		}
		for _, kwargs := range testCases(sm.script.params[f]) {
			for _, a := range append(append([]*ast.Arg{}, f.Def.Args.Args...), f.Def.Args.Kwonlyargs...) {
				if kwargs.Get(Str(a.Arg)) == nil && !hasDefault(f.Def.Args, a.Arg) {
					kwargs.Set(Str(a.Arg), fixture(a.Arg))
				}
			}
			if _, err := ev.call(f, nil, kwargs, f.Def.Pos); err != nil {
				if err == errBudget {
					break
				}
				sm.script.skipped = append(sm.script.skipped, err)
			}
		}
	}
	r.Launches = sm.script.launches
	r.Skipped = sm.script.skipped
	return sm.script.launches[before:]
}

// testCases is the cartesian product of parameter sets, as keyword arguments.
func testCases(sets []paramSet) []*Dict {
	cases := []*Dict{{}}
	for _, ps := range sets {
		var next []*Dict
		for _, c := range cases {
			for _, v := range ps.values {
				d := &Dict{Keys: append([]Value{}, c.Keys...), Vals: append([]Value{}, c.Vals...)}
				if len(ps.names) == 1 {
					d.Set(Str(ps.names[0]), v)
				} else if items, err := iterate(v); err == nil && len(items) == len(ps.names) {
					for i, n := range ps.names {
						d.Set(Str(n), items[i])
					}
				}
				next = append(next, d)
				if len(next) >= maxTestCases {
					break
				}
			}
		}
		cases = next
	}
	return cases
}

func hasDefault(a *ast.Arguments, name string) bool {
	first := len(a.Args) - len(a.Defaults)
	for i, p := range a.Args {
		if p.Arg == name {
			return i >= first
		}
	}
	for i, p := range a.Kwonlyargs {
		if p.Arg == name {
			return a.KwDefaults[i] != nil
		}
	}
	return false
}

func firstOf(vs []Value) Value {
	if len(vs) == 0 {
		return nil
	}
	return vs[0]
}

// fixture is the value of a pytest fixture a test asks for: the device for "device",
// else Unknown.
func fixture(name string) Value {
	if name == "device" {
		return Str("cuda")
	}
	return unknownf("the pytest fixture %s", name)
}

// GuessedDim is the size RunGuessed gives every dimension of a guessed tensor argument
// and the value of a guessed int.
const GuessedDim = 64

// RunGuessed calls a module-level host function that the script did not reach, with
// arguments guessed from its signature: a parameter annotated as optional is None, one
// annotated as a tensor or used as one (`x.shape`, `x.stride(0)`, ...) is a contiguous
// fp32 tensor whose rank comes from its uses (`B, T, H, K = q.shape`, else 1) and whose
// every dimension is GuessedDim; one annotated int is GuessedDim, float 1.0, bool False; a
// parameter with a default keeps it; any other is Unknown. When that call raises before
// any launch, it is tried once more with the optional tensor parameters (annotated
// optional, or defaulting to None) as tensors (`assert cu_seqlens is not None`) and the
// tensors of unknown rank as of the rank of the first that has one (`assert dy.shape ==
// x.shape`). It returns the launches the call reached, or why it could not be called.
func (r *ScriptResult) RunGuessed(def *ast.FunctionDef, steps int) ([]*Launch, error) {
	launches, err := r.runGuessed(def, steps, false)
	if err != nil {
		if again, err2 := r.runGuessed(def, steps, true); err2 == nil {
			return again, nil
		}
	}
	return launches, err
}

func (r *ScriptResult) runGuessed(def *ast.FunctionDef, steps int, retry bool) ([]*Launch, error) {
	sm := r.Module
	// The def itself, not what its decorators made of it (a dispatcher calls it the same).
	f := &Function{Name: def.Name, Def: def, Module: sm, scope: sm.globals}
	if steps == 0 {
		steps = 2_000_000
	}
	ev := &evaluator{mod: sm, steps: steps}
	ranks := tensorRanks(def)
	kwargs := &Dict{}
	a := def.Args
	positional := append(append([]*ast.Arg{}, a.Posonlyargs...), a.Args...)
	firstDefault := len(positional) - len(a.Defaults)
	var required []*ast.Arg
	// optionalTensor: a tensor parameter whose default is None, given a tensor on the
	// second try.
	optionalTensor := func(p *ast.Arg, def ast.Expr) bool {
		c, isConst := def.(*ast.Constant)
		return retry && isConst && c.Value == nil && p.Annotation != nil && strings.Contains(sm.Text(p.Annotation.Position()), "Tensor")
	}
	for i, p := range positional {
		if i < firstDefault || optionalTensor(p, a.Defaults[i-firstDefault]) {
			required = append(required, p)
		}
	}
	for i, p := range a.Kwonlyargs {
		if i >= len(a.KwDefaults) || a.KwDefaults[i] == nil || optionalTensor(p, a.KwDefaults[i]) {
			required = append(required, p)
		}
	}
	defaultRank := 1
	for _, p := range required {
		if rank := ranks[p.Arg]; rank > 0 && retry {
			defaultRank = rank
			break
		}
	}
	for _, p := range required {
		annot := ""
		if p.Annotation != nil {
			annot = sm.Text(p.Annotation.Position())
		}
		rank, usedAsTensor := ranks[p.Arg]
		optional := strings.Contains(annot, "None") || strings.HasPrefix(annot, "Optional")
		switch {
		case optional && !(retry && strings.Contains(annot, "Tensor")):
			kwargs.Set(Str(p.Arg), None) // an optional argument: the plain path
		case strings.Contains(annot, "Tensor") || usedAsTensor:
			if rank == 0 {
				rank = defaultRank
			}
			shape := make([]Value, rank)
			for i := range shape {
				shape[i] = NewInt(GuessedDim)
			}
			kwargs.Set(Str(p.Arg), ev.allocate("float32", shape))
		case annot == "int":
			kwargs.Set(Str(p.Arg), NewInt(GuessedDim))
		case annot == "float":
			kwargs.Set(Str(p.Arg), Float(1))
		case annot == "bool":
			kwargs.Set(Str(p.Arg), Bool(false))
		default:
			kwargs.Set(Str(p.Arg), unknownf("the argument '%s' of '%s', which is not called by the file", p.Arg, def.Name))
		}
	}
	before := len(sm.script.launches)
	var err error
	func() {
		defer recoverInto(&err)
		_, err = ev.call(f, nil, kwargs, def.Pos)
	}()
	launches := sm.script.launches[before:]
	sm.script.launches = sm.script.launches[:before]
	if err != nil && len(launches) == 0 {
		return nil, err
	}
	return launches, nil
}

// tensorRanks finds the parameters of a host function used as tensors and the least
// rank each use needs: `a, b = x.shape`, `x.size()`, `x.stride()` or `x.shape[:2]` (2),
// `*x.shape, n` unpacked into 3 names (2),
// `x.shape[2]`, `x.size(-3)`, `x.stride(2)` (3), any other `x.shape`, `x.dtype`, ... (0).
func tensorRanks(def *ast.FunctionDef) map[string]int {
	params := map[string]bool{}
	for _, p := range append(append(append([]*ast.Arg{}, def.Args.Posonlyargs...), def.Args.Args...), def.Args.Kwonlyargs...) {
		params[p.Arg] = true
	}
	out := map[string]int{}
	need := func(name string, rank int) {
		if params[name] {
			out[name] = max(out[name], rank)
		}
	}
	shapeOf := func(e ast.Expr) string { // the parameter x of x.shape, or ""
		if at, ok := e.(*ast.Attribute); ok && at.Attr == "shape" {
			if n, ok := at.Value.(*ast.Name); ok {
				return n.ID
			}
		}
		return ""
	}
	var index func(e ast.Expr) (int, bool)
	index = func(e ast.Expr) (int, bool) {
		switch e := e.(type) {
		case *ast.Constant:
			if n, ok := e.Value.(*big.Int); ok && n.IsInt64() {
				return int(n.Int64()), true
			}
			if n, ok := e.Value.(int64); ok {
				return int(n), true
			}
		case *ast.UnaryOp:
			if i, ok := index(e.Operand); ok && e.Op == ast.USub {
				return -i, true
			}
		}
		return 0, false
	}
	rankFor := func(i int) int {
		if i < 0 {
			return -i
		}
		return i + 1
	}
	ast.Inspect(def, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Assign:
			t, ok := n.Targets[0].(*ast.Tuple)
			if !ok {
				break
			}
			if x := shapeOf(n.Value); x != "" {
				need(x, len(t.Elts))
			}
			switch v := n.Value.(type) {
			case *ast.Call: // a, b, c = x.size() / x.stride()
				if at, ok := v.Func.(*ast.Attribute); ok && (at.Attr == "size" || at.Attr == "stride") && len(v.Args) == 0 {
					if x, ok := at.Value.(*ast.Name); ok {
						need(x.ID, len(t.Elts))
					}
				}
			case *ast.Subscript: // a, b = x.shape[:2] / x.shape[-2:]
				if sl, ok := v.Slice.(*ast.Slice); ok {
					if x := shapeOf(v.Value); x != "" {
						need(x, len(t.Elts))
						if i, ok := index(sl.Upper); ok && i > 0 {
							need(x, i)
						}
						if i, ok := index(sl.Lower); ok && i < 0 {
							need(x, -i)
						}
					}
				}
			}
			if v, ok := n.Value.(*ast.Tuple); ok {
				for _, e := range v.Elts {
					if s, ok := e.(*ast.Starred); ok {
						if x := shapeOf(s.Value); x != "" {
							need(x, len(t.Elts)-(len(v.Elts)-1))
						}
					}
				}
			}
		case *ast.Subscript:
			if x := shapeOf(n.Value); x != "" {
				if i, ok := index(n.Slice); ok {
					need(x, rankFor(i))
				}
			}
		case *ast.Call:
			if at, ok := n.Func.(*ast.Attribute); ok && (at.Attr == "size" || at.Attr == "stride") && len(n.Args) == 1 {
				if x, ok := at.Value.(*ast.Name); ok {
					if i, ok := index(n.Args[0]); ok {
						need(x.ID, rankFor(i))
					}
				}
			}
		case *ast.Attribute:
			if x, ok := n.Value.(*ast.Name); ok {
				switch n.Attr {
				case "shape", "dtype", "stride", "size", "numel", "device", "ndim", "dim", "is_contiguous", "contiguous", "data_ptr":
					need(x.ID, 0)
				}
			}
		}
		return true
	})
	return out
}
