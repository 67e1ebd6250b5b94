package nvidia

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// PlanMMA picks Triton's mma.sync forms for sm_80 and later: m16n8k16 for f16 and bf16
// (fp8 widened to f16, as Triton does where mma has no native fp8) with f32 accumulators,
// or f16 ones for f16 (fp8) inputs; m16n8k8 for tf32 and m16n8k32 .satfinite for int8
// into int32. The dot's K must hold one instruction's; its M and N may be smaller than the
// 16×8 tile (the lowering then reads and writes its elements again, wrapping around).
// On sm_90a, dots that wgmma can compute take it instead (planWGMMA).
func (n *ISA) PlanMMA(d isa.Dot) (isa.MMAPlan, bool) {
	if p, ok := n.planWGMMA(d, !d.AFromLoad); ok {
		return p, true
	}
	var p isa.MMAPlan
	var op tileir.Scalar
	in := ""
	switch {
	case d.A == tileir.F16 || d.A == tileir.BF16:
		p, op, in = isa.MMAPlan{K: 16, KWidth: 2}, d.A, d.A.String()
	case d.A == tileir.F8E4M3FN || d.A == tileir.F8E5M2:
		p, op, in = isa.MMAPlan{K: 16, KWidth: 2}, tileir.F16, "f16"
	case d.A == tileir.F32 && d.InputPrecision == "tf32": // absent means ieee; tf32x3 takes the exact FMA path
		p, op, in = isa.MMAPlan{K: 8, KWidth: 1}, tileir.F32, "tf32"
	case d.A == tileir.I8:
		p, op, in = isa.MMAPlan{K: 32, KWidth: 4}, tileir.I8, "s8"
	default:
		return isa.MMAPlan{}, false
	}
	p.Operand, p.Acc = [2]tileir.Scalar{op, op}, d.C
	acc := map[tileir.Scalar]string{tileir.F32: "f32", tileir.F16: "f16", tileir.I32: "s32"}[d.C]
	if !n.hasMMA(op, d.C) || d.K < int64(p.K) {
		return isa.MMAPlan{}, false
	}
	sat := ""
	if d.C == tileir.I32 {
		sat = ".satfinite"
	}
	nc := 4 // accumulator registers: f16 ones come in pairs
	if d.C == tileir.F16 {
		nc = 2
	}
	p.PartialK = n.partialK(d)
	p.OperandReg = types.I32
	p.Layout = mmaLayout(p.KWidth, mmaWarps(d, n.numWarps))
	p.Instr = fmt.Sprintf("mma.sync.aligned.m16n8k%d.row.col%s.%s.%s.%s.%s %s, %s, %s, %s;", p.K, sat, acc, in, in, acc,
		regList(0, nc), regList(nc, 4), regList(nc+4, 2), regList(nc+6, nc))
	return p, true
}

