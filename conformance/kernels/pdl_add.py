"""Vector add that takes part in programmatic dependent launch (PDL, sm_90+).

gotriton conformance corpus. With USE_GDC the kernel waits for the grid it depends on
(griddepcontrol.wait) before reading inputs that grid may have written, and signals
early (griddepcontrol.launch_dependents) that the next grid may start its prologue.
Launched with launch_pdl=True.
"""
import torch

import triton
import triton.language as tl


@triton.jit
def pdl_add_kernel(a_ptr, b_ptr, out_ptr, numel, BLOCK_SIZE: tl.constexpr, USE_GDC: tl.constexpr):
    pid = tl.program_id(axis=0)
    idx = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    ok = idx < numel
    if USE_GDC:
        # Inputs may come from the previous kernel in the stream: wait for it.
        tl.extra.cuda.gdc_wait()
    a = tl.load(a_ptr + idx, mask=ok)
    b = tl.load(b_ptr + idx, mask=ok)
    if USE_GDC:
        # All our reads are issued; the dependent grid may begin launching. This gives no
        # memory-ordering guarantee: the dependent kernel still calls gdc_wait itself.
        tl.extra.cuda.gdc_launch_dependents()
    tl.store(out_ptr + idx, a + b, mask=ok)


def pdl_add(a: torch.Tensor, b: torch.Tensor, use_pdl: bool = True) -> torch.Tensor:
    out = torch.empty_like(a)
    numel = out.numel()
    grid = lambda meta: (triton.cdiv(numel, meta["BLOCK_SIZE"]), )
    pdl_add_kernel[grid](a, b, out, numel, BLOCK_SIZE=1024, USE_GDC=use_pdl, launch_pdl=use_pdl)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    a = torch.rand(1 << 22, device="cuda")
    b = torch.rand(1 << 22, device="cuda")
    use_pdl = torch.cuda.get_device_capability()[0] >= 9
    # Chain two launches so the second one actually depends on the first.
    tmp = pdl_add(a, b, use_pdl)
    torch.testing.assert_close(pdl_add(tmp, b, use_pdl), a + 2 * b)
    print("pdl_add: ok")
