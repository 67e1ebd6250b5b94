package conformance

import (
	"fmt"
	"math"
	"math/rand/v2"
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
	for _, c := range []struct {
		in, out            DType
		outName            string
		b, m, n, kk, warps int
	}{{FP16, FP32, "tl.float32", 2, 32, 32, 32, 4}, {FP32, FP32, "tl.float32", 4, 16, 32, 16, 1}, {I8, I32, "tl.int32", 1, 32, 16, 64, 2}} {
		cs = append(cs, dot3dCase(k, c.in, c.out, c.outName, c.b, c.m, c.n, c.kk, c.warps))
	}
	cs = append(cs, splitScalarCase(k))
	for _, c := range []Case{inlineAsmPackedCase(k), inlineAsmPackedOutputsCase(k), inlineAsmPointersCase(k)} {
		c.NoCPU = "the CPU interpreter does not execute inline PTX"
		cs = append(cs, c)
	}
	cs = append(cs, keepDimsSumCase(k), voidTernaryCase(k))
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

// dot3dCase: dot3d_kernel(q, k, o, B, M, N, K, out) with o[b] = q[b] @ k[b].
func dot3dCase(k kernelRef, in, out DType, outName string, B, M, N, K, warps int) Case {
	return k.cas(fmt.Sprintf("dot3d_kernel/%s->%s/%dx%dx%dx%d/w%d", in, out, B, M, N, K, warps), func(rng *rand.Rand) *Problem {
		q, kt := uniform(rng, in, -4, 4, B, M, K), uniform(rng, in, -4, 4, B, K, N)
		if in == I8 {
			for i := range q.Data {
				q.Data[i] = math.Round(q.Data[i])
			}
			for i := range kt.Data {
				kt.Data[i] = math.Round(kt.Data[i])
			}
		}
		o := make([]float64, B*M*N)
		for b := range B {
			for m := range M {
				for n := range N {
					for x := range K {
						o[(b*M+m)*N+n] += q.Data[(b*M+m)*K+x] * kt.Data[(b*K+x)*N+n]
					}
				}
			}
		}
		return &Problem{
			Tensors: map[string]*Tensor{"q": q, "k": kt, "o": output(out, B, M, N)},
			Steps: []Step{{Kernel: "dot3d_kernel", Args: []Arg{Ptr("q"), Ptr("k"), Ptr("o"), Const(B), Const(M), Const(N), Const(K), Const(outName)},
				Grid: [3]int{1, 1, 1}, NumWarps: warps, NumStages: 3}},
			Checks: []Check{{Tensor: "o", Want: o}},
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
