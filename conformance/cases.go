package conformance

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// The case tables. Our kernels (conformance/kernels) and the official tutorials share
// argument layouts topic by topic, so each topic is one generic builder, and each table
// row picks the source, file, kernel names, constexpr tail and sizes. Sizes are chosen so
// that the CPU interpreter finishes quickly, and include ragged ones (not multiples of
// the block).

// kernelRef names a kernel of one source.
type kernelRef struct {
	src  Source
	file string
	tag  string // short prefix of case names: "ours/vector_add", "tutorial/01"
}

func (k kernelRef) cas(name string, build func(*rand.Rand) *Problem) Case {
	return Case{Name: k.tag + "/" + name, Source: k.src, File: k.file, Build: build}
}

// ---- element-wise: add, pdl add, asin and friends ----

// addCases: kernel(x, y, out, n, BLOCK_SIZE, extra...) with out = x + y.
func addCases(k kernelRef, kernel, label string, dt DType, extra []Arg, sizes ...int) []Case {
	var out []Case
	for _, n := range sizes {
		out = append(out, k.cas(fmt.Sprintf("%s/%s/%s/n=%d", kernel, label, dt, n), func(rng *rand.Rand) *Problem {
			x, y := randn(rng, dt, 1, n), randn(rng, dt, 1, n)
			return &Problem{
				Tensors: map[string]*Tensor{"x": x, "y": y, "out": output(dt, n)},
				Steps: []Step{{Kernel: kernel, Args: append([]Arg{Ptr("x"), Ptr("y"), Ptr("out"), Int(n), Const(1024)}, extra...),
					Grid: [3]int{cdiv(n, 1024), 1, 1}, NumWarps: 4, NumStages: 3}},
				Checks: []Check{{Tensor: "out", Want: zipf(x.Data, y.Data, func(a, b float64) float64 { return a + b })}},
			}
		}))
	}
	return out
}

// unaryCases: kernel(x, y, n, [mid...], BLOCK_SIZE) with y = f(x), x uniform in [lo, hi).
func unaryCases(k kernelRef, kernel, label string, dt DType, lo, hi float64, mid []Arg, f func(float64) float64, sizes ...int) []Case {
	var out []Case
	for _, n := range sizes {
		out = append(out, k.cas(fmt.Sprintf("%s/%s/%s/n=%d", kernel, label, dt, n), func(rng *rand.Rand) *Problem {
			x := uniform(rng, dt, lo, hi, n)
			args := append(append([]Arg{Ptr("x"), Ptr("y"), Int(n)}, mid...), Const(1024))
			return &Problem{
				Tensors: map[string]*Tensor{"x": x, "y": output(dt, n)},
				Steps:   []Step{{Kernel: kernel, Args: args, Grid: [3]int{cdiv(n, 1024), 1, 1}, NumWarps: 4, NumStages: 3}},
				Checks:  []Check{{Tensor: "y", Want: mapf(x.Data, f)}},
			}
		}))
	}
	return out
}

// ---- softmax ----

// softmaxCases: kernel(out, in, in_stride, out_stride, rows, cols, BLOCK_SIZE, NUM_STAGES).
func softmaxCases(k kernelRef, kernel string, dt DType, shapes ...[2]int) []Case {
	var out []Case
	for _, sh := range shapes {
		rows, cols := sh[0], sh[1]
		out = append(out, k.cas(fmt.Sprintf("%s/%s/%dx%d", kernel, dt, rows, cols), func(rng *rand.Rand) *Problem {
			x := randn(rng, dt, 1, rows, cols)
			block := nextPow2(cols)
			warps := 4
			if block >= 2048 {
				warps = 8
			}
			if block >= 8192 {
				warps = 16
			}
			return &Problem{
				Tensors: map[string]*Tensor{"x": x, "y": output(dt, rows, cols)},
				Steps: []Step{{Kernel: kernel, Args: []Arg{Ptr("y"), Ptr("x"), Int(cols), Int(cols), Int(rows), Int(cols), Const(block), Const(4)},
					Grid: [3]int{min(rows, 132*4), 1, 1}, NumWarps: warps, NumStages: 3}},
				Checks: []Check{{Tensor: "y", Want: softmaxRows(x.Data, rows, cols)}},
			}
		}))
	}
	return out
}

// ---- matmul ----

// gemmConfig is a tile configuration (an autotune config).
type gemmConfig struct{ bm, bn, bk, gm, warps, stages int }

