package frontend

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/ast"
)

// TestGolden compares testdata/py312/*.py (3.12-only syntax, f-string positions) with
// dumps made by CPython 3.12 (testdata/gen_golden.py).
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/py312/*.py")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			mod, err := ParseFile(f, src)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(f, ".py") + ".dump")
			if errors.Is(err, fs.ErrNotExist) {
				t.Skip("no golden dump yet: run `python3.12 frontend/testdata/gen_golden.py` in the repository root")
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := ast.Dump(mod); got != strings.TrimRight(string(want), "\n") {
				t.Errorf("dump differs from CPython 3.12:\n%s", firstDiff(got, string(want)))
			}
		})
	}
}
