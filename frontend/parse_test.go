package frontend

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/ast"
)

// corpus lists our testdata files and, when GOTRITON_TUTORIALS is set, the tutorials.
func corpus(t testing.TB) []string {
	files, err := filepath.Glob("testdata/*.py")
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("GOTRITON_TUTORIALS"); dir != "" {
		tut, err := filepath.Glob(filepath.Join(dir, "*.py"))
		if err != nil || len(tut) == 0 {
			t.Fatalf("GOTRITON_TUTORIALS=%s: no .py files (%v)", dir, err)
		}
		files = append(files, tut...)
	}
	sort.Strings(files)
	return files
}

type oracleResult struct {
	Path  string `json:"path"`
	Dump  string `json:"dump"`
	Error []any  `json:"error"`
}

// runOracle dumps files with CPython in one python3 process. It returns CPython's
// minor version too.
func runOracle(t *testing.T, files []string) (map[string]oracleResult, int) {
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 not found; the differential test needs CPython")
		}
		t.Skip("python3 not found: skipping the differential test against CPython")
	}
	cmd := exec.Command(py, "testdata/oracle.py")
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oracle: %v\n%s", err, stderr.String())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<28)
	sc.Scan()
	var major, minor int
	if _, err := fmtSscanf(sc.Text(), &major, &minor); err != nil {
		t.Fatalf("oracle header %q: %v", sc.Text(), err)
	}
	res := map[string]oracleResult{}
	for sc.Scan() {
		var r oracleResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		res[r.Path] = r
	}
	return res, minor
}

// maskFStrings zeroes the positions of all nodes inside JoinedStr nodes, as oracle.py does
// under Python 3.11.
func maskFStrings(root ast.Node) {
	ast.Inspect(root, func(n ast.Node) bool {
		if _, ok := n.(*ast.JoinedStr); ok {
			ast.Inspect(n, func(c ast.Node) bool {
				if c != nil && c != n {
					if f := reflect.ValueOf(c).Elem().FieldByName("Pos"); f.IsValid() {
						f.Set(reflect.Zero(f.Type()))
					}
				}
				return true
			})
			return false
		}
		return true
	})
}

func TestDifferential(t *testing.T) {
	files := corpus(t)
	want, minor := runOracle(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r, ok := want[f]
			if !ok {
				t.Fatal("no oracle output")
			}
			if r.Error != nil {
				t.Fatalf("CPython rejects the file: %v", r.Error)
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			mod, err := ParseFile(f, src)
			if err != nil {
				t.Fatal(err)
			}
			if minor < 12 {
				maskFStrings(mod)
			}
			if got := ast.Dump(mod); got != r.Dump {
				t.Errorf("dump differs from CPython 3.%d:\n%s", minor, firstDiff(got, r.Dump))
			}
		})
	}
}

// firstDiff shows both dumps around their first difference.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(i-300, 0)
	return "ours:    ..." + got[lo:min(i+200, len(got))] + "\ncpython: ..." + want[lo:min(i+200, len(want))]
}

// TestKeywordSwitch checks keyword against the keywords table.
func TestKeywordSwitch(t *testing.T) {
	for k, v := range keywords {
		if keyword([]byte(k)) != v {
			t.Errorf("keyword(%q) = %v, want %v", k, keyword([]byte(k)), v)
		}
	}
	for _, k := range []string{"x", "tl", "Fals", "classy", "nonlocals", "iff", "match", "print"} {
		if keyword([]byte(k)) != opNone {
			t.Errorf("keyword(%q) is a keyword", k)
		}
	}
}
