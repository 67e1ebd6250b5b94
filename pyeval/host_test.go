package pyeval_test

import (
	"strings"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/target"
)

// hostCase is a module's source and the repr of the globals it binds (a want starting
// with "~" is a prefix of the repr: for Unknowns, whose reasons are long).
type hostCase struct {
	name string
	src  string
	want map[string]string
}

func runHostCases(t *testing.T, cases []hostCase, opts pyeval.Options) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mod, err := frontend.ParseFile("m.py", []byte(c.src))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			m := pyeval.Exec("m", "m.py", []byte(c.src), mod, opts)
			for name, want := range c.want {
				v, ok := m.Lookup(name)
				if !ok {
					t.Errorf("%s is not bound", name)
					continue
				}
				got := pyeval.Repr(v)
				if p, isPrefix := strings.CutPrefix(want, "~"); isPrefix {
					if !strings.HasPrefix(got, p) {
						t.Errorf("%s = %s, want it to start with %s", name, got, p)
					}
				} else if got != want {
					t.Errorf("%s = %s, want %s", name, got, want)
				}
			}
		})
	}
}

// TestLibdeviceImports checks that every import path of libdevice that Triton 3.6 has
// succeeds and that the paths it does not have raise ImportError, so that try/except
// fallbacks take the branch Triton 3.6 takes.
func TestLibdeviceImports(t *testing.T) {
	runHostCases(t, libdeviceCases, pyeval.Options{})
}

// TestImportsThroughImporter checks that a module an importer cannot find raises
// ModuleNotFoundError, so that `except ImportError` falls back.
func TestImportsThroughImporter(t *testing.T) {
	src := `
try:
    import torch_npu
    NPU = True
except ImportError:
    NPU = False
try:
    from .helpers import fast
except ImportError:
    fast = None
`
	mod, err := frontend.ParseFile("m.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	missing := func(fromFile, module string, level int) (*pyeval.Module, error) {
		if level == 0 && module == "triton" {
			return nil, nil
		}
		return nil, &pyeval.Error{Kind: "ModuleNotFoundError", Msg: "no module named '" + module + "'"}
	}
	m := pyeval.Exec("m", "m.py", []byte(src), mod, pyeval.Options{Importer: missing})
	for name, want := range map[string]string{"NPU": "False", "fast": "None"} {
		if v, _ := m.Lookup(name); pyeval.Repr(v) != want {
			t.Errorf("%s = %s, want %s", name, pyeval.Repr(v), want)
		}
	}
}

// TestVersionChecks checks the versions host code compares against.
func TestVersionChecks(t *testing.T) {
	runHostCases(t, versionCases, pyeval.Options{})
}

// TestTorchFacts checks torch.finfo, torch.iinfo, dtypes and the device's properties.
func TestTorchFacts(t *testing.T) {
	runHostCases(t, torchCases, pyeval.Options{})
	hip, err := target.Parse("hip:gfx942:64")
	if err != nil {
		t.Fatal(err)
	}
	runHostCases(t, []hostCase{{"hip target", `
import torch
import triton
IS_HIP = torch.version.hip is not None
CAP = torch.cuda.get_device_capability()
P = triton.runtime.driver.active.utils.get_device_properties(0)
WARP, ARCH = P["warpSize"], P["arch"]
`, map[string]string{"IS_HIP": "True", "CAP": "(9, 4)", "WARP": "64", "ARCH": "'gfx942'"}}}, pyeval.Options{Target: hip})
}

// TestClassesAndFunctions checks the module-level classes and functions host code defines.
func TestClassesAndFunctions(t *testing.T) {
	runHostCases(t, classCases, pyeval.Options{})
}

// TestUnknownReasons checks that host code beyond offline evaluation binds Unknowns that
// name the construct and its line, and that the rest of the module still runs.
func TestUnknownReasons(t *testing.T) {
	runHostCases(t, reasonCases, pyeval.Options{})
}

