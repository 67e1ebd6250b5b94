package conformance

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Cases over conformance/kernels/language_features.py: block pointers with boundary
// checks, scans, arg-reductions, custom reductions and the shape ops, at ragged sizes.
// (device_print and device_assert have no outputs to compare; driver/cpu tests them.)

// featureCases returns the cases of language_features.py.
func featureCases() []Case {
	k := ours("language_features")
	var cs []Case
	for _, sh := range [][2]int{{100, 77}, {64, 64}, {1, 33}} {
		for _, transposedY := range []bool{false, true} {
			cs = append(cs, blockPtrCase(k, sh[0], sh[1], transposedY))
		}
	}
	for _, sh := range [][2]int{{13, 29}, {16, 32}} {
		for _, axis := range []int{0, 1} {
			for _, rev := range []bool{false, true} {
				cs = append(cs, scanCase(k, sh[0], sh[1], axis, rev, scanTile{16, 32, 4}))
			}
			cs = append(cs, reduceCase(k, sh[0], sh[1], axis))
		}
	}
	// tiles whose layouts repeat registers along both axes (8 warps), or keep one warp
	for _, tile := range []scanTile{{64, 128, 8}, {32, 64, 1}} {
		for _, axis := range []int{0, 1} {
			for _, rev := range []bool{false, true} {
				cs = append(cs, scanCase(k, tile.bm-3, tile.bn-5, axis, rev, tile))
			}
		}
	}
	for _, m := range []int{37, 8} {
		cs = append(cs, shapeOpsCase(k, m, 16, 8))
	}
	for _, pad := range []string{"zero", "nan"} {
		cs = append(cs, descPadCase(k, 37, 50, pad))
	}
	for _, c := range []struct{ rows, cols, programs, stages int }{{37, 64, 4, 3}, {5, 80, 8, 4}, {100, 256, 3, 2}, {9, 77, 2, 3}} {
		cs = append(cs, stagedRowsCase(k, c.rows, c.cols, c.programs, c.stages))
	}
	return cs
}

// stagedRowsCase: staged_rows_kernel over n_rows rows of 256 (fp32 x, fp16 w in halves
// from -1 to 1, so that the sums are exact) with programs programs, each taking every
// programs-th row in a loop of num_stages stages: programs past n_rows run no
// iteration, others fewer than stages-1. 77 columns give w's loads vectors of 2 bytes,
// which stay synchronous, while x's are pipelined.
func stagedRowsCase(k kernelRef, rows, cols, programs, stages int) Case {
	return k.cas(fmt.Sprintf("staged_rows_kernel/ns%d/%dx%d/p%d", stages, rows, cols, programs), func(rng *rand.Rand) *Problem {
		const stride = 256
		x := randn(rng, FP32, 1, rows, stride)
		w := &Tensor{DType: FP16, Shape: []int{rows, stride}, Data: make([]float64, rows*stride)}
		for i := range w.Data {
			w.Data[i] = float64(rng.IntN(5)-2) / 2
		}
		block := 1
		for block < cols {
			block *= 2
		}
		y := make([]float64, rows)
		for r := range rows {
			top, sum := math.Inf(-1), 2*float64(block-cols)
			for c := range cols {
				top = math.Max(top, x.Data[r*stride+c])
				sum += w.Data[r*stride+c]
			}
			y[r] = FP32.Round(top + sum)
		}
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "w": w, "y": output(FP32, rows)},
			Steps: []Step{{Kernel: "staged_rows_kernel", Args: []Arg{Ptr("x"), Ptr("w"), Ptr("y"), Int(rows), Int(cols), Int(stride),
				Const(block), Const(stages)}, Grid: [3]int{programs, 1, 1}, NumWarps: 4, NumStages: 3}},
			Checks: []Check{{Tensor: "y", Want: y}},
		}
	})
}

// descPadCase: desc_pad_kernel over an M x N fp32 tensor (rows of a multiple of 16
// bytes, as TMA needs) in 16x32 blocks, the last ones past its edges: y holds x, and 0
// (pad "zero") or -1 (the NaNs of pad "nan") outside it.
func descPadCase(k kernelRef, M, N int, pad string) Case {
	const bm, bn = 16, 32
	return k.cas(fmt.Sprintf("desc_pad_kernel/%s/%dx%d", pad, M, N), func(rng *rand.Rand) *Problem {
		stride := (N + 3) / 4 * 4
		x := randn(rng, FP32, 1, M, stride)
		gm, gn := cdiv(M, bm), cdiv(N, bn)
		outside := 0.0
		if pad == "nan" {
			outside = -1
		}
		y := make([]float64, gm*bm*gn*bn)
		for r := range gm * bm {
			for c := range gn * bn {
				y[r*gn*bn+c] = outside
				if r < M && c < N {
					y[r*gn*bn+c] = x.Data[r*stride+c]
				}
			}
		}
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "y": output(FP32, len(y))},
			Steps: []Step{{Kernel: "desc_pad_kernel", Args: []Arg{Ptr("x"), Ptr("y"), Int(M), Int(N), Int(stride),
				Const(bm), Const(bn), Str(pad)}, Grid: [3]int{gm, gn, 1}, NumWarps: 4, NumStages: 3}},
			Checks: []Check{{Tensor: "y", Want: y}},
		}
	})
}

