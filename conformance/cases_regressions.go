package conformance

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Cases over conformance/kernels/regressions.py: kernels that Triton's own test_core.py
// found computing wrong values, one case per bug so that CI keeps each fixed.

// regressionCases returns the cases of regressions.py.
func regressionCases() []Case {
	k := ours("regressions")
	var cs []Case
	for _, op := range []string{"max", "min", "sum"} {
		for _, sh := range [][3]int{{32, 512, 2}, {64, 1024, 4}} {
			cs = append(cs, threadLocalityCase(k, op, sh[0], sh[1], sh[2]))
		}
	}
	cs = append(cs, shiftRightCase(k))
	for _, d := range dotSpecs {
		cs = append(cs, dotCase(k, d))
	}
	cs = append(cs, splitScalarCase(k))
	for _, c := range []Case{inlineAsmPackedCase(k), inlineAsmPackedOutputsCase(k), inlineAsmPointersCase(k)} {
		c.NoCPU = "the CPU interpreter does not execute inline PTX"
		cs = append(cs, c)
	}
	cs = append(cs, keepDimsSumCase(k), voidTernaryCase(k))
	for _, d := range impreciseSpecs {
		cs = append(cs, impreciseAccCase(k, d))
	}
	for _, p := range [][2]string{{"", ""}, {"evict_last", "evict_first"}, {"evict_first", "evict_last"}} {
		for _, blockPtr := range []bool{false, true} {
			cs = append(cs, evictionPolicyCase(k, p[0], p[1], blockPtr))
		}
	}
	return cs
}

// randomBytes is a uint8 tensor of n random bytes.
func randomBytes(rng *rand.Rand, n int) *Tensor {
	x := zeros(U8, n)
	for i := range x.Data {
		x.Data[i] = float64(rng.IntN(256))
	}
	return x
}

// shiftedBytes is x << 3 of each byte, modulo 256.
func shiftedBytes(x *Tensor) []float64 {
	want := make([]float64, len(x.Data))
	for i, v := range x.Data {
		want[i] = float64(int(v) << 3 & 0xff)
	}
	return want
}

// inlineAsmPackedCase: inline_asm_packed_kernel shifts 512 bytes left by 3, four to an asm
// call.
func inlineAsmPackedCase(k kernelRef) Case {
	return k.cas("inline_asm_packed_kernel", func(rng *rand.Rand) *Problem {
		x := randomBytes(rng, 512)
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "y": output(U8, 512)},
			Steps:   oneStep("inline_asm_packed_kernel", [3]int{1, 1, 1}, 4, Ptr("x"), Ptr("y"), Const(512)),
			Checks:  []Check{{Tensor: "y", Want: shiftedBytes(x)}},
		}
	})
}

// inlineAsmPackedOutputsCase: inline_asm_packed_outputs_kernel gives c = int32(a) and
// d = max(float(a), b) for 512 bytes a and floats b.
func inlineAsmPackedOutputsCase(k kernelRef) Case {
	return k.cas("inline_asm_packed_outputs_kernel", func(rng *rand.Rand) *Problem {
		a, b := randomBytes(rng, 512), randn(rng, FP32, 200, 512)
		d := make([]float64, 512)
		for i := range d {
			d[i] = math.Max(a.Data[i], b.Data[i])
		}
		return &Problem{
			Tensors: map[string]*Tensor{"a": a, "b": b, "c": output(I32, 512), "d": output(FP32, 512)},
			Steps:   oneStep("inline_asm_packed_outputs_kernel", [3]int{1, 1, 1}, 4, Ptr("a"), Ptr("b"), Ptr("c"), Ptr("d"), Const(512)),
			Checks:  []Check{{Tensor: "c", Want: a.Data}, {Tensor: "d", Want: d}},
		}
	})
}

// inlineAsmPointersCase: inline_asm_pointers_kernel loads, shifts and stores 512 bytes
// inside the asm, through its pointer operands.
func inlineAsmPointersCase(k kernelRef) Case {
	return k.cas("inline_asm_pointers_kernel", func(rng *rand.Rand) *Problem {
		x := randomBytes(rng, 512)
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "y": zeros(U8, 512)},
			Steps:   oneStep("inline_asm_pointers_kernel", [3]int{1, 1, 1}, 4, Ptr("x"), Ptr("y"), Const(512)),
			Checks:  []Check{{Tensor: "y", Want: shiftedBytes(x)}},
		}
	})
}

