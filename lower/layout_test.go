package lower

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/lower/isa/nvidia"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// mmaSyncISA is the NVIDIA ISA of sm_80, whose dots all take mma.sync.
var mmaSyncISA = func() isa.ISA {
	t, err := target.Parse("cuda:80")
	if err != nil {
		panic(err)
	}
	return nvidia.New(nil, t, isa.Options{NumWarps: 4})
}()

// nvidiaPlan is the NVIDIA ISA's mma.sync plan of a dot whose operands pack kWidth to a register
// (1: tf32, 2: f16, 4: int8), with the given warps (three for a batched dot).
func nvidiaPlan(t testing.TB, kWidth int, warps []int) isa.MMAPlan {
	t.Helper()
	d := isa.Dot{A: tileir.F16, C: tileir.F32, M: 64, N: 64, K: 64, Batched: len(warps) == 3}
	switch kWidth {
	case 1:
		d.A, d.InputPrecision = tileir.F32, "tf32"
	case 4:
		d.A, d.C = tileir.I8, tileir.I32
	}
	d.B = d.A
	p, ok := mmaSyncISA.PlanMMA(d)
	if !ok || p.KWidth != kWidth {
		t.Fatalf("no NVIDIA plan with kWidth %d for %+v", kWidth, d)
	}
	p.Layout.Warps = warps
	return p
}

// nvidiaOperand is operand opIdx of a dot of nvidiaPlan(kWidth, warps) with result parent.
func nvidiaOperand(t testing.TB, opIdx int, parent *mmaEnc, kWidth int) *dotOpEnc {
	return mmaOperand(opIdx, parent, nvidiaPlan(t, kWidth, parent.Warps))
}

// TestCovers checks that every layout places every element of its shape somewhere.
func TestCovers(t *testing.T) {
	mma := &mmaEnc{nvidiaPlan(t, 2, []int{2, 2}).Layout}
	mma3 := &mmaEnc{nvidiaPlan(t, 2, []int{4, 1, 1}).Layout}
	blk := newBlocked([]int{64, 64}, []int{1, 4}, []int{1, 0}, 4, 32)
	// AMD: 32x32x8 f16 on 2x2 warps, 16x16x32 i8 on 4x1 and 16x16x4 f64 on 2x2
	f16, _ := amdPlan(t, "gfx942", isa.Dot{A: tileir.F16, B: tileir.F16, C: tileir.F32, M: 64, N: 64, K: 64})
	i8, _ := amdPlan(t, "gfx942", isa.Dot{A: tileir.I8, B: tileir.I8, C: tileir.I32, M: 128, N: 16, K: 64})
	f64, _ := amdPlan(t, "gfx90a", isa.Dot{A: tileir.F64, B: tileir.F64, C: tileir.F64, M: 32, N: 32, K: 16})
	mf, mi, md := &mmaEnc{f16.Layout}, &mmaEnc{i8.Layout}, &mmaEnc{f64.Layout}
	for _, tc := range []struct {
		e     encoding
		shape []int
	}{
		{mf, []int{64, 64}}, {mf, []int{128, 256}}, {mf, []int{32, 32}},
		{mmaOperand(0, mf, f16), []int{64, 64}}, {mmaOperand(1, mf, f16), []int{64, 128}}, {mmaOperand(0, mf, f16), []int{32, 8}},
		{mi, []int{128, 16}}, {mmaOperand(0, mi, i8), []int{128, 64}}, {mmaOperand(1, mi, i8), []int{64, 16}},
		{md, []int{32, 32}}, {mmaOperand(0, md, f64), []int{32, 16}}, {mmaOperand(1, md, f64), []int{16, 64}},
		{newBlocked([]int{1024}, []int{4}, []int{0}, 4, 32), []int{1024}},
		{newBlocked([]int{1024}, []int{4}, []int{0}, 4, 32), []int{256}},
		{blk, []int{64, 64}},
		{blk, []int{64, 1}},
		{&sliceEnc{dim: 1, parent: blk}, []int{64}},
		{mma, []int{64, 64}},
		{mma, []int{16, 8}},
		{nvidiaOperand(t, 0, mma, 2), []int{64, 32}},
		{nvidiaOperand(t, 1, mma, 2), []int{32, 64}},
		{nvidiaOperand(t, 0, mma, 1), []int{64, 16}},
		{nvidiaOperand(t, 1, mma, 1), []int{16, 64}},
		{&dotOpEnc{opIdx: 0, parent: blk}, []int{64, 16}},
		{nvidiaOperand(t, 0, mma, 4), []int{64, 64}},
		{nvidiaOperand(t, 1, mma, 4), []int{32, 64}},
		{mma, []int{1, 2}},
		{nvidiaOperand(t, 0, mma, 2), []int{1, 16}},
		{nvidiaOperand(t, 1, mma, 2), []int{16, 2}},
		{mma3, []int{8, 32, 16}},
		{mma3, []int{1, 16, 8}},
		{nvidiaOperand(t, 0, mma3, 2), []int{8, 32, 64}},
		{nvidiaOperand(t, 1, mma3, 4), []int{2, 64, 16}},
	} {
		l := tc.e.linear(tc.shape)
		seen := map[string]bool{}
		for r := range l.numRegs() {
			for ln := range 1 << len(l.lane) {
				for w := range 1 << len(l.warp) {
					c := slices.Clone(l.regCoord(r))
					lc, wc := xorBases(l.lane, ln, len(c)), xorBases(l.warp, w, len(c))
					for d := range c {
						c[d] ^= lc[d] ^ wc[d]
						if c[d] >= tc.shape[d] {
							t.Fatalf("%s on %v: coordinate %v out of bounds", tc.e, tc.shape, c)
						}
					}
					seen[coordKey(c)] = true
				}
			}
		}
		if want := numel(tc.shape); len(seen) != want {
			t.Errorf("%s on %v covers %d of %d elements", tc.e, tc.shape, len(seen), want)
		}
	}
}

