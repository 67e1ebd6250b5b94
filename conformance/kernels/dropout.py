"""Dropout, two ways.

gotriton conformance corpus.
* masked_dropout_kernel: the keep/drop decision comes from a precomputed boolean tensor.
* seeded_dropout_kernel: the decision is regenerated from (seed, element index) with the
  counter-based Philox generator behind tl.rand, so no mask needs to be stored.
Kept elements are scaled by 1 / (1 - p).
"""
import torch

import triton
import triton.language as tl


@triton.jit
def masked_dropout_kernel(src_ptr, keep_ptr, dst_ptr, numel, p, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    idx = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    valid = idx < numel
    vals = tl.load(src_ptr + idx, mask=valid)
    keep = tl.load(keep_ptr + idx, mask=valid)
    scale = 1.0 / (1.0 - p)
    res = tl.where(keep, vals * scale, 0.0)
    tl.store(dst_ptr + idx, res, mask=valid)


@triton.jit
def seeded_dropout_kernel(src_ptr, dst_ptr, numel, p, seed, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    idx = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    valid = idx < numel
    vals = tl.load(src_ptr + idx, mask=valid)
    # Uniform [0, 1) numbers; the same (seed, idx) always gives the same number.
    u = tl.rand(seed, idx)
    survives = u > p
    res = tl.where(survives, vals / (1.0 - p), 0.0)
    tl.store(dst_ptr + idx, res, mask=valid)


def masked_dropout(x: torch.Tensor, keep: torch.Tensor, p: float) -> torch.Tensor:
    assert x.is_contiguous() and keep.is_contiguous() and keep.dtype == torch.bool
    out = torch.empty_like(x)
    numel = x.numel()
    grid = lambda meta: (triton.cdiv(numel, meta["BLOCK_SIZE"]), )
    masked_dropout_kernel[grid](x, keep, out, numel, p, BLOCK_SIZE=1024)
    return out


def seeded_dropout(x: torch.Tensor, p: float, seed: int) -> torch.Tensor:
    assert x.is_contiguous()
    out = torch.empty_like(x)
    numel = x.numel()
    grid = lambda meta: (triton.cdiv(numel, meta["BLOCK_SIZE"]), )
    seeded_dropout_kernel[grid](x, out, numel, p, seed, BLOCK_SIZE=1024)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(1 << 20, device="cuda")
    keep = torch.rand_like(x) > 0.5
    torch.testing.assert_close(masked_dropout(x, keep, 0.5), torch.where(keep, x * 2.0, 0.0))
    first = seeded_dropout(x, 0.5, seed=1234)
    again = seeded_dropout(x, 0.5, seed=1234)
    other = seeded_dropout(x, 0.5, seed=4321)
    assert torch.equal(first, again) and not torch.equal(first, other)
    print("dropout: ok")
