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


@triton.jit
def dot3d_kernel(q_ptr, k_ptr, o_ptr, BLOCK_B: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                 BLOCK_K: tl.constexpr, out_dtype: tl.constexpr, INPUT_PRECISION: tl.constexpr = "ieee"):
    # test_dot3d: a batched tl.dot of [B, M, K] by [B, K, N] blocks (it once stopped the
    # NVIDIA lowering with an index out of range, and fp16 into fp16 once summed in fp16
    # one product at a time, too inexact for the test).
    offs_b = tl.arange(0, BLOCK_B)
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    q = tl.load(q_ptr + offs_b[:, None, None] * BLOCK_M * BLOCK_K + offs_m[None, :, None] * BLOCK_K + offs_k[None, None, :])
    k = tl.load(k_ptr + offs_b[:, None, None] * BLOCK_K * BLOCK_N + offs_k[None, :, None] * BLOCK_N + offs_n[None, None, :])
    o = tl.dot(q, k, input_precision=INPUT_PRECISION, out_dtype=out_dtype)
    tl.store(o_ptr + offs_b[:, None, None] * BLOCK_M * BLOCK_N + offs_m[None, :, None] * BLOCK_N + offs_n[None, None, :], o)


@triton.jit
def dot_kernel(x_ptr, y_ptr, z_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
               out_dtype: tl.constexpr, INPUT_PRECISION: tl.constexpr = "ieee"):
    # test_dot: z = x @ y on one [M, K] and one [K, N] block, where the instruction follows
    # the types: fp16 into fp16 (summed in fp16 one product at a time, once), int8 (whose
    # FMA dot grew too large to launch), fp8 and M, N below one mma tile (once refused).
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    x = tl.load(x_ptr + offs_m[:, None] * BLOCK_K + offs_k[None, :])
    y = tl.load(y_ptr + offs_k[:, None] * BLOCK_N + offs_n[None, :])
    z = tl.dot(x, y, input_precision=INPUT_PRECISION, out_dtype=out_dtype)
    tl.store(z_ptr + offs_m[:, None] * BLOCK_N + offs_n[None, :], z)


@triton.jit
def split_scalar_kernel(x_ptr, z1_ptr, z2_ptr):
    # test_split_to_scalar: splitting a [2] tensor gives two scalars (tt.split, then
    # tt.unsplat, which the NVIDIA lowering once refused).
    x = tl.load(x_ptr + tl.arange(0, 2))
    z1, z2 = tl.split(x)
    tl.static_assert(z1.shape == [])
    tl.store(z1_ptr, z1)
    tl.store(z2_ptr, z2)


@triton.jit
def inline_asm_packed_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    # test_inline_asm_packed: four uint8 elements per asm call, packed in one 32-bit register
    # (packed_element 4 was refused by the NVIDIA lowering).
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    y = tl.inline_asm_elementwise("and.b32 $0, $1, 0x1F1F1F1F; shl.b32 $0, $0, 3;", "=r,r", [x], dtype=tl.int8,
                                  is_pure=True, pack=4)
    tl.store(y_ptr + tl.arange(0, BLOCK), y)


@triton.jit
def inline_asm_packed_outputs_kernel(a_ptr, b_ptr, c_ptr, d_ptr, BLOCK: tl.constexpr):
    # test_inline_asm_packed_multiple_outputs: c = int32(a) and d = max(float(a), b), four
    # elements per call: a's four uint8 in one register, b's four float32 in four.
    a = tl.load(a_ptr + tl.arange(0, BLOCK))
    b = tl.load(b_ptr + tl.arange(0, BLOCK))
    c, d = tl.inline_asm_elementwise(
        """
        {
            .reg .b8 tmp<4>;
            mov.b32 {tmp0, tmp1, tmp2, tmp3}, $8;
            cvt.u32.u8 $0, tmp0;
            cvt.u32.u8 $1, tmp1;
            cvt.u32.u8 $2, tmp2;
            cvt.u32.u8 $3, tmp3;
        }
        cvt.rn.f32.s32 $4, $0;
        cvt.rn.f32.s32 $5, $1;
        cvt.rn.f32.s32 $6, $2;
        cvt.rn.f32.s32 $7, $3;
        max.f32 $4, $4, $9;
        max.f32 $5, $5, $10;
        max.f32 $6, $6, $11;
        max.f32 $7, $7, $12;
        """, "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r", [a, b], dtype=(tl.int32, tl.float32), is_pure=True, pack=4)
    tl.store(c_ptr + tl.arange(0, BLOCK), c)
    tl.store(d_ptr + tl.arange(0, BLOCK), d)


