# The parts of the Triton 3.6 language beyond the tutorials that Triton's own test_core.py
# and real kernel libraries use: histograms, gathers, map_elementwise, item(), atomic_cas
# on floats, N-D dots, getattr/hasattr in kernels, tl.condition, tl.extra.cuda helpers,
# and plain Python / constexpr_function helpers run at compile time.
import triton
import triton.language as tl


@triton.jit
def histogram_kernel(X, Z, n, M: tl.constexpr, N: tl.constexpr, MASKED: tl.constexpr):
    offs = tl.arange(0, M)
    if MASKED:
        mask = offs < n
        x = tl.load(X + offs, mask=mask, other=0)
        z = tl.histogram(x, N, mask)
    else:
        x = tl.load(X + offs)
        z = x.histogram(N)
    # the histogram broadcasts like any [N] tensor
    biased = z + tl.full([M, N], 1, dtype=tl.int32)
    tl.store(Z + tl.arange(0, N), z + tl.sum(biased, axis=0) - M - z * M)


@triton.jit
def gather_kernel(Src, Idx, Out, AXIS: tl.constexpr, N: tl.constexpr, M: tl.constexpr, K: tl.constexpr):
    # Src is N x M; Idx and Out are N x K (AXIS=1) or K x M (AXIS=0)
    rs = tl.arange(0, N)
    cs = tl.arange(0, M)
    src = tl.load(Src + rs[:, None] * M + cs[None, :])
    if AXIS == 0:
        ri = tl.arange(0, K)
        offs = ri[:, None] * M + cs[None, :]
    else:
        ci = tl.arange(0, K)
        offs = rs[:, None] * K + ci[None, :]
    idx = tl.load(Idx + offs)
    tl.store(Out + offs, tl.gather(src, idx, AXIS))


@triton.jit
def cas_item_kernel(Lock, Data, dtype: tl.constexpr):
    # item() turns a one-element tensor into a scalar; the lock serializes the programs
    num0 = tl.full((1, ), 0, dtype=dtype).item()
    num1 = tl.full((1, ), 1, dtype=dtype).item()
    while tl.atomic_cas(Lock, num0, num1) == 1:
        pass
    tl.store(Data, tl.load(Data) + 1.0)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, num0)


