package frontend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/pyeval"
)

// FuzzParse checks that no input makes the parser panic or hang, and that every tree it
// returns can be dumped.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.py")
	more, _ := filepath.Glob("testdata/py312/*.py")
	for _, p := range append(files, more...) {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	for _, c := range errorCases {
		f.Add([]byte(c.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		mod, err := ParseFile("fuzz.py", src)
		if err == nil {
			_ = ast.Dump(mod)
			return
		}
		if msg := err.Error(); strings.Contains(msg, "internal error") {
			t.Fatal(msg) // a panic caught by ParseFile's last-resort recover
		}
	})
}

// BenchmarkParseTutorials parses every file of GOTRITON_TUTORIALS (or of our testdata).
func BenchmarkParseTutorials(b *testing.B) {
	var srcs [][]byte
	size := 0
	for _, p := range corpus(b) {
		if dir := os.Getenv("GOTRITON_TUTORIALS"); dir != "" && filepath.Dir(p) != filepath.Clean(dir) {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		size += len(src)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range srcs {
			if _, err := ParseFile("bench.py", src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkExecTutorials evaluates the module-level host code of every file of
// GOTRITON_TUTORIALS (or of our testdata), parsed once beforehand.
func BenchmarkExecTutorials(b *testing.B) {
	type parsed struct {
		path string
		src  []byte
		mod  *ast.Module
	}
	var files []parsed
	for _, p := range corpus(b) {
		if dir := os.Getenv("GOTRITON_TUTORIALS"); dir != "" && filepath.Dir(p) != filepath.Clean(dir) {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		mod, err := ParseFile(p, src)
		if err != nil {
			continue // testdata holds files that are meant not to parse
		}
		files = append(files, parsed{p, src, mod})
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			opts := pyeval.Options{}
			opts.Importer = newImporter(f.path, opts)
			pyeval.Exec(strings.TrimSuffix(filepath.Base(f.path), ".py"), f.path, f.src, f.mod, opts)
		}
	}
}
