// Package launch infers the specializations a Triton file compiles, from the file's own
// launch sites, as `python FILE` would make them, with no flags: it runs the file's host
// code as a script with tensors tracked abstractly (pyeval's script mode), and turns
// every KERNEL[grid](...) launch it reaches into one specialization per autotune config,
// with Triton 3.6's rules (python/triton/runtime/jit.py, python/src/specialize.cc):
//
//   - a tensor is a pointer to its dtype, ":16" when its data pointer is 16-byte aligned
//     (every torch allocation is);
//   - an int equal to 1 is the constant 1, an int divisible by 16 is ":16", and its type is
//     i32, i64 or u64 by range; a bool is u1 and a float fp32, never specialized;
//   - do_not_specialize and do_not_specialize_on_alignment are honoured;
//   - constexprs come from the launch's arguments, the autotune config, heuristics and
//     defaults, in that order; num_warps and num_stages from the launch or the config, else
//     4 and 3; enable_fp_fusion, enable_reflect_ftz, maxnreg, launch_pdl,
//     launch_cooperative_grid and debug from the launch (maxnreg also from the config) into
//     CompileOptions. A distinct option value is a distinct specialization, as in Triton's
//     cache key; an option the target does not take, or a value of the wrong type, is an
//     error at the launch.
//
// A kernel the script does not launch is specialized from the launches of the file's
// pytest tests (test_* functions, called once per @pytest.mark.parametrize combination),
// else under a signature guessed from its parameters and its static launch sites when
// that suffices; otherwise the reason is reported, naming the parameter.
package launch

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/diag"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

// Options configures inference.
type Options struct {
	// Constants set a parameter by name in every kernel that has one (-c NAME=VALUE).
	Constants map[string]pyeval.Value
	// Steps bounds the host code evaluation; 0 means pyeval's default for scripts.
	Steps int
}

// Spec is one inferred specialization of a kernel.
type Spec struct {
	// Signature has one entry per kernel parameter, in ParseSignature's syntax.
	Signature []string
	NumWarps  int
	NumStages int
	// Compile holds the launch's other compile options.
	Compile CompileOptions
	// Config is the autotune config's index, or -1.
	Config int
	// Benchmarked is true when the config is one of several the autotuner benchmarks:
	// Triton skips such a config when it fails a static assertion.
	Benchmarked bool
	// Site is where the launch is: file:line.
	Site string
	// Guessed marks a signature guessed from the parameters, not from a launch.
	Guessed bool
}

// SignatureText is the signature as -s takes it.
func (s Spec) SignatureText() string { return strings.Join(s.Signature, ", ") }

// Options is the specialization as semantic takes it.
func (s Spec) Options(target string) semantic.Options {
	return semantic.Options{SignatureText: s.SignatureText(), NumWarps: s.NumWarps, NumStages: s.NumStages, Target: target, Debug: s.Compile.Debug}
}

// String is the specialization on one line: signature, launch options, config and site.
func (s Spec) String() string {
	out := fmt.Sprintf("%s | num_warps=%d num_stages=%d", s.SignatureText(), s.NumWarps, s.NumStages)
	if o := s.Compile.String(); o != "" {
		out += " " + o
	}
	if s.Config >= 0 {
		out += fmt.Sprintf(" config=%d", s.Config)
	}
	if s.Guessed {
		return out + " | guessed"
	}
	return out + " | " + s.Site
}

// SkippedByAutotuner reports whether Triton's autotuner would drop the specialization
// for the compile error err instead of failing: it benchmarks several configs and skips
// those that fail a static assertion (CompileTimeAssertionFailure in Autotuner._bench).
func (s Spec) SkippedByAutotuner(err error) bool {
	d, ok := diag.As(err)
	return s.Benchmarked && ok && strings.HasPrefix(d.Msg, "Static assertion failed")
}

// Kernel is what inference found for one kernel of the file.
type Kernel struct {
	Kernel *frontend.Kernel
	Specs  []Spec
	// Errors are launches Triton would reject (wrong argument count, a parameter given
	// twice, an unknown keyword), as positioned errors.
	Errors []error
	// Unknown explains, for each launch that could not be specialized, which parameter
	// depends on what.
	Unknown []string
	// Launched is true when the script reached a launch of the kernel.
	Launched bool
}

