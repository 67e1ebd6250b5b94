package conformance

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Cases over conformance/kernels/language_ext.py: the tl.* surface beyond the tutorials
// (histogram, gather, map_elementwise, item, atomic_cas on floats, N-D dots, getattr and
// hasattr in kernels, tl.condition, tl.extra.cuda), each against a float64 reference.

// languageCases returns the cases of language_ext.py that every device runs.
func languageCases() []Case {
	k := ours("language_ext")
	cs := []Case{interleaveScalarsCase(k)}
	for _, dt := range []DType{U64, I64, FP16, BF16, FP32, FP64} {
		cs = append(cs, casTensorCase(k, dt))
	}
	for _, r := range []int{2, 3, 4, 5} {
		cs = append(cs, dotMultidimCase(k, r, r%2 == 1, r >= 4))
	}
	for _, dt := range []DType{U8, U32, I8} {
		cs = append(cs, floordivScalarCase(k, dt, 7))
	}
	cs = append(cs, conditionCase(k, 10, true), conditionCase(k, 0, false), numThreadsCase(k, 8))
	for _, f := range []string{"minimum", "maximum", "clamp"} {
		for _, p := range []string{"NONE", "ALL"} {
			cs = append(cs, propagateNanCase(k, f, p))
		}
	}
	cs = append(cs, shortCircuitCase(k, 43), shortCircuitCase(k, 7))
	cs = append(cs, compileTimeCase(k, FP32, 50), compileTimeCase(k, FP16, 100), compileTimeCase(k, I8, 60))
	for _, masked := range []bool{false, true} {
		cs = append(cs, histogramCase(k, 64, 8, 50, masked), histogramCase(k, 1024, 128, 1000, masked))
	}
	cs = append(cs, gatherCase(k, 0, 8, 16, 4), gatherCase(k, 0, 4, 4, 8), gatherCase(k, 1, 8, 16, 32), gatherCase(k, 1, 4, 4, 4))
	for _, explicit := range []bool{false, true} {
		for _, v := range []int{41, 43} {
			cs = append(cs, unsplatCase(k, explicit, v))
		}
	}
	cs = append(cs, casItemCase(k, I32), casItemCase(k, I64))
	cs = append(cs, mapElementwiseCase(k, 1), mapElementwiseCase(k, 2))
	cs = append(cs, poisonReturnCase(k, 1), poisonReturnCase(k, 0)) // with flag 1 no poison is left
	for _, sh := range [][2]int{{4, 16}, {2, 128}, {8, 2}} {
		cs = append(cs, sortCase(k, sh[0], sh[1], 0, false, "sort"), sortCase(k, sh[0], sh[1], 0, true, "sort"),
			sortCase(k, sh[0], sh[1], 0, false, "flip"), sortCase(k, sh[0], sh[1], sh[1]/2, false, "topk"))
	}
	return cs
}

// CPUOnlyCases are the cases of language_ext.py that only the CPU interpreter runs yet
// (%globaltimer, which the nv-sim interpreter lacks). TestCPUOnlyCases runs them on the CPU interpreter; each moves
// to languageCases when its op is lowered.
func CPUOnlyCases() []Case {
	k := ours("language_ext")
	var cs []Case
	return append(cs, timerCase(k))
}

// timerCase: globaltimer (passed as a constexpr function) does not run backwards and smid
// is a valid SM id; Work counts the loop's 100 increments.
func timerCase(k kernelRef) Case {
	return k.cas("timer_kernel/globaltimer", func(*rand.Rand) *Problem {
		work := make([]float64, 128)
		for i := range work {
			work[i] = 100
		}
		return &Problem{
			Tensors: map[string]*Tensor{"out": output(I32, 1), "work": zeros(I64, 128)},
			Steps:   oneStep("timer_kernel", [3]int{1, 1, 1}, 4, Ptr("out"), Ptr("work"), Const("tl.extra.cuda.globaltimer")),
			Checks:  []Check{{Tensor: "out", Want: []float64{1}}, {Tensor: "work", Want: work}},
		}
	})
}

