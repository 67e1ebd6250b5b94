"""Every way a file can declare jit functions, for the kernel-discovery test."""
import functools

import triton
import triton as tr
import triton.language as tl
from triton import jit
from triton import autotune, Config
from triton.language.extra import libdevice
from triton.language.extra.cuda import libdevice as cuda_libdevice
from triton.language import math as tlmath

BLOCK: tl.constexpr = 128
HALF = tl.constexpr(64)
EPS = 1e-5
NAME = "leaky"
SHAPE = (16, 32)


def libentry():
    def wrap(fn):
        return fn
    return wrap


def configs(stages):
    return [Config({"BLOCK_N": n}, num_warps=w, num_stages=s) for n in (32, 64) for w in [4] for s in stages]


@triton.jit
def plain(x_ptr, n, BLOCK_SIZE: tl.constexpr):
    pass


@jit
def from_import(x, y: tl.constexpr = 4):
    pass


@tr.jit(do_not_specialize=["n"], noinline=True)
def with_options(x_ptr, n):
    pass


@libentry()
@autotune(configs=configs([2, 3]), key=["n"])
@triton.heuristics({"EVEN_N": lambda args: args["n"] % args["BLOCK_N"] == 0})
@triton.jit
def stacked(x_ptr, n, BLOCK_N: "tl.constexpr", EVEN_N: tl.constexpr):
    pass


@functools.lru_cache
def host_only(x):
    return x


def undecorated(x_ptr):
    pass


functional = triton.jit(undecorated)


@triton.jit
def keyword_only(x, *, SCALE: tl.constexpr = 2.0):
    pass


if __name__ == "__main__":
    plain[(1,)](None, 1, BLOCK_SIZE=BLOCK)
