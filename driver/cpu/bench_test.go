package cpu

import (
	"math/rand/v2"
	"testing"

	"github.com/gotriton/gotriton/driver"
)

// benchSources runs bench on one specialization of our kernel corpus loaded two ways:
// from the TTIR real Triton 3.6 printed for it ("ttir"), and compiled by gotriton itself,
// frontend.Load then semantic.Compile ("semantic").
func benchSources(b *testing.B, golden, file, kernel, sig string, bench func(b *testing.B, dev *Device, k driver.Kernel)) {
	b.Run("ttir", func(b *testing.B) {
		dev := New(Options{})
		bench(b, dev, loadGolden(b, dev, golden))
	})
	b.Run("semantic", func(b *testing.B) {
		dev := New(Options{})
		bench(b, dev, loadOurs(b, dev, file, kernel, sig, false))
	})
}

// Triton 3.6's own interpreter (TRITON_INTERPRET=1) took 1.31 s for the vector add below
// (../shared/reference/triton-3.6/BASELINE.md); the target is at least 20x faster.
func BenchmarkVectorAdd(b *testing.B) {
	benchSources(b, "vector_add.vector_add_kernel.default", "vector_add.py", "vector_add_kernel",
		"*fp32:16, *fp32:16, *fp32:16, i32:16, 1024", benchVectorAdd)
}

func benchVectorAdd(b *testing.B, dev *Device, k driver.Kernel) {
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
	benchSources(b, "softmax.row_softmax_kernel.default", "softmax.py", "row_softmax_kernel",
		"*fp32:16, *fp32:16, i32, i32, i32, i32, 1024, 4", benchSoftmax)
}

func benchSoftmax(b *testing.B, dev *Device, k driver.Kernel) {
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
	benchSources(b, "matmul.grouped_matmul_kernel.default", "matmul.py", "grouped_matmul_kernel",
		"*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 64, 8, None", benchMatmul)
}

func benchMatmul(b *testing.B, dev *Device, k driver.Kernel) {
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
