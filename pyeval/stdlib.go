package pyeval

import (
	"math"
	"math/big"
	"strings"

	"github.com/gotriton/gotriton/ast"
)

// The parts of the standard library (math, itertools, functools, operator) that host
// code uses to build configs and sizes.
func init() {
	def := func(f builtinFunc, paths ...string) {
		for _, p := range paths {
			hostFunctions[p] = &Builtin{p, f}
		}
	}
	for name, f := range map[string]func(float64) float64{
		"sqrt": math.Sqrt, "exp": math.Exp, "log2": math.Log2, "log10": math.Log10, "fabs": math.Abs,
		"sin": math.Sin, "cos": math.Cos, "tan": math.Tan, "tanh": math.Tanh, "atan": math.Atan,
		"exp2": math.Exp2, "expm1": math.Expm1, "log1p": math.Log1p,
	} {
		def(mathFloat(name, f), "math."+name)
	}
	def(mathLog, "math.log")
	def(mathRound("ceil", math.Ceil), "math.ceil")
	def(mathRound("floor", math.Floor), "math.floor")
	def(mathRound("trunc", math.Trunc), "math.trunc")
	def(func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if err := wantArgs("pow", args, 2, 2); err != nil {
			return nil, err
		}
		x, ok1 := toNumber(plain(args[0]))
		y, ok2 := toNumber(plain(args[1]))
		if !ok1 || !ok2 {
			return nil, typeError("must be real number")
		}
		return Float(math.Pow(x.float(), y.float())), nil
	}, "math.pow")
	def(intFold("gcd", func(a, b *big.Int) *big.Int {
		return new(big.Int).GCD(nil, nil, new(big.Int).Abs(a), new(big.Int).Abs(b))
	}, 0), "math.gcd")
	def(intFold("lcm", func(a, b *big.Int) *big.Int {
		if a.Sign() == 0 || b.Sign() == 0 {
			return new(big.Int)
		}
		g := new(big.Int).GCD(nil, nil, new(big.Int).Abs(a), new(big.Int).Abs(b))
		return new(big.Int).Abs(new(big.Int).Mul(new(big.Int).Quo(a, g), b))
	}, 1), "math.lcm")
	def(func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if err := wantArgs("isqrt", args, 1, 1); err != nil {
			return nil, err
		}
		n, ok := plain(args[0]).(Int)
		if !ok {
			return nil, typeError("'%s' object cannot be interpreted as an integer", args[0].TypeName())
		}
		if n.V.Sign() < 0 {
			return nil, &Error{"ValueError", "isqrt() argument must be nonnegative"}
		}
		return Int{new(big.Int).Sqrt(n.V)}, nil
	}, "math.isqrt")
	def(func(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
		if err := wantArgs("prod", args, 1, 1); err != nil {
			return nil, err
		}
		it, u, err := items("prod", args[0])
		if u != nil || err != nil {
			return u, err
		}
		acc := orDefault(kwargs.Get(Str("start")), NewInt(1))
		for _, x := range it {
			if acc, err = BinOp("*", acc, x); err != nil {
				return nil, err
			}
		}
		return acc, nil
	}, "math.prod")
	for name, pred := range map[string]func(float64) bool{
		"isinf": func(f float64) bool { return math.IsInf(f, 0) }, "isnan": math.IsNaN,
		"isfinite": func(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) },
	} {
		def(func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
			if err := wantArgs(name, args, 1, 1); err != nil {
				return nil, err
			}
			x, ok := toNumber(plain(args[0]))
			if !ok {
				return nil, typeError("must be real number, not %s", args[0].TypeName())
			}
			return Bool(pred(x.float())), nil
		}, "math."+name)
	}
	def(inspectSignature, "inspect.signature")
	def(func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if err := wantArgs("isfunction", args, 1, 1); err != nil {
			return nil, err
		}
		switch args[0].(type) {
		case *Function:
			return Bool(true), nil
		case Unknown, Ref:
			return unknownf("inspect.isfunction(%s)", Repr(args[0])), nil
		}
		return Bool(false), nil
	}, "inspect.isfunction")
	def(func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if err := wantArgs("isclass", args, 1, 1); err != nil {
			return nil, err
		}
		switch a := args[0].(type) {
		case *Class, ExceptionClass:
			return Bool(true), nil
		case *Builtin:
			return Bool(builtinTypes[a.Name]), nil
		case Unknown, Ref:
			return unknownf("inspect.isclass(%s)", Repr(args[0])), nil
		}
		return Bool(false), nil
	}, "inspect.isclass")
	def(itertoolsProduct, "itertools.product")
	def(itertoolsChain, "itertools.chain")
	def(functoolsReduce, "functools.reduce")
	def(functoolsPartial, "functools.partial")
	for _, op := range []struct{ name, sym string }{
		{"add", "+"}, {"sub", "-"}, {"mul", "*"}, {"floordiv", "//"}, {"truediv", "/"}, {"mod", "%"},
		{"pow", "**"}, {"and_", "&"}, {"or_", "|"}, {"xor", "^"}, {"lshift", "<<"}, {"rshift", ">>"},
	} {
		def(func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
			if err := wantArgs(op.name, args, 2, 2); err != nil {
				return nil, err
			}
			return BinOp(op.sym, args[0], args[1])
		}, "operator."+op.name)
	}
}