var libdeviceCases = []hostCase{
	{"extra.libdevice", `
try:
    from triton.language.extra.libdevice import tanh
    WHICH = "extra"
except (ImportError, ModuleNotFoundError, AttributeError):
    from triton.language.math import tanh
    WHICH = "math"
`, map[string]string{"tanh": "triton.language.extra.libdevice.tanh", "WHICH": "'extra'"}},
	{"extra.cuda.libdevice", `
try:
    from triton.language.extra.cuda.libdevice import fast_dividef as div
except ModuleNotFoundError:
    div = None
`, map[string]string{"div": "triton.language.extra.cuda.libdevice.fast_dividef"}},
	{"extra.cuda", `
from triton.language.extra.cuda import libdevice
import triton.language.extra.cuda as cuda
from triton.language.extra import libdevice as generic
import triton.language.extra.libdevice as by_path
import triton.language as tl
ERF = tl.extra.cuda.libdevice.erf
SMID = cuda.smid
`, map[string]string{"libdevice": "triton.language.extra.cuda.libdevice", "cuda": "triton.language.extra.cuda",
		"generic": "triton.language.extra.libdevice", "by_path": "triton.language.extra.libdevice", "ERF": "triton.language.extra.cuda.libdevice.erf",
		"SMID": "triton.language.extra.cuda.smid"}},
	{"math has no tanh in 3.6", `
try:
    from triton.language.math import tanh
    WHICH = "math"
except ImportError as e:
    from triton.language.extra.cuda.libdevice import tanh
    WHICH = "libdevice"
    WHY = str(e)
`, map[string]string{"tanh": "triton.language.extra.cuda.libdevice.tanh", "WHICH": "'libdevice'",
		"WHY": "\"cannot import name 'tanh' from 'triton.language.math'\""}},
	{"math names that exist", `
from triton.language.math import rsqrt, fma
import triton.language.math as tlm
`, map[string]string{"rsqrt": "triton.language.math.rsqrt", "tlm": "triton.language.math"}},
	{"removed triton.language.libdevice", `
try:
    import triton.language.libdevice as libdevice
    WHICH = "old"
except ModuleNotFoundError as e:
    from triton.language.extra import libdevice
    WHICH = "new"
    WHY = str(e)
`, map[string]string{"libdevice": "triton.language.extra.libdevice", "WHICH": "'new'",
		"WHY": "\"No module named 'triton.language.libdevice'\""}},
	{"attribute that 3.6 lacks", `
import triton.language as tl
try:
    exp = tl.math.tanh
except AttributeError:
    exp = tl.extra.libdevice.tanh
HAS_GATHER = hasattr(tl, "gather")
HAS_OLD = hasattr(tl, "libdevice")
F16 = getattr(tl, "float16")
DEFAULT = getattr(tl, "nonexistent", None)
NAME = tl.__name__
OLD_TMA = "nv_tma_desc_type" in dir(tl)
NEW_TMA = "make_tensor_descriptor" in dir(tl)
HAS_FILE = hasattr(tl.math, "__file__")
ZERO = tl.core.CONSTEXPR_0
`, map[string]string{"ZERO": "0", "OLD_TMA": "False", "NEW_TMA": "True", "NAME": "'triton.language'", "HAS_FILE": "True", "exp": "triton.language.extra.libdevice.tanh", "HAS_GATHER": "True", "HAS_OLD": "False",
		"F16": "triton.language.float16", "DEFAULT": "None"}},
	{"unhandled import error", `
from triton.language.libdevice import exp
OTHER = 1
`, map[string]string{"exp": "<unknown: from triton.language.libdevice import exp (line 2) did not resolve: ModuleNotFoundError: No module named 'triton.language.libdevice'>",
		"OTHER": "1"}},
	{"a handler that does not match", `
try:
    from triton.language.libdevice import exp
except AttributeError:
    exp = None
NEXT = 2
`, map[string]string{"exp": "~<unknown: from triton.language.libdevice import exp (line 3) did not resolve", "NEXT": "2"}},
	{"else and finally", `
try:
    import triton
except ImportError:
    A = 0
else:
    A = 1
finally:
    B = 2
`, map[string]string{"A": "1", "B": "2"}},
	{"third-party module", `
try:
    import flash_attn_cuda
    HAS = True
except ImportError:
    HAS = False
`, map[string]string{"HAS": "True"}},
}