// matmulCases: kernel(a, b, c, M, N, K, strides x6, BM, BN, BK, GM, tail...) computing
// c = act(a @ b); bKMajor stores b as [N, K] (stride_bk = 1).
func matmulCases(k kernelRef, kernel, label string, in, outT DType, cfg gemmConfig, bKMajor bool, act func(float64) float64, tail []Arg, persistent bool, shapes ...[3]int) []Case {
	var out []Case
	for _, sh := range shapes {
		M, N, K := sh[0], sh[1], sh[2]
		out = append(out, k.cas(fmt.Sprintf("%s/%s/%dx%dx%d", kernel, label, M, N, K), func(rng *rand.Rand) *Problem {
			a := randn(rng, in, 0.5, M, K)
			var b *Tensor
			var bAt func(i, j int) float64
			sbk, sbn := N, 1
			if bKMajor {
				b = randn(rng, in, 0.5, N, K)
				bAt, sbk, sbn = transposed(b.Data, K), 1, K
			} else {
				b = randn(rng, in, 0.5, K, N)
				bAt = rowMajor(b.Data, N)
			}
			want := matmul(M, N, K, rowMajor(a.Data, K), bAt)
			if act != nil {
				want = mapf(want, act)
			}
			tiles := cdiv(M, cfg.bm) * cdiv(N, cfg.bn)
			grid := tiles
			if persistent {
				grid = min(132, tiles)
			}
			args := append([]Arg{Ptr("a"), Ptr("b"), Ptr("c"), Int(M), Int(N), Int(K), Int(K), Int(1), Int(sbk), Int(sbn), Int(N), Int(1),
				Const(cfg.bm), Const(cfg.bn), Const(cfg.bk), Const(cfg.gm)}, tail...)
			return &Problem{
				Tensors: map[string]*Tensor{"a": a, "b": b, "c": output(outT, M, N)},
				Steps:   []Step{{Kernel: kernel, Args: args, Grid: [3]int{grid, 1, 1}, NumWarps: cfg.warps, NumStages: cfg.stages}},
				Checks:  []Check{{Tensor: "c", Want: want}},
			}
		}))
	}
	return out
}

// descMatmulCases: the descriptor kernels kernel(a, b, c, M, N, K, BM, BN, BK, GM, tail...)
// with b given as [N, K]; host says whether a, b, c are host descriptors (else raw
// pointers turned into descriptors on the device). cBlockN is c's descriptor block width.
func descMatmulCases(k kernelRef, kernel, label string, dt DType, cfg gemmConfig, host bool, cBlockN int, tail []Arg, persistent bool, shapes ...[3]int) []Case {
	var out []Case
	for _, sh := range shapes {
		M, N, K := sh[0], sh[1], sh[2]
		out = append(out, k.cas(fmt.Sprintf("%s/%s/%dx%dx%d", kernel, label, M, N, K), func(rng *rand.Rand) *Problem {
			a, b := randn(rng, dt, 0.5, M, K), randn(rng, dt, 0.5, N, K)
			want := matmul(M, N, K, rowMajor(a.Data, K), transposed(b.Data, K))
			ops := []Arg{Ptr("a"), Ptr("b"), Ptr("c")}
			if host {
				ops = []Arg{Desc("a", cfg.bm, cfg.bk), Desc("b", cfg.bn, cfg.bk), Desc("c", cfg.bm, cBlockN)}
			}
			tiles := cdiv(M, cfg.bm) * cdiv(N, cfg.bn)
			grid := tiles
			if persistent {
				grid = min(132, tiles)
			}
			args := append(append(ops, Int(M), Int(N), Int(K), Const(cfg.bm), Const(cfg.bn), Const(cfg.bk), Const(cfg.gm)), tail...)
			return &Problem{
				Tensors: map[string]*Tensor{"a": a, "b": b, "c": output(dt, M, N)},
				Steps:   []Step{{Kernel: kernel, Args: args, Grid: [3]int{grid, 1, 1}, NumWarps: cfg.warps, NumStages: cfg.stages}},
				Checks:  []Check{{Tensor: "c", Want: want}},
			}
		}))
	}
	return out
}

// groupedGemmCases: kernel(a_addrs, b_addrs, c_addrs, sizes, lds, count, NUM_SM, BM, BN,
// BK, tail...) over groups of (M, N, K); bNK stores each B as [N, K].
func groupedGemmCases(k kernelRef, kernel, label string, dt DType, cfg gemmConfig, bNK bool, tail []Arg, groups ...[3]int) []Case {
	name := fmt.Sprintf("%s/%s/%dgroups", kernel, label, len(groups))
	return []Case{k.cas(name, func(rng *rand.Rand) *Problem {
		ts := map[string]*Tensor{}
		var as, bs, cs []string
		var sizes, lds []float64
		var checks []Check
		for g, sh := range groups {
			M, N, K := sh[0], sh[1], sh[2]
			an, bn, cn := fmt.Sprintf("a%d", g), fmt.Sprintf("b%d", g), fmt.Sprintf("c%d", g)
			a := randn(rng, dt, 0.5, M, K)
			var b *Tensor
			var bAt func(i, j int) float64
			ldb := N
			if bNK {
				b, ldb = randn(rng, dt, 0.5, N, K), K
				bAt = transposed(b.Data, K)
			} else {
				b = randn(rng, dt, 0.5, K, N)
				bAt = rowMajor(b.Data, N)
			}
			ts[an], ts[bn], ts[cn] = a, b, output(FP16, M, N)
			as, bs, cs = append(as, an), append(bs, bn), append(cs, cn)
			sizes = append(sizes, float64(M), float64(N), float64(K))
			lds = append(lds, float64(K), float64(ldb), float64(N))
			checks = append(checks, Check{Tensor: cn, Want: matmul(M, N, K, rowMajor(a.Data, K), bAt)})
		}
		ptrs := func(of []string) *Tensor { return &Tensor{DType: I64, Shape: []int{len(of)}, AddrOf: of} }
		ts["a_addrs"], ts["b_addrs"], ts["c_addrs"] = ptrs(as), ptrs(bs), ptrs(cs)
		ts["sizes"], ts["lds"] = fromData(I32, sizes, len(sizes)), fromData(I32, lds, len(lds))
		args := append([]Arg{Ptr("a_addrs"), Ptr("b_addrs"), Ptr("c_addrs"), Ptr("sizes"), Ptr("lds"), Int(len(groups)),
			Const(132), Const(cfg.bm), Const(cfg.bn), Const(cfg.bk)}, tail...)
		return &Problem{
			Tensors: ts,
			Steps:   []Step{{Kernel: kernel, Args: args, Grid: [3]int{132, 1, 1}, NumWarps: cfg.warps, NumStages: cfg.stages}},
			Checks:  checks,
		}
	})}
}

