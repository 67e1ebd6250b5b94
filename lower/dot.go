package lower

import (
	"fmt"
	"slices"

	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/tileir"
)

func init() {
	lowerings["tt.dot"] = lowerDot
}

// planMMA returns the ISA's matrix-instruction plan of a dot, or false when it takes the
// FMA path.
func (g *gen) planMMA(op *tileir.Op) (isa.MMAPlan, bool) {
	at, ct := op.Operands[0].Type, op.Results[0].Type
	shape := tileir.ShapeOf(ct)
	if len(shape) != 2 {
		return isa.MMAPlan{}, false
	}
	return g.isa.PlanMMA(isa.Dot{A: tileir.ScalarOf(at), C: tileir.ScalarOf(ct), M: shape[0], N: shape[1],
		K: tileir.ShapeOf(at)[1], InputPrecision: op.EnumAttr("inputPrecision")})
}

// dotEncoding is the encoding of a dot's result: an mma layout when tensor cores apply,
// the default blocked layout (FMA) otherwise.
func (g *gen) dotEncoding(op *tileir.Op) encoding {
	shape := shapeInts(op.Results[0].Type)
	if _, ok := g.planMMA(op); ok {
		return &mmaEnc{wpc: mmaWarps(shape, g.opts.NumWarps)}
	}
	ones := make([]int, len(shape))
	for i := range ones {
		ones[i] = 1
	}
	return newBlocked(shape, ones, defaultOrder(len(shape)), g.opts.NumWarps, g.t.WarpSize)
}

// mmaWarps splits the warps over M and N, favouring the dimension with more 16×8 tiles
// per warp, as Triton's warpsPerTileV2 does.
func mmaWarps(shape []int, numWarps int) []int {
	w := []int{1, 1}
	for w[0]*w[1] < numWarps {
		switch {
		case shape[0]/(16*w[0]) >= shape[1]/(8*w[1]) && shape[0] >= 32*w[0]:
			w[0] *= 2
		case shape[1] >= 16*w[1]:
			w[1] *= 2
		default:
			w[0] *= 2
		}
	}
	return w
}

func lowerDot(g *gen, op *tileir.Op) error {
	res := op.Results[0]
	e := g.enc[res]
	shape := shapeInts(res.Type)
	aShape := tileir.ShapeOf(op.Operands[0].Type)
	k := int(aShape[len(aShape)-1])
	acc := g.in(op.Operands[2], e)
	plan, useMMA := g.planMMA(op)
	mma, isMMA := e.(*mmaEnc)
	if !useMMA || !isMMA {
		return g.dotFMA(op, e, shape, k, acc)
	}
	ea := &dotOpEnc{opIdx: 0, parent: mma, kWidth: plan.KWidth}
	eb := &dotOpEnc{opIdx: 1, parent: mma, kWidth: plan.KWidth}
	la, lb, lc := ea.linear([]int{shape[0], k}), eb.linear([]int{k, shape[1]}), e.linear(shape)
	ci := lc.regIndex()
	from := tileir.ScalarOf(op.Operands[0].Type)
	widen := func(v value.Value) (value.Value, error) { return g.floatCast(v, from, plan.Operand, "") }
	mStep, nStep := 16*mma.wpc[0], 8*mma.wpc[1]
	mEnd, nEnd := max(shape[0]/mStep, 1)*mStep, max(shape[1]/nStep, 1)*nStep
	// frags returns operand v's fragments (inner elements each), with origins every steps
	// over the operand: each A fragment serves every n0 and each B fragment every m0, so
	// each is built once.
	// Operands staged through shared memory take consecutive parts of the scratch buffer
	// (staged bytes so far), since their fragments load lazily.
	staged := 0
	frags := func(v *tileir.Value, e *dotOpEnc, l *linLayout, inner int, steps [2]int) (fragments, error) {
		if fs, end, ok := g.mmaOperandsFromShared(v, e, l, steps, staged); ok {
			staged = (end + 15) / 16 * 16
			return fs, nil
		}
		vals, idx := g.in(v, e), l.regIndex()
		n1 := max(l.shape[1]/steps[1], 1)
		var out [][]value.Value
		for r0 := 0; r0 < max(l.shape[0]/steps[0], 1)*steps[0]; r0 += steps[0] {
			for c0 := 0; c0 < n1*steps[1]; c0 += steps[1] {
				elems := make([]value.Value, inner)
				for j := range inner {
					c := l.regCoord(j)
					r, ok := idx.of([]int{c[0] + r0, c[1] + c0})
					if !ok {
						return nil, fmt.Errorf("no register for (%d, %d)", c[0]+r0, c[1]+c0)
					}
					x, err := widen(vals[r])
					if err != nil {
						return nil, err
					}
					elems[j] = x
				}
				out = append(out, g.packPairs(elems, plan.KWidth))
			}
		}
		return func(i, j int) []value.Value { return out[i*n1+j] }, nil
	}
	aFrags, err := frags(op.Operands[0], ea, la, 4*plan.KWidth, [2]int{mStep, plan.K})
	if err != nil {
		return g.errorf(op, "mma operand A: %v", err)
	}
	bFrags, err := frags(op.Operands[1], eb, lb, 2*plan.KWidth, [2]int{plan.K, nStep})
	if err != nil {
		return g.errorf(op, "mma operand B: %v", err)
	}
	out := make([]value.Value, len(acc))
	copy(out, acc)
	cregs := make([]int, 4)
	// K steps outermost: a step's fragments are used, and can die, before the next's load
	for ks := range k / plan.K {
		for m0 := 0; m0 < mEnd; m0 += mStep {
			for n0 := 0; n0 < nEnd; n0 += nStep {
				for j := range cregs {
					c := lc.regCoord(j)
					cregs[j], _ = ci.of([]int{c[0] + m0, c[1] + n0})
				}
				c := []value.Value{out[cregs[0]], out[cregs[1]], out[cregs[2]], out[cregs[3]]}
				d := g.isa.MMA(plan, aFrags(m0/mStep, ks), bFrags(ks, n0/nStep), c)
				for j, r := range cregs {
					out[r] = d[j]
				}
			}
		}
	}
	g.vals[res] = out
	return nil
}