var versionCases = []hostCase{
	{"triton", `
import triton
from packaging import version
from packaging.version import Version
V = triton.__version__
NEW = version.parse(triton.__version__) >= version.parse("3.0.0")
OLD = Version(triton.__version__) < Version("3.6")
EQ = Version("3.6.0") == Version("3.6")
RC = Version("3.6.0rc1") < Version("3.6.0")
DEV = Version("3.6.0.dev20250101") < Version("3.6.0a1")
PARTS = (Version(triton.__version__).major, Version(triton.__version__).minor)
BASE = Version("3.6.0+git1234").base_version
TUPLE = tuple(int(x) for x in triton.__version__.split(".")[:2]) >= (3, 4)
`, map[string]string{"V": "'3.6.0'", "NEW": "True", "OLD": "False", "EQ": "True", "RC": "True", "DEV": "True",
		"PARTS": "(3, 6)", "BASE": "'3.6.0'", "TUPLE": "True"}},
	{"importlib.metadata", `
import importlib.metadata
from importlib.metadata import version
T = importlib.metadata.version("triton")
P = version("torch")
OTHER = version("vllm")
`, map[string]string{"T": "'3.6.0'", "P": "'2.11.0'", "OTHER": "~<unknown: importlib.metadata.version('vllm')"}},
	{"torch", `
import torch
V = torch.__version__
GE = torch.__version__ >= "2.5"
LT = torch.__version__ < (2, 12)
EQ = torch.__version__ == "2.11.0"
MAJOR = int(torch.__version__.split(".")[0])
HIP = torch.version.hip
CUDA = torch.version.cuda
`, map[string]string{"V": "'2.11.0'", "GE": "True", "LT": "True", "EQ": "True", "MAJOR": "2", "HIP": "None", "CUDA": "'13.0'"}},
	{"sys", `
import sys
PY = sys.version_info >= (3, 10)
MINOR = sys.version_info.minor
MAJOR = sys.version_info[0]
`, map[string]string{"PY": "True", "MINOR": "12", "MAJOR": "3"}},
}

