package conformance

// Benchmark cases (`gotriton bench`, tools/triton-bench.py): the official tutorials' own
// benchmark launches at their real sizes, with each tutorial's config or an explicit one.
//
// A BenchCase is an ordinary Case (the Runner compiles, runs and checks it), with two
// differences that make the real sizes practical and let real Triton run the very same
// problem:
//   - inputs come from a counter-based hash (benchHash) that tools/triton-bench.py
//     reproduces bit for bit with torch integer ops, and whose values (k/256 scaled by a
//     power of two, plus a small mean) are exact in fp32 and fp16;
//   - checks are sampled: the float64 reference is computed in Go at up to
//     benchSamples elements per output (a full reference of an 8192³ matmul would take
//     minutes), and the same indices and expected values are exported, so Triton's output
//     is checked against the same reference.
// The timed steps of a case and the work they do (FLOPs, or bytes moved as the tutorial
// counts them) give TFLOP/s or GB/s.

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
)

// Peaks of the H200 that the table relates results to.
const (
	// CopyPeakGBs is the measured copy bandwidth (read+write) of an H200, in GB/s.
	CopyPeakGBs = 4220.0
	// DensePeakTFLOPs is the H200's dense bf16/fp16 tensor-core peak, in TFLOP/s.
	DensePeakTFLOPs = 790.0
)

// The units of BenchCase.Unit.
const (
	UnitTFLOPs = "TFLOP/s"
	UnitGBs    = "GB/s"
)

// benchSamples is the number of elements a sampled check compares per output.
const benchSamples = 4096

// BenchCase is one benchmark launch sequence at one config.
type BenchCase struct {
	Case
	// Group is the benchmark without its config ("tutorial/03/matmul_kernel/fp16/4096x4096x4096");
	// the table shows each compiler's best case of a group.
	Group string
	// Label is the group's row title in the table.
	Label string
	// Config is the launch configuration ("BLOCK_SIZE_M=128 ... warps=8 stages=3").
	Config string
	// Timed are the steps whose median times add up to the case's time (nil: all).
	Timed []int
	// Work is what the timed steps do: FLOPs (Unit TFLOP/s) or bytes moved (GB/s).
	Work float64
	Unit string
	// Quick marks the cases of `--quick`.
	Quick bool
	// Cublas are the products a matmul case computes, which tools/triton-bench.py also
	// times with torch.matmul (cuBLAS) for reference.
	Cublas []CublasOperands

	build func(rng *rand.Rand) *benchProblem
	// tune rebuilds the case for another config (an autotune config of its kernel);
	// autotuneKernel names that kernel and tuneKeys the constexprs tune reads.
	tune           func(cfg BenchConfig) BenchCase
	autotuneKernel string
	tuneKeys       map[string]bool
}

// BenchConfig is a launch config: constexpr values by name, num_warps and num_stages.
type BenchConfig struct {
	Kw            map[string]int
	Warps, Stages int
	order         []string // the keys in the order Config prints them
}

// cfg makes a BenchConfig from alternating names and values.
func cfg(warps, stages int, kv ...any) BenchConfig {
	c := BenchConfig{Kw: map[string]int{}, Warps: warps, Stages: stages}
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i].(string)
		c.Kw[k] = kv[i+1].(int)
		c.order = append(c.order, k)
	}
	return c
}

// get returns the value of key, or def when the config does not set it.
func (c BenchConfig) get(key string, def int) int {
	if v, ok := c.Kw[key]; ok {
		return v
	}
	return def
}

func (c BenchConfig) String() string {
	keys := c.order
	if keys == nil {
		keys = make([]string, 0, len(c.Kw))
		for k := range c.Kw {
			keys = append(keys, k)
		}
		sort.Strings(keys)
	}
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%d", k, c.Kw[k]))
	}
	return strings.Join(append(parts, fmt.Sprintf("warps=%d", c.Warps), fmt.Sprintf("stages=%d", c.Stages)), " ")
}

// CublasOperands names the tensors of one product c = a @ b; BNK: b is stored N x K.
type CublasOperands struct {
	A   string `json:"a"`
	B   string `json:"b"`
	BNK bool   `json:"b_nk"`
}

// benchProblem is a Problem plus how each hashed input was generated.
type benchProblem struct {
	*Problem
	gens map[string]benchGen
}

// benchGen is a hashed input: element i is Mean + Scale*(benchHash(Seed, i)/256).
type benchGen struct {
	Seed        uint32
	Mean, Scale float64
}

