package cpu

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/tileir"
)

// toF16 rounds float64 values to fp16 bit patterns.
func toF16(xs []float64) []uint16 {
	out := make([]uint16, len(xs))
	for i, x := range xs {
		out[i] = uint16(fmtF16.bits(fmtF16.round(x)))
	}
	return out
}

func fromF16(b uint16) float64 { return fmtF16.value(uint64(b)) }

func randn(rng *rand.Rand, n int, round func(float64) float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = round(rng.NormFloat64())
	}
	return out
}

func toF32(xs []float64) []float32 {
	out := make([]float32, len(xs))
	for i, x := range xs {
		out[i] = float32(x)
	}
	return out
}

func checkClose(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if e := relL2(got, want); !(e < tol) {
		t.Errorf("%s: relative L2 error %g, want < %g", what, e, tol)
	}
}

func softmaxRef(x []float64, rows, cols int) []float64 {
	out := make([]float64, len(x))
	for r := range rows {
		row := x[r*cols : (r+1)*cols]
		m := math.Inf(-1)
		for _, v := range row {
			m = math.Max(m, v)
		}
		var s float64
		for _, v := range row {
			s += math.Exp(v - m)
		}
		for c, v := range row {
			out[r*cols+c] = math.Exp(v-m) / s
		}
	}
	return out
}

func TestGoldenSoftmax(t *testing.T) {
	dev := New(Options{})
	f32k := loadGolden(t, dev, "softmax.row_softmax_kernel.default")
	f16k := loadGolden(t, dev, "softmax.row_softmax_kernel.fp16")
	for _, sz := range [][2]int{{1823, 781}, {7, 1000}, {1, 1}, {600, 1024}} {
		rows, cols := sz[0], sz[1]
		rng := rand.New(rand.NewPCG(2, uint64(rows*cols)))
		grid := driver.Grid{min(rows, 132*4), 1, 1}
		x := randn(rng, rows*cols, func(v float64) float64 { return float64(float32(v)) })
		in, out := upload(t, dev, toF32(x)), upload(t, dev, make([]float32, rows*cols))
		if err := f32k.Launch(grid, out, in, int32(cols), int32(cols), int32(rows), int32(cols)); err != nil {
			t.Fatal(err)
		}
		checkClose(t, "softmax fp32", f64s(download[float32](t, out), f32), softmaxRef(x, rows, cols), 1e-5)

		x = randn(rng, rows*cols, fmtF16.round)
		in, out = upload(t, dev, toF16(x)), upload(t, dev, make([]uint16, rows*cols))
		if err := f16k.Launch(grid, out, in, int32(cols), int32(cols), int32(rows), int32(cols)); err != nil {
			t.Fatal(err)
		}
		checkClose(t, "softmax fp16", f64s(download[uint16](t, out), fromF16), softmaxRef(x, rows, cols), 1e-2)
	}
}

func matmulRef(a, b []float64, m, n, k int, act func(float64) float64) []float64 {
	c := make([]float64, m*n)
	for i := range m {
		for kk := range k {
			for j := range n {
				c[i*n+j] += a[i*k+kk] * b[kk*n+j]
			}
		}
	}
	for i := range c {
		c[i] = act(c[i])
	}
	return c
}

func leakyRelu(x float64) float64 {
	if x >= 0 {
		return x
	}
	return 0.01 * x
}

func TestGoldenMatmul(t *testing.T) {
	dev := New(Options{})
	cases := []struct {
		kernel  string
		m, n, k int
		bm, bn  int
		act     func(float64) float64
	}{
		{"matmul.grouped_matmul_kernel.default", 256, 512, 128, 128, 256, func(x float64) float64 { return x }},
		{"matmul.grouped_matmul_kernel.leaky_relu", 128, 256, 64, 128, 256, leakyRelu},
		{"matmul.grouped_matmul_kernel.ragged", 200, 300, 170, 128, 128, leakyRelu},
		{"matmul.grouped_matmul_kernel.ragged", 1, 7, 3, 128, 128, leakyRelu},
	}
	for _, c := range cases {
		k := loadGolden(t, dev, c.kernel)
		rng := rand.New(rand.NewPCG(3, uint64(c.m*c.n*c.k)))
		a, b := randn(rng, c.m*c.k, fmtF16.round), randn(rng, c.k*c.n, fmtF16.round)
		ba, bb, bc := upload(t, dev, toF16(a)), upload(t, dev, toF16(b)), upload(t, dev, make([]uint16, c.m*c.n))
		args := []any{ba, bb, bc, int32(c.m), int32(c.n), int32(c.k), int32(c.k), int32(c.n), int32(c.n)}
		grid := driver.Grid{cdiv(c.m, c.bm) * cdiv(c.n, c.bn), 1, 1}
		if err := k.Launch(grid, args...); err != nil {
			t.Fatal(err)
		}
		checkClose(t, c.kernel, f64s(download[uint16](t, bc), fromF16), matmulRef(a, b, c.m, c.n, c.k, c.act), 1e-2)
	}
}