var classCases = []hostCase{
	{"namespace class", `
class Cfg:
    BLOCK = 64
    HALF = BLOCK // 2
    NAMES = ("a", "b")
    def twice(x):
        return 2 * x
B = Cfg.BLOCK + Cfg.HALF
T = Cfg.twice(4)
Cfg.EXTRA = 5
E = Cfg.EXTRA
`, map[string]string{"B": "96", "T": "8", "E": "5"}},
	{"enum", `
import enum
from enum import Enum, IntEnum
class Act(Enum):
    RELU = "relu"
    GELU = "gelu"
class Mode(enum.IntEnum):
    FWD = 0
    BWD = 1
R = Act.RELU
V = Act.GELU.value
N = Act.RELU.name
BY = Act("gelu")
ALL = [m.value for m in Act]
I = Mode.BWD + 1
EQ = Mode.FWD == 0
KEY = Act["RELU"].value
class Kind(enum.Enum):
    A = enum.auto()
    B = enum.auto()
    C = 10
    D = enum.auto()
AUTO = [k.value for k in Kind]
`, map[string]string{"AUTO": "[1, 2, 10, 11]", "R": "Act.RELU", "V": "'gelu'", "N": "'RELU'", "BY": "Act.GELU", "ALL": "['relu', 'gelu']",
		"I": "2", "EQ": "True", "KEY": "'relu'"}},
	{"dataclass", `
from dataclasses import dataclass
@dataclass(frozen=True)
class Shape:
    m: int
    n: int = 8
    def area(self):
        return self.m * self.n
S = Shape(4)
A = S.area()
N = Shape(2, n=3).n
from dataclasses import field
@dataclass
class Opts:
    sizes: list = field(default_factory=lambda: [16, 32])
    warps: int = field(default=4)
O = Opts()
`, map[string]string{"O": "Opts(sizes=[16, 32], warps=4)", "S": "Shape(m=4, n=8)", "A": "32", "N": "3"}},
	{"instances", `
class Tile:
    def __init__(self, m, n):
        self.m = m
        self.n = n
    @property
    def size(self):
        return self.m * self.n
    @staticmethod
    def square(k):
        return Tile(k, k)
    @classmethod
    def name(cls):
        return cls.__name__
class Big(Tile):
    pass
T = Tile.square(16).size
IS = isinstance(Big(1, 2), Tile)
NAME = Big.name()
`, map[string]string{"T": "256", "IS": "True", "NAME": "'Big'"}},
	{"functions and closures", `
import functools
def make(scale):
    def f(x, *, bias=0):
        return x * scale + bias
    return f
F = make(3)(2, bias=1)
@functools.lru_cache(maxsize=None)
def num_sms():
    return 132
SMS = num_sms()
ADD = functools.reduce(lambda a, b: a + b, [1, 2, 3])
P = functools.partial(make(2), bias=5)(1)
import torch
fwd = functools.partial(torch.amp.custom_fwd, device_type="cuda")
class Fn(torch.autograd.Function):
    @staticmethod
    @fwd
    def forward(ctx, x):
        return x + 1
    @staticmethod
    @torch.amp.custom_bwd(device_type="cuda")
    def backward(ctx, g):
        return g
FWD = Fn.forward(None, 1)
BWD = Fn.backward(None, 2)
`, map[string]string{"FWD": "2", "BWD": "2", "F": "7", "SMS": "132", "ADD": "6", "P": "7"}},
	{"configs built by loops", `
import itertools
import triton
configs = []
for bm, bn in itertools.product([64, 128], [32]):
    for w in (4, 8):
        if bm == 128 and w == 4:
            continue
        configs.append(triton.Config({"BM": bm, "BN": bn}, num_warps=w))
N = len(configs)
SIZES = sorted({c.kwargs["BM"] for c in configs})
i = 0
while i < 3:
    i += 1
`, map[string]string{"N": "3", "SIZES": "[64, 128]", "i": "3"}},
	{"setattr on a module object", `
import triton.language as tl
import sys
def helper(x):
    return x
setattr(tl, "helper", helper)
H = tl.helper(3)
`, map[string]string{"H": "3"}},
}

var reasonCases = []hostCase{{"reasons", `
import torch
x = torch.randn(1024, device="cuda")
N = x.shape[0]
if x.is_contiguous():
    A = 1
else:
    B = 2
for i in range(x.numel()):
    C = i
def f():
    raise RuntimeError("no GPU")
D = f()
E = 1 / 0
F = undefined_name
G = [1, 2][5]
H = {"a": 1}["b"]
I = int("x")
J = sorted([1, "a"])
with open("data.txt") as fh:
    K = fh.read()
L = eval("1 + 1")
AFTER = "still evaluated"
`, map[string]string{
	"x":     "<unknown: torch.randn(...) is host code (line 3)>",
	"N":     "<unknown: torch.randn(...) is host code (line 3)>",
	"A":     "~<unknown: m.py:5:4: condition \"x.is_contiguous()\" depends on host state",
	"B":     "~<unknown: m.py:5:4: condition \"x.is_contiguous()\" depends on host state",
	"C":     "~<unknown: m.py:9:10: cannot iterate: torch.randn(...) is host code (line 3)",
	"D":     "<unknown: m.py:12:5: RuntimeError: no GPU>",
	"E":     "<unknown: m.py:14:5: ZeroDivisionError: division by zero>",
	"F":     "<unknown: m.py:15:5: name 'undefined_name' is not defined>",
	"G":     "<unknown: m.py:16:5: IndexError: list index out of range>",
	"H":     "<unknown: m.py:17:5: KeyError: 'b'>",
	"I":     "<unknown: m.py:18:5: ValueError: invalid literal for int() with base 10: 'x'>",
	"J":     "<unknown: m.py:19:5: '<' not supported between instances of 'str' and 'int'>",
	"fh":    "<unknown: the value of `with open(\"data.txt\") as ...` (line 20)>",
	"K":     "~<unknown: ",
	"L":     "<unknown: the builtin eval is not evaluated offline (line 22)>",
	"AFTER": "'still evaluated'",
}}}