@triton.jit
def cas_tensor_kernel(X, Old, BLOCK: tl.constexpr, dtype: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    zero = tl.full((BLOCK, ), 0, dtype=dtype)
    two = tl.full((BLOCK, ), 2, dtype=dtype)
    old = tl.atomic_cas(X + offs, zero, two, sem="acq_rel")
    tl.store(Old + offs, old)


@triton.jit
def interleave_scalars_kernel(X, Y, Z):
    z = tl.interleave(X, Y)
    tl.static_assert(z.shape == [tl.constexpr(2)])
    tl.store(Z + tl.arange(0, 2), z)


@triton.jit
def compare(x, y):
    if x < y:
        return -1
    elif x == y:
        return 0
    else:
        return 1


@triton.jit
def divmod2(a0, a1, b0, b1):
    return a0 // b0, a1 // b1, a0 % b0, a1 % b1


@triton.jit
def map_elementwise_kernel(A, B, C, D, BLOCK: tl.constexpr, PACK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    if PACK == 1:
        tl.store(C + offs, tl.map_elementwise(compare, a, b))
        tl.store(D + offs, tl.map_elementwise(compare, a, 0))
    else:
        c, d = tl.map_elementwise(divmod2, a, b, pack=PACK)
        tl.store(C + offs, c)
        tl.store(D + offs, d)


@triton.jit
def dot_multidim_kernel(X, Y, Z, RANK: tl.constexpr, TRANS_A: tl.constexpr, TRANS_B: tl.constexpr):
    x = tl.load(X + tl.arange(0, 256 << RANK)).reshape([2] * (RANK - 2) + [32, 32])
    y = tl.load(Y + tl.arange(0, 256 << RANK)).reshape([2] * (RANK - 2) + [32, 32])
    if TRANS_A:
        x = tl.trans(x)
    if TRANS_B:
        y = tl.trans(y)
    z = tl.dot(x, y)
    tl.store(Z + tl.arange(0, 256 << RANK), z.reshape([256 << RANK]))


@triton.jit
def floordiv_scalar_kernel(Z, X, y: tl.constexpr, SIZE: tl.constexpr):
    off = tl.arange(0, SIZE)
    tl.store(Z + off, tl.load(X + off) // y)


@triton.jit
def unsplat_kernel(X, EXPLICIT: tl.constexpr):
    condition = tl.load(X + tl.arange(0, 1)) > 42
    if EXPLICIT:
        condition = condition.item()
    if condition:
        tl.store(X, 42)


@triton.jit
def condition_kernel(Out, n, DISABLE_LICM: tl.constexpr):
    i = 0
    acc = 0
    while tl.condition(i < n, disable_licm=DISABLE_LICM):
        i = i + 1
        acc += i
    tl.store(Out, acc)


@triton.jit
def num_threads_kernel(Out):
    num_threads: tl.constexpr = tl.extra.cuda.num_threads()
    offs = tl.arange(0, num_threads)
    tl.store(Out + offs, offs + tl.extra.cuda.num_warps())


@triton.jit
def propagate_nan_kernel(A, B, C, PROPAGATE_NAN: tl.constexpr, FUNC: tl.constexpr):
    offs = tl.arange(0, 4)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    if FUNC == 'clamp':
        c = getattr(tl, FUNC)(a, -b, b, propagate_nan=getattr(tl.PropagateNan, PROPAGATE_NAN))
    else:
        c = getattr(tl, FUNC)(a, b, propagate_nan=getattr(tl.PropagateNan, PROPAGATE_NAN))
    tl.store(C + offs, tl.where(c != c, 12345.0, c))  # NaN as a number the check can compare


@triton.jit
def short_circuiting_kernel(x):
    if (x is not None) and hasattr(x, "dtype") and isinstance(
            x.dtype, tl.pointer_type) and (x.dtype.element_ty == tl.int32) and (tl.load(x) > 42):
        tl.store(x, 42)


def block_for(dtype):
    # an undecorated helper: Triton runs it at compile time on the dtype
    if dtype.is_fp16() or dtype.is_bf16():
        return 128
    return 64


@tl.constexpr
def width_of(dtype):
    return dtype.primitive_bitwidth


@triton.constexpr_function
def acc_type(dtype):
    if dtype.is_int():
        return tl.int32 if dtype.is_int_signed() else tl.uint32
    if dtype.is_floating() and dtype.fp_mantissa_width < 23:
        return tl.float32
    return dtype


@triton.constexpr_function
def log2_of(n):
    k = 0
    while (1 << k) < n:
        k += 1
    return k


@triton.constexpr_function
def sum_below(n):
    s = 0
    for i in range(n):
        s += i
    return s


@triton.jit
def compile_time_kernel(X, Y, N, A: tl.constexpr):
    BLOCK: tl.constexpr = block_for(X.dtype.element_ty)
    W: tl.constexpr = width_of(X.dtype.element_ty)
    T: tl.constexpr = acc_type(X.dtype.element_ty)
    P: tl.constexpr = triton.next_power_of_2(A)
    C: tl.constexpr = triton.cdiv(A, 3)
    L: tl.constexpr = log2_of(P)
    S: tl.constexpr = sum_below(4)
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=0).to(T)
    y = x + (W + C + L + S)
    if Y:  # a pointer is true when it is not null
        tl.store(Y + offs, y.to(Y.dtype.element_ty), mask=offs < N)


@triton.jit
def maybe_value(x, flag):
    if flag:
        return x + 1
    # running off the end returns poison (an unspecified value) of the other return's type


@triton.jit
def poison_return_kernel(Out, flag):
    v = maybe_value(tl.load(Out), flag)
    if flag:
        tl.store(Out, v)


@triton.jit
def sort_kernel(X, Z, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, DESCENDING: tl.constexpr, MODE: tl.constexpr):
    # MODE: 'sort', 'topk' (the K largest of each row, in descending order) or 'flip'
    rows = tl.arange(0, M)
    x = tl.load(X + rows[:, None] * N + tl.arange(0, N)[None, :])
    if MODE == 'sort':
        tl.store(Z + rows[:, None] * N + tl.arange(0, N)[None, :], tl.sort(x, descending=DESCENDING))
    elif MODE == 'topk':
        tl.store(Z + rows[:, None] * K + tl.arange(0, K)[None, :], tl.topk(x, K))
    else:
        tl.store(Z + rows[:, None] * N + tl.arange(0, N)[None, :], x.flip(1))


@triton.jit
def timer_kernel(Out, Work, func: tl.constexpr):
    # func is tl.extra.cuda.globaltimer, passed as a constexpr; Out[pid] says whether the
    # clock did not run backwards and the SM id is valid
    start = func()
    off = tl.arange(0, 128)
    for i in range(100):
        tl.store(Work + off, tl.load(Work + off) + 1)
    end = func()
    ok = (end >= start) & (tl.extra.cuda.smid() >= 0)
    tl.store(Out + tl.program_id(0), ok.to(tl.int32))
