package frontend

import (
	"cmp"
	"slices"
	"strings"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/diag"
)

// FreeVar is a local of an enclosing function that a nested jit function reads. gotriton
// compiles nested kernels against the module's globals, so it cannot see such a name.
type FreeVar struct {
	Name     string
	Read     ast.Pos // the first read
	Func     string  // the enclosing function whose local it is
	FuncLine int     // the line of that function's def
}

// freeVars lists the enclosing functions' locals that def reads, at their first reads:
// in its body, and in its defaults and annotations (evaluated in the enclosing scope).
func freeVars(def *ast.FunctionDef, enclosing []*funcScope) []FreeVar {
	if len(enclosing) == 0 {
		return nil
	}
	r := newResolver(enclosing)
	own, ownGlobals := boundNames(def.Args, def.Body, true)
	var out []FreeVar
	seen := map[string]bool{}
	note := func(n *ast.Name, inBody bool) {
		if seen[n.ID] || inBody && (own[n.ID] || ownGlobals[n.ID]) {
			return
		}
		seen[n.ID] = true
		if fv, ok := r.resolve(n); ok {
			out = append(out, fv)
		}
	}
	for _, n := range loads(argsExprs(def)...) {
		note(n, false)
	}
	for _, st := range def.Body {
		for _, n := range loads(st) {
			note(n, true)
		}
	}
	slices.SortStableFunc(out, func(a, b FreeVar) int {
		return cmp.Or(cmp.Compare(a.Read.Lineno, b.Read.Lineno), cmp.Compare(a.Read.ColOffset, b.Read.ColOffset))
	})
	return out
}

// decoratorFreeVar returns the first local of an enclosing function that a decorator
// expression reads.
func decoratorFreeVar(e ast.Expr, enclosing []*funcScope) (FreeVar, bool) {
	if len(enclosing) == 0 {
		return FreeVar{}, false
	}
	r := newResolver(enclosing)
	for _, n := range loads(e) {
		if fv, ok := r.resolve(n); ok {
			return fv, true
		}
	}
	return FreeVar{}, false
}

// resolver finds which enclosing function, if any, binds a name, as Python's scoping does.
type resolver struct {
	enclosing []*funcScope
	locals    []map[string]bool
	globals   []map[string]bool
}

func newResolver(enclosing []*funcScope) *resolver {
	r := &resolver{enclosing: enclosing}
	for _, fn := range enclosing {
		l, g := boundNames(fn.args, fn.body, false)
		r.locals = append(r.locals, l)
		r.globals = append(r.globals, g)
	}
	return r
}

func (r *resolver) resolve(n *ast.Name) (FreeVar, bool) {
	for i := len(r.enclosing) - 1; i >= 0; i-- {
		switch {
		case r.globals[i][n.ID]:
			return FreeVar{}, false
		case r.locals[i][n.ID]:
			return FreeVar{Name: n.ID, Read: n.Pos, Func: r.enclosing[i].name, FuncLine: r.enclosing[i].line}, true
		}
	}
	return FreeVar{}, false
}

// argsExprs lists what a def evaluates in its enclosing scope besides its decorators:
// defaults and annotations.
func argsExprs(def *ast.FunctionDef) []ast.Node {
	a := def.Args
	var out []ast.Node
	for _, e := range append(append([]ast.Expr{}, a.Defaults...), a.KwDefaults...) {
		if e != nil {
			out = append(out, e)
		}
	}
	for _, p := range allArgs(a) {
		if p.Annotation != nil {
			out = append(out, p.Annotation)
		}
	}
	if def.Returns != nil {
		out = append(out, def.Returns)
	}
	return out
}

// allArgs lists every parameter of a parameter list, *args and **kwargs included.
func allArgs(a *ast.Arguments) []*ast.Arg {
	out := append(append([]*ast.Arg{}, a.Posonlyargs...), a.Args...)
	if a.Vararg != nil {
		out = append(out, a.Vararg)
	}
	out = append(out, a.Kwonlyargs...)
	if a.Kwarg != nil {
		out = append(out, a.Kwarg)
	}
	return out
}

