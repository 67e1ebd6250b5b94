"""Fused multi-head attention (FlashAttention-2 style), forward and backward.

gotriton conformance corpus.

Forward: one program per (BLOCK_M query rows, batch*head). Keys/values are swept in
BLOCK_N steps with an online softmax kept in base 2: scores are pre-multiplied by
log2(e) so tl.math.exp2 can be used, and the saved log-sum-exp is in base 2 too.
STAGE selects the sweep: 1 = non-causal (one unmasked sweep over all keys),
3 = causal (an unmasked sweep left of the diagonal, then a masked diagonal block).
Q/K/V/O are accepted either as host-built tensor descriptors or as raw pointers, in
which case descriptors are built on the device.

Backward: a preprocess kernel computes Delta = rowsum(O * dO); the main kernel gives
each program one key block (dK, dV) and one query block (dQ).
"""
import torch

import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

LOG2E = tl.constexpr(1.4426950408889634)
# Added to masked scores; large enough to vanish after exp2, small enough to avoid inf - inf.
MASKED_SCORE = tl.constexpr(-1.0e6)


@triton.jit
def _as_descriptor(src, shape, strides, block_shape):
    # Descriptors made on the host are used as they are; a raw pointer gets one built here.
    if isinstance(src, tl.tensor_descriptor):
        return src
    else:
        return tl.make_tensor_descriptor(src, shape=shape, strides=strides, block_shape=block_shape)


@triton.jit
def _attn_fwd_sweep(acc, row_sum, row_max, q, k_desc, v_desc,  #
                    kv_row0, q_block, qk_scale, q_pos, kv_lane, seq_len,  #
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,  #
                    STAGE: tl.constexpr, WARP_SPECIALIZE: tl.constexpr):
    # STAGE 1: key blocks strictly before this query block (causal, nothing to mask).
    # STAGE 2: the key block(s) on the diagonal (causal, masked).
    # STAGE 3: all keys (non-causal).
    if STAGE == 1:
        lo = 0
        hi = q_block * BLOCK_M
    elif STAGE == 2:
        lo = tl.multiple_of(q_block * BLOCK_M, BLOCK_M)
        hi = (q_block + 1) * BLOCK_M
    else:
        lo = 0
        hi = seq_len

    for kv_start in tl.range(lo, hi, BLOCK_N, warp_specialize=WARP_SPECIALIZE):
        kv_start = tl.multiple_of(kv_start, BLOCK_N)
        k = k_desc.load([kv_row0 + kv_start, 0])
        scores = tl.dot(q, k.T)
        if STAGE == 2:
            visible = q_pos[:, None] >= (kv_start + kv_lane[None, :])
            scores = scores * qk_scale + tl.where(visible, 0.0, MASKED_SCORE)
            new_max = tl.maximum(row_max, tl.max(scores, 1))
            scores -= new_max[:, None]
        else:
            new_max = tl.maximum(row_max, tl.max(scores, 1) * qk_scale)
            scores = scores * qk_scale - new_max[:, None]
        probs = tl.math.exp2(scores)
        # Rescale what was accumulated under the old running max.
        shrink = tl.math.exp2(row_max - new_max)
        acc = acc * shrink[:, None]
        v = v_desc.load([kv_row0 + kv_start, 0])
        acc = tl.dot(probs.to(v.dtype), v, acc)
        row_sum = row_sum * shrink + tl.sum(probs, 1)
        row_max = new_max
    return acc, row_sum, row_max


