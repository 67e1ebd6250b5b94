"""One kernel launched twice with different compile options: zero-config compile makes
two specializations, one without fused multiply-adds and with a register cap."""
import torch
import triton
import triton.language as tl


@triton.jit
def axpb(x_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 1.5 + 0.5)


REGS = 64
x = torch.randn(128, device="cuda")
fuse = x.numel() > 64
axpb[(1,)](x, N=128, enable_fp_fusion=False, maxnreg=REGS)
axpb[(1,)](x, N=128, enable_fp_fusion=fuse)
