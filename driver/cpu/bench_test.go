package cpu

import (
	"math/rand/v2"
	"testing"

	"github.com/gotriton/gotriton/driver"
)

// Triton 3.6's own interpreter (TRITON_INTERPRET=1) took 1.31 s for the vector add below
// (../shared/reference/triton-3.6/BASELINE.md); the target is at least 20x faster.
func BenchmarkVectorAdd(b *testing.B) {
	dev := New(Options{})
	k := loadGolden(b, dev, "vector_add.vector_add_kernel.default")
	const n = 1 << 20
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := upload(b, dev, randF32(rng, n)), upload(b, dev, randF32(rng, n))
	out := upload(b, dev, make([]float32, n))
	b.SetBytes(3 * 4 * n)
	for b.Loop() {
		if err := k.Launch(driver.Grid{n / 1024, 1, 1}, x, y, out, int32(n)); err != nil {
			b.Fatal(err)
		}
	}
}

// The softmax tutorial's first size, fp32 1823 x 781.
func BenchmarkSoftmax(b *testing.B) {
	dev := New(Options{})
	k := loadGolden(b, dev, "softmax.row_softmax_kernel.default")
	const rows, cols = 1823, 781
	rng := rand.New(rand.NewPCG(1, 3))
	in, out := upload(b, dev, randF32(rng, rows*cols)), upload(b, dev, make([]float32, rows*cols))
	b.SetBytes(2 * 4 * rows * cols)
	for b.Loop() {
		if err := k.Launch(driver.Grid{min(rows, 132*4), 1, 1}, out, in, int32(cols), int32(cols), int32(rows), int32(cols)); err != nil {
			b.Fatal(err)
		}
	}
}

// fp16 512^3 matmul with the tutorial's (128, 256, 64, 8) configuration.
func BenchmarkMatmul(b *testing.B) {
	dev := New(Options{})
	k := loadGolden(b, dev, "matmul.grouped_matmul_kernel.default")
	const m, n, kk = 512, 512, 512
	rng := rand.New(rand.NewPCG(1, 4))
	a := upload(b, dev, toF16(randn(rng, m*kk, fmtF16.round)))
	bb := upload(b, dev, toF16(randn(rng, kk*n, fmtF16.round)))
	c := upload(b, dev, make([]uint16, m*n))
	for b.Loop() {
		if err := k.Launch(driver.Grid{(m / 128) * (n / 256), 1, 1}, a, bb, c, int32(m), int32(n), int32(kk), int32(kk), int32(n), int32(n)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(2*m*n*kk*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
