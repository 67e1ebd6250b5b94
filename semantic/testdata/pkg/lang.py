import triton
import triton.language as tl

LOW: tl.constexpr = 0.0
HIGH = 1.0


@triton.jit
def clamp01(x):
    # LOW and HIGH are this module's globals, not the kernel file's.
    return tl.minimum(tl.maximum(x, LOW), HIGH)
