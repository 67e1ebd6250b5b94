package lower

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/internal/golden"
	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/ptx"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// dotModule builds a kernel that loads x (shape a) and y (shape b), both row-major, and
// stores tt.dot(x, y, acc) of type out (inputPrecision prec, maxNumImpreciseAcc
// imprecise) row-major to z; acc is z's old value when accIn, else zero.
func dotModule(in, out tileir.Scalar, prec string, a, b []int64, imprecise int, accIn bool) *tileir.Module {
	m := &tileir.Module{}
	f := m.NewFunc("dot", "public", []tileir.Type{tileir.Ptr(in), tileir.Ptr(in), tileir.Ptr(out)}, nil)
	f.Loc = tileir.Loc{File: "dot.py", Line: 1, Col: 0}
	bl := tileir.NewBuilder(f)
	bl.SetLoc("dot.py", 2, 4)
	rank := len(a)
	c := slices.Clone(a)
	c[rank-1] = b[rank-1]
	// rowMajor is the offset tensor of shape s, row-major
	rowMajor := func(s []int64) *tileir.Value {
		var offs *tileir.Value
		stride := int64(1)
		for d := rank - 1; d >= 0; d-- {
			r := bl.MakeRange(0, int32(s[d]))
			for e := range rank {
				if e < d {
					r = bl.ExpandDims(r, 0)
				} else if e > d {
					r = bl.ExpandDims(r, e)
				}
			}
			r = bl.Broadcast(bl.MulI(r, bl.Splat(bl.ConstInt(stride, tileir.I32), tileir.ShapeOf(r.Type))), s)
			if offs == nil {
				offs = r
			} else {
				offs = bl.AddI(offs, r)
			}
			stride *= s[d]
		}
		return offs
	}
	load := func(p *tileir.Value, s []int64) *tileir.Value {
		return bl.Load(bl.AddPtr(bl.Splat(p, s), rowMajor(s)), nil, nil, tileir.MemOpts{})
	}
	x, y := load(f.Arg(0), a), load(f.Arg(1), b)
	acc := bl.Zero(tileir.Tensor(c, out))
	if accIn {
		acc = load(f.Arg(2), c)
	}
	z := bl.Dot(x, y, acc, prec, imprecise)
	bl.Store(bl.AddPtr(bl.Splat(f.Arg(2), c), rowMajor(c)), z, nil, tileir.MemOpts{})
	bl.Return()
	return m
}

// dotCase is one dot of TestDotInstructions and TestDotGolden.
type dotCase struct {
	in, out tileir.Scalar
	prec    string
	a, b    []int64
	warps   int
}

func (c dotCase) String() string {
	return fmt.Sprintf("%s->%s%s/%v/%v/w%d", c.in, c.out, c.prec, c.a, c.b, c.warps)
}

// ptx lowers the case's kernel for sm_90 and returns its LLVM IR and PTX; llc-22, where
// it is installed, must accept the LLVM IR too (it checks the inline asm's constraints
// against its operand types).
func (c dotCase) ptx(t *testing.T) (string, string) { return c.ptxWith(t, 0, false) }