@triton.jit
def attn_fwd_kernel(sm_scale, LSE,  #
                    Z, H, q_src, k_src, v_src, o_src, N_CTX,  #
                    HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,  #
                    STAGE: tl.constexpr, WARP_SPECIALIZE: tl.constexpr):
    tl.static_assert(BLOCK_M % BLOCK_N == 0, "the diagonal block must split into whole key blocks")
    tl.static_assert(HEAD_DIM >= 16)
    tl.static_assert(HEAD_DIM <= 256)
    q_block = tl.program_id(0)
    bh = tl.program_id(1)
    batch = bh // H
    head = bh % H

    # All heads are viewed as one (Z*H*N_CTX, HEAD_DIM) matrix.
    all_rows = Z * H * N_CTX
    q_desc = _as_descriptor(q_src, shape=[all_rows, HEAD_DIM], strides=[HEAD_DIM, 1],
                            block_shape=[BLOCK_M, HEAD_DIM])
    k_desc = _as_descriptor(k_src, shape=[all_rows, HEAD_DIM], strides=[HEAD_DIM, 1],
                            block_shape=[BLOCK_N, HEAD_DIM])
    v_desc = _as_descriptor(v_src, shape=[all_rows, HEAD_DIM], strides=[HEAD_DIM, 1],
                            block_shape=[BLOCK_N, HEAD_DIM])
    o_desc = _as_descriptor(o_src, shape=[all_rows, HEAD_DIM], strides=[HEAD_DIM, 1],
                            block_shape=[BLOCK_M, HEAD_DIM])

    kv_row0 = (batch * H + head) * N_CTX
    q_row = kv_row0 + q_block * BLOCK_M
    q_pos = q_block * BLOCK_M + tl.arange(0, BLOCK_M)
    kv_lane = tl.arange(0, BLOCK_N)

    row_max = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    row_sum = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * LOG2E

    q = q_desc.load([q_row, 0])
    if STAGE == 3:
        acc, row_sum, row_max = _attn_fwd_sweep(acc, row_sum, row_max, q, k_desc, v_desc,  #
                                                kv_row0, q_block, qk_scale, q_pos, kv_lane, N_CTX,  #
                                                BLOCK_M, BLOCK_N, 1, WARP_SPECIALIZE)
        acc, row_sum, row_max = _attn_fwd_sweep(acc, row_sum, row_max, q, k_desc, v_desc,  #
                                                kv_row0, q_block, qk_scale, q_pos, kv_lane, N_CTX,  #
                                                BLOCK_M, BLOCK_N, STAGE=2, WARP_SPECIALIZE=WARP_SPECIALIZE)
    else:
        acc, row_sum, row_max = _attn_fwd_sweep(acc, row_sum, row_max, q, k_desc, v_desc,  #
                                                kv_row0, q_block, qk_scale, q_pos, kv_lane, N_CTX,  #
                                                BLOCK_M, BLOCK_N, STAGE=3, WARP_SPECIALIZE=WARP_SPECIALIZE)

    # Base-2 log-sum-exp of the scaled scores, needed by the backward pass.
    lse = row_max + tl.math.log2(row_sum)
    tl.store(LSE + bh * N_CTX + q_pos, lse)
    out = acc / row_sum[:, None]
    o_desc.store([q_row, 0], out.to(q.dtype))


@triton.jit
def attn_bwd_preprocess_kernel(O, DO, Delta, Z, H, N_CTX, BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr):
    blk = tl.program_id(0)
    bh = tl.program_id(1)
    rows = blk * BLOCK_M + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, HEAD_DIM)
    flat = bh * N_CTX * HEAD_DIM + rows[:, None] * HEAD_DIM + dims[None, :]
    o = tl.load(O + flat).to(tl.float32)
    do = tl.load(DO + flat).to(tl.float32)
    tl.store(Delta + bh * N_CTX + rows, tl.sum(o * do, axis=1))


