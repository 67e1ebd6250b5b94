package pyeval

import (
	"math"

	"github.com/gotriton/gotriton/target"
)

// hostFunctions model the parts of triton, torch and os that host code calls while a
// module is set up: decorators, configs, and questions about the machine.
var hostFunctions = map[string]Value{}

// hostValues model attributes that are data rather than callables (os.environ, ...).
var hostValues = map[string]func(target.Target) Value{
	"os.environ":           func(target.Target) Value { return &Dict{} },
	"triton.__version__":   func(target.Target) Value { return Str(TritonVersion) },
	"torch.__version__":    func(target.Target) Value { return TorchVersionStr{TorchVersion} },
	"sys.version_info":     func(target.Target) Value { return versionInfo() },
	"sys.platform":         func(target.Target) Value { return Str("linux") },
	"typing.TYPE_CHECKING": func(target.Target) Value { return Bool(false) },
	"math.pi":              func(target.Target) Value { return Float(math.Pi) },
	"math.e":               func(target.Target) Value { return Float(math.E) },
	"math.tau":             func(target.Target) Value { return Float(2 * math.Pi) },
	"math.inf":             func(target.Target) Value { return Float(math.Inf(1)) },
	"math.nan":             func(target.Target) Value { return Float(math.NaN()) },
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
		if err := wantArgs("next_power_of_2", args, 1, 1); err != nil {
			return nil, err
		}
		switch n := intEnumValue(args[0]).(type) {
		case Int:
			return Int{nextPowerOf2(n.V)}, nil
		case Bool:
			return Int{nextPowerOf2(boolInt(n).V)}, nil
		case Unknown:
			return n, nil
		}
		return nil, typeError("unsupported operand type(s) for -=: '%s' and 'int'", args[0].TypeName())
	}, "triton.next_power_of_2")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		if len(args) != 1 {
			return nil, typeError("constexpr() takes 1 argument")
		}
		if f, ok := args[0].(*Function); ok { // @tl.constexpr on a helper function
			f.Constexpr = true
		}
		return args[0], nil
	}, "triton.language.constexpr", "triton.language.core.constexpr")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		if err := wantArgs("constexpr_function", args, 1, 1); err != nil {
			return nil, err
		}
		f, ok := args[0].(*Function)
		if !ok {
			return unknownf("triton.constexpr_function of a %s", args[0].TypeName()), nil
		}
		// Host code calls it as the plain function; kernels call it at compile time.
		f.Constexpr = true
		return f, nil
	}, "triton.constexpr_function", "triton.runtime.jit.constexpr_function")
	def(func(ev *evaluator, _ []Value, _ *Dict) (Value, error) {
		if ev.mod.target == nil {
			ev.mod.target = GPUTarget(ev.mod.Target)
		}
		return ev.mod.target, nil
	}, "triton.runtime.driver.active.get_current_target")
	def(func(ev *evaluator, _ []Value, _ *Dict) (Value, error) {
		return deviceCapability(ev.mod.Target), nil
	}, "torch.cuda.get_device_capability")
	def(func(ev *evaluator, _ []Value, _ *Dict) (Value, error) {
		return torchDeviceProperties(ev.mod.Target), nil
	}, "torch.cuda.get_device_properties")
	def(func(ev *evaluator, _ []Value, _ *Dict) (Value, error) {
		if p, ok := torchDeviceProperties(ev.mod.Target).Attrs["name"]; ok {
			return p, nil
		}
		return unknownf("torch.cuda.get_device_name()"), nil
	}, "torch.cuda.get_device_name")
	def(func(ev *evaluator, _ []Value, _ *Dict) (Value, error) {
		return NewInt(0), nil
	}, "torch.cuda.current_device", "triton.runtime.driver.active.get_current_device")
	def(func(ev *evaluator, _ []Value, _ *Dict) (Value, error) {
		return NewInt(1), nil // host code sees one GPU: the target
	}, "torch.cuda.device_count")
	def(func(ev *evaluator, _ []Value, _ *Dict) (Value, error) {
		return driverDeviceProperties(ev.mod.Target), nil
	}, "triton.runtime.driver.active.utils.get_device_properties")
	def(func(ev *evaluator, _ []Value, _ *Dict) (Value, error) {
		return Bool(!ev.mod.Target.IsNVIDIA()), nil
	}, "triton.runtime.driver.active.utils.is_hip")
	def(finfo, "torch.finfo")
	def(iinfo, "torch.iinfo")
	def(versionParse, "packaging.version.Version", "packaging.version.parse")
	def(metadataVersion, "importlib.metadata.version", "importlib_metadata.version")
	def(func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if len(args) == 0 {
			return nil, typeError("wraps() missing 1 required positional argument: 'wrapped'")
		}
		return &Builtin{"wraps", func(_ *evaluator, fargs []Value, _ *Dict) (Value, error) {
			if len(fargs) != 1 {
				return nil, typeError("decorator takes 1 argument")
			}
			return fargs[0], nil // the wrapper, which host code then calls
		}}, nil
	}, "functools.wraps")
	def(identityDecorator, "functools.lru_cache", "functools.cache", "typing.overload",
		"typing.no_type_check", "typing.final", "enum.unique", "torch.no_grad", "torch.compiler.disable",
		"torch._dynamo.disable", "torch.amp.custom_fwd", "torch.amp.custom_bwd", "torch.cuda.amp.custom_fwd",
		"torch.cuda.amp.custom_bwd", "torch.compile", "torch.jit.script", "torch.jit.ignore", "torch.fx.wrap",
		"torch.compiler.allow_in_graph", "torch._dynamo.allow_in_graph", "torch.inference_mode")
	def(func(_ *evaluator, _ []Value, _ *Dict) (Value, error) {
		return Bool(false), nil // modules are imported, not traced by torch.compile
	}, "torch.compiler.is_compiling", "torch._dynamo.is_compiling", "torch.jit.is_scripting")
	def(func(_ *evaluator, _ []Value, _ *Dict) (Value, error) {
		return Str("x86_64"), nil
	}, "platform.machine")
	def(func(_ *evaluator, _ []Value, _ *Dict) (Value, error) {
		return Str("Linux"), nil
	}, "platform.system")
	def(dataclassDecorator, "dataclasses.dataclass")
	def(func(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
		return dataField{kwargs.Get(Str("default")), kwargs.Get(Str("default_factory"))}, nil
	}, "dataclasses.field")
	def(func(_ *evaluator, _ []Value, _ *Dict) (Value, error) { return enumAuto{}, nil }, "enum.auto")
	def(func(ev *evaluator, _ []Value, _ *Dict) (Value, error) {
		return Bool(ev.mod.Target.IsNVIDIA()), nil
	}, "torch.cuda.is_available")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		return orDefault(kw(args, kwargs, 1, "default"), None), nil
	}, "os.getenv", "os.environ.get")
}

