package pyeval

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/target"
)

// Module is an evaluated Python file: its top-level names bound as CPython would bind them,
// except that host-only work (torch calls, benchmarks, the `__main__` block) is skipped and
// whatever depends on it is Unknown.
type Module struct {
	Name   string // the module's __name__
	File   string
	Src    []byte
	AST    *ast.Module
	Target target.Target
	// Imports lists every name an import statement bound, in source order.
	Imports []Import
	// Annotations maps a global to the source text of its annotation (X: tl.constexpr = 8).
	Annotations map[string]string

	globals   *scope
	importer  Importer
	lineStart []int // byte offset of each line's first byte (index 0 is line 1)
	// target is what get_current_target() answers, made on the first call (host code
	// cannot set an object's attributes, so every call may share it).
	target *Object
	// script is set while the module runs as a script (RunScript).
	script *scriptState
}

// Import is a name bound by an import statement.
type Import struct {
	Name string // the name bound in the module
	Path string // the qualified name it refers to, e.g. "triton.language.extra.libdevice"
	Line int
}

// Options configures module evaluation.
type Options struct {
	// Target is the GPU that host code believes it runs on (get_current_target(),
	// torch.cuda.get_device_capability()); the zero value means target.Default.
	Target target.Target
	// Steps bounds the work spent evaluating host code (each expression is one step);
	// 0 means 1,000,000.
	Steps int
	// Importer resolves import statements; nil leaves every imported name a Ref.
	Importer Importer
	// Path lists folders to search for imported modules after the importing file's folder
	// and package roots (the --path flag, GOTRITON_PATH). Importers read it.
	Path []string
}

// Exec evaluates the module's top-level statements.
func Exec(name, file string, src []byte, mod *ast.Module, opts Options) *Module {
	if opts.Target.Backend == "" {
		opts.Target = target.Default
	}
	if opts.Steps == 0 {
		opts.Steps = 1_000_000
	}
	m := &Module{Name: name, File: file, Src: src, AST: mod, Target: opts.Target, Annotations: map[string]string{}, importer: opts.Importer}
	m.globals = newScope(nil)
	m.globals.set("__name__", Str(name))
	m.globals.set("__file__", Str(file))
	m.lineStart = append(m.lineStart, 0)
	for i, c := range src {
		if c == '\n' {
			m.lineStart = append(m.lineStart, i+1)
		}
	}
	ev := &evaluator{mod: m, steps: opts.Steps}
	ev.execModuleBody(mod.Body, m.globals)
	return m
}

// Lookup returns the value bound to a global name.
func (m *Module) Lookup(name string) (Value, bool) { return m.globals.get(name) }

// Names returns the global names in the order they were first bound.
func (m *Module) Names() []string { return m.globals.names }

// Text returns the source text that pos spans.
func (m *Module) Text(pos ast.Pos) string {
	start, end := m.offset(int(pos.Lineno), int(pos.ColOffset)), m.offset(int(pos.EndLineno), int(pos.EndColOffset))
	if start < 0 || end < start {
		return ""
	}
	return string(m.Src[start:end])
}

func (m *Module) offset(line, col int) int {
	if line < 1 || line > len(m.lineStart) {
		return -1
	}
	off := m.lineStart[line-1] + col
	if off > len(m.Src) {
		return -1
	}
	return off
}

// Eval evaluates one expression in the module's global scope, with extra local bindings.
func (m *Module) Eval(e ast.Expr, locals map[string]Value) (Value, error) {
	s := newScope(m.globals)
	for k, v := range locals {
		s.set(k, v)
	}
	ev := &evaluator{mod: m, steps: 100_000}
	return ev.expr(e, s)
}

// Call calls a host callable (a Function, Builtin or modelled Ref) with the given arguments.
func (m *Module) Call(fn Value, args []Value, kwargs *Dict) (Value, error) {
	ev := &evaluator{mod: m, steps: 100_000}
	return ev.call(fn, args, kwargs, ast.Pos{})
}