func mathNumber(name string, v Value) (float64, error) {
	x, ok := toNumber(plain(v))
	if !ok {
		return 0, typeError("must be real number, not %s", v.TypeName())
	}
	return x.float(), nil
}

func mathFloat(name string, f func(float64) float64) builtinFunc {
	return func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if err := wantArgs(name, args, 1, 1); err != nil {
			return nil, err
		}
		if u, ok := args[0].(Unknown); ok {
			return u, nil
		}
		x, err := mathNumber(name, args[0])
		if err != nil {
			return nil, err
		}
		r := f(x)
		if math.IsNaN(r) && !math.IsNaN(x) {
			return nil, &Error{"ValueError", "math domain error"}
		}
		if math.IsInf(r, 0) && !math.IsInf(x, 0) && name != "log2" && name != "log10" {
			return nil, &Error{"OverflowError", "math range error"}
		}
		if math.IsInf(r, -1) && x == 0 {
			return nil, &Error{"ValueError", "math domain error"}
		}
		return Float(r), nil
	}
}

func mathLog(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("log", args, 1, 2); err != nil {
		return nil, err
	}
	if u, ok := unknownIn(args...); ok {
		return u, nil
	}
	x, err := mathNumber("log", args[0])
	if err != nil {
		return nil, err
	}
	if x <= 0 {
		return nil, &Error{"ValueError", "math domain error"}
	}
	if len(args) == 1 {
		return Float(math.Log(x)), nil
	}
	b, err := mathNumber("log", args[1])
	if err != nil {
		return nil, err
	}
	if b <= 0 || b == 1 {
		return nil, &Error{"ValueError", "math domain error"}
	}
	return Float(math.Log(x) / math.Log(b)), nil
}

// mathRound makes ceil, floor and trunc, which return ints.
func mathRound(name string, f func(float64) float64) builtinFunc {
	return func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if err := wantArgs(name, args, 1, 1); err != nil {
			return nil, err
		}
		switch v := plain(args[0]).(type) {
		case Int:
			return v, nil
		case Bool:
			return boolInt(v), nil
		case Unknown:
			return v, nil
		case Float:
			return builtinInt(nil, []Value{Float(f(float64(v)))}, &Dict{})
		}
		return nil, typeError("must be real number, not %s", args[0].TypeName())
	}
}

// intFold makes gcd and lcm over any number of ints.
func intFold(name string, f func(a, b *big.Int) *big.Int, empty int64) builtinFunc {
	return func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		acc := big.NewInt(empty)
		for i, a := range args {
			n, ok := plain(a).(Int)
			if !ok {
				if u, isU := a.(Unknown); isU {
					return u, nil
				}
				return nil, typeError("'%s' object cannot be interpreted as an integer", a.TypeName())
			}
			if i == 0 {
				acc = new(big.Int).Abs(n.V)
				continue
			}
			acc = f(acc, n.V)
		}
		return Int{acc}, nil
	}
}