// sortCase: sort_kernel on an M x N fp32 tile: each row sorted (mode sort), its K largest
// in descending order (topk), or reversed (flip).
func sortCase(k kernelRef, M, N, K int, descending bool, mode string) Case {
	name := fmt.Sprintf("sort_kernel/%s/%dx%d", mode, M, N)
	if mode == "sort" {
		name += fmt.Sprintf("/descending=%v", descending)
	}
	if mode == "topk" {
		name += fmt.Sprintf("/k=%d", K)
	}
	return k.cas(name, func(rng *rand.Rand) *Problem {
		x := randn(rng, FP32, 1, M, N)
		width := N
		if mode == "topk" {
			width = K
		}
		z := make([]float64, 0, M*width)
		for r := range M {
			row := append([]float64(nil), x.Data[r*N:(r+1)*N]...)
			switch mode {
			case "flip":
				slices.Reverse(row)
			case "topk":
				slices.Sort(row)
				slices.Reverse(row)
				row = row[:K]
			default:
				slices.Sort(row)
				if descending {
					slices.Reverse(row)
				}
			}
			z = append(z, row...)
		}
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "z": output(FP32, M, width)},
			Steps:   oneStep("sort_kernel", [3]int{1, 1, 1}, 4, Ptr("x"), Ptr("z"), Const(M), Const(N), Const(max(K, 1)), Const(descending), Str(mode)),
			Checks:  []Check{{Tensor: "z", Want: z}},
		}
	})
}

// poisonReturnCase: a jit function that returns x + 1 only when flag is set (else poison);
// the kernel stores it only then.
func poisonReturnCase(k kernelRef, flag int) Case {
	return k.cas(fmt.Sprintf("poison_return_kernel/flag=%d", flag), func(*rand.Rand) *Problem {
		return &Problem{
			Tensors: map[string]*Tensor{"out": fromData(I32, []float64{41}, 1)},
			Steps:   oneStep("poison_return_kernel", [3]int{1, 1, 1}, 1, Ptr("out"), Int(flag)),
			Checks:  []Check{{Tensor: "out", Want: []float64{float64(41 + flag)}}},
		}
	})
}

// compileTimeCase: compile_time_kernel(x, y, n, 100) adds width + cdiv(100, 3) +
// log2(next_power_of_2(100)) + (0+1+2+3), all computed by Python helpers at compile time
// from x's dtype (the block is 128 for fp16, 64 otherwise).
func compileTimeCase(k kernelRef, dt DType, n int) Case {
	return k.cas(fmt.Sprintf("compile_time_kernel/%s/n=%d", dt, n), func(rng *rand.Rand) *Problem {
		x := randn(rng, dt, 1, n)
		if dt == I8 {
			for i := range x.Data {
				x.Data[i] = float64(rng.IntN(100) - 50)
			}
		}
		width := map[DType]int{FP32: 32, FP16: 16, I8: 8}[dt]
		add := float64(width + 34 + 7 + 6)
		y := make([]float64, n)
		for i, v := range x.Data {
			y[i] = dt.Round(v + add)
		}
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "y": output(dt, n)},
			Steps:   oneStep("compile_time_kernel", [3]int{1, 1, 1}, 4, Ptr("x"), Ptr("y"), Int(n), Const(100)),
			Checks:  []Check{{Tensor: "y", Want: y}},
		}
	})
}

func oneStep(kernel string, grid [3]int, warps int, args ...Arg) []Step {
	return []Step{{Kernel: kernel, Args: args, Grid: grid, NumWarps: warps, NumStages: 3}}
}

// histogramCase: histogram_kernel over M ints in [0, N) of which the first n count when
// masked (all M otherwise).
func histogramCase(k kernelRef, M, N, n int, masked bool) Case {
	return k.cas(fmt.Sprintf("histogram_kernel/M=%d/N=%d/masked=%v", M, N, masked), func(rng *rand.Rand) *Problem {
		x := zeros(I32, M)
		want := make([]float64, N)
		for i := range M {
			x.Data[i] = float64(rng.IntN(N))
			if !masked || i < n {
				want[int(x.Data[i])]++
			}
		}
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "z": output(I32, N)},
			Steps:   oneStep("histogram_kernel", [3]int{1, 1, 1}, 4, Ptr("x"), Ptr("z"), Int(n), Const(M), Const(N), Const(masked)),
			Checks:  []Check{{Tensor: "z", Want: want}},
		}
	})
}