// splitScalarCase: split_scalar_kernel(x, z1, z2) with x = [-7, 2^40] (int64) stores
// each half.
func splitScalarCase(k kernelRef) Case {
	return k.cas("split_scalar_kernel", func(*rand.Rand) *Problem {
		return &Problem{
			Tensors: map[string]*Tensor{"x": fromData(I64, []float64{-7, 1 << 40}, 2), "z1": output(I64, 1), "z2": output(I64, 1)},
			Steps:   oneStep("split_scalar_kernel", [3]int{1, 1, 1}, 4, Ptr("x"), Ptr("z1"), Ptr("z2")),
			Checks:  []Check{{Tensor: "z1", Want: []float64{-7}}, {Tensor: "z2", Want: []float64{1 << 40}}},
		}
	})
}

// dotSpec is one tl.dot case: dot_kernel (b = 0) or dot3d_kernel (b batches) with in
// blocks into out (outName: the out_dtype constexpr; prec the input_precision, "" for the
// kernel's ieee). cancel gives fp16 inputs whose products cancel within each run of 16 K
// (k16, one mma.sync): 1024, fourteen small ones, -1024. Summed exactly they leave the small
// ones, which summing in fp16 one product at a time loses (1024 + 0.375 is 1024).
type dotSpec struct {
	in, out        DType
	outName, prec  string
	b, m, n, kk, w int
	cancel         bool
}

// dotSpecs are test_dot's and test_dot3d's dtypes and shapes (test_dot3d's fp16 into fp16
// failure: 2 batches of 32x64 by 64x32, one element of 8192 off), and blocks smaller than
// one 16x8 mma tile.
var dotSpecs = []dotSpec{
	{in: FP16, out: FP32, outName: "tl.float32", b: 2, m: 32, n: 32, kk: 32, w: 4},
	{in: FP32, out: FP32, outName: "tl.float32", b: 4, m: 16, n: 32, kk: 16, w: 1},
	{in: I8, out: I32, outName: "tl.int32", b: 1, m: 32, n: 16, kk: 64, w: 2},
	{in: FP16, out: FP16, outName: "tl.float16", b: 2, m: 32, n: 32, kk: 64, w: 4},
	{in: FP16, out: FP16, outName: "tl.float16", b: 2, m: 32, n: 32, kk: 64, w: 4, cancel: true},
	{in: FP16, out: FP16, outName: "tl.float16", b: 2, m: 32, n: 32, kk: 64, w: 16, cancel: true},
	{in: FP16, out: FP16, outName: "tl.float16", b: 8, m: 32, n: 32, kk: 32, w: 1, cancel: true},
	{in: FP16, out: FP16, outName: "tl.float16", b: 4, m: 64, n: 64, kk: 64, w: 4, cancel: true},
	{in: FP32, out: FP32, outName: "tl.float32", prec: "tf32", b: 2, m: 32, n: 32, kk: 32, w: 8},
	{in: I8, out: I32, outName: "tl.int8", b: 4, m: 32, n: 32, kk: 64, w: 8},
	{in: I8, out: I32, outName: "tl.int8", b: 1, m: 64, n: 64, kk: 64, w: 16},
	{in: FP16, out: FP16, outName: "tl.float16", m: 32, n: 32, kk: 32, w: 4},
	{in: FP16, out: FP16, outName: "tl.float16", m: 64, n: 64, kk: 64, w: 4, cancel: true},
	{in: FP16, out: FP16, outName: "tl.float16", m: 128, n: 64, kk: 32, w: 8, cancel: true},
	{in: I8, out: I32, outName: "tl.int8", m: 64, n: 128, kk: 128, w: 4},
	{in: I8, out: I32, outName: "tl.int8", m: 16, n: 8, kk: 32, w: 1},
	{in: FP8E5, out: FP32, outName: "tl.float32", m: 1, n: 2, kk: 32, w: 1},
	{in: FP8E4NV, out: FP32, outName: "tl.float32", m: 32, n: 16, kk: 32, w: 4},
	{in: FP8E5, out: FP16, outName: "tl.float16", m: 32, n: 32, kk: 32, w: 4},
	{in: FP16, out: FP32, outName: "tl.float32", m: 2, n: 4, kk: 32, w: 1},
	{in: FP32, out: FP32, outName: "tl.float32", prec: "tf32", m: 8, n: 4, kk: 16, w: 2},
}

