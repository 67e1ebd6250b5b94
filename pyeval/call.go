package pyeval

import (
	"github.com/gotriton/gotriton/ast"
)

// call applies a callable to positional and keyword arguments.
func (ev *evaluator) call(fn Value, args []Value, kwargs *Dict, pos ast.Pos) (Value, error) {
	if kwargs == nil {
		kwargs = &Dict{}
	}
	switch f := fn.(type) {
	case *Function:
		return ev.callFunction(f, args, kwargs, pos)
	case *Builtin:
		ev.pos = pos
		v, err := f.Fn(ev, args, kwargs)
		if err != nil {
			return nil, ev.fail(pos, err)
		}
		return v, nil
	case scriptCallable:
		return f.callScript(ev, args, kwargs, pos)
	case *Class:
		return ev.instantiate(f, args, kwargs, pos)
	case ExceptionClass:
		msg := ""
		if len(args) > 0 {
			msg = ToStr(args[0])
		}
		return &Error{f.Name, msg}, nil
	case method:
		return ev.call(f.fn, append([]Value{f.self}, args...), kwargs, pos)
	case descriptor:
		if f.kind == "staticmethod" || f.kind == "classmethod" {
			return ev.call(f.fn, args, kwargs, pos)
		}
	case Ref:
		if h, ok := scriptFunctions[f.Path]; ok && ev.inScript() {
			return ev.call(h, args, kwargs, pos)
		}
		if h, ok := hostFunctions[f.Path]; ok {
			return ev.call(h, args, kwargs, pos)
		}
		return unknownf("%s(...) is host code", f.Path), nil
	case boundMethod:
		return ev.callMethod(f, args, kwargs, pos)
	case Unknown:
		return f, nil
	case *JITFunction:
		return unknownf("a call of jit function %s from host code", f.Fn.Name), nil
	}
	return nil, ev.raise(pos, "TypeError", "'%s' object is not callable", fn.TypeName())
}

// BindArgs matches call arguments to a function's parameters as Python does, filling
// defaults through def, which evaluates a default expression.
func BindArgs(fname string, params *ast.Arguments, args []Value, kwargs *Dict, def func(ast.Expr) (Value, error)) (map[string]Value, error) {
	out := make(map[string]Value, len(params.Posonlyargs)+len(params.Args)+len(params.Kwonlyargs))
	positional := params.Args // read only
	if len(params.Posonlyargs) > 0 {
		positional = append(append([]*ast.Arg{}, params.Posonlyargs...), params.Args...)
	}
	for i, a := range args {
		if i >= len(positional) {
			if params.Vararg != nil {
				out[params.Vararg.Arg] = Tuple(args[len(positional):])
				break
			}
			return nil, typeError("%s() takes %d positional arguments but %d were given", fname, len(positional), len(args))
		}
		out[positional[i].Arg] = a
	}
	if params.Vararg != nil && out[params.Vararg.Arg] == nil {
		out[params.Vararg.Arg] = Tuple{}
	}
	var extra *Dict // the **kwargs dict, when the function has one
	if params.Kwarg != nil {
		extra = &Dict{}
	}
	for i, k := range kwargs.Keys {
		name := ToStr(k)
		known := false
		for j, p := range positional {
			if p.Arg == name && j >= len(params.Posonlyargs) {
				known = true
			}
		}
		for _, p := range params.Kwonlyargs {
			known = known || p.Arg == name
		}
		if !known {
			if params.Kwarg == nil {
				return nil, typeError("%s() got an unexpected keyword argument '%s'", fname, name)
			}
			extra.Set(k, kwargs.Vals[i])
			continue
		}
		if _, dup := out[name]; dup {
			return nil, typeError("%s() got multiple values for argument '%s'", fname, name)
		}
		out[name] = kwargs.Vals[i]
	}
	if params.Kwarg != nil {
		out[params.Kwarg.Arg] = extra
	}
	firstDefault := len(positional) - len(params.Defaults)
	for i, p := range positional {
		if _, ok := out[p.Arg]; ok {
			continue
		}
		if i < firstDefault {
			return nil, typeError("%s() missing required argument: '%s'", fname, p.Arg)
		}
		v, err := def(params.Defaults[i-firstDefault])
		if err != nil {
			return nil, err
		}
		out[p.Arg] = v
	}
	for i, p := range params.Kwonlyargs {
		if _, ok := out[p.Arg]; ok {
			continue
		}
		if params.KwDefaults[i] == nil {
			return nil, typeError("%s() missing required keyword-only argument: '%s'", fname, p.Arg)
		}
		v, err := def(params.KwDefaults[i])
		if err != nil {
			return nil, err
		}
		out[p.Arg] = v
	}
	return out, nil
}

