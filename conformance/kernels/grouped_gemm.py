"""Grouped GEMM: many independent C_g = A_g @ B_g problems in one persistent launch.

gotriton conformance corpus. The problems are described by device arrays: the
addresses of A_g, B_g and C_g as int64, their (M, N, K) and their leading dimensions.
NUM_SM programs are launched; program p takes tiles p, p + NUM_SM, ... of the
concatenated tile list, walking the groups in order with a data-dependent `while`.

grouped_gemm_kernel reads operands through pointers; grouped_gemm_tma_kernel builds
tensor descriptors on the device for each problem and takes B as [N, K] (K-major),
which also allows fp8 (e4m3) operands.
"""
import torch

import triton
import triton.language as tl

# Tiles handed out per SM: one or two programs per SM of an H100/H200 (132 SMs) and a smaller part.
POINTER_CONFIGS = [
    triton.Config({"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk, "NUM_SM": sms})
    for (bm, bn, bk) in ((128, 128, 32), (64, 64, 64))
    for sms in (84, 132, 264)
]


def _tma_configs():
    return [
        triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk}, num_stages=stages,
                      num_warps=warps)
        for bn in (128, 256)
        for bk in (64, 128)
        for stages in (3, 4)
        for warps in (4, 8)
    ]


@triton.autotune(configs=POINTER_CONFIGS, key=["group_count"])
@triton.jit
def grouped_gemm_kernel(a_addrs, b_addrs, c_addrs,  #
                        sizes,  # int32 [group_count, 3]: M, N, K
                        leading_dims,  # int32 [group_count, 3]: lda, ldb, ldc
                        group_count,  #
                        NUM_SM: tl.constexpr,  #
                        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr):
    tile = tl.program_id(0)
    tiles_before = 0
    for g in range(group_count):
        m = tl.load(sizes + g * 3)
        n = tl.load(sizes + g * 3 + 1)
        k = tl.load(sizes + g * 3 + 2)
        tiles_n = tl.cdiv(n, BLOCK_SIZE_N)
        tiles_here = tl.cdiv(m, BLOCK_SIZE_M) * tiles_n
        # Keep taking tiles while the next one of ours falls inside this group.
        while (tile >= tiles_before) and (tile < tiles_before + tiles_here):
            lda = tl.load(leading_dims + g * 3)
            ldb = tl.load(leading_dims + g * 3 + 1)
            ldc = tl.load(leading_dims + g * 3 + 2)
            a = tl.load(a_addrs + g).to(tl.pointer_type(tl.float16))
            b = tl.load(b_addrs + g).to(tl.pointer_type(tl.float16))
            c = tl.load(c_addrs + g).to(tl.pointer_type(tl.float16))

            local = tile - tiles_before
            rows = (local // tiles_n) * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            cols = (local % tiles_n) * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            # Column offsets are whole tiles: tell the compiler so loads can vectorise.
            cols = tl.max_contiguous(tl.multiple_of(cols, BLOCK_SIZE_N), BLOCK_SIZE_N)
            ks = tl.arange(0, BLOCK_SIZE_K)
            a_tile = a + rows[:, None] * lda + ks[None, :]
            b_tile = b + ks[:, None] * ldb + cols[None, :]
            acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
            for kk in range(0, tl.cdiv(k, BLOCK_SIZE_K)):
                k_left = k - kk * BLOCK_SIZE_K
                a_blk = tl.load(a_tile, mask=(rows[:, None] < m) & (ks[None, :] < k_left), other=0.0)
                b_blk = tl.load(b_tile, mask=(ks[:, None] < k_left) & (cols[None, :] < n), other=0.0)
                acc += tl.dot(a_blk, b_blk)
                a_tile += BLOCK_SIZE_K
                b_tile += BLOCK_SIZE_K * ldb
            c_tile = c + rows[:, None] * ldc + cols[None, :]
            tl.store(c_tile, acc.to(tl.float16), mask=(rows[:, None] < m) & (cols[None, :] < n))
            tile += NUM_SM
        tiles_before += tiles_here


@triton.autotune(configs=_tma_configs(), key=["group_count", "FP8"])
@triton.jit
def grouped_gemm_tma_kernel(a_addrs, b_addrs, c_addrs,  #
                            sizes,  # int32 [group_count, 3]: M, N, K
                            leading_dims,  # int32 [group_count, 3]: lda, ldb (B is [N, K]), ldc
                            group_count,  #
                            NUM_SM: tl.constexpr,  #
                            BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,  #
                            FP8: tl.constexpr):
    in_ty = tl.float8e4nv if FP8 else tl.float16
    tile = tl.program_id(0)
    tiles_before = 0
    for g in range(group_count):
        m = tl.load(sizes + g * 3)
        n = tl.load(sizes + g * 3 + 1)
        k = tl.load(sizes + g * 3 + 2)
        tiles_n = tl.cdiv(n, BLOCK_SIZE_N)
        tiles_here = tl.cdiv(m, BLOCK_SIZE_M) * tiles_n
        if (tile >= tiles_before) and (tile < tiles_before + tiles_here):
            # Descriptors are built once per group, only by programs that have work in it.
            lda = tl.load(leading_dims + g * 3)
            ldb = tl.load(leading_dims + g * 3 + 1)
            ldc = tl.load(leading_dims + g * 3 + 2)
            a = tl.load(a_addrs + g).to(tl.pointer_type(in_ty))
            b = tl.load(b_addrs + g).to(tl.pointer_type(in_ty))
            c = tl.load(c_addrs + g).to(tl.pointer_type(tl.float16))
            a_desc = tl.make_tensor_descriptor(a, shape=[m, k], strides=[lda, 1],
                                               block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
            b_desc = tl.make_tensor_descriptor(b, shape=[n, k], strides=[ldb, 1],
                                               block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K])
            c_desc = tl.make_tensor_descriptor(c, shape=[m, n], strides=[ldc, 1],
                                               block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N])
            while (tile >= tiles_before) and (tile < tiles_before + tiles_here):
                local = tile - tiles_before
                row0 = (local // tiles_n) * BLOCK_SIZE_M
                col0 = (local % tiles_n) * BLOCK_SIZE_N
                acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
                for kk in range(tl.cdiv(k, BLOCK_SIZE_K)):
                    # Out-of-range rows/columns of a descriptor block read as zero.
                    a_blk = a_desc.load([row0, kk * BLOCK_SIZE_K])
                    b_blk = b_desc.load([col0, kk * BLOCK_SIZE_K])
                    acc += tl.dot(a_blk, b_blk.T)
                c_desc.store([row0, col0], acc.to(tl.float16))
                tile += NUM_SM
        tiles_before += tiles_here


def _num_sms(device) -> int:
    return torch.cuda.get_device_properties(device).multi_processor_count


def _describe(a_list, b_list, c_list, b_is_nk: bool):
    dev = a_list[0].device
    a_addrs = torch.tensor([t.data_ptr() for t in a_list], dtype=torch.int64, device=dev)
    b_addrs = torch.tensor([t.data_ptr() for t in b_list], dtype=torch.int64, device=dev)
    c_addrs = torch.tensor([t.data_ptr() for t in c_list], dtype=torch.int64, device=dev)
    mnk, lds = [], []
    for a, b, c in zip(a_list, b_list, c_list):
        n = b.shape[0] if b_is_nk else b.shape[1]
        mnk += [a.shape[0], n, a.shape[1]]
        lds += [a.stride(0), b.stride(0), c.stride(0)]
    sizes = torch.tensor(mnk, dtype=torch.int32, device=dev)
    leading = torch.tensor(lds, dtype=torch.int32, device=dev)
    return a_addrs, b_addrs, c_addrs, sizes, leading


def grouped_gemm(a_list, b_list):
    c_list = [torch.empty((a.shape[0], b.shape[1]), device=a.device, dtype=torch.float16)
              for a, b in zip(a_list, b_list)]
    args = _describe(a_list, b_list, c_list, b_is_nk=False)
    grid = lambda meta: (meta["NUM_SM"], )
    grouped_gemm_kernel[grid](*args, len(a_list))
    return c_list


def grouped_gemm_tma(a_list, bt_list):
    """bt_list holds B transposed: each entry is [N, K]."""
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))
    c_list = [torch.empty((a.shape[0], bt.shape[0]), device=a.device, dtype=torch.float16)
              for a, bt in zip(a_list, bt_list)]
    args = _describe(a_list, bt_list, c_list, b_is_nk=True)
    grid = lambda meta: (meta["NUM_SM"], )
    grouped_gemm_tma_kernel[grid](*args, len(a_list), NUM_SM=_num_sms(a_list[0].device),
                                  FP8=a_list[0].dtype == torch.float8_e4m3fn)
    return c_list


if __name__ == "__main__":
    torch.manual_seed(0)
    shapes = [(1024, 1024, 1024), (512, 512, 512), (256, 256, 256), (128, 128, 128)]
    As = [torch.rand((m, k), device="cuda", dtype=torch.float16) for (m, n, k) in shapes]
    Bs = [torch.rand((k, n), device="cuda", dtype=torch.float16) for (m, n, k) in shapes]
    for c, a, b in zip(grouped_gemm(As, Bs), As, Bs):
        torch.testing.assert_close(c, a @ b, atol=1e-2, rtol=1e-2)
    if torch.cuda.get_device_capability()[0] >= 9:
        Bts = [b.T.contiguous() for b in Bs]
        for c, a, b in zip(grouped_gemm_tma(As, Bts), As, Bs):
            torch.testing.assert_close(c, a @ b, atol=1e-2, rtol=1e-2)
        A8 = [a.to(torch.float8_e4m3fn) for a in As]
        B8 = [b.to(torch.float8_e4m3fn) for b in Bts]
        for c, a, b in zip(grouped_gemm_tma(A8, B8), A8, B8):
            torch.testing.assert_close(c, (a.half() @ b.half().T), atol=1.0, rtol=5e-2)
    print("grouped_gemm: ok")