// Result is the inference of one file.
type Result struct {
	// Kernels are the file's kernels, helpers called only from other jit functions left
	// out, in source order.
	Kernels []*Kernel
	// Skipped lists host statements the script run could not evaluate.
	Skipped []error
}

// Infer runs the file's host code and infers every kernel's specializations.
func Infer(f *frontend.File, opts Options) *Result {
	sr := f.Module.RunScript(opts.Steps)
	in := &inferrer{f: f, opts: opts, script: sr.Module, byDef: map[*ast.FunctionDef]*Kernel{}}
	res := &Result{Skipped: sr.Skipped}
	for _, k := range f.Kernels {
		kr := &Kernel{Kernel: k}
		in.byDef[k.Def] = kr
		res.Kernels = append(res.Kernels, kr)
	}
	in.launches(sr.Launches, nil)
	// Kernels the script does not launch may be launched by the file's pytest tests.
	unreached := map[*Kernel]bool{}
	for _, kr := range res.Kernels {
		if !kr.Launched && !isHelper(f, kr.Kernel) {
			unreached[kr] = true
		}
	}
	if len(unreached) > 0 {
		in.launches(sr.RunTests(opts.Steps), unreached)
	}
	guessed := in.hostFunctionLaunches(sr, res.Kernels)
	var out []*Kernel
	for _, kr := range res.Kernels {
		if !kr.Launched {
			if isHelper(f, kr.Kernel) {
				continue
			}
			switch probe := guessed[kr]; {
			case in.inductor(kr):
			case probe != nil && len(probe.Specs) > 0:
				for _, s := range probe.Specs {
					s.Guessed = true
					kr.add(s)
				}
			default:
				in.guess(kr)
			}
		}
		out = append(out, kr)
	}
	res.Kernels = out
	return res
}

// launches specializes each launch of a kernel of the file (of only kernels, when not
// nil).
func (in *inferrer) launches(ls []*pyeval.Launch, only map[*Kernel]bool) {
	for _, l := range ls {
		kr := in.byDef[l.Kernel.Fn.Def]
		if kr == nil || (only != nil && !only[kr]) {
			continue // a kernel of another file, or one the script launched
		}
		kr.Launched = true
		in.launch(kr, l)
	}
}

type inferrer struct {
	f      *frontend.File
	opts   Options
	script *pyeval.Module
	byDef  map[*ast.FunctionDef]*Kernel
}

func (in *inferrer) errAt(n ast.Node, format string, args ...any) *diag.Error {
	p := n.Position()
	return diag.New(in.f.Path, in.f.Src, diag.Span{Line: int(p.Lineno), Col: int(p.ColOffset), EndLine: int(p.EndLineno), EndCol: int(p.EndColOffset)}, format, args...)
}

func (in *inferrer) errAtPos(p ast.Pos, format string, args ...any) *diag.Error {
	return diag.New(in.f.Path, in.f.Src, diag.Span{Line: int(p.Lineno), Col: int(p.ColOffset), EndLine: int(p.EndLineno), EndCol: int(p.EndColOffset)}, format, args...)
}