// packPairs packs kWidth consecutive 16-bit elements into each 32-bit register (f32 for
// tf32 passes through as its bits).
func (g *gen) packPairs(vals []value.Value, kWidth int) []value.Value {
	out := make([]value.Value, 0, len(vals)/kWidth)
	for i := 0; i < len(vals); i += kWidth {
		if kWidth == 1 {
			out = append(out, g.BitCast(vals[i], types.I32))
			continue
		}
		vt := g.vecType(2, vals[i].Type())
		var v value.Value = g.undef(vt)
		v = g.insertElement(v, vals[i], i32c(0))
		v = g.insertElement(v, vals[i+1], i32c(1))
		out = append(out, g.BitCast(v, types.I32))
	}
	return out
}

// dotFMA computes the dot with one multiply-add per element and K step: each thread holds
// the rows of A and columns of B that its outputs need.
func (g *gen) dotFMA(op *tileir.Op, e encoding, shape []int, k int, acc []value.Value) error {
	// A batched (3-D) dot keeps its batch dimension in front: A is [B, M, K], B [B, K, N].
	ea, eb := &dotOpEnc{opIdx: 0, parent: e}, &dotOpEnc{opIdx: 1, parent: e}
	rank := len(shape)
	aShape, bShape := slices.Clone(shape), slices.Clone(shape)
	aShape[rank-1], bShape[rank-2] = k, k
	la, lb, lc := ea.linear(aShape), eb.linear(bShape), e.linear(shape)
	as, bs := g.in(op.Operands[0], ea), g.in(op.Operands[1], eb)
	ai, bi := la.regIndex(), lb.regIndex()
	rt := tileir.ScalarOf(op.Results[0].Type)
	ct := rt // the type the products are summed in
	if rt == tileir.BF16 {
		ct = tileir.F32
	}
	from := tileir.ScalarOf(op.Operands[0].Type)
	widen := func(v value.Value) (value.Value, error) {
		if from.IsInt() {
			if from == rt {
				return v, nil
			}
			return g.sext(v, llScalar(rt)), nil
		}
		return g.floatCast(v, from, ct, "")
	}
	out := make([]value.Value, len(acc))
	for r := range out {
		c := lc.regCoord(r)
		ac, bc := slices.Clone(c), slices.Clone(c)
		sum := acc[r]
		if rt == tileir.BF16 {
			sum = g.bf16ToF32(sum)
		}
		for kk := range k {
			ac[rank-1], bc[rank-2] = kk, kk
			ra, _ := ai.of(ac)
			x, err := widen(as[ra])
			if err != nil {
				return g.errorf(op, "%v", err)
			}
			rb, _ := bi.of(bc)
			y, err := widen(bs[rb])
			if err != nil {
				return g.errorf(op, "%v", err)
			}
			if rt.IsInt() {
				sum = g.cur.NewAdd(g.cur.NewMul(x, y), sum)
			} else {
				sum = g.fintr("llvm.fmuladd", x, y, sum)
			}
		}
		if rt == tileir.BF16 {
			sum = g.f32ToBF16(sum)
		}
		out[r] = sum
	}
	g.vals[op.Results[0]] = out
	return nil
}
