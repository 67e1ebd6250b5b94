package pyeval_test

import (
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

// TestOnlyDependentKernelsFail compiles a file whose host code is partly beyond offline
// evaluation: the kernel that uses such a global fails with the construct and its line,
// the others compile, libdevice comes from the import fallback Triton 3.6 takes, and
// module constants use torch facts and builtins.
func TestOnlyDependentKernelsFail(t *testing.T) {
	src := `import torch
import triton
import triton.language as tl
try:
    from triton.language.math import tanh
except ImportError:
    from triton.language.extra.cuda.libdevice import tanh

SCALE = torch.randn(1).item()
NEG_INF = torch.finfo(torch.float32).min
BLOCK = min(triton.next_power_of_2(100), 256)
NAMES = {k: i for i, k in enumerate(sorted(["b", "a"]))}
IDX = NAMES["b"]


@triton.jit
def uses_scale(x_ptr):
    tl.store(x_ptr, tl.load(x_ptr) * SCALE)


@triton.jit
def uses_constants(x_ptr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tanh(tl.maximum(x, NEG_INF)) + IDX)
`
	f, err := frontend.LoadSource("k.py", []byte(src), pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := semantic.Compile(f, "uses_constants", semantic.Options{SignatureText: "*fp32:16"}); err != nil {
		t.Errorf("uses_constants: %v", err)
	}
	_, err = semantic.Compile(f, "uses_scale", semantic.Options{SignatureText: "*fp32:16"})
	want := "k.py:18:38: error: global 'SCALE' is not known at compile time: torch.randn(...) is host code (line 9)"
	if err == nil || firstLine(err.Error()) != want {
		t.Errorf("uses_scale: got error\n%v\nwant\n%s", err, want)
	}
}

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}
