package lower

import (
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/tileir"
)

// sharedTileAlign is the alignment of the operands that warpgroup matrix instructions
// read from shared memory: their swizzle repeats every 8 rows of up to 128 bytes.
const sharedTileAlign = 1024

// dotWarpGroup lowers a 2-D dot whose plan is for the ISA's WarpGroupMMA (wgmma), as
// Triton's WGMMA.cpp does with operands in shared memory: B (and A, unless it comes
// from registers) is stored in the instruction's shared layout, fenced for the async
// proxy, and after a barrier the instructions run tile by tile (M, then N, then K
// innermost) between one fence and one wait. With partial accumulators (plan.PartialK)
// every run of K starts from zero, is waited for and added to the dot's accumulators.
func (g *gen) dotWarpGroup(op *tileir.Op, plan isa.MMAPlan, mma *mmaEnc, acc []value.Value) error {
	wg, ok := g.isa.(isa.WarpGroupMMA)
	if !ok {
		return g.errorf(op, "the plan is for warpgroup instructions, which the ISA lacks")
	}
	res := op.Results[0]
	shape := shapeInts(res.Type)
	aShape := shapeInts(op.Operands[0].Type)
	m, n, k := shape[0], shape[1], aShape[1]
	tm, tn := plan.Layout.M, plan.Layout.N
	mStep, nStep := tm*mma.Warps[0], tn*mma.Warps[1]

	var aFrags fragments
	if plan.ARegs {
		ea := mmaOperand(0, mma, plan)
		ta := mmaTile{ea.linear([]int{tm, plan.K}), []int{mStep, plan.K}}
		f, err := g.registerFragments(op.Operands[0], ea, ea.linear(aShape), ta, plan)
		if err != nil {
			return g.errorf(op, "wgmma operand A: %v", err)
		}
		aFrags = f
	}
	g.smemBarrier()
	at := 0
	var aLayout isa.SharedOperand
	var aTile value.Value
	if !plan.ARegs {
		aLayout, aTile, at = g.stageShared(wg, plan, op.Operands[0], 0, m, k, at)
	}
	bLayout, bTile, _ := g.stageShared(wg, plan, op.Operands[1], 1, n, k, at)
	wg.FenceAsyncShared()
	g.barrier()

	// each warp's descriptors start at its warpgroup's rows of A and columns of B: the
	// warp bits after the first two, which step within the group's 64 rows
	warpBases := mma.linear(shape).warp
	groupOffset := func(s isa.SharedOperand, dim int) value.Value {
		bases := make([][]int, len(warpBases))
		for i, c := range warpBases {
			bases[i] = []int{0}
			if i >= 2 {
				bases[i][0] = s.Offset(c[dim], 0)
			}
		}
		return g.bitsTo(g.warp, bases, 0)
	}
	var aDesc value.Value
	if !plan.ARegs {
		aDesc = wg.Descriptor(aLayout, g.cur.NewAdd(aTile, groupOffset(aLayout, 0)))
	}
	bDesc := wg.Descriptor(bLayout, g.cur.NewAdd(bTile, groupOffset(bLayout, 1)))

	rt := tileir.ScalarOf(res.Type)
	out, err := g.castAll(acc, rt, plan.Acc)
	if err != nil {
		return g.errorf(op, "%v", err)
	}
	out = slices.Clone(out) // acc may be a loop's phis
	zeroAcc := allZero(out)
	tc := mmaTile{mma.linear([]int{tm, tn}), []int{mStep, nStep}}
	ci := mma.linear(shape).regIndex()
	steps, run := k/plan.K, k/plan.K
	if plan.PartialK > 0 {
		run = plan.PartialK / plan.K
	}
	pack := func(vals []value.Value) []value.Value {
		if plan.Acc.Bits() == 16 {
			return g.packRegs(vals, 2, types.I32)
		}
		return vals
	}
	unpack := func(vals []value.Value) []value.Value {
		if plan.Acc.Bits() == 16 {
			return g.unpackRegs(vals, 2, llScalar(plan.Acc))
		}
		return vals
	}
	type tileRegs struct{ regs []int }
	var tiles []tileRegs
	err = eachTile(tc.reps(shape), func(o []int) error {
		regs := make([]int, tc.tile.numRegs())
		if err := tc.regs(ci, o, regs); err != nil {
			return err
		}
		tiles = append(tiles, tileRegs{regs})
		return nil
	})
	if err != nil {
		return g.errorf(op, "wgmma result: %v", err)
	}
	nTiles := max(n/nStep, 1)
	// issue runs the K steps [from, to) of every tile into sums (the accumulators of
	// every tile, by tile), adding to them after the first step unless first is false.
	issue := func(sums [][]value.Value, from, to int, useC bool) {
		for t := range tiles {
			i, j := t/nTiles, t%nTiles
			c := sums[t]
			for ks := from; ks < to; ks++ {
				var a isa.WarpGroupOperand
				if plan.ARegs {
					a.Regs = aFrags(0, i, ks)
				} else {
					a.Layout = aLayout
					a.Desc = wg.AdvanceDescriptor(aDesc, aLayout.Offset(i*mStep, ks*plan.K))
				}
				b := isa.WarpGroupOperand{Layout: bLayout, Desc: wg.AdvanceDescriptor(bDesc, bLayout.Offset(j*nStep, ks*plan.K))}
				c = wg.WarpGroupMMA(plan, a, b, c, useC || ks > from)
			}
			sums[t] = c
		}
	}
	gather := func(vals []value.Value) [][]value.Value {
		sums := make([][]value.Value, len(tiles))
		for t, tr := range tiles {
			c := make([]value.Value, len(tr.regs))
			for j, r := range tr.regs {
				c[j] = vals[r]
			}
			sums[t] = pack(c)
		}
		return sums
	}
	scatter := func(sums [][]value.Value, into []value.Value, add bool) {
		for t, tr := range tiles {
			for j, x := range unpack(sums[t]) {
				r := tr.regs[j]
				if add {
					into[r] = g.fadd(into[r], x)
				} else {
					into[r] = x
				}
			}
		}
	}
	wait := func(sums [][]value.Value) [][]value.Value {
		var flat []value.Value
		for _, s := range sums {
			flat = append(flat, s...)
		}
		flat = wg.MMAWait(flat)
		for t := range sums {
			sums[t], flat = flat[:len(sums[t])], flat[len(sums[t]):]
		}
		return sums
	}
	if plan.PartialK == 0 {
		wg.MMAFence()
		sums := gather(out)
		issue(sums, 0, steps, !zeroAcc)
		scatter(wait(sums), out, false)
	} else {
		// as Triton, a zero constant accumulator takes the first run's sums as they are
		zero := make([]value.Value, len(out))
		for r := range zero {
			zero[r] = floatConst(0, tileir.F32)
		}
		for from := 0; from < steps; from += run {
			wg.MMAFence()
			sums := gather(zero)
			issue(sums, from, min(from+run, steps), false)
			scatter(wait(sums), out, !(zeroAcc && from == 0))
		}
	}
	if out, err = g.castAll(out, plan.Acc, rt); err != nil {
		return g.errorf(op, "%v", err)
	}
	g.vals[res] = out
	return nil
}

