"""Microscaled matrix products with tl.dot_scaled, shaped like Triton's test_scaled_dot.

Operands come in one of the formats e2m1 (two values to a uint8, the low nibble first,
packed along K), e4m3, e5m2 (uint8 bits), bf16 and fp16. A scale, when given, is one
uint8 e8m0 exponent per 32 elements of K: 2^(s - 127), and NaN for s = 0xFF unless
fast_math. The lhs scale is M x K/32 and the rhs scale N x K/32, both row-major.
"""
import triton
import triton.language as tl


@triton.jit
def dot_scaled_kernel(a_base, stride_a0, stride_a1, a_scale, b_base, stride_b0, stride_b1, b_scale, out,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, type_a: tl.constexpr,
                      type_b: tl.constexpr, FAST_MATH: tl.constexpr):
    # One BLOCK_M x BLOCK_N product over BLOCK_K, the operands strided (row- or column-major).
    PACKED_K_A: tl.constexpr = BLOCK_K // 2 if type_a == "e2m1" else BLOCK_K
    PACKED_K_B: tl.constexpr = BLOCK_K // 2 if type_b == "e2m1" else BLOCK_K
    a = tl.load(a_base + tl.arange(0, BLOCK_M)[:, None] * stride_a0 + tl.arange(0, PACKED_K_A)[None, :] * stride_a1)
    b = tl.load(b_base + tl.arange(0, PACKED_K_B)[:, None] * stride_b0 + tl.arange(0, BLOCK_N)[None, :] * stride_b1)
    SCALE_K: tl.constexpr = BLOCK_K // 32
    if a_scale is not None:
        a_scale = tl.load(a_scale + tl.arange(0, BLOCK_M)[:, None] * SCALE_K + tl.arange(0, SCALE_K)[None, :])
    if b_scale is not None:
        b_scale = tl.load(b_scale + tl.arange(0, BLOCK_N)[:, None] * SCALE_K + tl.arange(0, SCALE_K)[None, :])
    c = tl.dot_scaled(a, a_scale, type_a, b, b_scale, type_b, fast_math=FAST_MATH)
    tl.store(out + tl.arange(0, BLOCK_M)[:, None] * BLOCK_N + tl.arange(0, BLOCK_N)[None, :], c)


@triton.jit
def dot_scaled_k_loop_kernel(a_ptr, a_scale, b_ptr, out, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                             BLOCK_K: tl.constexpr, type_a: tl.constexpr, type_b: tl.constexpr):
    # C = A @ B over K in BLOCK_K steps, accumulated through acc=: A row-major M x K (e2m1:
    # M x K/2 bytes) with an M x K/32 scale, B row-major K x N without one.
    PACKED_K_A: tl.constexpr = BLOCK_K // 2 if type_a == "e2m1" else BLOCK_K
    PACKED_K_B: tl.constexpr = BLOCK_K // 2 if type_b == "e2m1" else BLOCK_K
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K // BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * (K // (BLOCK_K // PACKED_K_A)) + k * PACKED_K_A +
                    tl.arange(0, PACKED_K_A)[None, :])
        b = tl.load(b_ptr + (k * PACKED_K_B + tl.arange(0, PACKED_K_B)[:, None]) * BLOCK_N + rn[None, :])
        s = tl.load(a_scale + rm[:, None] * (K // 32) + k * (BLOCK_K // 32) + tl.arange(0, BLOCK_K // 32)[None, :])
        acc = tl.dot_scaled(a, s, type_a, b, None, type_b, acc=acc)
    tl.store(out + rm[:, None] * BLOCK_N + rn[None, :], acc)


@triton.jit
def dot_scaled_batched_kernel(a_ptr, b_ptr, out, BATCH: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                              BLOCK_K: tl.constexpr, type_a: tl.constexpr, type_b: tl.constexpr):
    # BATCH products at once (3-D operands, contiguous), without scales: Triton 3.6 takes
    # scales of 2-D operands only.
    PACKED_K_A: tl.constexpr = BLOCK_K // 2 if type_a == "e2m1" else BLOCK_K
    PACKED_K_B: tl.constexpr = BLOCK_K // 2 if type_b == "e2m1" else BLOCK_K
    rb = tl.arange(0, BATCH)[:, None, None]
    a = tl.load(a_ptr + rb * (BLOCK_M * PACKED_K_A) + tl.arange(0, BLOCK_M)[None, :, None] * PACKED_K_A +
                tl.arange(0, PACKED_K_A)[None, None, :])
    b = tl.load(b_ptr + rb * (PACKED_K_B * BLOCK_N) + tl.arange(0, PACKED_K_B)[None, :, None] * BLOCK_N +
                tl.arange(0, BLOCK_N)[None, None, :])
    c = tl.dot_scaled(a, None, type_a, b, None, type_b)
    tl.store(out + rb * (BLOCK_M * BLOCK_N) + tl.arange(0, BLOCK_M)[None, :, None] * BLOCK_N +
             tl.arange(0, BLOCK_N)[None, None, :], c)


@triton.jit
def e8m0_to_bf16_kernel(s_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # out = 2^(s - 127) as test_scaled_dot's reference kernel upcasts e8m0 scales: the
    # uint8 moved into a bf16 exponent field (uint16 << 7 stays uint16), then bitcast.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    s = tl.load(s_ptr + offs, mask=mask)
    x = (s.to(tl.uint16) << 7).to(tl.bfloat16, bitcast=True)
    tl.store(out_ptr + offs, x.to(tl.float32), mask=mask)