// dotCase: dot_kernel(x, y, z, M, N, K, out[, prec]) with z = x @ y, or
// dot3d_kernel(q, k, o, B, M, N, K, out[, prec]) with o[b] = q[b] @ k[b].
func dotCase(k kernelRef, d dotSpec) Case {
	kernel, dims, lead := "dot_kernel", fmt.Sprintf("%dx%dx%d", d.m, d.n, d.kk), []int{}
	B := max(d.b, 1)
	if d.b > 0 {
		kernel, dims, lead = "dot3d_kernel", fmt.Sprintf("%dx%s", d.b, dims), []int{d.b}
	}
	name := fmt.Sprintf("%s/%s->%s/%s/w%d", kernel, d.in, d.out, dims, d.w)
	if d.prec != "" {
		name += "/" + d.prec
	}
	if d.cancel {
		name += "/cancel"
	}
	shape := func(r, c int) []int { return append(slices.Clone(lead), r, c) }
	return k.cas(name, func(rng *rand.Rand) *Problem {
		var q, kt *Tensor
		switch {
		case d.in == I8:
			q, kt = uniform(rng, I8, -128, 128, shape(d.m, d.kk)...), uniform(rng, I8, -128, 128, shape(d.kk, d.n)...)
			for _, t := range []*Tensor{q, kt} {
				for i := range t.Data {
					t.Data[i] = min(math.Floor(t.Data[i]), 127)
				}
			}
		case d.cancel:
			q, kt = zeros(d.in, shape(d.m, d.kk)...), zeros(d.in, shape(d.kk, d.n)...)
			for i := range q.Data {
				switch i % 16 { // K is the last dimension
				case 0:
					q.Data[i] = 1024
				case 15:
					q.Data[i] = -1024
				default:
					q.Data[i] = 0.125
				}
			}
			for i := range kt.Data {
				row, col := i/d.n%d.kk, i%d.n // K is the second to last dimension
				kt.Data[i] = 1
				if row%16 != 0 && row%16 != 15 {
					kt.Data[i] = float64(1 + col%3)
				}
			}
		default:
			q, kt = uniform(rng, d.in, -4, 4, shape(d.m, d.kk)...), uniform(rng, d.in, -4, 4, shape(d.kk, d.n)...)
		}
		o := make([]float64, B*d.m*d.n)
		for b := range B {
			for m := range d.m {
				for n := range d.n {
					for x := range d.kk {
						o[(b*d.m+m)*d.n+n] += q.Data[(b*d.m+m)*d.kk+x] * kt.Data[(b*d.kk+x)*d.n+n]
					}
				}
			}
		}
		args := []Arg{Ptr("q"), Ptr("k"), Ptr("o")}
		if d.b > 0 {
			args = append(args, Const(d.b))
		}
		args = append(args, Const(d.m), Const(d.n), Const(d.kk), Const(d.outName))
		check := Check{Tensor: "o", Want: o}
		if d.prec != "" {
			args = append(args, Str(d.prec))
			check.Tol = TF32Tolerance
		}
		return &Problem{
			Tensors: map[string]*Tensor{"q": q, "k": kt, "o": output(d.out, shape(d.m, d.n)...)},
			Steps:   []Step{{Kernel: kernel, Args: args, Grid: [3]int{1, 1, 1}, NumWarps: d.w, NumStages: 3}},
			Checks:  []Check{check},
		}
	})
}

// threadLocalityCase: thread_locality_kernel(x, y, N, 32, blockN, op) on a 32 x N input
// over a (1, programs, 1) grid; y[m, p] folds the columns of every block p, p+programs, ...
func threadLocalityCase(k kernelRef, op string, blockN, N, programs int) Case {
	const M = 32
	return k.cas(fmt.Sprintf("thread_locality_kernel/%s/BLOCK_N=%d/N=%d/programs=%d", op, blockN, N, programs), func(rng *rand.Rand) *Problem {
		x := randn(rng, FP32, 1, M, N)
		y := make([]float64, M*programs)
		for m := range M {
			for p := range programs {
				acc := map[string]float64{"max": math.Inf(-1), "min": math.Inf(1), "sum": 0}[op]
				for c := 0; c < N; c++ {
					if (c/blockN)%programs != p {
						continue
					}
					v := x.Data[m*N+c]
					switch op {
					case "max":
						acc = math.Max(acc, v)
					case "min":
						acc = math.Min(acc, v)
					default:
						acc += v
					}
				}
				y[m*programs+p] = acc
			}
		}
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "y": output(FP32, M, programs)},
			Steps: []Step{{Kernel: "thread_locality_kernel", Args: []Arg{Ptr("x"), Ptr("y"), Int(N), Const(M), Const(blockN), Str(op)},
				Grid: [3]int{1, programs, 1}, NumWarps: 4, NumStages: 3}},
			Checks: []Check{{Tensor: "y", Want: y}},
		}
	})
}

