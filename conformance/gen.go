package conformance

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
)

// Input generators and float64 reference helpers shared by the case tables.

// randn returns a tensor of standard normal values scaled by scale, rounded to dt.
func randn(rng *rand.Rand, dt DType, scale float64, shape ...int) *Tensor {
	t := &Tensor{DType: dt, Shape: shape, Data: make([]float64, Len(shape))}
	for i := range t.Data {
		t.Data[i] = dt.Round(rng.NormFloat64() * scale)
	}
	return t
}

// uniform returns a tensor of values uniform in [lo, hi), rounded to dt.
func uniform(rng *rand.Rand, dt DType, lo, hi float64, shape ...int) *Tensor {
	t := &Tensor{DType: dt, Shape: shape, Data: make([]float64, Len(shape))}
	for i := range t.Data {
		t.Data[i] = dt.Round(lo + (hi-lo)*rng.Float64())
	}
	return t
}

// zeros returns an input tensor of zeros.
func zeros(dt DType, shape ...int) *Tensor {
	return &Tensor{DType: dt, Shape: shape, Data: make([]float64, Len(shape))}
}

// output returns a tensor the kernel must fill (poisoned before the run).
func output(dt DType, shape ...int) *Tensor {
	return &Tensor{DType: dt, Shape: shape, Output: true}
}

// fromData wraps values (rounded to dt) as an input tensor.
func fromData(dt DType, data []float64, shape ...int) *Tensor {
	t := &Tensor{DType: dt, Shape: shape, Data: make([]float64, len(data))}
	for i, x := range data {
		t.Data[i] = dt.Round(x)
	}
	return t
}

func cdiv(a, b int) int { return (a + b - 1) / b }

func nextPow2(n int) int {
	p := 1
	for p < n {
		p *= 2
	}
	return p
}

// mapf applies f elementwise.
func mapf(xs []float64, f func(float64) float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// zipf applies f to pairs.
func zipf(a, b []float64, f func(x, y float64) float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = f(a[i], b[i])
	}
	return out
}

// matmul returns the M x N product of a (M x K) and b (K x N), both given by element
// accessors, in float64.
func matmul(M, N, K int, a, b func(i, j int) float64) []float64 {
	out := make([]float64, M*N)
	bt := make([]float64, K*N) // b transposed, for locality
	for k := range K {
		for j := range N {
			bt[j*K+k] = b(k, j)
		}
	}
	// Rows are independent: split them over the cores (the real sizes reach 8192x8192x512).
	parallelRows(M, N*K, func(lo, hi int) {
		row := make([]float64, K)
		for i := lo; i < hi; i++ {
			for k := range K {
				row[k] = a(i, k)
			}
			for j := range N {
				col := bt[j*K : (j+1)*K]
				s := 0.0
				for k, x := range row {
					s += x * col[k]
				}
				out[i*N+j] = s
			}
		}
	})
	return out
}

