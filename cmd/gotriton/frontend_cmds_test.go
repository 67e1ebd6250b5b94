package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/internal/golden"
)

// pythonFiles lists the .py files under dir, skipping hidden folders.
func pythonFiles(t *testing.T, dir string) []string {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != dir && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".py") {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type jitOracle struct {
	Path    string  `json:"path"`
	Kernels [][]any `json:"kernels"`
	Error   string  `json:"error"`
}

// runJITOracle lists the jit functions of files with CPython (jit_oracle.py), in one
// process. It returns CPython's minor version too.
func runJITOracle(t *testing.T, files []string) (map[string]jitOracle, int) {
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 not found; the differential test needs CPython")
		}
		t.Skip("python3 not found: skipping the differential test against CPython")
	}
	cmd := exec.Command(py, "../../frontend/testdata/jit_oracle.py")
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("jit_oracle.py: %v\n%s", err, stderr.String())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	sc.Scan()
	var major, minor int
	if _, err := fmt.Sscanf(sc.Text(), "version %d.%d", &major, &minor); err != nil {
		t.Fatalf("jit_oracle.py header %q: %v", sc.Text(), err)
	}
	res := map[string]jitOracle{}
	for sc.Scan() {
		var r jitOracle
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		res[r.Path] = r
	}
	return res, minor
}

// TestListMatchesCPython checks that `gotriton list --json` finds exactly the jit
// functions that CPython's ast finds (same qualnames, def lines and columns) in every
// Python file of the repository, of GOTRITON_TUTORIALS and of GOTRITON_REALWORLD.
func TestListMatchesCPython(t *testing.T) {
	files := pythonFiles(t, "../..")
	for _, env := range []string{"GOTRITON_TUTORIALS", "GOTRITON_REALWORLD"} {
		if dir := os.Getenv(env); dir != "" {
			files = append(files, pythonFiles(t, dir)...)
		}
	}
	want, minor := runJITOracle(t, files)
	total := 0
	for _, path := range files {
		r := want[path]
		if r.Error != "" {
			if minor < 12 && strings.Contains(path, "py312") {
				continue // Python 3.12 syntax that this CPython cannot parse
			}
			t.Errorf("%s: CPython rejects the file: %s", path, r.Error)
			continue
		}
		out, errOut, code := gotriton("list", "--json", path)
		if code != 0 && len(r.Kernels) == 0 && strings.HasSuffix(errOut, "error: file is empty\n") {
			continue
		}
		if code != 0 {
			t.Errorf("%s: list exits %d: %s", path, code, errOut)
			continue
		}
		var listing struct {
			Kernels []struct {
				QualName string `json:"qualname"`
				Line     int    `json:"line"`
				Col      int    `json:"col"`
			} `json:"kernels"`
		}
		if err := json.Unmarshal([]byte(out), &listing); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		// CPython gives no qualnames for a file that parses but does not compile.
		withQualnames := !slices.ContainsFunc(r.Kernels, func(k []any) bool { return k[0] == nil })
		key := func(qualname any, line, col any) string {
			if !withQualnames {
				qualname = "?"
			}
			return fmt.Sprintf("%v@%v:%v", qualname, line, col)
		}
		var got, exp []string
		for _, k := range listing.Kernels {
			got = append(got, key(k.QualName, k.Line, k.Col))
		}
		for _, k := range r.Kernels {
			exp = append(exp, key(k[0], k[1], k[2]))
		}
		slices.Sort(got)
		slices.Sort(exp)
		if !slices.Equal(got, exp) {
			t.Errorf("%s: gotriton finds %d jit functions, CPython %d\n got %v\nwant %v", path, len(got), len(exp), got, exp)
		}
		total += len(exp)
	}
	t.Logf("%d files, %d jit functions", len(files), total)
	if total < 60 {
		t.Errorf("only %d jit functions in the corpus: the test files were not found", total)
	}
}

func TestListNested(t *testing.T) {
	out, errOut, code := gotriton("list", "../../frontend/testdata/kernels/nested.py")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden.Check(t, filepath.Join("testdata", "list_nested.txt"), out)
}

