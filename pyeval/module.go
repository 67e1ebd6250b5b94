package pyeval

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

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
	// Steps bounds the work spent evaluating each top-level statement of host code (each
	// expression is one step); 0 means 1,000,000.
	Steps int
	// Importer resolves import statements; nil leaves every imported name a Ref.
	Importer Importer
	// Path lists folders to search for imported modules after the importing file's folder
	// and package roots (the --path flag, GOTRITON_PATH). Importers read it.
	Path []string
	// Started, when set, is called with the module before its body runs, so that an
	// importer can hand out the partly initialized module to a circular import, as
	// Python's sys.modules does.
	Started func(*Module)
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
	m.globals.set("__doc__", docstring(mod))
	if m.IsPackage() {
		m.globals.set("__package__", Str(name))
		m.globals.set("__path__", &List{[]Value{Str(filepath.Dir(file))}})
	} else {
		pkg, _, _ := cutLastDot(name)
		m.globals.set("__package__", Str(pkg))
	}
	m.globals.set("__spec__", unknownf("the module spec of %s", name))
	m.lineStart = append(m.lineStart, 0)
	for i, c := range src {
		if c == '\n' {
			m.lineStart = append(m.lineStart, i+1)
		}
	}
	if opts.Started != nil {
		opts.Started(m)
	}
	ev := &evaluator{mod: m, budget: opts.Steps}
	ev.execModuleBody(mod.Body, m.globals)
	return m
}

// docstring returns a module's docstring, or None.
func docstring(mod *ast.Module) Value {
	if len(mod.Body) > 0 {
		if e, ok := mod.Body[0].(*ast.ExprStmt); ok {
			if c, ok := e.Value.(*ast.Constant); ok {
				if s, ok := c.Value.(string); ok {
					return Str(s)
				}
			}
		}
	}
	return None
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
func (m *Module) Eval(e ast.Expr, locals map[string]Value) (v Value, err error) {
	s := newScope(m.globals)
	for k, v := range locals {
		s.set(k, v)
	}
	ev := &evaluator{mod: m, steps: 100_000}
	defer recoverInto(&err)
	return ev.expr(e, s)
}

// recoverInto turns a Go panic of the evaluator into an error, for calls from compiled
// kernels.
func recoverInto(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("internal error evaluating host code: %v", r)
	}
}

// Call calls a host callable (a Function, Builtin or modelled Ref) with the given arguments.
func (m *Module) Call(fn Value, args []Value, kwargs *Dict) (v Value, err error) {
	ev := &evaluator{mod: m, steps: 100_000}
	defer recoverInto(&err)
	return ev.call(fn, args, kwargs, ast.Pos{})
}

// execModuleBody runs top-level statements as importing the module would. A statement that
// cannot be evaluated offline (it needs torch tensors or a GPU), or that raises, binds the
// names it would have bound to an Unknown that says why and where; the statements after it
// still run. Each top-level statement gets its own step budget.
func (ev *evaluator) execModuleBody(body []ast.Stmt, s *scope) {
	for _, st := range body {
		if err := ev.execGuarded(st, s); err != nil {
			ev.settle(st, s, err)
		}
	}
}

// settle binds the names of a statement that failed to Unknown; a script run also
// records the statement as skipped.
func (ev *evaluator) settle(st ast.Stmt, s *scope, err error) {
	if ev.inScript() {
		ev.skip(st, s, err)
		return
	}
	ev.bindUnknown(st, s, err)
}

// execGuarded runs one top-level statement; a bug of the evaluator (a Go panic) becomes
// an error of that statement rather than a crash.
func (ev *evaluator) execGuarded(st ast.Stmt, s *scope) (err error) {
	depth := ev.depth
	defer func() {
		if r := recover(); r != nil {
			ev.depth = depth
			err = ev.errorf(st.Position(), "internal error evaluating host code: %v", r)
		}
	}()
	return ev.execTop(st, s)
}

// execTop runs one statement of module-level code. Errors that are limits of offline
// evaluation bind the statement's names to Unknown here; a Python exception is returned,
// for an enclosing try statement to catch.
func (ev *evaluator) execTop(st ast.Stmt, s *scope) error {
	if s == ev.mod.globals && ev.depth == 0 && ev.budget > 0 { // a script run has one budget in all
		ev.steps = ev.budget
	}
	var err error
	switch st := st.(type) {
	case *ast.If:
		var truth bool
		if truth, err = ev.condition(st.Test, s); err == nil {
			if truth {
				return ev.execTopBlock(st.Body, s)
			}
			return ev.execTopBlock(st.Orelse, s)
		}
	case *ast.Try:
		_, err = ev.tryStmt(st, s, func(body []ast.Stmt, s *scope) (flow, error) {
			return flowNext, ev.execTopBlock(body, s)
		})
	case *ast.With:
		if err = ev.withItems(st.Items, s); err == nil {
			return ev.execTopBlock(st.Body, s)
		}
	default:
		if _, err = ev.stmt(st, s); err == nil {
			ev.locateUnknowns(st, s)
		}
		if a, ok := st.(*ast.AnnAssign); ok {
			if n, ok := a.Target.(*ast.Name); ok && s == ev.mod.globals {
				ev.mod.Annotations[n.ID] = ev.mod.Text(a.Annotation.Position())
			}
		}
	}
	if err == nil || exception(err) != nil {
		return err
	}
	ev.settle(st, s, err)
	return nil
}

