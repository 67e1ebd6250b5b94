package frontend

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/pyeval"
)

func TestDiscovery(t *testing.T) {
	f, err := Load("testdata/kernels/discovery.py", pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range f.Kernels {
		var params []string
		for _, p := range k.Params {
			s := p.Name
			if p.Constexpr {
				s += "!"
			}
			if p.KwOnly {
				s = "*" + s
			}
			params = append(params, s)
		}
		got = append(got, k.Name+"("+strings.Join(params, ",")+")")
	}
	want := []string{
		"plain(x_ptr,n,BLOCK_SIZE!)",
		"from_import(x,y!)",
		"with_options(x_ptr,n)",
		"stacked(x_ptr,n,BLOCK_N!,EVEN_N!)",
		"functional(x_ptr)", // triton.jit(undecorated): listed under the name the module binds
		"keyword_only(x,*SCALE!)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("kernels:\n got %v\nwant %v", got, want)
	}
	stacked := f.Kernel("stacked")
	if n := len(stacked.JIT.Decorators); n != 4 {
		t.Errorf("stacked has %d decorators, want 4", n)
	}
	if got := pyeval.Repr(stacked.JIT.Autotune.Configs); !strings.HasPrefix(got, "[triton.Config({'BLOCK_N': 32}, num_warps=4, num_stages=2") || strings.Count(got, "Config(") != 4 {
		t.Errorf("stacked configs = %s", got)
	}
	if w := f.Kernel("with_options"); !w.JIT.Noinline || pyeval.Repr(pyeval.Tuple(w.JIT.DoNotSpecialize)) != "('n',)" {
		t.Errorf("with_options jit options: noinline=%v do_not_specialize=%v", w.JIT.Noinline, w.JIT.DoNotSpecialize)
	}
	imports := map[string]string{}
	for _, im := range f.Module.Imports {
		imports[im.Name] = im.Path
	}
	for name, path := range map[string]string{
		"tl": "triton.language", "jit": "triton.jit", "libdevice": "triton.language.extra.libdevice",
		"cuda_libdevice": "triton.language.extra.cuda.libdevice", "tlmath": "triton.language.math", "tr": "triton",
	} {
		if imports[name] != path {
			t.Errorf("import %s resolves to %q, want %q", name, imports[name], path)
		}
	}
	for name, want := range map[string]string{"BLOCK": "128", "HALF": "64", "EPS": "1e-05", "NAME": "'leaky'", "SHAPE": "(16, 32)"} {
		v, _ := f.Module.Lookup(name)
		if got := pyeval.Repr(v); got != want {
			t.Errorf("constant %s = %s, want %s", name, got, want)
		}
	}
}

// tutorialKernels lists the jit functions of each official Triton 3.6 tutorial, in source
// order (from the team's tutorial inventory).
var tutorialKernels = map[string][]string{
	"01-vector-add.py":                    {"add_kernel"},
	"02-fused-softmax.py":                 {"softmax_kernel"},
	"03-matrix-multiplication.py":         {"matmul_kernel", "leaky_relu"},
	"04-low-memory-dropout.py":            {"_dropout", "_seeded_dropout"},
	"05-layer-norm.py":                    {"_layer_norm_fwd_fused", "_layer_norm_bwd_dx_fused", "_layer_norm_bwd_dwdb"},
	"06-fused-attention.py":               {"_attn_fwd_inner", "_maybe_make_tensor_desc", "_attn_fwd", "_attn_bwd_preprocess", "_attn_bwd_dkdv", "_attn_bwd_dq", "_attn_bwd"},
	"07-extern-functions.py":              {"asin_kernel"},
	"08-grouped-gemm.py":                  {"grouped_matmul_kernel", "grouped_matmul_tma_kernel"},
	"09-persistent-matmul.py":             {"matmul_kernel", "matmul_kernel_tma", "_compute_pid", "matmul_kernel_persistent", "matmul_kernel_tma_persistent", "matmul_kernel_descriptor_persistent"},
	"10-block-scaled-matmul.py":           {"block_scaled_matmul_kernel", "block_scaled_matmul_kernel_cdna4"},
	"11-programmatic-dependent-launch.py": {"add_kernel"},
}

func TestTutorialKernels(t *testing.T) {
	dir := os.Getenv("GOTRITON_TUTORIALS")
	if dir == "" {
		t.Skip("GOTRITON_TUTORIALS is not set: skipping the official tutorials")
	}
	for file, want := range tutorialKernels {
		f, err := Load(filepath.Join(dir, file), pyeval.Options{})
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		var got []string
		for _, k := range f.Kernels {
			got = append(got, k.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: kernels %v, want %v", file, got, want)
		}
	}
}

// TestOwnKernelsLoad checks that every file of our kernel corpus loads and declares the
// kernels its specs name.
func TestOwnKernelsLoad(t *testing.T) {
	files, _ := filepath.Glob("../conformance/kernels/*.py")
	if len(files) < 10 {
		t.Fatalf("found %d kernel files", len(files))
	}
	for _, path := range files {
		f, err := Load(path, pyeval.Options{})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if len(f.Kernels) == 0 {
			t.Errorf("%s: no jit functions found", path)
		}
	}
}

func TestReadSourceErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.py")
	binary := filepath.Join(dir, "blob.py")
	os.WriteFile(empty, []byte("\n  \n"), 0o644)
	os.WriteFile(binary, []byte("x = 1\n\x00\xff\xfe"), 0o644)
	for _, tt := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.py"), "missing.py:1:1: error: cannot read file: no such file"},
		{empty, "empty.py:1:1: error: file is empty"},
		{binary, "blob.py:2:1: error: binary file: not Python source"},
		{dir, "error: cannot read file: is a directory"},
	} {
		_, err := ReadSource(tt.path)
		if err == nil || !strings.HasSuffix(err.Error(), tt.want) {
			t.Errorf("ReadSource(%s) = %v, want ...%s", tt.path, err, tt.want)
		}
	}
}