// identityDecorator implements decorators that leave host functions as they are for
// compile-time purposes (caches, typing markers, autocast and compile wrappers), used bare
// (@functools.cache), on a function with options (torch.amp.custom_fwd(fn,
// device_type="cuda")) or with options only (@functools.lru_cache(maxsize=None)).
func identityDecorator(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
	if len(args) >= 1 {
		switch args[0].(type) {
		case *Function, *Class, *JITFunction, *Builtin:
			return args[0], nil
		case Unknown:
			return args[0], nil
		case Ref, *Instance, *Object: // torch.compile(model): what it wraps is host state
			return unknownf("a wrapper of %s", Repr(args[0])), nil
		}
	}
	return &Builtin{"decorator", func(_ *evaluator, fargs []Value, _ *Dict) (Value, error) {
		if len(fargs) != 1 {
			return nil, typeError("decorator takes 1 argument")
		}
		return fargs[0], nil
	}}, nil
}

// dataclassDecorator implements @dataclass and @dataclass(...): the class's annotated
// names become its fields.
func dataclassDecorator(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
	mark := func(v Value) Value {
		if c, ok := v.(*Class); ok && c.Kind == PlainClass {
			c.Kind = DataClass
		}
		return v
	}
	if len(args) == 1 {
		return mark(args[0]), nil
	}
	return &Builtin{"dataclass", func(_ *evaluator, fargs []Value, _ *Dict) (Value, error) {
		if len(fargs) != 1 {
			return nil, typeError("dataclass() takes 1 argument")
		}
		return mark(fargs[0]), nil
	}}, nil
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
		if v := kwargs.Get(Str("debug")); v != nil && v != None {
			j.Debug = v
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