// launch turns one launch into specializations, one per autotune config.
func (in *inferrer) launch(kr *Kernel, l *pyeval.Launch) {
	k := kr.Kernel
	site := fmt.Sprintf("%s:%d", in.f.Path, l.Pos.Lineno)
	params := map[string]bool{}
	for _, p := range k.Params {
		params[p.Name] = true
	}
	paramKw, options := &pyeval.Dict{}, map[string]pyeval.Value{}
	optionNames := launchOptions[in.f.Module.Target.Backend]
	for i, key := range l.Kwargs.Keys {
		name := pyeval.ToStr(key)
		switch {
		case params[name]:
			paramKw.Set(key, l.Kwargs.Vals[i])
			if optionNames[name] {
				options[name] = l.Kwargs.Vals[i]
			}
		case optionNames[name]:
			options[name] = l.Kwargs.Vals[i]
		default:
			why := fmt.Sprintf("'%s' has no such parameter (%s)", k.Name, paramList(k))
			if b := in.f.Module.Target.Backend; otherBackend(b, name) != "" {
				why += fmt.Sprintf(", and %s is a %s option, which target %s does not take", name, otherBackend(b, name), b)
			}
			kr.fail(in.errAtNode(l.ArgExprs[name], l.Pos, "keyword argument %s was specified but unrecognised: %s", name, why))
			return
		}
	}
	configs := []*pyeval.Config{nil}
	configIndex := map[*pyeval.Config]int{}
	j := l.Kernel
	if at := j.Autotune; at != nil {
		list, ok := at.Configs.(*pyeval.List)
		if !ok {
			kr.Unknown = append(kr.Unknown, fmt.Sprintf("the autotune configs of '%s' are not known offline: %s; launched at %s", k.Name, pyeval.Repr(at.Configs), site))
			return
		}
		configs = configsOf(list)
		for i, c := range configs {
			configIndex[c] = i
		}
		if len(configs) == 0 {
			configs = []*pyeval.Config{nil}
		}
		if len(configs) > 1 && at.PruneConfigsBy != nil {
			pruned, err := in.prune(at.PruneConfigsBy, k, list, l)
			if err != nil {
				kr.Unknown = append(kr.Unknown, fmt.Sprintf("%v; launched at %s", err, site))
				return
			}
			configs = pruned
		}
	}
	for _, cfg := range configs {
		ci := configIndex[cfg]
		kw := &pyeval.Dict{Keys: append([]pyeval.Value{}, paramKw.Keys...), Vals: append([]pyeval.Value{}, paramKw.Vals...)}
		if cfg != nil {
			for i, key := range cfg.Kwargs.Keys {
				if !params[pyeval.ToStr(key)] {
					continue // an option: compileOptions reads it
				}
				if kw.Get(key) != nil {
					kr.fail(in.errAtPos(l.Pos, "conflicting meta-parameters: %s is given by the launch and by the autotune config; make sure that you don't re-define auto-tuned symbols", pyeval.ToStr(key)))
					return
				}
				kw.Set(key, cfg.Kwargs.Vals[i])
			}
		}
		args := append([]pyeval.Value{}, l.Args...)
		for name, v := range in.opts.Constants {
			if !params[name] {
				continue
			}
			if i := paramIndex(k, name); i < len(args) {
				args[i] = v
			} else {
				kw.Set(pyeval.Str(name), v)
			}
		}
		if err := in.heuristics(j, k, args, kw); err != nil {
			kr.Unknown = append(kr.Unknown, fmt.Sprintf("%v; launched at %s", err, site))
			return
		}
		bound, err := pyeval.BindArgs(k.Name, k.Def.Args, args, kw, func(e ast.Expr) (pyeval.Value, error) { return in.script.Eval(e, nil) })
		if err != nil {
			kr.fail(in.errAtPos(l.Pos, "%v", err))
			return
		}
		if cfg != nil && cfg.PreHook != nil && cfg.PreHook != pyeval.None {
			nargs := &pyeval.Dict{}
			for _, p := range k.Params {
				nargs.Set(pyeval.Str(p.Name), bound[p.Name])
			}
			if _, err := in.script.Call(cfg.PreHook, []pyeval.Value{nargs}, nil); err != nil {
				kr.Unknown = append(kr.Unknown, fmt.Sprintf("the pre_hook of autotune config %d failed: %v; launched at %s", ci, err, site))
				return
			}
		}
		spec := Spec{Config: -1, Site: site}
		if cfg != nil {
			spec.Config = ci
			spec.Benchmarked = len(configs) > 1
		}
		ok := true
		for i, p := range k.Params {
			entry, why := in.entry(j, k, i, bound[p.Name])
			if u, isUnknown := bound[p.Name].(pyeval.Unknown); isUnknown && strings.Contains(u.Why, " did not resolve: ") {
				// An import that cannot be found, and the launch uses it: an error.
				kr.fail(in.errAtNode(in.argExpr(l, i, p.Name), l.Pos, "argument '%s' of '%s' needs an import that cannot be found: %s", p.Name, k.Name, u.Why))
				return
			}
			if why != "" {
				ok = false
				kr.Unknown = append(kr.Unknown, fmt.Sprintf("%s %s%s; launched at %s; pass -s or -c %s=...", p.Name, why, in.argSource(l, i, p.Name), site, p.Name))
				break
			}
			spec.Signature = append(spec.Signature, entry)
		}
		if !ok {
			return
		}
		if in.compileOptions(kr, l, options, cfg, ci, params, &spec) {
			kr.add(spec)
		}
	}
}

