import triton
import triton.language as tl

from ..lang import HIGH

FACTOR = 3.0
BLOCK: tl.constexpr = 128


@triton.jit
def _scale(x, s):
    return x * s


@triton.jit
def helper(x):
    # FACTOR and _scale resolve in this module, which the kernel file never imports.
    return _scale(x, FACTOR)


@triton.jit
def calc(x):
    return x + HIGH