func TestGoldenLayerNormForward(t *testing.T) {
	dev := New(Options{})
	for _, c := range []struct {
		kernel string
		m, n   int
	}{{"layer_norm.layer_norm_fwd_kernel.ragged", 37, 1000}, {"layer_norm.layer_norm_fwd_kernel.default", 4, 8192}} {
		k := loadGolden(t, dev, c.kernel)
		rng := rand.New(rand.NewPCG(4, uint64(c.m)))
		x, w, b := randn(rng, c.m*c.n, fmtF16.round), randn(rng, c.n, fmtF16.round), randn(rng, c.n, fmtF16.round)
		bx, bw, bb := upload(t, dev, toF16(x)), upload(t, dev, toF16(w)), upload(t, dev, toF16(b))
		by, bmean, brstd := upload(t, dev, make([]uint16, c.m*c.n)), upload(t, dev, make([]float32, c.m)), upload(t, dev, make([]float32, c.m))
		const eps = 1e-5
		if err := k.Launch(driver.Grid{c.m, 1, 1}, bx, by, bw, bb, bmean, brstd, int32(c.n), int32(c.n), float32(eps)); err != nil {
			t.Fatal(err)
		}
		want, wantMean, wantRstd := make([]float64, c.m*c.n), make([]float64, c.m), make([]float64, c.m)
		for r := range c.m {
			row := x[r*c.n : (r+1)*c.n]
			var mean, v float64
			for _, e := range row {
				mean += e
			}
			mean /= float64(c.n)
			for _, e := range row {
				v += (e - mean) * (e - mean)
			}
			rstd := 1 / math.Sqrt(v/float64(c.n)+eps)
			wantMean[r], wantRstd[r] = mean, rstd
			for j, e := range row {
				want[r*c.n+j] = (e-mean)*rstd*w[j] + b[j]
			}
		}
		checkClose(t, "y", f64s(download[uint16](t, by), fromF16), want, 1e-2)
		checkClose(t, "mean", f64s(download[float32](t, bmean), f32), wantMean, 1e-5)
		checkClose(t, "rstd", f64s(download[float32](t, brstd), f32), wantRstd, 1e-5)
	}
}

func TestGoldenMath(t *testing.T) {
	dev := New(Options{})
	const sqrt2pi = 0.7978845608028654
	cases := []struct {
		kernel string
		ref    func(float64) float64
		in     func(float64) float64 // maps a normal sample into the domain
		ulps   float64
	}{
		{"libdevice_math.asin_kernel.default", math.Asin, math.Tanh, 2},
		{"libdevice_math.unary_math_kernel.default", math.Exp, nil, 2},
		{"libdevice_math.unary_math_kernel.tanh", math.Tanh, nil, 2},
		{"libdevice_math.unary_math_kernel.erf", math.Erf, nil, 2},
		{"libdevice_math.unary_math_kernel.rsqrt", func(x float64) float64 { return 1 / math.Sqrt(float64(float32(math.Abs(x)+1e-6))) }, nil, 2},
		{"libdevice_math.unary_math_kernel.tl_exp", math.Exp, nil, 2},
		{"libdevice_math.unary_math_kernel.tl_sqrt", func(x float64) float64 { return math.Sqrt(math.Abs(x)) }, nil, 1},
		{"libdevice_math.unary_math_kernel.tl_log", func(x float64) float64 { return math.Log(float64(float32(math.Abs(x) + 1e-6))) }, nil, 2},
		// gelu cancels in 1 + tanh(...) for negative x: the fp32 kernel is checked by L2 error.
		{"libdevice_math.gelu_tanh_kernel.default", func(x float64) float64 { return 0.5 * x * (1 + math.Tanh(sqrt2pi*(x+0.044715*x*x*x))) }, nil, 0},
	}
	for _, c := range cases {
		k := loadGolden(t, dev, c.kernel)
		for _, n := range []int{1000, 4096} {
			rng := rand.New(rand.NewPCG(5, uint64(n)))
			x := randn(rng, n, func(v float64) float64 {
				if c.in != nil {
					v = c.in(v)
				}
				return float64(float32(v))
			})
			bx, by := upload(t, dev, toF32(x)), upload(t, dev, make([]float32, n))
			if err := k.Launch(driver.Grid{cdiv(n, 1024), 1, 1}, bx, by, int32(n)); err != nil {
				t.Fatal(err)
			}
			got := download[float32](t, by)
			if c.ulps == 0 {
				want := make([]float64, n)
				for i := range want {
					want[i] = c.ref(x[i])
				}
				checkClose(t, c.kernel, f64s(got, f32), want, 1e-5)
				continue
			}
			for i := range n {
				want := c.ref(x[i])
				ulp := math.Abs(float64(math.Nextafter32(float32(want), float32(math.Inf(1)))) - float64(float32(want)))
				if d := math.Abs(float64(got[i]) - want); d > c.ulps*ulp && d > 1e-30 {
					t.Errorf("%s(%g) = %g, want %g (%.1f ulp)", c.kernel, x[i], got[i], want, d/ulp)
					break
				}
			}
		}
	}
	// fp64 asin.
	k := loadGolden(t, dev, "libdevice_math.asin_kernel.fp64")
	x := []float64{-1, -0.5, 0, 0.25, 0.999, 1}
	bx, by := upload(t, dev, x), upload(t, dev, make([]float64, len(x)))
	if err := k.Launch(driver.Grid{1, 1, 1}, bx, by, int32(len(x))); err != nil {
		t.Fatal(err)
	}
	for i, got := range download[float64](t, by) {
		switch {
		case math.Abs(x[i]) == 1:
			if got != math.Asin(x[i]) {
				t.Errorf("asin(%g) = %g, want %g", x[i], got, math.Asin(x[i]))
			}
		case ulpErr(got, bigAsin(bf(x[i])), tileir.F64) > 2: // libdevice's bound for __nv_asin
			t.Errorf("asin(%g) = %.17g, more than 2 ulp off", x[i], got)
		}
	}
}

