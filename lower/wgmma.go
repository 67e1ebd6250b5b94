package lower

import (
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
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
	// A's and B's tiles: a pipeline's stage of its ring, or staged here, in the scratch
	// buffer or in the dot's own double buffer (the half of this iteration's parity)
	pipedA, pipedB := g.pipelinedOperand(op, 0), g.pipelinedOperand(op, 1)
	invA, invB := g.invariantOperand(op, 0), g.invariantOperand(op, 1)
	tileBytes := func(opIdx, mn int) int { return roundUp(mn*k*plan.Operand[opIdx].Bits()/8, sharedTileAlign) }
	aBytes, bBytes := 0, 0
	if !plan.ARegs && pipedA == nil && invA == nil {
		aBytes = tileBytes(0, m)
	}
	if pipedB == nil && invB == nil {
		bBytes = tileBytes(1, n)
	}
	g.sharedAlign = max(g.sharedAlign, sharedTileAlign)
	var base, start value.Value
	if aBytes+bBytes > 0 {
		if ad, async := g.asyncDots[op]; async {
			base = g.sharedAt(ad.off, 2*ad.half)
			start = g.cur.NewMul(g.iterationMod(ad.loop, 2), i32c(int64(ad.half)))
		} else {
			base, start = g.sharedAt(roundUp(g.scratchStart, sharedTileAlign), aBytes+bBytes), i32c(0)
		}
		g.smemBarrier()
	}
	var aLayout, bLayout isa.SharedOperand
	var aTile, bTile value.Value
	switch {
	case invA != nil:
		aLayout, aTile = invA.layout, invA.tile
	case pipedA != nil:
		aLayout, aTile = pipedA.place.s, g.stageTile(pipedA)
	case !plan.ARegs:
		aLayout, aTile = g.stageShared(wg, plan, op.Operands[0], 0, m, k, base, start)
	}
	switch {
	case invB != nil:
		bLayout, bTile = invB.layout, invB.tile
	case pipedB != nil:
		bLayout, bTile = pipedB.place.s, g.stageTile(pipedB)
	default:
		bLayout, bTile = g.stageShared(wg, plan, op.Operands[1], 1, n, k, base, g.cur.NewAdd(start, i32c(int64(aBytes))))
	}
	if aBytes+bBytes > 0 {
		wg.FenceAsyncShared()
		g.barrier()
	}

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
	var tiles [][]int // each instruction tile's accumulator registers, M-major
	err = eachTile(tc.reps(shape), func(o []int) error {
		regs := make([]int, tc.tile.numRegs())
		if err := tc.regs(ci, o, regs); err != nil {
			return err
		}
		tiles = append(tiles, regs)
		return nil
	})
	if err != nil {
		return g.errorf(op, "wgmma result: %v", err)
	}
	nTiles := max(n/nStep, 1)
	// issue runs the K steps [from, to) of every tile into sums (the accumulators of
	// every tile, by tile); the first step adds to them only when useC.
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
		for t, regs := range tiles {
			c := make([]value.Value, len(regs))
			for j, r := range regs {
				c[j] = vals[r]
			}
			sums[t] = pack(c)
		}
		return sums
	}
	scatter := func(sums [][]value.Value, into []value.Value, add bool) {
		for t, regs := range tiles {
			for j, x := range unpack(sums[t]) {
				r := regs[j]
				if add {
					into[r] = g.fadd(into[r], x)
				} else {
					into[r] = x
				}
			}
		}
	}
	// an asynchronous dot (never one with partial accumulators, see planAsyncDots)
	// leaves its instructions in flight until the next iteration's have been issued (one
	// on a scaled accumulator: until the next iteration's product), or the loop ends
	// (waitAsyncDots)
	pending := 0
	ad, async := g.asyncDots[op]
	if async {
		pending = 1
	}
	wait := func(sums [][]value.Value) [][]value.Value {
		wg.MMACommit()
		if async && ad.scale != nil {
			return sums // still in flight: waitBefore waits for them
		}
		var flat []value.Value
		for _, s := range sums {
			flat = append(flat, s...)
		}
		flat = wg.MMAWait(flat, pending)
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
// its registers into shared memory start bytes (a multiple of sharedTileAlign) after the
// i8 pointer base, in the ISA's shared layout for it: contiguous along MN when v's
// registers hold consecutive MN elements (and the plan's types allow it). Every thread
// stores its elements, in vectors of up to 16 bytes where consecutive registers are
// adjacent there. It returns the layout and the tile's shared address (i32).
func (g *gen) stageShared(wg isa.WarpGroupMMA, plan isa.MMAPlan, v *tileir.Value, opIdx, mn, k int, base, start value.Value) (isa.SharedOperand, value.Value) {
	src := g.layoutOf(v)
	p := newPlacement(src, wg.SharedOperand(plan, opIdx, mn, k, mnContiguous(src, opIdx)), opIdx)
	thread := g.placementThread(p)
	vals := g.vals[v]
	et := vals[0].Type()
	eb := p.s.ElemBytes
	tileBase := g.gep(types.I8, base, start)
	for r := 0; r < len(vals); {
		w := max(16/eb, 1)
		for w > 1 && !p.run(r, w) {
			w /= 2
		}
		ptr := g.gep(types.I8, tileBase, g.placementAt(p, thread, r))
		var x value.Value = vals[r]
		vt := et
		if w > 1 {
			vt = g.vecType(w, et)
			x = g.undef(vt)
			for j := range w {
				x = g.insertElement(x, vals[r+j], i32c(int64(j)))
			}
		}
		g.Store(x, g.BitCast(ptr, g.ptrType(vt, 3))).Align = ir.Align(w * eb)
		r += w
	}
	return p.s, g.cur.NewPtrToInt(tileBase, types.I32)
}

// mnContiguous reports whether the registers of layout src (of dot operand opIdx) hold
// consecutive M (A) or N (B) elements, which its shared layout may then keep adjacent.
func mnContiguous(src *linLayout, opIdx int) bool {
	mnDim := 0
	if opIdx == 1 {
		mnDim = 1
	}
	return len(src.reg) > 0 && src.reg[0][mnDim] == 1
}

// placement maps the registers of a dot operand's layout src to byte offsets in its
// shared layout s: register r of a thread goes to the XOR of the thread's part (the
// images of its lane and warp bits, within threadMask) and the register's part.
type placement struct {
	s                isa.SharedOperand
	src              *linLayout
	mnDim, kDim      int
	laneImg, warpImg [][]int
	threadMask       int
}

func newPlacement(src *linLayout, s isa.SharedOperand, opIdx int) placement {
	p := placement{s: s, src: src, mnDim: 0, kDim: 1}
	if opIdx == 1 {
		p.mnDim, p.kDim = 1, 0
	}
	images := func(bases [][]int) [][]int {
		out := make([][]int, len(bases))
		for i, c := range bases {
			out[i] = []int{p.offset(c)}
		}
		return out
	}
	p.laneImg, p.warpImg = images(src.lane), images(src.warp)
	p.threadMask = maskOf(p.laneImg) | maskOf(p.warpImg)
	return p
}

// offset is the byte offset of the operand's element at coordinates c.
func (p placement) offset(c []int) int { return p.s.Offset(c[p.mnDim], c[p.kDim]) }

// regOff is the register part of register r's offset.
func (p placement) regOff(r int) int { return p.offset(p.src.regCoord(r)) }

// run reports whether registers r to r+w-1 fill w consecutive elements of shared
// memory, aligned to their size, in every thread.
func (p placement) run(r, w int) bool {
	eb := p.s.ElemBytes
	ok := r%w == 0 && r+w <= p.src.numRegs() && p.regOff(r)%(w*eb) == 0 && p.threadMask&(w*eb-1) == 0
	for j := 1; ok && j < w; j++ {
		ok = p.regOff(r+j) == p.regOff(r)+j*eb
	}
	return ok
}

// placementThread emits the thread's part of p's offsets (i32).
func (g *gen) placementThread(p placement) value.Value {
	return g.combineBits(g.bitsTo(g.lane, p.laneImg, 0), g.bitsTo(g.warp, p.warpImg, 0), maskOf(p.laneImg), maskOf(p.warpImg))
}

// placementAt emits register r's offset (i32), given the thread's part.
func (g *gen) placementAt(p placement, thread value.Value, r int) value.Value {
	if o := p.regOff(r); o != 0 {
		return g.combineBits(thread, i32c(int64(o)), p.threadMask, o)
	}
	return thread
}

// roundUp rounds n up to a multiple of align.
func roundUp(n, align int) int { return (n + align - 1) / align * align }

// maskOf is the OR of one-dimensional images.
func maskOf(images [][]int) int {
	m := 0
	for _, b := range images {
		m |= b[0]
	}
	return m
}

// asyncDot is a dot whose instructions stay in flight into the next iteration of its
// loop (see planAsyncDots), with its double buffer in shared memory: two halves of half
// bytes from byte off of global_smem, for even and odd iterations.
type asyncDot struct {
	loop   *tileir.Op
	result int // the loop result that its accumulators become
	// scale, where the dot adds to its iteration argument times another value, is that
	// product: the dot waits for nothing, and the next iteration waits for its
	// instructions just before scale reads them (waitBefore)
	scale     *tileir.Op
	off, half int
}

// planAsyncDots finds the dots that may run asynchronously, as Triton's WGMMAPipeline
// leaves a wgmma in flight into the next iteration ("properly async" dots): a warpgroup
// dot with fp32 accumulators in the body of an scf.for whose accumulator is an iteration
// argument that nothing else reads (Triton's rule 3a) or that argument scaled (rule 3b,
// where Triton threads it through the body's first wait_group 0, see asyncLoop), and
// whose result is only yielded back as it. Such a dot stages its operands in a double
// buffer of its own, after the pipelines' rings. One that adds to the argument itself waits for the previous iteration's instructions
// after issuing its own: the loads of one iteration overlap the instructions of the
// one before. One that adds to it scaled waits for nothing: its instructions overlap
// the rest of the iteration and the next one's, up to the product, which waits for them
// (attention's P·V runs during the next iteration's loads and Q·Kᵀ).
func (g *gen) planAsyncDots() {
	g.eachLoopDot(func(op *tileir.Op, plan isa.MMAPlan) {
		loop, result, scale, ok := g.asyncLoop(op)
		if !ok || plan.Acc != tileir.F32 { // Triton's rule 2.1: fp32 accumulators only
			return
		}
		at := g.loopBufferStart(loop)
		shape, k := shapeInts(op.Results[0].Type), tileir.ShapeOf(op.Operands[0].Type)[1]
		half := 0 // the operands it stages itself: not those of a ring or invariant ones
		if g.pipelinedOperand(op, 1) == nil && g.invariantOperand(op, 1) == nil {
			half += roundUp(shape[1]*int(k)*plan.Operand[1].Bits()/8, sharedTileAlign)
		}
		if !plan.ARegs && g.pipelinedOperand(op, 0) == nil && g.invariantOperand(op, 0) == nil {
			half += roundUp(shape[0]*int(k)*plan.Operand[0].Bits()/8, sharedTileAlign)
		}
		if at+3*half > g.t.SharedPerBlock { // with room to spare for the scratch buffer
			return
		}
		if g.asyncDots == nil {
			g.asyncDots = map[*tileir.Op]asyncDot{}
		}
		g.asyncDots[op] = asyncDot{loop: loop, result: result, scale: scale, off: at, half: half}
		if scale != nil {
			if g.waitBefore == nil {
				g.waitBefore = map[*tileir.Op]*tileir.Value{}
			}
			g.waitBefore[scale] = loop.Regions[0].Entry().Args[result+1]
		}
		g.reserveLoopBuffer(loop, at+2*half)
	})
}

// eachLoopDot calls place, in program order, for each warpgroup dot without partial
// accumulators, on an ISA with them.
func (g *gen) eachLoopDot(place func(op *tileir.Op, plan isa.MMAPlan)) {
	if _, ok := g.isa.(isa.WarpGroupMMA); !ok {
		return
	}
	g.tf.Walk(func(op *tileir.Op) bool {
		if op.Name != "tt.dot" {
			return true
		}
		if plan, ok := g.planMMA(op); ok && plan.WarpGroup && plan.PartialK == 0 {
			place(op, plan)
		}
		return true
	})
}

// reserveLoopBuffer records that loop's runs need shared memory up to byte end (its
// pipeline's ring, its asynchronous dots' buffers, its invariant operands).
func (g *gen) reserveLoopBuffer(loop *tileir.Op, end int) {
	if g.loopBuffers == nil {
		g.loopBuffers = map[*tileir.Op]int{}
	}
	g.loopBuffers[loop] = max(g.loopBuffers[loop], end)
}

// loopBufferStart is where loop's next buffer may go: after the scratch buffer's start
// and the buffers of loop and of the ops around it. Loops that do not nest never run at
// once, so their buffers overlap.
func (g *gen) loopBufferStart(loop *tileir.Op) int {
	at := g.scratchStart
	for op := loop; op != nil; op = op.ParentOp() {
		at = max(at, g.loopBuffers[op])
	}
	return roundUp(at, sharedTileAlign)
}

// loopScratch moves the scratch buffer past loop's buffers while the loop runs, from its
// prologue on, and returns what moves it back after the loop: outside its runs the
// scratch buffer reuses their space. A barrier on either side keeps the two apart: no
// thread fills a ring or a double buffer while another may still use the scratch buffer
// there, and none uses the scratch buffer while another's dots may still read them.
func (g *gen) loopScratch(loop *tileir.Op) (restore func()) {
	end, ok := g.loopBuffers[loop]
	if !ok {
		return func() {}
	}
	g.smemBarrier()
	saved := g.scratchStart
	g.scratchStart = max(saved, end)
	return func() {
		g.barrier()
		g.scratchStart = saved
	}
}

// asyncLoop returns the scf.for whose body holds dot op, with the index of the loop
// result its accumulator is carried to, when op may run asynchronously there: its
// accumulator is an iteration argument that nothing else reads, or the product of one by
// another value (attention's acc * alpha), scale, that only the dot reads; its result
// is only yielded back as that argument.
func (g *gen) asyncLoop(op *tileir.Op) (loop *tileir.Op, result int, scale *tileir.Op, ok bool) {
	body := op.Block()
	loop = body.Region().Op()
	acc, res := op.Operands[2], op.Results[0]
	isArg := func(x *tileir.Value) bool { return x.Def() == nil && x.Block() == body && x.Index() > 0 }
	if d := acc.Def(); d != nil {
		if d.Name != "arith.mulf" || d.Block() != body || len(g.dotUsers[acc]) != 1 || d.Operands[0] == d.Operands[1] {
			return nil, 0, nil, false
		}
		switch {
		case isArg(d.Operands[0]):
			acc = d.Operands[0]
		case isArg(d.Operands[1]):
			acc = d.Operands[1]
		default:
			return nil, 0, nil, false
		}
		scale = d
	}
	if loop == nil || loop.Name != "scf.for" || !isArg(acc) {
		return nil, 0, nil, false
	}
	i := acc.Index() - 1 // iteration arguments follow the induction variable
	yield := body.Terminator()
	if len(g.dotUsers[acc]) != 1 || len(g.dotUsers[res]) != 1 || g.dotUsers[res][0] != yield || yield.Operands[i] != res {
		return nil, 0, nil, false
	}
	for j, v := range yield.Operands {
		if v == res && j != i {
			return nil, 0, nil, false
		}
	}
	return loop, i, scale, true
}

// iterationMod is the current iteration's number modulo n of the scf.for loop being
// lowered: (iv - lb) / step, mod n (i32).
func (g *gen) iterationMod(loop *tileir.Op, n int) value.Value {
	iv := g.vals[loop.Regions[0].Entry().Args[0]][0]
	lb, step := g.vals[loop.Operands[0]][0], g.vals[loop.Operands[2]][0]
	d := g.cur.NewSub(iv, lb)
	var i value.Value
	if c, ok := step.(*constant.Int); ok && c.X.IsInt64() && c.X.Int64() > 0 && c.X.Int64()&(c.X.Int64()-1) == 0 {
		i = g.cur.NewLShr(d, constant.NewInt(d.Type().(*types.IntType), int64(log2(int(c.X.Int64())))))
	} else {
		i = g.cur.NewSDiv(d, step)
	}
	if t := i.Type().(*types.IntType); t.BitSize != 32 {
		i = g.cur.NewTrunc(i, types.I32)
	}
	if n&(n-1) == 0 {
		return g.cur.NewAnd(i, i32c(int64(n-1)))
	}
	return g.cur.NewURem(i, i32c(int64(n)))
}

// waitAsyncDots waits, after scf.for loop, for the instructions its asynchronous dots
// left in flight (each committed in the loop: no empty group is committed here, which
// ptxas would issue as an HGMMA of its own): their accumulators, the loop's results,
// are read after the wait. The waits follow the order of the loop's results, so that
// the output does not depend on the map's order.
func (g *gen) waitAsyncDots(loop *tileir.Op) {
	var results []int
	for _, ad := range g.asyncDots {
		if ad.loop == loop {
			results = append(results, ad.result)
		}
	}
	slices.Sort(results)
	for _, i := range results {
		r := loop.Results[i]
		g.vals[r] = g.isa.(isa.WarpGroupMMA).MMAWait(g.vals[r], 0)
	}
}

// invariantOperand is operand A or B of a warpgroup dot in an scf.for's body that the
// loop does not compute (it is defined outside): as Triton keeps such an operand in
// shared memory, it is stored there once, into a buffer of the loop's at off, before
// each run of the loop, and the dot reads it there in every iteration. Where it is a TMA
// load (directly or through a tt.trans) that only such dots read, src, the load is copied
// into the buffer in the dot's layout, slab by slab, as a pipeline's direct loads are
// (Triton's Q of attention), and lowers to nothing where it is.
type invariantOperand struct {
	dot, loop  *tileir.Op
	opIdx      int
	plan       isa.MMAPlan
	mn, k      int
	off, bytes int
	src        *pipelinedLoad
	// once stored: the layout and the tile's shared address (i32)
	layout isa.SharedOperand
	tile   value.Value
}

// planInvariantOperands finds the loop-invariant operands of warpgroup dots (not those
// of a pipeline's ring) and places their buffers after the rings, as long as they fit
// (Lower lowers the kernel again without them when its scratch buffer then does not).
func (g *gen) planInvariantOperands() {
	if g.noInvariants {
		return
	}
	g.eachLoopDot(func(op *tileir.Op, plan isa.MMAPlan) {
		loop := op.ParentOp()
		if loop == nil || loop.Name != "scf.for" {
			return
		}
		at := g.loopBufferStart(loop)
		shape, k := shapeInts(op.Results[0].Type), shapeInts(op.Operands[0].Type)[1]
		for opIdx := range 2 {
			d := op.Operands[opIdx].Def()
			if ld := g.pipelinedOperand(op, opIdx); opIdx == 0 && plan.ARegs || d == nil || ld != nil && ld.pipe != nil || within(d, loop) {
				continue
			}
			bytes := roundUp(shape[opIdx]*k*plan.Operand[opIdx].Bits()/8, sharedTileAlign)
			if at+bytes > g.t.SharedPerBlock {
				continue
			}
			g.invariants = append(g.invariants, &invariantOperand{dot: op, loop: loop, opIdx: opIdx, plan: plan, mn: shape[opIdx], k: k, off: at, bytes: bytes,
				src: g.directInvariantLoad(plan, op, opIdx)})
			at += bytes
			g.reserveLoopBuffer(loop, at)
		}
	})
}

// directInvariantLoad returns the direct TMA load, without a pipeline, that invariant
// operand opIdx of dot is (through a tt.trans or not), registered in pipelinedLoads, or
// nil. settleDirectLoads keeps it only if every dot that reads it reads it so.
func (g *gen) directInvariantLoad(plan isa.MMAPlan, dot *tileir.Op, opIdx int) *pipelinedLoad {
	wg, ok := g.isa.(isa.WarpGroupMMA)
	d, trans := dot.Operands[opIdx].Def(), false
	if !ok || g.isa.TMA() == nil || d == nil {
		return nil
	}
	if d.Name == "tt.trans" {
		if d, trans = d.Operands[0].Def(), true; d == nil {
			return nil
		}
	}
	if d.Name != "tt.descriptor_load" || len(shapeInts(d.Results[0].Type)) != 2 {
		return nil
	}
	if !g.copiesByTMA(d.Operands[0]) {
		return nil
	}
	if ld := g.pipelinedLoads[d]; ld != nil {
		return ld // another loop's dot reads it too
	}
	s, box, ok := directLayout(wg, plan, dot, opIdx, d, trans)
	if !ok {
		return nil
	}
	if g.pipelinedLoads == nil {
		g.pipelinedLoads = map[*tileir.Op]*pipelinedLoad{}
	}
	ld := &pipelinedLoad{op: d, tma: true, direct: true, place: placement{s: s}, box: box}
	g.pipelinedLoads[d] = ld
	return ld
}

// settleDirectLoads keeps the direct invariant loads whose every reader (through one
// tt.trans at most) is a dot that takes it as a direct invariant operand, then the direct
// loads of descriptors that every load through is one (swizzleTensorMaps); the invariant
// operands of the others are stored from registers.
func (g *gen) settleDirectLoads() {
	direct := map[*tileir.Op]bool{} // the dots of each direct invariant operand
	for _, o := range g.invariants {
		if o.src != nil {
			direct[o.dot] = true
		}
	}
	readers := func(v *tileir.Value) []*tileir.Op {
		var out []*tileir.Op
		for _, u := range g.users[v] {
			if u.Name == "tt.trans" {
				out = append(out, g.users[u.Results[0]]...)
				continue
			}
			out = append(out, u)
		}
		return out
	}
	for _, o := range g.invariants {
		if o.src != nil && slices.ContainsFunc(readers(o.src.op.Results[0]), func(u *tileir.Op) bool { return !direct[u] }) {
			o.src.direct = false
		}
	}
	g.swizzleTensorMaps()
	for _, o := range g.invariants {
		if o.src != nil && !o.src.direct {
			delete(g.pipelinedLoads, o.src.op)
			o.src = nil
		}
	}
}

// within reports whether op is nested in loop's regions.
func within(op, loop *tileir.Op) bool {
	for p := op.ParentOp(); p != nil; p = p.ParentOp() {
		if p == loop {
			return true
		}
	}
	return false
}

// stageInvariants stores the invariant operands of loop's dots into their buffers,
// before the loop runs, and makes them visible to the dots.
func (g *gen) stageInvariants(loop *tileir.Op) {
	wg, ok := g.isa.(isa.WarpGroupMMA)
	if !ok {
		return
	}
	stored := false
	for _, o := range g.invariants {
		switch {
		case o.loop != loop:
		case o.src != nil:
			buf := g.sharedAt(o.off, o.bytes)
			coords, err := g.tmaCoords(o.src.op, o.src.op.Operands[1:])
			if err != nil {
				panic(err) // directInvariantLoad takes blocks of rank 2
			}
			g.smemBarrier() // the buffer may be another loop's
			g.eachSlab(o.src, buf, coords, func(slab value.Value, coords []value.Value) {
				g.isa.TMA().Load(g.tid, g.tmaBarrier, slab, g.vals[o.src.op.Operands[0]][0], coords, o.src.slabBytes())
			})
			o.layout, o.tile = o.src.place.s, g.cur.NewPtrToInt(buf, types.I32)
		default:
			o.layout, o.tile = g.stageShared(wg, o.plan, o.dot.Operands[o.opIdx], o.opIdx, o.mn, o.k, g.sharedAt(o.off, o.bytes), i32c(0))
			stored = true
		}
	}
	if stored {
		wg.FenceAsyncShared()
		g.barrier()
	}
}

// invariantOperand returns the invariant operand opIdx of dot, or nil.
func (g *gen) invariantOperand(dot *tileir.Op, opIdx int) *invariantOperand {
	for _, o := range g.invariants {
		if o.dot == dot && o.opIdx == opIdx {
			return o
		}
	}
	return nil
}
