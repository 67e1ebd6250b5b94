import triton
import triton.language as tl
from .consts import BLOCK
import pkgc


@triton.jit
def k(x_ptr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)

try:
    from pkgc import missing_name
except ImportError as e:
    WHY = str(e)