// philoxKernel rewrites the seeded dropout TTIR (Triton's own inlined Philox) to store the
// raw tl.randint word (as f32 bits) or the tl.rand float instead of the dropout result.
func philoxKernel(t *testing.T, dev *Device, value string) driver.Kernel {
	t.Helper()
	src, err := os.ReadFile(goldenDir + "/dropout.seeded_dropout_kernel.default.ttir")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	store := "tt.store %1, %res_138, %valid_21"
	if !strings.Contains(text, store) {
		t.Fatal("the dropout TTIR changed: no final store")
	}
	if value == "randint" {
		text = strings.Replace(text, store, "%bits = tt.bitcast %c0_126 : tensor<1024xi32> -> tensor<1024xf32>\n    tt.store %1, %bits, %valid_21", 1)
	} else {
		text = strings.Replace(text, store, "tt.store %1, %u_133, %valid_21", 1)
	}
	flat, err := flattenLocs(text)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tileir.Parse("philox.ttir", flat)
	if err != nil {
		t.Fatal(err)
	}
	k, err := dev.Load(m, "seeded_dropout_kernel", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestPhiloxGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/philox_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden map[string]struct {
		RandF32Bits []uint32 `json:"rand_f32_bits"`
		RandintU32  []uint32 `json:"randint_u32"`
	}
	if err := json.Unmarshal(raw, &golden); err != nil {
		t.Fatal(err)
	}
	dev := New(Options{})
	kernels := map[string]driver.Kernel{"rand": philoxKernel(t, dev, "rand"), "randint": philoxKernel(t, dev, "randint")}
	for seedText, g := range golden {
		var seed int64
		if err := json.Unmarshal([]byte(seedText), &seed); err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string][]uint32{"rand": g.RandF32Bits, "randint": g.RandintU32} {
			n := len(want)
			src, dst := upload(t, dev, make([]float32, n)), upload(t, dev, make([]uint32, n))
			if err := kernels[name].Launch(driver.Grid{cdiv(n, 1024), 1, 1}, src, dst, int32(n), float32(0.5), int32(seed)); err != nil {
				t.Fatal(err)
			}
			got := download[uint32](t, dst)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("seed %d %s[%d] = %#x, want %#x", seed, name, i, got[i], want[i])
				}
			}
		}
	}
}

func TestGoldenDropout(t *testing.T) {
	dev := New(Options{})
	k := loadGolden(t, dev, "dropout.masked_dropout_kernel.default")
	n := 3000
	rng := rand.New(rand.NewPCG(6, 0))
	x := randn(rng, n, func(v float64) float64 { return float64(float32(v)) })
	keep := make([]uint8, n)
	for i := range keep {
		keep[i] = uint8(rng.IntN(2))
	}
	bx, bk, by := upload(t, dev, toF32(x)), upload(t, dev, keep), upload(t, dev, make([]float32, n))
	if err := k.Launch(driver.Grid{cdiv(n, 1024), 1, 1}, bx, bk, by, int32(n), float32(0.25)); err != nil {
		t.Fatal(err)
	}
	for i, got := range download[float32](t, by) {
		want := 0.0
		if keep[i] != 0 {
			want = x[i] / 0.75
		}
		if math.Abs(float64(got)-want) > 1e-6*math.Abs(want) {
			t.Fatalf("out[%d] = %g, want %g", i, got, want)
		}
	}
}
