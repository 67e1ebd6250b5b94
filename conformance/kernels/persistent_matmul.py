"""Four ways to run C = A @ B: one program per tile, persistent programs, and persistent
programs that move tiles with TMA tensor descriptors (built on the host or on the device).

gotriton conformance corpus.
* matmul_tiled_kernel: one program per output tile, grouped ordering, pointer loads.
* matmul_persistent_kernel: NUM_SMS programs loop over tiles with a flattened tl.range.
* matmul_tma_persistent_kernel: host-built descriptors; B is [N, K] (K-major).
* matmul_descriptor_persistent_kernel: descriptors made in the kernel with
  tl.make_tensor_descriptor; B is [N, K].
The descriptor kernels can split the epilogue into two half-width stores
(EPILOGUE_SUBTILE) to halve the shared memory the output tile needs. fp8 (e4m3)
operands produce an fp8 result; fp16 operands an fp16 result.
"""
import torch

import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


def _pointer_configs():
    return [
        triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk, "GROUP_SIZE_M": 8}, num_stages=s,
                      num_warps=w)
        for bn in (128, 256)
        for bk in (64, 128)
        for s in (3, 4)
        for w in (4, 8)
    ]


def _drop_oversized(configs, named_args, **kwargs):
    # fp16 tiles with BLOCK_K=128 and 4 stages do not fit in shared memory.
    elem = named_args["a_ptr"].element_size()
    budget = 220 * 1024
    return [
        c for c in configs if c.num_stages * (c.kwargs["BLOCK_SIZE_M"] + c.kwargs["BLOCK_SIZE_N"]) *
        c.kwargs["BLOCK_SIZE_K"] * elem <= budget
    ]


@triton.jit
def _tile_coords(tile_id, per_group, tiles_m, GROUP_SIZE_M: tl.constexpr):
    # Grouped ("super-row") order: GROUP_SIZE_M tile rows are finished column by column.
    group = tile_id // per_group
    local = tile_id % per_group
    first_m = group * GROUP_SIZE_M
    rows_here = min(tiles_m - first_m, GROUP_SIZE_M)
    return first_m + local % rows_here, local // rows_here


@triton.autotune(configs=_pointer_configs(), key=["M", "N", "K"], prune_configs_by={"early_config_prune": _drop_oversized})
@triton.jit
def matmul_tiled_kernel(a_ptr, b_ptr, c_ptr,  #
                        M, N, K,  #
                        stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,  #
                        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,  #
                        GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_SIZE_M)
    tiles_n = tl.cdiv(N, BLOCK_SIZE_N)
    tm, tn = _tile_coords(pid, GROUP_SIZE_M * tiles_n, tiles_m, GROUP_SIZE_M)

    rows = tm * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    cols = tn * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    # Clamp out-of-range rows/cols to 0 instead of masking the loads.
    rows = tl.max_contiguous(tl.multiple_of(tl.where(rows < M, rows, 0), BLOCK_SIZE_M), BLOCK_SIZE_M)
    cols = tl.max_contiguous(tl.multiple_of(tl.where(cols < N, cols, 0), BLOCK_SIZE_N), BLOCK_SIZE_N)
    ks = tl.arange(0, BLOCK_SIZE_K)

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for kk in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        k_idx = kk * BLOCK_SIZE_K + ks
        a = tl.load(a_ptr + rows[:, None] * stride_am + k_idx[None, :] * stride_ak, mask=k_idx[None, :] < K,
                    other=0.0)
        b = tl.load(b_ptr + k_idx[:, None] * stride_bk + cols[None, :] * stride_bn, mask=k_idx[:, None] < K,
                    other=0.0)
        acc = tl.dot(a, b, acc)

    if c_ptr.dtype.element_ty == tl.float8e4nv:
        out = acc.to(tl.float8e4nv)
    else:
        out = acc.to(tl.float16)
    out_rows = tm * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    out_cols = tn * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    tl.store(c_ptr + out_rows[:, None] * stride_cm + out_cols[None, :] * stride_cn, out,
             mask=(out_rows[:, None] < M) & (out_cols[None, :] < N))