@triton.jit
def _bwd_kv_block(dk, dv, k, v, Q, DO, LSE, Delta,  #
                  stride_tok, stride_d, qk_scale,  #
                  start_n, start_m, num_steps,  #
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr, MASK: tl.constexpr):
    """Accumulate dK/dV of one key block over num_steps query blocks starting at start_m."""
    tl.static_assert(BLOCK_N % BLOCK_M == 0)
    kv_pos = start_n + tl.arange(0, BLOCK_N)
    dims = tl.arange(0, HEAD_DIM)
    lanes = tl.arange(0, BLOCK_M)
    # Q is read transposed (HEAD_DIM x BLOCK_M) so S^T = K Q^T needs no extra transpose.
    qT_ptrs = Q + (start_m + lanes)[None, :] * stride_tok + dims[:, None] * stride_d
    do_ptrs = DO + (start_m + lanes)[:, None] * stride_tok + dims[None, :] * stride_d
    m0 = start_m
    for _ in range(num_steps):
        q_pos = m0 + lanes
        qT = tl.load(qT_ptrs)
        lse = tl.load(LSE + q_pos)
        pT = tl.math.exp2(tl.dot(k, qT) * qk_scale - lse[None, :])
        if MASK:
            pT = tl.where(q_pos[None, :] >= kv_pos[:, None], pT, 0.0)
        do = tl.load(do_ptrs)
        dv = tl.dot(pT.to(do.dtype), do, dv)
        delta = tl.load(Delta + q_pos)
        dpT = tl.dot(v, tl.trans(do))
        dsT = pT * (dpT - delta[None, :])
        dk = tl.dot(dsT.to(qT.dtype), tl.trans(qT), dk)
        m0 += BLOCK_M
        qT_ptrs += BLOCK_M * stride_tok
        do_ptrs += BLOCK_M * stride_tok
    return dk, dv


@triton.jit
def _bwd_q_block(dq, q, do, lse, delta, K, V,  #
                 stride_tok, stride_d, qk_scale,  #
                 start_m, start_n, num_steps,  #
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr, MASK: tl.constexpr):
    """Accumulate dQ of one query block over num_steps key blocks starting at start_n."""
    tl.static_assert(BLOCK_M % BLOCK_N == 0)
    q_pos = start_m + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, HEAD_DIM)
    lanes = tl.arange(0, BLOCK_N)
    kT_ptrs = K + (start_n + lanes)[None, :] * stride_tok + dims[:, None] * stride_d
    vT_ptrs = V + (start_n + lanes)[None, :] * stride_tok + dims[:, None] * stride_d
    n0 = start_n
    for _ in range(num_steps):
        kT = tl.load(kT_ptrs)
        vT = tl.load(vT_ptrs)
        p = tl.math.exp2(tl.dot(q, kT) * qk_scale - lse[:, None])
        if MASK:
            kv_pos = n0 + lanes
            p = tl.where(q_pos[:, None] >= kv_pos[None, :], p, 0.0)
        dp = tl.dot(do, vT)
        ds = p * (dp - delta[:, None])
        dq = tl.dot(ds.to(kT.dtype), tl.trans(kT), dq)
        n0 += BLOCK_N
        kT_ptrs += BLOCK_N * stride_tok
        vT_ptrs += BLOCK_N * stride_tok
    return dq