// TestCoalesce compares the layouts chosen for loads with those Triton 3.6 chose
// (the #blocked attributes of its TTGIR).
func TestCoalesce(t *testing.T) {
	for _, tc := range []struct{ ttir, ttgir string }{
		{"vector_add.vector_add_kernel.default", "vector_add/vector_add_kernel.ttgir"},
		{"vector_add.vector_add_kernel.fp16", "vector_add/fp16/vector_add_kernel.ttgir"},
		{"softmax.row_softmax_kernel.default", "softmax/row_softmax_kernel.ttgir"},
		{"layer_norm.layer_norm_fwd_kernel.default", "layer_norm/layer_norm_fwd_kernel.ttgir"},
		{"layer_norm.layer_norm_bwd_dx_kernel.default", "layer_norm/layer_norm_bwd_dx_kernel.ttgir"},
		{"layer_norm.layer_norm_bwd_dwdb_kernel.default", "layer_norm/layer_norm_bwd_dwdb_kernel.ttgir"},
		{"dropout.seeded_dropout_kernel.default", "dropout/seeded_dropout_kernel.ttgir"},
		{"dropout.masked_dropout_kernel.default", "dropout/masked_dropout_kernel.ttgir"},
		{"matmul.grouped_matmul_kernel.default", "matmul/grouped_matmul_kernel.ttgir"},
		{"libdevice_math.unary_math_kernel.default", "libdevice_math/unary_math_kernel.ttgir"},
	} {
		ref, err := os.ReadFile(filepath.Join("../.build/triton-ref/ttir", tc.ttgir))
		if err != nil {
			t.Skipf("no Triton reference: %v", err)
		}
		src, err := os.ReadFile(filepath.Join(ttirDir, tc.ttir+".ttir"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := tileir.Parse(tc.ttir, string(src))
		if err != nil {
			t.Fatal(err)
		}
		g := newGen(nvidia.Arch, target.Default, Options{Options: isa.Options{NumWarps: numWarps(tc.ttir)}}, m.Funcs[0])
		g.axes = analyzeAxes(g.tf)
		assignLayouts(g)
		g.tf.Walk(func(op *tileir.Op) bool {
			if op.Name == "tt.load" && isTensor(op.Results[0]) {
				got := g.enc[op.Results[0]].String()
				if !strings.Contains(string(ref), got) {
					t.Errorf("%s: load at %v has %s, which Triton's TTGIR does not use", tc.ttir, op.Loc, got)
				}
			}
			return true
		})
	}
	_ = fmt.Sprint
}
