"""Kernels where Triton's own tests and real libraries put them, for the discovery tests:
inside test functions (under parametrize marks, rewritten by patch_kernel), inside classes
and blocks, and under decorators that cannot be evaluated offline."""
import contextlib

import pytest
import triton
import triton.language as tl
from triton import jit as J
from numba import jit as numba_jit
import some_unknown

BLOCK_M = 64


def patch_kernel(template, to_replace):
    kernel = triton.JITFunction(template.fn)
    for key, value in to_replace.items():
        kernel._unsafe_update_src(kernel.src.replace(key, value))
    return kernel


@some_unknown.register(tag=Foo(), kinds=set())
@triton.autotune(configs=[triton.Config({"BLOCK": 128}, num_warps=4), triton.Config({"BLOCK": 256}, num_warps=8)], key=["n"])
@triton.jit
def scale_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)


@numba_jit
def host_helper(x):
    return x


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("num_warps", [4, 8])
def test_unary(dtype, num_warps, device):
    @triton.jit
    def kernel(X, Z, SIZE: tl.constexpr):
        off = tl.arange(0, SIZE)
        z = GENERATE_TEST_HERE
        tl.store(Z + off, z)

    kernel = patch_kernel(kernel, {"GENERATE_TEST_HERE": "tl.load(X + off) + 1"})


def test_reads_enclosing(device):
    BLOCK = 128
    configs = [triton.Config({"SIZE": 32})]

    @triton.jit
    def kernel(X, n):
        offs = tl.arange(0, BLOCK)
        tl.store(X + offs, 1.0, mask=offs < n)

    @triton.autotune(configs=configs, key=[])
    @triton.jit
    def tuned(X, SIZE: tl.constexpr):
        tl.store(X + tl.arange(0, SIZE), 0.0)

    @triton.jit(debug=BLOCK > 64)
    def debugged(X):
        tl.static_print([BLOCK for BLOCK in range(2)])  # its own BLOCK: no closure
        tl.store(X, 0.0)


def test_globals_only(device):
    @J
    def copy_kernel(X, Y, N):
        offs = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
        tl.store(Y + offs, _twice(tl.load(X + offs, mask=offs < N)), mask=offs < N)

    def undecorated(X):
        tl.store(X, 1.0)

    wrapped = triton.jit(undecorated)

    class Local:
        @triton.jit
        def method_kernel(X):
            tl.store(X, 2.0)


class Ops:
    @staticmethod
    @triton.jit
    def kernel(X):
        tl.store(X, 3.0)

    class Inner:
        @triton.jit(do_not_specialize=["n"])
        def kernel(X, n):
            tl.store(X, n)


def make_global_kernel():
    global global_kernel

    @triton.jit
    def global_kernel(X):
        tl.store(X, 4.0)


async def test_async():
    @triton.jit
    def kernel(X):
        tl.store(X, 5.0)


if some_unknown.flag():
    @triton.jit
    def branch_kernel(X):
        tl.store(X, 6.0)
else:
    @triton.jit
    def branch_kernel(X):
        tl.store(X, 7.0)

try:
    from some_unknown import fast_path
except ImportError:
    @triton.jit
    def fallback_kernel(X):
        tl.store(X, 8.0)

with contextlib.suppress(Exception):
    @triton.jit
    def with_kernel(X):
        tl.store(X, 9.0)


@triton.jit
def _twice(x):
    return x * 2