@triton.jit
def attn_bwd_kernel(Q, K, V, sm_scale, DO, DQ, DK, DV, LSE, Delta,  #
                    stride_z, stride_h, stride_tok, stride_d, H, N_CTX,  #
                    BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr,  #
                    BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr,  #
                    BLK_SLICE_FACTOR: tl.constexpr, HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr):
    tl.static_assert(BLOCK_N1 == BLOCK_M2, "a program owns one key block and one query block of equal size")
    blk = tl.program_id(0)
    bh = tl.program_id(2)
    head_base = (stride_z * (bh // H) + stride_h * (bh % H)).to(tl.int64)
    Q += head_base
    K += head_base
    V += head_base
    DO += head_base
    DQ += head_base
    DK += head_base
    DV += head_base
    row_base = (bh * N_CTX).to(tl.int64)
    LSE += row_base
    Delta += row_base

    qk_scale = sm_scale * LOG2E
    dims = tl.arange(0, HEAD_DIM)

    # ---- dK and dV of key block `blk` ----
    start_n = blk * BLOCK_N1
    kv_pos = start_n + tl.arange(0, BLOCK_N1)
    kv_offs = kv_pos[:, None] * stride_tok + dims[None, :] * stride_d
    k = tl.load(K + kv_offs)
    v = tl.load(V + kv_offs)
    dk = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    if CAUSAL:
        # Queries on the diagonal block, in thinner masked slices; queries above it see nothing.
        THIN_M1: tl.constexpr = BLOCK_M1 // BLK_SLICE_FACTOR
        dk, dv = _bwd_kv_block(dk, dv, k, v, Q, DO, LSE, Delta, stride_tok, stride_d, qk_scale,  #
                               start_n, start_n, BLOCK_N1 // THIN_M1,  #
                               THIN_M1, BLOCK_N1, HEAD_DIM, MASK=True)
        first_m = start_n + BLOCK_N1
    else:
        first_m = 0
    dk, dv = _bwd_kv_block(dk, dv, k, v, Q, DO, LSE, Delta, stride_tok, stride_d, qk_scale,  #
                           start_n, first_m, (N_CTX - first_m) // BLOCK_M1,  #
                           BLOCK_M1, BLOCK_N1, HEAD_DIM, MASK=False)
    tl.store(DV + kv_offs, dv)
    dk *= sm_scale
    tl.store(DK + kv_offs, dk)

    # ---- dQ of query block `blk` ----
    start_m = blk * BLOCK_M2
    q_pos = start_m + tl.arange(0, BLOCK_M2)
    q_offs = q_pos[:, None] * stride_tok + dims[None, :] * stride_d
    q = tl.load(Q + q_offs)
    do = tl.load(DO + q_offs)
    lse = tl.load(LSE + q_pos)
    delta = tl.load(Delta + q_pos)
    dq = tl.zeros([BLOCK_M2, HEAD_DIM], dtype=tl.float32)
    if CAUSAL:
        THIN_N2: tl.constexpr = BLOCK_N2 // BLK_SLICE_FACTOR
        dq = _bwd_q_block(dq, q, do, lse, delta, K, V, stride_tok, stride_d, qk_scale,  #
                          start_m, start_m, BLOCK_M2 // THIN_N2,  #
                          BLOCK_M2, THIN_N2, HEAD_DIM, MASK=True)
        dq = _bwd_q_block(dq, q, do, lse, delta, K, V, stride_tok, stride_d, qk_scale,  #
                          start_m, 0, start_m // BLOCK_N2,  #
                          BLOCK_M2, BLOCK_N2, HEAD_DIM, MASK=False)
    else:
        dq = _bwd_q_block(dq, q, do, lse, delta, K, V, stride_tok, stride_d, qk_scale,  #
                          start_m, 0, N_CTX // BLOCK_N2,  #
                          BLOCK_M2, BLOCK_N2, HEAD_DIM, MASK=False)
    dq *= sm_scale
    tl.store(DQ + q_offs, dq)


# ---------------------------------------------------------------------------------------
# Host side
# ---------------------------------------------------------------------------------------

FWD_BLOCK_M = 128
FWD_BLOCK_N = 64
BWD_BLOCKS = dict(BLOCK_M1=32, BLOCK_N1=128, BLOCK_M2=128, BLOCK_N2=32, BLK_SLICE_FACTOR=2)
PRE_BLOCK = 128


def _scratch(size: int, alignment: int, stream):
    # Global scratch for descriptors that kernels create on the device.
    return torch.empty(size, device="cuda", dtype=torch.int8)


def attention_forward(q, k, v, sm_scale, causal, host_descriptors=True, warp_specialize=False):
    Z, H, N_CTX, D = q.shape
    assert N_CTX % FWD_BLOCK_M == 0
    o = torch.empty_like(q)
    lse = torch.empty((Z, H, N_CTX), device=q.device, dtype=torch.float32)
    if host_descriptors:
        q_src = TensorDescriptor.from_tensor(q.view(-1, D), [FWD_BLOCK_M, D])
        k_src = TensorDescriptor.from_tensor(k.view(-1, D), [FWD_BLOCK_N, D])
        v_src = TensorDescriptor.from_tensor(v.view(-1, D), [FWD_BLOCK_N, D])
        o_src = TensorDescriptor.from_tensor(o.view(-1, D), [FWD_BLOCK_M, D])
    else:
        triton.set_allocator(_scratch)
        q_src, k_src, v_src, o_src = q, k, v, o
    grid = (triton.cdiv(N_CTX, FWD_BLOCK_M), Z * H, 1)
    attn_fwd_kernel[grid](sm_scale, lse, Z, H, q_src, k_src, v_src, o_src, N_CTX,  #
                          HEAD_DIM=D, BLOCK_M=FWD_BLOCK_M, BLOCK_N=FWD_BLOCK_N,  #
                          STAGE=3 if causal else 1, WARP_SPECIALIZE=warp_specialize,  #
                          num_warps=4 if D <= 64 else 8, num_stages=2 if warp_specialize else 3)
    return o, lse


def attention_backward(q, k, v, o, lse, do, sm_scale, causal):
    Z, H, N_CTX, D = q.shape
    do = do.contiguous()
    dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
    delta = torch.empty_like(lse)
    attn_bwd_preprocess_kernel[(N_CTX // PRE_BLOCK, Z * H)](o, do, delta, Z, H, N_CTX, BLOCK_M=PRE_BLOCK, HEAD_DIM=D)
    grid = (N_CTX // BWD_BLOCKS["BLOCK_N1"], 1, Z * H)
    attn_bwd_kernel[grid](q, k, v, sm_scale, do, dq, dk, dv, lse, delta,  #
                          q.stride(0), q.stride(1), q.stride(2), q.stride(3), H, N_CTX,  #
                          HEAD_DIM=D, CAUSAL=causal, num_warps=4, num_stages=5, **BWD_BLOCKS)
    return dq, dk, dv


def _reference(q, k, v, sm_scale, causal):
    s = torch.matmul(q.float(), k.float().transpose(2, 3)) * sm_scale
    if causal:
        n = q.shape[2]
        s = s.masked_fill(~torch.tril(torch.ones(n, n, dtype=torch.bool, device=q.device)), float("-inf"))
    return torch.matmul(torch.softmax(s, dim=-1), v.float()).to(q.dtype)


if __name__ == "__main__":
    torch.manual_seed(0)
    Z, H, N_CTX, D = 4, 16, 1024, 64
    q, k, v = (torch.randn((Z, H, N_CTX, D), device="cuda", dtype=torch.float16, requires_grad=True)
               for _ in range(3))
    sm_scale = 0.5
    for causal in (False, True):
        ref = _reference(q, k, v, sm_scale, causal)
        for host_desc in (True, False):
            o, lse = attention_forward(q, k, v, sm_scale, causal, host_descriptors=host_desc)
            torch.testing.assert_close(o, ref, atol=1e-2, rtol=0)
        if not causal:
            o_ws, _ = attention_forward(q, k, v, sm_scale, causal, warp_specialize=True)
            torch.testing.assert_close(o_ws, ref, atol=1e-2, rtol=0)
        do = torch.randn_like(q)
        q.grad = k.grad = v.grad = None
        ref.backward(do)
        dq, dk, dv = attention_backward(q, k, v, o, lse, do, sm_scale, causal)
        torch.testing.assert_close(dv, v.grad, atol=2e-2, rtol=0)
        torch.testing.assert_close(dk, k.grad, atol=2e-2, rtol=0)
        torch.testing.assert_close(dq, q.grad, atol=2e-2, rtol=0)
    print("attention: ok")