@triton.autotune(configs=_pointer_configs(), key=["M", "N", "K"], prune_configs_by={"early_config_prune": _drop_oversized})
@triton.jit
def matmul_persistent_kernel(a_ptr, b_ptr, c_ptr,  #
                             M, N, K,  #
                             stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,  #
                             BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,  #
                             GROUP_SIZE_M: tl.constexpr, NUM_SMS: tl.constexpr):
    first_tile = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_SIZE_M)
    tiles_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_steps = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = tiles_m * tiles_n
    per_group = GROUP_SIZE_M * tiles_n
    ks = tl.arange(0, BLOCK_SIZE_K)
    out_ty = c_ptr.dtype.element_ty

    # flatten=True merges this loop with the K loop below into one software pipeline.
    for tile_id in tl.range(first_tile, num_tiles, NUM_SMS, flatten=True):
        tm, tn = _tile_coords(tile_id, per_group, tiles_m, GROUP_SIZE_M)
        rows = tm * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
        cols = tn * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        safe_rows = tl.max_contiguous(tl.multiple_of(tl.where(rows < M, rows, 0), BLOCK_SIZE_M), BLOCK_SIZE_M)
        safe_cols = tl.max_contiguous(tl.multiple_of(tl.where(cols < N, cols, 0), BLOCK_SIZE_N), BLOCK_SIZE_N)

        acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for kk in range(k_steps):
            k_idx = kk * BLOCK_SIZE_K + ks
            a = tl.load(a_ptr + safe_rows[:, None] * stride_am + k_idx[None, :] * stride_ak,
                        mask=k_idx[None, :] < K, other=0.0)
            b = tl.load(b_ptr + k_idx[:, None] * stride_bk + safe_cols[None, :] * stride_bn,
                        mask=k_idx[:, None] < K, other=0.0)
            acc = tl.dot(a, b, acc)

        if out_ty == tl.float8e4nv:
            out = acc.to(tl.float8e4nv)
        else:
            out = acc.to(tl.float16)
        tl.store(c_ptr + rows[:, None] * stride_cm + cols[None, :] * stride_cn, out,
                 mask=(rows[:, None] < M) & (cols[None, :] < N))


@triton.jit
def _store_tile(c_desc, acc, row0, col0, BLOCK_N: tl.constexpr, SUBTILE: tl.constexpr, OUT_TY: tl.constexpr):
    if SUBTILE:
        # [BM, BN] -> [BM, 2, BN/2] -> [BM, BN/2, 2] -> two [BM, BN/2] halves.
        BM: tl.constexpr = acc.shape[0]
        halves = tl.permute(tl.reshape(acc, (BM, 2, BLOCK_N // 2)), (0, 2, 1))
        left, right = tl.split(halves)
        c_desc.store([row0, col0], left.to(OUT_TY))
        c_desc.store([row0, col0 + BLOCK_N // 2], right.to(OUT_TY))
    else:
        c_desc.store([row0, col0], acc.to(OUT_TY))


@triton.jit
def matmul_tma_persistent_kernel(a_desc, b_desc, c_desc,  #
                                 M, N, K,  #
                                 BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                                 BLOCK_SIZE_K: tl.constexpr,  #
                                 GROUP_SIZE_M: tl.constexpr,  #
                                 FP8_OUTPUT: tl.constexpr,  #
                                 EPILOGUE_SUBTILE: tl.constexpr,  #
                                 NUM_SMS: tl.constexpr,  #
                                 WARP_SPECIALIZE: tl.constexpr):
    out_ty = tl.float8e4nv if FP8_OUTPUT else tl.float16
    first_tile = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_SIZE_M)
    tiles_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_steps = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = tiles_m * tiles_n
    per_group = GROUP_SIZE_M * tiles_n
    for tile_id in tl.range(first_tile, num_tiles, NUM_SMS, flatten=True, warp_specialize=WARP_SPECIALIZE):
        tm, tn = _tile_coords(tile_id, per_group, tiles_m, GROUP_SIZE_M)
        row0 = tm * BLOCK_SIZE_M
        col0 = tn * BLOCK_SIZE_N
        acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for kk in range(k_steps):
            a = a_desc.load([row0, kk * BLOCK_SIZE_K])
            b = b_desc.load([col0, kk * BLOCK_SIZE_K])
            acc = tl.dot(a, b.T, acc)
        _store_tile(c_desc, acc, row0, col0, BLOCK_SIZE_N, EPILOGUE_SUBTILE, out_ty)


@triton.jit
def matmul_descriptor_persistent_kernel(a_ptr, b_ptr, c_ptr,  #
                                        M, N, K,  #
                                        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                                        BLOCK_SIZE_K: tl.constexpr,  #
                                        GROUP_SIZE_M: tl.constexpr,  #
                                        EPILOGUE_SUBTILE: tl.constexpr,  #
                                        NUM_SMS: tl.constexpr,  #
                                        WARP_SPECIALIZE: tl.constexpr,  #
                                        FLATTEN: tl.constexpr):
    out_ty = c_ptr.dtype.element_ty
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K])
    c_desc = tl.make_tensor_descriptor(
        c_ptr, shape=[M, N], strides=[N, 1],
        block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N // 2 if EPILOGUE_SUBTILE else BLOCK_SIZE_N])

    first_tile = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_SIZE_M)
    tiles_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_steps = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = tiles_m * tiles_n
    per_group = GROUP_SIZE_M * tiles_n
    for tile_id in tl.range(first_tile, num_tiles, NUM_SMS, flatten=FLATTEN, warp_specialize=WARP_SPECIALIZE):
        tm, tn = _tile_coords(tile_id, per_group, tiles_m, GROUP_SIZE_M)
        row0 = tm * BLOCK_SIZE_M
        col0 = tn * BLOCK_SIZE_N
        acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for kk in range(k_steps):
            a = a_desc.load([row0, kk * BLOCK_SIZE_K])
            b = b_desc.load([col0, kk * BLOCK_SIZE_K])
            acc = tl.dot(a, b.T, acc)
        _store_tile(c_desc, acc, row0, col0, BLOCK_SIZE_N, EPILOGUE_SUBTILE, out_ty)


# ---------------------------------------------------------------------------------------
# Host side
# ---------------------------------------------------------------------------------------

# Fixed tile shapes for the descriptor kernels (fp16 / fp8 inputs), chosen for sm_90.
DESC_TILES = {
    torch.float16: dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, GROUP_SIZE_M=8),
    torch.float8_e4m3fn: dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=128, GROUP_SIZE_M=8),
}


