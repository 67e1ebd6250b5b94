# gotriton's prelude: the parts of triton.language that Triton itself writes as @triton.jit
# code (random.py, and sort, topk, bitonic_merge and flip of standard.py), written again here in the Triton language so that the generated IR is
# the same arithmetic, inlined at each call. Philox 4x32-10 / 4x64 as in Salmon et al.,
# "Parallel random numbers: as easy as 1, 2, 3" (SC'11).
import triton
import triton.language as tl


@triton.jit
def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds: tl.constexpr = 10):
    if c0.dtype == tl.uint32:
        WEYL_0: tl.constexpr = 0x9E3779B9
        WEYL_1: tl.constexpr = 0xBB67AE85
        MUL_0: tl.constexpr = 0xD2511F53
        MUL_1: tl.constexpr = 0xCD9E8D57
    else:
        tl.static_assert(c0.dtype == tl.uint64, "dtype not supported in philox_impl")
        WEYL_0: tl.constexpr = 0x9E3779B97F4A7C15
        WEYL_1: tl.constexpr = 0xBB67AE8584CAA73B
        MUL_0: tl.constexpr = 0xD2E7470EE14C6C93
        MUL_1: tl.constexpr = 0xCA5A826395121157
    for _ in tl.static_range(n_rounds):
        old0 = c0
        old2 = c2
        c0 = tl.umulhi(MUL_1, old2) ^ c1 ^ k0
        c2 = tl.umulhi(MUL_0, old0) ^ c3 ^ k1
        # wrapping by design: no overflow check under debug, as in Triton's random.py
        c1 = tl.mul(MUL_1, old2, sanitize_overflow=False)
        c3 = tl.mul(MUL_0, old0, sanitize_overflow=False)
        k0 = tl.add(k0, WEYL_0, sanitize_overflow=False)
        k1 = tl.add(k1, WEYL_1, sanitize_overflow=False)
    return c0, c1, c2, c3


@triton.jit
def philox(seed, c0, c1, c2, c3, n_rounds: tl.constexpr = 10):
    seed = tl.to_tensor(seed)
    tl.static_assert(seed.dtype.is_int())
    seed = seed.to(tl.uint64)
    c0 = tl.to_tensor(c0)
    c1 = tl.to_tensor(c1)
    c2 = tl.to_tensor(c2)
    c3 = tl.to_tensor(c3)
    if c0.dtype.primitive_bitwidth == 32:
        word = tl.uint32
        key_hi = ((seed >> 32) & 0xffffffff).to(tl.uint32)
        key_lo = (seed & 0xffffffff).to(tl.uint32)
    else:
        tl.static_assert(c0.dtype.primitive_bitwidth == 64, "bitwidth not supported in philox")
        word = tl.uint64
        key_hi = tl.full((1, ), 0, dtype=word)
        key_lo = seed
    c0 = c0.to(word, bitcast=True)
    c1 = c1.to(word, bitcast=True)
    c2 = c2.to(word, bitcast=True)
    c3 = c3.to(word, bitcast=True)
    return philox_impl(c0, c1, c2, c3, key_lo, key_hi, n_rounds)


@triton.jit
def randint4x(seed, offset, n_rounds: tl.constexpr = 10):
    lo = offset.to(tl.uint32)
    zero = lo * 0
    if offset.dtype.primitive_bitwidth > 32:
        hi = (offset >> 32).to(tl.uint32)
    else:
        hi = zero
    return philox(seed, lo, hi, zero, zero, n_rounds)


@triton.jit
def randint(seed, offset, n_rounds: tl.constexpr = 10):
    r0, r1, r2, r3 = randint4x(seed, offset, n_rounds)
    return r0


@triton.jit
def uint_to_uniform_float(x):
    if x.dtype == tl.uint32 or x.dtype == tl.int32:
        x = x.to(tl.int32, bitcast=True)
        scale = 4.6566127342e-10
    else:
        tl.static_assert(x.dtype == tl.uint64 or x.dtype == tl.int64)
        x = x.to(tl.int64, bitcast=True)
        scale = 1.0842020432385337e-19
    x = tl.where(x < 0, -x - 1, x)
    return x * scale


@triton.jit
def rand(seed, offset, n_rounds: tl.constexpr = 10):
    bits = randint(seed, offset, n_rounds)
    return uint_to_uniform_float(bits)


@triton.jit
def rand4x(seed, offsets, n_rounds: tl.constexpr = 10):
    i1, i2, i3, i4 = randint4x(seed, offsets, n_rounds)
    return uint_to_uniform_float(i1), uint_to_uniform_float(i2), uint_to_uniform_float(i3), uint_to_uniform_float(i4)


@triton.jit
def pair_uniform_to_normal(u1, u2):
    u1 = tl.maximum(1.0e-7, u1)
    th = 6.283185307179586 * u2
    r = tl.sqrt(-2.0 * tl.log(u1))
    return r * tl.cos(th), r * tl.sin(th)


@triton.jit
def randn(seed, offset, n_rounds: tl.constexpr = 10):
    i1, i2, i3, i4 = randint4x(seed, offset, n_rounds)
    n1, n2 = pair_uniform_to_normal(uint_to_uniform_float(i1), uint_to_uniform_float(i2))
    return n1


@triton.jit
def randn4x(seed, offset, n_rounds: tl.constexpr = 10):
    u1, u2, u3, u4 = rand4x(seed, offset, n_rounds)
    n1, n2 = pair_uniform_to_normal(u1, u2)
    n3, n4 = pair_uniform_to_normal(u3, u4)
    return n1, n2, n3, n4