// ---- dropout ----

// maskedDropoutCases: kernel(x, keep, out, n, p, BLOCK_SIZE) with a keep mask of type keepT.
func maskedDropoutCases(k kernelRef, kernel string, keepT DType, sizes ...int) []Case {
	var out []Case
	for _, n := range sizes {
		out = append(out, k.cas(fmt.Sprintf("%s/n=%d", kernel, n), func(rng *rand.Rand) *Problem {
			const p = 0.5
			x := randn(rng, FP32, 1, n)
			keep := zeros(keepT, n)
			want := make([]float64, n)
			for i := range keep.Data {
				if rng.Float64() > p {
					keep.Data[i] = 1
					want[i] = x.Data[i] / (1 - p)
				}
			}
			return &Problem{
				Tensors: map[string]*Tensor{"x": x, "keep": keep, "out": output(FP32, n)},
				Steps: []Step{{Kernel: kernel, Args: []Arg{Ptr("x"), Ptr("keep"), Ptr("out"), Int(n), Float(p), Const(1024)},
					Grid: [3]int{cdiv(n, 1024), 1, 1}, NumWarps: 4, NumStages: 3}},
				Checks: []Check{{Tensor: "out", Want: want}},
			}
		}))
	}
	return out
}

// seededDropoutCases: kernel(x, out, n, p, seed, BLOCK_SIZE); the reference draws the same
// Philox numbers as tl.rand.
func seededDropoutCases(k kernelRef, kernel string, seed int, sizes ...int) []Case {
	var out []Case
	for _, n := range sizes {
		out = append(out, k.cas(fmt.Sprintf("%s/seed=%d/n=%d", kernel, seed, n), func(rng *rand.Rand) *Problem {
			const p = 0.5
			x := randn(rng, FP32, 1, n)
			want := make([]float64, n)
			for i := range want {
				if Rand(int64(seed), int32(i)) > float32(p) {
					want[i] = x.Data[i] / (1 - p)
				}
			}
			return &Problem{
				Tensors: map[string]*Tensor{"x": x, "out": output(FP32, n)},
				Steps: []Step{{Kernel: kernel, Args: []Arg{Ptr("x"), Ptr("out"), Int(n), Float(p), Int(seed), Const(1024)},
					Grid: [3]int{cdiv(n, 1024), 1, 1}, NumWarps: 4, NumStages: 3}},
				Checks: []Check{{Tensor: "out", Want: want}},
			}
		}))
	}
	return out
}

// ---- layer norm ----

// layerNormKernels names the three layer-norm kernels of a source and the partial-sum
// type of the backward pass (fp16 in the tutorial, fp32 in ours).
type layerNormKernels struct {
	fwd, dx, dwdb string
	partial       DType
	groups        func(n int) int
}

// layerNormCases runs forward, backward dx (with the lock protocol) and the dw/db
// reduction in sequence, and checks every output.
func layerNormCases(k kernelRef, ln layerNormKernels, shapes ...[2]int) []Case {
	var out []Case
	for _, sh := range shapes {
		M, N := sh[0], sh[1]
		out = append(out, k.cas(fmt.Sprintf("layer_norm/fwd+bwd/%dx%d", M, N), func(rng *rand.Rand) *Problem {
			const eps = 1e-5
			x := randn(rng, FP16, 1, M, N)
			w := uniform(rng, FP16, 0.5, 1.5, N)
			b := randn(rng, FP16, 0.1, N)
			dy := randn(rng, FP16, 0.1, M, N)
			ref := layerNorm(x.Data, w.Data, b.Data, dy.Data, M, N, eps)
			block := min(65536/2, nextPow2(N))
			warps := min(max(block/256, 1), 8)
			g := ln.groups(N)
			ts := map[string]*Tensor{
				"x": x, "w": w, "b": b, "dy": dy, "y": output(FP16, M, N),
				"mean": output(FP32, M), "rstd": output(FP32, M), "dx": output(FP16, M, N),
				"locks": zeros(I32, 2*g), "pdw": zeros(ln.partial, g, N), "pdb": zeros(ln.partial, g, N),
				"dw": output(FP16, N), "db": output(FP16, N),
			}
			return &Problem{
				Tensors: ts,
				Steps: []Step{
					{Kernel: ln.fwd, Args: []Arg{Ptr("x"), Ptr("y"), Ptr("w"), Ptr("b"), Ptr("mean"), Ptr("rstd"), Int(N), Int(N), Float(eps), Const(block)},
						Grid: [3]int{M, 1, 1}, NumWarps: warps, NumStages: 3},
					{Kernel: ln.dx, Args: []Arg{Ptr("dx"), Ptr("dy"), Ptr("pdw"), Ptr("pdb"), Ptr("x"), Ptr("w"), Ptr("mean"), Ptr("rstd"), Ptr("locks"),
						Int(N), Int(N), Const(g), Const(block)}, Grid: [3]int{M, 1, 1}, NumWarps: warps, NumStages: 3},
					{Kernel: ln.dwdb, Args: []Arg{Ptr("pdw"), Ptr("pdb"), Ptr("dw"), Ptr("db"), Int(g), Int(N), Const(32), Const(128)},
						Grid: [3]int{cdiv(N, 128), 1, 1}, NumWarps: 4, NumStages: 3},
				},
				Checks: []Check{{Tensor: "y", Want: ref.y}, {Tensor: "mean", Want: ref.mean}, {Tensor: "rstd", Want: ref.rstd},
					{Tensor: "dx", Want: ref.dx}, {Tensor: "dw", Want: ref.dw}, {Tensor: "db", Want: ref.db}},
			}
		}))
	}
	return out
}

