package frontend

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/pyeval"
)

// TestCircularImport checks that a circular import gets the partly initialized module,
// as Python's sys.modules gives it: pkgc/consts.py imports pkgc, whose __init__ imports
// consts back before consts has bound BLOCK. A name a package lacks (and has no submodule
// of) is an ImportError that names the package.
func TestCircularImport(t *testing.T) {
	f, err := Load(filepath.Join("testdata", "cycle", "pkgc", "kern.py"), pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	why := `"cannot import name 'missing_name' from 'pkgc' (` + filepath.Join("testdata", "cycle", "pkgc", "__init__.py") + `)"`
	for name, want := range map[string]string{"WHY": why, "BLOCK": "64", "pkgc.NAME": "'pkgc'", "pkgc.DOUBLE": "None", "pkgc.consts.BLOCK": "64"} {
		var v pyeval.Value
		var ok bool
		switch name {
		case "BLOCK", "WHY":
			v, ok = f.Module.Lookup(name)
		default:
			pkg, _ := f.Module.Lookup("pkgc")
			m, isMod := pkg.(*pyeval.Module)
			if !isMod {
				t.Fatalf("pkgc = %s, want a module", pyeval.Repr(pkg))
			}
			attr, sub, nested := strings.Cut(name[len("pkgc."):], ".")
			v, ok = m.Lookup(attr)
			if nested {
				c, _ := v.(*pyeval.Module)
				if c == nil {
					t.Fatalf("pkgc.consts = %s, want a module", pyeval.Repr(v))
				}
				v, ok = c.Lookup(sub)
			}
		}
		if !ok {
			t.Errorf("%s is not bound", name)
		} else if pyeval.Repr(v) != want {
			t.Errorf("%s = %v, want %s", name, pyeval.Repr(v), want)
		}
	}
}

// TestImportFromEnclosingPackage checks that an absolute import of a package the kernel
// file lives in resolves when the folders between lack __init__.py (lib/ops here).
func TestImportFromEnclosingPackage(t *testing.T) {
	f, err := Load(filepath.Join("testdata", "nspkg", "lib", "ops", "kern.py"), pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := f.Module.Lookup("IS_HIP"); v == nil || pyeval.Repr(v) != "False" {
		t.Errorf("IS_HIP = %v, want False", v)
	}
}
