package pyeval

import (
	"fmt"
	"strings"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/target"
)

// Function is a Python function (def or lambda) defined in an evaluated module.
type Function struct {
	Name   string
	Def    *ast.FunctionDef // nil for a lambda
	Lambda *ast.Lambda      // nil for a def
	Module *Module
	// Constexpr is set for a function decorated with @triton.constexpr_function or
	// @tl.constexpr, which kernels call at compile time on constexpr values.
	Constexpr bool
	scope     *scope // the scope the function was defined in (closures)
}

func (*Function) TypeName() string { return "function" }
func (f *Function) String() string { return "<function " + f.Name + ">" }

// rescoped returns the function defined in scope s instead.
func (f *Function) rescoped(s *scope) *Function {
	g := *f
	g.scope = s
	return &g
}

// Args returns the function's parameter list.
func (f *Function) Args() *ast.Arguments {
	if f.Def != nil {
		return f.Def.Args
	}
	return f.Lambda.Args
}

// Ref is a name inside a module that gotriton models rather than evaluates: `triton.jit`,
// `tl.float16`, `torch.float32`, `libdevice.asin`. Path is the fully qualified dotted name
// after import aliases are resolved (e.g. "triton.language.float16").
type Ref struct{ Path string }

func (Ref) TypeName() string { return "ref" }
func (r Ref) String() string { return r.Path }

// Decorator is one decorator as written in the source.
type Decorator struct {
	Text string // the source text, without '@'
	Path string // the resolved qualified name of the callee, e.g. "triton.autotune"; "" if unknown
	Line int
}

// JITFunction is a function wrapped by @triton.jit (directly or through triton.jit(fn)).
type JITFunction struct {
	Fn                         *Function
	DoNotSpecialize            []Value // parameter names or indices
	DoNotSpecializeOnAlignment []Value
	LaunchMetadata             string // source text of launch_metadata=, if given
	Noinline                   bool
	Debug                      Value       // debug=, if given and not None: a launch without its own debug takes it
	Autotune                   *Autotune   // nil unless wrapped by @triton.autotune
	Heuristics                 *Dict       // name -> Function (lambda of the args dict); nil if none
	Decorators                 []Decorator // all decorators of the def, outermost first
}

func (*JITFunction) TypeName() string { return "JITFunction" }
func (j *JITFunction) String() string { return "<JITFunction " + j.Fn.Name + ">" }

// Autotune is the evaluated arguments of @triton.autotune.
type Autotune struct {
	Configs Value // a *List of *Config, or Unknown
	Key     Value
	// PruneConfigsBy is the prune_configs_by dict (early_config_prune, perf_model,
	// top_k), or nil.
	PruneConfigsBy *Dict
}

// Config is a triton.Config.
type Config struct {
	Kwargs      *Dict
	NumWarps    Value
	NumStages   Value
	NumCtas     Value
	Maxnreg     Value
	PreHook     Value
	OtherKwargs *Dict
}

func (*Config) TypeName() string { return "Config" }
func (c *Config) String() string {
	parts := []string{Repr(c.Kwargs)}
	for _, kv := range []struct {
		k string
		v Value
	}{{"num_warps", c.NumWarps}, {"num_stages", c.NumStages}, {"num_ctas", c.NumCtas}, {"maxnreg", c.Maxnreg}} {
		if kv.v != nil && kv.v != None {
			parts = append(parts, kv.k+"="+Repr(kv.v))
		}
	}
	return "triton.Config(" + strings.Join(parts, ", ") + ")"
}

// Attr returns the config attribute read by host code (conf.kwargs, conf.num_warps, ...).
func (c *Config) Attr(name string) (Value, bool) {
	switch name {
	case "kwargs":
		return c.Kwargs, true
	case "num_warps":
		return c.NumWarps, true
	case "num_stages":
		return c.NumStages, true
	case "num_ctas":
		return c.NumCtas, true
	case "maxnreg":
		return c.Maxnreg, true
	case "pre_hook":
		return c.PreHook, true
	}
	return nil, false
}

// Object is a host object with fixed attributes, e.g. the target that
// triton.runtime.driver.active.get_current_target() returns. An Open object models only
// some of its attributes: the others are Unknown rather than missing.
type Object struct {
	Class string
	Attrs map[string]Value
	Open  bool
}

func (o *Object) TypeName() string { return o.Class }

// Builtin is a Go-implemented callable.
type Builtin struct {
	Name string
	Fn   func(ev *evaluator, args []Value, kwargs *Dict) (Value, error)
}

func (*Builtin) TypeName() string { return "builtin_function_or_method" }
func (b *Builtin) String() string { return "<built-in function " + b.Name + ">" }

// boundMethod is a method of a builtin value (d.get, s.upper, ...).
type boundMethod struct {
	recv Value
	name string
}

func (boundMethod) TypeName() string { return "method" }

// GPUTarget is what `triton.runtime.driver.active.get_current_target()` (and
// triton.language.target_info.current_target()) answers for target t: a GPUTarget with
// backend, arch (the compute capability as an int for CUDA, the gfx name for HIP) and
// warp_size.
func GPUTarget(t target.Target) *Object {
	var arch Value = Str(t.Arch)
	if t.IsNVIDIA() {
		arch = NewInt(int64(t.Capability))
	}
	return &Object{Class: "GPUTarget", Attrs: map[string]Value{
		"backend": Str(string(t.Backend)), "arch": arch, "warp_size": NewInt(int64(t.WarpSize)),
	}}
}

// deviceCapability is what `torch.cuda.get_device_capability()` answers: (9, 0) for
// sm_90; on ROCm, torch reports gfx9XY as (9, X) (gfx942 is (9, 4)).
func deviceCapability(t target.Target) Tuple {
	if t.IsNVIDIA() {
		return Tuple{NewInt(int64(t.Capability / 10)), NewInt(int64(t.Capability % 10))}
	}
	major, minor := int64(9), int64(0)
	if a := strings.TrimPrefix(t.Arch, "gfx"); len(a) >= 2 && a[0] >= '0' && a[0] <= '9' {
		major = int64(a[0] - '0')
		if a[1] >= '0' && a[1] <= '9' {
			minor = int64(a[1] - '0')
		}
	}
	return Tuple{NewInt(major), NewInt(minor)}
}

func unknownf(format string, args ...any) Unknown { return Unknown{fmt.Sprintf(format, args...)} }