// gatherCase: out = gather(src, idx, axis) for an N x M source and K indices along axis.
func gatherCase(k kernelRef, axis, N, M, K int) Case {
	return k.cas(fmt.Sprintf("gather_kernel/axis=%d/%dx%d/K=%d", axis, N, M, K), func(rng *rand.Rand) *Problem {
		src := randn(rng, FP32, 1, N, M)
		rows, cols, lim := N, K, M
		if axis == 0 {
			rows, cols, lim = K, M, N
		}
		idx, want := zeros(I32, rows, cols), make([]float64, rows*cols)
		for r := range rows {
			for c := range cols {
				j := rng.IntN(lim)
				idx.Data[r*cols+c] = float64(j)
				if axis == 0 {
					want[r*cols+c] = src.Data[j*M+c]
				} else {
					want[r*cols+c] = src.Data[r*M+j]
				}
			}
		}
		return &Problem{
			Tensors: map[string]*Tensor{"src": src, "idx": idx, "out": output(FP32, rows, cols)},
			Steps:   oneStep("gather_kernel", [3]int{1, 1, 1}, 4, Ptr("src"), Ptr("idx"), Ptr("out"), Const(axis), Const(N), Const(M), Const(K)),
			Checks:  []Check{{Tensor: "out", Want: want}},
		}
	})
}

// casItemCase: 64 programs take a spin lock built from atomic_cas on .item() values and
// each adds 1 to data; the lock is free again at the end.
func casItemCase(k kernelRef, dt DType) Case {
	const programs = 64
	return k.cas("cas_item_kernel/"+string(dt), func(*rand.Rand) *Problem {
		return &Problem{
			Tensors: map[string]*Tensor{"lock": zeros(dt, 1), "data": zeros(FP32, 1)},
			Steps:   oneStep("cas_item_kernel", [3]int{programs, 1, 1}, 4, Ptr("lock"), Ptr("data"), Const(tlDType(dt))),
			Checks:  []Check{{Tensor: "data", Want: []float64{programs}}, {Tensor: "lock", Want: []float64{0}}},
		}
	})
}

// casTensorCase: atomic_cas(x, 0, 2) on a tensor of zeros and ones of dtype dt; old holds
// what was there.
func casTensorCase(k kernelRef, dt DType) Case {
	const n, block = 512, 128
	return k.cas("cas_tensor_kernel/"+string(dt), func(rng *rand.Rand) *Problem {
		x := zeros(dt, n)
		want := make([]float64, n)
		for i := range n {
			x.Data[i] = float64(rng.IntN(2))
			want[i] = x.Data[i]
			if want[i] == 0 {
				want[i] = 2
			}
		}
		old := append([]float64(nil), x.Data...)
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "old": output(dt, n)},
			Steps:   oneStep("cas_tensor_kernel", [3]int{n / block, 1, 1}, 4, Ptr("x"), Ptr("old"), Const(block), Const(tlDType(dt))),
			Checks:  []Check{{Tensor: "x", Want: want}, {Tensor: "old", Want: old}},
		}
	})
}

// tlDType is the tl name of a dtype, for constexpr arguments.
func tlDType(dt DType) string {
	return map[DType]string{FP16: "tl.float16", BF16: "tl.bfloat16", FP32: "tl.float32", FP64: "tl.float64",
		I32: "tl.int32", I64: "tl.int64", U64: "tl.uint64"}[dt]
}

func interleaveScalarsCase(k kernelRef) Case {
	return k.cas("interleave_scalars_kernel", func(*rand.Rand) *Problem {
		return &Problem{
			Tensors: map[string]*Tensor{"z": output(FP32, 2)},
			Steps:   oneStep("interleave_scalars_kernel", [3]int{1, 1, 1}, 4, Int(10), Int(20), Ptr("z")),
			Checks:  []Check{{Tensor: "z", Want: []float64{10, 20}}},
		}
	})
}

