package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gotriton/gotriton/driver"
)

// Layer-norm backward: the dx kernel accumulates partial dW/dB rows under a spin lock
// (atomic_cas / atomic_xchg) shared by concurrently running programs; dwdb sums them.
func TestGoldenLayerNormBackward(t *testing.T) {
	dev := New(Options{})
	dxK := loadGolden(t, dev, "layer_norm.layer_norm_bwd_dx_kernel.ragged")
	dwK := loadGolden(t, dev, "layer_norm.layer_norm_bwd_dwdb_kernel.ragged")
	const m, n, groups = 1151, 1000, 256
	rng := rand.New(rand.NewPCG(7, 0))
	x, dy, w := randn(rng, m*n, fmtF16.round), randn(rng, m*n, fmtF16.round), randn(rng, n, fmtF16.round)
	mean, rstd := make([]float64, m), make([]float64, m)
	for r := range m {
		var s, v float64
		for _, e := range x[r*n : (r+1)*n] {
			s += e
		}
		mean[r] = float64(float32(s / n))
		for _, e := range x[r*n : (r+1)*n] {
			v += (e - mean[r]) * (e - mean[r])
		}
		rstd[r] = float64(float32(1 / math.Sqrt(v/n+1e-5)))
	}
	bdx, bdy := upload(t, dev, make([]uint16, m*n)), upload(t, dev, toF16(dy))
	pdw, pdb := upload(t, dev, make([]float32, groups*n)), upload(t, dev, make([]float32, groups*n))
	bx, bw := upload(t, dev, toF16(x)), upload(t, dev, toF16(w))
	bmean, brstd := upload(t, dev, toF32(mean)), upload(t, dev, toF32(rstd))
	locks := upload(t, dev, make([]int32, 2*groups))
	if err := dxK.Launch(driver.Grid{m, 1, 1}, bdx, bdy, pdw, pdb, bx, bw, bmean, brstd, locks, int32(n), int32(n)); err != nil {
		t.Fatal(err)
	}
	bdw, bdb := upload(t, dev, make([]uint16, n)), upload(t, dev, make([]uint16, n))
	if err := dwK.Launch(driver.Grid{cdiv(n, 128), 1, 1}, pdw, pdb, bdw, bdb, int32(groups), int32(n)); err != nil {
		t.Fatal(err)
	}
	wantDx, wantDw, wantDb := make([]float64, m*n), make([]float64, n), make([]float64, n)
	for r := range m {
		var c1, c2 float64
		xhat, wdy := make([]float64, n), make([]float64, n)
		for j := range n {
			xhat[j] = (x[r*n+j] - mean[r]) * rstd[r]
			wdy[j] = w[j] * dy[r*n+j]
			c1 += xhat[j] * wdy[j]
			c2 += wdy[j]
			wantDw[j] += dy[r*n+j] * xhat[j]
			wantDb[j] += dy[r*n+j]
		}
		for j := range n {
			wantDx[r*n+j] = (wdy[j] - (xhat[j]*c1/n + c2/n)) * rstd[r]
		}
	}
	checkClose(t, "dx", f64s(download[uint16](t, bdx), fromF16), wantDx, 1e-2)
	checkClose(t, "dw", f64s(download[uint16](t, bdw), fromF16), wantDw, 1e-2)
	checkClose(t, "db", f64s(download[uint16](t, bdb), fromF16), wantDb, 1e-2)
	for i, l := range download[int32](t, locks)[:groups] {
		if l != 0 {
			t.Fatalf("lock %d left held", i)
		}
	}
}

// Device-side tensor descriptors with ragged sizes: out-of-bounds elements read as zero
// and are not written.
func TestGoldenDescriptorMatmul(t *testing.T) {
	dev := New(Options{})
	k := loadGolden(t, dev, "persistent_matmul.matmul_descriptor_persistent_kernel.default")
	const m, n, kk = 200, 300, 100
	rng := rand.New(rand.NewPCG(8, 0))
	a, bt := randn(rng, m*kk, fmtF16.round), randn(rng, n*kk, fmtF16.round) // B is [N, K]
	b := make([]float64, kk*n)
	for i := range n {
		for j := range kk {
			b[j*n+i] = bt[i*kk+j]
		}
	}
	ba, bb := upload(t, dev, toF16(a)), upload(t, dev, toF16(bt))
	c := make([]uint16, m*n+64)
	for i := range c {
		c[i] = 0x7e00 // NaN poison: unwritten elements fail, and so do writes past the end
	}
	bc := upload(t, dev, c)
	grid := driver.Grid{min(132, cdiv(m, 128)*cdiv(n, 256)), 1, 1}
	if err := k.Launch(grid, ba, bb, bc, int32(m), int32(n), int32(kk)); err != nil {
		t.Fatal(err)
	}
	got := download[uint16](t, bc)
	checkClose(t, "c", f64s(got[:m*n], fromF16), matmulRef(a, b, m, n, kk, func(x float64) float64 { return x }), 1e-2)
	for i, v := range got[m*n:] {
		if v != 0x7e00 {
			t.Fatalf("wrote past the tensor at %d", m*n+i)
		}
	}
}

// Grouped GEMM loads int64 addresses from memory and casts them back to pointers.
func TestGoldenGroupedGemm(t *testing.T) {
	dev := New(Options{})
	k := loadGolden(t, dev, "grouped_gemm.grouped_gemm_kernel.default")
	sizes := [][3]int{{128, 128, 32}, {200, 72, 50}, {64, 300, 96}}
	var aAddr, bAddr, cAddr []int64
	var dims, lds []int32
	type group struct {
		a, b []float64
		c    driver.Buffer
	}
	var gs []group
	rng := rand.New(rand.NewPCG(9, 0))
	for _, s := range sizes {
		m, n, kk := s[0], s[1], s[2]
		g := group{a: randn(rng, m*kk, fmtF16.round), b: randn(rng, kk*n, fmtF16.round), c: upload(t, dev, make([]uint16, m*n))}
		aAddr = append(aAddr, upload(t, dev, toF16(g.a)).(*Buffer).Addr())
		bAddr = append(bAddr, upload(t, dev, toF16(g.b)).(*Buffer).Addr())
		cAddr = append(cAddr, g.c.(*Buffer).Addr())
		dims = append(dims, int32(m), int32(n), int32(kk))
		lds = append(lds, int32(kk), int32(n), int32(n))
		gs = append(gs, g)
	}
	args := []any{upload(t, dev, aAddr), upload(t, dev, bAddr), upload(t, dev, cAddr), upload(t, dev, dims), upload(t, dev, lds), int32(len(sizes))}
	if err := k.Launch(driver.Grid{132, 1, 1}, args...); err != nil {
		t.Fatal(err)
	}
	for i, g := range gs {
		m, n, kk := sizes[i][0], sizes[i][1], sizes[i][2]
		checkClose(t, "c", f64s(download[uint16](t, g.c), fromF16), matmulRef(g.a, g.b, m, n, kk, func(x float64) float64 { return x }), 1e-2)
	}
}