// mmaLayout is the geometry of mma.sync m16n8k(8·kWidth) for the PTX ISA's fragments,
// g = lane/4 and t = lane%4, as Triton's nvidia_mma (version 2) layout and its dot
// operands give it. Each A and B register packs kWidth consecutive K elements, lane t
// holding K kWidth·t onwards. A's registers are rows g, g+8, g, g+8 at K +0, +0,
// +4·kWidth, +4·kWidth; B's are K +0 and +4·kWidth of column g; the accumulators are
// rows g, g, g+8, g+8 at columns 2t, 2t+1. With kWidth 2 (16-bit inputs, k16) A's
// elements are (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1), then the same 8 columns
// further; with kWidth 1 (tf32, k8) (g, t), (g+8, t), (g, t+4), (g+8, t+4); with kWidth 4
// (8-bit, k32) (g, 4t..4t+3), (g+8, 4t..4t+3), then 16 columns further. Warps step along
// M first.
func mmaLayout(kWidth int, warps []int) isa.MMALayout {
	var a, b isa.Fragment
	for i := 1; i < kWidth; i *= 2 {
		a.Reg = append(a.Reg, [2]int{0, i})
		b.Reg = append(b.Reg, [2]int{i, 0})
	}
	a.Reg = append(a.Reg, [2]int{8, 0}, [2]int{0, 4 * kWidth})
	b.Reg = append(b.Reg, [2]int{4 * kWidth, 0})
	a.Lane = [][2]int{{0, kWidth}, {0, 2 * kWidth}, {1, 0}, {2, 0}, {4, 0}}
	b.Lane = [][2]int{{kWidth, 0}, {2 * kWidth, 0}, {0, 1}, {0, 2}, {0, 4}}
	instr := "[16, 8]"
	if len(warps) == 3 {
		instr = "[1, 16, 8]"
	}
	return isa.MMALayout{
		Encoding: "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = %s, instrShape = " + instr + "}>",
		M:        16, N: 8, A: a, B: b,
		C:     isa.Fragment{Reg: [][2]int{{0, 1}, {8, 0}}, Lane: [][2]int{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}},
		Warps: warps,
	}
}

// mmaWarps splits the warps over M and N, favouring the dimension with more 16×8 tiles
// per warp, as Triton's warpsPerTileV2 does; a batched dot puts them all on its batch.
func mmaWarps(d isa.Dot, numWarps int) []int {
	if d.Batched {
		return []int{numWarps, 1, 1}
	}
	m, n := int(d.M), int(d.N)
	w := []int{1, 1}
	for w[0]*w[1] < numWarps {
		switch {
		case m/(16*w[0]) >= n/(8*w[1]) && m >= 32*w[0]:
			w[0] *= 2
		case n >= 16*w[1]:
			w[1] *= 2
		default:
			w[0] *= 2
		}
	}
	return w
}

// partialK is the run of K that Triton 3.6 sums in one partial accumulator for dot d, 0
// for none. On sm_90 an fp8 dot into f32 with 32 <= max_num_imprecise_acc <= K takes
// wgmma when its shape allows (2-D, warps a multiple of 4, M a multiple of 64, N of 16),
// and the wgmma lowering (WGMMA.cpp) adds a fresh accumulator into the dot's after each
// run of at least max_num_imprecise_acc elements, counted in wgmma's K for fp8 (32),
// and after the last. Elsewhere (mma.sync, or none asked) the accumulation is not split.
func (n *ISA) partialK(d isa.Dot) int {
	const wgmmaK = 32
	fp8 := d.A == tileir.F8E4M3FN || d.A == tileir.F8E5M2
	if n.t.Capability/10 != 9 || !fp8 || d.C != tileir.F32 || d.Batched || n.numWarps%4 != 0 ||
		d.M%64 != 0 || d.N%16 != 0 || d.K < wgmmaK || d.MaxNumImpreciseAcc < wgmmaK || d.MaxNumImpreciseAcc > d.K {
		return 0
	}
	return int((d.MaxNumImpreciseAcc + wgmmaK - 1) / wgmmaK * wgmmaK)
}

// hasMMA reports whether the target has mma.sync with operands of type in (f32 for tf32)
// and accumulators of type acc.
func (n *ISA) hasMMA(in, acc tileir.Scalar) bool {
	for _, s := range n.t.MMA {
		if s.Kind == target.MMASync && s.In == in.String() && s.Acc == acc.String() {
			return true
		}
	}
	return false
}

// regList is {$from, ..., $(from+n-1)}.
func regList(from, n int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "$%d", from+i)
	}
	b.WriteByte('}')
	return b.String()
}