// parallelRows runs f over [0, rows) in contiguous chunks on all cores when the work
// (rows x perRow) is large enough to be worth it; f must only write its own rows.
func parallelRows(rows, perRow int, f func(lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	if rows*perRow < 1<<20 || workers < 2 || rows < 2 {
		f(0, rows)
		return
	}
	workers = min(workers, rows)
	chunk := (rows + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < rows; lo += chunk {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			f(lo, hi)
		}(lo, min(lo+chunk, rows))
	}
	wg.Wait()
}

// rowMajor returns an accessor for a rows x cols row-major matrix.
func rowMajor(d []float64, cols int) func(i, j int) float64 {
	return func(i, j int) float64 { return d[i*cols+j] }
}

// transposed returns an accessor for the transpose of a rows x cols row-major matrix.
func transposed(d []float64, cols int) func(i, j int) float64 {
	return func(i, j int) float64 { return d[j*cols+i] }
}

func leakyReLU(x float64) float64 {
	if x >= 0 {
		return x
	}
	return 0.01 * x
}

// softmaxRows is a row-wise softmax of a rows x cols matrix.
func softmaxRows(x []float64, rows, cols int) []float64 {
	out := make([]float64, len(x))
	for r := range rows {
		row := x[r*cols : (r+1)*cols]
		m := math.Inf(-1)
		for _, v := range row {
			m = max(m, v)
		}
		s := 0.0
		for c, v := range row {
			e := math.Exp(v - m)
			out[r*cols+c] = e
			s += e
		}
		for c := range cols {
			out[r*cols+c] /= s
		}
	}
	return out
}

// layerNormRef is layer norm's forward and backward in float64: y, mean, rstd for x
// (M x N), and dx, dw, db for the gradient dy.
type layerNormRef struct {
	y, mean, rstd, dx, dw, db []float64
}

func layerNorm(x, w, b, dy []float64, M, N int, eps float64) layerNormRef {
	r := layerNormRef{y: make([]float64, M*N), mean: make([]float64, M), rstd: make([]float64, M),
		dx: make([]float64, M*N), dw: make([]float64, N), db: make([]float64, N)}
	for i := range M {
		row := x[i*N : (i+1)*N]
		mean := 0.0
		for _, v := range row {
			mean += v
		}
		mean /= float64(N)
		variance := 0.0
		for _, v := range row {
			variance += (v - mean) * (v - mean)
		}
		variance /= float64(N)
		rstd := 1 / math.Sqrt(variance+eps)
		r.mean[i], r.rstd[i] = mean, rstd
		var c1, c2 float64
		for j, v := range row {
			xhat := (v - mean) * rstd
			r.y[i*N+j] = xhat*w[j] + b[j]
			if dy != nil {
				wdy := w[j] * dy[i*N+j]
				c1 += xhat * wdy
				c2 += wdy
				r.dw[j] += dy[i*N+j] * xhat
				r.db[j] += dy[i*N+j]
			}
		}
		if dy == nil {
			continue
		}
		c1 /= float64(N)
		c2 /= float64(N)
		for j, v := range row {
			xhat := (v - mean) * rstd
			wdy := w[j] * dy[i*N+j]
			r.dx[i*N+j] = (wdy - (xhat*c1 + c2)) * rstd
		}
	}
	return r
}

// attention is multi-head attention in float64 over (B*H) heads of n x d matrices:
// out = softmax(scale * q k^T [causal]) v, the base-2 log-sum-exp of the scaled scores,
// and, when do is not nil, the gradients dq, dk, dv and delta = rowsum(o * do) (with o
// the given forward output, as the kernels use it).
type attentionRef struct {
	out, lse, dq, dk, dv, delta []float64
}

func attention(q, k, v, o, do []float64, heads, n, d int, scale float64, causal bool) attentionRef {
	r := attentionRef{out: make([]float64, heads*n*d), lse: make([]float64, heads*n)}
	if do != nil {
		r.dq, r.dk, r.dv = make([]float64, heads*n*d), make([]float64, heads*n*d), make([]float64, heads*n*d)
		r.delta = make([]float64, heads*n)
	}
	// Heads are independent (each writes its own rows): split them over the cores.
	parallelRows(heads, n*n*d, func(hlo, hhi int) {
		attentionHeads(r, q, k, v, o, do, hlo, hhi, n, d, scale, causal)
	})
	return r
}

// attentionHeads computes heads [hlo, hhi) of attention into r.
func attentionHeads(r attentionRef, q, k, v, o, do []float64, hlo, hhi, n, d int, scale float64, causal bool) {
	p := make([]float64, n*n)
	dp := make([]float64, n)
	for h := hlo; h < hhi; h++ {
		base := h * n * d
		Q, K, V := q[base:base+n*d], k[base:base+n*d], v[base:base+n*d]
		for i := range n {
			m := math.Inf(-1)
			for j := range n {
				s := math.Inf(-1)
				if !causal || j <= i {
					s = 0
					for c := range d {
						s += Q[i*d+c] * K[j*d+c]
					}
					s *= scale
				}
				p[i*n+j] = s
				m = max(m, s)
			}
			sum := 0.0
			for j := range n {
				e := math.Exp(p[i*n+j] - m)
				p[i*n+j] = e
				sum += e
			}
			r.lse[h*n+i] = (m + math.Log(sum)) * math.Log2E
			for j := range n {
				p[i*n+j] /= sum
			}
			for c := range d {
				acc := 0.0
				for j := range n {
					acc += p[i*n+j] * V[j*d+c]
				}
				r.out[base+i*d+c] = acc
			}
		}
		if do == nil {
			continue
		}
		O, DO := o[base:base+n*d], do[base:base+n*d]
		for i := range n {
			delta := 0.0
			for c := range d {
				delta += O[i*d+c] * DO[i*d+c]
			}
			r.delta[h*n+i] = delta
			for j := range n {
				s := 0.0
				for c := range d {
					s += DO[i*d+c] * V[j*d+c]
				}
				dp[j] = s
			}
			for j := range n {
				pij := p[i*n+j]
				ds := pij * (dp[j] - delta)
				for c := range d {
					r.dv[base+j*d+c] += pij * DO[i*d+c]
					r.dq[base+i*d+c] += ds * K[j*d+c] * scale
					r.dk[base+j*d+c] += ds * Q[i*d+c] * scale
				}
			}
		}
	}
}