// benchHash returns an integer in [-256, 256] for element i of the stream seed: a
// 32-bit multiply-xorshift mix whose intermediate products stay below 2^63, so that torch's
// int64 tensor ops compute the same values (tools/triton-bench.py).
func benchHash(seed uint32, i int) int64 {
	const m32 = 1<<32 - 1
	h := (uint64(i)*0x9E3779B1 + uint64(seed)) & m32
	h ^= h >> 16
	h = (h * 0x45D9F3B) & m32
	h ^= h >> 16
	h = (h * 0x45D9F3B) & m32
	h ^= h >> 16
	return int64(h%513) - 256
}

// newBenchProblem starts an empty problem.
func newBenchProblem() *benchProblem {
	return &benchProblem{Problem: &Problem{Tensors: map[string]*Tensor{}}, gens: map[string]benchGen{}}
}

// hashed adds an input tensor of hashed values; its seed is drawn from rng.
func (p *benchProblem) hashed(rng *rand.Rand, name string, dt DType, mean, scale float64, shape ...int) *Tensor {
	g := benchGen{Seed: rng.Uint32(), Mean: mean, Scale: scale}
	t := &Tensor{DType: dt, Shape: shape, Data: make([]float64, Len(shape))}
	const chunk = 1 << 16
	parallelRows(cdiv(len(t.Data), chunk), chunk, func(lo, hi int) {
		for i := lo * chunk; i < min(hi*chunk, len(t.Data)); i++ {
			t.Data[i] = dt.Round(mean + scale*float64(benchHash(g.Seed, i))/256)
		}
	})
	p.Tensors[name], p.gens[name] = t, g
	return t
}

// add adds a tensor that is not hashed (an output, zeros, small data).
func (p *benchProblem) add(name string, t *Tensor) { p.Tensors[name] = t }

// sampleIndex returns up to k sorted flat indices of an n-element output: the first and
// the last element and random ones (all of them when n <= k).
func sampleIndex(rng *rand.Rand, n, k int) []int {
	if n <= k {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	seen := map[int]bool{0: true, n - 1: true}
	for len(seen) < max(k, 2) {
		seen[rng.IntN(n)] = true
	}
	idx := make([]int, 0, len(seen))
	for i := range seen {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	return idx
}

// sampledCheck checks tensor at sampled indices against ref(i).
func sampledCheck(rng *rand.Rand, tensor string, n int, ref func(i int) float64) Check {
	idx := sampleIndex(rng, n, benchSamples)
	want := make([]float64, len(idx))
	parallelRows(len(idx), 1<<12, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			want[k] = ref(idx[k])
		}
	})
	return Check{Tensor: tensor, Index: idx, Want: want}
}

// fullSampled checks a fully computed reference at sampled indices.
func fullSampled(rng *rand.Rand, tensor string, ref []float64) Check {
	return sampledCheck(rng, tensor, len(ref), func(i int) float64 { return ref[i] })
}

// benchCase finishes a BenchCase: its name is group/config, its Build the problem's.
func (k kernelRef) bench(group, label string, c BenchConfig, unit string, work float64, timed []int, build func(*rand.Rand) *benchProblem) BenchCase {
	bc := BenchCase{Group: k.tag + "/" + group, Label: k.file[:2] + " " + label, Config: c.String(), Unit: unit, Work: work, Timed: timed, build: build}
	bc.Case = Case{Name: bc.Group + "/" + strings.ReplaceAll(bc.Config, " ", ","), Source: k.src, File: k.file, Large: true,
		Build: func(rng *rand.Rand) *Problem { return build(rng).Problem }}
	return bc
}

// ---- the builders ----

// benchAdd: tutorial 01's add_kernel(x, y, out, n, BLOCK_SIZE) over n fp32 elements.
func benchAdd(k kernelRef, kernel string, n int, c BenchConfig) BenchCase {
	block := c.get("BLOCK_SIZE", 1024)
	return k.bench(fmt.Sprintf("%s/fp32/n=%d", kernel, n), "vector add fp32 n="+pow2Label(n), c,
		UnitGBs, 3*4*float64(n), nil, func(rng *rand.Rand) *benchProblem {
			p := newBenchProblem()
			x, y := p.hashed(rng, "x", FP32, 0, 1, n), p.hashed(rng, "y", FP32, 0, 1, n)
			p.add("out", output(FP32, n))
			p.Steps = []Step{{Kernel: kernel, Args: []Arg{Ptr("x"), Ptr("y"), Ptr("out"), Int(n), Const(block)},
				Grid: [3]int{cdiv(n, block), 1, 1}, NumWarps: c.Warps, NumStages: c.Stages}}
			p.Checks = []Check{sampledCheck(rng, "out", n, func(i int) float64 { return x.Data[i] + y.Data[i] })}
			return p
		})
}

