package tileir_test

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/driver/cpu"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
	"github.com/gotriton/gotriton/tileir"
)

// F32DotTC's rewrite run on the CPU interpreter, from conformance/kernels/dot_precision.py:
// the numbers must be those of Triton's algorithm (emulated below with the interpreter's
// model of one tt.dot: exact products summed in float64, added to the accumulator and
// rounded once to fp32, tf32 operands rounded to nearest even), the error against a
// float64 product far below plain tf32's, and a finite times an infinite value infinite.

const dotM, dotN, dotK = 32, 32, 32

// runDotPrecision compiles dot_precision_kernel for precision (32x32x32, A and B
// row-major, with C), rewrites it with F32DotTC unless raw, and runs it on a, b, c.
func runDotPrecision(t *testing.T, precision string, raw bool, a, b, c []float32) []float32 {
	t.Helper()
	f, err := frontend.Load(filepath.Join("..", "conformance", "kernels", "dot_precision.py"), pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sig := "*fp32:16, i32:16, 1, *fp32:16, i32:16, 1, *fp32:16, *fp32:16, 32, 32, 32, '" + precision + "'"
	m, err := semantic.Compile(f, "dot_precision_kernel", semantic.Options{SignatureText: sig, NumWarps: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !raw {
		if !tileir.F32DotTC(m, true) {
			t.Fatalf("%s: F32DotTC changed nothing", precision)
		}
		if err := tileir.Verify(m); err != nil {
			t.Fatal(err)
		}
		if s := m.String(); strings.Contains(s, "inputPrecision = "+precision) {
			t.Fatalf("a %s dot is left:\n%s", precision, s)
		}
	}
	dev := cpu.New(cpu.Options{Workers: 1})
	k, err := dev.Load(m, "dot_precision_kernel", cpu.LoadOptions{NumWarps: 4})
	if err != nil {
		t.Fatal(err)
	}
	up := func(x []float32) driver.Buffer {
		buf, err := driver.Upload(dev, x)
		if err != nil {
			t.Fatal(err)
		}
		return buf
	}
	out := up(make([]float32, dotM*dotN))
	if err := k.Launch(driver.Grid{1, 1, 1}, up(a), int32(dotK), up(b), int32(dotN), up(c), out); err != nil {
		t.Fatal(err)
	}
	got, err := driver.Download[float32](out)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// bf16RNE rounds x to bf16, to nearest even; a NaN stays.
func bf16RNE(x float32) float32 {
	if x != x {
		return x
	}
	u := math.Float32bits(x)
	return math.Float32frombits((u + 0x7FFF + u>>16&1) &^ 0xFFFF)
}

// tf32RNA rounds x to tf32 to nearest, ties away from zero (cvt.rna.tf32.f32).
func tf32RNA(x float32) float32 {
	if x != x {
		return x
	}
	return math.Float32frombits((math.Float32bits(x) + 0x1000) &^ 0x1FFF)
}

// tf32RNE rounds x to tf32 to nearest even, as the interpreter rounds tf32 dot operands.
func tf32RNE(x float32) float32 {
	if x != x {
		return x
	}
	u := math.Float32bits(x)
	return math.Float32frombits((u + 0xFFF + u>>13&1) &^ 0x1FFF)
}

// model is the interpreter's tt.dot of row-major a (M x K) and b (K x N) onto acc.
func model(a, b, acc []float32) []float32 {
	out := make([]float32, dotM*dotN)
	for i := range dotM {
		for j := range dotN {
			s := 0.0
			for k := range dotK {
				s += float64(a[i*dotK+k]) * float64(b[k*dotN+j])
			}
			out[i*dotN+j] = float32(float64(acc[i*dotN+j]) + s)
		}
	}
	return out
}

func each(x []float32, f func(float32) float32) []float32 {
	out := make([]float32, len(x))
	for i, v := range x {
		out[i] = f(v)
	}
	return out
}

func sub(x, y []float32) []float32 {
	out := make([]float32, len(x))
	for i := range x {
		out[i] = x[i] - y[i]
	}
	return out
}

func zeroNaNs(x []float32) []float32 {
	return each(x, func(v float32) float32 {
		if v != v {
			return 0
		}
		return v
	})
}

// splitBF16 is Triton's split of x into n bf16 parts.
func splitBF16(x []float32, n int) [][]float32 {
	var parts [][]float32
	for range n {
		p := each(x, bf16RNE)
		parts = append(parts, p)
		x = sub(x, p)
	}
	return parts
}

// emulate computes a·b + c as Triton's F32DotTC decomposes it, each partial dot as model.
func emulate(precision string, a, b, c []float32) []float32 {
	zero := make([]float32, len(c))
	var acc []float32
	switch precision {
	case "tf32x3":
		aBig, bBig := each(a, tf32RNA), each(b, tf32RNA)
		aSmall, bSmall := sub(a, aBig), sub(b, bBig)
		tf32 := func(x []float32) []float32 { return each(x, tf32RNE) }
		acc = model(tf32(aSmall), tf32(bBig), zero)
		acc = model(tf32(aBig), tf32(bSmall), acc)
		acc = model(aBig, bBig, zeroNaNs(acc))
	default:
		const hi, mid, lo = 0, 1, 2
		n := map[string]int{"bf16x3": 2, "bf16x6": 3}[precision]
		l, r := splitBF16(a, n), splitBF16(b, n)
		acc = zero
		pairs := [][2]int{{mid, hi}, {hi, mid}}
		if n == 3 {
			pairs = append([][2]int{{mid, mid}, {lo, hi}, {hi, lo}}, pairs...)
		}
		for _, p := range pairs {
			acc = model(l[p[0]], r[p[1]], acc)
		}
		acc = model(l[hi], r[hi], zeroNaNs(acc))
	}
	out := make([]float32, len(c))
	for i := range out {
		out[i] = acc[i] + c[i]
	}
	return out
}

// relL2 is ||got - want|| / ||want||.
func relL2(got []float32, want []float64) float64 {
	var num, den float64
	for i, w := range want {
		d := float64(got[i]) - w
		num += d * d
		den += w * w
	}
	return math.Sqrt(num / den)
}

func TestF32DotTCOnCPU(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	normal := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		return x
	}
	a, b, c := normal(dotM*dotK), normal(dotK*dotN), normal(dotM*dotN)
	ref := make([]float64, dotM*dotN)
	for i := range dotM {
		for j := range dotN {
			s := float64(c[i*dotN+j])
			for k := range dotK {
				s += float64(a[i*dotK+k]) * float64(b[k*dotN+j])
			}
			ref[i*dotN+j] = s
		}
	}
	tf32Err := relL2(runDotPrecision(t, "tf32", true, a, b, c), ref)
	ieeeErr := relL2(runDotPrecision(t, "ieee", true, a, b, c), ref)
	if tf32Err < 1e-4 {
		t.Fatalf("plain tf32's error %.2g is too small for these inputs to tell precisions apart", tf32Err)
	}
	// The largest error each emulation may have: bf16x3 drops the products of the
	// second parts (about 2^-16 of each product), tf32x3 and bf16x6 keep about 21 and 24
	// bits.
	bound := map[string]float64{"tf32x3": 1e-6, "bf16x3": 2e-5, "bf16x6": 1e-6}
	for _, p := range []string{"tf32x3", "bf16x3", "bf16x6"} {
		got := runDotPrecision(t, p, false, a, b, c)
		want := emulate(p, a, b, c)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%s: out[%d][%d] = %v, Triton's algorithm gives %v", p, i/dotN, i%dotN, got[i], want[i])
			}
		}
		e := relL2(got, ref)
		t.Logf("%s: relative L2 error %.3g (ieee %.3g, tf32 %.3g)", p, e, ieeeErr, tf32Err)
		if e > bound[p] || e > tf32Err/20 {
			t.Errorf("%s: relative L2 error %.3g, want below %.3g and a twentieth of tf32's %.3g", p, e, bound[p], tf32Err)
		}
	}
}

// TestF32DotTCInfinity: rows of A are ones, with a NaN in row 5; B is 0.25 except +inf in
// row 0 of column 2 and the largest finite fp32 in row 4 of column 7. Column 2 is +inf, as
// in a fp32 product: the NaNs of the small parts (1.0 splits into 1.0 and zeros, +inf
// into +inf and NaNs) are dropped before the big product is added. Column 7 is +inf too,
// unlike a fp32 product, as in Triton: the largest fp32 rounds up to +inf in bf16 and in
// tf32 (ties away). Row 5 is NaN throughout.
func TestF32DotTCInfinity(t *testing.T) {
	a := make([]float32, dotM*dotK)
	for i := range a {
		a[i] = 1
	}
	a[5*dotK+3] = float32(math.NaN())
	b := make([]float32, dotK*dotN)
	for i := range b {
		b[i] = 0.25
	}
	b[0*dotN+2] = float32(math.Inf(1))
	b[4*dotN+7] = math.MaxFloat32
	c := make([]float32, dotM*dotN)
	for _, p := range []string{"tf32x3", "bf16x3", "bf16x6"} {
		got := runDotPrecision(t, p, false, a, b, c)
		for i := range dotM {
			for j := range dotN {
				g := float64(got[i*dotN+j])
				want := 0.25 * dotK
				switch {
				case i == 5:
					want = math.NaN()
				case j == 2 || j == 7:
					want = math.Inf(1)
				}
				if g != want && !(math.IsNaN(g) && math.IsNaN(want)) {
					t.Fatalf("%s: out[%d][%d] = %v, want %v", p, i, j, g, want)
				}
			}
		}
	}
}