// prune applies the autotuner's early_config_prune(configs, named_args, **kwargs), as
// Autotuner.prune_configs does before benchmarking.
func (in *inferrer) prune(by *pyeval.Dict, k *frontend.Kernel, configs *pyeval.List, l *pyeval.Launch) ([]*pyeval.Config, error) {
	fn := by.Get(pyeval.Str("early_config_prune"))
	if fn == nil || fn == pyeval.None {
		return configsOf(configs), nil
	}
	named := &pyeval.Dict{}
	for i, a := range l.Args {
		if i < len(k.Params) {
			named.Set(pyeval.Str(k.Params[i].Name), a)
		}
	}
	out, err := in.script.Call(fn, []pyeval.Value{configs, named}, l.Kwargs)
	if err != nil {
		return nil, fmt.Errorf("early_config_prune of '%s' failed: %v", k.Name, err)
	}
	list, ok := out.(*pyeval.List)
	if !ok {
		return nil, fmt.Errorf("early_config_prune of '%s' returned %s", k.Name, pyeval.Repr(out))
	}
	return configsOf(list), nil
}

func configsOf(l *pyeval.List) []*pyeval.Config {
	var out []*pyeval.Config
	for _, c := range l.Elems {
		if cfg, ok := c.(*pyeval.Config); ok {
			out = append(out, cfg)
		}
	}
	return out
}

// argExpr is the expression of parameter i (name) at the launch, or nil.
func (in *inferrer) argExpr(l *pyeval.Launch, i int, name string) ast.Expr {
	if i < len(l.ArgList) {
		if _, starred := l.ArgList[i].(*ast.Starred); !starred {
			return l.ArgList[i]
		}
		return nil
	}
	return l.ArgExprs[name]
}

// errAtNode is an error at n, or at pos when n is nil.
func (in *inferrer) errAtNode(n ast.Expr, pos ast.Pos, format string, args ...any) *diag.Error {
	if n == nil {
		return in.errAtPos(pos, format, args...)
	}
	return in.errAt(n, format, args...)
}

// argSource names the host expression a launch argument came from.
func (in *inferrer) argSource(l *pyeval.Launch, i int, name string) string {
	return in.exprSource(in.argExpr(l, i, name))
}

// exprSource names a host expression of a launch, or is "" for nil.
func (in *inferrer) exprSource(e ast.Expr) string {
	if e == nil {
		return ""
	}
	return fmt.Sprintf(" (the argument `%s` at %s:%d)", in.f.Module.Text(e.Position()), in.f.Path, e.Position().Lineno)
}

// fail records a launch error once (a launch in a loop fails the same way each time).
func (kr *Kernel) fail(err *diag.Error) {
	for _, e := range kr.Errors {
		if e.Error() == err.Error() {
			return
		}
	}
	kr.Errors = append(kr.Errors, err)
}

// add keeps a specialization unless an equal one is already there.
func (kr *Kernel) add(s Spec) {
	for _, o := range kr.Specs {
		if o.SignatureText() == s.SignatureText() && o.NumWarps == s.NumWarps && o.NumStages == s.NumStages && o.Compile.String() == s.Compile.String() {
			return
		}
	}
	kr.Specs = append(kr.Specs, s)
}

// heuristics applies @triton.heuristics: each function sees the arguments by name.
func (in *inferrer) heuristics(j *pyeval.JITFunction, k *frontend.Kernel, args []pyeval.Value, kw *pyeval.Dict) error {
	h := j.Heuristics
	if h == nil {
		return nil
	}
	for i, key := range h.Keys {
		named := &pyeval.Dict{}
		for pi, p := range k.Params {
			if pi < len(args) {
				named.Set(pyeval.Str(p.Name), args[pi])
			}
		}
		for ki, kk := range kw.Keys {
			named.Set(kk, kw.Vals[ki])
		}
		v, err := in.script.Call(h.Vals[i], []pyeval.Value{named}, nil)
		if err != nil {
			return fmt.Errorf("the heuristic for %s failed: %v", pyeval.ToStr(key), err)
		}
		kw.Set(key, v)
	}
	return nil
}

