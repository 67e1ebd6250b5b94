# gotriton's own model of PyTorch Inductor's helper library
# (torch._inductor.runtime.triton_helpers), which the kernels torch.compile writes call.
# Written for gotriton from what the helpers compute; only what generated kernels use.
import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language import math


def set_driver_to_gpu():
    pass


@triton.jit
def promote_to_tensor(x):
    # Adding a zero tensor makes a scalar a tensor without changing its dtype.
    return x + tl.zeros((1,), tl.int1)


@triton.jit
def is_floating(x):
    return promote_to_tensor(x).dtype.is_floating()


@triton.jit
def maximum(a, b):
    # NaN wins when the first operand is a float, as in torch.maximum.
    mask = a > b
    if promote_to_tensor(a).dtype.is_floating():
        mask |= a != a
    return tl.where(mask, a, b)


@triton.jit
def minimum(a, b):
    mask = a < b
    if promote_to_tensor(a).dtype.is_floating():
        mask |= a != a
    return tl.where(mask, a, b)


@triton.jit
def max2(a, dim):
    return tl.reduce(a, dim, maximum)


@triton.jit
def min2(a, dim):
    return tl.reduce(a, dim, minimum)


@triton.jit
def welford_reduce(value, mean, m2, weight, first_iteration):
    if first_iteration:
        new_weight = tl.full(weight.shape, 1, weight.dtype)
        new_mean = value
        new_m2 = tl.zeros_like(m2)
    else:
        delta = value - mean
        new_weight = weight + 1
        new_mean = mean + delta / new_weight
        new_m2 = m2 + delta * (value - new_mean)
    return new_mean, new_m2, new_weight


@triton.jit
def welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    new_weight = weight_1 + weight_2
    w2_over_w = tl.where(new_weight == 0.0, 0.0, weight_2 / new_weight)
    return (
        mean_1 + delta * w2_over_w,
        m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w,
        new_weight,
    )


@triton.jit
def welford(mean, m2, weight, dim):
    return tl.reduce((mean, m2, weight), dim, welford_combine)