// blockPtrCase: block_ptr_kernel(x, y, rowsum, M, N, strides x4, 32, 32) with y = 2x + 1
// stored row-major or transposed (y then holds an N x M tensor).
func blockPtrCase(k kernelRef, M, N int, transposedY bool) Case {
	layout, sym, syn := "rowmajor", N, 1
	if transposedY {
		layout, sym, syn = "transposed", 1, M
	}
	return k.cas(fmt.Sprintf("block_ptr_kernel/%s/%dx%d", layout, M, N), func(rng *rand.Rand) *Problem {
		x := randn(rng, FP32, 1, M, N)
		y, rowsum := make([]float64, M*N), make([]float64, M)
		for r := range M {
			for c := range N {
				v := x.Data[r*N+c]
				y[r*sym+c*syn] = FP32.Round(2*v + 1)
				rowsum[r] += v
			}
		}
		const block = 32
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "y": output(FP32, M*N), "rowsum": output(FP32, M)},
			Steps: []Step{{Kernel: "block_ptr_kernel", Args: []Arg{Ptr("x"), Ptr("y"), Ptr("rowsum"), Int(M), Int(N),
				Int(N), Int(1), Int(sym), Int(syn), Const(block), Const(block)},
				Grid: [3]int{cdiv(M, block), 1, 1}, NumWarps: 4, NumStages: 3}},
			Checks: []Check{{Tensor: "y", Want: y}, {Tensor: "rowsum", Want: rowsum}},
		}
	})
}

// tileStep launches one program over an M x N tile padded to 16 x 32, with the constexpr
// tail.
func tileStep(kernel string, ptrs []string, M, N int, tail ...Arg) Step {
	args := make([]Arg, 0, len(ptrs)+4+len(tail))
	for _, p := range ptrs {
		args = append(args, Ptr(p))
	}
	args = append(append(args, Int(M), Int(N), Const(16), Const(32)), tail...)
	return Step{Kernel: kernel, Args: args, Grid: [3]int{1, 1, 1}, NumWarps: 4, NumStages: 3}
}

// lanes visits the lines of an M x N row-major tile along axis: for each line, the flat
// indices of its elements in scan order (reversed when rev).
func lanes(M, N, axis int, rev bool, f func(idx []int)) {
	lines, length := N, M
	if axis == 1 {
		lines, length = M, N
	}
	idx := make([]int, length)
	for l := range lines {
		for k := range length {
			kk := k
			if rev {
				kk = length - 1 - k
			}
			if axis == 0 {
				idx[k] = kk*N + l
			} else {
				idx[k] = l*N + kk
			}
		}
		f(idx)
	}
}

// scanTile is scan_kernel's BLOCK_M x BLOCK_N and num_warps.
type scanTile struct{ bm, bn, warps int }

// scanCase: scan_kernel(x, a, cumsum, cumprod, rec, M, N, BLOCK_M, BLOCK_N, AXIS, REVERSE),
// with rec the first-order recurrence h = h_prev * a + x in scan order; tiles other than
// 16x32 on 4 warps are named in the case.
func scanCase(k kernelRef, M, N, axis int, rev bool, tile scanTile) Case {
	name := fmt.Sprintf("scan_kernel/axis=%d/reverse=%v/%dx%d", axis, rev, M, N)
	if tile != (scanTile{16, 32, 4}) {
		name += fmt.Sprintf("/block=%dx%d/w%d", tile.bm, tile.bn, tile.warps)
	}
	return k.cas(name, func(rng *rand.Rand) *Problem {
		x, a := randn(rng, FP32, 1, M, N), uniform(rng, FP32, 0.9, 1.1, M, N)
		sum, prod, rec := make([]float64, M*N), make([]float64, M*N), make([]float64, M*N)
		lanes(M, N, axis, rev, func(idx []int) {
			s, p, h := 0.0, 1.0, 0.0
			for _, i := range idx {
				s, p, h = s+x.Data[i], p*a.Data[i], h*a.Data[i]+x.Data[i]
				sum[i], prod[i], rec[i] = s, p, h
			}
		})
		return &Problem{
			Tensors: map[string]*Tensor{"x": x, "a": a, "cumsum": output(FP32, M, N), "cumprod": output(FP32, M, N), "rec": output(FP32, M, N)},
			Steps: []Step{{Kernel: "scan_kernel", Args: []Arg{Ptr("x"), Ptr("a"), Ptr("cumsum"), Ptr("cumprod"), Ptr("rec"), Int(M), Int(N),
				Const(tile.bm), Const(tile.bn), Const(axis), Const(rev)}, Grid: [3]int{1, 1, 1}, NumWarps: tile.warps, NumStages: 3}},
			Checks: []Check{{Tensor: "cumsum", Want: sum}, {Tensor: "cumprod", Want: prod}, {Tensor: "rec", Want: rec}},
		}
	})
}

