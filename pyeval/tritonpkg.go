package pyeval

import (
	"strings"
	"sync"
)

//go:generate go run ./internal/gentriton -git $TRITON_GIT -ref release/3.6.x -o triton_modules.go

// tritonModule is one module of the modelled Triton: the names its top-level code binds,
// each to the module it names or to "" for any other value, and the parameters of those
// that are functions or classes.
type tritonModule struct {
	names  map[string]string
	params map[string][]string
}

// openTritonModules are the compiled extension modules: their names are not in the
// Python sources, so any name is taken to exist.
var openTritonModules = map[string]bool{"triton._C": true, "triton._C.libtriton": true}

var tritonModules = sync.OnceValue(func() map[string]tritonModule {
	out := make(map[string]tritonModule, len(tritonModuleNames))
	for mod, names := range tritonModuleNames {
		m := tritonModule{names: map[string]string{}, params: map[string][]string{}}
		for _, n := range strings.Fields(names) {
			if name, params, ok := strings.Cut(n, "("); ok {
				m.names[name] = ""
				m.params[name] = strings.Split(strings.TrimSuffix(params, ")"), ",")
				continue
			}
			name, target, _ := strings.Cut(n, "=")
			m.names[name] = target
		}
		out[mod] = m
	}
	return out
})

// isTritonPath reports whether path is under the triton package.
func isTritonPath(path string) bool { return path == "triton" || strings.HasPrefix(path, "triton.") }

// tritonImport checks that `import path` succeeds with Triton 3.6 installed: a path under
// triton must name one of its modules.
func tritonImport(path string) error {
	if !isTritonPath(path) {
		return nil
	}
	mods := tritonModules()
	for p := path; ; {
		if _, ok := mods[p]; ok || openTritonModules[p] {
			return nil
		}
		parent, _, ok := cutLastDot(p)
		if !ok {
			break
		}
		if openTritonModules[parent] {
			return nil
		}
		if _, ok := mods[parent]; ok {
			break
		}
		p = parent
	}
	return &Error{"ModuleNotFoundError", "No module named '" + path + "'"}
}

// tritonImportName checks that `from mod import name` succeeds with Triton 3.6: mod must
// bind name or have a submodule of that name.
func tritonImportName(mod, name string) error {
	if _, ok := tritonAttr(mod, name); ok || !isTritonPath(mod) {
		return nil
	}
	return &Error{"ImportError", "cannot import name '" + name + "' from '" + mod + "'"}
}

// tritonAttr resolves mod.name where mod is the path of a module: the path of the value
// (the module's own path when name is bound to a module), and whether the attribute
// exists. Only Triton's modules are checked; names of other modules are taken to exist.
func tritonAttr(mod, name string) (string, bool) {
	path := mod + "." + name
	m, ok := tritonModules()[mod]
	if !ok {
		return path, true
	}
	if target, bound := m.names[name]; bound {
		if target != "" {
			return target, true
		}
		return path, true
	}
	if _, sub := tritonModules()[path]; sub || openTritonModules[path] {
		return path, true
	}
	// Every module has its dunder attributes (__file__, __path__, __spec__, ...).
	return path, strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// isTritonModuleRef reports whether a Ref path denotes a module of the modelled Triton
// (rather than a function, class or constant of one, which may share a module's path:
// triton.runtime.driver is the driver object, not the module).
func isTritonModuleRef(path string) bool {
	_, ok := tritonModules()[path]
	if !ok {
		return false
	}
	parent, name, dotted := cutLastDot(path)
	if !dotted {
		return true
	}
	if !isTritonModuleRef(parent) {
		return false
	}
	target, bound := tritonModules()[parent].names[name]
	return !bound || target != ""
}

// tritonParams returns the parameters of the function or class at path in the modelled
// Triton (triton.autotune), as inspect.signature lists them.
func tritonParams(path string) ([]string, bool) {
	mod, name, ok := cutLastDot(path)
	if !ok || !isTritonModuleRef(mod) {
		return nil, false
	}
	ps, ok := tritonModules()[mod].params[name]
	if ok && len(ps) == 1 && ps[0] == "" {
		ps = nil
	}
	return ps, ok
}

func cutLastDot(s string) (string, string, bool) {
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return "", s, false
	}
	return s[:i], s[i+1:], true
}
