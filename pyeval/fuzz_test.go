package pyeval_test

import (
	"os"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
)

// FuzzExec checks that no module makes the evaluator panic or run away: every module that
// parses evaluates, and every name it binds has a repr.
func FuzzExec(f *testing.F) {
	for _, group := range [][]hostCase{libdeviceCases, versionCases, torchCases, classCases, reasonCases, libraryCases} {
		for _, c := range group {
			f.Add(c.src)
		}
	}
	if raw, err := os.ReadFile("testdata/exprs.txt"); err == nil {
		for _, line := range strings.Split(string(raw), "\n") {
			if line != "" && !strings.HasPrefix(line, "#") {
				f.Add("x = " + line + "\n")
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		mod, err := frontend.ParseFile("fuzz.py", []byte(src))
		if err != nil {
			return
		}
		m := pyeval.Exec("fuzz", "fuzz.py", []byte(src), mod, pyeval.Options{Steps: 20000})
		for _, n := range m.Names() {
			v, _ := m.Lookup(n)
			if r := pyeval.Repr(v); strings.Contains(r, "internal error") {
				t.Fatalf("%s = %s", n, r) // a panic that execGuarded caught
			}
		}
	})
}
