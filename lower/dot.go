package lower

import (
	"fmt"
	"slices"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/tileir"
)

func init() {
	lowerings["tt.dot"] = lowerDot
}

// planMMA returns the ISA's matrix-instruction plan of a dot (2-D, or 3-D with a leading
// batch dimension), or false when it takes the FMA path; plans are made once per dot.
func (g *gen) planMMA(op *tileir.Op) (isa.MMAPlan, bool) {
	if p, ok := g.plans[op]; ok {
		return p.plan, p.ok
	}
	at, bt, ct := op.Operands[0].Type, op.Operands[1].Type, op.Results[0].Type
	shape := tileir.ShapeOf(ct)
	r := len(shape)
	var p plan
	if r == 2 || r == 3 {
		head, tail := g.chainDot(op)
		p.plan, p.ok = g.isa.PlanMMA(isa.Dot{A: tileir.ScalarOf(at), B: tileir.ScalarOf(bt), C: tileir.ScalarOf(ct),
			M: shape[r-2], N: shape[r-1], K: tileir.ShapeOf(at)[r-1], Batched: r == 3,
			InputPrecision: op.EnumAttr("inputPrecision"), MaxNumImpreciseAcc: op.IntAttr("maxNumImpreciseAcc"),
			ChainHead: head, ChainTail: tail, AFromLoad: fromLoad(op.Operands[0])})
	}
	if g.plans == nil {
		g.plans = map[*tileir.Op]plan{}
	}
	g.plans[op] = p
	return p.plan, p.ok
}

// fromLoad reports whether v is loaded from memory, through transposes, or is a block
// argument (a loop-carried value), as Triton's comesFromLoadOrBlockArg sees a dot operand.
func fromLoad(v *tileir.Value) bool {
	d := v.Def()
	for d != nil && d.Name == "tt.trans" {
		d = d.Operands[0].Def()
	}
	return d == nil || d.Name == "tt.load" || d.Name == "tt.descriptor_load" || d.Name == "tt.descriptor_gather"
}

// plan is planMMA's answer for one dot.
type plan struct {
	plan isa.MMAPlan
	ok   bool
}

// chainDot reports whether dot op is the head of a chain of dots (its result feeds
// operand A of another dot through ops of op's region) and whether it is a tail (its
// operand A is computed there from another dot's result), as Triton's isChainDotHead
// and isChainDotTail see them: a forward slice of op's users, and a backward slice of
// the definitions of the op that defines A, neither including its root.
func (g *gen) chainDot(op *tileir.Op) (head, tail bool) {
	if g.dotUsers == nil {
		g.dotUsers = map[*tileir.Value][]*tileir.Op{}
		g.tf.Walk(func(o *tileir.Op) bool {
			for _, v := range o.Operands {
				g.dotUsers[v] = append(g.dotUsers[v], o)
			}
			return true
		})
	}
	region := op.Block().Region()
	inRegion := func(o *tileir.Op) bool { return o != nil && o.Block() != nil && o.Block().Region() == region }
	isDot := func(o *tileir.Op) bool { return o.Name == "tt.dot" || o.Name == "tt.dot_scaled" }
	fwd := map[*tileir.Op]bool{}
	var forward func(o *tileir.Op)
	forward = func(o *tileir.Op) {
		for _, r := range o.Results {
			for _, u := range g.dotUsers[r] {
				if !fwd[u] && inRegion(u) {
					fwd[u] = true
					forward(u)
				}
			}
		}
	}
	forward(op)
	for o := range fwd {
		if isDot(o) && fwd[o.Operands[0].Def()] {
			head = true
		}
	}
	bwd := map[*tileir.Op]bool{}
	var backward func(o *tileir.Op)
	backward = func(o *tileir.Op) {
		for _, v := range o.Operands {
			if d := v.Def(); inRegion(d) && !bwd[d] {
				bwd[d] = true
				backward(d)
			}
		}
	}
	if a := op.Operands[0].Def(); inRegion(a) {
		backward(a)
	}
	for o := range bwd {
		if isDot(o) {
			tail = true
		}
	}
	return head, tail
}