@triton.jit
def inline_asm_pointers_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    # test_inline_asm_with_pointers: pointer operands ("l") and an int8 result in a 32-bit
    # register ("=r"), which the PTX emitter once could not narrow.
    tl.inline_asm_elementwise("ld.global.b8 $0, [$1]; shl.b32 $0, $0, 3; st.global.b8 [$2], $0;", "=r,l,l",
                              [x_ptr + tl.arange(0, BLOCK), y_ptr + tl.arange(0, BLOCK)], dtype=tl.int8,
                              is_pure=False, pack=1)


@triton.jit
def keep_dims_sum_kernel(x_ptr, z_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # test_reduce[keep_dims, axis=None]: the scalar output pointer indexed with None and ':'
    # becomes a [1, 1] block (None splats a scalar, ':' is not checked against the rank).
    x = tl.load(x_ptr + tl.arange(0, BLOCK_M)[:, None] * BLOCK_N + tl.arange(0, BLOCK_N)[None, :])
    z = tl.sum(x, axis=None, keep_dims=True)
    tl.store(z_ptr[None, None, :], z)


@triton.jit
def void_ternary_kernel(x_ptr, y_ptr, out_ptr):
    # test_if[if_exp_dynamic_void]: a ternary on a runtime condition whose sides are tl.store calls.
    pid = tl.program_id(0)
    tl.store(out_ptr + pid, tl.load(x_ptr + pid)) if pid % 2 == 0 else tl.store(out_ptr + pid, tl.load(y_ptr + pid))


@triton.jit
def imprecise_acc_kernel(x_ptr, y_ptr, z_ptr, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         BLOCK_K: tl.constexpr, MAX_IMPRECISE: tl.constexpr, LOOP: tl.constexpr):
    # test_dot_max_num_imprecise_acc: z = x @ y (fp8 into fp32, [M, K] by [K, N] row-major,
    # one block of z per program) with max_num_imprecise_acc; on sm_90, Triton sums every
    # MAX_IMPRECISE of K in a fresh accumulator, then adds it to the running one (which we
    # once did not). LOOP: over K blocks with a loop-carried accumulator; else one dot of
    # the first BLOCK_K without one.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    x_ptrs = x_ptr + offs_m[:, None] * K + offs_k[None, :]
    y_ptrs = y_ptr + offs_k[:, None] * N + offs_n[None, :]
    if LOOP:
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for _ in range(0, K, BLOCK_K):
            acc = tl.dot(tl.load(x_ptrs), tl.load(y_ptrs), acc=acc, max_num_imprecise_acc=MAX_IMPRECISE)
            x_ptrs += BLOCK_K
            y_ptrs += BLOCK_K * N
    else:
        acc = tl.dot(tl.load(x_ptrs), tl.load(y_ptrs), max_num_imprecise_acc=MAX_IMPRECISE)
    tl.store(z_ptr + offs_m[:, None] * N + offs_n[None, :], acc)


@triton.jit
def eviction_policy_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr, LOAD_POLICY: tl.constexpr,
                           STORE_POLICY: tl.constexpr, BLOCK_PTR: tl.constexpr):
    # test_store_eviction_policy: y = 2x with eviction policies on the load and the store
    # (masked accesses of pointer blocks, or block pointers), which the NVIDIA lowering
    # once dropped.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if BLOCK_PTR:
        xb = tl.make_block_ptr(x_ptr, (N, ), (1, ), (tl.program_id(0) * BLOCK, ), (BLOCK, ), (0, ))
        yb = tl.make_block_ptr(y_ptr, (N, ), (1, ), (tl.program_id(0) * BLOCK, ), (BLOCK, ), (0, ))
        x = tl.load(xb, boundary_check=(0, ), eviction_policy=LOAD_POLICY)
        tl.store(yb, x * 2, boundary_check=(0, ), eviction_policy=STORE_POLICY)
    else:
        x = tl.load(x_ptr + offs, mask=offs < N, eviction_policy=LOAD_POLICY)
        tl.store(y_ptr + offs, x * 2, mask=offs < N, eviction_policy=STORE_POLICY)