// loads lists the names that nodes read, in source order.
func loads(nodes ...ast.Node) []*ast.Name {
	var out []*ast.Name
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			if n, ok := n.(*ast.Name); ok && n.Ctx == ast.Load {
				out = append(out, n)
			}
			return true
		})
	}
	return out
}

// boundNames returns the names a function's scope binds (its locals) and those it
// declares global. With deep, names bound in nested functions, lambdas and
// comprehensions count too (a superset of the locals, for the function's own reads);
// without, they do not, except the nested functions' and classes' own names and walrus
// targets in comprehensions, as Python's scoping has it.
func boundNames(args *ast.Arguments, body []ast.Stmt, deep bool) (locals, globals map[string]bool) {
	locals, globals = map[string]bool{}, map[string]bool{}
	nonlocals := map[string]bool{}
	addArgs := func(a *ast.Arguments) {
		for _, p := range allArgs(a) {
			locals[p.Arg] = true
		}
	}
	addArgs(args)
	var visit func(n ast.Node) bool
	walrusOnly := func(n ast.Node) bool {
		if w, ok := n.(*ast.NamedExpr); ok {
			if t, ok := w.Target.(*ast.Name); ok {
				locals[t.ID] = true
			}
		}
		_, lambda := n.(*ast.Lambda)
		return !lambda
	}
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FunctionDef:
			locals[n.Name] = true
			if deep {
				addArgs(n.Args)
			}
			return deep
		case *ast.AsyncFunctionDef:
			locals[n.Name] = true
			if deep {
				addArgs(n.Args)
			}
			return deep
		case *ast.ClassDef:
			locals[n.Name] = true
			return deep
		case *ast.Lambda:
			if deep {
				addArgs(n.Args)
			}
			return deep
		case *ast.ListComp, *ast.SetComp, *ast.DictComp, *ast.GeneratorExp:
			if !deep {
				ast.Inspect(n, walrusOnly)
				return false
			}
		case *ast.Name:
			if n.Ctx != ast.Load {
				locals[n.ID] = true
			}
		case *ast.Import:
			for _, a := range n.Names {
				name := a.Asname
				if name == "" {
					name, _, _ = strings.Cut(a.Name, ".")
				}
				locals[name] = true
			}
		case *ast.ImportFrom:
			for _, a := range n.Names {
				name := a.Asname
				if name == "" {
					name = a.Name
				}
				if name != "*" {
					locals[name] = true
				}
			}
		case *ast.ExceptHandler:
			if n.Name != "" {
				locals[n.Name] = true
			}
		case *ast.MatchAs:
			if n.Name != "" {
				locals[n.Name] = true
			}
		case *ast.MatchStar:
			if n.Name != "" {
				locals[n.Name] = true
			}
		case *ast.MatchMapping:
			if n.Rest != "" {
				locals[n.Rest] = true
			}
		case *ast.Global:
			for _, name := range n.Names {
				globals[name] = true
			}
		case *ast.Nonlocal:
			for _, name := range n.Names {
				nonlocals[name] = true
			}
		}
		return true
	}
	for _, st := range body {
		ast.Inspect(st, visit)
	}
	for name := range globals {
		delete(locals, name)
	}
	for name := range nonlocals {
		delete(locals, name)
	}
	return locals, globals
}

// ClosureError is the error for compiling k when it reads a local of an enclosing
// function, at the first such read; nil when it reads none.
func (f *File) ClosureError(k *Kernel) error {
	if len(k.FreeVars) == 0 {
		return nil
	}
	fv := k.FreeVars[0]
	span := diag.Span{Line: int(fv.Read.Lineno), Col: int(fv.Read.ColOffset), EndLine: int(fv.Read.EndLineno), EndCol: int(fv.Read.EndColOffset)}
	return diag.New(f.Path, f.Src, span, "jit function '%s' reads '%s', a local of enclosing function '%s' (line %d); gotriton compiles nested kernels against module globals only",
		k.QualName, fv.Name, fv.Func, fv.FuncLine)
}
