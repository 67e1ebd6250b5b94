package frontend

import (
	"strings"

	"github.com/gotriton/gotriton/ast"
)

// jitPaths are the qualified names under which Triton 3.6 exports its jit decorator.
var jitPaths = map[string]bool{"triton.jit": true, "triton.runtime.jit": true, "triton.runtime.jit.jit": true}

// site is a function definition that the syntax tree marks as a jit function: decorated
// with triton.jit (under any import alias, bare or called with options) or passed to it in
// `name = triton.jit(fn)`. Discovery reads only the syntax, so no decorator, however
// unevaluable, can hide a kernel.
type site struct {
	def       *ast.FunctionDef
	name      string // the name its scope binds: the def's, or the target of name = triton.jit(fn)
	qualname  string
	topLevel  bool         // in the module's own scope (possibly inside if/try/with blocks)
	enclosing []*funcScope // the functions around it, outermost first (classes are not scopes of their methods)
}

// funcScope is a function whose body defines other functions.
type funcScope struct {
	name string
	line int
	args *ast.Arguments
	body []ast.Stmt
}

type scopeKind int

const (
	moduleScope scopeKind = iota
	classScope
	functionScope
)

// blockScope is the scope a statement list belongs to while discovery walks it.
type blockScope struct {
	kind      scopeKind
	prefix    string                      // the qualname prefix of what the scope defines
	globals   map[string]bool             // names declared global in the scope so far; nil if none
	defs      map[string]*ast.FunctionDef // the def each name is bound to so far (nil once a class or async def rebinds it)
	enclosing []*funcScope
}

// discovery finds the jit functions of a module and the qualname of every def.
type discovery struct {
	aliases   map[string][]string // import-bound name -> the qualified names it may refer to
	sites     []site
	seen      map[*ast.FunctionDef]bool
	qualnames map[*ast.FunctionDef]string
}

// discover walks a module's statements, at every depth, for jit functions.
func discover(mod *ast.Module) *discovery {
	d := &discovery{aliases: map[string][]string{}, seen: map[*ast.FunctionDef]bool{}, qualnames: map[*ast.FunctionDef]string{}}
	d.collectImports(mod.Body)
	d.block(mod.Body, &blockScope{kind: moduleScope})
	return d
}

// collectImports records the names every import statement of the file binds, wherever it
// stands; a name imported differently in two places may refer to either.
func (d *discovery) collectImports(stmts []ast.Stmt) {
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.Import:
			for _, a := range st.Names {
				name, path := a.Asname, a.Name
				if name == "" { // `import a.b.c` binds a
					name, _, _ = strings.Cut(a.Name, ".")
					path = name
				}
				d.aliases[name] = append(d.aliases[name], path)
			}
		case *ast.ImportFrom:
			if st.Level > 0 || st.Module == "" {
				continue
			}
			for _, a := range st.Names {
				if a.Name == "*" {
					continue
				}
				name := a.Asname
				if name == "" {
					name = a.Name
				}
				d.aliases[name] = append(d.aliases[name], st.Module+"."+a.Name)
			}
		case *ast.FunctionDef:
			d.collectImports(st.Body)
		case *ast.AsyncFunctionDef:
			d.collectImports(st.Body)
		case *ast.ClassDef:
			d.collectImports(st.Body)
		default:
			forBlocks(st, d.collectImports)
		}
	}
}

// forBlocks calls f on each statement list nested in a compound statement that stays in
// the statement's own scope (if, for, while, with, try and match bodies).
func forBlocks(st ast.Stmt, f func([]ast.Stmt)) {
	switch st := st.(type) {
	case *ast.If:
		f(st.Body)
		f(st.Orelse)
	case *ast.For:
		f(st.Body)
		f(st.Orelse)
	case *ast.AsyncFor:
		f(st.Body)
		f(st.Orelse)
	case *ast.While:
		f(st.Body)
		f(st.Orelse)
	case *ast.With:
		f(st.Body)
	case *ast.AsyncWith:
		f(st.Body)
	case *ast.Try:
		f(st.Body)
		for _, h := range st.Handlers {
			f(h.Body)
		}
		f(st.Orelse)
		f(st.Finalbody)
	case *ast.TryStar:
		f(st.Body)
		for _, h := range st.Handlers {
			f(h.Body)
		}
		f(st.Orelse)
		f(st.Finalbody)
	case *ast.Match:
		for _, c := range st.Cases {
			f(c.Body)
		}
	}
}