// benchSoftmax: tutorial 02's softmax_kernel(out, in, in_stride, out_stride, rows, cols,
// BLOCK_SIZE, num_stages) over rows x cols fp32, with the given number of programs. The
// kernel's num_stages parameter is also the launch option of that name (as in the
// tutorial, which passes one value for both).
func benchSoftmax(k kernelRef, kernel string, rows, cols, programs int, c BenchConfig) BenchCase {
	return k.bench(fmt.Sprintf("%s/fp32/%dx%d", kernel, rows, cols), fmt.Sprintf("softmax fp32 %dx%d", rows, cols), c,
		UnitGBs, 2*4*float64(rows*cols), nil, func(rng *rand.Rand) *benchProblem {
			p := newBenchProblem()
			x := p.hashed(rng, "x", FP32, 0, 1, rows, cols)
			p.add("y", output(FP32, rows, cols))
			p.Steps = []Step{{Kernel: kernel, Args: []Arg{Ptr("y"), Ptr("x"), Int(cols), Int(cols), Int(rows), Int(cols), Const(nextPow2(cols)), Const(c.Stages)},
				Grid: [3]int{min(rows, programs), 1, 1}, NumWarps: c.Warps, NumStages: c.Stages}}
			p.Checks = []Check{sampledCheck(rng, "y", rows*cols, func(i int) float64 {
				row := x.Data[i/cols*cols : (i/cols+1)*cols]
				m := math.Inf(-1)
				for _, v := range row {
					m = max(m, v)
				}
				s := 0.0
				for _, v := range row {
					s += math.Exp(v - m)
				}
				return math.Exp(x.Data[i]-m) / s
			})}
			return p
		})
}

// matmulOperands adds a (M x K) and b (K x N, or N x K when bNK) and returns b's accessor
// as a K x N matrix.
func matmulOperands(p *benchProblem, rng *rand.Rand, dt DType, M, N, K int, bNK bool, a, b string) (func(i, j int) float64, func(i, j int) float64) {
	at := p.hashed(rng, a, dt, 0, 0.5, M, K)
	if bNK {
		bt := p.hashed(rng, b, dt, 0, 0.5, N, K)
		return rowMajor(at.Data, K), transposed(bt.Data, K)
	}
	bt := p.hashed(rng, b, dt, 0, 0.5, K, N)
	return rowMajor(at.Data, K), rowMajor(bt.Data, N)
}

// dotRef returns the reference of element i of an M x N product.
func dotRef(N, K int, a, b func(i, j int) float64) func(i int) float64 {
	return func(i int) float64 {
		r, c := i/N, i%N
		s := 0.0
		for k := range K {
			s += a(r, k) * b(k, c)
		}
		return s
	}
}

// gemmKeys are the constexpr names of a matmul kernel's tile config.
type gemmKeys struct{ m, n, k, group string }

var tutorialGemmKeys = gemmKeys{"BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M"}

// matmulVariant says how one of the tutorials' fp16 matmul kernels takes its operands.
type matmulVariant struct {
	kernel string
	// desc: a, b, c as descriptors (b as N x K); host: host descriptors (else pointers the
	// kernel turns into descriptors); ptrStrides: pointers with their six strides.
	host, desc bool
	// bNK stores b as N x K.
	bNK bool
	// persistent launches min(132, tiles) programs.
	persistent bool
	// tail is the constexpr tail after the tile config; subtileAt, when not 0, is the
	// 1-based position in it of EPILOGUE_SUBTILE, which a config may set and which halves
	// a host c descriptor's block width.
	tail      []Arg
	subtileAt int
}

