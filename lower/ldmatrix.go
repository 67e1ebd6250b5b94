package lower

import (
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/tileir"
)

// fragments yields the packed registers of an mma operand's fragments: frag(b, i, j) is
// the fragment of batch tile b (0 for a 2-D dot) at origin (i*steps[0], j*steps[1]), the
// steps being (mStep, K) for A and (K, nStep) for B, K the instruction's.
type fragments func(b, i, j int) []value.Value

// mmaOperandsFromShared writes dot operand v (e: its dot operand encoding, 16-bit or fp8
// elements, kWidth 2; l: e's layout) to shared memory row-major with padded rows, at byte
// offset at of the scratch buffer, and returns its fragments and the bytes it took (at
// included). The fragments are each loaded with the ISA's LoadMatrix (ldmatrix) when
// first asked for: the dot asks for them K step by K step, so that only one step's
// fragments are live besides the accumulators. It reports false when the ISA has no
// LoadMatrix, v need not go through shared memory to reach l (it is there already, only
// its registers are renumbered, or it is cheap to recompute), its type does not suit or
// it is smaller than one instruction's fragment (which then wraps around it).
func (g *gen) mmaOperandsFromShared(v *tileir.Value, e *dotOpEnc, l *linLayout, steps [2]int, at int) (fragments, int, bool) {
	ml, ok := g.isa.(isa.MatrixLoader)
	if !ok {
		return nil, 0, false
	}
	home := g.enc[v]
	s := tileir.ScalarOf(v.Type)
	fp8 := s == tileir.F8E4M3FN || s == tileir.F8E5M2
	mma := e.parent.(*mmaEnc)
	if e.kWidth != 2 || l.shape[e.opIdx] < []int{mma.M, mma.N}[e.opIdx] || (s != tileir.F16 && s != tileir.BF16 && !fp8) || home == nil || g.layouts.encID(home) == g.layouts.encID(e) || cheap(v, 16) {
		return nil, 0, false
	}
	src := g.layouts.layout(home, l.shape)
	if src.sameThreads(l) {
		return nil, 0, false
	}
	rows, cols := l.shape[0], l.shape[1]
	n0, n1 := max(rows/steps[0], 1), max(cols/steps[1], 1)
	per := (1 << len(e.frag.Reg)) / e.kWidth // registers per fragment
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
	stride := cols + ml.MatrixRowPad()
	st := storableType(vals[0].Type())
	need := at + rows*stride*byteSize(st)
	g.smemBarrier()
	g.writeScratch([][]value.Value{vals}, []index{g.shifted(g.linearIndex(src, nil, []int{rows, stride}), at/byteSize(st))}, st, need, nil)
	g.barrier()

	// the thread's address: its lane's row of the fragment at the origin, plus its warp's
	// offset in the operand (rows for A, columns for B)
	var laneBases [][]int
	for b := 1; b < g.t.WarpSize; b *= 2 {
		r, c := ml.MatrixRow(e.opIdx, b)
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
	return func(_, i, j int) []value.Value {
		if loaded[i*n1+j] == nil {
			i0 := i - i%kPerCall
			p := base
			if off := i0*steps[0]*stride + j*steps[1]; off != 0 {
				p = g.gep(types.I16, base, i32c(int64(off)))
			}
			regs := ml.LoadMatrix(p, x4, e.opIdx == 1)
			for k := range kPerCall {
				loaded[(i0+k)*n1+j] = regs[k*per : (k+1)*per]
			}
		}
		return loaded[i*n1+j]
	}, need, true
}