var torchCases = []hostCase{
	{"finfo", `
import torch
F32_MIN = torch.finfo(torch.float32).min
F32_MAX = torch.finfo(torch.float).max
F16 = (torch.finfo(torch.float16).max, torch.finfo(torch.half).eps, torch.finfo(torch.float16).tiny, torch.finfo(torch.float16).bits)
BF16 = (torch.finfo(torch.bfloat16).max, torch.finfo(torch.bfloat16).eps)
F64 = torch.finfo(torch.float64).eps
F8 = (torch.finfo(torch.float8_e4m3fn).max, torch.finfo(torch.float8_e5m2).max, torch.finfo(torch.float8_e4m3fnuz).max)
DEFAULT = torch.finfo().bits
`, map[string]string{"F32_MIN": "-3.4028234663852886e+38", "F32_MAX": "3.4028234663852886e+38",
		"F16": "(65504.0, 0.0009765625, 6.103515625e-05, 16)", "BF16": "(3.3895313892515355e+38, 0.0078125)",
		"F64": "2.220446049250313e-16", "F8": "(448.0, 57344.0, 240.0)", "DEFAULT": "32"}},
	{"iinfo", `
import torch
I = [(torch.iinfo(d).min, torch.iinfo(d).max) for d in (torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64)]
U64 = torch.iinfo(torch.uint64).max
BITS = torch.iinfo(torch.long).bits
try:
    torch.iinfo(torch.float32)
    BAD = False
except TypeError:
    BAD = True
`, map[string]string{"I": "[(-128, 127), (0, 255), (-32768, 32767), (-2147483648, 2147483647), (-9223372036854775808, 9223372036854775807)]",
		"U64": "18446744073709551615", "BITS": "64", "BAD": "True"}},
	{"dtypes", `
import torch
import triton.language as tl
TO_TL = {torch.float16: tl.float16, torch.bfloat16: tl.bfloat16, torch.float32: tl.float32}
HALF = TO_TL[torch.half]
SIZE = torch.float16.itemsize
from torch._inductor.runtime.triton_helpers import libdevice, math as tmath
from torch._inductor.runtime import triton_helpers
ALIASES = (libdevice, tmath, triton_helpers.libdevice)
FP = (torch.bfloat16.is_floating_point, torch.int32.is_floating_point)
NAME = str(torch.float)
`, map[string]string{"ALIASES": "(triton.language.extra.libdevice, triton.language.math, triton.language.extra.libdevice)", "HALF": "triton.language.float16", "SIZE": "2", "FP": "(True, False)", "NAME": "'torch.float32'"}},
	{"device", `
import torch
import triton
CAP = torch.cuda.get_device_capability()
HOPPER = torch.cuda.get_device_capability()[0] >= 9
PROPS = torch.cuda.get_device_properties(0)
SMS = PROPS.multi_processor_count
NAME = torch.cuda.get_device_name(0)
MEM = PROPS.total_memory
AVAIL = torch.cuda.is_available()
TARGET = triton.runtime.driver.active.get_current_target()
ARCH = TARGET.arch
DEV = triton.runtime.driver.active.get_current_device()
P = triton.runtime.driver.active.utils.get_device_properties(DEV)
NUM_SM, SMEM, REGS, WARP = P["multiprocessor_count"], P["max_shared_mem"], P["max_num_regs"], P["warpSize"]
CLOCK = P["sm_clock_rate"]
`, map[string]string{"CAP": "(9, 0)", "HOPPER": "True", "SMS": "132", "NAME": "'NVIDIA H200'",
		"MEM": "~<unknown: _CudaDeviceProperties.total_memory is not known offline", "AVAIL": "True", "ARCH": "90",
		"NUM_SM": "132", "SMEM": "232448", "REGS": "65536", "WARP": "32",
		"CLOCK": "~<unknown: get_device_properties()['sm_clock_rate']"}},
	{"power of two", `
import triton
P = [triton.next_power_of_2(n) for n in (0, 1, 2, 3, 5, 1000, 1024, 1025)]
C = triton.cdiv(1000, 128)
BLOCK = min(triton.next_power_of_2(4096), 1024)
`, map[string]string{"P": "[0, 1, 2, 4, 8, 1024, 1024, 2048]", "C": "8", "BLOCK": "1024"}},
}

