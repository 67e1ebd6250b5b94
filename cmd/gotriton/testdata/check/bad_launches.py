import torch
import triton
import triton.language as tl
from missing_pkg import helper_const


@triton.jit
def add_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@triton.jit
def uses_import(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK) * helper_const
    tl.store(x_ptr + offs, 1.0)


x = torch.rand(1000, device="cuda")
y = torch.empty_like(x)
add_kernel[(1,)](x, y, x.numel(), 256, 7)
add_kernel[(1,)](x, y)
add_kernel[(1,)](x, y, 1000, 256, BLOCK=256)
add_kernel[(1,)](x, y, 1000, BLOCK=128, BLOK=3)
add_kernel[(1,)](x, y, 1000, BLOCK=64)
add_kernel[(1,)](x, y, 1000, BLOCK=64, maxnreg="many")
uses_import[(1,)](x, BLOCK=64, enable_fp_fusion=False, maxnreg=64)
