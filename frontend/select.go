package frontend

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gotriton/gotriton/diag"
)

// Lookup finds the kernel a selector names: its qualname (test_foo.<locals>.kernel), the
// name the module binds it to, its bare name when no other kernel of the file has it, or
// NAME@LINE with the line of its def. Several top-level kernels of one name (a def
// redefined, or one per branch of an if) select the one the module binds. Lookup returns
// nil and no error when nothing has the name, and an error listing the candidates when
// the selector is ambiguous.
func (f *File) Lookup(sel string) (*Kernel, error) {
	if name, line, ok := splitLine(sel); ok {
		var named, at []*Kernel
		for _, k := range f.Kernels {
			if k.QualName == name || k.Name == name || k.Def.Name == name {
				named = append(named, k)
				if int(k.Def.Lineno) == line {
					at = append(at, k)
				}
			}
		}
		switch {
		case len(at) == 1:
			return at[0], nil
		case len(at) > 1:
			return nil, f.ambiguous(sel, at)
		case len(named) > 0:
			return nil, &diag.Error{File: f.Path, Span: diag.Span{Line: 1}, Msg: fmt.Sprintf("no jit function '%s' has its def on line %d; %s", name, line, candidates(named))}
		}
		return nil, nil
	}
	var exact, bare []*Kernel
	for _, k := range f.Kernels {
		switch {
		case k.QualName == sel || k.TopLevel && k.Name == sel:
			exact = append(exact, k)
		case k.Name == sel || k.Def.Name == sel:
			bare = append(bare, k)
		}
	}
	if len(exact) > 1 {
		for _, k := range exact {
			if v, _ := f.Module.Lookup(k.Name); k.TopLevel && v == k.JIT {
				return k, nil
			}
		}
	}
	found := exact
	if len(found) == 0 {
		found = bare
	}
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return found[0], nil
	}
	return nil, f.ambiguous(sel, found)
}

// Kernel returns the kernel a selector names (see Lookup), or nil when none or several do.
func (f *File) Kernel(sel string) *Kernel {
	k, _ := f.Lookup(sel)
	return k
}

// Selector returns the shortest selector that names k: its name, its qualname, or
// QUALNAME@LINE.
func (f *File) Selector(k *Kernel) string {
	for _, sel := range []string{k.Name, k.QualName} {
		if got, _ := f.Lookup(sel); got == k {
			return sel
		}
	}
	return fmt.Sprintf("%s@%d", k.QualName, k.Def.Lineno)
}

func (f *File) ambiguous(sel string, ks []*Kernel) error {
	name, _, _ := strings.Cut(sel, "@")
	return &diag.Error{File: f.Path, Span: diag.Span{Line: 1}, Msg: fmt.Sprintf("'%s' names %d jit functions: %s; select one by its qualname or as %s@LINE", sel, len(ks), candidates(ks), name)}
}

// candidates lists kernels as "qualname (line N)".
func candidates(ks []*Kernel) string {
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = fmt.Sprintf("%s (line %d)", k.QualName, k.Def.Lineno)
	}
	return strings.Join(parts, ", ")
}

// splitLine splits NAME@LINE.
func splitLine(sel string) (string, int, bool) {
	i := strings.LastIndexByte(sel, '@')
	if i < 0 {
		return "", 0, false
	}
	line, err := strconv.Atoi(sel[i+1:])
	if err != nil || line < 1 {
		return "", 0, false
	}
	return sel[:i], line, true
}
