"""Element-wise math through libdevice and through triton.language's own math ops.

gotriton conformance corpus. libdevice functions are resolved by argument type
(e.g. libdevice.asin on fp32 calls __nv_asinf, on fp64 __nv_asin); the tl.* math ops
lower to MLIR math/LLVM intrinsics instead.
"""
import torch

import triton
import triton.language as tl
from triton.language.extra import libdevice

SQRT_2_OVER_PI = tl.constexpr(0.7978845608028654)


@triton.jit
def asin_kernel(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok)
    tl.store(y_ptr + offs, libdevice.asin(x), mask=ok)


@triton.jit
def unary_math_kernel(x_ptr, y_ptr, n, OP: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    """One kernel, one op per specialisation; OP picks libdevice or tl.* at compile time."""
    offs = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=1.0)
    if OP == "exp":
        y = libdevice.exp(x)
    elif OP == "tanh":
        y = libdevice.tanh(x)
    elif OP == "erf":
        y = libdevice.erf(x)
    elif OP == "expm1":
        y = libdevice.expm1(x)
    elif OP == "tan":
        y = libdevice.tan(x)
    elif OP == "rsqrt":
        y = libdevice.rsqrt(tl.abs(x) + 1e-6)
    elif OP == "tl_exp":
        y = tl.exp(x)
    elif OP == "tl_sqrt":
        y = tl.sqrt(tl.abs(x))
    else:
        tl.static_assert(OP == "tl_log", "unknown OP")
        y = tl.log(tl.abs(x) + 1e-6)
    tl.store(y_ptr + offs, y, mask=ok)


@triton.jit
def gelu_tanh_kernel(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    # gelu(x) ~= x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))
    offs = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0).to(tl.float32)
    inner = SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)
    y = 0.5 * x * (1.0 + libdevice.tanh(inner))
    tl.store(y_ptr + offs, y, mask=ok)


@triton.jit
def softplus_kernel(x_ptr, y_ptr, n, threshold, BLOCK_SIZE: tl.constexpr):
    # softplus(x) = log(1 + exp(x)), linear above `threshold` to avoid overflow.
    offs = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    soft = libdevice.log1p(tl.exp(x))
    tl.store(y_ptr + offs, tl.where(x > threshold, x, soft), mask=ok)


def _launch_elementwise(kernel, x, *extra, block=1024, **constexprs):
    y = torch.empty_like(x)
    n = x.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]), )
    kernel[grid](x, y, n, *extra, BLOCK_SIZE=block, **constexprs)
    return y


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.rand(98432, device="cuda") * 2 - 1
    torch.testing.assert_close(_launch_elementwise(asin_kernel, x), torch.asin(x))
    x64 = x.double()
    torch.testing.assert_close(_launch_elementwise(asin_kernel, x64), torch.asin(x64))
    refs = {
        "exp": torch.exp(x), "tanh": torch.tanh(x), "erf": torch.erf(x), "expm1": torch.expm1(x),
        "tan": torch.tan(x), "rsqrt": torch.rsqrt(x.abs() + 1e-6),
        "tl_exp": torch.exp(x), "tl_sqrt": torch.sqrt(x.abs()), "tl_log": torch.log(x.abs() + 1e-6)
    }
    for op, ref in refs.items():
        torch.testing.assert_close(_launch_elementwise(unary_math_kernel, x, OP=op), ref, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(_launch_elementwise(gelu_tanh_kernel, x),
                               torch.nn.functional.gelu(x, approximate="tanh"))
    torch.testing.assert_close(_launch_elementwise(softplus_kernel, x * 30, 20.0),
                               torch.nn.functional.softplus(x * 30))
    print("libdevice_math: ok")
