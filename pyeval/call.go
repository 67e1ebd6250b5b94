package pyeval

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"

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
		v, err := f.Fn(ev, args, kwargs)
		if err != nil {
			if _, located := err.(*Error); located {
				return nil, ev.errorf(pos, "%v", err)
			}
			return nil, err
		}
		return v, nil
	case scriptCallable:
		return f.callScript(ev, args, kwargs, pos)
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
	return nil, ev.errorf(pos, "'%s' object is not callable", fn.TypeName())
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
			return nil, fmt.Errorf("%s() takes %d positional arguments but %d were given", fname, len(positional), len(args))
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
				return nil, fmt.Errorf("%s() got an unexpected keyword argument '%s'", fname, name)
			}
			extra.Set(k, kwargs.Vals[i])
			continue
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("%s() got multiple values for argument '%s'", fname, name)
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
			return nil, fmt.Errorf("%s() missing required argument: '%s'", fname, p.Arg)
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
			return nil, fmt.Errorf("%s() missing required keyword-only argument: '%s'", fname, p.Arg)
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
		return nil, ev.errorf(pos, "%v", err)
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
		path := o.Path + "." + name
		if v, ok := hostValues[path]; ok {
			return v(ev.mod.Target), nil
		}
		if ev.refs == nil {
			ev.refs = map[[2]string]Value{}
		}
		v := Value(Ref{path})
		ev.refs[key] = v
		return v, nil
	case *Module:
		v, err := o.Attr(name)
		if err != nil {
			return nil, ev.errorf(pos, "%v", err)
		}
		return v, nil
	case *Object:
		if v, ok := o.Attrs[name]; ok {
			return v, nil
		}
		return nil, ev.errorf(pos, "'%s' object has no attribute '%s'", o.Class, name)
	case *Config:
		if v, ok := o.Attr(name); ok {
			return v, nil
		}
	case Unknown:
		return o, nil
	case *JITFunction:
		if name == "fn" {
			return o.Fn, nil
		}
		return unknownf("%s.%s", o.Fn.Name, name), nil
	case *Function:
		if name == "__name__" {
			return Str(o.Name), nil
		}
	case *Dict, *List, Str:
		return boundMethod{o, name}, nil
	}
	return nil, ev.errorf(pos, "'%s' object has no attribute '%s'", obj.TypeName(), name)
}

func (ev *evaluator) callMethod(m boundMethod, args []Value, kwargs *Dict, pos ast.Pos) (Value, error) {
	bad := func() (Value, error) {
		return nil, ev.errorf(pos, "'%s' object has no attribute '%s'", m.recv.TypeName(), m.name)
	}
	switch r := m.recv.(type) {
	case *Dict:
		switch m.name {
		case "get":
			if len(args) == 0 {
				return bad()
			}
			if v := r.Get(args[0]); v != nil {
				return v, nil
			}
			if len(args) > 1 {
				return args[1], nil
			}
			return None, nil
		case "keys":
			return &List{append([]Value{}, r.Keys...)}, nil
		case "values":
			return &List{append([]Value{}, r.Vals...)}, nil
		case "items":
			out := make([]Value, len(r.Keys))
			for i := range r.Keys {
				out[i] = Tuple{r.Keys[i], r.Vals[i]}
			}
			return &List{out}, nil
		case "copy":
			return &Dict{append([]Value{}, r.Keys...), append([]Value{}, r.Vals...)}, nil
		case "update":
			for _, a := range args {
				if d, ok := a.(*Dict); ok {
					for i, k := range d.Keys {
						r.Set(k, d.Vals[i])
					}
				}
			}
			for i, k := range kwargs.Keys {
				r.Set(k, kwargs.Vals[i])
			}
			return None, nil
		}
	case *List:
		switch m.name {
		case "append":
			if len(args) != 1 {
				return bad()
			}
			r.Elems = append(r.Elems, args[0])
			return None, nil
		case "extend":
			if len(args) != 1 {
				return bad()
			}
			items, err := iterate(args[0])
			if err != nil {
				return nil, ev.errorf(pos, "%v", err)
			}
			r.Elems = append(r.Elems, items...)
			return None, nil
		case "index":
			for i, e := range r.Elems {
				if len(args) == 1 && Equal(e, args[0]) {
					return NewInt(int64(i)), nil
				}
			}
			return nil, ev.errorf(pos, "value is not in list")
		}
	case Str:
		s := string(r)
		strArg := func(i int) string {
			if i < len(args) {
				return ToStr(args[i])
			}
			return ""
		}
		switch m.name {
		case "upper":
			return Str(strings.ToUpper(s)), nil
		case "lower":
			return Str(strings.ToLower(s)), nil
		case "strip":
			return Str(strings.TrimSpace(s)), nil
		case "startswith":
			return Bool(strings.HasPrefix(s, strArg(0))), nil
		case "endswith":
			return Bool(strings.HasSuffix(s, strArg(0))), nil
		case "replace":
			return Str(strings.ReplaceAll(s, strArg(0), strArg(1))), nil
		case "split":
			var parts []string
			if len(args) == 0 {
				parts = strings.Fields(s)
			} else {
				parts = strings.Split(s, strArg(0))
			}
			out := make([]Value, len(parts))
			for i, p := range parts {
				out[i] = Str(p)
			}
			return &List{out}, nil
		case "join":
			if len(args) != 1 {
				return bad()
			}
			items, err := iterate(args[0])
			if err != nil {
				return nil, ev.errorf(pos, "%v", err)
			}
			parts := make([]string, len(items))
			for i, it := range items {
				parts[i] = ToStr(it)
			}
			return Str(strings.Join(parts, s)), nil
		}
	}
	return bad()
}