// TestLibraryClasses checks classes derived from library classes (torch.autograd.Function):
// what they inherit is Unknown, not missing.
func TestLibraryClasses(t *testing.T) {
	runHostCases(t, []hostCase{{"autograd", `
import torch
import triton.profiler as proton
class LayerNorm(torch.autograd.Function):
    SCALE = 2
    @staticmethod
    def forward(ctx, x):
        return x
layer_norm = LayerNorm.apply
S = LayerNorm.SCALE
`, map[string]string{"layer_norm": "<unknown: LayerNorm.apply, inherited from torch.autograd.Function (line 9)>", "S": "2",
		"proton": "triton.profiler"}}}, pyeval.Options{})
}

// TestLibraryUtils evaluates the platform probing that kernel libraries do in their
// utility modules: cached probes, enums of shared-memory sizes, version gates.
func TestLibraryUtils(t *testing.T) {
	runHostCases(t, libraryCases, pyeval.Options{})
}

var libraryCases = []hostCase{{"platform probes", `
import functools, os
from enum import Enum
from packaging import version
import torch, triton

@functools.cache
def backend() -> str:
    try:
        return triton.runtime.driver.active.get_current_target().backend
    except BaseException:
        return "cpu"

platform = {"cuda": "nvidia", "hip": "amd"}.get(backend(), backend())
lib = getattr(torch, "cuda" if backend() == "cpu" else backend())
is_hopper = platform == "nvidia" and ("NVIDIA H" in torch.cuda.get_device_name(0) or torch.cuda.get_device_capability()[0] >= 9)

def shared_mems():
    try:
        return [triton.runtime.driver.active.utils.get_device_properties(i)["max_shared_mem"] for i in range(lib.device_count())]
    except BaseException:
        return [-1]

class Smem(Enum):
    AMPERE = 166912
    HOPPER = 232448
    DEFAULT = 102400

    @classmethod
    def of(cls, arch: str) -> int:
        try:
            return cls[arch.upper()].value
        except KeyError:
            return cls.DEFAULT.value

def enough_smem(arch="none", idx=0):
    try:
        return shared_mems()[idx] >= Smem.of(arch)
    except Exception:
        return False

TORCH_24 = version.parse(torch.__version__) >= version.parse("2.4")
import inspect
CACHE = "cache_results" in inspect.signature(triton.autotune).parameters
OLD_KW = "use_cuda_graph" in inspect.signature(triton.runtime.autotuner.autotune).parameters
NO_KW = "warmup_ms" in inspect.signature(triton.autotune).parameters
CFG = list(inspect.signature(triton.Config).parameters)[:3]
MINE = list(inspect.signature(enough_smem).parameters)
BLOCKS = [64, 128] if enough_smem("hopper") else [32, 64]
VOLTA = Smem.of("volta")
FAST = os.environ.get("FAST_OPS", "0") == "1"
os.environ["TRITON_X"] = "1"
SET = os.environ.get("TRITON_X")
@triton.constexpr_function
def cuda_capability_geq(major, minor=0):
    return torch.cuda.get_device_capability() >= (major, minor)

HAS_TMA = cuda_capability_geq(9)
HAS_BW = cuda_capability_geq(10)
`, map[string]string{"CACHE": "True", "OLD_KW": "True", "NO_KW": "False", "CFG": "['kwargs', 'num_warps', 'num_stages']",
	"MINE": "['arch', 'idx']", "HAS_TMA": "True", "HAS_BW": "False", "cuda_capability_geq": "<function cuda_capability_geq>", "platform": "'nvidia'", "lib": "torch.cuda", "is_hopper": "True", "TORCH_24": "True",
	"BLOCKS": "[64, 128]", "VOLTA": "102400", "FAST": "False", "SET": "'1'"}}}

