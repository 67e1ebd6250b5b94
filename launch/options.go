package launch

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/target"
)

// CompileOptions are the compile options a launch (or its autotune config) gives besides
// num_warps and num_stages: the fields of Triton's CUDAOptions and HIPOptions that gotriton
// compiles with. A nil or zero field is one the launch leaves out (or passes as None,
// which Triton's parse_options drops); the compiler's flags then decide it.
type CompileOptions struct {
	EnableFPFusion   *bool // enable_fp_fusion
	EnableReflectFTZ *bool // enable_reflect_ftz (CUDA)
	MaxNReg          int   // maxnreg (CUDA): .maxnreg on the kernel's .entry
	// MatrixInstrNonKDim is matrix_instr_nonkdim (HIP): the M and N of the MFMA
	// instruction of every tl.dot, 16 or 32; 0 lets the backend choose.
	MatrixInstrNonKDim *int
	// LaunchPDL and LaunchCooperativeGrid (launch_pdl, CUDA; launch_cooperative_grid) are
	// how the launcher starts the kernel; its code is the same.
	LaunchPDL             bool
	LaunchCooperativeGrid bool
	Debug                 bool // debug: tl.device_assert and assert statements kept
}

// String is the options given, as the launch's keywords in a fixed order; "" when none.
func (o CompileOptions) String() string {
	var parts []string
	if o.EnableFPFusion != nil {
		parts = append(parts, "enable_fp_fusion="+pyBool(*o.EnableFPFusion))
	}
	if o.EnableReflectFTZ != nil {
		parts = append(parts, "enable_reflect_ftz="+pyBool(*o.EnableReflectFTZ))
	}
	if o.MaxNReg > 0 {
		parts = append(parts, "maxnreg="+strconv.Itoa(o.MaxNReg))
	}
	if o.MatrixInstrNonKDim != nil {
		parts = append(parts, "matrix_instr_nonkdim="+strconv.Itoa(*o.MatrixInstrNonKDim))
	}
	for _, f := range []struct {
		name string
		on   bool
	}{{"launch_pdl", o.LaunchPDL}, {"launch_cooperative_grid", o.LaunchCooperativeGrid}, {"debug", o.Debug}} {
		if f.on {
			parts = append(parts, f.name+"=True")
		}
	}
	return strings.Join(parts, " ")
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// launchOptions are the keywords a launch may pass besides the kernel's parameters: the
// fields of Triton 3.6's CUDAOptions and HIPOptions (any other keyword is a KeyError in
// JITFunction._pack_args). Those not in honoured are accepted and do not change the code.
var launchOptions = map[target.Backend]map[string]bool{
	target.CUDA: setOf("num_warps num_ctas num_stages warp_size maxnreg ptx_version ptx_options ir_override enable_fp_fusion " +
		"enable_reflect_ftz launch_cooperative_grid launch_pdl supported_fp8_dtypes deprecated_fp8_dot_operand_dtypes " +
		"default_dot_input_precision allowed_dot_input_precisions max_num_imprecise_acc_default extern_libs debug " +
		"backend_name sanitize_overflow arch instrumentation_mode"),
	target.HIP: setOf("num_warps waves_per_eu num_stages num_ctas extern_libs debug sanitize_overflow arch supported_fp8_dtypes " +
		"deprecated_fp8_dot_operand_dtypes default_dot_input_precision allowed_dot_input_precisions enable_fp_fusion " +
		"launch_cooperative_grid matrix_instr_nonkdim kpack allow_flush_denorm max_num_imprecise_acc_default backend_name " +
		"instrumentation_mode schedule_hint"),
}

func setOf(words string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(words) {
		out[w] = true
	}
	return out
}

// otherBackend names the backend whose options have name when b's do not, or "".
func otherBackend(b target.Backend, name string) target.Backend {
	for ob, names := range launchOptions {
		if ob != b && names[name] {
			return ob
		}
	}
	return ""
}

// jitLine is " at line N" for the line of j's @triton.jit decorator, or "".
func jitLine(j *pyeval.JITFunction) string {
	for _, d := range j.Decorators {
		if d.Path == "triton.jit" {
			return fmt.Sprintf(" at line %d", d.Line)
		}
	}
	return ""
}

// honoured are the options gotriton compiles with, in the order they are read: what a
// value must be, and how it sets a Spec (false: the value is not that).
var honoured = []struct {
	name, want string
	set        func(s *Spec, v pyeval.Value) bool
}{
	{"num_warps", "a power of 2", func(s *Spec, v pyeval.Value) bool {
		n, ok := smallInt(v)
		s.NumWarps = n
		return ok && n > 0 && n&(n-1) == 0
	}},
	{"num_stages", "a non-negative int", func(s *Spec, v pyeval.Value) bool {
		n, ok := smallInt(v)
		s.NumStages = n
		return ok && n >= 0
	}},
	{"maxnreg", "a positive int (registers per thread)", func(s *Spec, v pyeval.Value) bool {
		n, ok := smallInt(v)
		s.Compile.MaxNReg = n
		return ok && n > 0
	}},
	{"matrix_instr_nonkdim", "0, 16 or 32", func(s *Spec, v pyeval.Value) bool {
		n, ok := smallInt(v)
		s.Compile.MatrixInstrNonKDim = &n
		return ok && (n == 0 || n == 16 || n == 32)
	}},
	{"enable_fp_fusion", "True or False", boolOption(func(o *CompileOptions, b bool) { o.EnableFPFusion = &b })},
	{"enable_reflect_ftz", "True or False", boolOption(func(o *CompileOptions, b bool) { o.EnableReflectFTZ = &b })},
	{"launch_pdl", "True or False", boolOption(func(o *CompileOptions, b bool) { o.LaunchPDL = b })},
	{"launch_cooperative_grid", "True or False", boolOption(func(o *CompileOptions, b bool) { o.LaunchCooperativeGrid = b })},
	{"debug", "True or False", boolOption(func(o *CompileOptions, b bool) { o.Debug = b })},
}

func boolOption(set func(o *CompileOptions, b bool)) func(s *Spec, v pyeval.Value) bool {
	return func(s *Spec, v pyeval.Value) bool {
		b, ok := v.(pyeval.Bool)
		set(&s.Compile, bool(b))
		return ok
	}
}

// smallInt is v as an int, when it is an int that fits in 32 bits.
func smallInt(v pyeval.Value) (int, bool) {
	i, ok := v.(pyeval.Int)
	if !ok {
		return 0, false
	}
	n, ok := i.Int64()
	return int(n), ok && n >= -1<<31 && n < 1<<31
}

// configOptions are the options a triton.Config gives, as Config.all_kwargs passes them to
// the launch: its num_warps, num_stages, num_ctas and maxnreg that are not None, and the
// keywords of its kwargs that name no parameter of the kernel (params), which the launch
// hands to the backend's options as it does its own (tutorial 03's HIP configs set
// matrix_instr_nonkdim that way).
func configOptions(c *pyeval.Config, params map[string]bool) []optionValue {
	var out []optionValue
	for _, o := range []optionValue{{"num_warps", c.NumWarps}, {"num_stages", c.NumStages}, {"num_ctas", c.NumCtas}, {"maxnreg", c.Maxnreg}} {
		if o.v != nil && o.v != pyeval.None {
			out = append(out, o)
		}
	}
	for i, key := range c.Kwargs.Keys {
		if name := pyeval.ToStr(key); !params[name] {
			out = append(out, optionValue{name, c.Kwargs.Vals[i]})
		}
	}
	return out
}

type optionValue struct {
	name string
	v    pyeval.Value
}

// compileOptions sets spec's num_warps, num_stages and CompileOptions from the launch's
// option keywords and the autotune config cfg (index ci; nil when none), as Triton
// resolves them: a None is left out, and the launch and the config giving the same option
// is Python's "got multiple values" (Autotuner.run passes both as keywords). It reports
// false after recording an error or the reason a value is not known.
func (in *inferrer) compileOptions(kr *Kernel, l *pyeval.Launch, options map[string]pyeval.Value, cfg *pyeval.Config, ci int, params map[string]bool, spec *Spec) bool {
	vals := map[string]pyeval.Value{}
	for name, v := range options {
		if v != pyeval.None {
			vals[name] = v
		}
	}
	// JITFunction.run: kwargs.get("debug", self.debug), the decorator's when the launch
	// gives none (None included)
	fromJIT := false
	if _, given := options["debug"]; !given && kr.Kernel.JIT != nil && kr.Kernel.JIT.Debug != nil {
		vals["debug"], fromJIT = kr.Kernel.JIT.Debug, true
	}
	fromConfig := map[string]bool{}
	if cfg != nil {
		backend := in.f.Module.Target.Backend
		for _, o := range configOptions(cfg, params) {
			switch {
			case vals[o.name] != nil:
				kr.fail(in.errAtNode(l.ArgExprs[o.name], l.Pos, "'%s' got multiple values for keyword argument '%s': the launch gives it, and so does autotune config %d (%s)", kr.Kernel.Name, o.name, ci, cfg))
				return false
			case !launchOptions[backend][o.name]:
				why := fmt.Sprintf("'%s' has no such parameter (%s)", kr.Kernel.Name, paramList(kr.Kernel))
				if ob := otherBackend(backend, o.name); ob != "" {
					why = fmt.Sprintf("it is a %s option, which target %s does not take", ob, backend)
				}
				kr.fail(in.errAtPos(l.Pos, "keyword argument %s was specified but unrecognised: autotune config %d (%s) sets it, and %s", o.name, ci, cfg, why))
				return false
			}
			vals[o.name] = o.v
			fromConfig[o.name] = true
		}
	}
	spec.NumWarps, spec.NumStages = 4, in.f.Module.Target.JITNumStages()
	site := fmt.Sprintf("%s:%d", in.f.Path, l.Pos.Lineno)
	for _, h := range honoured {
		v := vals[h.name]
		if v == nil {
			continue
		}
		fromDecorator := fromJIT && h.name == "debug"
		source := fmt.Sprintf(" (autotune config %d)", ci)
		switch {
		case fromDecorator:
			source = " (the kernel's @triton.jit(debug=...)" + jitLine(kr.Kernel.JIT) + ")"
		case !fromConfig[h.name]:
			source = in.exprSource(l.ArgExprs[h.name])
		}
		if u, ok := v.(pyeval.Unknown); ok {
			kr.Unknown = append(kr.Unknown, fmt.Sprintf("the launch option %s is not known offline: %s%s; launched at %s", h.name, u.Why, source, site))
			return false
		}
		if !h.set(spec, v) {
			msg := fmt.Sprintf("launch option %s must be %s, not %s", h.name, h.want, pyeval.Repr(v))
			switch {
			case fromConfig[h.name]:
				kr.fail(in.errAtPos(l.Pos, "%s, in autotune config %d (%s)", msg, ci, cfg))
			case fromDecorator:
				kr.fail(in.errAtPos(l.Pos, "%s, given by the kernel's @triton.jit(debug=...)%s", msg, jitLine(kr.Kernel.JIT)))
			default:
				kr.fail(in.errAtNode(l.ArgExprs[h.name], l.Pos, "%s", msg))
			}
			return false
		}
	}
	return true
}
