package semantic

import (
	"strings"
	"testing"
)

const earlyReturnSrc = `import triton
import triton.language as tl


@triton.jit
def _bounded(x, lim, CLAMP: tl.constexpr):
    if lim < 0:
        return x * 0.0
    if CLAMP:
        if lim > 100:
            return x
        x = tl.minimum(x, lim)
    return x + 1.0


@triton.jit
def _pick(n):
    if n > 0:
        return 1
    return n


@triton.jit
def kernel(X, N, B: tl.constexpr):
    pid = tl.program_id(0)
    if pid * B >= N:
        return
    offs = pid * B + tl.arange(0, B)
    x = tl.load(X + offs)
    x = _bounded(x, tl.load(X), True)
    tl.store(X + offs, x + _pick(N))


@triton.jit
def mismatched(X, N):
    tl.store(X, _mixed(N))


@triton.jit
def _mixed(n):
    if n > 0:
        return 1.0
    return n


@triton.jit
def in_loop(X, N):
    for i in range(N):
        if i > 3:
            return
        tl.store(X + i, 1.0)
`

// TestEarlyReturn checks returns inside runtime ifs: the rest of the function joins each
// branch that does not return, through constexpr ifs, and the scf.if yields the value.
func TestEarlyReturn(t *testing.T) {
	ir, err := compileSource(t, "early.py", earlyReturnSrc, "kernel", "*fp32:16, i32, 128")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"scf.if %",             // the kernel's early exit
		"-> (tensor<128xf32>)", // _bounded's three returns merge into one value
		"-> (i32)",             // _pick: the constexpr 1 is returned as an i32, as Triton does
		"arith.minnumf",        // the constexpr-if branch after the inner runtime if
	} {
		if !strings.Contains(ir, want) {
			t.Errorf("tile IR lacks %q:\n%s", want, ir)
		}
	}
	if n := strings.Count(ir, "tt.store"); n != 1 {
		t.Errorf("want the store once, in the branch that does not return; got %d:\n%s", n, ir)
	}
	for kernel, msg := range map[string]string{
		"mismatched": "early.py:41:5: error: Inconsistent return types: fp32 and int32",
		"in_loop":    "early.py:49:9: error: Cannot have `return` statements inside `while` or `for` statements in triton.",
	} {
		_, err := compileSource(t, "early.py", earlyReturnSrc, kernel, "*fp32:16, i32")
		if err == nil || !strings.HasPrefix(err.Error(), msg) {
			t.Errorf("%s: got error\n%v\nwant one starting\n%s", kernel, err, msg)
		}
	}
}
