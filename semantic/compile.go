// Package semantic turns a parsed kernel plus a specialization into verified tile IR,
// following Triton 3.6's code generator (python/triton/compiler/code_generator.py) and its
// type rules (python/triton/language/semantic.py, core.py, standard.py, random.py, math.py).
//
// Compile specializes one @triton.jit kernel: it binds each parameter to a runtime type or a
// constexpr from the signature (in triton.tools.compile syntax, see ParseSignature), from an
// autotune config or heuristic, or from its default, then walks the kernel's AST. Constexpr
// expressions evaluate with Python semantics (through pyeval), constexpr branches fold,
// tl.static_range unrolls, range/tl.range become scf.for, while becomes scf.while, runtime
// ifs become scf.if, and nested jit functions are inlined. Every tl.* builtin lives in one
// registry (builtins.go) with its parameters, type rule and IR builder.
//
// Errors are *diag.Error values located at the exact sub-expression at fault, with the chain
// of jit calls as notes; Check reports every kernel's errors as a diag.List.
package semantic

import (
	"fmt"
	"strings"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/diag"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// Options is one specialization of a kernel.
type Options struct {
	// Signature has one entry per kernel parameter, in order. Entries may be left off the
	// end when an autotune config, a heuristic or a default supplies those parameters.
	Signature []SigEntry
	// SignatureText is parsed with ParseSignature when Signature is nil.
	SignatureText string
	// NumWarps and NumStages are the launch options (triton.tools.compile's -w and -ns);
	// 0 takes the autotune config's value, else 4 and 3.
	NumWarps, NumStages int
	// Target is backend:arch[:warp_size] as target.Parse reads it, e.g. "cuda:90:32"
	// (the default, target.Default).
	Target string
	// Config picks the autotune config that supplies constexprs the signature leaves out.
	Config int
	// Debug keeps tl.device_assert and assert statements (Triton drops them otherwise).
	Debug bool
}

// Spec is a kernel's resolved specialization: every parameter bound, plus launch options.
type Spec struct {
	Params    []BoundParam
	NumWarps  int
	NumStages int
	Target    target.Target
}

// BoundParam is one kernel parameter and what it is bound to.
type BoundParam struct {
	Name  string
	Entry SigEntry // a runtime Type (with hints), or a constexpr Value
}

// Specialize binds a kernel's parameters for opts, reporting a signature that does not
// match the parameter list.
func Specialize(f *frontend.File, k *frontend.Kernel, opts Options) (*Spec, error) {
	sig := opts.Signature
	if sig == nil && opts.SignatureText != "" {
		s, err := ParseSignature(opts.SignatureText)
		if err != nil {
			return nil, defErr(f, k, "invalid signature: %v", err)
		}
		sig = s
	}
	tgt := target.Default
	if opts.Target != "" {
		t, err := target.Parse(opts.Target)
		if err != nil {
			return nil, defErr(f, k, "%v", err)
		}
		tgt = t
	}
	spec := &Spec{Target: tgt, NumWarps: opts.NumWarps, NumStages: opts.NumStages}
	if len(sig) > len(k.Params) {
		return nil, defErr(f, k, "signature has %d entries but kernel '%s' has %d parameters (%s)", len(sig), k.Name, len(k.Params), paramNames(k))
	}
	var cfg *pyeval.Config
	if at := k.JIT.Autotune; at != nil {
		if l, ok := at.Configs.(*pyeval.List); ok && len(l.Elems) > 0 {
			if opts.Config < 0 || opts.Config >= len(l.Elems) {
				return nil, defErr(f, k, "autotune config %d out of range: kernel '%s' has %d configs", opts.Config, k.Name, len(l.Elems))
			}
			cfg, _ = l.Elems[opts.Config].(*pyeval.Config)
		}
	}
	known := &pyeval.Dict{}
	for i, p := range k.Params {
		bp := BoundParam{Name: p.Name}
		switch {
		case i < len(sig):
			bp.Entry = sig[i]
			if p.Constexpr && !bp.Entry.IsConstexpr() {
				return nil, paramErr(f, k, i, "parameter '%s' is a tl.constexpr, but the signature gives it the runtime type %s (entry %d: %q)", p.Name, bp.Entry.Type, i+1, bp.Entry.Text)
			}
		case cfg != nil && cfg.Kwargs.Get(pyeval.Str(p.Name)) != nil:
			bp.Entry = SigEntry{Text: p.Name, Value: fromPy(cfg.Kwargs.Get(pyeval.Str(p.Name)))}
		}
		if bp.Entry.Value != nil {
			if c, ok := toPy(bp.Entry.Value); ok {
				known.Set(pyeval.Str(p.Name), c)
			}
		}
		spec.Params = append(spec.Params, bp)
	}
	// Heuristics see the arguments bound so far (runtime ones are unknown offline).
	if h := k.JIT.Heuristics; h != nil {
		for i, key := range h.Keys {
			name := pyeval.ToStr(key)
			idx := paramIndex(k, name)
			if idx < 0 || spec.Params[idx].Entry.Text != "" {
				continue
			}
			args := &pyeval.Dict{Keys: append([]pyeval.Value(nil), known.Keys...), Vals: append([]pyeval.Value(nil), known.Vals...)}
			for _, p := range k.Params {
				if args.Get(pyeval.Str(p.Name)) == nil {
					args.Set(pyeval.Str(p.Name), pyeval.Unknown{Why: "runtime argument " + p.Name})
				}
			}
			v, err := f.Module.Call(h.Vals[i], []pyeval.Value{args}, nil)
			if _, unknown := v.(pyeval.Unknown); err != nil || unknown {
				return nil, paramErr(f, k, idx, "heuristic for '%s' needs runtime argument values; give '%s' in the signature", name, name)
			}
			spec.Params[idx].Entry = SigEntry{Text: name, Value: fromPy(v)}
			known.Set(pyeval.Str(name), v)
		}
	}
	for i, p := range k.Params {
		if spec.Params[i].Entry.Text != "" {
			continue
		}
		if p.Default == nil {
			return nil, paramErr(f, k, i, "signature has %d entries but kernel '%s' has %d parameters: no value for '%s'", len(sig), k.Name, len(k.Params), p.Name)
		}
		v, err := f.Module.Eval(p.Default, nil)
		if err != nil {
			return nil, paramErr(f, k, i, "default of '%s': %v", p.Name, err)
		}
		spec.Params[i].Entry = SigEntry{Text: pyeval.Repr(v), Value: fromPy(v)}
	}
	if cfg != nil {
		if spec.NumWarps == 0 {
			spec.NumWarps = intOr(cfg.NumWarps, 0)
		}
		if spec.NumStages == 0 {
			spec.NumStages = intOr(cfg.NumStages, 0)
		}
	}
	if spec.NumWarps == 0 {
		spec.NumWarps = 4
	}
	if spec.NumStages == 0 {
		spec.NumStages = 3
	}
	return spec, nil
}

func intOr(v pyeval.Value, def int) int {
	if i, ok := v.(pyeval.Int); ok {
		n, _ := i.Int64()
		return int(n)
	}
	return def
}

func paramIndex(k *frontend.Kernel, name string) int {
	for i, p := range k.Params {
		if p.Name == name {
			return i
		}
	}
	return -1
}

func paramNames(k *frontend.Kernel) string {
	names := make([]string, len(k.Params))
	for i, p := range k.Params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// defErr is an error located at the kernel's def line.
func defErr(f *frontend.File, k *frontend.Kernel, format string, args ...any) *diag.Error {
	p := k.Def.Position()
	span := diag.Span{Line: int(p.Lineno), Col: int(p.ColOffset)}
	if src := diag.Line(f.Src, int(p.Lineno)); strings.Contains(src, "def "+k.Def.Name) {
		col := strings.Index(src, k.Def.Name)
		span = diag.Span{Line: int(p.Lineno), Col: col, EndLine: int(p.Lineno), EndCol: col + len(k.Def.Name)}
	}
	return diag.New(f.Path, f.Src, span, format, args...)
}

// paramErr is an error located at parameter i of the kernel.
func paramErr(f *frontend.File, k *frontend.Kernel, i int, format string, args ...any) *diag.Error {
	var arg *ast.Arg
	a := k.Def.Args
	all := append(append(append([]*ast.Arg{}, a.Posonlyargs...), a.Args...), a.Kwonlyargs...)
	if i < len(all) {
		arg = all[i]
	}
	if arg == nil {
		return defErr(f, k, format, args...)
	}
	return diag.New(f.Path, f.Src, spanOf(arg), format, args...)
}

// Compile specializes kernel and generates its tile IR, verified.
func Compile(f *frontend.File, kernel string, opts Options) (*tileir.Module, error) {
	m, _, err := CompileSpec(f, kernel, opts)
	return m, err
}

// CompileSpec is Compile that also returns the specialization it resolved (target,
// num_warps and num_stages after autotune configs and defaults), for the stages after
// tile IR.
func CompileSpec(f *frontend.File, kernel string, opts Options) (*tileir.Module, *Spec, error) {
	k, err := f.Lookup(kernel)
	if err != nil {
		return nil, nil, err
	}
	if k == nil {
		return nil, nil, &diag.Error{File: f.Path, Span: diag.Span{Line: 1}, Msg: fmt.Sprintf("no @triton.jit function named '%s'%s", kernel, suggestKernel(f, kernel))}
	}
	if err := f.ClosureError(k); err != nil {
		return nil, nil, err
	}
	spec, err := Specialize(f, k, opts)
	if err != nil {
		return nil, nil, err
	}
	m, err := Generate(f, k, spec, opts.Debug)
	return m, spec, err
}

func suggestKernel(f *frontend.File, name string) string {
	best, bestD := "", len(name)/2+1
	var all []string
	for _, k := range f.Kernels {
		all = append(all, k.Name)
		if d := editDistance(name, k.Name); d < bestD {
			best, bestD = k.Name, d
		}
	}
	if best != "" {
		return "; did you mean '" + best + "'?"
	}
	if len(all) > 0 {
		return " (the file has: " + strings.Join(all, ", ") + ")"
	}
	return " (the file has none)"
}

// Generate builds the tile IR of a specialized kernel.
func Generate(f *frontend.File, k *frontend.Kernel, spec *Spec, debug bool) (m *tileir.Module, err error) {
	opts := &Options{Debug: debug, NumWarps: spec.NumWarps, NumStages: spec.NumStages, Target: spec.Target.String()}
	g := &gen{opts: opts, frames: []frame{{name: k.Name, mod: f.Module}}, scope: map[string]Value{}}
	defer g.recoverTo(&err)
	var argTypes []tileir.Type
	for _, p := range spec.Params {
		if p.Entry.Type != nil {
			argTypes = append(argTypes, flatTypes(p.Entry.Type)...)
		}
	}
	m = &tileir.Module{}
	fn := m.NewFunc(k.Name, "public", argTypes, nil)
	fn.Loc = g.loc(k.Def)
	g.b = tileir.NewBuilder(fn)
	g.b.Loc = fn.Loc
	args := fn.Args()
	idx := 0
	for _, p := range spec.Params {
		if p.Entry.Type == nil {
			g.scope[p.Name] = p.Entry.Value
			continue
		}
		if p.Entry.Divisibility != 0 {
			fn.SetArgAttr(idx, "tt.divisibility", i32Attr(int64(p.Entry.Divisibility)))
		}
		var v Value
		v, _ = unflatten(typeTemplate(p.Entry.Type), args[idx:])
		g.scope[p.Name] = v
		for range flatTypes(p.Entry.Type) {
			fn.ArgLocs = append(fn.ArgLocs, fn.Loc)
		}
		idx += len(flatTypes(p.Entry.Type))
	}
	g.stmts(k.Def.Body)
	g.b.Loc = g.loc(k.Def)
	g.b.SetInsertionPointToEnd(fn.Body.Entry())
	g.b.Return()
	if perr := runPipeline(m); perr != nil {
		return nil, g.errorAt(k.Def, "gotriton cannot compile this yet (a bug in gotriton, please report it: %v)", perr)
	}
	if verr := tileir.Verify(m); verr != nil {
		return nil, g.errorAt(k.Def, "gotriton cannot compile this yet (a bug in gotriton, please report it: the generated tile IR does not verify: %v)", verr)
	}
	return m, nil
}

// flatTypes lists the IR argument types of a kernel parameter (a descriptor takes its
// handle, then i32 shapes and i64 strides, as Triton flattens it).
func flatTypes(t Type) []tileir.Type {
	d, ok := t.(*DescType)
	if !ok {
		return []tileir.Type{t.IR()}
	}
	out := []tileir.Type{d.IR()}
	for range d.Block.Shape {
		out = append(out, tileir.I32)
	}
	for range d.Block.Shape {
		out = append(out, tileir.I64)
	}
	return out
}

// typeTemplate is a value shaped like a parameter of type t, for unflatten.
func typeTemplate(t Type) Value {
	d, ok := t.(*DescType)
	if !ok {
		return &Tensor{T: t}
	}
	desc := &Desc{T: d}
	for range d.Block.Shape {
		desc.Shape = append(desc.Shape, &Tensor{T: Int32})
	}
	for range d.Block.Shape {
		desc.Strides = append(desc.Strides, &Tensor{T: Int64})
	}
	return desc
}

// Check type-checks kernels of a file: those named (every kernel when none is), each under
// the specialization specs gives it, or, when specs has none, one guessed from its
// parameters (see GuessSignature). It returns a diag.List of every kernel's errors, or nil.
func Check(f *frontend.File, specs map[string]Options, kernels ...string) error {
	if len(kernels) == 0 {
		for _, k := range f.Kernels {
			if isLaunched(f, k) {
				kernels = append(kernels, f.Selector(k))
			}
		}
	}
	var errs diag.List
	for _, name := range kernels {
		opts, ok := specs[name]
		if !ok {
			if k := f.Kernel(name); k != nil {
				opts = Options{Signature: GuessSignature(k)}
			}
		}
		if _, err := Compile(f, name, opts); err != nil {
			if d, ok := diag.As(err); ok {
				errs = append(errs, d)
			} else if l, ok := err.(diag.List); ok {
				errs = append(errs, l...)
			} else {
				errs = append(errs, &diag.Error{File: f.Path, Span: diag.Span{Line: 1}, Msg: err.Error()})
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// isLaunched reports whether a jit function is a kernel rather than a helper called from
// other jit functions of the file (helpers are checked through their callers, as Triton
// compiles them only when a kernel reaches them).
func isLaunched(f *frontend.File, k *frontend.Kernel) bool {
	called := false
	for _, other := range f.Kernels {
		if other == k {
			continue
		}
		ast.Inspect(other.Def, func(n ast.Node) bool {
			if c, ok := n.(*ast.Call); ok {
				if name, ok := c.Func.(*ast.Name); ok && name.ID == k.Name {
					called = true
				}
			}
			return !called
		})
	}
	return !called
}

// GuessSignature makes a specialization for type-checking a kernel without one: constexpr
// parameters come from autotune configs, heuristics or defaults (left off the signature);
// a parameter that is loaded from, stored to or offset like a pointer becomes *fp32:16; any
// other runtime parameter becomes i32.
func GuessSignature(k *frontend.Kernel) []SigEntry {
	ptrs := pointerParams(k.Def)
	var sig []SigEntry
	for _, p := range k.Params {
		if p.Constexpr {
			break
		}
		if ptrs[p.Name] {
			sig = append(sig, SigEntry{Text: "*fp32:16", Type: &PtrType{Elem: FP32, AddrSpace: 1}, Divisibility: 16})
		} else {
			sig = append(sig, SigEntry{Text: "i32", Type: Int32})
		}
	}
	return sig
}

// pointerParams finds parameters used as the base of a memory access.
func pointerParams(def *ast.FunctionDef) map[string]bool {
	out := map[string]bool{}
	mark := func(e ast.Expr) {
		ast.Inspect(e, func(n ast.Node) bool {
			if name, ok := n.(*ast.Name); ok {
				out[name.ID] = true
			}
			if b, ok := n.(*ast.BinOp); ok {
				if l, ok := b.Left.(*ast.Name); ok {
					out[l.ID] = true
				}
				return false
			}
			return true
		})
	}
	ast.Inspect(def, func(n ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok || len(c.Args) == 0 {
			return true
		}
		if a, ok := c.Func.(*ast.Attribute); ok {
			switch a.Attr {
			case "load", "store", "atomic_add", "atomic_cas", "atomic_xchg", "atomic_max", "atomic_min",
				"make_block_ptr", "make_tensor_descriptor":
				mark(c.Args[0])
			}
		}
		return true
	})
	return out
}
