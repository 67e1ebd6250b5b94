package launch

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/diag"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/target"
)

const kernelSrc = `import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


x = torch.rand(1000, device="cuda")
y = torch.empty_like(x)
`

// inferSource infers the launches of src, saved as k.py in a fresh folder, for the target
// tgt ("" for the default); the folder is left out of the messages.
func inferSource(t *testing.T, src, tgt string, opts Options) string {
	t.Helper()
	dir := t.TempDir()
	var popts pyeval.Options
	if tgt != "" {
		var err error
		if popts.Target, err = target.Parse(tgt); err != nil {
			t.Fatal(err)
		}
	}
	f, err := frontend.LoadSource(filepath.Join(dir, "k.py"), []byte(src), popts)
	if err != nil {
		t.Fatal(err)
	}
	out := strings.ReplaceAll(summary(Infer(f, opts)), dir+string(filepath.Separator), "")
	return strings.ReplaceAll(out, dir, ".")
}

// summary renders a result compactly: each kernel's specs (with their compile options),
// errors (line:col: message) and unknowns.
func summary(res *Result) string {
	var b strings.Builder
	for _, kr := range res.Kernels {
		for _, s := range kr.Specs {
			fmt.Fprintf(&b, "%s: %s w=%d s=%d", kr.Kernel.Name, s.SignatureText(), s.NumWarps, s.NumStages)
			if o := s.Compile.String(); o != "" {
				b.WriteString(" " + o)
			}
			b.WriteString("\n")
		}
		for _, e := range kr.Errors {
			d, _ := diag.As(e)
			fmt.Fprintf(&b, "%s: error %d:%d: %s\n", kr.Kernel.Name, d.Span.Line, d.Span.Col+1, d.Msg)
		}
		for _, u := range kr.Unknown {
			fmt.Fprintf(&b, "%s: unknown: %s\n", kr.Kernel.Name, u[:strings.Index(u, ";")])
		}
	}
	return b.String()
}

