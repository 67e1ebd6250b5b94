package pyeval

import (
	"math/big"

	"github.com/gotriton/gotriton/target"
)

// hostFunctions model the parts of triton, torch and os that host code calls while a
// module is set up: decorators, configs, and questions about the machine.
var hostFunctions map[string]Value

// hostValues model attributes that are data rather than callables (os.environ, ...).
var hostValues = map[string]func(target.Target) Value{
	"os.environ":         func(target.Target) Value { return &Dict{} },
	"triton.__version__": func(target.Target) Value { return Str("3.6.0") },
}

// kw returns keyword argument name, or the positional argument at index pos, or nil.
func kw(args []Value, kwargs *Dict, pos int, name string) Value {
	if v := kwargs.Get(Str(name)); v != nil {
		return v
	}
	if pos >= 0 && pos < len(args) {
		return args[pos]
	}
	return nil
}

func orDefault(v, def Value) Value {
	if v == nil {
		return def
	}
	return v
}

func init() {
	hostFunctions = map[string]Value{}
	def := func(f func(ev *evaluator, args []Value, kwargs *Dict) (Value, error), paths ...string) {
		for _, p := range paths {
			hostFunctions[p] = &Builtin{p, f}
		}
	}
	def(jitDecorator, "triton.jit", "triton.runtime.jit", "triton.runtime.jit.jit")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		at := &Autotune{Configs: orDefault(kw(args, kwargs, 0, "configs"), &List{}), Key: orDefault(kw(args, kwargs, 1, "key"), &List{})}
		at.PruneConfigsBy, _ = kw(args, kwargs, 2, "prune_configs_by").(*Dict)
		return &Builtin{"autotune", func(_ *evaluator, fargs []Value, _ *Dict) (Value, error) {
			if j, ok := firstJIT(fargs); ok {
				j.Autotune = at
				return j, nil
			}
			return unknownf("@triton.autotune applied to a non-jit function"), nil
		}}, nil
	}, "triton.autotune", "triton.runtime.autotune", "triton.runtime.autotuner.autotune")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		values, _ := kw(args, kwargs, 0, "values").(*Dict)
		return &Builtin{"heuristics", func(_ *evaluator, fargs []Value, _ *Dict) (Value, error) {
			if j, ok := firstJIT(fargs); ok {
				if j.Heuristics == nil {
					j.Heuristics = &Dict{}
				}
				if values != nil {
					for i, k := range values.Keys {
						j.Heuristics.Set(k, values.Vals[i])
					}
				}
				return j, nil
			}
			return unknownf("@triton.heuristics applied to a non-jit function"), nil
		}}, nil
	}, "triton.heuristics", "triton.runtime.heuristics", "triton.runtime.autotuner.heuristics")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		c := &Config{
			NumWarps:  orDefault(kw(args, kwargs, 1, "num_warps"), NewInt(4)),
			NumStages: orDefault(kw(args, kwargs, 2, "num_stages"), NewInt(3)),
			NumCtas:   orDefault(kw(args, kwargs, 3, "num_ctas"), NewInt(1)),
			Maxnreg:   orDefault(kw(args, kwargs, 4, "maxnreg"), None),
			PreHook:   orDefault(kw(args, kwargs, 5, "pre_hook"), None),
		}
		d, ok := kw(args, kwargs, 0, "kwargs").(*Dict)
		if !ok {
			return unknownf("triton.Config without a dict of meta-parameters"), nil
		}
		c.Kwargs = d
		return c, nil
	}, "triton.Config", "triton.runtime.Config", "triton.runtime.autotuner.Config")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		if len(args) != 2 {
			return nil, typeError("cdiv() takes 2 arguments")
		}
		sum, err := BinOp("+", args[0], args[1])
		if err != nil {
			return nil, err
		}
		sum, err = BinOp("-", sum, NewInt(1))
		if err != nil {
			return nil, err
		}
		return BinOp("//", sum, args[1])
	}, "triton.cdiv")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		n, ok := args[0].(Int)
		if !ok || len(args) != 1 {
			return unknownf("next_power_of_2(%s)", joinRepr(args)), nil
		}
		p := big.NewInt(1)
		for p.Cmp(n.V) < 0 {
			p.Lsh(p, 1)
		}
		return Int{p}, nil
	}, "triton.next_power_of_2")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		if len(args) != 1 {
			return nil, typeError("constexpr() takes 1 argument")
		}
		return args[0], nil
	}, "triton.language.constexpr", "triton.language.core.constexpr")
	def(func(ev *evaluator, _ []Value, _ *Dict) (Value, error) {
		if ev.mod.target == nil {
			ev.mod.target = gpuTarget(ev.mod.Target)
		}
		return ev.mod.target, nil
	}, "triton.runtime.driver.active.get_current_target")
	def(func(ev *evaluator, _ []Value, _ *Dict) (Value, error) {
		return deviceCapability(ev.mod.Target), nil
	}, "torch.cuda.get_device_capability")
	def(func(ev *evaluator, _ []Value, _ *Dict) (Value, error) {
		return Bool(ev.mod.Target.IsNVIDIA()), nil
	}, "torch.cuda.is_available")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		return orDefault(kw(args, kwargs, 1, "default"), None), nil
	}, "os.getenv", "os.environ.get")
	builtins["hasattr"] = &Builtin{"hasattr", func(ev *evaluator, args []Value, _ *Dict) (Value, error) {
		if len(args) != 2 {
			return nil, typeError("hasattr expected 2 arguments")
		}
		if _, ok := args[0].(Ref); ok {
			return Bool(true), nil // the modelled Triton 3.6 has every public name
		}
		return unknownf("hasattr on %s", args[0].TypeName()), nil
	}}
}

// jitDecorator implements triton.jit, used bare (@triton.jit) or with options
// (@triton.jit(do_not_specialize=[...])).
func jitDecorator(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
	apply := func(fn *Function) *JITFunction {
		j := &JITFunction{Fn: fn}
		if v, ok := kwargs.Get(Str("do_not_specialize")).(*List); ok {
			j.DoNotSpecialize = v.Elems
		} else if v, ok := kwargs.Get(Str("do_not_specialize")).(Tuple); ok {
			j.DoNotSpecialize = v
		}
		if v, ok := kwargs.Get(Str("do_not_specialize_on_alignment")).(*List); ok {
			j.DoNotSpecializeOnAlignment = v.Elems
		}
		if v := kwargs.Get(Str("launch_metadata")); v != nil {
			switch f := v.(type) {
			case *Function:
				j.LaunchMetadata = f.Name
			default:
				j.LaunchMetadata = Repr(v)
			}
		}
		if v, ok := kwargs.Get(Str("noinline")).(Bool); ok {
			j.Noinline = bool(v)
		}
		return j
	}
	if len(args) == 1 {
		if fn, ok := args[0].(*Function); ok {
			return apply(fn), nil
		}
		return unknownf("triton.jit of a %s", args[0].TypeName()), nil
	}
	return &Builtin{"jit", func(_ *evaluator, fargs []Value, _ *Dict) (Value, error) {
		if len(fargs) == 1 {
			if fn, ok := fargs[0].(*Function); ok {
				return apply(fn), nil
			}
		}
		return unknownf("triton.jit(...) applied to a non-function"), nil
	}}, nil
}

func firstJIT(args []Value) (*JITFunction, bool) {
	if len(args) == 1 {
		j, ok := args[0].(*JITFunction)
		return j, ok
	}
	return nil, false
}