// TestFreeVars checks which names of enclosing functions a nested kernel reads, under
// Python's scoping: every way a function binds a local counts, globals, class bodies and
// comprehension variables do not, and nonlocal defers to the function further out.
func TestFreeVars(t *testing.T) {
	src := `import triton
import triton.language as tl

G = 1


def outer(a, *rest, key=3, **kw):
    b = 2
    import math
    c: int
    for i in range(3):
        pass
    with open("x") as fh:
        pass
    try:
        pass
    except Exception as err:
        pass
    if (w := 4):
        pass
    [z for z in range(3)]
    global G2
    G2 = 1

    def helper():
        pass

    class K:
        attr = 1

    @triton.jit
    def reads_all(X, OWN: tl.constexpr = b):
        y = a + rest + key + kw + i + fh + err + w + math.pi + helper + K + c
        tl.store(X, z + G + G2 + attr + y)
        own = OWN
        tl.store(X, [q for q in range(own)])

    def middle():
        nonlocal b
        d = 1

        @triton.jit
        def deep(X):
            tl.store(X, b + d)

        class C:
            b = 5

            @triton.jit
            def in_class(X):
                tl.store(X, b)
`
	f, err := LoadSource("closure.py", []byte(src), pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, k := range f.Kernels {
		for _, fv := range k.FreeVars {
			got[k.QualName] = append(got[k.QualName], fmt.Sprintf("%s:%s@%d", fv.Name, fv.Func, fv.Read.Lineno))
		}
	}
	want := map[string][]string{
		"outer.<locals>.reads_all": {"b:outer@32", "a:outer@33", "rest:outer@33", "key:outer@33", "kw:outer@33", "i:outer@33", "fh:outer@33",
			"err:outer@33", "w:outer@33", "math:outer@33", "helper:outer@33", "K:outer@33", "c:outer@33"},
		"outer.<locals>.middle.<locals>.deep":       {"b:outer@44", "d:middle@44"},
		"outer.<locals>.middle.<locals>.C.in_class": {"b:outer@51"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("free variables:\n got %v\nwant %v", got, want)
	}
	k := f.Kernel("deep")
	want1 := "closure.py:44:25: error: jit function 'outer.<locals>.middle.<locals>.deep' reads 'b', a local of enclosing function 'outer' (line 7); " +
		"gotriton compiles nested kernels against module globals only\n" +
		"            tl.store(X, b + d)\n" +
		"                        ^"
	if err := f.ClosureError(k); err == nil || err.Error() != want1 {
		t.Errorf("ClosureError:\n got %v\nwant %s", err, want1)
	}
}

// TestLookup checks every way a selector names a kernel, and the errors for ambiguous ones.
func TestLookup(t *testing.T) {
	src := `import triton


@triton.jit
def k(X):
    pass


@triton.jit
def k(X):
    pass


def test_a():
    @triton.jit
    def k(X):
        pass

    @triton.jit
    def only(X):
        pass


def test_b():
    @triton.jit
    def only2(X):
        pass

    @triton.jit
    def twin(X):
        pass


class C:
    @triton.jit
    def twin(X):
        pass
`
	f, err := LoadSource("sel.py", []byte(src), pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for sel, want := range map[string]string{
		"k":                 "k@10", // the module binds the second def
		"k@5":               "k@5",
		"test_a.<locals>.k": "test_a.<locals>.k@16",
		"k@16":              "test_a.<locals>.k@16",
		"only":              "test_a.<locals>.only@20",
		"C.twin":            "C.twin@36",
		"twin@30":           "test_b.<locals>.twin@30",
		"nothing":           "",
		"nothing@5":         "",
		"twin":              "sel.py:1:1: error: 'twin' names 2 jit functions: test_b.<locals>.twin (line 30), C.twin (line 36); select one by its qualname or as twin@LINE",
		"only@3":            "sel.py:1:1: error: no jit function 'only' has its def on line 3; test_a.<locals>.only (line 20)",
	} {
		k, err := f.Lookup(sel)
		got := ""
		switch {
		case err != nil:
			got = err.Error()
		case k != nil:
			got = fmt.Sprintf("%s@%d", k.QualName, k.Def.Lineno)
		}
		if got != want {
			t.Errorf("Lookup(%q) = %s, want %s", sel, got, want)
		}
	}
	var selectors []string
	for _, k := range f.Kernels {
		selectors = append(selectors, f.Selector(k))
	}
	want := []string{"k@5", "k", "test_a.<locals>.k", "only", "only2", "test_b.<locals>.twin", "C.twin"}
	if !slices.Equal(selectors, want) {
		t.Errorf("selectors %v, want %v", selectors, want)
	}
}
