package frontend

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/diag"
	"github.com/gotriton/gotriton/pyeval"
)

// File is a parsed and evaluated kernel file.
type File struct {
	Path    string
	Src     []byte
	AST     *ast.Module
	Module  *pyeval.Module
	Kernels []*Kernel // every jit function defined in the file, at any depth, in source order
}

// Kernel is one jit function of a file.
type Kernel struct {
	Name     string // the name its scope binds it to: the def's, or NAME of NAME = triton.jit(fn)
	QualName string // Python's __qualname__: kernel, test_foo.<locals>.kernel, Cls.kernel
	TopLevel bool   // defined in the module's scope (also inside module-level if/try/with blocks)
	Def      *ast.FunctionDef
	JIT      *pyeval.JITFunction
	Params   []Param
	// DecoratorProblems are the decorators that could not be evaluated offline; each is
	// otherwise ignored.
	DecoratorProblems []DecoratorProblem
	// FreeVars are the locals of enclosing functions that a nested kernel reads.
	FreeVars []FreeVar
}

// DecoratorProblem is a decorator that could not be evaluated offline.
type DecoratorProblem struct {
	Index  int // in Def.DecoratorList
	Reason string
}

// Param is one parameter of a jit function.
type Param struct {
	Name       string
	Annotation string // source text, "" if none
	Constexpr  bool
	Default    ast.Expr // nil if none
	KwOnly     bool
}

// ReadSource reads a kernel file, turning I/O problems, empty files and binary files into
// located diagnostics.
func ReadSource(path string) ([]byte, error) {
	src, err := readFile(path)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, &diag.Error{File: path, Span: diag.Span{Line: 1}, Msg: "file is empty"}
	}
	return src, nil
}

// readFile reads a Python file, turning I/O problems and binary files into located
// diagnostics. An empty file is fine (an imported package's __init__.py often is).
func readFile(path string) ([]byte, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		msg := err.Error()
		switch {
		case os.IsNotExist(err):
			msg = "no such file"
		case os.IsPermission(err):
			msg = "permission denied"
		default:
			if pe, ok := err.(*os.PathError); ok {
				msg = pe.Err.Error()
			}
		}
		return nil, &diag.Error{File: path, Span: diag.Span{Line: 1}, Msg: "cannot read file: " + msg}
	}
	if i := bytes.IndexByte(src, 0); i >= 0 && !utf8.Valid(src) {
		line := bytes.Count(src[:i], []byte("\n")) + 1
		return nil, &diag.Error{File: path, Span: diag.Span{Line: line}, Msg: "binary file: not Python source"}
	}
	return src, nil
}

// Load reads, parses and evaluates a kernel file and finds its jit functions.
// Imported modules are read and evaluated too (see LoadSource).
func Load(path string, opts pyeval.Options) (*File, error) {
	src, err := ReadSource(path)
	if err != nil {
		return nil, err
	}
	return LoadSource(path, src, opts)
}

// LoadSource is Load for source already in memory. Unless opts has an Importer, the
// file's imports resolve as Python would resolve them, searching the file's folder, its
// package roots, then opts.Path.
func LoadSource(path string, src []byte, opts pyeval.Options) (*File, error) {
	mod, err := ParseFile(path, src)
	if err != nil {
		return nil, err
	}
	if opts.Importer == nil {
		opts.Importer = newImporter(path, opts)
	}
	name := strings.TrimSuffix(filepath.Base(path), ".py")
	f := &File{Path: path, Src: src, AST: mod, Module: pyeval.Exec(name, path, src, mod, opts)}
	d := discover(mod)
	for _, s := range d.sites {
		f.Kernels = append(f.Kernels, f.newKernel(d, s))
	}
	// Host code can make jit functions in ways the syntax does not show (a project's own
	// decorator that calls triton.jit): list those the module binds too.
	for _, n := range f.Module.Names() {
		v, _ := f.Module.Lookup(n)
		if j, ok := v.(*pyeval.JITFunction); ok && j.Fn.Def != nil && j.Fn.Module == f.Module && !d.seen[j.Fn.Def] {
			d.seen[j.Fn.Def] = true
			k := &Kernel{Name: n, QualName: cmp.Or(d.qualnames[j.Fn.Def], j.Fn.Def.Name), TopLevel: true, Def: j.Fn.Def, JIT: j}
			k.Params = params(k.Def, f.Module)
			f.Kernels = append(f.Kernels, k)
		}
	}
	slices.SortStableFunc(f.Kernels, func(a, b *Kernel) int {
		return cmp.Or(cmp.Compare(a.Def.Lineno, b.Def.Lineno), cmp.Compare(a.Def.ColOffset, b.Def.ColOffset))
	})
	return f, nil
}