// dotEncoding is the encoding of a dot's result: an mma layout when a matrix
// instruction applies, the default blocked layout (FMA) otherwise.
func (g *gen) dotEncoding(op *tileir.Op) encoding {
	shape := shapeInts(op.Results[0].Type)
	if p, ok := g.planMMA(op); ok {
		return &mmaEnc{p.Layout}
	}
	ones := make([]int, len(shape))
	for i := range ones {
		ones[i] = 1
	}
	return newBlocked(shape, ones, defaultOrder(len(shape)), g.opts.NumWarps, g.t.WarpSize)
}

// mmaTile is one matrix instruction's tile of a dot's operand or result: the tile's
// layout (its register j is the instruction's element j) and the steps between the
// tile's origins in a tensor (the batch first when batched), all in registers.
type mmaTile struct {
	tile  *linLayout
	steps []int
}

// tileShape is the shape of one instruction's rows × cols tile of a rank-r tensor.
func tileShape(r, rows, cols int) []int {
	s := make([]int, r)
	s[0] = 1
	s[r-2], s[r-1] = rows, cols
	return s
}

// regs sets out to the registers (of the layout that x indexes) that hold the tile's
// elements at origin number o (o[d] steps along dimension d). Coordinates wrap modulo l's shape: a tensor
// smaller than the tile holds its elements once per wrap, as Triton's layouts broadcast
// them, so that the instruction reads (and writes) each wrapped element again.
func (t mmaTile) regs(x regIdx, o []int, out []int) error {
	c := make([]int, len(o))
	for j := range out {
		tc := t.tile.regCoord(j)
		for d := range c {
			c[d] = (tc[d] + o[d]*t.steps[d]) & (x.shape[d] - 1)
		}
		r, ok := x.of(c)
		if !ok {
			return fmt.Errorf("no register for %v", c)
		}
		out[j] = r
	}
	return nil
}

// reps is the number of tile origins along each dimension of shape.
func (t mmaTile) reps(shape []int) []int {
	n := make([]int, len(shape))
	for d := range n {
		n[d] = max(shape[d]/t.steps[d], 1)
	}
	return n
}