// TestConstexprFunctions checks that @triton.constexpr_function and @tl.constexpr leave
// plain functions that host code calls, marked for kernels to call at compile time.
func TestConstexprFunctions(t *testing.T) {
	src := `import triton
import triton.language as tl
@triton.constexpr_function
def a(x):
    return x * 2
@tl.constexpr
def b(x):
    return x + 1
def c(x):
    return x
V = a(b(3))
`
	mod, err := frontend.ParseFile("m.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m := pyeval.Exec("m", "m.py", []byte(src), mod, pyeval.Options{})
	for name, want := range map[string]bool{"a": true, "b": true, "c": false} {
		v, _ := m.Lookup(name)
		if f, ok := v.(*pyeval.Function); !ok || f.Constexpr != want {
			t.Errorf("%s = %s, want a function with Constexpr %v", name, pyeval.Repr(v), want)
		}
	}
	if v, _ := m.Lookup("V"); pyeval.Repr(v) != "8" {
		t.Errorf("V = %s, want 8", pyeval.Repr(v))
	}
}

// TestIntrospection checks the introspection host code does at import: properties with
// setters, __module__, module dunders, inspect predicates, isinstance of a jit function.
func TestIntrospection(t *testing.T) {
	runHostCases(t, []hostCase{{"introspection", `"""Doc."""
import inspect
import triton
class C:
    @property
    def size(self):
        return 4
    @size.setter
    def size(self, v):
        pass
@triton.jit
def k(x):
    pass
def f():
    pass
S = C().size
MOD = C.__module__
DOC = __doc__
PKG = __package__
IS_FN = (inspect.isfunction(f), inspect.isfunction(k), inspect.isclass(C), inspect.isclass(int))
IS_JIT = isinstance(k, triton.runtime.jit.JITFunction)
K = (k.__name__, k.arg_names)
`, map[string]string{"S": "4", "MOD": "'m'", "DOC": "'Doc.'", "PKG": "''", "IS_FN": "(True, False, True, True)", "IS_JIT": "True", "K": "('k', ['x'])"}}}, pyeval.Options{})
}

// TestLibraryConstants checks that arithmetic on a library's constant, whose value is not
// modelled, is Unknown rather than a TypeError that an except clause would catch.
func TestLibraryConstants(t *testing.T) {
	runHostCases(t, []hostCase{{"constants", `
import triton.language as tl
try:
    HALF = tl.TRITON_MAX_TENSOR_NUMEL // 2
except TypeError:
    HALF = 0
BIG = 1 < tl.TRITON_MAX_TENSOR_NUMEL
`, map[string]string{"HALF": "<unknown: tl.TRITON_MAX_TENSOR_NUMEL // 2: the value of triton.language.TRITON_MAX_TENSOR_NUMEL is not modelled (line 4)>",
		"BIG": "<unknown: 1 < tl.TRITON_MAX_TENSOR_NUMEL: the value of triton.language.TRITON_MAX_TENSOR_NUMEL is not modelled (line 7)>"}}}, pyeval.Options{})
}

// TestGetAttr checks Module.GetAttr, which evaluates attributes of host values for
// callers outside the evaluator (a kernel reading a class constant or an enum's value).
func TestGetAttr(t *testing.T) {
	src := `import enum
class Cfg:
    BLOCK = 64
class Act(enum.Enum):
    RELU = "relu"
`
	mod, err := frontend.ParseFile("m.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m := pyeval.Exec("m", "m.py", []byte(src), mod, pyeval.Options{})
	cfg, _ := m.Lookup("Cfg")
	if v, err := m.GetAttr(cfg, "BLOCK"); err != nil || pyeval.Repr(v) != "64" {
		t.Errorf("Cfg.BLOCK = %v, %v", v, err)
	}
	act, _ := m.Lookup("Act")
	relu, err := m.GetAttr(act, "RELU")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := m.GetAttr(relu, "value"); err != nil || pyeval.Repr(v) != "'relu'" {
		t.Errorf("Act.RELU.value = %v, %v", v, err)
	}
	if _, err := m.GetAttr(cfg, "NOPE"); err == nil || err.Error() != "type object 'Cfg' has no attribute 'NOPE'" {
		t.Errorf("Cfg.NOPE: error %v", err)
	}
}