// builtins are the Python builtins that host code uses to build configs and constants.
var builtins map[string]Value

func init() {
	fn := func(name string, f func(ev *evaluator, args []Value, kwargs *Dict) (Value, error)) {
		builtins[name] = &Builtin{name, f}
	}
	builtins = map[string]Value{"True": Bool(true), "False": Bool(false), "None": None}
	fn("len", func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if len(args) != 1 {
			return nil, typeError("len() takes exactly one argument (%d given)", len(args))
		}
		if s, ok := args[0].(Str); ok {
			return NewInt(int64(len([]rune(string(s))))), nil
		}
		items, err := iterate(args[0])
		if err != nil {
			return unknownf("len of %s", args[0].TypeName()), nil
		}
		return NewInt(int64(len(items))), nil
	})
	fn("range", func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		var b [3]int64
		b[2] = 1
		for i, a := range args {
			n, ok := a.(Int)
			if !ok || len(args) > 3 {
				return unknownf("range(%s)", joinRepr(args)), nil
			}
			b[i], _ = n.Int64()
		}
		lo, hi, step := b[0], b[1], b[2]
		if len(args) == 1 {
			lo, hi = 0, b[0]
		}
		if step == 0 {
			return nil, &Error{"ValueError", "range() arg 3 must not be zero"}
		}
		var out []Value
		for i := lo; (step > 0 && i < hi) || (step < 0 && i > hi); i += step {
			if len(out) > 1<<20 {
				return nil, &Error{"OverflowError", "range too large to evaluate at compile time"}
			}
			out = append(out, NewInt(i))
		}
		return &List{out}, nil
	})
	seq := func(name string, wrap func([]Value) Value) {
		fn(name, func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
			if len(args) == 0 {
				return wrap(nil), nil
			}
			items, err := iterate(args[0])
			if err != nil {
				return unknownf("%s(%s)", name, Repr(args[0])), nil
			}
			return wrap(append([]Value{}, items...)), nil
		})
	}
	seq("list", func(v []Value) Value { return &List{v} })
	seq("tuple", func(v []Value) Value { return Tuple(v) })
	fn("dict", func(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
		d := &Dict{}
		if len(args) == 1 {
			if src, ok := args[0].(*Dict); ok {
				d.Keys, d.Vals = append(d.Keys, src.Keys...), append(d.Vals, src.Vals...)
			}
		}
		for i, k := range kwargs.Keys {
			d.Set(k, kwargs.Vals[i])
		}
		return d, nil
	})
	fn("filter", func(ev *evaluator, args []Value, _ *Dict) (Value, error) {
		if len(args) != 2 {
			return nil, typeError("filter expected 2 arguments, got %d", len(args))
		}
		items, err := iterate(args[1])
		if err != nil {
			return unknownf("filter over %s", args[1].TypeName()), nil
		}
		var out []Value
		for _, it := range items {
			keep := it
			if args[0] != None {
				if keep, err = ev.call(args[0], []Value{it}, nil, ast.Pos{}); err != nil {
					return nil, err
				}
			}
			truth, known := Truth(keep)
			if !known {
				return keep, nil
			}
			if truth {
				out = append(out, it)
			}
		}
		return &List{out}, nil
	})
	minmax := func(name string, want int) {
		fn(name, func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
			if len(args) == 1 {
				items, err := iterate(args[0])
				if err != nil {
					return unknownf("%s of %s", name, args[0].TypeName()), nil
				}
				args = items
			}
			if len(args) == 0 {
				return nil, &Error{"ValueError", name + "() arg is an empty sequence"}
			}
			best := args[0]
			for _, a := range args[1:] {
				if u, ok := a.(Unknown); ok {
					return u, nil
				}
				c, err := order(a, best)
				if err != nil {
					return nil, typeError("'%s' not supported between '%s' and '%s'", map[int]string{-1: "<", 1: ">"}[want], a.TypeName(), best.TypeName())
				}
				if c == want {
					best = a
				}
			}
			return best, nil
		})
	}
	minmax("min", -1)
	minmax("max", 1)
	fn("abs", func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if len(args) != 1 {
			return nil, typeError("abs() takes exactly one argument")
		}
		switch v := args[0].(type) {
		case Int:
			return Int{new(big.Int).Abs(v.V)}, nil
		case Float:
			return Float(math.Abs(float64(v))), nil
		}
		return unknownf("abs(%s)", Repr(args[0])), nil
	})
	fn("int", func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if len(args) == 0 {
			return NewInt(0), nil
		}
		switch v := args[0].(type) {
		case Int:
			return v, nil
		case Bool:
			if v {
				return NewInt(1), nil
			}
			return NewInt(0), nil
		case Float:
			if math.IsInf(float64(v), 0) || math.IsNaN(float64(v)) {
				return nil, &Error{"ValueError", "cannot convert float " + FloatRepr(float64(v)) + " to integer"}
			}
			b, _ := big.NewFloat(math.Trunc(float64(v))).Int(nil)
			return Int{b}, nil
		case Str:
			return parseIntLiteral(strings.TrimSpace(string(v)))
		}
		return unknownf("int(%s)", Repr(args[0])), nil
	})
	fn("float", func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if len(args) == 0 {
			return Float(0), nil
		}
		if s, ok := args[0].(Str); ok {
			switch strings.ToLower(strings.TrimSpace(string(s))) {
			case "inf", "+inf", "infinity":
				return Float(math.Inf(1)), nil
			case "-inf", "-infinity":
				return Float(math.Inf(-1)), nil
			case "nan", "+nan", "-nan":
				return Float(math.NaN()), nil
			}
			var f float64
			if _, err := fmt.Sscan(string(s), &f); err != nil {
				return nil, &Error{"ValueError", "could not convert string to float: " + StrRepr(string(s))}
			}
			return Float(f), nil
		}
		if n, ok := toNumber(args[0]); ok {
			return Float(n.float()), nil
		}
		return unknownf("float(%s)", Repr(args[0])), nil
	})
	fn("str", func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if len(args) == 0 {
			return Str(""), nil
		}
		return Str(ToStr(args[0])), nil
	})
	fn("bool", func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if len(args) == 0 {
			return Bool(false), nil
		}
		t, known := Truth(args[0])
		if !known {
			return args[0], nil
		}
		return Bool(t), nil
	})
	fn("sorted", func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		items, err := iterate(args[0])
		if err != nil {
			return unknownf("sorted(%s)", args[0].TypeName()), nil
		}
		out := append([]Value{}, items...)
		var sortErr error
		sort.SliceStable(out, func(i, j int) bool {
			c, err := order(out[i], out[j])
			if err != nil {
				sortErr = err
			}
			return c == -1
		})
		return &List{out}, sortErr
	})
	fn("enumerate", func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		items, err := iterate(args[0])
		if err != nil {
			return unknownf("enumerate(%s)", args[0].TypeName()), nil
		}
		out := make([]Value, len(items))
		for i, it := range items {
			out[i] = Tuple{NewInt(int64(i)), it}
		}
		return &List{out}, nil
	})
	fn("zip", func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		var cols [][]Value
		n := -1
		for _, a := range args {
			items, err := iterate(a)
			if err != nil {
				return unknownf("zip over %s", a.TypeName()), nil
			}
			cols = append(cols, items)
			if n < 0 || len(items) < n {
				n = len(items)
			}
		}
		out := make([]Value, max(n, 0))
		for i := range out {
			row := make(Tuple, len(cols))
			for j := range cols {
				row[j] = cols[j][i]
			}
			out[i] = row
		}
		return &List{out}, nil
	})
	fn("isinstance", func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		return unknownf("isinstance in host code"), nil
	})
	fn("print", func(_ *evaluator, args []Value, _ *Dict) (Value, error) { return None, nil })
}
