package pyeval_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/pyeval"
)

// TestEveryBuiltinIsKnown checks that every name of CPython's builtins module evaluates
// to something other than a NameError: a value, or an Unknown for those not modelled.
func TestEveryBuiltinIsKnown(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	out, err := exec.Command(py, "-c", "import builtins; print(' '.join(n for n in dir(builtins) if not n.startswith('_') or n in ('__import__', '__build_class__', '__debug__')))").Output()
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	names := strings.Fields(string(out))
	for _, n := range names {
		src.WriteString("v_" + n + " = " + n + "\n")
	}
	m := exec1(t, src.String())
	for _, n := range names {
		v, _ := m.Lookup("v_" + n)
		if r := pyeval.Repr(v); strings.Contains(r, "is not defined") {
			t.Errorf("builtin %s: %s", n, r)
		}
	}
}