// mmaForms are the result type and constraints of mma.sync by accumulator type: four
// f32, four int32 or two registers of packed f16 pairs, after A's four registers and B's
// two.
var mmaForms = map[tileir.Scalar]asmForm{
	tileir.F32: {types.NewStruct(types.Float, types.Float, types.Float, types.Float), "", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"},
	tileir.I32: {types.NewStruct(types.I32, types.I32, types.I32, types.I32), "", "=r,=r,=r,=r,r,r,r,r,r,r,r,r,r,r"},
	tileir.F16: {types.NewStruct(types.I32, types.I32), "", "=r,=r,r,r,r,r,r,r,r,r"},
}

// MMA emits one mma.sync; C is an input of its own (not tied to D), so that the emitter
// need not copy it first.
func (n *ISA) MMA(p isa.MMAPlan, a, b, c []value.Value) []value.Value {
	args := make([]value.Value, 0, len(a)+len(b)+len(c))
	args = append(append(append(args, a...), b...), c...)
	form := mmaForms[p.Acc]
	call := n.b.Asm(form.ret, p.Instr, form.constraints, args...)
	d := make([]value.Value, len(c))
	for i := range d {
		d[i] = n.b.Extract(call, i)
	}
	return d
}

// MatrixRowPad pads every staged row by 16 bytes: rows then start 16 bytes apart modulo
// 128, so the eight 16-byte rows of each 8×8 matrix that ldmatrix reads fall in distinct
// banks.
func (n *ISA) MatrixRowPad() int { return 8 }

// MatrixRow returns the row and column, relative to the fragment's origin in the operand
// as stored (A as [M][K], B as [K][N], row-major), of the 8-element row whose address
// lane gives to ldmatrix.x4 (x2 for a B operand with K = 16, which reads lanes 0..15
// only). A (not transposed): matrices 0..3 are the 8×8 blocks at rows +0, +8, +0, +8 and
// columns +0, +0, +8, +8 of the 16×16 fragment, so register i is mma's a_i. B (.trans):
// matrices 0..3 are rows (K) +0, +8, +16, +24 of one 8-column fragment, so registers 0,
// 1 are b0, b1 of the K step at the origin and registers 2, 3 those of the next K step.
// Both are linear in the lane's bits.
func (n *ISA) MatrixRow(opIdx, lane int) (row, col int) { return ldmatrixRow(opIdx, lane) }

func ldmatrixRow(opIdx, lane int) (row, col int) {
	if opIdx == 0 {
		return lane % 16, 8 * (lane / 16)
	}
	return lane, 0
}

// LoadMatrix emits ldmatrix.sync.aligned.m8n8.x4 (or .x2) .shared.b16, .trans when
// asked, at the lane's row address p, and returns its 32-bit registers.
func (n *ISA) LoadMatrix(p value.Value, x4, trans bool) []value.Value {
	form := ldmatrixForms[boolIndex(x4)][boolIndex(trans)]
	call := n.b.Asm(form.ret, form.text, form.constraints, p)
	out := make([]value.Value, len(form.ret.Fields))
	for i := range out {
		out[i] = n.b.Extract(call, i)
	}
	return out
}

// asmForm is the result type, text and constraints of an inline-asm instruction.
type asmForm struct {
	ret               *types.StructType
	text, constraints string
}

// ldmatrixForms are ldmatrix's forms, indexed by x4 and trans.
var ldmatrixForms = func() (forms [2][2]asmForm) {
	for x4 := range 2 {
		for trans := range 2 {
			n := 2 << x4
			t := ""
			if trans == 1 {
				t = ".trans"
			}
			fields := make([]types.Type, n)
			regs, cons := "", ""
			for i := range fields {
				fields[i] = types.I32
				regs += fmt.Sprintf(",$%d", i)
				cons += "=r,"
			}
			forms[x4][trans] = asmForm{ret: types.NewStruct(fields...),
				text:        fmt.Sprintf("ldmatrix.sync.aligned.m8n8.x%d%s.shared.b16 {%s}, [$%d];", n, t, regs[1:], n),
				constraints: cons + "r"}
		}
	}
	return forms
}()

// boolIndex is 1 for true, 0 for false.
func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}