// ---- attention ----

// attnFwdCases: forward attention over Z*H heads of N_CTX x d fp16 matrices. args builds
// the argument list from the descriptor/pointer operands.
func attnFwdCases(k kernelRef, kernel, label string, d int, causal bool, warps int, args func(ops []Arg, zh [2]int, n int) []Arg, host bool, shapes ...[3]int) []Case {
	var out []Case
	for _, sh := range shapes {
		Z, H, n := sh[0], sh[1], sh[2]
		out = append(out, k.cas(fmt.Sprintf("%s/%s/d=%d/%dx%dx%d", kernel, label, d, Z, H, n), func(rng *rand.Rand) *Problem {
			rows := Z * H * n
			q, kk, v := randn(rng, FP16, 0.5, rows, d), randn(rng, FP16, 0.5, rows, d), randn(rng, FP16, 0.5, rows, d)
			scale := 0.5
			ref := attention(q.Data, kk.Data, v.Data, nil, nil, Z*H, n, d, scale, causal)
			ops := []Arg{Ptr("q"), Ptr("k"), Ptr("v"), Ptr("o")}
			if host {
				ops = []Arg{Desc("q", 128, d), Desc("k", 64, d), Desc("v", 64, d), Desc("o", 128, d)}
			}
			return &Problem{
				Tensors: map[string]*Tensor{"q": q, "k": kk, "v": v, "o": output(FP16, rows, d), "lse": output(FP32, Z*H*n)},
				Steps: []Step{{Kernel: kernel, Args: append([]Arg{Float(scale), Ptr("lse"), Int(Z), Int(H)}, args(ops, [2]int{Z, H}, n)...),
					Grid: [3]int{cdiv(n, 128), Z * H, 1}, NumWarps: warps, NumStages: 3}},
				Checks: []Check{{Tensor: "o", Want: ref.out}, {Tensor: "lse", Want: ref.lse}},
			}
		}))
	}
	return out
}

// attnBwdCases runs the backward preprocess and the backward kernel in sequence, with the
// forward output and log-sum-exp from the float64 reference. kScale multiplies K before
// it is passed (the tutorial passes K * sm_scale / ln 2); tail is the constexpr tail.
func attnBwdCases(k kernelRef, pre, kernel, label string, causal bool, kScale float64, tail []Arg, shapes ...[4]int) []Case {
	var out []Case
	for _, sh := range shapes {
		Z, H, n, d := sh[0], sh[1], sh[2], sh[3]
		out = append(out, k.cas(fmt.Sprintf("%s/%s/d=%d/%dx%dx%d", kernel, label, d, Z, H, n), func(rng *rand.Rand) *Problem {
			rows := Z * H * n
			scale := 0.5
			q, kk, v := randn(rng, FP16, 0.5, rows, d), randn(rng, FP16, 0.5, rows, d), randn(rng, FP16, 0.5, rows, d)
			do := randn(rng, FP16, 0.5, rows, d)
			argK := fromData(FP16, mapf(kk.Data, func(x float64) float64 { return x * kScale }), rows, d)
			// The kernel sees K as argK / kScale: use exactly that in the reference.
			kEff := mapf(argK.Data, func(x float64) float64 { return x / kScale })
			fwd := attention(q.Data, kEff, v.Data, nil, nil, Z*H, n, d, scale, causal)
			o := fromData(FP16, fwd.out, rows, d)
			ref := attention(q.Data, kEff, v.Data, o.Data, do.Data, Z*H, n, d, scale, causal)
			ts := map[string]*Tensor{"q": q, "k": argK, "v": v, "o": o, "do": do, "lse": fromData(FP32, fwd.lse, Z*H*n),
				"delta": output(FP32, Z*H*n), "dq": output(FP16, rows, d), "dk": output(FP16, rows, d), "dv": output(FP16, rows, d)}
			return &Problem{
				Tensors: ts,
				Steps: []Step{
					{Kernel: pre, Args: []Arg{Ptr("o"), Ptr("do"), Ptr("delta"), Int(Z), Int(H), Int(n), Const(128), Const(d)},
						Grid: [3]int{n / 128, Z * H, 1}, NumWarps: 4, NumStages: 3},
					{Kernel: kernel, Args: append([]Arg{Ptr("q"), Ptr("k"), Ptr("v"), Float(scale), Ptr("do"), Ptr("dq"), Ptr("dk"), Ptr("dv"),
						Ptr("lse"), Ptr("delta"), Int(H * n * d), Int(n * d), Int(d), Int(1), Int(H), Int(n),
						Const(32), Const(128), Const(128), Const(32), Const(2), Const(d)}, tail...),
						Grid: [3]int{n / 128, 1, Z * H}, NumWarps: 4, NumStages: 5},
				},
				Checks: []Check{{Tensor: "delta", Want: ref.delta}, {Tensor: "dq", Want: ref.dq}, {Tensor: "dk", Want: ref.dk}, {Tensor: "dv", Want: ref.dv}},
			}
		}))
	}
	return out
}