// shiftRightCase: shift_right_kernel(z, x, y, 128) with int8 x (negative values too),
// uint64 y in [0, 64) and z = x >> y, an arithmetic shift stored as int64.
func shiftRightCase(k kernelRef) Case {
	const size = 128
	return k.cas("shift_right_kernel/i8>>u64", func(rng *rand.Rand) *Problem {
		x, y := zeros(I8, size), zeros(U64, size)
		z := make([]float64, size)
		for i := range size {
			xv, yv := int64(rng.IntN(256)-128), rng.IntN(64)
			x.Data[i], y.Data[i] = float64(xv), float64(yv)
			z[i] = float64(xv >> yv)
		}
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "y": y, "z": output(I64, size)},
			Steps: []Step{{Kernel: "shift_right_kernel", Args: []Arg{Ptr("z"), Ptr("x"), Ptr("y"), Const(size)},
				Grid: [3]int{1, 1, 1}, NumWarps: 4, NumStages: 3}},
			Checks: []Check{{Tensor: "z", Want: z}},
		}
	})
}

// keepDimsSumCase: keep_dims_sum_kernel(x, z, 32, 16) stores the sum of a 32 x 16 block of
// small integers (exact in fp32) through z[None, None, :], a [1, 1] block of pointers.
func keepDimsSumCase(k kernelRef) Case {
	const M, N = 32, 16
	return k.cas("keep_dims_sum_kernel/32x16", func(rng *rand.Rand) *Problem {
		x := zeros(FP32, M, N)
		sum := 0.0
		for i := range x.Data {
			x.Data[i] = float64(rng.IntN(9) - 4)
			sum += x.Data[i]
		}
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "z": output(FP32, 1, 1)},
			Steps: []Step{{Kernel: "keep_dims_sum_kernel", Args: []Arg{Ptr("x"), Ptr("z"), Const(M), Const(N)},
				Grid: [3]int{1, 1, 1}, NumWarps: 4, NumStages: 3}},
			Checks: []Check{{Tensor: "z", Want: []float64{sum}}},
		}
	})
}

// voidTernaryCase: void_ternary_kernel(x, y, out) over 8 programs; program p stores x[p]
// when p is even, else y[p].
func voidTernaryCase(k kernelRef) Case {
	const programs = 8
	return k.cas("void_ternary_kernel/8", func(rng *rand.Rand) *Problem {
		x, y := randn(rng, FP32, 1, programs), randn(rng, FP32, 1, programs)
		want := make([]float64, programs)
		for p := range programs {
			want[p] = y.Data[p]
			if p%2 == 0 {
				want[p] = x.Data[p]
			}
		}
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "y": y, "out": output(FP32, programs)},
			Steps: []Step{{Kernel: "void_ternary_kernel", Args: []Arg{Ptr("x"), Ptr("y"), Ptr("out")},
				Grid: [3]int{programs, 1, 1}, NumWarps: 1, NumStages: 3}},
			Checks: []Check{{Tensor: "out", Want: want}},
		}
	})
}

// impreciseSpec is one imprecise_acc_kernel case: in by in into fp32, z [m, n] = x [m, kk]
// @ y [kk, n] in blocks of bm x bn (a grid of them) and K steps of bk, looped or one dot
// (kk = bk); max is max_num_imprecise_acc (nil: not given). cancel gives x and y whose
// products cancel within each 64 of K: in the first 32 small non-negative ones (sums S
// below 32), then +2^30 at 32 and -2^30 at 48. Summed in one f32 accumulator, 2^30 swallows
// S; with partial accumulators of 32 (max 32 on sm_90), S is added before 2^30 - 2^30.
type impreciseSpec struct {
	in                   DType
	max                  any
	m, n, kk, bm, bn, bk int
	loop, cancel         bool
}

// impreciseSpecs are test_dot_max_num_imprecise_acc's dtypes, blocks and limits (32, 64,
// 0 and none given), the cancelling inputs that need the split, looped and as one dot
// into a zero accumulator.
var impreciseSpecs = []impreciseSpec{
	{in: FP8E5, max: 32, m: 128, n: 128, kk: 256, bm: 64, bn: 64, bk: 64, loop: true},
	{in: FP8E4NV, max: 64, m: 128, n: 128, kk: 256, bm: 64, bn: 64, bk: 64, loop: true},
	{in: FP8E5, max: 64, m: 64, n: 64, kk: 256, bm: 64, bn: 64, bk: 128, loop: true},
	{in: FP8E4NV, max: 0, m: 64, n: 128, kk: 128, bm: 64, bn: 64, bk: 64, loop: true},
	{in: FP8E5, max: nil, m: 64, n: 128, kk: 128, bm: 64, bn: 64, bk: 64, loop: true},
	{in: FP8E5, max: 32, m: 64, n: 64, kk: 128, bm: 64, bn: 64, bk: 64, loop: true, cancel: true},
	{in: FP8E5, max: 32, m: 64, n: 64, kk: 64, bm: 64, bn: 64, bk: 64, cancel: true},
}

