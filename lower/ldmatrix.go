package lower

import (
	"fmt"

	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

// ldmatrixPad is the padding (in 16-bit elements) at the end of every row of an mma
// operand staged in shared memory: rows then start 16 bytes apart modulo 128, so the
// eight 16-byte rows of each 8×8 matrix that ldmatrix reads fall in distinct banks.
const ldmatrixPad = 8

// ldmatrixRow returns the row and column, relative to the fragment's origin in the
// operand as stored (A as [M][K], B as [K][N], row-major), of the 8-element row whose
// address lane gives to ldmatrix.x4 (x2 for a B operand with K = 16, which reads lanes
// 0..15 only). A (not transposed): matrices 0..3 are the 8×8 blocks at rows +0, +8, +0,
// +8 and columns +0, +0, +8, +8 of the 16×16 fragment, so register i is mma's a_i.
// B (.trans): matrices 0..3 are rows (K) +0, +8, +16, +24 of one 8-column fragment, so
// registers 0, 1 are b0, b1 of the K step at the origin and registers 2, 3 those of the
// next K step. Both are linear in the lane's bits.
func ldmatrixRow(opIdx, lane int) (row, col int) {
	if opIdx == 0 {
		return lane % 16, 8 * (lane / 16)
	}
	return lane, 0
}

// fragments yields the packed registers of an mma operand's fragments: frag(i, j) is the
// fragment at origin (i*steps[0], j*steps[1]), the steps being (mStep, 16) for A and
// (16, nStep) for B.
type fragments func(i, j int) []value.Value

// mmaOperandsFromShared writes dot operand v (e: its dot operand encoding, 16-bit or fp8
// elements, kWidth 2; l: e's layout) to shared memory row-major with padded rows, at byte
// offset at of the scratch buffer, and returns its fragments and the bytes it took (at
// included). The fragments are each loaded with ldmatrix when first asked for: the dot asks
// for them K step by K step, so that only one step's fragments are live besides the
// accumulators. It reports false when v need not go through shared memory to reach l
// (it is there already, only its registers are renumbered, or it is cheap to recompute)
// or its type does not suit.
func (g *gen) mmaOperandsFromShared(v *tileir.Value, e *dotOpEnc, l *linLayout, steps [2]int, at int) (fragments, int, bool) {
	home := g.enc[v]
	s := tileir.ScalarOf(v.Type)
	fp8 := s == tileir.F8E4M3FN || s == tileir.F8E5M2
	if e.kWidth != 2 || (s != tileir.F16 && s != tileir.BF16 && !fp8) || home == nil || g.layouts.encID(home) == g.layouts.encID(e) || cheap(v, 16) {
		return nil, 0, false
	}
	src := g.layouts.layout(home, l.shape)
	if src.sameThreads(l) {
		return nil, 0, false
	}
	rows, cols := l.shape[0], l.shape[1]
	n0, n1 := max(rows/steps[0], 1), max(cols/steps[1], 1)
	per := []int{4, 2}[e.opIdx] // registers per fragment
	// fp8 operands are widened to f16 (mma's input type here) before they are staged, in
	// their own layout, where each element is held once.
	vals := g.vals[v]
	if fp8 {
		wide := make([]value.Value, len(vals))
		for i, x := range vals {
			w, err := g.floatCast(x, s, tileir.F16, "")
			if err != nil {
				return nil, 0, false
			}
			wide[i] = w
		}
		vals = wide
	}
	stride := cols + ldmatrixPad
	st := storableType(vals[0].Type())
	need := at + rows*stride*byteSize(st)
	g.smemBarrier()
	g.writeScratch([][]value.Value{vals}, []index{g.shifted(g.linearIndex(src, nil, []int{rows, stride}), at/byteSize(st))}, st, need, nil)
	g.barrier()

	// the thread's address: its lane's row of the fragment at the origin, plus its warp's
	// offset in the operand (rows for A, columns for B)
	var laneBases [][]int
	for b := 1; b < 32; b *= 2 {
		r, c := ldmatrixRow(e.opIdx, b)
		laneBases = append(laneBases, []int{r, c})
	}
	row := g.cur.NewAdd(g.bitsTo(g.lane, laneBases, 0), g.bitsTo(g.warp, l.warp, 0))
	col := g.cur.NewAdd(g.bitsTo(g.lane, laneBases, 1), g.bitsTo(g.warp, l.warp, 1))
	base := g.smemPtr(types.I16, at, g.cur.NewAdd(g.cur.NewMul(row, i32c(int64(stride))), col), need)

	// B with K a multiple of 32 takes two K steps per ldmatrix.x4
	x4, kPerCall := true, 1
	if e.opIdx == 1 {
		x4 = n0%2 == 0
		if x4 {
			kPerCall = 2
		}
	}
	loaded := make([][]value.Value, n0*n1)
	return func(i, j int) []value.Value {
		if loaded[i*n1+j] == nil {
			i0 := i - i%kPerCall
			p := base
			if off := i0*steps[0]*stride + j*steps[1]; off != 0 {
				p = g.gep(types.I16, base, i32c(int64(off)))
			}
			regs := g.ldmatrix(p, x4, e.opIdx == 1)
			for k := range kPerCall {
				loaded[(i0+k)*n1+j] = regs[k*per : (k+1)*per]
			}
		}
		return loaded[i*n1+j]
	}, need, true
}

// ldmatrix emits ldmatrix.sync.aligned.m8n8.x4 (or .x2) .shared.b16, .trans when asked,
// at the lane's row address p, and returns its 32-bit registers.
func (g *gen) ldmatrix(p value.Value, x4, trans bool) []value.Value {
	form := ldmatrixForms[boolIndex(x4)][boolIndex(trans)]
	call := g.asm(form.ret, form.text, form.constraints, p)
	out := g.values(len(form.ret.Fields))
	for i := range out {
		out[i] = g.extract(call, i)
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