// entry is the signature entry of parameter i bound to v, or why it is not known.
func (in *inferrer) entry(j *pyeval.JITFunction, k *frontend.Kernel, i int, v pyeval.Value) (string, string) {
	p := k.Params[i]
	if p.Constexpr {
		return constEntry(v)
	}
	specialize, align := true, true
	for _, d := range j.DoNotSpecialize {
		if matchesParam(d, i, p.Name) {
			specialize = false
		}
	}
	for _, d := range j.DoNotSpecializeOnAlignment {
		if matchesParam(d, i, p.Name) {
			align = false
		}
	}
	annot := annotationType(p.Annotation)
	if annot != "" && (annot == "u1" || strings.HasPrefix(annot, "fp") || strings.HasPrefix(annot, "bf")) {
		return annot, ""
	}
	switch v := v.(type) {
	case *pyeval.Tensor:
		ty, ok := canonicalDType[v.DType]
		if !ok {
			return "", fmt.Sprintf("is a tensor of dtype %s, which Triton does not take", v.DType)
		}
		prefix := "*"
		if strings.HasPrefix(annot, "*k") || strings.Contains(p.Annotation, "const") {
			prefix = "*k"
		}
		e := prefix + ty
		if specialize && align && v.Aligned {
			e += ":16"
		}
		return e, ""
	case *pyeval.TensorDesc:
		ty, ok := canonicalDType[v.Base.DType]
		if !ok {
			return "", fmt.Sprintf("is a descriptor of dtype %s", v.Base.DType)
		}
		dims, err := knownInts(v.BlockShape)
		if err != "" {
			return "", "has a tensor descriptor whose block_shape " + err
		}
		return fmt.Sprintf("tensordesc<%s[%s]>", ty, strings.Join(dims, ", ")), ""
	case pyeval.Bool:
		return "u1", ""
	case pyeval.Float:
		return "fp32", ""
	case pyeval.Int:
		ty := intType(v.V)
		if ty == "" {
			return "", "is an integer too large for u64"
		}
		if annot != "" {
			ty = annot
		}
		switch {
		case specialize && v.V.Cmp(big.NewInt(1)) == 0:
			return ty + ":1", ""
		case specialize && align && new(big.Int).And(v.V, big.NewInt(15)).Sign() == 0:
			return ty + ":16", ""
		}
		return ty, ""
	case pyeval.NoneValue:
		return "None", ""
	case pyeval.Unknown:
		return "", "is not known offline: " + v.Why
	case nil:
		return "", "has no value"
	}
	return "", fmt.Sprintf("is a %s, which gotriton cannot specialize", v.TypeName())
}

func matchesParam(d pyeval.Value, i int, name string) bool {
	switch d := d.(type) {
	case pyeval.Int:
		n, _ := d.Int64()
		return int(n) == i
	case pyeval.Str:
		return string(d) == name
	}
	return false
}

// constEntry is a constexpr's signature entry.
func constEntry(v pyeval.Value) (string, string) {
	switch v := v.(type) {
	case pyeval.Int, pyeval.Bool, pyeval.NoneValue:
		return pyeval.Repr(v), ""
	case pyeval.Float:
		return pyeval.Repr(v), ""
	case pyeval.Str:
		return pyeval.Repr(v), ""
	case pyeval.Ref:
		if d := pyeval.TorchDType(v); d != "" {
			return "tl." + tritonDTypeName(d), ""
		}
	case pyeval.Unknown:
		return "", "is not known offline: " + v.Why
	case nil:
		return "", "has no value"
	}
	return "", fmt.Sprintf("is a constexpr %s, which a signature cannot spell", pyeval.Repr(v))
}

// tritonDTypeName is the triton.language name of a torch dtype.
func tritonDTypeName(d string) string {
	switch d {
	case "float8_e4m3fn":
		return "float8e4nv"
	case "float8_e5m2":
		return "float8e5"
	case "float8_e4m3fnuz":
		return "float8e4b8"
	case "float8_e5m2fnuz":
		return "float8e5b16"
	case "bool":
		return "int1"
	}
	return d
}