func (ev *evaluator) callFunction(f *Function, args []Value, kwargs *Dict, pos ast.Pos) (Value, error) {
	if ev.depth > 64 {
		return nil, ev.errorf(pos, "host call depth exceeded (recursion in %s?)", f.Name)
	}
	if ev.inScript() {
		return ev.memoCall(f, args, kwargs, pos)
	}
	return ev.runFunction(f, args, kwargs, pos)
}

// runFunction binds a host function's arguments and runs its body.
func (ev *evaluator) runFunction(f *Function, args []Value, kwargs *Dict, pos ast.Pos) (Value, error) {
	bound, err := BindArgs(f.Name, f.Args(), args, kwargs, func(e ast.Expr) (Value, error) {
		return ev.expr(e, f.scope)
	})
	if err != nil {
		return nil, ev.fail(pos, err)
	}
	if f.Module != nil && f.Module != ev.mod && !ev.inScript() {
		// The body is another module's source: positions and imports are its. (A script
		// run keeps its own module, whose script state the call needs.)
		caller := ev.mod
		ev.mod = f.Module
		defer func() { ev.mod = caller }()
	}
	local := newScopeSized(f.scope, len(bound))
	for k, v := range bound {
		local.set(k, v)
	}
	ev.depth++
	defer func() { ev.depth-- }()
	if f.Lambda != nil {
		return ev.expr(f.Lambda.Body, local)
	}
	fl, err := ev.block(f.Def.Body, local)
	if err != nil {
		return nil, err
	}
	if fl == flowReturn {
		return ev.retval, nil
	}
	return None, nil
}

// attr evaluates obj.name.
func (ev *evaluator) attr(obj Value, name string, pos ast.Pos) (Value, error) {
	if ev.inScript() {
		if v, ok, err := ev.scriptAttr(obj, name, pos); ok {
			return v, err
		}
	}
	switch o := obj.(type) {
	case Ref:
		key := [2]string{o.Path, name}
		if v, ok := ev.refs[key]; ok {
			return v, nil
		}
		if v, ok := ev.refAttr(o.Path, name); ok {
			return v, nil
		}
		path := o.Path + "." + name
		if isTritonModuleRef(o.Path) {
			var ok bool
			if path, ok = tritonAttr(o.Path, name); !ok {
				return nil, ev.raise(pos, "AttributeError", "module '%s' has no attribute '%s'", o.Path, name)
			}
		}
		v := Value(Ref{path})
		if h, ok := hostValues[path]; ok {
			v = h(ev.mod.Target) // made once per evaluation: os.environ keeps what host code sets
		}
		if ev.refs == nil {
			ev.refs = map[[2]string]Value{}
		}
		ev.refs[key] = v
		return v, nil
	case *Module:
		v, err := o.Attr(name)
		if err != nil {
			return nil, ev.fail(pos, err)
		}
		return v, nil
	case *Object:
		if v, ok := o.Attrs[name]; ok {
			return v, nil
		}
		if o.Open {
			return unknownf("%s.%s is not known offline", o.Class, name), nil
		}
		return nil, ev.raise(pos, "AttributeError", "'%s' object has no attribute '%s'", o.Class, name)
	case *Config:
		if v, ok := o.Attr(name); ok {
			return v, nil
		}
	case Unknown:
		return o, nil
	case *JITFunction:
		switch name {
		case "fn":
			return o.Fn, nil
		case "__name__", "__qualname__", "__module__":
			return ev.attr(o.Fn, name, pos)
		case "arg_names":
			names := &List{}
			for _, n := range ParamNames(o.Fn.Args()) {
				names.Elems = append(names.Elems, Str(n))
			}
			return names, nil
		}
		return unknownf("%s.%s", o.Fn.Name, name), nil
	case *Function:
		switch name {
		case "__name__", "__qualname__":
			return Str(o.Name), nil
		case "__module__":
			return Str(o.Module.Name), nil
		}
	case *Class:
		return ev.classAttr(o, name, pos)
	case descriptor:
		switch name {
		case "setter", "getter", "deleter": // @prop.setter: host code only reads properties
			if o.kind == "property" {
				return &Builtin{"property." + name, func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
					return o, wantArgs(name, args, 1, 1)
				}}, nil
			}
		case "__func__":
			return o.fn, nil
		}
	case Version:
		if v, ok := versionAttr(o.v, name); ok {
			return v, nil
		}
	case *StructSeq:
		for i, f := range o.Fields {
			if f == name {
				return o.Tuple[i], nil
			}
		}
		if m, ok := valueMethod(o.Tuple, name); ok {
			return m, nil
		}
	case TorchVersionStr:
		if m, ok := valueMethod(Str(o.S), name); ok {
			return m, nil
		}
	case *Instance:
		return ev.instanceAttr(o, name, pos)
	case *Error:
		if name == "args" {
			return Tuple{Str(o.Msg)}, nil
		}
	case ExceptionClass:
		if name == "__name__" {
			return Str(o.Name), nil
		}
	case *Builtin:
		if name == "__name__" {
			return Str(o.Name), nil
		}
		if m, ok := typeMethod(o, name); ok {
			return m, nil
		}
	}
	if m, ok := valueMethod(obj, name); ok {
		return m, nil
	}
	return nil, ev.raise(pos, "AttributeError", "'%s' object has no attribute '%s'", obj.TypeName(), name)
}

