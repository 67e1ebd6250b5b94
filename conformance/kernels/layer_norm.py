"""Layer normalisation over the last dimension, forward and backward.

gotriton conformance corpus.
Forward: one program per row; the row is streamed in BLOCK_SIZE chunks three times
(mean, variance, normalise) so rows wider than one block work too.
Backward: one program per row computes dx, and folds its share of dw/db into one of
GROUP_SIZE_M partial-sum rows. Several programs share a partial row, so each partial
row is protected by a spin lock (atomic compare-and-swap); a second flag per row says
whether the row has been written yet. A last small kernel sums the partial rows.
"""
import torch

import triton
import triton.language as tl


@triton.jit
def layer_norm_fwd_kernel(X, Y, W, B, Mean, Rstd, row_stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * row_stride
    Y += row * row_stride

    # Pass 1: mean.
    partial = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, N, BLOCK_SIZE):
        offs = start + tl.arange(0, BLOCK_SIZE)
        partial += tl.load(X + offs, mask=offs < N, other=0.).to(tl.float32)
    mean = tl.sum(partial, axis=0) / N

    # Pass 2: biased variance.
    partial = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, N, BLOCK_SIZE):
        offs = start + tl.arange(0, BLOCK_SIZE)
        v = tl.load(X + offs, mask=offs < N, other=0.).to(tl.float32)
        centred = tl.where(offs < N, v - mean, 0.)
        partial += centred * centred
    var = tl.sum(partial, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)

    # Saved for the backward pass.
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)

    # Pass 3: normalise, scale and shift.
    for start in range(0, N, BLOCK_SIZE):
        offs = start + tl.arange(0, BLOCK_SIZE)
        ok = offs < N
        w = tl.load(W + offs, mask=ok)
        b = tl.load(B + offs, mask=ok)
        v = tl.load(X + offs, mask=ok, other=0.).to(tl.float32)
        y = (v - mean) * rstd * w + b
        tl.store(Y + offs, y, mask=ok)


@triton.jit
def layer_norm_bwd_dx_kernel(DX, DY, PartialDW, PartialDB, X, W, Mean, Rstd, Locks,  #
                             row_stride, N,  #
                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    ok = cols < N
    X += row * row_stride
    DY += row * row_stride
    DX += row * row_stride

    # Which partial row this program contributes to, and its lock / "written" flag.
    slot = row % GROUP_SIZE_M
    lock = Locks + slot
    written = Locks + GROUP_SIZE_M + slot
    PartialDW = PartialDW + slot * N + cols
    PartialDB = PartialDB + slot * N + cols

    x = tl.load(X + cols, mask=ok, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=ok, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=ok).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)

    xhat = tl.where(ok, (x - mean) * rstd, 0.)
    wdy = tl.where(ok, w * dy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=ok)

    my_dw = (dy * xhat).to(PartialDW.dtype.element_ty)
    my_db = dy.to(PartialDB.dtype.element_ty)

    # Acquire: spin until we flip the lock from 0 to 1.
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    seen = tl.load(written)
    if seen == 0:
        # First writer of this slot: nothing to add to, just mark it written.
        tl.atomic_xchg(written, 1)
    else:
        my_dw += tl.load(PartialDW, mask=ok)
        my_db += tl.load(PartialDB, mask=ok)
    tl.store(PartialDW, my_dw, mask=ok)
    tl.store(PartialDB, my_db, mask=ok)
    # Make every thread's stores land before the lock is handed on.
    tl.debug_barrier()
    # Release.
    tl.atomic_xchg(lock, 0)