// ptxWith is ptx for the case's dot with maxNumImpreciseAcc imprecise, accumulating into
// z's old value when accIn.
func (c dotCase) ptxWith(t *testing.T, imprecise int, accIn bool) (string, string) {
	t.Helper()
	m := dotModule(c.in, c.out, c.prec, c.a, c.b, imprecise, accIn)
	if err := tileir.Verify(m); err != nil {
		t.Fatalf("verify: %v\n%s", err, m)
	}
	mod, _, err := Lower(m, target.Default, Options{Options: isa.Options{NumWarps: c.warps}})
	if err != nil {
		t.Fatal(err)
	}
	text, err := ptx.Compile(mod, ptx.Options{Arch: target.Default.Arch})
	if err != nil {
		t.Fatal(err)
	}
	if bin, err := exec.LookPath("llc-22"); err == nil {
		dir := t.TempDir()
		in := filepath.Join(dir, "k.ll")
		if err := os.WriteFile(in, []byte(mod.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(bin, "-march=nvptx64", "-mcpu=sm_90", "-mattr=+ptx84", in, "-o", filepath.Join(dir, "k.ptx")).CombinedOutput(); err != nil {
			t.Fatalf("llc-22: %v\n%s", err, out)
		}
	}
	return mod.String(), text
}

// TestDotInstructions checks the instruction each dot gets, as Triton 3.6 picks it for
// sm_90 where wgmma does not apply (its test_core.py test_dot and test_dot3d assert
// these: M below 64, N below 16, batched, fp8 into f32 without max_num_imprecise_acc), and how
// many the warp issues: batch, M, N and K tiles per warp, warps along the batch of a
// 3-D dot, along M and N of a 2-D one.
func TestDotInstructions(t *testing.T) {
	const (
		f16f16 = "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%r"
		f16f32 = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f"
		s8s32  = "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%r"
		tf32   = "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f"
	)
	for _, tc := range []struct {
		dotCase
		want string
		n    int // instructions
	}{
		{dotCase{tileir.F16, tileir.F16, "", []int64{32, 32}, []int64{32, 32}, 4}, f16f16, 1 * 2 * 2},      // warps 2x2: 1x2 tiles, K/16 = 2
		{dotCase{tileir.I8, tileir.I32, "tf32", []int64{32, 128}, []int64{128, 128}, 4}, s8s32, 2 * 4 * 4}, // warps 1x4 (M/16 < N/8): 2x4 tiles, K/32 = 4
		{dotCase{tileir.F8E5M2, tileir.F32, "", []int64{1, 32}, []int64{32, 2}, 1}, f16f32, 2},             // one tile, wrapped over M and N
		{dotCase{tileir.F8E4M3FN, tileir.F32, "", []int64{32, 32}, []int64{32, 16}, 4}, f16f32, 2},         // warps 2x2: one tile, K/16 = 2
		{dotCase{tileir.F8E5M2, tileir.F16, "", []int64{16, 32}, []int64{32, 8}, 1}, f16f16, 2},
		{dotCase{tileir.F16, tileir.F32, "", []int64{2, 32}, []int64{32, 4}, 1}, f16f32, 2},
		{dotCase{tileir.F16, tileir.F16, "", []int64{2, 32, 64}, []int64{2, 64, 32}, 4}, f16f16, 2 * 4 * 4},     // 2 of 4 warps repeat the batch
		{dotCase{tileir.F16, tileir.F16, "", []int64{8, 32, 32}, []int64{8, 32, 32}, 2}, f16f16, 4 * 2 * 4 * 2}, // 4 batch tiles per warp
		{dotCase{tileir.F32, tileir.F32, "tf32", []int64{2, 16, 16}, []int64{2, 16, 16}, 2}, tf32, 1 * 2 * 2},   // K/8 = 2
		{dotCase{tileir.I8, tileir.I32, "", []int64{4, 32, 64}, []int64{4, 64, 32}, 8}, s8s32, 2 * 4 * 2},       // 4 of 8 warps repeat
		{dotCase{tileir.BF16, tileir.F32, "", []int64{1, 16, 16}, []int64{1, 16, 8}, 16}, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f", 1},
	} {
		t.Run(tc.String(), func(t *testing.T) {
			_, text := tc.ptx(t)
			var mmas []string
			for line := range strings.Lines(text) {
				line = strings.TrimSpace(line)
				if strings.HasPrefix(line, "mma.") {
					mmas = append(mmas, line)
				}
				if strings.HasPrefix(line, "fma.") {
					t.Errorf("the dot took the FMA path: %s", line)
				}
			}
			if len(mmas) != tc.n {
				t.Errorf("%d mma instructions, want %d", len(mmas), tc.n)
			}
			for _, l := range mmas {
				if !strings.HasPrefix(l, tc.want) {
					t.Errorf("got %s, want %s...", l, tc.want)
					break
				}
			}
		})
	}
}

// TestDotFMA checks the dots that mma.sync does not take: fp32 ieee, a K below one
// instruction's, and bf16 accumulators.
func TestDotFMA(t *testing.T) {
	for _, tc := range []dotCase{
		{tileir.F32, tileir.F32, "", []int64{32, 32}, []int64{32, 32}, 4},
		{tileir.F16, tileir.F16, "", []int64{32, 8}, []int64{8, 32}, 4},
		{tileir.BF16, tileir.BF16, "", []int64{2, 16, 16}, []int64{2, 16, 16}, 4},
	} {
		t.Run(tc.String(), func(t *testing.T) {
			if _, text := tc.ptx(t); strings.Contains(text, "mma.sync") {
				t.Error("the dot took mma.sync")
			}
		})
	}
}

// TestDotGolden compares the PTX of small dots with testdata/dot/*.ptx: fp16 into fp16
// (accumulators packed in pairs) batched over two warps, int8 (operands packed four to
// a register), fp8 on a 1x2 block (widened to f16, the tile wrapped over M and N), and
// fp8 with max_num_imprecise_acc 32 over K = 64 into a loaded accumulator (two runs of
// two k16 steps, each into fresh accumulators, then added).
func TestDotGolden(t *testing.T) {
	for name, tc := range map[string]struct {
		dotCase
		imprecise int
	}{
		"f16_f16_batched":  {dotCase{tileir.F16, tileir.F16, "", []int64{2, 16, 16}, []int64{2, 16, 8}, 2}, 0},
		"i8_i32":           {dotCase{tileir.I8, tileir.I32, "", []int64{16, 32}, []int64{32, 8}, 1}, 0},
		"f8e5_f32_1x2":     {dotCase{tileir.F8E5M2, tileir.F32, "", []int64{1, 32}, []int64{32, 2}, 1}, 0},
		"f8e5_f32_partial": {dotCase{tileir.F8E5M2, tileir.F32, "", []int64{64, 64}, []int64{64, 16}, 4}, 32},
	} {
		t.Run(name, func(t *testing.T) {
			_, text := tc.ptxWith(t, tc.imprecise, tc.imprecise > 0)
			golden.Check(t, filepath.Join("testdata", "dot", name+".ptx"), text)
		})
	}
}

// TestDotPartialAccumulators checks the partial accumulators of fp8 dots with a
// max_num_imprecise_acc on sm_90 (Triton's test_dot_max_num_imprecise_acc counts
// them): one fadd per accumulator register for every run of K (max_num_imprecise_acc
// rounded up to 32, the last run possibly shorter), one fewer into a zero accumulator,
// none where Triton takes mma.sync (below 32, warps not a multiple of 4, M not of 64) or
// splits nothing (over K, other types). The PTX spells an unfused fadd add.rn.f32 today,
// LLVM (and, with enable_fp_fusion, our emitter to come) add.f32: both count.
func TestDotPartialAccumulators(t *testing.T) {
	e5, e4, f16, f32 := tileir.F8E5M2, tileir.F8E4M3FN, tileir.F16, tileir.F32
	for _, tc := range []struct {
		dotCase
		imprecise int
		accIn     bool
		fadds     int
	}{
		{dotCase{e5, f32, "", []int64{64, 64}, []int64{64, 64}, 8}, 32, true, 16 * 2}, // 16 registers a thread
		{dotCase{e4, f32, "", []int64{64, 64}, []int64{64, 64}, 8}, 32, true, 16 * 2},
		{dotCase{e5, f32, "", []int64{64, 64}, []int64{64, 64}, 8}, 32, false, 16 * 1},
		{dotCase{e5, f32, "", []int64{64, 64}, []int64{64, 64}, 8}, 64, true, 16 * 1},
		{dotCase{e5, f32, "", []int64{64, 64}, []int64{64, 64}, 8}, 64, false, 0},
		{dotCase{e5, f32, "", []int64{128, 32}, []int64{32, 32}, 4}, 32, true, 32 * 1},
		{dotCase{e5, f32, "", []int64{64, 128}, []int64{128, 32}, 4}, 48, true, 16 * 2}, // runs of 64
		{dotCase{e5, f32, "", []int64{64, 96}, []int64{96, 32}, 4}, 64, true, 16 * 2},   // 64, then the last 32
		{dotCase{e5, f32, "", []int64{64, 128}, []int64{128, 32}, 4}, 16, true, 0},      // below 32: mma.sync
		{dotCase{e5, f32, "", []int64{64, 128}, []int64{128, 32}, 4}, 1 << 30, true, 0}, // none given
		{dotCase{e5, f32, "", []int64{64, 128}, []int64{128, 32}, 2}, 32, true, 0},      // 2 warps
		{dotCase{e5, f32, "", []int64{32, 128}, []int64{128, 64}, 4}, 32, true, 0},      // M = 32
		{dotCase{e5, f32, "", []int64{64, 128}, []int64{128, 8}, 4}, 32, true, 0},       // N = 8
		{dotCase{e5, f16, "", []int64{64, 128}, []int64{128, 32}, 4}, 32, true, 0},      // f16 accumulators
		{dotCase{f16, f32, "", []int64{64, 128}, []int64{128, 32}, 4}, 32, true, 0},     // not fp8
		{dotCase{e5, f32, "", []int64{2, 64, 32}, []int64{2, 32, 32}, 4}, 32, true, 0},  // batched
	} {
		t.Run(fmt.Sprintf("%s/max=%d/acc=%v", tc.dotCase, tc.imprecise, tc.accIn), func(t *testing.T) {
			ll, text := tc.ptxWith(t, tc.imprecise, tc.accIn)
			if n := strings.Count(ll, " = fadd float "); n != tc.fadds {
				t.Errorf("%d fadds in the LLVM IR, want %d", n, tc.fadds)
			}
			if n := strings.Count(text, "add.f32") + strings.Count(text, "add.rn.f32"); n != tc.fadds {
				t.Errorf("%d add.f32 in the PTX, want %d", n, tc.fadds)
			}
		})
	}
}

// TestMMAFragments checks the dot operand and mma layouts of one instruction's tile
// against the PTX ISA's fragments of mma.sync m16n8k8 (tf32, kWidth 1), m16n8k16 (f16,
// kWidth 2) and m16n8k32 (s8, kWidth 4), for g = lane/4 and t = lane%4: A's element i
// is in register r = i/kWidth at row g + 8(r%2), column kWidth·t + i%kWidth + 4·kWidth·(r/2);
// B's at row kWidth·t + i%kWidth + 4·kWidth·r, column g; the accumulators' at row
// g + 8(i/2), column 2t + i%2. The layouts' registers are the fragments' elements in
// order, so that packing them kWidth at a time gives the instruction's registers.
func TestMMAFragments(t *testing.T) {
	parent := &mmaEnc{nvidiaPlan(t, 2, []int{1, 1}).Layout}
	check := func(name string, l *linLayout, n int, want func(g, t, i int) (int, int)) {
		if l.numRegs() != n {
			t.Errorf("%s: %d registers, want %d", name, l.numRegs(), n)
			return
		}
		for lane := range 32 {
			lc := xorBases(l.lane, lane, 2)
			for i := range n {
				rc := l.regCoord(i)
				r, c := want(lane/4, lane%4, i)
				if got := []int{lc[0] ^ rc[0], lc[1] ^ rc[1]}; !slices.Equal(got, []int{r, c}) {
					t.Errorf("%s: lane %d element %d at %v, want (%d, %d)", name, lane, i, got, r, c)
				}
			}
		}
	}
	for _, w := range []int{1, 2, 4} {
		k := 8 * w
		a := nvidiaOperand(t, 0, parent, w).linear([]int{16, k})
		check(fmt.Sprintf("A kWidth %d", w), a, 4*w, func(g, t, i int) (int, int) {
			r := i / w
			return g + 8*(r%2), w*t + i%w + 4*w*(r/2)
		})
		b := nvidiaOperand(t, 1, parent, w).linear([]int{k, 8})
		check(fmt.Sprintf("B kWidth %d", w), b, 2*w, func(g, t, i int) (int, int) {
			return w*t + i%w + 4*w*(i/w), g
		})
	}
	check("C", parent.linear([]int{16, 8}), 4, func(g, t, i int) (int, int) { return g + 8*(i/2), 2*t + i%2 })
}