// mapElementwiseCase: pack 1 maps compare(a, b) and compare(a, 0) over int32 tensors;
// pack 2 maps divmod over uint32 pairs.
func mapElementwiseCase(k kernelRef, pack int) Case {
	block, dt := 128, I32
	if pack > 1 {
		block, dt = 512, U32
	}
	return k.cas(fmt.Sprintf("map_elementwise_kernel/pack=%d", pack), func(rng *rand.Rand) *Problem {
		a, b := zeros(dt, block), zeros(dt, block)
		c, d := make([]float64, block), make([]float64, block)
		sign := func(x, y float64) float64 {
			return float64(map[bool]int{true: 1}[x > y] - map[bool]int{true: 1}[x < y])
		}
		for i := range block {
			if pack == 1 {
				a.Data[i], b.Data[i] = float64(rng.IntN(21)-10), float64(rng.IntN(21)-10)
				c[i], d[i] = sign(a.Data[i], b.Data[i]), sign(a.Data[i], 0)
			} else {
				x, y := rng.Uint32(), 1+rng.Uint32N(1000)
				a.Data[i], b.Data[i] = float64(x), float64(y)
				c[i], d[i] = float64(x/y), float64(x%y)
			}
		}
		return &Problem{
			Tensors: map[string]*Tensor{"a": a, "b": b, "c": output(dt, block), "d": output(dt, block)},
			Steps:   oneStep("map_elementwise_kernel", [3]int{1, 1, 1}, 4, Ptr("a"), Ptr("b"), Ptr("c"), Ptr("d"), Const(block), Const(pack)),
			Checks:  []Check{{Tensor: "c", Want: c}, {Tensor: "d", Want: d}},
		}
	})
}

// dotMultidimCase: a batched dot of two [2]*(rank-2) + [32, 32] fp16 tensors of small
// integers (exact in fp32), optionally transposing the last two dimensions of each.
func dotMultidimCase(k kernelRef, rank int, transA, transB bool) Case {
	return k.cas(fmt.Sprintf("dot_multidim_kernel/rank=%d/transA=%v/transB=%v", rank, transA, transB), func(rng *rand.Rand) *Problem {
		n := 256 << rank
		x, y := zeros(FP16, n), zeros(FP16, n)
		for i := range n {
			x.Data[i], y.Data[i] = float64(rng.IntN(9)-4), float64(rng.IntN(9)-4)
		}
		at := func(t *Tensor, b, r, c int, trans bool) float64 {
			if trans {
				r, c = c, r
			}
			return t.Data[b*1024+r*32+c]
		}
		z := make([]float64, n)
		for b := range n / 1024 {
			for i := range 32 {
				for j := range 32 {
					s := 0.0
					for l := range 32 {
						s += at(x, b, i, l, transA) * at(y, b, l, j, transB)
					}
					z[b*1024+i*32+j] = s
				}
			}
		}
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "y": y, "z": output(FP32, n)},
			Steps:   oneStep("dot_multidim_kernel", [3]int{1, 1, 1}, 4, Ptr("x"), Ptr("y"), Ptr("z"), Const(rank), Const(transA), Const(transB)),
			Checks:  []Check{{Tensor: "z", Want: z}},
		}
	})
}

// floordivScalarCase: x // y for a constexpr Python int y, which takes x's type (an
// unsigned tensor with a Python int is no signedness error in Triton 3.6).
func floordivScalarCase(k kernelRef, dt DType, y int) Case {
	const size = 128
	return k.cas(fmt.Sprintf("floordiv_scalar_kernel/%s//%d", dt, y), func(rng *rand.Rand) *Problem {
		lo, hi := 0, 256
		if dt == I8 {
			lo, hi = -128, 128
		} else if dt == U32 {
			hi = 1 << 30
		}
		x, z := zeros(dt, size), make([]float64, size)
		for i := range size {
			v := lo + rng.IntN(hi-lo)
			x.Data[i] = float64(v)
			z[i] = float64(v / y) // truncation, as Triton's // on integers
		}
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "z": output(dt, size)},
			Steps:   oneStep("floordiv_scalar_kernel", [3]int{1, 1, 1}, 4, Ptr("z"), Ptr("x"), Const(y), Const(size)),
			Checks:  []Check{{Tensor: "z", Want: z}},
		}
	})
}

// unsplatCase: if on a one-element tensor (implicitly, or through .item()) stores 42 when
// the element is above 42.
func unsplatCase(k kernelRef, explicit bool, v int) Case {
	return k.cas(fmt.Sprintf("unsplat_kernel/explicit=%v/x=%d", explicit, v), func(*rand.Rand) *Problem {
		want := min(v, 42)
		return &Problem{
			Tensors: map[string]*Tensor{"x": fromData(I32, []float64{float64(v)}, 1)},
			Steps:   oneStep("unsplat_kernel", [3]int{1, 1, 1}, 1, Ptr("x"), Const(explicit)),
			Checks:  []Check{{Tensor: "x", Want: []float64{float64(want)}}},
		}
	})
}

