"""Tiled GEMM C = act(A @ B) with grouped ("super-row") program ordering.

gotriton conformance corpus. Programs are renumbered so that GROUP_SIZE_M consecutive
tile rows are visited column by column, which keeps a band of A and a stripe of B hot
in L2. Products accumulate in fp32; the activation is picked by a constexpr string.
"""
import torch

import triton
import triton.language as tl


def _tile_options():
    """Autotuning space: a few hand-picked shapes plus a small sweep."""
    picked = [
        # (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, stages, warps)
        (128, 256, 64, 8, 3, 8),
        (128, 128, 64, 8, 4, 4),
        (64, 256, 32, 8, 4, 4),
        (128, 64, 32, 8, 4, 4),
        (64, 128, 32, 8, 4, 4),
        (32, 64, 32, 8, 5, 2),
    ]
    sweep = [(bm, bn, 64, 8, 3, 8) for bm in (64, 128) for bn in (128, 256) if bm * bn >= 128 * 128]
    return [
        triton.Config({"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk, "GROUP_SIZE_M": gm}, num_stages=st,
                      num_warps=wp) for (bm, bn, bk, gm, st, wp) in picked + sweep
    ]


@triton.jit
def leaky_relu(v):
    # Slope 0.01 on the negative side, identity elsewhere.
    return tl.where(v >= 0, v, 0.01 * v)


@triton.autotune(configs=_tile_options(), key=["M", "N", "K"])
@triton.jit
def grouped_matmul_kernel(a_ptr, b_ptr, c_ptr,  #
                          M, N, K,  #
                          stride_am, stride_ak,  #
                          stride_bk, stride_bn,  #
                          stride_cm, stride_cn,  #
                          BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,  #
                          GROUP_SIZE_M: tl.constexpr,  #
                          ACTIVATION: tl.constexpr):
    """One program computes one BLOCK_SIZE_M x BLOCK_SIZE_N tile of C."""
    pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_SIZE_M)
    tiles_n = tl.cdiv(N, BLOCK_SIZE_N)
    # Grouped ordering: a group is GROUP_SIZE_M tile rows wide; inside a group the
    # row index changes fastest.
    per_group = GROUP_SIZE_M * tiles_n
    group = pid // per_group
    row0 = group * GROUP_SIZE_M
    rows_here = min(tiles_m - row0, GROUP_SIZE_M)
    tile_m = row0 + ((pid % per_group) % rows_here)
    tile_n = (pid % per_group) // rows_here

    # Facts the compiler cannot see on its own; they let it drop overflow checks.
    tl.assume(tile_m >= 0)
    tl.assume(tile_n >= 0)
    tl.assume(stride_am > 0)
    tl.assume(stride_ak > 0)
    tl.assume(stride_bk > 0)
    tl.assume(stride_bn > 0)
    tl.assume(stride_cm > 0)
    tl.assume(stride_cn > 0)

    # Row/column indices wrap modulo M/N so that loads never need a mask on M/N;
    # the wrapped rows are discarded by the store mask.
    rows = (tile_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    cols = (tile_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    rows = tl.max_contiguous(tl.multiple_of(rows, BLOCK_SIZE_M), BLOCK_SIZE_M)
    cols = tl.max_contiguous(tl.multiple_of(cols, BLOCK_SIZE_N), BLOCK_SIZE_N)
    ks = tl.arange(0, BLOCK_SIZE_K)
    a_tile = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
    b_tile = b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for kb in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        k_left = K - kb * BLOCK_SIZE_K
        a = tl.load(a_tile, mask=ks[None, :] < k_left, other=0.0)
        b = tl.load(b_tile, mask=ks[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_tile += BLOCK_SIZE_K * stride_ak
        b_tile += BLOCK_SIZE_K * stride_bk

    # The activation runs on the fp32 accumulator, before narrowing.
    if ACTIVATION == "leaky_relu":
        acc = leaky_relu(acc)
    out = acc.to(tl.float16)

    out_rows = tile_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    out_cols = tile_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_tile = c_ptr + stride_cm * out_rows[:, None] + stride_cn * out_cols[None, :]
    keep = (out_rows[:, None] < M) & (out_cols[None, :] < N)
    tl.store(c_tile, out, mask=keep)


def matmul(a: torch.Tensor, b: torch.Tensor, activation=None) -> torch.Tensor:
    assert a.shape[1] == b.shape[0], "inner dimensions differ"
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_SIZE_M"]) * triton.cdiv(N, meta["BLOCK_SIZE_N"]), )
    grouped_matmul_kernel[grid](
        a, b, c,  #
        M, N, K,  #
        a.stride(0), a.stride(1),  #
        b.stride(0), b.stride(1),  #
        c.stride(0), c.stride(1),  #
        ACTIVATION=activation,
    )
    return c


if __name__ == "__main__":
    torch.manual_seed(0)
    for size in (512, 1000):
        a = torch.randn((size, size), device="cuda", dtype=torch.float16)
        b = torch.randn((size, size), device="cuda", dtype=torch.float16)
        ref = torch.matmul(a, b)
        torch.testing.assert_close(matmul(a, b), ref, atol=1e-2, rtol=1e-2)
        torch.testing.assert_close(matmul(a, b, "leaky_relu"), torch.nn.functional.leaky_relu(ref), atol=1e-2,
                                   rtol=1e-2)
    if torch.cuda.get_device_capability()[0] >= 9:
        # fp8 (e5m2) operands; B is handed over K-major, as the fp8 MMA prefers.
        a8 = torch.randn((512, 512), device="cuda", dtype=torch.float16).to(torch.float8_e5m2)
        b8 = torch.randn((512, 512), device="cuda", dtype=torch.float16).T.to(torch.float8_e5m2)
        torch.testing.assert_close(matmul(a8, b8), torch.matmul(a8.to(torch.float16), b8.to(torch.float16)),
                                   atol=1.0, rtol=0.1)
    print("matmul: ok")