// benchMatmul: one fp16 matmul kernel of tutorial 03 or 09 over M x N x K.
func benchMatmul(k kernelRef, v matmulVariant, M, N, K int, c BenchConfig) BenchCase {
	keys := tutorialGemmKeys
	bm, bn, bk, gm := c.get(keys.m, 128), c.get(keys.n, 128), c.get(keys.k, 64), c.get(keys.group, 8)
	tail, subtile := v.tail, false
	if v.subtileAt > 0 {
		tail = slices.Clone(tail)
		subtile = c.get("EPILOGUE_SUBTILE", b2i(tail[v.subtileAt-1].Const == "True")) != 0
		tail[v.subtileAt-1] = Const(subtile)
	}
	group := fmt.Sprintf("%s/fp16/%dx%dx%d", v.kernel, M, N, K)
	label := fmt.Sprintf("%s fp16 %dx%dx%d", v.kernel, M, N, K)
	bc := k.bench(group, label, c, UnitTFLOPs, 2*float64(M)*float64(N)*float64(K), nil, func(rng *rand.Rand) *benchProblem {
		p := newBenchProblem()
		a, b := matmulOperands(p, rng, FP16, M, N, K, v.bNK || v.desc, "a", "b")
		p.add("c", output(FP16, M, N))
		tiles := cdiv(M, bm) * cdiv(N, bn)
		grid := tiles
		if v.persistent {
			grid = min(132, tiles)
		}
		var args []Arg
		switch {
		case v.desc && v.host:
			cbn := bn
			if subtile {
				cbn = bn / 2
			}
			args = []Arg{Desc("a", bm, bk), Desc("b", bn, bk), Desc("c", bm, cbn), Int(M), Int(N), Int(K)}
		case v.desc:
			args = []Arg{Ptr("a"), Ptr("b"), Ptr("c"), Int(M), Int(N), Int(K)}
		default:
			sbk, sbn := N, 1
			if v.bNK {
				sbk, sbn = 1, K
			}
			args = []Arg{Ptr("a"), Ptr("b"), Ptr("c"), Int(M), Int(N), Int(K), Int(K), Int(1), Int(sbk), Int(sbn), Int(N), Int(1)}
		}
		args = append(append(args, Const(bm), Const(bn), Const(bk), Const(gm)), tail...)
		p.Steps = []Step{{Kernel: v.kernel, Args: args, Grid: [3]int{grid, 1, 1}, NumWarps: c.Warps, NumStages: c.Stages}}
		p.Checks = []Check{sampledCheck(rng, "c", M*N, dotRef(N, K, a, b))}
		return p
	})
	bc.Cublas = []CublasOperands{{A: "a", B: "b", BNK: v.bNK || v.desc}}
	bc.tune = func(c BenchConfig) BenchCase { return benchMatmul(k, v, M, N, K, c) }
	bc.autotuneKernel, bc.tuneKeys = v.kernel, keySet(keys.m, keys.n, keys.k, keys.group)
	if v.subtileAt > 0 {
		bc.tuneKeys["EPILOGUE_SUBTILE"] = true
	}
	return bc
}

// benchLayerNorm: tutorial 05 over M x N fp16, forward alone (backward false) or forward
// then the two backward kernels, of which only the backward ones are timed. GB/s count
// as the tutorial does: 2 (x, y) and 3 (x, dy, dx) M x N tensors.
func benchLayerNorm(k kernelRef, ln layerNormKernels, M, N int, backward bool) BenchCase {
	block := min(65536/2, nextPow2(N))
	warps := min(max(block/256, 1), 8)
	c := cfg(warps, 3, "BLOCK_SIZE", block)
	mode, work, timed := "fwd", 2*2*float64(M*N), []int(nil)
	if backward {
		mode, work, timed = "bwd", 3*2*float64(M*N), []int{1, 2}
	}
	return k.bench(fmt.Sprintf("layer_norm/%s/fp16/%dx%d", mode, M, N), fmt.Sprintf("layer norm %s fp16 %dx%d", mode, M, N), c,
		UnitGBs, work, timed, func(rng *rand.Rand) *benchProblem {
			const eps = 1e-5
			p := newBenchProblem()
			x := p.hashed(rng, "x", FP16, -2, 0.5, M, N)
			w := p.hashed(rng, "w", FP16, 1, 0.5, N)
			b := p.hashed(rng, "b", FP16, 0, 0.5, N)
			for name, t := range map[string]*Tensor{"y": output(FP16, M, N), "mean": output(FP32, M), "rstd": output(FP32, M)} {
				p.add(name, t)
			}
			p.Steps = []Step{{Kernel: ln.fwd, Args: []Arg{Ptr("x"), Ptr("y"), Ptr("w"), Ptr("b"), Ptr("mean"), Ptr("rstd"), Int(N), Int(N), Float(eps), Const(block)},
				Grid: [3]int{M, 1, 1}, NumWarps: warps, NumStages: 3}}
			if !backward {
				ref := layerNorm(x.Data, w.Data, b.Data, nil, M, N, eps)
				p.Checks = []Check{fullSampled(rng, "y", ref.y), fullSampled(rng, "mean", ref.mean), fullSampled(rng, "rstd", ref.rstd)}
				return p
			}
			dy := p.hashed(rng, "dy", FP16, 0, 0.125, M, N)
			g := ln.groups(N)
			for name, t := range map[string]*Tensor{"dx": output(FP16, M, N), "locks": zeros(I32, 2*g), "pdw": zeros(ln.partial, g, N),
				"pdb": zeros(ln.partial, g, N), "dw": output(FP16, N), "db": output(FP16, N)} {
				p.add(name, t)
			}
			p.Steps = append(p.Steps,
				Step{Kernel: ln.dx, Args: []Arg{Ptr("dx"), Ptr("dy"), Ptr("pdw"), Ptr("pdb"), Ptr("x"), Ptr("w"), Ptr("mean"), Ptr("rstd"), Ptr("locks"),
					Int(N), Int(N), Const(g), Const(block)}, Grid: [3]int{M, 1, 1}, NumWarps: warps, NumStages: 3},
				Step{Kernel: ln.dwdb, Args: []Arg{Ptr("pdw"), Ptr("pdb"), Ptr("dw"), Ptr("db"), Int(min(g, M)), Int(N), Const(32), Const(128)},
					Grid: [3]int{cdiv(N, 128), 1, 1}, NumWarps: 4, NumStages: 3})
			ref := layerNorm(x.Data, w.Data, b.Data, dy.Data, M, N, eps)
			p.Checks = []Check{fullSampled(rng, "dx", ref.dx), fullSampled(rng, "dw", ref.dw), fullSampled(rng, "db", ref.db)}
			return p
		})
}

