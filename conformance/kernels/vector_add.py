"""Element-wise addition of two 1-D tensors.

gotriton conformance corpus: the smallest useful kernel. Each program handles one
contiguous chunk of BLOCK_SIZE elements; the tail chunk is masked.
"""
import torch

import triton
import triton.language as tl


@triton.jit
def vector_add_kernel(lhs_ptr, rhs_ptr, out_ptr, numel, BLOCK_SIZE: tl.constexpr):
    chunk = tl.program_id(axis=0)
    first = chunk * BLOCK_SIZE
    idx = first + tl.arange(0, BLOCK_SIZE)
    in_bounds = idx < numel
    lhs = tl.load(lhs_ptr + idx, mask=in_bounds)
    rhs = tl.load(rhs_ptr + idx, mask=in_bounds)
    tl.store(out_ptr + idx, lhs + rhs, mask=in_bounds)


def vector_add(lhs: torch.Tensor, rhs: torch.Tensor, block_size: int = 1024) -> torch.Tensor:
    assert lhs.shape == rhs.shape and lhs.is_contiguous() and rhs.is_contiguous()
    out = torch.empty_like(lhs)
    numel = out.numel()
    grid = lambda meta: (triton.cdiv(numel, meta["BLOCK_SIZE"]), )
    vector_add_kernel[grid](lhs, rhs, out, numel, BLOCK_SIZE=block_size)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    for numel in (98432, 1000003):
        a = torch.rand(numel, device="cuda")
        b = torch.rand(numel, device="cuda")
        torch.testing.assert_close(vector_add(a, b), a + b)
    a16 = torch.rand(65536, device="cuda", dtype=torch.float16)
    torch.testing.assert_close(vector_add(a16, a16), a16 + a16)
    print("vector_add: ok")
