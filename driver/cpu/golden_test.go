package cpu

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/tileir"
)

const goldenDir = "../../semantic/testdata/ttir"

// loadGolden compiles the single kernel of a golden TTIR file.
func loadGolden(t testing.TB, dev *Device, name string) driver.Kernel {
	t.Helper()
	m, err := parseTTIR(filepath.Join(goldenDir, name+".ttir"))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if len(m.Funcs) == 0 {
		t.Fatal("no functions")
	}
	k, err := dev.Load(m, kernelOf(m), LoadOptions{NumWarps: 4})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// kernelOf returns the public function of m.
func kernelOf(m *tileir.Module) string {
	for _, f := range m.Funcs {
		if f.Visibility == "public" {
			return f.Name
		}
	}
	return m.Funcs[0].Name
}

func upload[T driver.Elem](t testing.TB, d *Device, data []T) driver.Buffer {
	t.Helper()
	b, err := driver.Upload(d, data)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func download[T driver.Elem](t testing.TB, b driver.Buffer) []T {
	t.Helper()
	out, err := driver.Download[T](b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func randF32(rng *rand.Rand, n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(rng.NormFloat64())
	}
	return out
}

// relL2 is the relative L2 error of got against want; NaN anywhere gives +Inf.
func relL2(got, want []float64) float64 {
	var num, den float64
	for i := range got {
		if math.IsNaN(got[i]) != math.IsNaN(want[i]) {
			return math.Inf(1)
		}
		if math.IsNaN(got[i]) {
			continue
		}
		d := got[i] - want[i]
		num += d * d
		den += want[i] * want[i]
	}
	if den == 0 {
		return math.Sqrt(num)
	}
	return math.Sqrt(num / den)
}

func f64s[T float32 | uint16](xs []T, conv func(T) float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = conv(x)
	}
	return out
}

func f32(x float32) float64 { return float64(x) }

func cdiv(a, b int) int { return (a + b - 1) / b }

func TestGoldenVectorAdd(t *testing.T) {
	dev := New(Options{})
	k := loadGolden(t, dev, "vector_add.vector_add_kernel.default")
	for _, n := range []int{1024, 98432, 1000, 1} {
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		x, y := randF32(rng, n), randF32(rng, n)
		bx, by := upload(t, dev, x), upload(t, dev, y)
		out := upload(t, dev, make([]float32, n))
		if err := k.Launch(driver.Grid{cdiv(n, 1024), 1, 1}, bx, by, out, int32(n)); err != nil {
			t.Fatal(err)
		}
		got := download[float32](t, out)
		for i := range n {
			if got[i] != x[i]+y[i] {
				t.Fatalf("n=%d: out[%d] = %v, want %v", n, i, got[i], x[i]+y[i])
			}
		}
	}
}