// benchAttnFwd: tutorial 06's _attn_fwd with host descriptors, fp16, Z x H heads of
// N_CTX x d, causal or not. FLOPs count as the tutorial does: 4 Z H N² d, halved when causal.
func benchAttnFwd(k kernelRef, Z, H, n, d int, causal bool, c BenchConfig) BenchCase {
	bm, bn := c.get("BLOCK_M", 128), c.get("BLOCK_N", 64)
	stage, label := 1, "noncausal"
	if causal {
		stage, label = 3, "causal"
	}
	const scale = 1.3 // the tutorial's benchmark sm_scale
	work := 4 * float64(Z*H) * float64(n) * float64(n) * float64(d)
	if causal {
		work /= 2
	}
	bc := k.bench(fmt.Sprintf("_attn_fwd/%s/fp16/d=%d/%dx%dx%d", label, d, Z, H, n),
		fmt.Sprintf("attention fwd fp16 Z%d H%d N%d D%d %s", Z, H, n, d, label), c, UnitTFLOPs, work, nil,
		func(rng *rand.Rand) *benchProblem {
			p := newBenchProblem()
			rows := Z * H * n
			q, kk, v := p.hashed(rng, "q", FP16, 0, 0.5, rows, d), p.hashed(rng, "k", FP16, 0, 0.5, rows, d), p.hashed(rng, "v", FP16, 0, 0.5, rows, d)
			p.add("o", output(FP16, rows, d))
			p.add("lse", output(FP32, rows))
			p.Steps = []Step{{Kernel: "_attn_fwd", Args: []Arg{Float(scale), Ptr("lse"), Int(Z), Int(H),
				Desc("q", bm, d), Desc("k", bn, d), Desc("v", bn, d), Desc("o", bm, d), Int(n),
				Const(d), Const(bm), Const(bn), Const(false), Const(stage), Const(false), Const(true)},
				Grid: [3]int{cdiv(n, bm), Z * H, 1}, NumWarps: c.Warps, NumStages: c.Stages}}
			// Whole rows of o at sampled rows (one reference row costs N_CTX x d), and their lse.
			idx := sampleIndex(rng, rows, benchSamples/d)
			var oIdx []int
			oWant, lWant := make([]float64, len(idx)*d), make([]float64, len(idx))
			parallelRows(len(idx), n*d, func(lo, hi int) {
				for k := lo; k < hi; k++ {
					o, l := attentionRow(q.Data, kk.Data, v.Data, idx[k], n, d, scale, causal)
					copy(oWant[k*d:], o)
					lWant[k] = l
				}
			})
			for _, r := range idx {
				for c := range d {
					oIdx = append(oIdx, r*d+c)
				}
			}
			p.Checks = []Check{{Tensor: "o", Index: oIdx, Want: oWant}, {Tensor: "lse", Index: idx, Want: lWant}}
			return p
		})
	bc.tune = func(c BenchConfig) BenchCase { return benchAttnFwd(k, Z, H, n, d, causal, c) }
	bc.autotuneKernel, bc.tuneKeys = "_attn_fwd", keySet("BLOCK_M", "BLOCK_N")
	return bc
}

// attentionRow is row r (of head r / n) of softmax(scale q kᵀ [causal]) v and its base-2
// log-sum-exp, in float64.
func attentionRow(q, k, v []float64, r, n, d int, scale float64, causal bool) ([]float64, float64) {
	base, i := r/n*n, r%n
	last := n
	if causal {
		last = i + 1
	}
	s := make([]float64, last)
	m := math.Inf(-1)
	for j := range last {
		acc := 0.0
		for c := range d {
			acc += q[r*d+c] * k[(base+j)*d+c]
		}
		s[j] = acc * scale
		m = max(m, s[j])
	}
	sum := 0.0
	for j := range s {
		s[j] = math.Exp(s[j] - m)
		sum += s[j]
	}
	out := make([]float64, d)
	for j, pj := range s {
		for c := range d {
			out[c] += pj / sum * v[(base+j)*d+c]
		}
	}
	return out, (m + math.Log(sum)) * math.Log2E
}

