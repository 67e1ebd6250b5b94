// Package golden compares test output with golden files, as llir/llvm and wazero do. Run a
// package's tests with -update to rewrite its golden files from the current output.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Update is the -update flag, registered once for every test binary that imports golden.
var Update = flag.Bool("update", false, "rewrite golden files from the current output")

// Check compares got with the file at path, or rewrites the file under -update.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run go test -update and review the diff) at %s", path, FirstDiff(got, string(want)))
	}
}

// FirstDiff shows the first line where two texts differ, or "" when they are equal.
func FirstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n got: " + gl + "\nwant: " + wl
		}
	}
	return ""
}