func itertoolsProduct(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
	var pools [][]Value
	for _, a := range args {
		it, u, err := items("product", a)
		if u != nil || err != nil {
			return u, err
		}
		pools = append(pools, it)
	}
	if r, ok := kwargs.Get(Str("repeat")).(Int); ok {
		base := pools
		pools = nil
		for range r.V.Int64() {
			pools = append(pools, base...)
		}
	}
	out := []Value{Tuple{}}
	for _, pool := range pools {
		var next []Value
		for _, prefix := range out {
			for _, x := range pool {
				next = append(next, append(append(Tuple{}, prefix.(Tuple)...), x))
			}
			if len(next) > 1<<20 {
				return nil, &Error{"OverflowError", "product too large to evaluate at compile time"}
			}
		}
		out = next
	}
	return &List{out}, nil
}

func itertoolsChain(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	var out []Value
	for _, a := range args {
		it, u, err := items("chain", a)
		if u != nil || err != nil {
			return u, err
		}
		out = append(out, it...)
	}
	return &List{out}, nil
}

func functoolsReduce(ev *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("reduce", args, 2, 3); err != nil {
		return nil, err
	}
	it, u, err := items("reduce", args[1])
	if u != nil || err != nil {
		return u, err
	}
	var acc Value
	if len(args) == 3 {
		acc = args[2]
	} else if len(it) == 0 {
		return nil, typeError("reduce() of empty iterable with no initial value")
	} else {
		acc, it = it[0], it[1:]
	}
	for _, x := range it {
		if acc, err = ev.call(args[0], []Value{acc, x}, nil, ev.pos); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

func functoolsPartial(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
	if len(args) == 0 {
		return nil, typeError("partial expected at least 1 argument, got 0")
	}
	fn, bound := args[0], append([]Value{}, args[1:]...)
	boundKw := &Dict{Keys: append([]Value{}, kwargs.Keys...), Vals: append([]Value{}, kwargs.Vals...)}
	return &Builtin{"partial", func(ev *evaluator, more []Value, moreKw *Dict) (Value, error) {
		kw := &Dict{Keys: append([]Value{}, boundKw.Keys...), Vals: append([]Value{}, boundKw.Vals...)}
		for i, k := range moreKw.Keys {
			kw.Set(k, moreKw.Vals[i])
		}
		return ev.call(fn, append(append([]Value{}, bound...), more...), kw, ev.pos)
	}}, nil
}

// inspectSignature is inspect.signature of a host function or class, or of a function or
// class of the modelled Triton (feature probes such as
// `"cache_results" in inspect.signature(triton.autotune).parameters`).
func inspectSignature(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("signature", args, 1, 1); err != nil {
		return nil, err
	}
	var names []string
	switch f := args[0].(type) {
	case *JITFunction:
		names = ParamNames(f.Fn.Args())
	case *Function:
		names = ParamNames(f.Args())
	case *Class:
		init, ok := f.lookup("__init__")
		if fn, isFn := init.(*Function); ok && isFn {
			names = ParamNames(fn.Args())[1:]
		}
	case Ref:
		ps, ok := tritonParams(f.Path)
		if !ok {
			return unknownf("inspect.signature(%s)", f.Path), nil
		}
		names = ps
	case Unknown:
		return f, nil
	default:
		return unknownf("inspect.signature(%s)", Repr(args[0])), nil
	}
	params := &Dict{}
	for _, n := range names {
		n = strings.TrimLeft(n, "*")
		params.Set(Str(n), &Object{Class: "Parameter", Attrs: map[string]Value{"name": Str(n)}, Open: true})
	}
	return &Object{Class: "Signature", Attrs: map[string]Value{"parameters": params}, Open: true}, nil
}

// ParamNames lists a parameter list's names in signature order, with "*" before the
// name of *args and "**" before that of **kwargs.
func ParamNames(a *ast.Arguments) []string {
	out := []string{}
	for _, p := range append(append([]*ast.Arg{}, a.Posonlyargs...), a.Args...) {
		out = append(out, p.Arg)
	}
	if a.Vararg != nil {
		out = append(out, "*"+a.Vararg.Arg)
	}
	for _, p := range a.Kwonlyargs {
		out = append(out, p.Arg)
	}
	if a.Kwarg != nil {
		out = append(out, "**"+a.Kwarg.Arg)
	}
	return out
}