// eachTile calls f with every origin number o of n tiles along each dimension: the
// batch (of a 3-D tensor) outermost, then rows, then columns.
func eachTile(n []int, f func(o []int) error) error {
	r := len(n)
	o := make([]int, r)
	batches := 1
	if r == 3 {
		batches = n[0]
	}
	for b := range batches {
		if r == 3 {
			o[0] = b
		}
		for i := range n[r-2] {
			o[r-2] = i
			for j := range n[r-1] {
				o[r-1] = j
				if err := f(o); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func lowerDot(g *gen, op *tileir.Op) error {
	res := op.Results[0]
	e := g.enc[res]
	shape := shapeInts(res.Type)
	rank := len(shape)
	aShape, bShape := shapeInts(op.Operands[0].Type), shapeInts(op.Operands[1].Type)
	k := aShape[rank-1]
	acc := g.in(op.Operands[2], e)
	plan, useMMA := g.planMMA(op)
	mma, isMMA := e.(*mmaEnc)
	if !useMMA || !isMMA {
		return g.dotFMA(op, e, shape, k, acc)
	}
	if want := (&mmaEnc{plan.Layout}).String(); mma.String() != want {
		return g.errorf(op, "the result has encoding %s, its matrix instructions want %s", mma, want)
	}
	if plan.WarpGroup {
		return g.dotWarpGroup(op, plan, mma, acc)
	}
	ea, eb := mmaOperand(0, mma, plan), mmaOperand(1, mma, plan)
	la, lb, lc := ea.linear(aShape), eb.linear(bShape), e.linear(shape)
	// the steps between instruction tiles: the batch by its warps, M and N by theirs
	// times the tile, K by the instruction's K
	var batch []int
	if rank == 3 {
		batch = []int{mma.Warps[0]}
	}
	tm, tn := plan.Layout.M, plan.Layout.N
	mStep, nStep := tm*mma.Warps[rank-2], tn*mma.Warps[rank-1]
	ta := mmaTile{ea.linear(tileShape(rank, tm, plan.K)), append(slices.Clone(batch), mStep, plan.K)}
	tb := mmaTile{eb.linear(tileShape(rank, plan.K, tn)), append(slices.Clone(batch), plan.K, nStep)}
	tc := mmaTile{e.linear(tileShape(rank, tm, tn)), append(slices.Clone(batch), mStep, nStep)}
	// Operands staged through shared memory take consecutive parts of the scratch buffer
	// (staged bytes so far), since their fragments load lazily.
	staged := 0
	// frags returns operand v's fragments: each A fragment serves every N tile and each
	// B fragment every M tile, so each is built once.
	frags := func(v *tileir.Value, e *dotOpEnc, l *linLayout, t mmaTile) (fragments, error) {
		if rank == 2 {
			if fs, end, ok := g.mmaOperandsFromShared(v, e, l, [2]int(t.steps), staged); ok {
				staged = (end + 15) / 16 * 16
				return fs, nil
			}
		}
		return g.registerFragments(v, e, l, t, plan)
	}
	aFrags, err := frags(op.Operands[0], ea, la, ta)
	if err != nil {
		return g.errorf(op, "mma operand A: %v", err)
	}
	bFrags, err := frags(op.Operands[1], eb, lb, tb)
	if err != nil {
		return g.errorf(op, "mma operand B: %v", err)
	}
	// the accumulators in the instruction's type (the dot's, or wider)
	rt := tileir.ScalarOf(res.Type)
	if acc, err = g.castAll(acc, rt, plan.Acc); err != nil {
		return g.errorf(op, "%v", err)
	}
	out := slices.Clone(acc)
	// sum holds the accumulators the instructions add to: out itself, or with partial
	// accumulators (plan.PartialK) fresh ones for every run of K, added to out after it
	sum, steps, run := out, k/plan.K, k/plan.K
	if plan.PartialK > 0 {
		run = plan.PartialK / plan.K
	}
	outZero := plan.PartialK > 0 && allZero(acc)
	ci := lc.regIndex()
	cregs := make([]int, tc.tile.numRegs())
	// K steps outermost: a step's fragments are used, and can die, before the next's load
	for ks := range steps {
		if plan.PartialK > 0 && ks%run == 0 {
			sum = make([]value.Value, len(acc))
			for r := range sum {
				sum[r] = floatConst(0, tileir.F32)
			}
		}
		err := eachTile(tc.reps(shape), func(o []int) error {
			if err := tc.regs(ci, o, cregs); err != nil {
				return err
			}
			c := make([]value.Value, len(cregs))
			for j, r := range cregs {
				c[j] = sum[r]
			}
			if plan.Acc.Bits() == 16 {
				c = g.packRegs(c, 2, types.I32)
			}
			b := 0 // the batch tile
			if rank == 3 {
				b = o[0]
			}
			d := g.isa.MMA(plan, aFrags(b, o[rank-2], ks), bFrags(b, ks, o[rank-1]), c)
			if plan.Acc.Bits() == 16 {
				d = g.unpackRegs(d, 2, llScalar(plan.Acc))
			}
			for j, r := range cregs {
				sum[r] = d[j]
			}
			return nil
		})
		if err != nil {
			return g.errorf(op, "mma result: %v", err)
		}
		if plan.PartialK > 0 && (ks%run == run-1 || ks == steps-1) {
			// as Triton, a zero constant accumulator takes the first run's sums as they are
			for r := range out {
				if outZero {
					out[r] = sum[r]
				} else {
					out[r] = g.fadd(out[r], sum[r])
				}
			}
			outZero = false
		}
	}
	if out, err = g.castAll(out, plan.Acc, rt); err != nil {
		return g.errorf(op, "%v", err)
	}
	g.vals[res] = out
	return nil
}

// registerFragments returns operand v's fragments from registers: v in encoding e
// (layout l), converted to the plan's operand type and packed, for every tile of t.
func (g *gen) registerFragments(v *tileir.Value, e *dotOpEnc, l *linLayout, t mmaTile, plan isa.MMAPlan) (fragments, error) {
	rank := len(l.shape)
	from := tileir.ScalarOf(v.Type)
	vals, idx := g.in(v, e), l.regIndex()
	n := t.reps(l.shape)
	regs := make([]int, t.tile.numRegs())
	elems := make([]value.Value, len(regs))
	var out [][]value.Value
	err := eachTile(n, func(o []int) error {
		if err := t.regs(idx, o, regs); err != nil {
			return err
		}
		for j, r := range regs {
			x, err := g.floatCast(vals[r], from, plan.Operand[e.opIdx], "")
			if err != nil {
				return err
			}
			elems[j] = x
		}
		out = append(out, g.packRegs(elems, plan.KWidth, plan.OperandReg))
		return nil
	})
	return func(b, i, j int) []value.Value { return out[(b*n[rank-2]+i)*n[rank-1]+j] }, err
}

// allZero reports whether every value of vals is a constant zero (a float of either
// sign, or an integer), as Triton's isZeroConst sees a splat of zero.
func allZero(vals []value.Value) bool {
	for _, v := range vals {
		switch c := v.(type) {
		case *constant.Float:
			if c.NaN || c.X.Sign() != 0 {
				return false
			}
		case *constant.Int:
			if c.X.Sign() != 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// packRegs packs kWidth consecutive elements of vals into each register of type reg, the
// first in the lowest bits: the vector of them (or the element itself, for kWidth 1),
// bitcast to reg where its type differs.
func (g *gen) packRegs(vals []value.Value, kWidth int, reg types.Type) []value.Value {
	out := make([]value.Value, 0, len(vals)/kWidth)
	for i := 0; i < len(vals); i += kWidth {
		v := vals[i]
		if kWidth > 1 {
			v = g.undef(g.vecType(kWidth, vals[i].Type()))
			for j := range kWidth {
				v = g.insertElement(v, vals[i+j], i32c(int64(j)))
			}
		}
		if !v.Type().Equal(reg) {
			v = g.BitCast(v, reg)
		}
		out = append(out, v)
	}
	return out
}

// unpackRegs is the inverse of packRegs: the elements (of type elem) of 32-bit registers regs.
func (g *gen) unpackRegs(regs []value.Value, kWidth int, elem types.Type) []value.Value {
	out := make([]value.Value, 0, len(regs)*kWidth)
	for _, r := range regs {
		v := g.BitCast(r, g.vecType(kWidth, elem))
		for j := range kWidth {
			out = append(out, g.extractElement(v, i32c(int64(j))))
		}
	}
	return out
}

// dotFMA computes the dot with one multiply-add per element and K step: each thread holds
// the rows of A and columns of B that its outputs need. A 16-bit float result is summed
// in f32 and rounded once, as the matrix instructions round it (summed in f16, a long K
// loses small products next to large partial sums).
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
	ct := rt // the type the products are summed in: f32 for 16-bit results, rounded once
	if rt == tileir.BF16 || rt == tileir.F16 {
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
		sum, err := g.floatCast(acc[r], rt, ct, "")
		if err != nil {
			return g.errorf(op, "%v", err)
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
		if out[r], err = g.floatCast(sum, ct, rt, ""); err != nil {
			return g.errorf(op, "%v", err)
		}
	}
	g.vals[op.Results[0]] = out
	return nil
}