// execTopBlock runs module-level statements until one raises.
func (ev *evaluator) execTopBlock(body []ast.Stmt, s *scope) error {
	for _, st := range body {
		if err := ev.execTop(st, s); err != nil {
			return err
		}
	}
	return nil
}

// withItems evaluates the context managers of a with statement; the names `as` binds are
// Unknown (what __enter__ returns is host state).
func (ev *evaluator) withItems(items []*ast.WithItem, s *scope) error {
	for _, it := range items {
		if _, err := ev.expr(it.ContextExpr, s); err != nil {
			return err
		}
		if it.OptionalVars != nil {
			for _, n := range targetNames(it.OptionalVars) {
				s.set(n, unknownf("the value of `with %s as ...` (line %d)", ev.quoteText(it.ContextExpr), it.ContextExpr.Position().Lineno))
			}
		}
	}
	return nil
}

// locateUnknowns adds the statement's line to the reason of each Unknown that a
// module-level statement bound directly, so that a kernel using it can say where it came
// from.
func (ev *evaluator) locateUnknowns(st ast.Stmt, s *scope) {
	switch st.(type) {
	case *ast.Assign, *ast.AnnAssign, *ast.AugAssign, *ast.For:
	default:
		return
	}
	for _, n := range boundNames(st) {
		if v, ok := s.get(n); ok {
			if u, ok := v.(Unknown); ok && !strings.Contains(u.Why, "(line ") && !strings.HasPrefix(u.Why, ev.mod.File+":") {
				s.set(n, Unknown{fmt.Sprintf("%s (line %d)", u.Why, st.Position().Lineno)})
			}
		}
	}
}

// bindUnknown binds every name a failed statement would have bound to Unknown.
func (ev *evaluator) bindUnknown(st ast.Stmt, s *scope, err error) {
	why := err.Error()
	if err == errBudget {
		why = fmt.Sprintf("%s (line %d)", why, st.Position().Lineno)
	}
	_, isImport := st.(*ast.Import)
	_, isFrom := st.(*ast.ImportFrom)
	for _, n := range boundNames(st) {
		if isImport || isFrom {
			// A failed import binds nothing: a name an earlier statement bound keeps its
			// value (`import triton` stays when `import triton.tools.gone` fails).
			if v, ok := s.get(n); ok {
				if _, unknown := v.(Unknown); !unknown {
					continue
				}
			}
		}
		s.set(n, Unknown{why})
	}
}

// boundNames lists the names a statement binds, looking into compound statements.
func boundNames(st ast.Stmt) []string {
	var out []string
	var walk func(body []ast.Stmt)
	walk = func(body []ast.Stmt) {
		for _, st := range body {
			switch st := st.(type) {
			case *ast.Assign:
				out = append(out, namesOf(st.Targets)...)
			case *ast.AnnAssign:
				out = append(out, targetNames(st.Target)...)
			case *ast.AugAssign:
				out = append(out, targetNames(st.Target)...)
			case *ast.FunctionDef:
				out = append(out, st.Name)
			case *ast.AsyncFunctionDef:
				out = append(out, st.Name)
			case *ast.ClassDef:
				out = append(out, st.Name)
			case *ast.Import:
				for _, a := range st.Names {
					name, _, _ := cutDot(a.Name)
					out = append(out, cmpOr(a.Asname, name))
				}
			case *ast.ImportFrom:
				for _, a := range st.Names {
					if a.Name != "*" {
						out = append(out, cmpOr(a.Asname, a.Name))
					}
				}
			case *ast.For:
				out = append(out, targetNames(st.Target)...)
				walk(st.Body)
				walk(st.Orelse)
			case *ast.AsyncFor:
				out = append(out, targetNames(st.Target)...)
				walk(st.Body)
				walk(st.Orelse)
			case *ast.While:
				walk(st.Body)
				walk(st.Orelse)
			case *ast.If:
				walk(st.Body)
				walk(st.Orelse)
			case *ast.With:
				for _, it := range st.Items {
					if it.OptionalVars != nil {
						out = append(out, targetNames(it.OptionalVars)...)
					}
				}
				walk(st.Body)
			case *ast.Try:
				walk(st.Body)
				for _, h := range st.Handlers {
					if h.Name != "" {
						out = append(out, h.Name)
					}
					walk(h.Body)
				}
				walk(st.Orelse)
				walk(st.Finalbody)
			}
		}
	}
	walk([]ast.Stmt{st})
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
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
	budget int // the steps each top-level statement may take
	retval Value
	depth  int
	refs   map[[2]string]Value // Ref attributes already evaluated, by (Ref path, name)
	pos    ast.Pos             // where the builtin being called is called
}

// quoteText returns a short form of the source an expression spans, for Unknown reasons.
func (ev *evaluator) quoteText(e ast.Expr) string {
	t := ev.mod.Text(e.Position())
	if i := bytes.IndexByte([]byte(t), '\n'); i >= 0 {
		t = t[:i] + "..."
	}
	return t
}