// newKernel makes the kernel of a jit function the syntax tree shows. A function the
// module binds is taken as host code evaluated it; any other (nested, in a class, in a
// branch not taken, or one whose decorators failed) has its decorators evaluated here.
func (f *File) newKernel(d *discovery, s site) *Kernel {
	k := &Kernel{Name: s.name, QualName: s.qualname, TopLevel: s.topLevel, Def: s.def, FreeVars: freeVars(s.def, s.enclosing)}
	if s.topLevel {
		v, _ := f.Module.Lookup(s.name)
		if j, ok := v.(*pyeval.JITFunction); ok && j.Fn.Def == s.def {
			k.JIT = j
		}
	}
	if k.JIT == nil {
		k.JIT, k.DecoratorProblems = f.decorate(d, s)
	}
	k.Params = params(s.def, f.Module)
	return k
}

// decorate applies a def's decorators in the module's global scope, innermost first, as
// Python does, except that a decorator that cannot be evaluated is recorded and skipped:
// a failing jit decorator leaves the bare jit function, a failing wrapper around it leaves
// it unwrapped. As in host code, wrappers that return something other than a jit function
// are ignored.
func (f *File) decorate(d *discovery, s site) (*pyeval.JITFunction, []DecoratorProblem) {
	fn := &pyeval.Function{Name: s.def.Name, Def: s.def, Module: f.Module}
	var v pyeval.Value = fn
	var problems []DecoratorProblem
	decs := s.def.DecoratorList
	for i := len(decs) - 1; i >= 0; i-- {
		out, err := f.applyDecorator(decs[i], v, s.enclosing)
		_, wasJIT := v.(*pyeval.JITFunction)
		_, isJIT := out.(*pyeval.JITFunction)
		switch {
		case err != nil:
			problems = append(problems, DecoratorProblem{Index: i, Reason: err.Error()})
			if !wasJIT && d.isJITDecorator(decs[i]) {
				v = &pyeval.JITFunction{Fn: fn}
			}
		case wasJIT && !isJIT:
			// a project's wrapper (a cache, a custom autotuner): the jit function stays
		default:
			v = out
		}
	}
	j, ok := v.(*pyeval.JITFunction)
	if !ok { // name = triton.jit(fn) inside a function, or a wrapper below the jit decorator
		j = &pyeval.JITFunction{Fn: fn}
	}
	j.Decorators = nil
	for _, dec := range decs {
		j.Decorators = append(j.Decorators, f.decoratorInfo(dec))
	}
	return j, problems
}

// applyDecorator evaluates one decorator expression and calls it on v.
func (f *File) applyDecorator(dec ast.Expr, v pyeval.Value, enclosing []*funcScope) (pyeval.Value, error) {
	if fv, ok := decoratorFreeVar(dec, enclosing); ok {
		return nil, fmt.Errorf("it reads '%s', a local of enclosing function '%s' (line %d)", fv.Name, fv.Func, fv.FuncLine)
	}
	callee, err := f.Module.Eval(dec, nil)
	if err != nil {
		return nil, err
	}
	return f.Module.Call(callee, []pyeval.Value{v}, nil)
}

// decoratorInfo describes a decorator as host code would record it.
func (f *File) decoratorInfo(dec ast.Expr) pyeval.Decorator {
	p := dec.Position()
	info := pyeval.Decorator{Text: f.Module.Text(p), Line: int(p.Lineno)}
	callee := dec
	if c, ok := dec.(*ast.Call); ok {
		callee = c.Func
	}
	if r, err := f.Module.Eval(callee, nil); err == nil {
		if ref, ok := r.(pyeval.Ref); ok {
			info.Path = ref.Path
		}
	}
	return info
}

// params lists a def's parameters in order: positional, then keyword-only.
func params(def *ast.FunctionDef, m *pyeval.Module) []Param {
	var out []Param
	a := def.Args
	positional := append(append([]*ast.Arg{}, a.Posonlyargs...), a.Args...)
	firstDefault := len(positional) - len(a.Defaults)
	for i, p := range positional {
		var def ast.Expr
		if i >= firstDefault {
			def = a.Defaults[i-firstDefault]
		}
		out = append(out, newParam(p, def, false, m))
	}
	for i, p := range a.Kwonlyargs {
		out = append(out, newParam(p, a.KwDefaults[i], true, m))
	}
	return out
}

func newParam(a *ast.Arg, def ast.Expr, kwOnly bool, m *pyeval.Module) Param {
	p := Param{Name: a.Arg, Default: def, KwOnly: kwOnly}
	if a.Annotation != nil {
		p.Annotation = m.Text(a.Annotation.Position())
		p.Constexpr = isConstexprAnnotation(a.Annotation, m)
	}
	return p
}

// isConstexprAnnotation reports whether an annotation names tl.constexpr, however the
// module imported it (or spells it as a string, as Triton also accepts).
func isConstexprAnnotation(e ast.Expr, m *pyeval.Module) bool {
	if c, ok := e.(*ast.Constant); ok {
		s, _ := c.Value.(string)
		return strings.Contains(s, "constexpr")
	}
	v, err := m.Eval(e, nil)
	if err != nil {
		return false
	}
	r, ok := v.(pyeval.Ref)
	return ok && (r.Path == "triton.language.constexpr" || r.Path == "triton.language.core.constexpr")
}
