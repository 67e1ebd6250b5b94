package pyeval_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
)

// TestExprsAgainstCPython evaluates every expression in testdata/exprs.txt with pyeval and
// with python3, and compares the reprs.
func TestExprsAgainstCPython(t *testing.T) {
	raw, err := os.ReadFile("testdata/exprs.txt")
	if err != nil {
		t.Fatal(err)
	}
	var exprs []string
	for _, line := range strings.Split(string(raw), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			exprs = append(exprs, line)
		}
	}
	want := cpythonReprs(t, exprs)
	for i, e := range exprs {
		got := evalExpr(t, e)
		if got != want[i] {
			t.Errorf("%s: pyeval gives %s, CPython gives %s", e, got, want[i])
		}
	}
}

func cpythonReprs(t *testing.T, exprs []string) []string {
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 is required in CI")
		}
		t.Skip("python3 not found: skipping the differential test")
	}
	cmd := exec.Command(py, "-c", "import sys\nfor l in sys.stdin.read().split('\\n'):\n    print(repr(eval(l)))")
	cmd.Stdin = strings.NewReader(strings.Join(exprs, "\n"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var reprs []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		reprs = append(reprs, sc.Text())
	}
	if len(reprs) != len(exprs) {
		t.Fatalf("python3 printed %d lines for %d expressions", len(reprs), len(exprs))
	}
	return reprs
}

func evalExpr(t *testing.T, src string) string {
	t.Helper()
	m := exec1(t, "x = "+src+"\n")
	v, _ := m.Lookup("x")
	return pyeval.Repr(v)
}

func exec1(t *testing.T, src string) *pyeval.Module {
	t.Helper()
	mod, err := frontend.ParseFile("t.py", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return pyeval.Exec("t", "t.py", []byte(src), mod, pyeval.Options{})
}

// TestHostModel checks the offline answers host code gets about the machine, the way
// autotune configs in real kernel files are built.
func TestHostModel(t *testing.T) {
	src := `
import os
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

def is_cuda():
    return triton.runtime.driver.active.get_current_target().backend == "cuda"

def configs_for(pre_hook=None):
    return [triton.Config({'BM': bm, 'BN': bn}, num_stages=s, num_warps=w, pre_hook=pre_hook)
            for bm in [64, 128] for bn in [32] for s in [3] for w in [4, 8]]

def keep(conf):
    return not (is_cuda() and torch.cuda.get_device_capability()[0] == 9 and conf.kwargs["BM"] < 128 and conf.num_warps == 8)

def pick():
    if is_cuda():
        return list(filter(keep, configs_for()))
    else:
        return []

CONFIGS = pick()
if "PYTEST_VERSION" in os.environ:
    CONFIGS = []
DEVICE = triton.runtime.driver.active.get_active_torch_device()
BLOCK: tl.constexpr = 64
HALF = tl.constexpr(BLOCK // 2)
NAMES = ('a', 'b')
if __name__ == "__main__":
    BLOCK = 1
`
	m := exec1(t, src)
	tests := []struct{ name, want string }{
		{"CONFIGS", "[triton.Config({'BM': 64, 'BN': 32}, num_warps=4, num_stages=3, num_ctas=1), " +
			"triton.Config({'BM': 128, 'BN': 32}, num_warps=4, num_stages=3, num_ctas=1), " +
			"triton.Config({'BM': 128, 'BN': 32}, num_warps=8, num_stages=3, num_ctas=1)]"},
		{"BLOCK", "64"},
		{"HALF", "32"},
		{"NAMES", "('a', 'b')"},
		{"DEVICE", "<unknown: triton.runtime.driver.active.get_active_torch_device(...) is host code (line 27)>"},
		{"libdevice", "triton.language.extra.libdevice"},
		{"tl", "triton.language"},
	}
	for _, tt := range tests {
		v, ok := m.Lookup(tt.name)
		if !ok {
			t.Errorf("%s is not bound", tt.name)
			continue
		}
		if got := pyeval.Repr(v); got != tt.want {
			t.Errorf("%s = %s, want %s", tt.name, got, tt.want)
		}
	}
	if got := m.Annotations["BLOCK"]; got != "tl.constexpr" {
		t.Errorf("annotation of BLOCK = %q", got)
	}
}

// TestJITDecorators checks how decorators around a def are applied and recorded.
func TestJITDecorators(t *testing.T) {
	src := `
import triton
from triton import jit as J
import mylib

@mylib.libentry()
@triton.autotune(configs=[triton.Config({'B': 16}, num_warps=2)], key=['n'])
@triton.heuristics({'EVEN': lambda args: args['n'] % 16 == 0})
@triton.jit(do_not_specialize=['n'], launch_metadata=None)
def k(x, n, B: "tl.constexpr"):
    pass

def plain(x):
    pass

k2 = J(plain)
`
	m := exec1(t, src)
	v, _ := m.Lookup("k")
	j, ok := v.(*pyeval.JITFunction)
	if !ok {
		t.Fatalf("k = %s, want a JITFunction", pyeval.Repr(v))
	}
	var decs []string
	for _, d := range j.Decorators {
		decs = append(decs, d.Path+"|"+d.Text)
	}
	wantDecs := "mylib.libentry|mylib.libentry() triton.autotune|triton.autotune(configs=[triton.Config({'B': 16}, num_warps=2)], key=['n']) triton.heuristics|triton.heuristics({'EVEN': lambda args: args['n'] % 16 == 0}) triton.jit|triton.jit(do_not_specialize=['n'], launch_metadata=None)"
	if got := strings.Join(decs, " "); got != wantDecs {
		t.Errorf("decorators:\n got %s\nwant %s", got, wantDecs)
	}
	if got := pyeval.Repr(j.Autotune.Configs); got != "[triton.Config({'B': 16}, num_warps=2, num_stages=3, num_ctas=1)]" {
		t.Errorf("configs = %s", got)
	}
	if got := pyeval.Repr(pyeval.Tuple(j.DoNotSpecialize)); got != "('n',)" {
		t.Errorf("do_not_specialize = %s", got)
	}
	even := j.Heuristics.Get(pyeval.Str("EVEN"))
	args := &pyeval.Dict{}
	args.Set(pyeval.Str("n"), pyeval.NewInt(48))
	r, err := m.Call(even, []pyeval.Value{args}, nil)
	if err != nil || pyeval.Repr(r) != "True" {
		t.Errorf("heuristic EVEN(n=48) = %v, %v", r, err)
	}
	v2, _ := m.Lookup("k2")
	if j2, ok := v2.(*pyeval.JITFunction); !ok || j2.Fn.Name != "plain" {
		t.Errorf("k2 = %s, want the jit form of plain", pyeval.Repr(v2))
	}
}

// TestBudget checks that runaway host code stops instead of hanging.
func TestBudget(t *testing.T) {
	m := exec1(t, "def f():\n    while True:\n        pass\nX = f()\n")
	v, _ := m.Lookup("X")
	if u, ok := v.(pyeval.Unknown); !ok || !strings.Contains(u.Why, "step budget") {
		t.Errorf("X = %s, want an Unknown from the step budget", pyeval.Repr(v))
	}
}
