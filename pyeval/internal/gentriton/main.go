// Command gentriton writes pyeval's table of the modules of an installed Triton and the names
// each binds at top level, read from a git checkout of Triton's sources:
//
//	go run ./pyeval/internal/gentriton -git ~/triton/.git \
//	    -ref release/3.6.x -o pyeval/triton_modules.go
//
// The installed layout follows Triton's setup.py: python/triton is the triton package, each
// backend's third_party/*/language/NAME folder becomes triton.language.extra.NAME (and
// tools/NAME triton.tools.extra.NAME), its third_party/NAME/backend folder
// triton.backends.NAME, and third_party/proton/proton triton.profiler.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"os/exec"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
)

func main() {
	gitDir := flag.String("git", "", "git directory of a Triton checkout or mirror")
	ref := flag.String("ref", "release/3.6.x", "the branch or commit to read")
	out := flag.String("o", "triton_modules.go", "the Go file to write")
	flag.Parse()
	files, err := gitLines(*gitDir, "ls-tree", "-r", "--name-only", *ref)
	if err != nil {
		log.Fatal(err)
	}
	mods := map[string]*module{}
	for _, f := range files {
		name, ok := moduleOf(f)
		if !ok {
			continue
		}
		src, err := git(*gitDir, "show", *ref+":"+f)
		if err != nil {
			log.Fatal(err)
		}
		tree, err := frontend.ParseFile(f, src)
		if err != nil {
			log.Fatalf("%s: %v", f, err)
		}
		m := ensure(mods, name)
		m.pkg = strings.HasSuffix(f, "/__init__.py")
		m.body = tree.Body
	}
	for _, m := range mods {
		m.collect(m.body)
	}
	for _, m := range mods {
		m.expandStars(mods, map[string]bool{})
	}
	commit, err := gitLines(*gitDir, "rev-parse", *ref)
	if err != nil {
		log.Fatal(err)
	}
	src, err := format.Source(render(mods, *ref, commit[0]))
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// module is one Python module of the installed package and the names it binds.
type module struct {
	name  string
	pkg   bool
	body  []ast.Stmt
	names map[string]binding
	stars []string // modules whose public names `from M import *` binds
	done  bool
}

func ensure(mods map[string]*module, name string) *module {
	if m, ok := mods[name]; ok {
		return m
	}
	m := &module{name: name, names: map[string]binding{}}
	mods[name] = m
	if parent, _, ok := cutLast(name); ok {
		ensure(mods, parent).pkg = true
	}
	return m
}

// moduleOf maps a source path of the repository to the module it installs as.
func moduleOf(file string) (string, bool) {
	if !strings.HasSuffix(file, ".py") {
		return "", false
	}
	rel := strings.TrimSuffix(file, ".py")
	var dotted string
	switch parts := strings.Split(rel, "/"); {
	case parts[0] == "python" && len(parts) > 2 && parts[1] == "triton":
		dotted = strings.Join(parts[1:], ".")
	case parts[0] == "third_party" && len(parts) > 4 && parts[2] == "language":
		dotted = "triton.language.extra." + strings.Join(parts[3:], ".")
	case parts[0] == "third_party" && len(parts) > 3 && parts[2] == "backend":
		dotted = "triton.backends." + parts[1] + "." + strings.Join(parts[3:], ".")
	case parts[0] == "third_party" && len(parts) > 4 && parts[2] == "tools":
		dotted = "triton.tools.extra." + strings.Join(parts[3:], ".")
	case len(parts) > 3 && parts[0] == "third_party" && parts[1] == "proton" && parts[2] == "proton":
		dotted = "triton.profiler." + strings.Join(parts[3:], ".")
	default:
		return "", false
	}
	if strings.Contains(dotted, "-") || strings.Contains(dotted, ".tests.") || strings.Contains(dotted, ".test.") {
		return "", false
	}
	return strings.TrimSuffix(dotted, ".__init__"), true
}

// collect records the names that top-level statements bind, looking into if, try and with
// blocks, which run when the module is imported.
func (m *module) collect(body []ast.Stmt) {
	bind := func(name, mod string) { m.names[name] = binding{module: mod} }
	for _, st := range body {
		switch st := st.(type) {
		case *ast.FunctionDef:
			m.names[st.Name] = binding{params: pyeval.ParamNames(st.Args)}
		case *ast.AsyncFunctionDef:
			bind(st.Name, "")
		case *ast.ClassDef:
			m.names[st.Name] = binding{}
			for _, b := range st.Body {
				if f, ok := b.(*ast.FunctionDef); ok && f.Name == "__init__" {
					if ps := pyeval.ParamNames(f.Args); len(ps) > 0 {
						m.names[st.Name] = binding{params: ps[1:]}
					}
				}
			}
		case *ast.Assign:
			for _, t := range st.Targets {
				for _, n := range targetNames(t) {
					bind(n, "")
				}
			}
		case *ast.AnnAssign:
			if st.Value != nil {
				for _, n := range targetNames(st.Target) {
					bind(n, "")
				}
			}
		case *ast.AugAssign:
			for _, n := range targetNames(st.Target) {
				bind(n, "")
			}
		case *ast.Import:
			for _, a := range st.Names {
				if a.Asname != "" {
					bind(a.Asname, a.Name)
				} else {
					top, _, _ := strings.Cut(a.Name, ".")
					bind(top, top)
				}
			}
		case *ast.ImportFrom:
			from := m.resolve(st.Module, st.Level)
			for _, a := range st.Names {
				if a.Name == "*" {
					m.stars = append(m.stars, from)
					continue
				}
				name := a.Asname
				if name == "" {
					name = a.Name
				}
				m.names[name] = binding{from: from, attr: a.Name}
			}
		case *ast.If:
			m.collect(st.Body)
			m.collect(st.Orelse)
		case *ast.Try:
			m.collect(st.Body)
			for _, h := range st.Handlers {
				m.collect(h.Body)
			}
			m.collect(st.Orelse)
			m.collect(st.Finalbody)
		case *ast.With:
			m.collect(st.Body)
		case *ast.Delete:
			for _, t := range st.Targets {
				if n, ok := t.(*ast.Name); ok {
					delete(m.names, n.ID)
				}
			}
		}
	}
}

// binding is what a top-level name is bound to: a module, another module's name (a
// from-import, resolved once every module is read), or any other value; params lists the
// parameters of a function, or of a class's __init__ after self (nil when neither).
type binding struct {
	module     string
	from, attr string
	params     []string
}

// lookup resolves a name of m to the module it is bound to, "" for any other value.
func (m *module) lookup(mods map[string]*module, name string, depth int) string {
	b, ok := m.names[name]
	switch {
	case !ok || depth > 20:
		return ""
	case b.from == "":
		return b.module
	}
	if src, ok := mods[b.from]; ok && src != m { // `from . import x` in a package imports its submodule
		if _, bound := src.names[b.attr]; bound {
			return src.lookup(mods, b.attr, depth+1)
		}
	}
	if _, sub := mods[b.from+"."+b.attr]; sub {
		return b.from + "." + b.attr
	}
	return ""
}

// paramsOf resolves a name of m to the parameters of the function or class it is bound
// to, following from-imports; nil when it is neither.
func (m *module) paramsOf(mods map[string]*module, name string, depth int) []string {
	b, ok := m.names[name]
	if !ok || depth > 20 {
		return nil
	}
	if b.from == "" {
		return b.params
	}
	if src, ok := mods[b.from]; ok && src != m {
		return src.paramsOf(mods, b.attr, depth+1)
	}
	return nil
}

// resolve turns the module of a from-import into an absolute name.
func (m *module) resolve(mod string, level int) string {
	if level == 0 {
		return mod
	}
	base := m.name
	if !m.pkg {
		base, _, _ = cutLast(base)
	}
	for range level - 1 {
		base, _, _ = cutLast(base)
	}
	if mod == "" {
		return base
	}
	return base + "." + mod
}

// expandStars adds the names that `from M import *` statements bind: M's __all__ when it
// assigns one as a literal, else its names that do not start with an underscore.
func (m *module) expandStars(mods map[string]*module, visiting map[string]bool) {
	if m.done || visiting[m.name] {
		return
	}
	visiting[m.name] = true
	for _, s := range m.stars {
		src, ok := mods[s]
		if !ok {
			continue
		}
		src.expandStars(mods, visiting)
		for _, n := range src.public() {
			m.names[n] = src.names[n]
		}
	}
	m.done = true
}

func (m *module) public() []string {
	for _, st := range m.body {
		if a, ok := st.(*ast.Assign); ok && len(a.Targets) == 1 {
			if n, ok := a.Targets[0].(*ast.Name); ok && n.ID == "__all__" {
				if l, ok := a.Value.(*ast.List); ok {
					var out []string
					for _, e := range l.Elts {
						if c, ok := e.(*ast.Constant); ok {
							if s, ok := c.Value.(string); ok {
								out = append(out, s)
							}
						}
					}
					return out
				}
			}
		}
	}
	var out []string
	for n := range m.names {
		if !strings.HasPrefix(n, "_") {
			out = append(out, n)
		}
	}
	return out
}

func targetNames(t ast.Expr) []string {
	switch t := t.(type) {
	case *ast.Name:
		return []string{t.ID}
	case *ast.Tuple:
		var out []string
		for _, e := range t.Elts {
			out = append(out, targetNames(e)...)
		}
		return out
	case *ast.List:
		var out []string
		for _, e := range t.Elts {
			out = append(out, targetNames(e)...)
		}
		return out
	case *ast.Starred:
		return targetNames(t.Value)
	}
	return nil
}

func cutLast(name string) (string, string, bool) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return "", name, false
	}
	return name[:i], name[i+1:], true
}