// ---- the tables ----

func ours(stem string) kernelRef {
	return kernelRef{src: Ours, file: stem + ".py", tag: "ours/" + stem}
}

func tutorial(file string) kernelRef {
	return kernelRef{src: Tutorial, file: file, tag: "tutorial/" + file[:2]}
}

func asin(x float64) float64 { return math.Asin(x) }

// OurCases are the cases over our own kernels (conformance/kernels), which CI runs.
func OurCases() []Case {
	var cs []Case
	va, sm, mm := ours("vector_add"), ours("softmax"), ours("matmul")
	cs = append(cs, addCases(va, "vector_add_kernel", "add", FP32, nil, 98432, 4097, 1)...)
	cs = append(cs, addCases(va, "vector_add_kernel", "add", FP16, nil, 65536, 1000)...)
	cs = append(cs, softmaxCases(sm, "row_softmax_kernel", FP32, [2]int{1823, 781}, [2]int{64, 4096})...)
	cs = append(cs, softmaxCases(sm, "row_softmax_kernel", FP16, [2]int{130, 1000})...)
	big := gemmConfig{128, 256, 64, 8, 8, 3}
	rag := gemmConfig{128, 128, 64, 8, 4, 4}
	cs = append(cs, matmulCases(mm, "grouped_matmul_kernel", "fp16", FP16, FP16, big, false, nil, []Arg{Const(nil)}, false, [3]int{256, 512, 128})...)
	cs = append(cs, matmulCases(mm, "grouped_matmul_kernel", "leaky_relu", FP16, FP16, big, false, leakyReLU, []Arg{Str("leaky_relu")}, false, [3]int{256, 512, 128})...)
	cs = append(cs, matmulCases(mm, "grouped_matmul_kernel", "ragged", FP16, FP16, rag, false, leakyReLU, []Arg{Str("leaky_relu")}, false, [3]int{200, 300, 150}, [3]int{1, 129, 77})...)
	cs = append(cs, matmulCases(mm, "grouped_matmul_kernel", "fp8e5", FP8E5, FP16, big, true, nil, []Arg{Const(nil)}, false, [3]int{256, 256, 128})...)

	dr := ours("dropout")
	cs = append(cs, maskedDropoutCases(dr, "masked_dropout_kernel", I1, 65536, 4099)...)
	cs = append(cs, seededDropoutCases(dr, "seeded_dropout_kernel", 1234, 65536, 4099)...)

	cs = append(cs, layerNormCases(ours("layer_norm"), layerNormKernels{"layer_norm_fwd_kernel", "layer_norm_bwd_dx_kernel", "layer_norm_bwd_dwdb_kernel", FP32,
		func(n int) int {
			switch {
			case n <= 1024:
				return 256
			case n <= 4096:
				return 128
			}
			return 64
		}}, [2]int{300, 1000}, [2]int{64, 8192})...)

	at := ours("attention")
	ourFwd := func(ops []Arg, _ [2]int, n int, d int, stage int) []Arg {
		return append(ops, Int(n), Const(d), Const(128), Const(64), Const(stage), Const(false))
	}
	for _, v := range []struct {
		label  string
		d      int
		causal bool
		host   bool
	}{{"host", 64, false, true}, {"host_causal", 64, true, true}, {"device_causal", 64, true, false}, {"host", 128, false, true}} {
		stage, warps := 1, 4
		if v.causal {
			stage = 3
		}
		if v.d > 64 {
			warps = 8
		}
		d := v.d
		cs = append(cs, attnFwdCases(at, "attn_fwd_kernel", v.label, d, v.causal, warps,
			func(ops []Arg, zh [2]int, n int) []Arg { return ourFwd(ops, zh, n, d, stage) }, v.host, [3]int{1, 2, 256}, [3]int{4, 16, 128})...)
	}
	cs = append(cs, attnBwdCases(at, "attn_bwd_preprocess_kernel", "attn_bwd_kernel", "causal", true, 1, []Arg{Const(true)}, [4]int{1, 2, 256, 64})...)
	cs = append(cs, attnBwdCases(at, "attn_bwd_preprocess_kernel", "attn_bwd_kernel", "noncausal", false, 1, []Arg{Const(false)}, [4]int{1, 2, 256, 64})...)

	lm := ours("libdevice_math")
	cs = append(cs, unaryCases(lm, "asin_kernel", "asin", FP32, -1, 1, nil, asin, 98432, 1000)...)
	cs = append(cs, unaryCases(lm, "asin_kernel", "asin", FP64, -1, 1, nil, asin, 4097)...)
	for _, u := range []struct {
		op     string
		lo, hi float64
		f      func(float64) float64
	}{
		{"exp", -5, 5, math.Exp}, {"tanh", -4, 4, math.Tanh}, {"erf", -3, 3, math.Erf},
		{"expm1", -5, 5, math.Expm1}, {"tan", -4, 4, math.Tan},
		{"rsqrt", -4, 4, func(x float64) float64 { return 1 / math.Sqrt(math.Abs(x)+1e-6) }},
		{"tl_exp", -5, 5, math.Exp}, {"tl_sqrt", -4, 4, func(x float64) float64 { return math.Sqrt(math.Abs(x)) }},
		{"tl_log", -4, 4, func(x float64) float64 { return math.Log(math.Abs(x) + 1e-6) }},
	} {
		cs = append(cs, unaryCases(lm, "unary_math_kernel", u.op, FP32, u.lo, u.hi, []Arg{Str(u.op)}, u.f, 5000)...)
	}
	cs = append(cs, unaryCases(lm, "gelu_tanh_kernel", "gelu", FP32, -4, 4, nil, func(x float64) float64 {
		return 0.5 * x * (1 + math.Tanh(0.7978845608028654*(x+0.044715*x*x*x)))
	}, 5000)...)
	cs = append(cs, unaryCases(lm, "softplus_kernel", "softplus", FP32, -30, 30, []Arg{Float(20)}, func(x float64) float64 {
		if x > 20 {
			return x
		}
		return math.Log1p(math.Exp(x))
	}, 5000)...)

	gg := ours("grouped_gemm")
	// {64, 136, 200}, {200, 104, 256}: TMA copies need 16-byte row strides (as real
	// Triton's descriptors do), so N and K are multiples of 8 fp16 elements.
	groups := [][3]int{{128, 128, 64}, {100, 200, 96}, {256, 64, 32}, {64, 136, 200}}
	cs = append(cs, groupedGemmCases(gg, "grouped_gemm_kernel", "fp16", FP16, gemmConfig{128, 128, 32, 0, 4, 3}, false, nil, groups...)...)
	cs = append(cs, groupedGemmCases(gg, "grouped_gemm_tma_kernel", "fp16", FP16, gemmConfig{128, 128, 64, 0, 4, 3}, true, []Arg{Const(false)}, groups...)...)
	cs = append(cs, groupedGemmCases(gg, "grouped_gemm_tma_kernel", "fp8", FP8E4NV, gemmConfig{128, 256, 128, 0, 8, 3}, true, []Arg{Const(true)}, [3]int{128, 256, 128}, [3]int{200, 104, 256})...)

	pm := ours("persistent_matmul")
	fp16cfg := gemmConfig{128, 256, 64, 8, 8, 3}
	fp8cfg := gemmConfig{128, 256, 128, 8, 8, 3}
	// K = 104, not a multiple of BLOCK_K: host descriptors need 16-byte row strides (as
	// Triton's TensorDescriptor and TMA do), so odd sizes are in M and N only.
	pmShapes := [][3]int{{256, 512, 128}, {300, 200, 104}}
	cs = append(cs, matmulCases(pm, "matmul_tiled_kernel", "fp16", FP16, FP16, fp16cfg, false, nil, nil, false, pmShapes...)...)
	cs = append(cs, matmulCases(pm, "matmul_tiled_kernel", "fp8", FP8E4NV, FP8E4NV, fp8cfg, true, nil, nil, false, [3]int{256, 256, 128})...)
	cs = append(cs, matmulCases(pm, "matmul_persistent_kernel", "fp16", FP16, FP16, fp16cfg, false, nil, []Arg{Const(132)}, true, pmShapes...)...)
	cs = append(cs, descMatmulCases(pm, "matmul_tma_persistent_kernel", "fp16_subtile", FP16, fp16cfg, true, 128,
		[]Arg{Const(false), Const(true), Const(132), Const(false)}, true, pmShapes...)...)
	cs = append(cs, descMatmulCases(pm, "matmul_tma_persistent_kernel", "fp8", FP8E4NV, fp8cfg, true, 256,
		[]Arg{Const(true), Const(false), Const(132), Const(false)}, true, [3]int{256, 256, 128})...)
	cs = append(cs, descMatmulCases(pm, "matmul_descriptor_persistent_kernel", "fp16_flatten", FP16, fp16cfg, false, 128,
		[]Arg{Const(true), Const(132), Const(false), Const(true)}, true, pmShapes...)...)
	cs = append(cs, descMatmulCases(pm, "matmul_descriptor_persistent_kernel", "fp16_ws", FP16, fp16cfg, false, 128,
		[]Arg{Const(true), Const(132), Const(true), Const(false)}, true, [3]int{256, 512, 128})...)

	pa := ours("pdl_add")
	cs = append(cs, addCases(pa, "pdl_add_kernel", "gdc", FP32, []Arg{Const(true)}, 98432, 4097)...)
	cs = append(cs, addCases(pa, "pdl_add_kernel", "no_gdc", FP32, []Arg{Const(false)}, 4097)...)
	cs = append(cs, featureCases()...)
	cs = append(cs, dotScaledCases()...)
	cs = append(cs, dotPrecisionCases()...)
	cs = append(cs, languageCases()...)
	cs = append(cs, inductorCases()...)
	return append(cs, regressionCases()...)
}

