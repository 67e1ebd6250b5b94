package semantic

import (
	"strings"
	"testing"

	"github.com/gotriton/gotriton/diag"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
)

const errPrelude = "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(X, N, B: tl.constexpr):\n"

// badKernels are ill-typed kernels: body lines (after errPrelude, so the first body line is
// line 7), the expected position and message. sig defaults to "*fp32:16, i32, 128".
var badKernels = []struct {
	body      string
	sig       string
	line, col int
	msg       string
}{
	{"    a = tl.arange(0, 128)\n    b = tl.arange(0, 64)\n    c = a + b\n", "", 9, 9, "incompatible shapes [128] and [64]"},
	{"    x = tl.arange(0, 100)\n", "", 7, 9, "arange's range must be a power of 2, got 100"},
	// test_const: a tl.const parameter (*kfp32) is a const_pointer, another type than pointer.
	{"    tl.store(X + tl.arange(0, B), 1.0)\n", "*kfp32:16, i32, 128", 7, 14, "Cannot store to a constant pointer"},
	{"    p = X if N > 0 else X.to(tl.pointer_type(tl.float32))\n", "*kfp32:16, i32, 128", 7, 9, "Ternary expression with dynamic condition has inconsistent types const_pointer<fp32> and pointer<fp32>"},
	// test_dtype under an int32 argument: Python's AttributeError on Triton's dtype object.
	{"    d: tl.constexpr = N.dtype.element_ty\n", "", 7, 23, "'dtype' object has no attribute 'element_ty'"},
	{"    d: tl.constexpr = X.dtype.foo\n", "", 7, 23, "'pointer_type' object has no attribute 'foo'"},
	{"    tl.store(N, 1)\n", "", 7, 14, "Unsupported ptr type triton.language.int32 in `tl.store`"},
	{"    tl.atomic_add(N, 1)\n", "", 7, 19, "Pointer argument of store instruction is triton.language.int32"},
	{"    tl.load(tl.arange(0, B))\n", "", 7, 13, "Unsupported ptr type <[128], int32> in `tl.load`"},
	{"    y = tl.store(X, 1.0) if N > 0 else 2.0\n", "", 7, 9, "Ternary expression with dynamic condition has inconsistent types void and fp32"},
	{"    x = tl.arange(0, B)\n    y = x[:, :, None]\n", "", 8, 11, "None at index position 2 needs a tensor of rank 2 or more, got rank 1"},
	{"    x = tl.arange(0, N)\n", "", 7, 22, "'end' must be a constexpr int, got int32"},
	{"    x = tl.arange(8, 0)\n", "", 7, 9, "arange's end argument must be greater than the start argument"},
	{"    x = tl.arang(0, 128)\n", "", 7, 9, "did you mean 'tl.arange'?"},
	{"    x = tl.loadd(X)\n", "", 7, 9, "did you mean 'tl.load'?"},
	{"    x = tl.load(X, maks=N > 0)\n", "", 7, 25, "unexpected keyword argument 'maks'; did you mean 'mask'?"},
	{"    x = tl.program_id()\n", "", 7, 9, "missing 1 required positional argument: 'axis'"},
	{"    x = tl.program_id(3)\n", "", 7, 23, "program_id axis must be 0, 1, or 2 but got 3"},
	{"    x = tl.program_id(0, 1)\n", "", 7, 26, "takes 1 positional arguments but 2 were given"},
	{"    x = tl.arange(0, B)\n    if x:\n        pass\n", "", 8, 8, "Boolean value of Tensor with more than one value is ambiguous"},
	{"    try:\n        pass\n    except Exception:\n        pass\n", "", 7, 5, "unsupported AST node type: Try"},
	{"    with open('f') as f:\n        pass\n", "", 7, 5, "unsupported AST node type: With"},
	{"    f = lambda v: v\n", "", 7, 9, "unsupported AST node type: Lambda"},
	{"    class C:\n        pass\n", "", 7, 5, "unsupported AST node type: ClassDef"},
	{"    def inner():\n        pass\n", "", 7, 5, "nested function definition is not supported."},
	{"    x = [i for i in range(4)]\n", "", 7, 9, "comprehensions are not supported"},
	{"    for i in range(N):\n        break\n", "", 8, 9, "unsupported AST node type: Break"},
	{"    a = tl.zeros((128, 64), tl.uint8)\n    s = tl.zeros((128, 4), tl.uint8)\n    c = tl.dot_scaled(a, s, 'e3m3', a.T, s, 'e2m1')\n", "", 9, 29, "NYI: lhs_format e3m3"},
	{"    a = tl.zeros((128, 64), tl.float16)\n    c = tl.dot_scaled(a, None, 'e2m1', a.T, None, 'e2m1')\n", "", 8, 23, "e2m1 format must be packed as uint8. Got fp16"},
	{"    a = tl.zeros((128, 64), tl.uint8)\n    b = tl.zeros((64, 128), tl.float8e4nv)\n    c = tl.dot_scaled(a, None, 'e2m1', b, None, 'e4m3')\n", "", 9, 9, "Reduction dimension should pack the same number of elements; (lhs: [128, 64] vs rhs: [64, 128])"},
	{"    x = tl.load(X) / tl.load(X).to(tl.int32)\n    y = tl.load(X).to(tl.uint32) // tl.load(X).to(tl.int32)\n", "", 8, 9, "because they have different signedness"},
	{"    x = tl.load(X).to(tl.uint32) % N\n", "", 7, 9, "Cannot use /, #, or % with triton.language.uint32 and triton.language.int32"},
	{"    x = tl.load(X).to(tl.uint32) + -1\n", "", 7, 36, "unsigned tensor and a negative scalar"},
	{"    x = tl.load(X).to(tl.int8) + 300\n", "", 7, 34, "Scalar 300 is out of range for type int8"},
	{"    x = X + 1.5\n", "", 7, 9, "invalid operands of type pointer<fp32> and triton.language.fp32"},
	{"    x = X + X\n", "", 7, 9, "cannot add pointers together"},
	{"    x = X * 2\n", "", 7, 9, "invalid operands of type pointer<fp32>"},
	{"    x = tl.load(X + tl.arange(0, B), other=0.0)\n", "", 7, 44, "`other` cannot be provided without `mask`"},
	{"    tl.store(X, tl.zeros([B], tl.float32))\n", "", 7, 17, "Value argument cannot be block type if pointer argument is not a block"},
	{"    x = tl.load(N)\n", "", 7, 17, "Unsupported ptr type triton.language.int32 in `tl.load`"},
	{"    a = tl.zeros([16, 32], tl.float16)\n    b = tl.zeros([16, 32], tl.float16)\n    c = tl.dot(a, b)\n", "", 9, 9, "are not compatible for matmul"},
	{"    a = tl.zeros([16, 16], tl.float16)\n    b = tl.zeros([16, 16], tl.float32)\n    c = tl.dot(a, b)\n", "", 9, 9, "Both operands must be same dtype. Got fp16 and fp32"},
	{"    a = tl.zeros([16, 16], tl.float16)\n    acc = tl.zeros([16, 16], tl.int32)\n    c = tl.dot(a, a, acc)\n", "", 9, 22, "does not match the dot result"},
	{"    a = tl.zeros((128, 64), tl.float8e4nv)\n    acc = tl.zeros((128, 64), tl.float32)\n    c = tl.dot_scaled(a, None, 'e4m3', a.T, None, 'e4m3', acc)\n", "", 9, 59, "does not match the dot_scaled result"},
	{"    x = tl.zeros([B], tl.float32)\n    y = tl.reshape(x, 3, 5)\n", "", 8, 9, "reshape() cannot change total number of elements in tensor"},
	{"    x = tl.zeros([B], tl.float32)\n    y = x.to(tl.int16, bitcast=True)\n", "", 8, 9, "Cannot bitcast data-type of size 32 to data-type of size 16"},
	{"    x = tl.zeros([B], tl.float32)\n    y = tl.permute(x, 1, 0)\n", "", 8, 9, "permute dims must have the same length as input shape"},
	{"    tl.static_assert(B == 64, 'B must be 64')\n", "", 7, 5, "Static assertion failed: B must be 64"},
	{"    tl.static_assert(N == 64)\n", "", 7, 22, "static_assert requires a constexpr condition"},
	{"    x = undefined_name + 1\n", "", 7, 9, "name 'undefined_name' is not defined"},
	{"    a, b = tl.arange(0, B), tl.arange(0, B), tl.arange(0, B)\n", "", 7, 5, "too many values to unpack (expected 2)"},
	{"    x = 0\n    for i in range(N):\n        x = tl.load(X).to(tl.float16)\n", "", 8, 5, "Loop-carried variable x has initial type int32 but is re-assigned to fp16 in loop!"},
	{"    if N > 0:\n        y = 1.0\n    else:\n        y = 1\n", "", 7, 5, "Mismatched type for y between then block (fp32) and else block (int32)"},
	{"    x = tl.sum(tl.zeros([B], tl.float32), axis=2)\n", "", 7, 48, "reduction axis must be < inputs rank (1)"},
	{"    x = tl.zeros([B], tl.float32)\n    x[0] = 1\n", "", 8, 5, "__setitem__ is not supported in triton"},
	{"    x = tl.full([B], 0, tl.float32)\n    y = tl.where(x, 1, 2)\n    z = x.foo\n", "", 9, 9, "'tensor' object has no attribute 'foo'"},
	{"    x = tl.extra.cuda.libdevice.asin(tl.zeros([B], tl.int32))\n", "", 7, 9, "input arg type does not match"},
	{"    x = tl.zeros([B], tl.float32)\n    tl.atomic_add(X + tl.arange(0, B), x, sem='weird')\n", "", 8, 47, "Memory semantic weird not supported"},
	{"    tl.load(X, cache_modifier='.xx')\n", "", 7, 31, "Cache modifier .xx not supported"},
	{"    x = tl.zeros([3], tl.float32)\n", "", 7, 18, "Shape element 3 must be a power of 2"},
	{"    helper(X)\n", "", 7, 5, "name 'helper' is not defined"},
	{"    yield N\n", "", 7, 5, "unsupported AST node type: Yield"},
	{"    y = rec(N)\n\n\n@triton.jit\ndef rec(x):\n    return rec(x)\n", "", 12, 12, "recursive call of jit function 'rec' is not supported"},
}