// benchGroupedGemm: tutorial 08's grouped fp16 GEMM over groups of (M, N, K) on NUM_SM
// programs; tma takes each B as N x K (the TMA kernel), else K x N.
func benchGroupedGemm(k kernelRef, kernel, label string, tma bool, groups [][3]int, c BenchConfig) BenchCase {
	bm, bn, bk, numSM := c.get("BLOCK_SIZE_M", 128), c.get("BLOCK_SIZE_N", 128), c.get("BLOCK_SIZE_K", 64), c.get("NUM_SM", 132)
	work := 0.0
	for _, g := range groups {
		work += 2 * float64(g[0]) * float64(g[1]) * float64(g[2])
	}
	bc := k.bench(fmt.Sprintf("%s/fp16/%s", kernel, label), fmt.Sprintf("%s fp16 %s", kernel, label), c, UnitTFLOPs, work, nil,
		func(rng *rand.Rand) *benchProblem {
			p := newBenchProblem()
			var as, bs, cs []string
			var sizes, lds []float64
			for g, sh := range groups {
				M, N, K := sh[0], sh[1], sh[2]
				an, bnm, cn := fmt.Sprintf("a%d", g), fmt.Sprintf("b%d", g), fmt.Sprintf("c%d", g)
				a, b := matmulOperands(p, rng, FP16, M, N, K, tma, an, bnm)
				p.add(cn, output(FP16, M, N))
				as, bs, cs = append(as, an), append(bs, bnm), append(cs, cn)
				ldb := N
				if tma {
					ldb = K
				}
				sizes = append(sizes, float64(M), float64(N), float64(K))
				lds = append(lds, float64(K), float64(ldb), float64(N))
				p.Checks = append(p.Checks, sampledCheck(rng, cn, M*N, dotRef(N, K, a, b)))
			}
			ptrs := func(of []string) *Tensor { return &Tensor{DType: I64, Shape: []int{len(of)}, AddrOf: of} }
			p.add("a_addrs", ptrs(as))
			p.add("b_addrs", ptrs(bs))
			p.add("c_addrs", ptrs(cs))
			p.add("sizes", fromData(I32, sizes, len(sizes)))
			p.add("lds", fromData(I32, lds, len(lds)))
			args := []Arg{Ptr("a_addrs"), Ptr("b_addrs"), Ptr("c_addrs"), Ptr("sizes"), Ptr("lds"), Int(len(groups)),
				Const(numSM), Const(bm), Const(bn), Const(bk)}
			if tma {
				args = append(args, Const(false))
			}
			p.Steps = []Step{{Kernel: kernel, Args: args, Grid: [3]int{numSM, 1, 1}, NumWarps: c.Warps, NumStages: c.Stages}}
			return p
		})
	for g := range groups {
		bc.Cublas = append(bc.Cublas, CublasOperands{A: fmt.Sprintf("a%d", g), B: fmt.Sprintf("b%d", g), BNK: tma})
	}
	bc.tune = func(c BenchConfig) BenchCase { return benchGroupedGemm(k, kernel, label, tma, groups, c) }
	bc.autotuneKernel, bc.tuneKeys = kernel, keySet("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "NUM_SM")
	return bc
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func keySet(keys ...string) map[string]bool {
	m := map[string]bool{}
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// pow2Label writes n as 2^k when it is a power of two.
func pow2Label(n int) string {
	if n > 0 && n&(n-1) == 0 {
		return fmt.Sprintf("2^%d", int(math.Log2(float64(n))))
	}
	return fmt.Sprint(n)
}

// ---- the table ----

// benchSizes are the sizes of a benchmark table.
type benchSizes struct {
	add        []int
	softmax    [][2]int
	matmul     [][3]int
	layerNorm  [][2]int
	attn       [][3]int // Z, H, N_CTX
	grouped    map[string][][3]int
	persistent [][3]int
	// slow are substrings of the groups that --quick leaves out.
	slow []string
}

// realBenchSizes are the tutorials' benchmark sizes; --quick leaves out the slowest
// repetitions so that both compilers finish in a few minutes on an H200.
var realBenchSizes = benchSizes{
	add:       []int{1 << 24, 1 << 27},
	softmax:   [][2]int{{4096, 8192}, {8192, 1024}, {1823, 781}},
	matmul:    [][3]int{{4096, 4096, 4096}, {8192, 8192, 8192}},
	layerNorm: [][2]int{{4096, 8192}},
	attn:      [][3]int{{4, 32, 4096}},
	grouped: map[string][][3]int{
		"4x1024x1024x1024": {{1024, 1024, 1024}, {1024, 1024, 1024}, {1024, 1024, 1024}, {1024, 1024, 1024}},
		"4x1024x8192x8192": {{1024, 8192, 8192}, {1024, 8192, 8192}, {1024, 8192, 8192}, {1024, 8192, 8192}},
	},
	persistent: [][3]int{{8192, 8192, 8192}},
	slow: []string{"tutorial/01/add_kernel/fp32/n=16777216", "tutorial/03/matmul_kernel/fp16/8192x8192x8192",
		"/4x1024x1024x1024", "tutorial/09/matmul_kernel/", "tutorial/09/matmul_kernel_descriptor_persistent/"},
}

// The explicit configs: 03's two tutorial configs the issue names, 06's per head size,
// 08's and 09's.
var (
	benchMatmulConfigs = []BenchConfig{
		cfg(8, 3, "BLOCK_SIZE_M", 128, "BLOCK_SIZE_N", 256, "BLOCK_SIZE_K", 64, "GROUP_SIZE_M", 8),
		cfg(4, 4, "BLOCK_SIZE_M", 128, "BLOCK_SIZE_N", 128, "BLOCK_SIZE_K", 64, "GROUP_SIZE_M", 8),
	}
	benchAttnConfigs = map[int]BenchConfig{
		64:  cfg(4, 3, "BLOCK_M", 128, "BLOCK_N", 64),
		128: cfg(8, 3, "BLOCK_M", 128, "BLOCK_N", 128),
	}
	benchGroupedPtrConfig = cfg(4, 3, "BLOCK_SIZE_M", 128, "BLOCK_SIZE_N", 128, "BLOCK_SIZE_K", 64, "NUM_SM", 132)
	benchGroupedTMAConfig = cfg(4, 3, "BLOCK_SIZE_M", 128, "BLOCK_SIZE_N", 128, "BLOCK_SIZE_K", 64)
	benchPersistentConfig = cfg(8, 3, "BLOCK_SIZE_M", 128, "BLOCK_SIZE_N", 256, "BLOCK_SIZE_K", 64, "GROUP_SIZE_M", 8)
)

// t09Variants are tutorial 09's kernels as the tutorial launches them (fp16, no warp
// specialization, which the tutorial leaves off on Hopper for host descriptors).
var t09Variants = []matmulVariant{
	{kernel: "matmul_kernel"},
	{kernel: "matmul_kernel_persistent", persistent: true, tail: []Arg{Const(132)}},
	{kernel: "matmul_kernel_tma", desc: true, host: true, tail: []Arg{Const(false), Const(false)}},
	{kernel: "matmul_kernel_tma_persistent", desc: true, host: true, persistent: true, subtileAt: 2,
		tail: []Arg{Const(false), Const(true), Const(132), Const(false)}},
	{kernel: "matmul_kernel_descriptor_persistent", desc: true, persistent: true, subtileAt: 1,
		tail: []Arg{Const(true), Const(132), Const(false), Const(true)}},
}

// benchTable builds the benchmark cases at the given sizes, in table order.
func benchTable(s benchSizes) []BenchCase {
	var bs []BenchCase
	for _, n := range s.add {
		bs = append(bs, benchAdd(tutorial("01-vector-add.py"), "add_kernel", n, cfg(4, 3, "BLOCK_SIZE", 1024)))
	}
	for _, sh := range s.softmax {
		bs = append(bs, benchSoftmax(tutorial("02-fused-softmax.py"), "softmax_kernel", sh[0], sh[1], 132*4, cfg(8, 4)))
	}
	for _, sh := range s.matmul {
		for _, c := range benchMatmulConfigs {
			bs = append(bs, benchMatmul(t03, matmulVariant{kernel: "matmul_kernel", tail: []Arg{Str("")}}, sh[0], sh[1], sh[2], c))
		}
	}
	for _, sh := range s.layerNorm {
		bs = append(bs, benchLayerNorm(t05, t05Kernels, sh[0], sh[1], false), benchLayerNorm(t05, t05Kernels, sh[0], sh[1], true))
	}
	for _, sh := range s.attn {
		for _, d := range []int{64, 128} {
			for _, causal := range []bool{false, true} {
				bs = append(bs, benchAttnFwd(t06, sh[0], sh[1], sh[2], d, causal, benchAttnConfigs[d]))
			}
		}
	}
	labels := make([]string, 0, len(s.grouped))
	for l := range s.grouped {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, l := range labels {
		bs = append(bs, benchGroupedGemm(t08, "grouped_matmul_kernel", l, false, s.grouped[l], benchGroupedPtrConfig),
			benchGroupedGemm(t08, "grouped_matmul_tma_kernel", l, true, s.grouped[l], benchGroupedTMAConfig))
	}
	for _, sh := range s.persistent {
		for _, v := range t09Variants {
			bs = append(bs, benchMatmul(t09, v, sh[0], sh[1], sh[2], benchPersistentConfig))
		}
	}
	for i := range bs {
		bs[i].Quick = !slices.ContainsFunc(s.slow, func(sub string) bool { return strings.Contains(bs[i].Group, sub) })
	}
	return bs
}

// BenchCases returns the benchmark cases at the tutorials' real sizes (quick: the
// --quick subset).
func BenchCases(quick bool) []BenchCase {
	all := benchTable(realBenchSizes)
	if !quick {
		return all
	}
	var out []BenchCase
	for _, b := range all {
		if b.Quick {
			out = append(out, b)
		}
	}
	return out
}

// ---- results ----

// BenchResults is what `gotriton bench --json` and tools/triton-bench.py write.
type BenchResults struct {
	Format int `json:"format"`
	// Compiler is "gotriton" or "triton".
	Compiler string            `json:"compiler"`
	Env      map[string]string `json:"env,omitempty"`
	Method   string            `json:"method"`
	Results  []BenchResult     `json:"results"`
	// Done is false while the run is still going (the file is rewritten after each case).
	Done bool `json:"done"`
}

// BenchResult is one case's outcome.
type BenchResult struct {
	Case   string  `json:"case"`
	Group  string  `json:"group"`
	Label  string  `json:"label"`
	Config string  `json:"config"`
	Unit   string  `json:"unit"`
	Work   float64 `json:"work"`
	// MS is the sum of the timed steps' median times; 0 when the case failed.
	MS     float64   `json:"ms"`
	StepMS []float64 `json:"step_ms,omitempty"`
	// CublasMS is torch.matmul's time for the same products (Triton's side only; 0: none).
	CublasMS float64 `json:"cublas_ms,omitempty"`
	// Status is "pass", "FAIL" (a wrong output or an error) or "not run".
	Status string             `json:"status"`
	RelL2  map[string]float64 `json:"rel_l2,omitempty"`
	Error  string             `json:"error,omitempty"`
}

// Rate is the result's TFLOP/s or GB/s (0 without a time).
func (r BenchResult) Rate() float64 {
	if r.MS <= 0 {
		return 0
	}
	if r.Unit == UnitTFLOPs {
		return r.Work / (r.MS * 1e-3) / 1e12
	}
	return r.Work / (r.MS * 1e-3) / 1e9
}

// PeakShare is the rate as a fraction of the H200's copy bandwidth or dense peak.
func (r BenchResult) PeakShare() float64 {
	if r.Unit == UnitTFLOPs {
		return r.Rate() / DensePeakTFLOPs
	}
	return r.Rate() / CopyPeakGBs
}

// BenchResultOf turns a conformance result into a bench result.
func BenchResultOf(b BenchCase, res Result) BenchResult {
	br := BenchResult{Case: b.Name, Group: b.Group, Label: b.Label, Config: b.Config, Unit: b.Unit, Work: b.Work,
		Status: string(res.Status), RelL2: res.Errors, Error: res.Error}
	if res.Status != Pass {
		return br
	}
	if res.Timing == nil {
		br.Status, br.Error = string(Fail), "not timed"
		return br
	}
	timed := b.Timed
	if timed == nil {
		for i := range res.Timing.Launches {
			timed = append(timed, i)
		}
	}
	var errs []string
	for i, lt := range res.Timing.Launches {
		br.StepMS = append(br.StepMS, lt.MS)
		if lt.Error != "" {
			errs = append(errs, fmt.Sprintf("step %d (%s): %s", i, lt.Kernel, lt.Error))
		}
	}
	if len(errs) > 0 {
		br.Status, br.Error = string(Fail), "timing: "+strings.Join(errs, "; ")
		return br
	}
	for _, i := range timed {
		br.MS += br.StepMS[i]
	}
	return br
}

// ReadBenchResults reads a results file.
func ReadBenchResults(r io.Reader) (*BenchResults, error) {
	var br BenchResults
	if err := json.NewDecoder(r).Decode(&br); err != nil {
		return nil, err
	}
	if br.Format != 1 {
		return nil, fmt.Errorf("bench results format %d, want 1", br.Format)
	}
	return &br, nil
}

// WriteJSON writes the results as indented JSON.
func (br *BenchResults) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(br)
}