// conditionCase: a while loop under tl.condition sums 1..n.
func conditionCase(k kernelRef, n int, disableLicm bool) Case {
	return k.cas(fmt.Sprintf("condition_kernel/n=%d/disable_licm=%v", n, disableLicm), func(*rand.Rand) *Problem {
		return &Problem{
			Tensors: map[string]*Tensor{"out": output(I32, 1)},
			Steps:   oneStep("condition_kernel", [3]int{1, 1, 1}, 4, Ptr("out"), Int(n), Const(disableLicm)),
			Checks:  []Check{{Tensor: "out", Want: []float64{float64(n * (n + 1) / 2)}}},
		}
	})
}

// numThreadsCase: tl.extra.cuda.num_threads() is 32 * num_warps, num_warps() num_warps.
func numThreadsCase(k kernelRef, warps int) Case {
	return k.cas(fmt.Sprintf("num_threads_kernel/warps=%d", warps), func(*rand.Rand) *Problem {
		n := 32 * warps
		want := make([]float64, n)
		for i := range want {
			want[i] = float64(i + warps)
		}
		return &Problem{
			Tensors: map[string]*Tensor{"out": output(I32, n)},
			Steps:   oneStep("num_threads_kernel", [3]int{1, 1, 1}, warps, Ptr("out")),
			Checks:  []Check{{Tensor: "out", Want: want}},
		}
	})
}

// propagateNanCase: getattr(tl, f)(..., propagate_nan=getattr(tl.PropagateNan, p)) on
// fp32 inputs with NaNs in a, in b, in both and in neither (the kernel stores NaN as
// 12345). NONE ignores a NaN operand; for clamp, whose bounds -b and b are never NaN
// here, max(NaN, -b) is -b.
func propagateNanCase(k kernelRef, f, p string) Case {
	return k.cas(fmt.Sprintf("propagate_nan_kernel/%s/%s", f, p), func(*rand.Rand) *Problem {
		const nanMark = 12345
		nan := math.NaN()
		a, b := []float64{nan, 1.5, nan, -0.5}, []float64{2, nan, nan, 0.25}
		if f == "clamp" {
			b = []float64{2, 1, 3, 0.25}
		}
		want := make([]float64, 4)
		for i := range want {
			x, y := a[i], b[i]
			switch {
			case p == "ALL" && (math.IsNaN(x) || math.IsNaN(y)):
				want[i] = nanMark
			case f == "clamp" && math.IsNaN(x):
				want[i] = -y
			case f == "clamp":
				want[i] = math.Max(-y, math.Min(x, y))
			case math.IsNaN(x) && math.IsNaN(y):
				want[i] = nanMark
			case math.IsNaN(x):
				want[i] = y
			case math.IsNaN(y):
				want[i] = x
			case f == "minimum":
				want[i] = math.Min(x, y)
			default:
				want[i] = math.Max(x, y)
			}
		}
		return &Problem{
			Tensors: map[string]*Tensor{"a": fromData(FP32, a, 4), "b": fromData(FP32, b, 4), "c": output(FP32, 4)},
			Steps:   oneStep("propagate_nan_kernel", [3]int{1, 1, 1}, 4, Ptr("a"), Ptr("b"), Ptr("c"), Str(p), Str(f)),
			Checks:  []Check{{Tensor: "c", Want: want}},
		}
	})
}

// shortCircuitCase: the and-chain of hasattr / isinstance / dtype tests reaches the load
// for an int32 pointer, which stores 42 over values above 42.
func shortCircuitCase(k kernelRef, v int) Case {
	return k.cas(fmt.Sprintf("short_circuiting_kernel/x=%d", v), func(*rand.Rand) *Problem {
		return &Problem{
			Tensors: map[string]*Tensor{"x": fromData(I32, []float64{float64(v)}, 1)},
			Steps:   oneStep("short_circuiting_kernel", [3]int{1, 1, 1}, 1, Ptr("x")),
			Checks:  []Check{{Tensor: "x", Want: []float64{float64(min(v, 42))}}},
		}
	})
}