// The tutorials' kernels that both the default tables and the real sizes use.
var (
	t03 = tutorial("03-matrix-multiplication.py")
	t04 = tutorial("04-low-memory-dropout.py")
	t05 = tutorial("05-layer-norm.py")
	t06 = tutorial("06-fused-attention.py")
	t08 = tutorial("08-grouped-gemm.py")
	t09 = tutorial("09-persistent-matmul.py")
	t11 = tutorial("11-programmatic-dependent-launch.py")

	t03Big     = gemmConfig{128, 256, 64, 8, 8, 3}
	t03FP8     = gemmConfig{128, 256, 128, 8, 8, 3}
	t08Ptr     = gemmConfig{128, 128, 32, 0, 4, 3}
	t08TMA     = gemmConfig{128, 128, 64, 0, 4, 3}
	t09Cfg     = gemmConfig{128, 256, 64, 8, 8, 3}
	t05Kernels = layerNormKernels{"_layer_norm_fwd_fused", "_layer_norm_bwd_dx_fused", "_layer_norm_bwd_dwdb", FP16,
		func(n int) int {
			switch {
			case n <= 1024:
				return 256
			case n <= 4096:
				return 128
			case n <= 8192:
				return 96
			}
			return 64
		}}
)

// t06FwdCases: the tutorial's forward attention at HEAD_DIM 64 and 128, causal and not,
// over the given (Z, H, N_CTX) shapes.
func t06FwdCases(shapes ...[3]int) []Case {
	var cs []Case
	for _, v := range []struct {
		d      int
		causal bool
	}{{64, false}, {64, true}, {128, false}, {128, true}} {
		stage, warps, label := 1, 4, "noncausal"
		if v.causal {
			stage, label = 3, "causal"
		}
		if v.d > 64 {
			warps = 8
		}
		d := v.d
		cs = append(cs, attnFwdCases(t06, "_attn_fwd", label, d, v.causal, warps, func(ops []Arg, _ [2]int, n int) []Arg {
			return append(ops, Int(n), Const(d), Const(128), Const(64), Const(false), Const(stage), Const(false), Const(true))
		}, true, shapes...)...)
	}
	return cs
}

