package simt

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/driver"
)

// mmaKernel is one warp running inst: lane l passes registers a[4l..4l+3], b[2l..2l+1]
// and c[nC·l...] (all i32) and stores its nC result registers to d[nC·l...].
func mmaKernel(inst string, nC int) string {
	var b strings.Builder
	b.WriteString(header + `
define void @k(i32 addrspace(1)* %a, i32 addrspace(1)* %b, i32 addrspace(1)* %c, i32 addrspace(1)* %d, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
`)
	var args, cons, fields []string
	load := func(buf string, n int) {
		fmt.Fprintf(&b, "\t%%%s.base = mul i32 %%tid, %d\n", buf, n)
		for i := range n {
			fmt.Fprintf(&b, "\t%%%s.i%d = add i32 %%%s.base, %d\n", buf, i, buf, i)
			fmt.Fprintf(&b, "\t%%%s.p%d = getelementptr i32, i32 addrspace(1)* %%%s, i32 %%%s.i%d\n", buf, i, buf, buf, i)
			fmt.Fprintf(&b, "\t%%%s%d = load i32, i32 addrspace(1)* %%%s.p%d, align 4\n", buf, i, buf, i)
			args, cons = append(args, fmt.Sprintf("i32 %%%s%d", buf, i)), append(cons, "r")
		}
	}
	load("a", 4)
	load("b", 2)
	load("c", nC)
	for range nC {
		fields = append(fields, "i32")
	}
	ret := "{" + strings.Join(fields, ", ") + "}"
	fmt.Fprintf(&b, "\t%%r = call %s asm sideeffect \"%s\", \"%s%s\"(%s)\n", ret, inst, strings.Repeat("=r,", nC), strings.Join(cons, ","), strings.Join(args, ", "))
	fmt.Fprintf(&b, "\t%%d.base = mul i32 %%tid, %d\n", nC)
	for i := range nC {
		fmt.Fprintf(&b, "\t%%d%d = extractvalue %s %%r, %d\n", i, ret, i)
		fmt.Fprintf(&b, "\t%%d.i%d = add i32 %%d.base, %d\n", i, i)
		fmt.Fprintf(&b, "\t%%d.p%d = getelementptr i32, i32 addrspace(1)* %%d, i32 %%d.i%d\n", i, i)
		fmt.Fprintf(&b, "\tstore i32 %%d%d, i32 addrspace(1)* %%d.p%d, align 4\n", i, i)
	}
	b.WriteString("\tret void\n}\n")
	return b.String()
}

// runMMA runs inst on one warp with the lane registers a, b, c and returns d.
func runMMA(t *testing.T, inst string, a, b, c []int32) []int32 {
	t.Helper()
	nC := len(c) / 32
	d, k := load(t, nil, mmaKernel(inst, nC), 1, 0)
	out := upload(t, d, make([]int32, len(c)))
	if err := k.Launch(driver.Grid{1, 1, 1}, upload(t, d, a), upload(t, d, b), upload(t, d, c), out); err != nil {
		t.Fatal(err)
	}
	return download[int32](t, out)
}

// The tests below place each matrix element in the lane registers by the PTX ISA's
// fragment tables (g = lane/4, t = lane%4), run the instruction and check every element.