func render(mods map[string]*module, ref, commit string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by go run ./pyeval/internal/gentriton -ref %s; DO NOT EDIT.\n\n", ref)
	fmt.Fprintf(&b, "package pyeval\n\n")
	fmt.Fprintf(&b, "// tritonModuleNames lists every module of Triton %s (commit %s) as it is installed,\n", strings.TrimPrefix(path.Base(ref), "release/"), commit[:12])
	b.WriteString("// with the names its top-level code binds, space-separated; NAME=MODULE binds a module,\n")
	b.WriteString("// NAME(P,Q) a function or class with those parameters.\n")
	b.WriteString("var tritonModuleNames = map[string]string{\n")
	names := make([]string, 0, len(mods))
	for n := range mods {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		m := mods[n]
		var parts []string
		for k := range m.names {
			if mod := m.lookup(mods, k, 0); mod != "" {
				k += "=" + mod
			} else if ps := m.paramsOf(mods, k, 0); ps != nil {
				k += "(" + strings.Join(ps, ",") + ")"
			}
			parts = append(parts, k)
		}
		slices.Sort(parts)
		fmt.Fprintf(&b, "%q: %q,\n", n, strings.Join(parts, " "))
	}
	b.WriteString("}\n")
	return b.Bytes()
}

func git(dir string, args ...string) ([]byte, error) {
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v", strings.Join(args, " "), err)
	}
	return out, nil
}

func gitLines(dir string, args ...string) ([]string, error) {
	out, err := git(dir, args...)
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}