// canonicalDType maps torch dtypes to Triton's signature types (_utils.canonicalize_dtype).
var canonicalDType = map[string]string{
	"bool": "u1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
	"uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
	"float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "float64": "fp64",
	"float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5", "float8_e4m3fnuz": "fp8e4b8", "float8_e5m2fnuz": "fp8e5b16",
}

// annotationType is the Triton type a parameter annotation names (x: tl.int64, "i64",
// "*fp16"), or "".
func annotationType(a string) string {
	a = strings.Trim(strings.TrimSpace(a), `"'`)
	if a == "" || strings.Contains(a, "constexpr") {
		return ""
	}
	ptr := ""
	switch {
	case strings.HasPrefix(a, "*k"):
		ptr, a = "*k", a[2:]
	case strings.HasPrefix(a, "*"):
		ptr, a = "*", a[1:]
	}
	for _, prefix := range []string{"tl.", "triton.language.", "torch."} {
		a = strings.TrimPrefix(a, prefix)
	}
	a = strings.TrimSuffix(a, "_t")
	if c, ok := canonicalDType[a]; ok {
		return ptr + c
	}
	for _, c := range canonicalDType {
		if c == a {
			return ptr + c
		}
	}
	if a == "int1" {
		return ptr + "u1"
	}
	return ""
}

func intType(v *big.Int) string {
	switch {
	case v.IsInt64() && v.Int64() >= -1<<31 && v.Int64() < 1<<31:
		return "i32"
	case v.IsInt64():
		return "i64"
	case v.IsUint64():
		return "u64"
	}
	return ""
}

// knownInts reads a block shape of known ints.
func knownInts(v pyeval.Value) ([]string, string) {
	var items []pyeval.Value
	switch v := v.(type) {
	case *pyeval.List:
		items = v.Elems
	case pyeval.Tuple:
		items = v
	default:
		return nil, "is " + pyeval.Repr(v)
	}
	out := make([]string, len(items))
	for i, it := range items {
		n, ok := it.(pyeval.Int)
		if !ok {
			return nil, "has " + pyeval.Repr(it)
		}
		out[i] = n.V.String()
	}
	return out, ""
}

func paramIndex(k *frontend.Kernel, name string) int {
	for i, p := range k.Params {
		if p.Name == name {
			return i
		}
	}
	return len(k.Params)
}

