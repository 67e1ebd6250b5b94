package conformance

import (
	"math"
	"math/rand/v2"
)

// Cases over the Inductor-shaped kernels of conformance/realworld/inductor/ (written by us
// in the shape of the files torch.compile writes): each launch is the specialization
// gotriton infers from the file alone, with no -s (triton_meta's signature and hints, the
// block sizes of Inductor's first config); TestInductorSpecializations checks that.

// inductorKernels is the folder of those kernels, relative to conformance/kernels.
const inductorKernels = "../realworld/inductor/"

// inductorCases returns the cases of the Inductor examples.
func inductorCases() []Case {
	poi := kernelRef{src: Ours, file: inductorKernels + "pointwise_attrs.py", tag: "ours/inductor"}
	per := kernelRef{src: Ours, file: inductorKernels + "reduction_dict.py", tag: "ours/inductor"}
	return []Case{
		// relu(a + b) over 4096 fp32 with XBLOCK 256 (pointwise's first config), through
		// triton_helpers.maximum.
		poi.cas("triton_poi_fused_add_relu_0/n=4096", func(rng *rand.Rand) *Problem {
			const n, xblock = 4096, 256
			a, b := randn(rng, FP32, 1, n), randn(rng, FP32, 1, n)
			want := make([]float64, n)
			for i := range want {
				want[i] = math.Max(0, float64(float32(a.Data[i]+b.Data[i])))
			}
			return &Problem{
				Tensors: map[string]*Tensor{"a": a, "b": b, "out": output(FP32, n)},
				Steps: []Step{{Kernel: "triton_poi_fused_add_relu_0", Args: []Arg{Ptr("a"), Ptr("b"), Ptr("out"), Int(n), Const(xblock)},
					Grid: [3]int{n / xblock, 1, 1}, NumWarps: 4, NumStages: 1}},
				Checks: []Check{{Tensor: "out", Want: want}},
			}
		}),
		// Row sums of a 512 x 64 fp32 matrix, a persistent reduction with XBLOCK 1.
		per.cas("triton_per_fused_sum_0/512x64", func(rng *rand.Rand) *Problem {
			const rows, cols = 512, 64
			x := randn(rng, FP32, 1, rows, cols)
			want := make([]float64, rows)
			for r := range rows {
				for c := range cols {
					want[r] += x.Data[r*cols+c]
				}
			}
			return &Problem{
				Tensors: map[string]*Tensor{"x": x, "out": output(FP32, rows)},
				Steps: []Step{{Kernel: "triton_per_fused_sum_0", Args: []Arg{Ptr("x"), Ptr("out"), Int(rows), Int(cols), Const(1)},
					Grid: [3]int{rows, 1, 1}, NumWarps: 2, NumStages: 1}},
				Checks: []Check{{Tensor: "out", Want: want}},
			}
		}),
	}
}