// t06BwdCases: the tutorial's causal backward (preprocess, then _attn_bwd) over (Z, H,
// N_CTX, HEAD_DIM) shapes; the tutorial passes K * sm_scale / ln 2.
func t06BwdCases(shapes ...[4]int) []Case {
	return attnBwdCases(t06, "_attn_bwd_preprocess", "_attn_bwd", "causal", true, 0.5*1.4426950408889634, nil, shapes...)
}

// t09Cases: the five matmul kernels of tutorial 09 over the given shapes.
func t09Cases(shapes ...[3]int) []Case {
	var cs []Case
	cfg := t09Cfg
	cs = append(cs, matmulCases(t09, "matmul_kernel", "fp16", FP16, FP16, cfg, false, nil, nil, false, shapes...)...)
	cs = append(cs, matmulCases(t09, "matmul_kernel_persistent", "fp16", FP16, FP16, cfg, false, nil, []Arg{Const(132)}, true, shapes...)...)
	cs = append(cs, descMatmulCases(t09, "matmul_kernel_tma", "fp16", FP16, cfg, true, 256, []Arg{Const(false), Const(false)}, false, shapes...)...)
	cs = append(cs, descMatmulCases(t09, "matmul_kernel_tma_persistent", "fp16_subtile", FP16, cfg, true, 128,
		[]Arg{Const(false), Const(true), Const(132), Const(false)}, true, shapes...)...)
	cs = append(cs, descMatmulCases(t09, "matmul_kernel_descriptor_persistent", "fp16_subtile", FP16, cfg, false, 128,
		[]Arg{Const(true), Const(132), Const(false), Const(true)}, true, shapes...)...)
	return cs
}

