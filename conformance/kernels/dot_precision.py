"""fp32 matrix products with tl.dot's input precisions, as Triton's test_dot exercises them.

"ieee" is a full fp32 product, "tf32" rounds the operands to tf32 for the tensor cores, and
"tf32x3", "bf16x3" and "bf16x6" emulate fp32 on the tensor cores: Triton splits each
operand into tf32 or bf16 parts and sums three or six products of parts.
"""
import triton
import triton.language as tl


@triton.jit
def dot_precision_kernel(a_ptr, stride_am, stride_ak, b_ptr, stride_bk, stride_bn, c_ptr, out_ptr,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                         PRECISION: tl.constexpr):
    # out = A @ B (+ C when c_ptr is not None), one BLOCK_M x BLOCK_N tile over BLOCK_K;
    # A and B strided (row- or column-major), C and out row-major.
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak)
    b = tl.load(b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn)
    tile = rm[:, None] * BLOCK_N + rn[None, :]
    if c_ptr is not None:
        out = tl.dot(a, b, tl.load(c_ptr + tile), input_precision=PRECISION)
    else:
        out = tl.dot(a, b, input_precision=PRECISION)
    tl.store(out_ptr + tile, out)


@triton.jit
def dot_precision_k_loop_kernel(a_ptr, b_ptr, out_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                BLOCK_K: tl.constexpr, PRECISION: tl.constexpr):
    # out = A @ B for row-major A (M x K), B (K x N) and out, one BLOCK_M x BLOCK_N tile per
    # program, the product accumulated through acc= over K in BLOCK_K steps (M, N and K
    # multiples of the blocks).
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], acc)