// TestMMAInt8 runs m16n8k32 .satfinite.s32.s8.s8.s32: A's register r of lane (g, t) holds
// bytes A[g+8(r%2)][4t+e+16(r/2)], B's B[4t+e+16r][g], C's and D's C[g+8(r/2)][2t+r%2].
// Accumulators near the int32 limits saturate.
func TestMMAInt8(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var A [16][32]int64
	var B [32][8]int64
	var C [16][8]int64
	for i := range 16 {
		for k := range 32 {
			A[i][k] = int64(rng.IntN(256) - 128)
		}
	}
	for k := range 32 {
		for j := range 8 {
			B[k][j] = int64(rng.IntN(256) - 128)
		}
	}
	for i := range 16 {
		for j := range 8 {
			C[i][j] = int64(rng.IntN(1<<20) - 1<<19)
		}
	}
	C[0][0], C[15][7] = math.MaxInt32-10, math.MinInt32+10
	for k := range 32 { // row 0 times column 0 and row 15 times column 7 are large, of opposite signs
		A[0][k], B[k][0], A[15][k], B[k][7] = 100, 100, -100, 100
	}
	a, b, c := make([]int32, 32*4), make([]int32, 32*2), make([]int32, 32*4)
	for l := range 32 {
		g, tt := l/4, l%4
		for r := range 4 {
			var av, bv uint32
			for e := range 4 {
				av |= uint32(uint8(A[g+8*(r%2)][4*tt+e+16*(r/2)])) << (8 * e)
				if r < 2 {
					bv |= uint32(uint8(B[4*tt+e+16*r][g])) << (8 * e)
				}
			}
			a[4*l+r], c[4*l+r] = int32(av), int32(C[g+8*(r/2)][2*tt+r%2])
			if r < 2 {
				b[2*l+r] = int32(bv)
			}
		}
	}
	d := runMMA(t, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", a, b, c)
	for l := range 32 {
		g, tt := l/4, l%4
		for r := range 4 {
			i, j := g+8*(r/2), 2*tt+r%2
			want := C[i][j]
			for k := range 32 {
				want += A[i][k] * B[k][j]
			}
			want = max(min(want, math.MaxInt32), math.MinInt32)
			if int64(d[4*l+r]) != want {
				t.Errorf("D[%d][%d] = %d, want %d", i, j, d[4*l+r], want)
			}
		}
	}
}

// TestMMAF16Acc runs m16n8k16.row.col.f16.f16.f16.f16: A's register r of lane (g, t)
// holds halves A[g+8(r%2)][2t+e+8(r/2)], B's B[2t+e+8r][g], C's and D's register r
// C[g+8r][2t+e]. The sum is rounded to f16 once: 1024 plus sixteen products of 1/16
// is 1025 (1024 + 1/16 alone rounds back to 1024).
func TestMMAF16Acc(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var A [16][16]float64
	var B [16][8]float64
	var C [16][8]float64
	for i := range 16 {
		for k := range 16 {
			A[i][k] = float64(rng.IntN(9) - 4)
		}
	}
	for k := range 16 {
		for j := range 8 {
			B[k][j] = float64(rng.IntN(9)-4) / 2
		}
	}
	for i := range 16 {
		for j := range 8 {
			C[i][j] = float64(rng.IntN(64) - 32)
		}
	}
	C[3][5] = 1024
	for k := range 16 {
		A[3][k], B[k][5] = 0.25, 0.25
	}
	h := func(x float64) uint32 { return uint32(fromFloat(kF16, x)) }
	a, b, c := make([]int32, 32*4), make([]int32, 32*2), make([]int32, 32*2)
	for l := range 32 {
		g, tt := l/4, l%4
		for r := range 4 {
			a[4*l+r] = int32(h(A[g+8*(r%2)][2*tt+8*(r/2)]) | h(A[g+8*(r%2)][2*tt+1+8*(r/2)])<<16)
		}
		for r := range 2 {
			b[2*l+r] = int32(h(B[2*tt+8*r][g]) | h(B[2*tt+1+8*r][g])<<16)
			c[2*l+r] = int32(h(C[g+8*r][2*tt]) | h(C[g+8*r][2*tt+1])<<16)
		}
	}
	d := runMMA(t, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {$0,$1}, {$2,$3,$4,$5}, {$6,$7}, {$8,$9};", a, b, c)
	for l := range 32 {
		g, tt := l/4, l%4
		for r := range 2 {
			for e := range 2 {
				i, j := g+8*r, 2*tt+e
				want := C[i][j]
				for k := range 16 {
					want += A[i][k] * B[k][j]
				}
				if got := toFloat(kF16, uint64(uint32(d[2*l+r])>>(16*e))); got != toFloat(kF16, fromFloat(kF16, want)) {
					t.Errorf("D[%d][%d] = %v, want %v", i, j, got, want)
				}
			}
		}
	}
}