// TutorialCases are the cases over the official Triton 3.6 tutorials (every kernel that
// runs on sm_90), launched as the tutorials' host code launches them.
func TutorialCases() []Case {
	var cs []Case
	cs = append(cs, addCases(tutorial("01-vector-add.py"), "add_kernel", "add", FP32, nil, 98432, 4097)...)
	cs = append(cs, softmaxCases(tutorial("02-fused-softmax.py"), "softmax_kernel", FP32, [2]int{1823, 781}, [2]int{64, 4096})...)

	big := t03Big
	cs = append(cs, matmulCases(t03, "matmul_kernel", "fp16", FP16, FP16, big, false, nil, []Arg{Str("")}, false, [3]int{256, 512, 128}, [3]int{200, 300, 150})...)
	cs = append(cs, matmulCases(t03, "matmul_kernel", "leaky_relu", FP16, FP16, big, false, leakyReLU, []Arg{Str("leaky_relu")}, false, [3]int{256, 512, 128}, [3]int{200, 300, 150})...)
	cs = append(cs, matmulCases(t03, "matmul_kernel", "fp8e5", FP8E5, FP16, t03FP8, true, nil, []Arg{Str("")}, false, [3]int{256, 256, 256})...)

	cs = append(cs, maskedDropoutCases(t04, "_dropout", I32, 65536, 4099)...)
	cs = append(cs, seededDropoutCases(t04, "_seeded_dropout", 123, 65536, 4099)...)

	cs = append(cs, layerNormCases(t05, t05Kernels, [2]int{300, 1000}, [2]int{64, 8192})...)

	cs = append(cs, t06FwdCases([3]int{1, 2, 256})...)
	cs = append(cs, t06BwdCases([4]int{1, 2, 256, 64}, [4]int{2, 1, 128, 64})...)

	cs = append(cs, unaryCases(tutorial("07-extern-functions.py"), "asin_kernel", "asin", FP32, -1, 1, nil, asin, 98432, 1000)...)

	// TMA copies need 16-byte row strides (as real Triton's descriptors do): N and K of
	// multiples of 8 fp16 elements, ragged against the blocks.
	groups := [][3]int{{128, 128, 64}, {100, 200, 96}, {256, 64, 32}, {64, 136, 200}}
	// The pointer kernel assumes whole tiles (its loads and stores are unmasked), as the
	// tutorial's problem sizes are: M and N multiples of 128, K of 32.
	whole := [][3]int{{128, 128, 64}, {256, 128, 128}, {128, 256, 96}}
	cs = append(cs, groupedGemmCases(t08, "grouped_matmul_kernel", "fp16", FP16, t08Ptr, false, nil, whole...)...)
	cs = append(cs, groupedGemmCases(t08, "grouped_matmul_tma_kernel", "fp16", FP16, t08TMA, true, []Arg{Const(false)}, groups...)...)

	cs = append(cs, t09Cases([3]int{256, 512, 128}, [3]int{300, 200, 104})...) // K: 16-byte descriptor strides

	cs = append(cs, addCases(t11, "add_kernel", "pdl", FP32, []Arg{Const(true)}, 98432, 4097)...)
	return cs
}

// RealSizeCases are the official tutorials at the sizes their own host code validates
// (issue 5: the GPU suite "at the tutorials' real sizes"), as Large cases that run only
// when asked (`gotriton conformance --real-sizes`). Sizes that the default tables already
// hold are not repeated: 01 add n=98432, 02 softmax 1823x781, 07 asin n=98432 and 11 add
// n=98432.
func RealSizeCases() []Case {
	var cs []Case
	// 03: the host code checks 512x512x512 in fp16 and with fp8 e5m2 inputs (b given
	// transposed, as the tutorial does).
	cs = append(cs, matmulCases(t03, "matmul_kernel", "fp16", FP16, FP16, t03Big, false, nil, []Arg{Str("")}, false, [3]int{512, 512, 512})...)
	cs = append(cs, matmulCases(t03, "matmul_kernel", "fp8e5", FP8E5, FP16, t03FP8, true, nil, []Arg{Str("")}, false, [3]int{512, 512, 512})...)
	// 04: the tutorial runs 10 elements; 98432 as tutorial 01 does.
	cs = append(cs, maskedDropoutCases(t04, "_dropout", I32, 10, 98432)...)
	cs = append(cs, seededDropoutCases(t04, "_seeded_dropout", 123, 10, 98432)...)
	cs = append(cs, seededDropoutCases(t04, "_seeded_dropout", 512, 10)...)
	// 05: test_layer_norm(1151, 8192, torch.float16): forward, then both backward kernels.
	cs = append(cs, layerNormCases(t05, t05Kernels, [2]int{1151, 8192})...)
	// 06: test_op with Z=1, H=2, N_CTX=1024; HEAD_DIM 64 and 128, causal and not (test_op
	// itself only checks causal); the backward at HEAD_DIM 64 and 128.
	cs = append(cs, t06FwdCases([3]int{1, 2, 1024})...)
	cs = append(cs, t06BwdCases([4]int{1, 2, 1024, 64}, [4]int{1, 2, 1024, 128})...)
	// 08: group_m = group_n = group_k = [1024, 512, 256, 128], both kernels (the TMA one
	// takes B as [N, K], as the tutorial's group_B_T).
	groups := [][3]int{{1024, 1024, 1024}, {512, 512, 512}, {256, 256, 256}, {128, 128, 128}}
	cs = append(cs, groupedGemmCases(t08, "grouped_matmul_kernel", "fp16_tutorial", FP16, t08Ptr, false, nil, groups...)...)
	cs = append(cs, groupedGemmCases(t08, "grouped_matmul_tma_kernel", "fp16_tutorial", FP16, t08TMA, true, []Arg{Const(false)}, groups...)...)
	// 09: validate(32, 32, 32) and validate(8192, 8192, 512) (K_range[0] defaults to -K 512).
	cs = append(cs, t09Cases([3]int{32, 32, 32}, [3]int{8192, 8192, 512})...)
	// 11: validate(1024) in its __main__.
	cs = append(cs, addCases(t11, "add_kernel", "pdl", FP32, []Arg{Const(true)}, 1024)...)
	for i := range cs {
		cs[i].Large = true
	}
	return cs
}

// AllCases returns our cases followed by the official tutorials' cases (the default
// suite, without the Large real-size cases).
func AllCases() []Case { return append(OurCases(), TutorialCases()...) }

// SuiteCases returns AllCases, followed by RealSizeCases when realSizes is set.
func SuiteCases(realSizes bool) []Case {
	cs := AllCases()
	if realSizes {
		cs = append(cs, RealSizeCases()...)
	}
	return cs
}
