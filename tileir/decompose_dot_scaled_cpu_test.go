package tileir_test

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/driver/cpu"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

// The decomposed tt.dot_scaled run on the CPU interpreter (which decomposes it at Load),
// from conformance/kernels/dot_scaled.py. The conformance suite checks every format pair
// against a float64 reference; these tests check the edges it cannot: the NaN rule of the
// scales and 3-D operands.

func loadDotScaled(t *testing.T, dev *cpu.Device, kernel, sig string) driver.Kernel {
	t.Helper()
	f, err := frontend.Load(filepath.Join("..", "conformance", "kernels", "dot_scaled.py"), pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := semantic.Compile(f, kernel, semantic.Options{SignatureText: sig, NumWarps: 4, NumStages: 3})
	if err != nil {
		t.Fatal(err)
	}
	k, err := dev.Load(m, kernel, cpu.LoadOptions{NumWarps: 4})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func upload[T driver.Elem](t *testing.T, dev *cpu.Device, data []T) driver.Buffer {
	t.Helper()
	b, err := driver.Upload(dev, data)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDotScaledScaleEdges: a lhs of e4m3 ones (0x38) with scales 2^0, except an e8m0 of
// 0xFF in row 3 (NaN, or +Inf with fast_math), of 0 in row 5 (a scale of 0: the shifted
// bits of s = 0 are bf16 zero) and of 128 in row 7 (2.0), times a bf16 rhs of ones.
func TestDotScaledScaleEdges(t *testing.T) {
	const M, N, K = 32, 32, 64
	dev := cpu.New(cpu.Options{Workers: 1})
	for _, fast := range []bool{false, true} {
		sig := "*u8:16, i32:16, 1, *u8:16, *bf16:16, i32:16, 1, None, *fp32:16, 32, 32, 64, 'e4m3', 'bf16', False"
		if fast {
			sig = sig[:len(sig)-5] + "True"
		}
		k := loadDotScaled(t, dev, "dot_scaled_kernel", sig)
		a := make([]uint8, M*K)
		for i := range a {
			a[i] = 0x38
		}
		scale := make([]uint8, M*K/32)
		for i := range scale {
			scale[i] = 127
		}
		scale[3*2+1], scale[5*2+0], scale[7*2+1] = 0xFF, 0, 128
		b := make([]uint16, K*N)
		for i := range b {
			b[i] = 0x3F80 // bf16 1.0
		}
		out := upload(t, dev, make([]float32, M*N))
		if err := k.Launch(driver.Grid{1, 1, 1}, upload(t, dev, a), int32(K), upload(t, dev, scale), upload(t, dev, b), int32(N), out); err != nil {
			t.Fatal(err)
		}
		got, err := driver.Download[float32](out)
		if err != nil {
			t.Fatal(err)
		}
		for m := range M {
			want := float32(64)
			switch m {
			case 3:
				want = float32(math.NaN())
				if fast {
					want = float32(math.Inf(1))
				}
			case 5:
				want = 32
			case 7:
				want = 96
			}
			for n := range N {
				g := got[m*N+n]
				if g != want && !(math.IsNaN(float64(g)) && math.IsNaN(float64(want))) {
					t.Fatalf("fast_math=%v: out[%d][%d] = %v, want %v", fast, m, n, g, want)
				}
			}
		}
	}
}

// TestDotScaledBatched: 3-D operands (two products at once, no scales) of random e2m1
// bytes and e4m3 / bf16 values against a float64 product.
func TestDotScaledBatched(t *testing.T) {
	const B, M, N, K = 2, 16, 32, 64
	dev := cpu.New(cpu.Options{Workers: 1})
	rng := rand.New(rand.NewPCG(1, 2))
	e2m1 := func(n uint8) float64 {
		v := []float64{0, 0.5, 1, 1.5, 2, 3, 4, 6}[n&7]
		if n&8 != 0 {
			return -v
		}
		return v
	}
	e4m3 := func(x uint8) float64 {
		e, m := int(x>>3&15), float64(x&7)
		v := math.Ldexp(1+m/8, e-7)
		if e == 0 {
			v = math.Ldexp(m/8, -6)
		}
		if x&0x80 != 0 {
			return -v
		}
		return v
	}
	for _, fb := range []string{"e2m1", "e4m3"} {
		k := loadDotScaled(t, dev, "dot_scaled_batched_kernel", "*u8:16, *u8:16, *fp32:16, 2, 16, 32, 64, 'e2m1', '"+fb+"'")
		a := make([]uint8, B*M*K/2)
		av := make([]float64, B*M*K) // [b][m][k]
		for i := range a {
			a[i] = uint8(rng.IntN(256))
			av[2*i], av[2*i+1] = e2m1(a[i]&15), e2m1(a[i]>>4)
		}
		bv := make([]float64, B*K*N) // [b][k][n]
		var bb []uint8
		if fb == "e2m1" { // [b][k/2][n] bytes, K packed
			bb = make([]uint8, B*K/2*N)
			for i := range bb {
				bb[i] = uint8(rng.IntN(256))
				bi, kk, n := i/(K/2*N), i/N%(K/2), i%N
				bv[bi*K*N+2*kk*N+n], bv[bi*K*N+(2*kk+1)*N+n] = e2m1(bb[i]&15), e2m1(bb[i]>>4)
			}
		} else {
			bb = make([]uint8, B*K*N)
			for i := range bb {
				for bb[i] = uint8(rng.IntN(256)); bb[i]&0x7F == 0x7F; bb[i] = uint8(rng.IntN(256)) {
				}
				bv[i] = e4m3(bb[i])
			}
		}
		out := upload(t, dev, make([]float32, B*M*N))
		if err := k.Launch(driver.Grid{1, 1, 1}, upload(t, dev, a), upload(t, dev, bb), out); err != nil {
			t.Fatal(err)
		}
		got, err := driver.Download[float32](out)
		if err != nil {
			t.Fatal(err)
		}
		for bi := range B {
			for m := range M {
				for n := range N {
					want, mag := 0.0, 0.0
					for kk := range K {
						p := av[bi*M*K+m*K+kk] * bv[bi*K*N+kk*N+n]
						want += p
						mag += math.Abs(p)
					}
					if g := float64(got[bi*M*N+m*N+n]); math.Abs(g-want) > 1e-6*mag {
						t.Fatalf("%s: out[%d][%d][%d] = %v, want %v", fb, bi, m, n, g, want)
					}
				}
			}
		}
	}
}
