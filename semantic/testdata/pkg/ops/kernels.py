import torch
import triton
import triton.language as tl
import transformers  # host only: not on the search path, and no kernel uses it
from missing_lib import fast_exp  # not on the search path: only bad_kernel uses it

from .utils import BLOCK, helper
from pkg.ops.utils import calc
import pkg.lang as tle
from extlib.mathx import twice  # found only through the search path (--path)

DEVICE = transformers.AutoModel.from_pretrained("x") if torch.cuda.is_available() else None


@triton.jit
def good_kernel(x_ptr, y_ptr, n):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tle.clamp01(calc(helper(x))), mask=mask)


@triton.jit
def path_kernel(x_ptr):
    tl.store(x_ptr, twice(tl.load(x_ptr)))


@triton.jit
def bad_kernel(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, fast_exp(x))


import pkg.ops
from . import utils as u


@triton.jit
def attr_kernel(x_ptr):
    # A package's submodule as an attribute, and a module bound by `from . import`.
    tl.store(x_ptr, pkg.ops.utils.helper(u.calc(tl.load(x_ptr))))