@triton.jit
def swizzle2d(i, j, size_i, size_j, size_g):
    ij = i * size_j + j
    size_gj = size_g * size_j
    group_id = ij // size_gj
    off_i = group_id * size_g
    size_g = tl.minimum(size_i - off_i, size_g)
    ij = ij % size_gj
    new_i = off_i + ij % size_g
    new_j = ij // size_g
    return new_i, new_j


# ---- bitonic sorting and flipping ----
# A tensor of 2**n elements is viewed as an n-dimensional hypercube of 2s. The element
# across a size-2 axis is found without data movement: a ^ (a ^ b) = b, where a ^ b is the
# xor-reduction of the axis' two bit patterns. The helpers without @triton.jit run at
# compile time.


def _exponent(n):
    # log2 of a power of two
    e = 0
    while (1 << e) < n:
        e += 1
    return e


def _signed_int_of(bits):
    if bits == 8:
        return tl.int8
    if bits == 16:
        return tl.int16
    if bits == 32:
        return tl.int32
    return tl.int64


def _unit_shape(ndims, axis):
    # 2 on the axis-th innermost dimension, 1 elsewhere
    return [1] * (ndims - axis - 1) + [2] + [1] * axis


def _cube(ndims):
    if ndims == 0:
        return [1]
    return [2] * ndims


def _minor_dim(dim, shape):
    if dim is None:
        return len(shape) - 1
    if dim < 0:
        return dim + len(shape)
    return dim


@triton.jit
def _across(x, axis: tl.constexpr):
    # the element on the other side of the size-2 axis
    bits = x.to(_signed_int_of(x.dtype.primitive_bitwidth), bitcast=True)
    other = bits ^ tl.xor_sum(bits, axis, True)
    return other.to(x.dtype, bitcast=True)


@triton.jit
def _side(ndims: tl.constexpr, axis: tl.constexpr):
    # 0 on the first and 1 on the second position of the axis-th innermost dimension
    return tl.reshape(tl.arange(0, 2), _unit_shape(ndims, axis))


@triton.jit
def _exchange(x, down, axis: tl.constexpr):
    # compare-exchange with the partner across the axis-th innermost dimension; down
    # selects a descending order (a tensor for alternating orders)
    ndims: tl.constexpr = _exponent(x.numel)
    y = _across(x, ndims - 1 - axis)
    right = _side(ndims, axis)
    return tl.where((x > y) != (down ^ right), y, x)


@triton.jit
def _merge_cube(h, stage: tl.constexpr, order: tl.constexpr):
    # one bitonic merge stage; order 0 ascending, 1 descending, 2 alternating
    if order == 2:
        down = _side(_exponent(h.numel), stage)
    else:
        down = order
    for s in tl.static_range(stage):
        h = _exchange(h, down, stage - 1 - s)
    return h


@triton.jit
def _sort_minor(x, k: tl.constexpr, dim: tl.constexpr, descending: tl.constexpr):
    D: tl.constexpr = len(x.shape) - 1 if dim is None else dim
    tl.static_assert(D == len(x.shape) - 1, "only minor dimension is currently supported")
    LOG_N: tl.constexpr = _exponent(x.shape[D])
    LOG_K: tl.constexpr = LOG_N if k is None else _exponent(k)
    h = tl.reshape(x, _cube(_exponent(x.numel)))
    for i in tl.static_range(1, LOG_K + 1):
        h = _merge_cube(h, i, 2 if i < LOG_N else descending)
    # keep the better half of each pair of sorted runs until k remain (bitonic top-k)
    for i in tl.static_range(LOG_K + 1, LOG_N + 1):
        if descending:
            h = tl.max(h, axis=_exponent(h.numel) - 1 - LOG_K)
        else:
            h = tl.min(h, axis=_exponent(h.numel) - 1 - LOG_K)
        h = _merge_cube(h, LOG_K, 2 if i < LOG_N else descending)
    return tl.reshape(h, x.shape[:-1] + [2**LOG_K])


@triton.jit
def sort(x, dim: tl.constexpr = None, descending: tl.constexpr = 0):
    return _sort_minor(x, None, dim, descending)


@triton.jit
def topk(x, k: tl.constexpr, dim: tl.constexpr = None):
    return _sort_minor(x, k, dim, True)


@triton.jit
def bitonic_merge(x, dim: tl.constexpr = None, descending: tl.constexpr = 0):
    D: tl.constexpr = len(x.shape) - 1 if dim is None else dim
    tl.static_assert(D == len(x.shape) - 1, "only minor dimension is currently supported")
    h = tl.reshape(x, _cube(_exponent(x.numel)))
    h = _merge_cube(h, _exponent(x.shape[-1]), descending)
    return tl.reshape(h, x.shape)


@triton.jit
def flip(x, dim=None):
    D: tl.constexpr = _minor_dim(dim, x.shape)
    tl.static_assert(0 <= D and D < len(x.shape))
    STEPS: tl.constexpr = _exponent(x.shape[D])
    tl.static_assert(x.shape[D] == 2**STEPS)
    bits = x.to(_signed_int_of(x.dtype.primitive_bitwidth), bitcast=True)
    # on a cube of 2s along D, xor-ing each pair with its xor swaps it: all swaps reverse D
    y = tl.reshape(bits, x.shape[:D] + [2] * STEPS + x.shape[D + 1:])
    for i in tl.static_range(STEPS):
        y = y ^ tl.xor_sum(y, D + i, True)
    return tl.reshape(y, x.shape).to(x.dtype, bitcast=True)
