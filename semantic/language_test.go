package semantic

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/diag"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/internal/golden"
	"github.com/gotriton/gotriton/pyeval"
)

// languageSpecs are specializations of conformance/kernels/language_ext.py whose tile IR
// is compared with testdata/language/<kernel>.<variant>.tileir (go test -update rewrites).
var languageSpecs = []struct {
	kernel, variant, sig string
	warps                int
}{
	{"histogram_kernel", "masked", "*i32:16, *i32:16, i32, 64, 8, True", 4},
	{"histogram_kernel", "plain", "*i32:16, *i32:16, i32, 64, 8, False", 4},
	{"gather_kernel", "axis0", "*fp32:16, *i32:16, *fp32:16, 0, 8, 16, 4", 4},
	{"cas_item_kernel", "i32", "*i32:16, *fp32:16, tl.int32", 4},
	{"cas_tensor_kernel", "bf16", "*bf16:16, *bf16:16, 128, tl.bfloat16", 4},
	{"interleave_scalars_kernel", "default", "i32, i32, *fp32:16", 4},
	{"map_elementwise_kernel", "pack1", "*i32:16, *i32:16, *i32:16, *i32:16, 128, 1", 4},
	{"map_elementwise_kernel", "pack2", "*u32:16, *u32:16, *u32:16, *u32:16, 512, 2", 4},
	{"dot_multidim_kernel", "rank4", "*fp16:16, *fp16:16, *fp32:16, 4, False, True", 4},
	{"floordiv_scalar_kernel", "u8", "*u8:16, *u8:16, 7, 128", 4},
	{"unsplat_kernel", "implicit", "*i32:16, False", 1},
	{"unsplat_kernel", "explicit", "*i32:16, True", 1},
	{"condition_kernel", "no_licm", "*i32:16, i32, True", 4},
	{"num_threads_kernel", "w8", "*i32:16", 8},
	{"propagate_nan_kernel", "clamp_all", "*fp32:16, *fp32:16, *fp32:16, 'ALL', 'clamp'", 4},
	{"propagate_nan_kernel", "maximum_none", "*fp16:16, *fp16:16, *fp16:16, 'NONE', 'maximum'", 4},
	{"short_circuiting_kernel", "ptr_i32", "*i32:16", 1},
	{"short_circuiting_kernel", "int", "i32", 1},
	{"short_circuiting_kernel", "none", "None", 1},
	{"compile_time_kernel", "fp16", "*fp16:16, *fp16:16, i32, 100", 4},
	{"compile_time_kernel", "i8_no_y", "*i8:16, *i8:16, i32, 3", 4},
	{"poison_return_kernel", "default", "*i32:16, i32", 1},
	{"sort_kernel", "sort_desc", "*fp32:16, *fp32:16, 2, 8, 1, True, 'sort'", 4},
	{"sort_kernel", "topk", "*fp32:16, *fp32:16, 2, 8, 2, False, 'topk'", 4},
	{"sort_kernel", "flip", "*fp32:16, *fp32:16, 2, 8, 1, False, 'flip'", 4},
	{"timer_kernel", "globaltimer", "*i32:16, *i64:16, tl.extra.cuda.globaltimer", 4},
}

