package frontend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/pyeval"
)

// FuzzParse checks that no input makes the parser or kernel discovery panic or hang, that
// every tree the parser returns can be dumped, and that every kernel discovery finds can
// be selected by its qualname or selector.
func FuzzParse(f *testing.F) {
	var files []string
	for _, pattern := range []string{"testdata/*.py", "testdata/py312/*.py", "testdata/kernels/*.py"} {
		more, _ := filepath.Glob(pattern)
		files = append(files, more...)
	}
	for _, p := range files {
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
			checkDiscovery(t, src)
			return
		}
		if msg := err.Error(); strings.Contains(msg, "a gotriton bug") {
			t.Fatal(msg) // a panic caught by ParseFile's last-resort recover
		}
	})
}

// checkDiscovery loads src as a kernel file (imports left unresolved, host code bounded)
// and checks that each kernel found is the one its selector names.
func checkDiscovery(t *testing.T, src []byte) {
	noImports := func(string, string, int) (*pyeval.Module, error) { return nil, nil }
	file, err := LoadSource("fuzz.py", src, pyeval.Options{Importer: noImports, Steps: 10_000})
	if err != nil {
		t.Fatalf("LoadSource fails on a file that parses: %v", err)
	}
	for _, k := range file.Kernels {
		sel := file.Selector(k)
		if got, err := file.Lookup(sel); got != k || err != nil {
			t.Fatalf("selector %q of %s (line %d) selects %v, %v", sel, k.QualName, k.Def.Lineno, got, err)
		}
		_ = file.ClosureError(k)
	}
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
