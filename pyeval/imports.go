package pyeval

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/diag"
)

// Importer finds and evaluates the module that an import statement in fromFile names:
// module is the dotted name as written after the leading dots, level the number of dots
// (0 for an absolute import). It returns (nil, nil) for a module that gotriton models
// rather than reads (triton, torch, the standard library): its names stay Refs. An error
// means the module was searched for and not found, or could not be parsed; the names the
// import binds are then Unknown, with the import statement and the error as the reason.
type Importer func(fromFile, module string, level int) (*Module, error)

// TypeName makes an evaluated module a Python value, as `import pkg.lang as tle` binds it.
func (*Module) TypeName() string { return "module" }

func (m *Module) String() string { return "<module '" + m.Name + "' from '" + m.File + "'>" }

// IsPackage reports whether the module is a package (an __init__.py, or a folder without
// one): its submodules are its attributes.
func (m *Module) IsPackage() bool { return filepath.Base(m.File) == "__init__.py" }

// Attr returns the module's attribute name as Python's getattr does: a global, else (for a
// package) the submodule of that name.
func (m *Module) Attr(name string) (Value, error) {
	if v, ok := m.Lookup(name); ok {
		return v, nil
	}
	if m.IsPackage() && m.importer != nil {
		sub, err := m.importer(m.File, name, 1)
		if err != nil && !strings.HasPrefix(err.Error(), "no module named") {
			return nil, err // the submodule exists but does not load
		}
		if sub != nil {
			return sub, nil
		}
	}
	return nil, &Error{"AttributeError", "module '" + m.Name + "' has no attribute '" + name + "'"}
}

// publicNames returns the names `from m import *` binds: __all__ when the module defines
// it, else every global that does not start with an underscore.
func (m *Module) publicNames() []string {
	if all, ok := m.Lookup("__all__"); ok {
		if items, err := iterate(all); err == nil {
			var out []string
			for _, it := range items {
				if s, ok := it.(Str); ok {
					out = append(out, string(s))
				}
			}
			return out
		}
	}
	var out []string
	for _, n := range m.Names() {
		if !strings.HasPrefix(n, "_") {
			out = append(out, n)
		}
	}
	return out
}

// importModule evaluates the module an import statement names: a *Module when the
// importer found it, a Ref when the module is modelled (triton, torch, the standard
// library) or there is no importer. An import that does not resolve raises ImportError
// (ModuleNotFoundError when there is no such module), as Python does; its message names
// the statement and its line.
func (ev *evaluator) importModule(st ast.Stmt, module string, level int) (Value, error) {
	qualified := repeatDots(level) + module
	if level == 0 {
		if err := tritonImport(module); err != nil {
			return nil, ev.unresolved(st, err)
		}
	}
	if ev.mod.importer == nil {
		return Ref{qualified}, nil
	}
	m, err := ev.mod.importer(ev.mod.File, module, level)
	switch {
	case err != nil && ev.inScript() && level == 0 && scriptModules[strings.Split(module, ".")[0]]:
		return Ref{qualified}, nil
	case err != nil:
		return nil, ev.unresolved(st, err)
	case m == nil:
		return Ref{qualified}, nil
	}
	return m, nil
}

// importFrom returns the value `from <mod> import name` binds: the module's global, else
// its submodule.
func (ev *evaluator) importFrom(st ast.Stmt, mod Value, path, name string) (Value, error) {
	switch m := mod.(type) {
	case *Module:
		v, err := m.Attr(name)
		if e, ok := err.(*Error); ok && e.Kind == "AttributeError" {
			err = &Error{"ImportError", fmt.Sprintf("cannot import name '%s' from '%s' (%s)", name, m.Name, m.File)}
		}
		if err != nil {
			return nil, ev.unresolved(st, err)
		}
		return v, nil
	case Ref:
		if err := tritonImportName(m.Path, name); err != nil {
			return nil, ev.unresolved(st, err)
		}
		if ev.mod.importer != nil && !strings.HasPrefix(path, ".") {
			// A submodule of a modelled package that the importer has a model of.
			if sub, err := ev.mod.importer(ev.mod.File, path, 0); err == nil && sub != nil {
				return sub, nil
			}
		}
		if alias, ok := torchAliases[path]; ok {
			return Ref{alias}, nil
		}
		return Ref{path}, nil
	}
	return mod, nil
}

// unresolved is the ImportError of an import that did not resolve. Its message (the
// reason of the Unknowns bound when nothing catches it) names the statement and its line.
func (ev *evaluator) unresolved(st ast.Stmt, err error) error {
	exc := exception(err)
	if exc == nil {
		kind := "ImportError"
		switch {
		case strings.HasPrefix(err.Error(), "no module named"):
			kind = "ModuleNotFoundError"
		case errors.As(err, new(*diag.Error)):
			kind = "SyntaxError" // the imported file does not parse
		}
		exc = &Error{kind, err.Error()}
	}
	msg := fmt.Sprintf("%s (line %d) did not resolve: %v", strings.Join(strings.Fields(ev.mod.Text(st.Position())), " "), st.Position().Lineno, err)
	return &posError{msg: msg, err: exc}
}