// impreciseAccCase: imprecise_acc_kernel(x, y, z, N, K, bm, bn, bk, max, loop) over a
// (m/bm, n/bn) grid of 8 warps, z = x @ y.
func impreciseAccCase(k kernelRef, d impreciseSpec) Case {
	max := Const(d.max)
	name := fmt.Sprintf("imprecise_acc_kernel/%s/%dx%dx%d/%dx%dx%d/max=%s", d.in, d.m, d.n, d.kk, d.bm, d.bn, d.bk, max.Const)
	if !d.loop {
		name += "/one-dot"
	}
	if d.cancel {
		name += "/cancel"
	}
	// wgmma (sm_90a) sums fp8 products in fewer bits than f32 between the partial
	// accumulators' adds: 3e-5 to 7e-5 relative L2 error on an H100 (2026-12-06), where
	// mma.sync and the CPU are within f32's; the cancelling inputs sum exactly either way.
	tol := 0.0
	if !d.cancel {
		tol = 5e-4
	}
	return k.cas(name, func(rng *rand.Rand) *Problem {
		x, y := uniform(rng, d.in, -4, 4, d.m, d.kk), uniform(rng, d.in, -4, 4, d.kk, d.n)
		if d.cancel {
			small := []float64{0, 0.25, 0.5, 1}
			for i := range x.Data {
				x.Data[i] = cancelFactor(i%d.kk, -1, small[rng.IntN(4)])
			}
			for i := range y.Data {
				y.Data[i] = cancelFactor(i/d.n, 1, small[rng.IntN(4)])
			}
		}
		z := make([]float64, d.m*d.n)
		for i := range d.m {
			for j := range d.n {
				for kk := range d.kk {
					z[i*d.n+j] += x.Data[i*d.kk+kk] * y.Data[kk*d.n+j]
				}
			}
		}
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "y": y, "z": output(FP32, d.m, d.n)},
			Steps: []Step{{Kernel: "imprecise_acc_kernel", Args: []Arg{Ptr("x"), Ptr("y"), Ptr("z"), Int(d.n), Int(d.kk),
				Const(d.bm), Const(d.bn), Const(d.bk), max, Const(d.loop)},
				Grid: [3]int{d.m / d.bm, d.n / d.bn, 1}, NumWarps: 8, NumStages: 3}},
			Checks: []Check{{Tensor: "z", Want: z, Tol: tol}},
		}
	})
}

// cancelFactor is the element at index kk of K of a cancelling operand: small in the
// first 32 of each 64, 2^15 at 32 and neg·2^15 at 48 (so the products are +2^30 and
// -2^30 when one operand has neg -1 and the other 1), else 0.
func cancelFactor(kk int, neg, small float64) float64 {
	switch kk % 64 {
	case 32:
		return 1 << 15
	case 48:
		return neg * (1 << 15)
	}
	if kk%64 < 32 {
		return small
	}
	return 0
}

// evictionPolicyCase: eviction_policy_kernel(x, y, 1000, 256, load, store, blockPtr) over
// 4 programs, y = 2x.
func evictionPolicyCase(k kernelRef, load, store string, blockPtr bool) Case {
	const n, block = 1000, 256
	name := fmt.Sprintf("eviction_policy_kernel/load=%s/store=%s", load, store)
	if blockPtr {
		name += "/block-ptr"
	}
	return k.cas(name, func(rng *rand.Rand) *Problem {
		x := randn(rng, FP32, 1, n)
		y := make([]float64, n)
		for i, v := range x.Data {
			y[i] = 2 * v
		}
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "y": output(FP32, n)},
			Steps: oneStep("eviction_policy_kernel", [3]int{(n + block - 1) / block, 1, 1}, 4, Ptr("x"), Ptr("y"), Int(n),
				Const(block), Str(load), Str(store), Const(blockPtr)),
			Checks: []Check{{Tensor: "y", Want: y}},
		}
	})
}
