package frontend

import (
	"bytes"
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
	Kernels []*Kernel // every @triton.jit function, in source order
}

// Kernel is one jit function of a file.
type Kernel struct {
	Name   string // the name the module binds it to
	Def    *ast.FunctionDef
	JIT    *pyeval.JITFunction
	Params []Param
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
	seen := map[*pyeval.JITFunction]bool{}
	for _, n := range f.Module.Names() {
		v, _ := f.Module.Lookup(n)
		j, ok := v.(*pyeval.JITFunction)
		if !ok || seen[j] || j.Fn.Def == nil {
			continue
		}
		seen[j] = true
		f.Kernels = append(f.Kernels, newKernel(n, j, f.Module))
	}
	// A name may be rebound later than its def: list kernels by definition line.
	slices.SortStableFunc(f.Kernels, func(a, b *Kernel) int { return int(a.Def.Lineno) - int(b.Def.Lineno) })
	return f, nil
}

// Kernel returns the jit function called name, or nil.
func (f *File) Kernel(name string) *Kernel {
	for _, k := range f.Kernels {
		if k.Name == name {
			return k
		}
	}
	return nil
}

func newKernel(name string, j *pyeval.JITFunction, m *pyeval.Module) *Kernel {
	k := &Kernel{Name: name, Def: j.Fn.Def, JIT: j}
	a := j.Fn.Def.Args
	positional := append(append([]*ast.Arg{}, a.Posonlyargs...), a.Args...)
	firstDefault := len(positional) - len(a.Defaults)
	for i, p := range positional {
		var def ast.Expr
		if i >= firstDefault {
			def = a.Defaults[i-firstDefault]
		}
		k.Params = append(k.Params, newParam(p, def, false, m))
	}
	for i, p := range a.Kwonlyargs {
		k.Params = append(k.Params, newParam(p, a.KwDefaults[i], true, m))
	}
	return k
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