func TestLanguageExtensions(t *testing.T) {
	f, err := frontend.Load(filepath.Join("..", "conformance", "kernels", "language_ext.py"), pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range languageSpecs {
		t.Run(s.kernel+"/"+s.variant, func(t *testing.T) {
			m, err := Compile(f, s.kernel, Options{SignatureText: s.sig, NumWarps: s.warps})
			if err != nil {
				t.Fatalf("%s", err)
			}
			golden.Check(t, filepath.Join("testdata", "language", s.kernel+"."+s.variant+".tileir"), m.String())
		})
	}
}

// languageErrors are Triton 3.6's errors for misuses of the same builtins (body lines after
// errPrelude; the first is line 7), with position and message.
var languageErrors = []struct {
	body      string
	line, col int
	msg       string
}{
	{"    x = tl.zeros([8, 8], tl.int32)\n    h = tl.histogram(x, 4)\n", 8, 22, "histogram only supports 1D input"},
	{"    x = tl.zeros([8], tl.float32)\n    h = tl.histogram(x, 4)\n", 8, 22, "histogram only supports integer input"},
	{"    x = tl.zeros([8], tl.int32)\n    h = tl.histogram(x, 4, x)\n", 8, 28, "Mask must have boolean scalar type"},
	{"    x = tl.zeros([8, 4], tl.float32)\n    i = tl.zeros([8, 4], tl.float32)\n    y = tl.gather(x, i, 0)\n", 9, 22, "index must be an integer tensor"},
	{"    x = tl.zeros([8, 4], tl.float32)\n    i = tl.zeros([8], tl.int32)\n    y = tl.gather(x, i, 0)\n", 9, 9, "source and index tensors must have the same rank"},
	{"    x = tl.zeros([8, 4], tl.float32)\n    i = tl.zeros([8, 4], tl.int32)\n    y = tl.gather(x, i, 2)\n", 9, 25, "gather axis 2 must be < source rank (2)"},
	{"    x = tl.zeros([8, 4], tl.float32)\n    i = tl.zeros([8, 2], tl.int32)\n    y = tl.gather(x, i, 0)\n", 9, 9, "index dim 0 must match the corresponding source dim"},
	{"    x = tl.zeros([2], tl.float32).item()\n", 7, 9, "can only unsplat single-element tensors"},
	{"    x = tl.trans(tl.zeros([8], tl.float32))\n", 7, 18, "tl.trans invoked with a 0- or 1-dimensional tensor"},
	{"    x = tl.sort(tl.zeros([8, 4], tl.float32), 0)\n", 7, 9, "only minor dimension is currently supported"},
	{"    a = tl.zeros([2, 2, 16, 16], tl.float16)\n    b = tl.zeros([2, 4, 16, 16], tl.float16)\n    c = tl.dot(a, b)\n", 9, 9, "input and other must have equal batch shapes"},
	{"    x = getattr(tl, 'no_such_builtin')\n", 7, 9, "has no attribute 'no_such_builtin'"},
	{"    x = getattr(tl, N)\n", 7, 21, "getattr(): attribute name must be a constexpr string"},
	{"    x = tl.map_elementwise(tl.abs, tl.zeros([8], tl.float32))\n", 7, 28, "map_elementwise() needs a @triton.jit function"},
	{"    y = ident(tl.load(X))\n\n\ndef ident(v):\n    return v\n", 7, 15, "a Python function called from a kernel runs at compile time and takes and returns compile-time values only; got fp32"},
	{"    y = spin(B)\n\n\n@triton.constexpr_function\ndef spin(n):\n    while n > 0:\n        n += 1\n    return n\n", 12, 5, "a compile-time loop runs more than 1048576 iterations"},
	{"    y = loop(N)\n\n\ndef loop(n):\n    for i in range(n):\n        pass\n", 7, 14, "takes and returns compile-time values only; got int32"},
}

// TestCompileTimeFallback checks that a plain Python helper using Python the kernel
// language lacks (a comprehension) still runs, through the host evaluator.
func TestCompileTimeFallback(t *testing.T) {
	src := errPrelude + "    tl.store(X, total(B))\n\n\ndef total(n):\n    return len([i for i in range(n // 32)])\n"
	ttir, err := compileSource(t, "ok.py", src, "k", "*fp32:16, i32, 128")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ttir, "arith.constant 4.000000e+00 : f32") {
		t.Errorf("total(128) is not 4:\n%s", ttir)
	}
}

func TestLanguageErrors(t *testing.T) {
	for i, c := range languageErrors {
		f, err := frontend.LoadSource("bad.py", []byte(errPrelude+c.body), pyeval.Options{})
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		_, err = Compile(f, "k", Options{SignatureText: "*fp32:16, i32, 128"})
		d, ok := diag.As(err)
		if !ok || d.Span.Line != c.line || d.Span.Col+1 != c.col || !strings.Contains(d.Msg, c.msg) {
			t.Errorf("case %d: want %d:%d %q, got %v", i, c.line, c.col, c.msg, err)
		}
	}
}
