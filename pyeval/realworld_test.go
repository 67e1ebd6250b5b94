package pyeval_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
)

// TestRealworldHostCode evaluates the module-level code of every file of the real-world
// corpus (GOTRITON_REALWORLD, made by conformance/realworld/extract.sh): no file may hit an
// internal error of the evaluator.
func TestRealworldHostCode(t *testing.T) {
	dir := os.Getenv("GOTRITON_REALWORLD")
	if dir == "" {
		t.Skip("GOTRITON_REALWORLD is not set")
	}
	files, unknowns := 0, 0
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || !strings.HasSuffix(p, ".py") || info.Size() == 0 {
			return err
		}
		f, err := frontend.Load(p, pyeval.Options{})
		if err != nil {
			return nil // files that do not parse are the parser's tests
		}
		files++
		for _, n := range f.Module.Names() {
			v, _ := f.Module.Lookup(n)
			if u, ok := v.(pyeval.Unknown); ok {
				unknowns++
				if strings.Contains(u.Why, "internal error") {
					t.Errorf("%s: %s = %s", p, n, u.Why)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files evaluated, %d globals Unknown", files, unknowns)
}