func paramList(k *frontend.Kernel) string {
	names := make([]string, len(k.Params))
	for i, p := range k.Params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// isHelper reports whether a jit function is named by another jit function of the file,
// called or passed (a combine function of tl.reduce): Triton compiles it only through its
// users.
func isHelper(f *frontend.File, k *frontend.Kernel) bool {
	for _, other := range f.Kernels {
		if other == k {
			continue
		}
		called := false
		ast.Inspect(other.Def, func(n ast.Node) bool {
			if name, ok := n.(*ast.Name); ok && name.ID == k.Name {
				called = true
			}
			return !called
		})
		if called {
			return true
		}
	}
	return false
}

// guess specializes a kernel the script never launched, once per launch site the file
// has for it (or once, with no arguments, when it has none): every runtime parameter
// guessed (semantic.GuessSignature: a pointer to fp32, else a plain i32), constexprs and
// launch options from the site's arguments where they evaluate in the module's globals,
// else from -c, autotune configs, heuristics and defaults.
func (in *inferrer) guess(kr *Kernel) {
	k := kr.Kernel
	var runtime []pyeval.Value
	for _, e := range semantic.GuessSignature(k) {
		if e.Type != nil && strings.HasPrefix(e.Text, "*") {
			runtime = append(runtime, &pyeval.Tensor{DType: "float32", Aligned: true})
		} else {
			runtime = append(runtime, pyeval.NewInt(2))
		}
	}
	// guessed is the guess for a runtime parameter a site gives a value not known offline.
	guessed := func(i int) pyeval.Value {
		if i < len(runtime) {
			return runtime[i]
		}
		if strings.Contains(k.Params[i].Name, "ptr") {
			return &pyeval.Tensor{DType: "float32", Aligned: true}
		}
		return pyeval.NewInt(2)
	}
	sites := launchSites(in.f, k)
	if len(sites) == 0 {
		sites = []*ast.Call{nil}
	}
	probe := &Kernel{Kernel: k}
	for _, site := range sites {
		l := &pyeval.Launch{Kernel: k.JIT, Args: append([]pyeval.Value{}, runtime...), Kwargs: &pyeval.Dict{}, Pos: k.Def.Pos}
		if site != nil {
			l.Pos, l.ArgList, l.ArgExprs = site.Pos, site.Args, map[string]ast.Expr{}
			if n := positionalCount(site); n < len(runtime) {
				// The site passes the later runtime parameters by keyword (or not at
				// all): only those it does not name keep a guess, as keywords.
				l.Args = l.Args[:n]
				named := map[string]bool{}
				for _, kw := range site.Keywords {
					named[kw.Arg] = true
				}
				for i := n; i < len(runtime); i++ {
					if !named[k.Params[i].Name] {
						l.Kwargs.Set(pyeval.Str(k.Params[i].Name), runtime[i])
					}
				}
			}
			for i, a := range site.Args {
				if _, starred := a.(*ast.Starred); starred {
					break
				}
				if i >= len(runtime) {
					v := in.staticValue(a)
					if _, unknown := v.(pyeval.Unknown); unknown && i < len(k.Params) && !k.Params[i].Constexpr {
						v = guessed(i)
					}
					l.Args = append(l.Args, v)
				}
			}
			for _, kw := range site.Keywords {
				if kw.Arg == "" {
					continue
				}
				v := in.staticValue(kw.Value)
				if i := paramIndex(k, kw.Arg); i < len(k.Params) && !k.Params[i].Constexpr {
					if _, unknown := v.(pyeval.Unknown); unknown {
						v = guessed(i)
					}
				}
				l.Kwargs.Set(pyeval.Str(kw.Arg), v)
				l.ArgExprs[kw.Arg] = kw.Value
			}
		}
		in.launch(probe, l)
	}
	for _, s := range probe.Specs {
		s.Guessed = true
		kr.add(s)
	}
	for _, err := range probe.Errors {
		why := err.Error()
		if d, ok := diag.As(err); ok {
			why = d.Msg
		}
		kr.Unknown = append(kr.Unknown, fmt.Sprintf("no launch of '%s' was reached and its parameters cannot all be guessed: %s; pass -s or -c NAME=...", k.Name, why))
	}
	for _, why := range probe.Unknown {
		kr.Unknown = append(kr.Unknown, fmt.Sprintf("no launch of '%s' was reached: %s", k.Name, why))
	}
}

// positionalCount is how many arguments a launch site passes by position; a starred
// argument may stand for any number, so it counts as all of them.
func positionalCount(site *ast.Call) int {
	for _, a := range site.Args {
		if _, starred := a.(*ast.Starred); starred {
			return math.MaxInt
		}
	}
	return len(site.Args)
}

// hostFunctionLaunches calls, with guessed arguments (pyeval's RunGuessed), each
// module-level host function that has a launch site of a kernel nothing launched, and
// specializes the launches of such kernels it reaches, per kernel. What fails there is
// no error: the kernel falls back to guess.
func (in *inferrer) hostFunctionLaunches(sr *pyeval.ScriptResult, kernels []*Kernel) map[*Kernel]*Kernel {
	probes := map[*Kernel]*Kernel{}
	var defs []*ast.FunctionDef
	seen := map[*ast.FunctionDef]bool{}
	for _, kr := range kernels {
		if kr.Launched || isHelper(in.f, kr.Kernel) {
			continue
		}
		probes[kr] = &Kernel{Kernel: kr.Kernel}
		for _, site := range launchSites(in.f, kr.Kernel) {
			for _, st := range in.f.AST.Body {
				def, ok := st.(*ast.FunctionDef)
				if p := st.Position(); ok && !seen[def] && p.Lineno <= site.Lineno && site.Lineno <= p.EndLineno {
					seen[def] = true
					defs = append(defs, def)
				}
			}
		}
	}
	for _, def := range defs {
		ls, err := sr.RunGuessed(def, 0)
		if err != nil {
			continue
		}
		for _, l := range ls {
			if kr := in.byDef[l.Kernel.Fn.Def]; kr != nil && probes[kr] != nil {
				in.launch(probes[kr], l)
			}
		}
	}
	return probes
}

// staticValue evaluates a launch argument in the module's globals; what needs the
// enclosing function's locals is Unknown.
func (in *inferrer) staticValue(e ast.Expr) pyeval.Value {
	v, err := in.f.Module.Eval(e, nil)
	if err != nil {
		return pyeval.Unknown{Why: fmt.Sprintf("`%s` needs host code that running the file did not reach", in.f.Module.Text(e.Position()))}
	}
	return v
}

// launchSites finds where the file's syntax launches k: K[grid](...),
// wrap_triton(K)[grid](...); for a nested kernel, inside the top-level statement that
// defines it.
func launchSites(f *frontend.File, k *frontend.Kernel) []*ast.Call {
	var out []*ast.Call
	var scope ast.Node = f.AST
	if !k.TopLevel {
		for _, st := range f.AST.Body {
			if p := st.Position(); p.Lineno <= k.Def.Lineno && k.Def.Lineno <= p.EndLineno {
				scope = st
			}
		}
	}
	ast.Inspect(scope, func(n ast.Node) bool {
		if w, ok := n.(*ast.With); ok && expectsFailure(w) {
			return false
		}
		c, ok := n.(*ast.Call)
		if !ok {
			return true
		}
		sub, ok := c.Func.(*ast.Subscript)
		if !ok {
			return true
		}
		target := sub.Value
		if w, ok := target.(*ast.Call); ok && len(w.Args) == 1 {
			target = w.Args[0]
		}
		if name, ok := target.(*ast.Name); ok && name.ID == k.Name {
			out = append(out, c)
		}
		return true
	})
	return out
}

// expectsFailure reports whether a with statement is `with pytest.raises(...)`: the
// launches in its body are meant to fail.
func expectsFailure(w *ast.With) bool {
	for _, item := range w.Items {
		if c, ok := item.ContextExpr.(*ast.Call); ok {
			switch f := c.Func.(type) {
			case *ast.Attribute:
				if f.Attr == "raises" {
					return true
				}
			case *ast.Name:
				if f.ID == "raises" {
					return true
				}
			}
		}
	}
	return false
}

// UnusedConstants lists the -c names that are no parameter of any kernel of the files.
func UnusedConstants(consts map[string]pyeval.Value, files ...*frontend.File) []string {
	var out []string
	for name := range consts {
		found := false
		for _, f := range files {
			for _, k := range f.Kernels {
				if paramIndex(k, name) < len(k.Params) {
					found = true
				}
			}
		}
		if !found {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// ParseConstant reads a -c flag, NAME=VALUE, where VALUE is a Python literal (an int, a
// float, True, False, None, a quoted string) or a dtype (tl.float16, torch.bfloat16).
func ParseConstant(s string) (string, pyeval.Value, error) {
	name, text, ok := strings.Cut(s, "=")
	name, text = strings.TrimSpace(name), strings.TrimSpace(text)
	if !ok || name == "" || text == "" {
		return "", nil, fmt.Errorf("want NAME=VALUE")
	}
	switch text {
	case "True":
		return name, pyeval.Bool(true), nil
	case "False":
		return name, pyeval.Bool(false), nil
	case "None":
		return name, pyeval.None, nil
	}
	if len(text) >= 2 && (text[0] == '\'' || text[0] == '"') && text[len(text)-1] == text[0] {
		return name, pyeval.Str(text[1 : len(text)-1]), nil
	}
	if n, ok := new(big.Int).SetString(strings.ReplaceAll(text, "_", ""), 0); ok {
		return name, pyeval.Int{V: n}, nil
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil {
		return name, pyeval.Float(f), nil
	}
	for _, prefix := range []string{"tl.", "triton.language.", "torch."} {
		if d, ok := strings.CutPrefix(text, prefix); ok {
			if pyeval.TorchDType(pyeval.Ref{Path: "torch." + d}) != "" {
				return name, pyeval.Ref{Path: "torch." + d}, nil
			}
		}
	}
	return "", nil, fmt.Errorf("%q is not a Python literal or a dtype", text)
}
