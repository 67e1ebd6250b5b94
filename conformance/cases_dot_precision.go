package conformance

import (
	"fmt"
	"math/rand/v2"
)

// Cases over conformance/kernels/dot_precision.py: fp32 tl.dot with the input precisions
// that emulate fp32 on tensor cores (Triton's F32DotTC), checked against a float64
// product with tolerances that plain tf32 fails (its relative L2 error on these inputs is
// about 3e-4 rounded to nearest, 7e-4 truncated as mma does): tf32x3 and bf16x6 keep about
// 21 and 24 bits of each operand, bf16x3 drops the products of the second bf16 parts
// (about 2^-16 of each product).

// emulatedPrecisions are the emulations and each one's tolerance.
var emulatedPrecisions = []struct {
	name string
	tol  float64
}{{"tf32x3", 1e-6}, {"bf16x3", 2e-5}, {"bf16x6", 1e-6}}

// dotPrecisionCases returns the cases of dot_precision.py.
func dotPrecisionCases() []Case {
	k := ours("dot_precision")
	var cs []Case
	for _, p := range emulatedPrecisions {
		cs = append(cs,
			dotPrecisionCase(k, p.name, p.tol, 32, 32, 32, false, false, true),
			dotPrecisionCase(k, p.name, p.tol, 64, 64, 64, true, true, false),
			dotPrecisionCase(k, p.name, p.tol, 32, 64, 16, false, true, true),
			dotPrecisionLoopCase(k, p.name, p.tol))
	}
	return cs
}

// dotPrecisionCase: dot_precision_kernel over one M x N x K tile, A and B column-major
// when colA / colB, with a C accumulator when withC.
func dotPrecisionCase(k kernelRef, precision string, tol float64, M, N, K int, colA, colB, withC bool) Case {
	name := fmt.Sprintf("dot_precision_kernel/%s/%dx%dx%d", precision, M, N, K)
	if colA {
		name += "/colA"
	}
	if colB {
		name += "/colB"
	}
	if withC {
		name += "/acc"
	}
	return k.cas(name, func(rng *rand.Rand) *Problem {
		a, b := randn(rng, FP32, 1, M, K), randn(rng, FP32, 1, K, N)
		want := matmul(M, N, K, elemAt(a), elemAt(b))
		tensors := map[string]*Tensor{"a": storedMatrix(a, colA), "b": storedMatrix(b, colB), "out": output(FP32, M, N)}
		c := Const(nil)
		if withC {
			tensors["c"] = randn(rng, FP32, 1, M, N)
			want = zipf(want, tensors["c"].Data, func(x, y float64) float64 { return x + y })
			c = Ptr("c")
		}
		args := append([]Arg{Ptr("a")}, matrixStrides(M, K, colA)...)
		args = append(append(args, Ptr("b")), matrixStrides(K, N, colB)...)
		args = append(args, c, Ptr("out"), Const(M), Const(N), Const(K), Str(precision))
		return &Problem{
			Tensors: tensors,
			Steps:   []Step{{Kernel: "dot_precision_kernel", Args: args, Grid: [3]int{1, 1, 1}, NumWarps: 4, NumStages: 3}},
			Checks:  []Check{{Tensor: "out", Want: want, Tol: tol}},
		}
	})
}

// dotPrecisionLoopCase: dot_precision_k_loop_kernel on 128 x 64 x 128 in 64 x 32 x 32
// blocks (a 2 x 2 grid, four steps along K through acc=).
func dotPrecisionLoopCase(k kernelRef, precision string, tol float64) Case {
	const M, N, K, bm, bn, bk = 128, 64, 128, 64, 32, 32
	return k.cas(fmt.Sprintf("dot_precision_k_loop_kernel/%s/%dx%dx%d", precision, M, N, K), func(rng *rand.Rand) *Problem {
		a, b := randn(rng, FP32, 1, M, K), randn(rng, FP32, 1, K, N)
		return &Problem{
			Tensors: map[string]*Tensor{"a": a, "b": b, "out": output(FP32, M, N)},
			Steps: []Step{{Kernel: "dot_precision_k_loop_kernel", Args: []Arg{Ptr("a"), Ptr("b"), Ptr("out"), Int(M), Int(N), Int(K),
				Const(bm), Const(bn), Const(bk), Str(precision)}, Grid: [3]int{M / bm, N / bn, 1}, NumWarps: 4, NumStages: 3}},
			Checks: []Check{{Tensor: "out", Want: matmul(M, N, K, elemAt(a), elemAt(b)), Tol: tol}},
		}
	})
}

// elemAt reads element (i, j) of the row-major matrix t.
func elemAt(t *Tensor) func(i, j int) float64 {
	cols := t.Shape[1]
	return func(i, j int) float64 { return t.Data[i*cols+j] }
}

// storedMatrix is matrix t as the kernel reads it: row-major, or column-major when col.
func storedMatrix(t *Tensor, col bool) *Tensor {
	if !col {
		return t
	}
	rows, cols := t.Shape[0], t.Shape[1]
	out := &Tensor{DType: t.DType, Shape: []int{rows, cols}, Data: make([]float64, rows*cols)}
	for i := range rows {
		for j := range cols {
			out.Data[j*rows+i] = t.Data[i*cols+j]
		}
	}
	return out
}

// matrixStrides are the two stride arguments of a rows x cols matrix stored row- or
// column-major.
func matrixStrides(rows, cols int, col bool) []Arg {
	if col {
		return []Arg{Int(1), Int(rows)}
	}
	return []Arg{Int(cols), Int(1)}
}
