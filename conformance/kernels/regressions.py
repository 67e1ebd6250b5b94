"""Kernels that once gave wrong results, each after a test of Triton's own test_core.py.

gotriton conformance corpus. Every kernel here is a bug that CI keeps fixed: the case
names the test of python/test/unit/language/test_core.py (release/3.6.x) that found it.
"""
import triton
import triton.language as tl


@triton.jit
def thread_locality_kernel(x_ptr, y_ptr, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, OP: tl.constexpr):
    # test_optimize_thread_locality: a loop-carried row vector combined with a row
    # reduction of each tile; program pid_n takes every num_pid_n-th column block.
    start_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    num_pid_n = tl.num_programs(1)
    if OP == "max":
        acc = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    elif OP == "min":
        acc = tl.full([BLOCK_M], float("inf"), dtype=tl.float32)
    else:
        acc = tl.zeros([BLOCK_M], dtype=tl.float32)
    off_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    for start_n in range(pid_n, tl.cdiv(N, BLOCK_N), num_pid_n):
        off_n = start_n * BLOCK_N + tl.arange(0, BLOCK_N)
        x = tl.load(x_ptr + off_m[:, None] * N + off_n[None, :])
        if OP == "max":
            acc = tl.maximum(acc, tl.max(x, axis=1))
        elif OP == "min":
            acc = tl.minimum(acc, tl.min(x, axis=1))
        else:
            acc = acc + tl.sum(x, axis=1)
    tl.store(y_ptr + off_m * num_pid_n + pid_n, acc)


@triton.jit
def shift_right_kernel(z_ptr, x_ptr, y_ptr, SIZE: tl.constexpr):
    # test_shift_op[int8-uint64->>]: the operands are promoted to uint64, but the shift is
    # arithmetic because x, whose __rshift__ runs, is signed.
    off = tl.arange(0, SIZE)
    x = tl.load(x_ptr + off)
    y = tl.load(y_ptr + off)
    tl.store(z_ptr + off, x >> y)