// reduceCase: reduce_kernel(x, argmax, argmin, max, max_idx, min, min_idx, sum, sumsq,
// maxabs, M, N, 16, 32, AXIS) on small integers, so that ties are common.
func reduceCase(k kernelRef, M, N, axis int) Case {
	return k.cas(fmt.Sprintf("reduce_kernel/axis=%d/%dx%d", axis, M, N), func(rng *rand.Rand) *Problem {
		x := &Tensor{DType: FP32, Shape: []int{M, N}, Data: make([]float64, M*N)}
		for i := range x.Data {
			x.Data[i] = float64(rng.IntN(5) - 2)
		}
		var amax, amin, mx, mn, sum, sumsq, maxabs []float64
		lanes(M, N, axis, false, func(idx []int) {
			hiK, loK := 0, 0
			s, q, ma := 0.0, 0.0, 0.0
			for k, i := range idx {
				v := x.Data[i]
				if v > x.Data[idx[hiK]] {
					hiK = k
				}
				if v < x.Data[idx[loK]] {
					loK = k
				}
				s, q, ma = s+v, q+v*v, math.Max(ma, math.Abs(v))
			}
			amax, amin = append(amax, float64(hiK)), append(amin, float64(loK))
			mx, mn = append(mx, x.Data[idx[hiK]]), append(mn, x.Data[idx[loK]])
			sum, sumsq, maxabs = append(sum, s), append(sumsq, q), append(maxabs, ma)
		})
		n := len(sum)
		names := []string{"argmax", "argmin", "max", "max_idx", "min", "min_idx", "sum", "sumsq", "maxabs"}
		wants := [][]float64{amax, amin, mx, amax, mn, amin, sum, sumsq, maxabs}
		ts := map[string]*Tensor{"x": x}
		var checks []Check
		for i, name := range names {
			dt := FP32
			if i == 0 || i == 1 || i == 3 || i == 5 {
				dt = I32
			}
			ts[name] = output(dt, n)
			checks = append(checks, Check{Tensor: name, Want: wants[i]})
		}
		return &Problem{
			Tensors: ts,
			Steps:   []Step{tileStep("reduce_kernel", append([]string{"x"}, names...), M, N, Const(axis))},
			Checks:  checks,
		}
	})
}

// shapeOpsCase: shape_ops_kernel(x, y, joined, odd_even, trans, perm, bcast, total, M,
// BLOCK_M, N) over M x N inputs.
func shapeOpsCase(k kernelRef, M, N, blockM int) Case {
	return k.cas(fmt.Sprintf("shape_ops_kernel/%dx%d", M, N), func(rng *rand.Rand) *Problem {
		x, y := randn(rng, FP32, 1, M, N), randn(rng, FP32, 1, M, N)
		h := N / 2
		joined, oddEven := make([]float64, 2*M*N), make([]float64, M*h)
		trans, perm, bcast := make([]float64, M*N), make([]float64, M*N), make([]float64, M*N)
		total := make([]float64, cdiv(M, blockM))
		for r := range M {
			row := x.Data[r*N : (r+1)*N]
			rowMax := math.Inf(-1)
			for _, v := range row {
				rowMax = math.Max(rowMax, v)
			}
			for c, v := range row {
				joined[r*2*N+c], joined[r*2*N+N+c] = v, y.Data[r*N+c]
				trans[c*M+r] = v
				perm[((c%h)*M+r)*2+c/h] = v
				bcast[r*N+c] = rowMax - v + float64(c)
				total[r/blockM] += v + y.Data[r*N+c]
			}
			for c := range h {
				oddEven[r*h+c] = row[2*c+1] - row[2*c]
			}
		}
		ts := map[string]*Tensor{"x": x, "y": y, "joined": output(FP32, M, 2*N), "odd_even": output(FP32, M, h),
			"trans": output(FP32, N, M), "perm": output(FP32, h, M, 2), "bcast": output(FP32, M, N), "total": output(FP32, len(total))}
		return &Problem{
			Tensors: ts,
			Steps: []Step{{Kernel: "shape_ops_kernel", Args: []Arg{Ptr("x"), Ptr("y"), Ptr("joined"), Ptr("odd_even"), Ptr("trans"),
				Ptr("perm"), Ptr("bcast"), Ptr("total"), Int(M), Const(blockM), Const(N)},
				Grid: [3]int{cdiv(M, blockM), 1, 1}, NumWarps: 4, NumStages: 3}},
			Checks: []Check{{Tensor: "joined", Want: joined}, {Tensor: "odd_even", Want: oddEven}, {Tensor: "trans", Want: trans},
				{Tensor: "perm", Want: perm}, {Tensor: "bcast", Want: bcast}, {Tensor: "total", Want: total}},
		}
	})
}