// refAttr answers attributes of modelled names that are facts rather than names: torch
// dtype aliases and dtype attributes, torch.version.
func (ev *evaluator) refAttr(path, name string) (Value, bool) {
	if name == "__name__" && isTritonModuleRef(path) {
		return Str(path), true
	}
	if alias, ok := torchAliases[path+"."+name]; ok {
		return Ref{alias}, true
	}
	if path == "triton.language.core" && name == "CONSTEXPR_0" {
		return NewInt(0), true // core.py: CONSTEXPR_0 = constexpr(0), a default of tensor.sort
	}
	if path == "torch" {
		if canon, ok := torchDtypeAliases[name]; ok {
			return Ref{"torch." + canon}, true
		}
	}
	if path == "torch.version" {
		return torchVersionAttr(ev.mod.Target, name)
	}
	if dt, ok := torchDtype(Ref{path}); ok {
		return dtypeAttr(dt, name)
	}
	return nil, false
}

// GetAttr evaluates obj.name as host code in the module would (a class attribute, an enum
// member's value, a method of a builtin value), for callers outside the evaluator. An
// exception comes back as the *Error, without a position, for the caller to place.
func (m *Module) GetAttr(obj Value, name string) (v Value, err error) {
	ev := &evaluator{mod: m, steps: 100_000}
	defer recoverInto(&err)
	v, err = ev.attr(obj, name, ast.Pos{})
	if e := exception(err); e != nil {
		return nil, e
	}
	return v, err
}

// setAttribute runs obj.name = v (or setattr): on the module's own objects it binds the
// attribute; on a modelled module (monkey-patching tl) host code sees the new value;
// on host objects (tensors, ...) it has no compile-time effect.
func (ev *evaluator) setAttribute(obj Value, name string, v Value, pos ast.Pos) error {
	switch o := obj.(type) {
	case *Module:
		o.globals.set(name, v)
	case *Instance:
		o.Attrs.set(name, v)
	case *Class:
		o.NS.set(name, v)
	case Ref:
		if ev.refs == nil {
			ev.refs = map[[2]string]Value{}
		}
		ev.refs[[2]string{o.Path, name}] = v
	case Unknown, *Object:
	case Int, Float, Bool, Str, Tuple, NoneValue, *List, *Dict, *Set:
		return ev.raise(pos, "AttributeError", "'%s' object has no attribute '%s'", obj.TypeName(), name)
	}
	return nil
}
