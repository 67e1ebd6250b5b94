"""Language features the tutorials touch lightly: block pointers, descriptor padding, device_print and
device_assert, scans, arg-reductions, custom reductions and the shape ops.

gotriton conformance corpus. Each kernel works on small 2-D tiles with masks or boundary
checks, so ragged shapes (not multiples of the block) are covered. AXIS and REVERSE are
constexprs: one specialization per axis and direction.
"""
import torch

import triton
import triton.language as tl


@triton.jit
def block_ptr_kernel(x_ptr, y_ptr, rowsum_ptr, M, N, stride_xm, stride_xn, stride_ym, stride_yn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """y = 2x + 1 and rowsum = x.sum(1) through block pointers walked along the columns."""
    row0 = tl.program_id(axis=0) * BLOCK_M
    x_blk = tl.make_block_ptr(base=x_ptr, shape=(M, N), strides=(stride_xm, stride_xn), offsets=(row0, 0),
                              block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    y_blk = tl.make_block_ptr(base=y_ptr, shape=(M, N), strides=(stride_ym, stride_yn), offsets=(row0, 0),
                              block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    acc = tl.zeros((BLOCK_M, ), dtype=tl.float32)
    for _ in range(0, tl.cdiv(N, BLOCK_N)):
        # Out-of-bounds elements read as zero, so the row sums need no mask.
        x = tl.load(x_blk, boundary_check=(0, 1), padding_option="zero")
        acc += tl.sum(x, axis=1)
        tl.store(y_blk, x * 2.0 + 1.0, boundary_check=(0, 1))
        x_blk = tl.advance(x_blk, (0, BLOCK_N))
        y_blk = tl.advance(y_blk, (0, BLOCK_N))
    s_blk = tl.make_block_ptr(base=rowsum_ptr, shape=(M, ), strides=(1, ), offsets=(row0, ), block_shape=(BLOCK_M, ),
                              order=(0, ))
    tl.store(s_blk, acc, boundary_check=(0, ))


@triton.jit
def print_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.device_print("x", x)
    tl.device_print("offs and x", offs, x)
    tl.device_print("n", n)
    tl.device_print("done")


@triton.jit
def assert_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=-1.0)
    tl.device_assert(x >= 0, "x must be non-negative", mask=ok)
    tl.store(y_ptr + offs, tl.sqrt(x), mask=ok)


@triton.jit
def _affine_combine(a1, b1, a2, b2):
    # Composition of h -> a1 * h + b1, then h -> a2 * h + b2: associative, not commutative.
    return a1 * a2, b1 * a2 + b2


@triton.jit
def scan_kernel(x_ptr, a_ptr, cumsum_ptr, cumprod_ptr, rec_ptr, M, N, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr, AXIS: tl.constexpr, REVERSE: tl.constexpr):
    """Scans of one M x N tile along AXIS; masked elements are each scan's identity."""
    rows = tl.arange(0, BLOCK_M)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    offs = rows * N + cols
    ok = (rows < M) & (cols < N)
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    a = tl.load(a_ptr + offs, mask=ok, other=1.0)
    tl.store(cumsum_ptr + offs, tl.cumsum(x, axis=AXIS, reverse=REVERSE), mask=ok)
    tl.store(cumprod_ptr + offs, tl.cumprod(a, axis=AXIS, reverse=REVERSE), mask=ok)
    _, h = tl.associative_scan((a, x), axis=AXIS, combine_fn=_affine_combine, reverse=REVERSE)
    tl.store(rec_ptr + offs, h, mask=ok)


@triton.jit
def _sum_and_squares(s1, q1, s2, q2):
    return s1 + s2, q1 + q2


@triton.jit
def _max_abs(a, b):
    return tl.maximum(tl.abs(a), tl.abs(b))


@triton.jit
def reduce_kernel(x_ptr, argmax_ptr, argmin_ptr, max_ptr, max_idx_ptr, min_ptr, min_idx_ptr, sum_ptr, sumsq_ptr,
                  maxabs_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, AXIS: tl.constexpr):
    """Reductions of one M x N tile along AXIS; ties go to the smallest index."""
    rows = tl.arange(0, BLOCK_M)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    ok = (rows < M) & (cols < N)
    lo = tl.load(x_ptr + rows * N + cols, mask=ok, other=float("-inf"))
    hi = tl.load(x_ptr + rows * N + cols, mask=ok, other=float("inf"))
    x = tl.where(ok, lo, 0.0)
    if AXIS == 0:
        out = tl.arange(0, BLOCK_N)
        out_ok = out < N
    else:
        out = tl.arange(0, BLOCK_M)
        out_ok = out < M
    tl.store(argmax_ptr + out, tl.argmax(lo, axis=AXIS), mask=out_ok)
    tl.store(argmin_ptr + out, tl.argmin(hi, axis=AXIS), mask=out_ok)
    mx, mx_idx = tl.max(lo, axis=AXIS, return_indices=True)
    mn, mn_idx = tl.min(hi, axis=AXIS, return_indices=True)
    tl.store(max_ptr + out, mx, mask=out_ok)
    tl.store(max_idx_ptr + out, mx_idx, mask=out_ok)
    tl.store(min_ptr + out, mn, mask=out_ok)
    tl.store(min_idx_ptr + out, mn_idx, mask=out_ok)
    s, q = tl.reduce((x, x * x), AXIS, _sum_and_squares)
    tl.store(sum_ptr + out, s, mask=out_ok)
    tl.store(sumsq_ptr + out, q, mask=out_ok)
    tl.store(maxabs_ptr + out, tl.reduce(x, AXIS, _max_abs), mask=out_ok)


@triton.jit
def shape_ops_kernel(x_ptr, y_ptr, joined_ptr, odd_even_ptr, trans_ptr, perm_ptr, bcast_ptr, total_ptr, M,
                     BLOCK_M: tl.constexpr, N: tl.constexpr):
    """Row blocks of two M x N tensors through join, split, permute, trans, reshape,
    expand_dims, broadcast_to and cat."""
    pid = tl.program_id(axis=0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, N)
    row_ok = rows < M
    ok = row_ok[:, None]
    offs = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    y = tl.load(y_ptr + offs, mask=ok, other=0.0)
    # joined[r, :] = x[r, :] followed by y[r, :]
    j = tl.permute(tl.join(x, y), (0, 2, 1))
    tl.store(joined_ptr + rows[:, None] * (2 * N) + tl.arange(0, 2 * N)[None, :], tl.reshape(j, (BLOCK_M, 2 * N)),
             mask=ok)
    # odd_even[r, c] = x[r, 2c + 1] - x[r, 2c]
    even, odd = tl.split(tl.reshape(x, (BLOCK_M, N // 2, 2)))
    tl.store(odd_even_ptr + rows[:, None] * (N // 2) + tl.arange(0, N // 2)[None, :], odd - even, mask=ok)
    # trans = x^T as an N x M tensor
    tl.store(trans_ptr + cols[:, None] * M + rows[None, :], tl.trans(x), mask=row_ok[None, :])
    # perm[j, r, i] = x[r, i * N/2 + j], an N/2 x M x 2 tensor
    p = tl.permute(tl.reshape(x, (BLOCK_M, 2, N // 2)), (2, 0, 1))
    jj = tl.arange(0, N // 2)[:, None, None]
    i = tl.arange(0, 2)[None, None, :]
    tl.store(perm_ptr + (jj * M + rows[None, :, None]) * 2 + i, p, mask=row_ok[None, :, None])
    # bcast[r, c] = max(x[r, :]) - x[r, c] + c
    row_max = tl.broadcast_to(tl.expand_dims(tl.max(x, axis=1), 1), (BLOCK_M, N))
    col = tl.broadcast_to(tl.expand_dims(cols.to(tl.float32), 0), (BLOCK_M, N))
    tl.store(bcast_ptr + offs, row_max - x + col, mask=ok)
    # total[pid] = sum of the block of x and of y (cat may reorder: only its sum is used)
    both = tl.cat(tl.sum(x, axis=1), tl.sum(y, axis=1), can_reorder=True)
    tl.store(total_ptr + pid, tl.sum(both, axis=0))


def _tile_grid(t, block_m):
    return (triton.cdiv(t.shape[0], block_m), )


@triton.jit
def desc_pad_kernel(x_ptr, y_ptr, M, N, stride_xm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, PAD: tl.constexpr):
    """y = the blocks of x through a tensor descriptor made in the kernel, padded past the
    tensor's edges as PAD says ("zero" or "nan"); NaNs are stored as -1."""
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[stride_xm, 1], block_shape=[BLOCK_M, BLOCK_N],
                                     padding_option=PAD)
    x = desc.load([pid_m * BLOCK_M, pid_n * BLOCK_N])
    x = tl.where(x != x, -1.0, x)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)[None, :]
    tl.store(y_ptr + rows * (tl.num_programs(axis=1) * BLOCK_N) + cols, x)


@triton.jit
def staged_rows_kernel(x_ptr, w_ptr, y_ptr, n_rows, n_cols, stride, BLOCK: tl.constexpr, STAGES: tl.constexpr):
    """y[r] = max(x[r, :n_cols]) + sum(w[r, :]) with w's row padded by 2s to BLOCK, over a
    persistent row loop whose own num_stages pipelines both loads (w's pointers carried)."""
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    w_ptrs = w_ptr + tl.program_id(0) * stride + cols
    for r in tl.range(tl.program_id(0), n_rows, tl.num_programs(0), num_stages=STAGES):
        x = tl.load(x_ptr + r * stride + cols, mask=mask, other=-float("inf"))
        w = tl.load(w_ptrs, mask=mask, other=2.0).to(tl.float32)
        tl.store(y_ptr + r, tl.max(x, axis=0) + tl.sum(w, axis=0))
        w_ptrs += tl.num_programs(0) * stride


if __name__ == "__main__":
    torch.manual_seed(0)
    M, N = 100, 77
    x = torch.randn(M, N, device="cuda")
    y = torch.empty(N, M, device="cuda")
    s = torch.empty(M, device="cuda")
    block_ptr_kernel[_tile_grid(x, 32)](x, y, s, M, N, x.stride(0), x.stride(1), 1, M, BLOCK_M=32, BLOCK_N=32)
    torch.testing.assert_close(y, (2 * x + 1).T)
    torch.testing.assert_close(s, x.sum(1))

    M, N = 13, 29
    x = torch.randn(M, N, device="cuda")
    a = torch.rand(M, N, device="cuda") * 0.2 + 0.9
    outs = [torch.empty_like(x) for _ in range(3)]
    for axis in (0, 1):
        for rev in (False, True):
            scan_kernel[(1, )](x, a, *outs, M, N, BLOCK_M=16, BLOCK_N=32, AXIS=axis, REVERSE=rev)
            xs, as_ = (x.flip(axis), a.flip(axis)) if rev else (x, a)
            want_sum, want_prod = xs.cumsum(axis), as_.cumprod(axis)
            if rev:
                want_sum, want_prod = want_sum.flip(axis), want_prod.flip(axis)
            torch.testing.assert_close(outs[0], want_sum)
            torch.testing.assert_close(outs[1], want_prod)

    xi = torch.randint(-2, 3, (M, N), device="cuda").float()
    for axis in (0, 1):
        n = N if axis == 0 else M
        outs = [torch.empty(n, device="cuda", dtype=dt) for dt in (torch.int32, torch.int32, torch.float32, torch.int32,
                                                                    torch.float32, torch.int32, torch.float32,
                                                                    torch.float32, torch.float32)]
        reduce_kernel[(1, )](xi, *outs, M, N, BLOCK_M=16, BLOCK_N=32, AXIS=axis)
        torch.testing.assert_close(outs[2], xi.amax(axis))
        torch.testing.assert_close(outs[7], (xi * xi).sum(axis))

    M, N = 37, 16
    x, y = torch.randn(M, N, device="cuda"), torch.randn(M, N, device="cuda")
    joined, odd_even = torch.empty(M, 2 * N, device="cuda"), torch.empty(M, N // 2, device="cuda")
    trans, perm, bcast = torch.empty(N, M, device="cuda"), torch.empty(N // 2, M, 2, device="cuda"), torch.empty_like(x)
    total = torch.empty(triton.cdiv(M, 8), device="cuda")
    shape_ops_kernel[_tile_grid(x, 8)](x, y, joined, odd_even, trans, perm, bcast, total, M, BLOCK_M=8, N=N)
    torch.testing.assert_close(joined, torch.cat([x, y], 1))
    torch.testing.assert_close(trans, x.T)
    torch.testing.assert_close(perm, x.reshape(M, 2, N // 2).permute(2, 0, 1))

    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    M, N = 37, 50
    x = torch.randn(M, 52, device="cuda")  # rows of a multiple of 16 bytes, as TMA needs
    for pad, outside in (("zero", 0.0), ("nan", -1.0)):
        y = torch.empty(48, 64, device="cuda")
        desc_pad_kernel[(3, 2)](x, y, M, N, x.stride(0), BLOCK_M=16, BLOCK_N=32, PAD=pad)
        want = torch.full_like(y, outside)
        want[:M, :N] = x[:, :N]
        torch.testing.assert_close(y, want)
    for n_rows, n_cols, programs, stages in ((37, 64, 4, 3), (5, 80, 8, 4), (100, 256, 3, 2)):
        stride = 256
        x = torch.randn(n_rows, stride, device="cuda")
        w = torch.randint(-2, 3, (n_rows, stride), device="cuda").half() / 2
        y = torch.empty(n_rows, device="cuda")
        block = triton.next_power_of_2(n_cols)
        staged_rows_kernel[(programs, )](x, w, y, n_rows, n_cols, stride, BLOCK=block, STAGES=stages)
        want = x[:, :n_cols].amax(1) + w[:, :n_cols].float().sum(1) + 2 * (block - n_cols)
        torch.testing.assert_close(y, want)
    print("language_features: ok")