func TestErrors(t *testing.T) {
	for i, c := range badKernels {
		src := errPrelude + c.body
		sig := c.sig
		if sig == "" {
			sig = "*fp32:16, i32, 128"
		}
		f, err := frontend.LoadSource("bad.py", []byte(src), pyeval.Options{})
		if err != nil {
			t.Errorf("case %d: parse: %v", i, err)
			continue
		}
		_, err = Compile(f, "k", Options{SignatureText: sig})
		d, ok := diag.As(err)
		if !ok {
			t.Errorf("case %d (%q): want error %q, got %v", i, c.body, c.msg, err)
			continue
		}
		if d.Span.Line != c.line || d.Span.Col+1 != c.col || !strings.Contains(d.Msg, c.msg) {
			t.Errorf("case %d: want %d:%d %q\n got %s", i, c.line, c.col, c.msg, d)
		}
	}
	if len(badKernels) < 40 {
		t.Errorf("only %d ill-typed kernels", len(badKernels))
	}
}

// TestNestedErrorNotes checks that an error inside a nested jit function carries the call
// chain.
func TestNestedErrorNotes(t *testing.T) {
	src := errPrelude + "    helper(X)\n\n\n@triton.jit\ndef helper(p):\n    return tl.arange(0, 3)\n"
	_, err := compileSource(t, "bad.py", src, "k", "*fp32:16, i32, 128")
	d, ok := diag.As(err)
	if !ok || d.Span.Line != 12 || len(d.Notes) != 1 || !strings.Contains(d.Notes[0], "bad.py:7:5: note: in jit function 'helper' called from 'k'") {
		t.Fatalf("got %v", err)
	}
}