func TestLaunches(t *testing.T) {
	tests := []struct {
		name, launch, want string
	}{
		{"keywords", "add_kernel[(1,)](x, y, x.numel(), BLOCK=256, num_warps=2)",
			"add_kernel: *fp32:16, *fp32:16, i32, 256 w=2 s=3\n"},
		{"positional constexpr, divisible", "add_kernel[(1,)](x, y, 1024, 128, num_stages=2)",
			"add_kernel: *fp32:16, *fp32:16, i32:16, 128 w=4 s=2\n"},
		{"equal to one, i64, dtypes", "add_kernel[(1,)](x.half(), y.to(torch.bfloat16), 1, BLOCK=64)\nadd_kernel[(1,)](x, y, 2**40, BLOCK=64)",
			"add_kernel: *fp16:16, *bf16:16, i32:1, 64 w=4 s=3\nadd_kernel: *fp32:16, *fp32:16, i64:16, 64 w=4 s=3\n"},
		{"host function, dedup", "def f(a):\n    b = torch.empty_like(a)\n    add_kernel[(1,)](a, b, a.shape[0], BLOCK=triton.next_power_of_2(a.shape[0]))\n    return b\nf(x)\nf(x)\nf(torch.randn(64, 3)[:, 0])",
			"add_kernel: *fp32:16, *fp32:16, i32, 1024 w=4 s=3\nadd_kernel: *fp32:16, *fp32:16, i32:16, 64 w=4 s=3\n"},
		{"too many arguments", "add_kernel[(1,)](x, y, 10, 256, 7)",
			"add_kernel: error 15:1: add_kernel() takes 4 positional arguments but 5 were given\n"},
		{"too few arguments", "add_kernel[(1,)](x, y)",
			"add_kernel: error 15:1: add_kernel() missing required argument: 'n'\n"},
		{"constexpr twice", "add_kernel[(1,)](x, y, 10, 256, BLOCK=256)",
			"add_kernel: error 15:1: add_kernel() got multiple values for argument 'BLOCK'\n"},
		{"unknown keyword", "add_kernel[(1,)](x, y, 10, BLOCK=256, BLOK=3)",
			"add_kernel: error 15:44: keyword argument BLOK was specified but unrecognised: 'add_kernel' has no such parameter (x_ptr, y_ptr, n, BLOCK)\n"},
		{"runtime value", "add_kernel[(1,)](x, y, 10, BLOCK=x.sum().item())",
			"add_kernel: unknown: BLOCK is not known offline: tensor.sum() needs the data (the argument `x.sum().item()` at k.py:15)\n"},
		{"no launch", "", "add_kernel: unknown: no launch of 'add_kernel' was reached and its parameters cannot all be guessed: add_kernel() missing required argument: 'BLOCK'\n"},
		{"unresolved import used by a launch", "from no_such_module import BLOCK_SIZE\nadd_kernel[(1,)](x, y, 10, BLOCK=BLOCK_SIZE)",
			"add_kernel: error 16:34: argument 'BLOCK' of 'add_kernel' needs an import that cannot be found: from no_such_module import BLOCK_SIZE (line 15) did not resolve: no module named 'no_such_module' (searched .; add its folder with --path or GOTRITON_PATH)\n"},
		{"launch site not reached, every argument by keyword", "def f(a, b):\n    assert False, 'never called'\n    add_kernel[(1,)](x_ptr=a, y_ptr=b, n=a.numel(), BLOCK=128)\n    add_kernel[(1,)](a, n=a.numel(), y_ptr=b, BLOCK=64)",
			"add_kernel: *fp32:16, *fp32:16, i32, 128 w=4 s=3\nadd_kernel: *fp32:16, *fp32:16, i32, 64 w=4 s=3\n"},
		{"launch site not reached", "def f(a, b):\n    add_kernel[(1,)](a, b, a.numel(), BLOCK=128, num_warps=8)\n    add_kernel[(1,)](a, b, a.numel(), BLOCK=b.shape[0])",
			"add_kernel: *fp32:16, *fp32:16, i32:16, 128 w=8 s=3\nadd_kernel: *fp32:16, *fp32:16, i32:16, 64 w=4 s=3\n"},
		{"host function not reached, tensors guessed from their uses", "def f(q: torch.Tensor, blk: int, scale: float = 2.0):\n    B, T, H = q.shape\n    add_kernel[(1,)](q, torch.empty_like(q), q.stride(0), BLOCK=triton.next_power_of_2(H * blk + 1))",
			"add_kernel: *fp32:16, *fp32:16, i32:16, 8192 w=4 s=3\n"},
		{"host function not reached: torch.permute, new_empty, isinstance", "def f(q: torch.Tensor, off: int = 3):\n    B, T = q.shape\n    h = q.new_empty(B, T, dtype=torch.float16)\n    add_kernel[(1,)](torch.permute(q, (1, 0)), h, T, BLOCK=128 if isinstance(q, torch.Tensor) and not isinstance(off, torch.Tensor) else 64)",
			"add_kernel: *fp32:16, *fp16:16, i32:16, 128 w=4 s=3\n"},
		{"host function not reached, retried with its optional tensors", "def f(x: torch.Tensor, cu: torch.Tensor = None):\n    assert cu is not None\n    assert cu.shape == x.shape\n    B, T = x.shape\n    add_kernel[(1,)](x, cu, cu.numel(), BLOCK=64)",
			"add_kernel: *fp32:16, *fp32:16, i32:16, 64 w=4 s=3\n"},
		{"host function not reached, ranks from size() and shape slices", "def f(x, q):\n    a, b, c = q.size()\n    s0, s1 = x.shape[-2:]\n    add_kernel[(1,)](x, q, s0 * s1 + c + 1, BLOCK=a)",
			"add_kernel: *fp32:16, *fp32:16, i32, 64 w=4 s=3\n"},
		{"host function not reached, an argument not guessed", "def f(a, b, blk):\n    add_kernel[(1,)](a, b, a.numel(), BLOCK=blk)",
			"add_kernel: unknown: no launch of 'add_kernel' was reached: BLOCK is not known offline: `blk` needs host code that running the file did not reach (the argument `blk` at k.py:16)\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := inferSource(t, kernelSrc+"\n"+tc.launch+"\n", "", Options{})
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestLaunchOptions: the compile options a launch or its autotune config gives, from
// literals or host values, make distinct specializations; a value of the wrong type, an
// option the target does not take, and an option both give are errors at the launch.
func TestLaunchOptions(t *testing.T) {
	const tuned = `
@triton.autotune(configs=[triton.Config({"BLOCK": 32}, maxnreg=96), triton.Config({"BLOCK": 64}, num_warps=8)], key=[])
@triton.jit
def tuned_kernel(x_ptr, BLOCK: tl.constexpr):
    pass
`
	const kwTuned = `
@triton.autotune(configs=[triton.Config({"BLOCK": 32, "matrix_instr_nonkdim": 16}, num_warps=8, num_stages=2),
                          triton.Config({"BLOCK": 64, "FOO": 1})], key=[])
@triton.jit
def kw_kernel(x_ptr, BLOCK: tl.constexpr):
    pass
`
	const unlaunched = "add_kernel: unknown: no launch of 'add_kernel' was reached and its parameters cannot all be guessed: add_kernel() missing required argument: 'BLOCK'\n"
	tests := []struct {
		name, target, launch, want string
	}{
		{"distinct values distinct specializations", "",
			"add_kernel[(1,)](x, y, 10, BLOCK=64, enable_fp_fusion=False, maxnreg=128)\n" +
				"add_kernel[(1,)](x, y, 10, BLOCK=64, enable_fp_fusion=True)\n" +
				"add_kernel[(1,)](x, y, 10, BLOCK=64, enable_fp_fusion=True)\n" +
				"add_kernel[(1,)](x, y, 10, BLOCK=64)\n" +
				"add_kernel[(1,)](x, y, 10, BLOCK=64, maxnreg=None, enable_reflect_ftz=False, launch_pdl=True, launch_cooperative_grid=True, debug=True, num_ctas=1)",
			"add_kernel: *fp32:16, *fp32:16, i32, 64 w=4 s=3 enable_fp_fusion=False maxnreg=128\n" +
				"add_kernel: *fp32:16, *fp32:16, i32, 64 w=4 s=3 enable_fp_fusion=True\n" +
				"add_kernel: *fp32:16, *fp32:16, i32, 64 w=4 s=3\n" +
				"add_kernel: *fp32:16, *fp32:16, i32, 64 w=4 s=3 enable_reflect_ftz=False launch_pdl=True launch_cooperative_grid=True debug=True\n"},
		{"values from host variables", "",
			"REGS = 2 ** 7\ndef f(a, fuse, **extra):\n    add_kernel[(1,)](a, a, a.numel(), BLOCK=32, enable_fp_fusion=fuse, maxnreg=REGS, num_warps=2 * 4, **extra)\nf(x, False, num_stages=2)\nf(x, 1 > 2)",
			"add_kernel: *fp32:16, *fp32:16, i32, 32 w=8 s=2 enable_fp_fusion=False maxnreg=128\n" +
				"add_kernel: *fp32:16, *fp32:16, i32, 32 w=8 s=3 enable_fp_fusion=False maxnreg=128\n"},
		{"static launch site not reached", "",
			"def f(a, b):\n    add_kernel[(1,)](a, b, a.numel(), BLOCK=128, enable_fp_fusion=False, launch_pdl=True)",
			"add_kernel: *fp32:16, *fp32:16, i32, 128 w=4 s=3 enable_fp_fusion=False launch_pdl=True\n"},
		{"wrong types", "",
			"add_kernel[(1,)](x, y, 10, BLOCK=64, enable_fp_fusion=1)\n" +
				"add_kernel[(1,)](x, y, 10, BLOCK=64, maxnreg='128')\n" +
				"add_kernel[(1,)](x, y, 10, BLOCK=64, maxnreg=0)\n" +
				"add_kernel[(1,)](x, y, 10, BLOCK=64, num_warps=3)\n" +
				"add_kernel[(1,)](x, y, 10, BLOCK=64, num_stages=2.0)\n" +
				"add_kernel[(1,)](x, y, 10, BLOCK=64, **{'debug': 'yes'})",
			"add_kernel: error 15:55: launch option enable_fp_fusion must be True or False, not 1\n" +
				"add_kernel: error 16:46: launch option maxnreg must be a positive int (registers per thread), not '128'\n" +
				"add_kernel: error 17:46: launch option maxnreg must be a positive int (registers per thread), not 0\n" +
				"add_kernel: error 18:48: launch option num_warps must be a power of 2, not 3\n" +
				"add_kernel: error 19:49: launch option num_stages must be a non-negative int, not 2.0\n" +
				"add_kernel: error 20:1: launch option debug must be True or False, not 'yes'\n"},
		{"the decorator's debug", "",
			"@triton.jit(debug=True)\ndef dbg_kernel(x_ptr, n, BLOCK: tl.constexpr):\n    tl.device_assert(n > 0)\n\n\n" +
				"dbg_kernel[(1,)](x, 10, BLOCK=64)\ndbg_kernel[(1,)](x, 10, BLOCK=32, debug=False)\ndbg_kernel[(1,)](x, 10, BLOCK=16, debug=None)\n" +
				"@triton.jit(debug='yes')\ndef bad_kernel(x_ptr):\n    pass\n\n\nbad_kernel[(1,)](x)\n" +
				"@triton.jit(debug=x.sum().item() > 0)\ndef env_kernel(x_ptr):\n    pass\n\n\nenv_kernel[(1,)](x)",
			"add_kernel: unknown: no launch of 'add_kernel' was reached and its parameters cannot all be guessed: add_kernel() missing required argument: 'BLOCK'\n" +
				"dbg_kernel: *fp32:16, i32, 64 w=4 s=3 debug=True\n" +
				"dbg_kernel: *fp32:16, i32, 32 w=4 s=3\n" +
				"dbg_kernel: *fp32:16, i32, 16 w=4 s=3\n" +
				"bad_kernel: error 28:1: launch option debug must be True or False, not 'yes', given by the kernel's @triton.jit(debug=...) at line 23\n" +
				"env_kernel: unknown: the launch option debug is not known offline: torch.rand(...) is host code (line 12) (the kernel's @triton.jit(debug=...) at line 29)\n"},
		{"not known offline", "",
			"add_kernel[(1,)](x, y, 10, BLOCK=64, maxnreg=x.sum().item())",
			"add_kernel: unknown: the launch option maxnreg is not known offline: tensor.sum() needs the data (the argument `x.sum().item()` at k.py:15)\n"},
		{"CUDA options on HIP", "hip:gfx942:64",
			"add_kernel[(1,)](x, y, 10, BLOCK=64, enable_fp_fusion=False)\n" +
				"add_kernel[(1,)](x, y, 10, BLOCK=64, maxnreg=128)\n" +
				"add_kernel[(1,)](x, y, 10, BLOCK=64, launch_pdl=True)",
			"add_kernel: *fp32:16, *fp32:16, i32, 64 w=4 s=2 enable_fp_fusion=False\n" +
				"add_kernel: error 16:46: keyword argument maxnreg was specified but unrecognised: 'add_kernel' has no such parameter (x_ptr, y_ptr, n, BLOCK), and maxnreg is a cuda option, which target hip does not take\n" +
				"add_kernel: error 17:49: keyword argument launch_pdl was specified but unrecognised: 'add_kernel' has no such parameter (x_ptr, y_ptr, n, BLOCK), and launch_pdl is a cuda option, which target hip does not take\n"},
		{"autotune config options", "",
			tuned + "tuned_kernel[(1,)](x, enable_fp_fusion=False)",
			unlaunched + "tuned_kernel: *fp32:16, 32 w=4 s=3 enable_fp_fusion=False maxnreg=96\n" +
				"tuned_kernel: *fp32:16, 64 w=8 s=3 enable_fp_fusion=False\n"},
		{"autotune config and launch both give an option", "",
			tuned + "tuned_kernel[(1,)](x, num_warps=2)",
			unlaunched + "tuned_kernel: error 20:33: 'tuned_kernel' got multiple values for keyword argument 'num_warps': the launch gives it, and so does autotune config 0 (triton.Config({'BLOCK': 32}, num_warps=4, num_stages=3, num_ctas=1, maxnreg=96))\n" +
				"tuned_kernel: error 20:33: 'tuned_kernel' got multiple values for keyword argument 'num_warps': the launch gives it, and so does autotune config 1 (triton.Config({'BLOCK': 64}, num_warps=8, num_stages=3, num_ctas=1))\n"},
		{"autotune config maxnreg on HIP", "hip:gfx942:64",
			tuned + "tuned_kernel[(1,)](x)",
			unlaunched + "tuned_kernel: *fp32:16, 64 w=8 s=3\n" +
				"tuned_kernel: error 20:1: keyword argument maxnreg was specified but unrecognised: autotune config 0 (triton.Config({'BLOCK': 32}, num_warps=4, num_stages=3, num_ctas=1, maxnreg=96)) sets it, and it is a cuda option, which target hip does not take\n"},
		// Tutorial 03's HIP configs: an option among a Config's kwargs goes to the backend.
		{"option in autotune config kwargs on HIP", "hip:gfx942:64",
			kwTuned + "kw_kernel[(1,)](x)",
			unlaunched + "kw_kernel: *fp32:16, 32 w=8 s=2 matrix_instr_nonkdim=16\n" +
				"kw_kernel: error 21:1: keyword argument FOO was specified but unrecognised: autotune config 1 (triton.Config({'BLOCK': 64, 'FOO': 1}, num_warps=4, num_stages=3, num_ctas=1)) sets it, and 'kw_kernel' has no such parameter (x_ptr, BLOCK)\n"},
		{"HIP option in autotune config kwargs on CUDA", "",
			kwTuned + "kw_kernel[(1,)](x)",
			unlaunched + "kw_kernel: error 21:1: keyword argument matrix_instr_nonkdim was specified but unrecognised: autotune config 0 (triton.Config({'BLOCK': 32, 'matrix_instr_nonkdim': 16}, num_warps=8, num_stages=2, num_ctas=1)) sets it, and it is a hip option, which target cuda does not take\n" +
				"kw_kernel: error 21:1: keyword argument FOO was specified but unrecognised: autotune config 1 (triton.Config({'BLOCK': 64, 'FOO': 1}, num_warps=4, num_stages=3, num_ctas=1)) sets it, and 'kw_kernel' has no such parameter (x_ptr, BLOCK)\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := inferSource(t, kernelSrc+"\n"+tc.launch+"\n", tc.target, Options{})
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestHostCode(t *testing.T) {
	tests := []struct {
		name, src, want string
		consts          map[string]pyeval.Value
	}{
		{"autotune, heuristics, prune, main block", `
def prune(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs["BLOCK"] <= 2 * named_args["n"]]

@triton.autotune(configs=[triton.Config({"BLOCK": b}, num_warps=w) for b in (32, 64, 128) for w in (4, 8)], key=["n"],
                 prune_configs_by={"early_config_prune": prune})
@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    pass

if __name__ == "__main__":
    k[(1,)](torch.zeros(64, 64, dtype=torch.int8), 32)
`, "k: *i8:16, i32:16, 32, True w=4 s=3\nk: *i8:16, i32:16, 32, True w=8 s=3\nk: *i8:16, i32:16, 64, False w=4 s=3\nk: *i8:16, i32:16, 64, False w=8 s=3\n", nil},
		{"autograd function, benchmark, descriptor pre_hook", `
from triton.tools.tensor_descriptor import TensorDescriptor

def hook(nargs):
    nargs["d"].block_shape = [nargs["B"], nargs["B"]]

@triton.autotune(configs=[triton.Config({"B": 64}, pre_hook=hook)], key=[])
@triton.jit
def k(d, s, B: tl.constexpr):
    pass

class Op(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        ctx.scale = 0.5
        return a.clone()

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        k[(1,)](TensorDescriptor.from_tensor(a, [1, 1]), ctx.scale)
        return g

@triton.testing.perf_report(triton.testing.Benchmark(x_names=["N"], x_vals=[128, 256], line_arg="p", line_vals=["a"], args={"dt": torch.float16}))
def bench(N, p, dt):
    y = Op.apply(torch.randn(N, N, dtype=dt))
    y.backward(torch.randn_like(y))

bench.run(print_data=True)
`, "k: tensordesc<fp16[64, 64]>, fp32, 64 w=4 s=3\n", nil},
		{"-c sets constexprs and scalars; do_not_specialize", `
@triton.jit(do_not_specialize=["n"])
def k(x_ptr, n, m, BLOCK: tl.constexpr):
    pass

k[(1,)](torch.empty(16), 32, 32, BLOCK=16)
`, "k: *fp32:16, i32, i32:1, 128 w=4 s=3\n", map[string]pyeval.Value{"BLOCK": pyeval.NewInt(128), "m": pyeval.NewInt(1)}},
		{"pytest tests launch what the script does not", `
import pytest

@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    pass

@pytest.mark.parametrize("n", [16, 7])
@pytest.mark.parametrize("dtype, block", [(torch.float16, 32), (torch.float32, 64)])
def test_k(n, dtype, block, device):
    if n == 7 and block == 64:
        pytest.skip("not this one")
    k[(1,)](torch.empty(n, dtype=dtype, device=device), n, BLOCK=block)
`, "k: *fp16:16, i32:16, 32 w=4 s=3\nk: *fp16:16, i32, 32 w=4 s=3\nk: *fp32:16, i32:16, 64 w=4 s=3\n", nil},
		{"pytest.raises bodies are not run", `
import pytest

@triton.jit
def k(x_ptr, BLOCK: tl.constexpr = 16):
    tl.store(x_ptr, 1.0)

def test_bad():
    with pytest.raises(triton.CompilationError):
        k[(1,)](torch.empty(4), BLOCK=3)
`, "k: *fp32:16, 16 w=4 s=3\n", nil},
		{"wrap_triton and memoised loops", `
from torch.library import wrap_triton

@triton.jit
def k(x_ptr, n):
    pass

def run(a):
    wrap_triton(k)[(1,)](a, a.numel())

for _ in range(100000):
    run(torch.empty(3, 5))
`, "k: *fp32:16, i32 w=4 s=3\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "import torch\nimport triton\nimport triton.language as tl\n" + tc.src
			got := inferSource(t, src, "", Options{Constants: tc.consts})
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// FuzzInfer runs launch-site inference over arbitrary launches of a kernel: it must
// never panic, and every launch gives specializations, errors or reasons.
func FuzzInfer(f *testing.F) {
	for _, s := range []string{
		"add_kernel[(1,)](x, y, 10, BLOCK=256)",
		"add_kernel[grid](x, y, x.numel(), 128, num_warps=8)",
		"add_kernel[(1,)](*[x, y], **{'n': 3, 'BLOCK': 16})",
		"def f(a):\n    add_kernel[(1,)](a, a.T, a.stride(0), BLOCK=a.shape[1])\nf(torch.empty(4, 32).half())",
		"add_kernel.warmup(x, y, 1, BLOCK=2, grid=(1,))",
		"add_kernel[(1,)](x, y, 10, BLOCK=16, enable_fp_fusion=False, maxnreg=64, launch_pdl=True, num_warps=2)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, launch string) {
		path := filepath.Join(t.TempDir(), "k.py")
		file, err := frontend.LoadSource(path, []byte(kernelSrc+launch+"\n"), pyeval.Options{Steps: 20000})
		if err != nil {
			return // a syntax error
		}
		res := Infer(file, Options{Steps: 200000})
		for _, kr := range res.Kernels {
			for _, e := range kr.Errors {
				if _, ok := diag.As(e); !ok {
					t.Fatalf("unpositioned error %v", e)
				}
			}
		}
	})
}