// castAll converts float values from one type to another (nothing where they agree).
func (g *gen) castAll(vals []value.Value, from, to tileir.Scalar) ([]value.Value, error) {
	if from == to {
		return vals, nil
	}
	out := make([]value.Value, len(vals))
	for r, x := range vals {
		y, err := g.floatCast(x, from, to, "")
		if err != nil {
			return nil, err
		}
		out[r] = y
	}
	return out, nil
}

// stageShared stores dot operand v (opIdx 0: A, mn×k as [M][K]; 1: B, as [K][N]) from
// its registers into the scratch buffer at the first multiple of sharedTileAlign from
// byte at on, in the ISA's shared layout for it: contiguous along MN when v's registers
// hold consecutive MN elements (and the plan's types allow it). Every thread stores its
// elements, in vectors of up to 16 bytes where consecutive registers are adjacent there.
// It returns the layout, the tile's shared address (i32) and the end of the tile.
func (g *gen) stageShared(wg isa.WarpGroupMMA, plan isa.MMAPlan, v *tileir.Value, opIdx, mn, k, at int) (isa.SharedOperand, value.Value, int) {
	src := g.layoutOf(v)
	mnDim, kDim := 0, 1
	if opIdx == 1 {
		mnDim, kDim = 1, 0
	}
	mnContiguous := len(src.reg) > 0 && src.reg[0][mnDim] == 1
	s := wg.SharedOperand(plan, opIdx, mn, k, mnContiguous)
	start := (g.tmaScratchStart+at+sharedTileAlign-1)/sharedTileAlign*sharedTileAlign - g.tmaScratchStart
	end := start + s.Bytes()
	g.sharedAlign = max(g.sharedAlign, sharedTileAlign)
	offset := func(c []int) int { return s.Offset(c[mnDim], c[kDim]) }
	images := func(bases [][]int) [][]int {
		out := make([][]int, len(bases))
		for i, c := range bases {
			out[i] = []int{offset(c)}
		}
		return out
	}
	laneImg, warpImg := images(src.lane), images(src.warp)
	laneMask, warpMask := maskOf(laneImg), maskOf(warpImg)
	threadMask := laneMask | warpMask
	thread := g.combineBits(g.bitsTo(g.lane, laneImg, 0), g.bitsTo(g.warp, warpImg, 0), laneMask, warpMask)
	regOff := func(r int) int { return offset(src.regCoord(r)) }
	vals := g.vals[v]
	et := vals[0].Type()
	eb := s.ElemBytes
	base := g.sharedBase(end)
	for r := 0; r < len(vals); {
		w := max(16/eb, 1)
		for ; w > 1; w /= 2 {
			ok := r%w == 0 && r+w <= len(vals) && regOff(r)%(w*eb) == 0 && threadMask&(w*eb-1) == 0
			for j := 1; ok && j < w; j++ {
				ok = regOff(r+j) == regOff(r)+j*eb
			}
			if ok {
				break
			}
		}
		var addr value.Value = thread
		if o := regOff(r); o != 0 {
			addr = g.combineBits(thread, i32c(int64(o)), threadMask, o)
		}
		p := g.gep(types.I8, base, g.cur.NewAdd(addr, i32c(int64(start))))
		var x value.Value = vals[r]
		vt := et
		if w > 1 {
			vt = g.vecType(w, et)
			x = g.undef(vt)
			for j := range w {
				x = g.insertElement(x, vals[r+j], i32c(int64(j)))
			}
		}
		g.Store(x, g.BitCast(p, g.ptrType(vt, 3))).Align = ir.Align(w * eb)
		r += w
	}
	tile := g.cur.NewAdd(g.cur.NewPtrToInt(base, types.I32), i32c(int64(start)))
	return s, tile, end
}

// maskOf is the OR of one-dimensional images.
func maskOf(images [][]int) int {
	m := 0
	for _, b := range images {
		m |= b[0]
	}
	return m
}