// execModuleBody runs top-level statements. A statement that fails binds its targets to
// Unknown instead of stopping the module, since host code often needs torch or a GPU.
func (ev *evaluator) execModuleBody(body []ast.Stmt, s *scope) {
	for _, st := range body {
		switch st := st.(type) {
		case *ast.ExprStmt, *ast.For, *ast.AsyncFor, *ast.While, *ast.With, *ast.AsyncWith,
			*ast.Match, *ast.Assert, *ast.Delete, *ast.Raise:
			// Host work (printing, benchmarking, launching): not run at compile time,
			// except by a script run.
			if ev.inScript() {
				ev.scriptStmt(st, s)
			}
			continue
		case *ast.If:
			t, err := ev.expr(st.Test, s)
			if err != nil {
				if ev.inScript() {
					ev.skip(st, s, err)
				}
				continue
			}
			truth, known := Truth(t)
			if !known {
				continue
			}
			if truth {
				ev.execModuleBody(st.Body, s)
			} else {
				ev.execModuleBody(st.Orelse, s)
			}
		case *ast.Try:
			ev.execModuleBody(st.Body, s)
			ev.execModuleBody(st.Orelse, s)
			ev.execModuleBody(st.Finalbody, s)
		default:
			if _, err := ev.stmt(st, s); err != nil {
				ev.bindUnknown(st, s, err)
			}
			if a, ok := st.(*ast.AnnAssign); ok {
				if n, ok := a.Target.(*ast.Name); ok {
					ev.mod.Annotations[n.ID] = ev.mod.Text(a.Annotation.Position())
				}
			}
		}
	}
}

// bindUnknown binds the names a failed statement would have bound to Unknown.
func (ev *evaluator) bindUnknown(st ast.Stmt, s *scope, err error) {
	why := err.Error()
	var targets []ast.Expr
	switch st := st.(type) {
	case *ast.Assign:
		targets = st.Targets
	case *ast.AnnAssign:
		targets = []ast.Expr{st.Target}
	case *ast.AugAssign:
		targets = []ast.Expr{st.Target}
	case *ast.FunctionDef:
		s.set(st.Name, Unknown{why})
	}
	for _, t := range targets {
		for _, n := range targetNames(t) {
			s.set(n, Unknown{why})
		}
	}
}

func targetNames(t ast.Expr) []string {
	switch t := t.(type) {
	case *ast.Name:
		return []string{t.ID}
	case *ast.Tuple:
		return namesOf(t.Elts)
	case *ast.List:
		return namesOf(t.Elts)
	case *ast.Starred:
		return targetNames(t.Value)
	}
	return nil
}

func namesOf(elts []ast.Expr) []string {
	var out []string
	for _, e := range elts {
		out = append(out, targetNames(e)...)
	}
	return out
}

// scope is one Python namespace; lookups fall back to the parent (enclosing function or
// module), then to builtins.
type scope struct {
	names  []string // in order of first assignment
	vals   []Value  // vals[i] is bound to names[i]
	index  map[string]int
	parent *scope
}

// scopeScan is how many names a scope searches one by one; beyond it, index maps names
// to their positions (function locals rarely need it, the module's globals do).
const scopeScan = 8

func newScope(parent *scope) *scope { return &scope{parent: parent} }

// newScopeSized returns a scope with room for n names.
func newScopeSized(parent *scope, n int) *scope {
	return &scope{names: make([]string, 0, n), vals: make([]Value, 0, n), parent: parent}
}

// find returns the position of name in s (not its parents), or -1.
func (s *scope) find(name string) int {
	if s.index != nil {
		if i, ok := s.index[name]; ok {
			return i
		}
		return -1
	}
	for i, n := range s.names {
		if n == name {
			return i
		}
	}
	return -1
}

func (s *scope) set(name string, v Value) {
	if i := s.find(name); i >= 0 {
		s.vals[i] = v
		return
	}
	s.names = append(s.names, name)
	s.vals = append(s.vals, v)
	switch {
	case s.index != nil:
		s.index[name] = len(s.names) - 1
	case len(s.names) > scopeScan:
		s.index = make(map[string]int, 2*len(s.names))
		for i, n := range s.names {
			s.index[n] = i
		}
	}
}

func (s *scope) get(name string) (Value, bool) {
	for ; s != nil; s = s.parent {
		if i := s.find(name); i >= 0 {
			return s.vals[i], true
		}
	}
	return nil, false
}

// errBudget stops evaluation that runs too long.
var errBudget = errors.New("host code evaluation exceeded its step budget")

// control-flow signals of statement execution.
type flow int

const (
	flowNext flow = iota
	flowReturn
	flowBreak
	flowContinue
)

// evaluator runs host code with a step budget.
type evaluator struct {
	mod    *Module
	steps  int
	retval Value
	depth  int
	refs   map[[2]string]Value // Ref attributes already evaluated, by (Ref path, name)
}

func (ev *evaluator) errorf(pos ast.Pos, format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: %s", ev.mod.File, pos.Lineno, pos.ColOffset+1, fmt.Sprintf(format, args...))
}

// quoteText returns a short form of the source an expression spans, for Unknown reasons.
func (ev *evaluator) quoteText(e ast.Expr) string {
	t := ev.mod.Text(e.Position())
	if i := bytes.IndexByte([]byte(t), '\n'); i >= 0 {
		t = t[:i] + "..."
	}
	return t
}