@triton.jit
def layer_norm_bwd_dwdb_kernel(PartialDW, PartialDB, DW, DB, M, N,  #
                               BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    # Column-parallel reduction of the M x N partial sums.
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw_acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db_acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for r0 in range(0, M, BLOCK_SIZE_M):
        rows = r0 + tl.arange(0, BLOCK_SIZE_M)
        tile_ok = (rows[:, None] < M) & (cols[None, :] < N)
        flat = rows[:, None] * N + cols[None, :]
        dw_acc += tl.load(PartialDW + flat, mask=tile_ok, other=0.)
        db_acc += tl.load(PartialDB + flat, mask=tile_ok, other=0.)
    dw = tl.sum(dw_acc, axis=0)
    db = tl.sum(db_acc, axis=0)
    tl.store(DW + cols, dw, mask=cols < N)
    tl.store(DB + cols, db, mask=cols < N)


# Largest row chunk, in bytes, that the forward kernel keeps in registers.
FWD_CHUNK_BYTES = 65536


def _lock_groups(n: int) -> int:
    # Fewer, busier partial rows for wide rows; more for narrow ones.
    if n <= 1024:
        return 256
    if n <= 4096:
        return 128
    return 64


def layer_norm_forward(x, weight, bias, eps=1e-5):
    x2 = x.reshape(-1, x.shape[-1])
    M, N = x2.shape
    y = torch.empty_like(x2)
    mean = torch.empty((M, ), dtype=torch.float32, device=x.device)
    rstd = torch.empty((M, ), dtype=torch.float32, device=x.device)
    block = min(FWD_CHUNK_BYTES // x.element_size(), triton.next_power_of_2(N))
    warps = min(max(block // 256, 1), 8)
    layer_norm_fwd_kernel[(M, )](x2, y, weight, bias, mean, rstd, x2.stride(0), N, eps, BLOCK_SIZE=block,
                                 num_warps=warps)
    return y.reshape(x.shape), mean, rstd, block, warps


def layer_norm_backward(dy, x, weight, mean, rstd, block, warps):
    x2 = x.reshape(-1, x.shape[-1])
    dy2 = dy.reshape(-1, dy.shape[-1])
    M, N = x2.shape
    groups = _lock_groups(N)
    locks = torch.zeros(2 * groups, dtype=torch.int32, device=x.device)
    part_dw = torch.zeros((groups, N), dtype=torch.float32, device=x.device)
    part_db = torch.zeros((groups, N), dtype=torch.float32, device=x.device)
    dx = torch.empty_like(x2)
    dw = torch.empty((N, ), dtype=weight.dtype, device=x.device)
    db = torch.empty((N, ), dtype=weight.dtype, device=x.device)
    layer_norm_bwd_dx_kernel[(M, )](dx, dy2, part_dw, part_db, x2, weight, mean, rstd, locks, x2.stride(0), N,
                                    GROUP_SIZE_M=groups, BLOCK_SIZE_N=block, num_warps=warps)
    grid = lambda meta: (triton.cdiv(N, meta["BLOCK_SIZE_N"]), )
    layer_norm_bwd_dwdb_kernel[grid](part_dw, part_db, dw, db, groups, N, BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)
    return dx.reshape(x.shape), dw, db


if __name__ == "__main__":
    torch.manual_seed(0)
    for M, N in ((4096, 8192), (1151, 1000)):
        x = torch.randn((M, N), device="cuda", dtype=torch.float16, requires_grad=True)
        w = torch.rand((N, ), device="cuda", dtype=torch.float16, requires_grad=True)
        b = torch.rand((N, ), device="cuda", dtype=torch.float16, requires_grad=True)
        dy = 0.1 * torch.randn_like(x)
        y, mean, rstd, block, warps = layer_norm_forward(x, w, b)
        ref = torch.nn.functional.layer_norm(x, (N, ), w, b, 1e-5)
        torch.testing.assert_close(y, ref, atol=1e-2, rtol=0)
        ref.backward(dy)
        dx, dw, db = layer_norm_backward(dy, x, w, mean, rstd, block, warps)
        torch.testing.assert_close(dx, x.grad, atol=1e-2, rtol=0)
        torch.testing.assert_close(dw, w.grad, atol=1e-1, rtol=1e-2)
        torch.testing.assert_close(db, b.grad, atol=1e-1, rtol=1e-2)
    print("layer_norm: ok")