// TestNestedKernels compiles and checks kernels that discovery finds below the module
// level or under decorators host code cannot evaluate, selected every way -n allows.
func TestNestedKernels(t *testing.T) {
	const file = "../../frontend/testdata/kernels/nested.py"
	for _, tt := range []struct {
		name, sig string
		want      []string // in the tile IR
	}{
		// The unknown decorator above autotune is ignored; the first config gives BLOCK.
		{"scale_kernel", "*fp32:16, i32", []string{"tt.func public @scale_kernel", "end = 128 : i32"}},
		{"test_globals_only.<locals>.copy_kernel", "*fp32:16, *fp32:16, i32", []string{"tt.func public @copy_kernel", "end = 64 : i32", "arith.mulf"}}, // BLOCK_M and _twice are globals
		{"copy_kernel", "*fp32:16, *fp32:16, i32", []string{"tt.func public @copy_kernel"}},
		{"wrapped", "*fp32:16", []string{"tt.func public @wrapped", "1.000000e+00"}},
		{"Ops.kernel", "*fp32:16", []string{"3.000000e+00"}},
		{"Ops.Inner.kernel", "*fp32:16, i32", []string{"tt.store"}},
		{"kernel@107", "*fp32:16", []string{"5.000000e+00"}},
		{"branch_kernel@117", "*fp32:16", []string{"7.000000e+00"}},
		{"test_reads_enclosing.<locals>.tuned", "*fp32:16, 16", []string{"end = 16 : i32"}},
	} {
		out, errOut, code := gotriton("compile", file, "-n", tt.name, "-s", tt.sig, "--emit", "tileir", "-o", "-")
		if code != 0 {
			t.Errorf("compile -n %s: exit %d: %s", tt.name, code, errOut)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("compile -n %s: tile IR lacks %q:\n%s", tt.name, w, out)
			}
		}
	}
	for _, tt := range []struct{ name, sig, want string }{
		{"test_reads_enclosing.<locals>.kernel", "*fp32:16, i32", "nested.py:54:29: error: jit function 'test_reads_enclosing.<locals>.kernel' reads 'BLOCK', " +
			"a local of enclosing function 'test_reads_enclosing' (line 48); gotriton compiles nested kernels against module globals only\n" +
			"        offs = tl.arange(0, BLOCK)\n" +
			"                            ^~~~~\n"},
		{"kernel", "*fp32:16", "nested.py:1:1: error: 'kernel' names 5 jit functions: test_unary.<locals>.kernel (line 40), " +
			"test_reads_enclosing.<locals>.kernel (line 53), Ops.kernel (line 88), Ops.Inner.kernel (line 93), test_async.<locals>.kernel (line 107); " +
			"select one by its qualname or as kernel@LINE\n"},
		{"branch_kernel", "*fp32:16", "nested.py:1:1: error: 'branch_kernel' names 2 jit functions: branch_kernel (line 113), branch_kernel (line 117); " +
			"select one by its qualname or as branch_kernel@LINE\n"},
		{"kernel@41", "*fp32:16", "nested.py:1:1: error: no jit function 'kernel' has its def on line 41; test_unary.<locals>.kernel (line 40), " +
			"test_reads_enclosing.<locals>.kernel (line 53), Ops.kernel (line 88), Ops.Inner.kernel (line 93), test_async.<locals>.kernel (line 107)\n"},
	} {
		_, errOut, code := gotriton("check", file, "-n", tt.name, "-s", tt.sig)
		if code != 1 || !strings.HasSuffix(errOut, tt.want) {
			t.Errorf("check -n %s: exit %d\n got %s\nwant ...%s", tt.name, code, errOut, tt.want)
		}
	}
	// Without -n every kernel is checked: the one that reads an enclosing local fails
	// alone, the others are still checked.
	_, errOut, code := gotriton("check", file)
	freeVar := "nested.py:54:29: error: jit function 'test_reads_enclosing.<locals>.kernel' reads 'BLOCK'"
	if code != 1 || strings.Count(errOut, freeVar) != 1 || strings.Count(errOut, ": error: ") < 2 {
		t.Errorf("check %s: exit %d, want one closure error among others:\n%s", file, code, errOut)
	}
}