def _sm_count(device):
    return torch.cuda.get_device_properties(device).multi_processor_count


def matmul_tiled(a, b):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_SIZE_M"]) * triton.cdiv(N, meta["BLOCK_SIZE_N"]), )
    matmul_tiled_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                              c.stride(1))
    return c


def matmul_persistent(a, b):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    sms = _sm_count(a.device)
    grid = lambda meta: (min(sms, triton.cdiv(M, meta["BLOCK_SIZE_M"]) * triton.cdiv(N, meta["BLOCK_SIZE_N"])), )
    matmul_persistent_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                                   c.stride(1), NUM_SMS=sms)
    return c


def matmul_tma_persistent(a, bt, subtile=True, warp_specialize=False):
    """bt is B transposed, [N, K], contiguous."""
    M, K = a.shape
    N = bt.shape[0]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    tiles = DESC_TILES[a.dtype]
    bm, bn, bk = tiles["BLOCK_SIZE_M"], tiles["BLOCK_SIZE_N"], tiles["BLOCK_SIZE_K"]
    a_desc = TensorDescriptor.from_tensor(a, [bm, bk])
    b_desc = TensorDescriptor.from_tensor(bt, [bn, bk])
    c_desc = TensorDescriptor.from_tensor(c, [bm, bn // 2 if subtile else bn])
    sms = _sm_count(a.device)
    grid = (min(sms, triton.cdiv(M, bm) * triton.cdiv(N, bn)), )
    matmul_tma_persistent_kernel[grid](a_desc, b_desc, c_desc, M, N, K, FP8_OUTPUT=a.dtype == torch.float8_e4m3fn,
                                       EPILOGUE_SUBTILE=subtile, NUM_SMS=sms, WARP_SPECIALIZE=warp_specialize,
                                       num_warps=8, num_stages=3, **tiles)
    return c


def matmul_descriptor_persistent(a, bt, subtile=True, warp_specialize=False):
    """bt is B transposed, [N, K], contiguous. Descriptors are created by the kernel."""
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))
    M, K = a.shape
    N = bt.shape[0]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    tiles = DESC_TILES[a.dtype]
    sms = _sm_count(a.device)
    grid = lambda meta: (min(sms, triton.cdiv(M, meta["BLOCK_SIZE_M"]) * triton.cdiv(N, meta["BLOCK_SIZE_N"])), )
    # On sm_90 a warp-specialised tile loop is not flattened with the K loop.
    flatten = not warp_specialize
    matmul_descriptor_persistent_kernel[grid](a, bt, c, M, N, K, EPILOGUE_SUBTILE=subtile, NUM_SMS=sms,
                                              WARP_SPECIALIZE=warp_specialize, FLATTEN=flatten, num_warps=8,
                                              num_stages=3, **tiles)
    return c


if __name__ == "__main__":
    torch.manual_seed(0)
    M = N = K = 4096
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    bt = torch.randn((N, K), device="cuda", dtype=torch.float16)
    ref = a @ bt.T
    torch.testing.assert_close(matmul_tiled(a, bt.T.contiguous()), ref, atol=1e-1, rtol=1e-2)
    torch.testing.assert_close(matmul_persistent(a, bt.T.contiguous()), ref, atol=1e-1, rtol=1e-2)
    torch.testing.assert_close(matmul_tma_persistent(a, bt), ref, atol=1e-1, rtol=1e-2)
    torch.testing.assert_close(matmul_descriptor_persistent(a, bt), ref, atol=1e-1, rtol=1e-2)
    torch.testing.assert_close(matmul_descriptor_persistent(a, bt, warp_specialize=True), ref, atol=1e-1, rtol=1e-2)
    a8, bt8 = a.to(torch.float8_e4m3fn), bt.to(torch.float8_e4m3fn)
    ref8 = (a8.half() @ bt8.half().T).float()
    for got in (matmul_tiled(a8, bt8.T), matmul_persistent(a8, bt8.T), matmul_tma_persistent(a8, bt8, subtile=False),
                matmul_descriptor_persistent(a8, bt8)):
        torch.testing.assert_close(got.float(), ref8.to(torch.float8_e4m3fn).float(), atol=32.0, rtol=0.125)
    print("persistent_matmul: ok")