// block walks one statement list of scope s in source order.
func (d *discovery) block(stmts []ast.Stmt, s *blockScope) {
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.FunctionDef:
			q := s.qualname(st.Name)
			d.qualnames[st] = q
			s.bind(st.Name, st)
			for _, dec := range st.DecoratorList {
				if d.isJITDecorator(dec) {
					d.add(st, st.Name, q, s)
					break
				}
			}
			d.block(st.Body, s.function(q, &funcScope{name: st.Name, line: int(st.Lineno), args: st.Args, body: st.Body}))
		case *ast.AsyncFunctionDef:
			q := s.qualname(st.Name)
			s.bind(st.Name, nil)
			d.block(st.Body, s.function(q, &funcScope{name: st.Name, line: int(st.Lineno), args: st.Args, body: st.Body}))
		case *ast.ClassDef:
			q := s.qualname(st.Name)
			s.bind(st.Name, nil)
			d.block(st.Body, &blockScope{kind: classScope, prefix: q + ".", enclosing: s.enclosing})
		case *ast.Assign:
			if fn := d.wrappedName(st.Value); fn != "" {
				if def := s.defs[fn]; def != nil && !d.seen[def] {
					name := def.Name
					if t, ok := st.Targets[0].(*ast.Name); ok && len(st.Targets) == 1 {
						name = t.ID
					}
					d.add(def, name, d.qualnames[def], s)
				}
			}
		case *ast.Global:
			if s.globals == nil {
				s.globals = map[string]bool{}
			}
			for _, n := range st.Names {
				s.globals[n] = true
			}
		default:
			forBlocks(st, func(body []ast.Stmt) { d.block(body, s) })
		}
	}
}

// qualname is the __qualname__ CPython gives a function or class called name defined in
// s: a name declared global in an enclosing function or class stays bare.
func (s *blockScope) qualname(name string) string {
	if s.kind != moduleScope && s.globals[name] {
		return name
	}
	return s.prefix + name
}

// bind records the def a name is bound to (nil for a class or async def).
func (s *blockScope) bind(name string, def *ast.FunctionDef) {
	if s.defs == nil {
		s.defs = map[string]*ast.FunctionDef{}
	}
	s.defs[name] = def
}

// function is the scope of the body of fn, a function whose qualname is q defined in s.
func (s *blockScope) function(q string, fn *funcScope) *blockScope {
	enclosing := append(s.enclosing[:len(s.enclosing):len(s.enclosing)], fn)
	return &blockScope{kind: functionScope, prefix: q + ".<locals>.", enclosing: enclosing}
}

func (d *discovery) add(def *ast.FunctionDef, name, qualname string, s *blockScope) {
	if d.seen[def] {
		return
	}
	d.seen[def] = true
	d.sites = append(d.sites, site{def: def, name: name, qualname: qualname, topLevel: s.kind == moduleScope, enclosing: s.enclosing})
}

// isJITDecorator reports whether a decorator is triton.jit, bare or called with options.
func (d *discovery) isJITDecorator(e ast.Expr) bool {
	if c, ok := e.(*ast.Call); ok {
		e = c.Func
	}
	return d.namesJIT(e)
}

// wrappedName returns fn when e is triton.jit(fn, ...) or triton.jit(...)(fn), else "".
func (d *discovery) wrappedName(e ast.Expr) string {
	c, ok := e.(*ast.Call)
	if !ok || len(c.Args) == 0 {
		return ""
	}
	callee := c.Func
	if inner, ok := callee.(*ast.Call); ok && len(inner.Args) == 0 {
		callee = inner.Func
	}
	fn, ok := c.Args[0].(*ast.Name)
	if !ok || !d.namesJIT(callee) {
		return ""
	}
	return fn.ID
}

// namesJIT reports whether a dotted name refers to triton.jit through the file's imports.
// A name no import binds is taken as written (triton.jit in a file that gets triton from
// elsewhere).
func (d *discovery) namesJIT(e ast.Expr) bool {
	var rest []string
	for {
		a, ok := e.(*ast.Attribute)
		if !ok {
			break
		}
		rest = append(rest, a.Attr)
		e = a.Value
	}
	n, ok := e.(*ast.Name)
	if !ok {
		return false
	}
	var tail strings.Builder
	for i := len(rest) - 1; i >= 0; i-- {
		tail.WriteByte('.')
		tail.WriteString(rest[i])
	}
	roots := d.aliases[n.ID]
	if len(roots) == 0 {
		roots = []string{n.ID}
	}
	for _, r := range roots {
		if jitPaths[r+tail.String()] {
			return true
		}
	}
	return false
}
