package lower

import (
	"maps"
	"math"
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/tileir"
)

// Software pipelining of the loads that feed warpgroup dots, as Triton's pipeliner
// schedules an scf.for of num_stages stages with cp.async: the loop's operand tiles live
// in a ring of num_stages buffers of shared memory, each in the dot's shared layout, and
// the copies of iteration i+num_stages-1 are issued at the end of iteration i, so that
// num_stages-1 iterations of loads are in flight while the dots run.
//
// Loads through host tensor descriptors (TMA) are pipelined the same way: thread 0 arms
// the stage's mbarrier with the stage's bytes and issues the copies; every thread waits
// for the barrier's phase of the iteration (its parity (i / num_stages) & 1). Where the
// load is operand A or B of a warpgroup dot (directly or through a transpose) and every
// load through its descriptor is such a one, the descriptor's tensor map is swizzled as
// the dot's shared layout is, and the copies write the stage in that layout, one slab of
// Swizzle bytes of the contiguous dimension each: the dot reads the stage itself
// (directTMA). Otherwise the stage holds a row-major box, which the threads read into
// the load's registers where the load was. The barriers are initialized before each run
// of the loop and invalidated after it.
//
// Before the loop, the slice of ops that computes the loads' pointers and masks runs for
// the first num_stages-1 iterations and issues their copies, one group each. Every
// iteration waits for its own group (cp.async.wait_group num_stages-2) and synchronizes
// the block; the dots read their stage of the ring. (As in Triton, whose fence insertion
// fences only stores from registers before a dot, the copies are not fenced for the
// async proxy: a fence.proxy.async here costs a MEMBAR.ALL.CTA per iteration.)
// At its end, after a barrier (every warp has waited for the dots that read the stage
// being overwritten), it runs the slice again for iteration i+num_stages-1, with the
// induction variable shifted and the iteration arguments the slice reads carried in
// phis of their own, and issues that iteration's copies, predicated off past the loop's
// end. The loads themselves lower to nothing.

// A loop with its own num_stages (tl.range(..., num_stages=)) also pipelines its other
// loads, as Triton's does (on sm_80 too): each thread copies its own vectors of the
// load's registers into the stage, vector j at (j·threads + thread)·bytes, and reads
// them back where the load was (staged). A thread reads only what it copied, so these
// need no barrier, and a ring of them alone has num_stages-1 buffers: the copies of
// iteration i+num_stages-1 overwrite the stage iteration i has just read.

// pipeline is an scf.for whose loads are pipelined.
type pipeline struct {
	loop   *tileir.Op
	stages int
	// buffers is the ring's number of stages: stages, or stages-1 when every load is
	// staged.
	buffers int
	loads   []*pipelinedLoad
	// slice holds the ops of the body that compute the loads' pointers and masks and the
	// next values of the ahead arguments, in body order; ahead indexes the iteration
	// arguments (body.Args[1:]) it reads.
	slice []*tileir.Op
	ahead []int
	// ring is global_smem's offset of stage 0; every stage is stageBytes, of which
	// tmaBytes are TMA boxes. bars is the offset of the stages' mbarriers (with TMA loads).
	ring, stageBytes int
	tmaBytes, bars   int

	// While the loop is lowered: the phis of the ahead arguments (their values
	// stages-1 iterations on) and of the iteration count modulo period (i32), and this
	// iteration's stage (i32).
	aheadPhis [][]value.Value
	count     *ir.InstPhi
	stage     value.Value
}

// period is the modulus of p's iteration count: buffers, or twice that with TMA loads,
// whose barriers' phases alternate every stages iterations.
func (p *pipeline) period() int {
	if p.tmaBytes > 0 {
		return 2 * p.buffers
	}
	return p.buffers
}

// pipelinedLoad is one load of a pipeline at offset bytes into every stage: a tt.load
// that is operand A or B of a warpgroup dot, copied in vectors of vec elements (bytes
// bytes) in the dot's shared layout as place maps its registers there; or (tma) a
// tt.descriptor_load of a block of bytes bytes. A direct TMA load writes the block in
// the dot's shared layout place.s, one copy of box (outermost first) per slab of it. A
// staged load is a tt.load read back into its registers, vectors of vec elements.
type pipelinedLoad struct {
	op         *tileir.Op
	pipe       *pipeline
	place      placement
	offset     int
	vec, bytes int
	tma        bool
	direct     bool
	staged     bool
	box        []int
	// thread is this thread's part of a cp.async load's offsets in its tile (i32),
	// emitted before the loop.
	thread value.Value
}

// planPipelines finds the loops whose loads are pipelined and places their rings after
// the scratch buffer's start, ahead of the asynchronous dots' buffers (loopBuffers).
func (g *gen) planPipelines() {
	wg, _ := g.isa.(isa.WarpGroupMMA)
	if _, copies := g.isa.(isa.AsyncCopier); !copies || g.noPipelines {
		return
	}
	g.tf.Walk(func(op *tileir.Op) bool {
		if op.Name != "scf.for" {
			return true
		}
		at := g.loopBufferStart(op)
		p := g.planPipeline(wg, op)
		if p == nil || at+p.buffers*(p.stageBytes+8) > g.t.SharedPerBlock {
			return true
		}
		p.ring = at
		at += p.buffers * p.stageBytes
		if p.tmaBytes > 0 {
			p.bars = at
			at = roundUp(at+8*p.buffers, sharedTileAlign)
		}
		g.reserveLoopBuffer(op, at)
		if g.pipelines == nil {
			g.pipelines, g.pipelinedLoads = map[*tileir.Op]*pipeline{}, map[*tileir.Op]*pipelinedLoad{}
		}
		g.pipelines[op] = p
		for _, ld := range p.loads {
			g.pipelinedLoads[ld.op] = ld
		}
		if p.shared() { // a dot's swizzled tiles; staged tiles need their vectors' alignment
			g.sharedAlign = max(g.sharedAlign, sharedTileAlign)
		}
		return true
	})
}

// planPipeline returns loop's pipeline, or nil: it needs num_stages (the loop's
// tt.num_stages, else the kernel's) of at least 2, loads that qualify (pipelinedLoadOf,
// pipelinedTMALoadOf, or with the loop's own num_stages stagedLoadOf), and a slice of
// pure ops for each of them (a load without one stays where it is).
func (g *gen) planPipeline(wg isa.WarpGroupMMA, loop *tileir.Op) *pipeline {
	p := &pipeline{loop: loop, stages: g.opts.NumStages}
	a, own := loop.Attr("tt.num_stages").(tileir.IntAttr)
	if own {
		p.stages = int(a.V)
	}
	if p.stages < 2 {
		return nil
	}
	body := loop.Regions[0].Entry()
	var loads []*pipelinedLoad
	for _, op := range body.Ops {
		var ld *pipelinedLoad
		if wg != nil {
			if ld = g.pipelinedLoadOf(wg, op); ld == nil {
				ld = g.pipelinedTMALoadOf(wg, op)
			}
		}
		if ld == nil && own {
			ld = g.stagedLoadOf(op)
		}
		if ld != nil {
			loads = append(loads, ld)
		}
	}
	p.sliceLoads(body, loads)
	if len(p.loads) == 0 {
		return nil
	}
	align := 16
	p.buffers = p.stages - 1
	if p.shared() {
		p.buffers, align = p.stages, sharedTileAlign
	}
	for _, ld := range p.loads {
		ld.pipe, ld.offset = p, p.stageBytes
		switch {
		case ld.tma:
			p.stageBytes += roundUp(ld.bytes, align)
			p.tmaBytes += ld.bytes
		case ld.staged:
			vectors := g.layoutOf(ld.op.Results[0]).numRegs() / ld.vec // per thread
			p.stageBytes += roundUp(ld.bytes*vectors*g.threads(), align)
		default:
			p.stageBytes += roundUp(ld.place.s.Bytes(), align)
		}
	}
	return p
}

// copyable reports whether op is a tt.load that cp.async may do: of a tensor of
// pointers (not a block pointer), not volatile, without an eviction policy.
func (g *gen) copyable(op *tileir.Op) bool {
	if op.Name != "tt.load" || !isTensor(op.Results[0]) || g.enc[op.Results[0]] == nil {
		return false
	}
	if _, blk := tileir.ElemType(op.Operands[0].Type).(*tileir.PtrType).Elem().(*tileir.TensorType); blk {
		return false
	}
	return op.Attr("isVolatile") != tileir.BoolAttr(true) && (op.EnumAttr("evict") == "evict_normal" || op.EnumAttr("evict") == "")
}

// stagedLoadOf returns op as a staged load, or nil: a copyable tt.load whose vectors are
// 4, 8 or 16 bytes (Triton pipelines no load narrower than 32 bits).
func (g *gen) stagedLoadOf(op *tileir.Op) *pipelinedLoad {
	if !g.copyable(op) {
		return nil
	}
	var mask *tileir.Value
	if len(op.Operands) > 1 {
		if mask = op.Operands[1]; !isTensor(mask) {
			return nil
		}
	}
	a, err := g.newAccess(op, 1)
	if err != nil {
		return nil
	}
	vec := g.vecWidth(op.Operands[0], mask, g.layoutOf(op.Results[0]), a.bits)
	bytes := vec * a.bits / 8
	if bytes != 4 && bytes != 8 && bytes != 16 {
		return nil
	}
	return &pipelinedLoad{op: op, vec: vec, bytes: bytes, staged: true}
}

// threads is the number of threads of the block.
func (g *gen) threads() int { return g.opts.NumWarps * g.t.WarpSize }

// loadStaged lowers staged load ld: its registers read from its tile of this
// iteration's stage, with the load's other where its mask fails.
func (g *gen) loadStaged(ld *pipelinedLoad) error {
	op, res := ld.op, ld.op.Results[0]
	e := g.enc[res]
	a, err := g.newAccess(op, ld.vec)
	if err != nil {
		return g.errorf(op, "%v", err)
	}
	mine := g.gep(types.I8, g.stageBox(ld, ld.pipe.stage), ld.thread)
	masks, others := g.optional(op, 1, e), g.optional(op, 2, e)
	n := g.layoutOf(res).numRegs()
	out := make([]value.Value, 0, n)
	for j := range n / ld.vec {
		at := g.gep(types.I8, mine, i32c(int64(j*g.threads()*ld.bytes)))
		var elems []value.Value
		if ld.vec == 1 {
			l := g.load(a.mem, at)
			l.Align = ir.Align(ld.bytes)
			elems = []value.Value{g.fromStorable(l, a.elem)}
		} else {
			l := g.load(g.vecType(ld.vec, a.mem), at)
			l.Align = ir.Align(ld.bytes)
			for k := range ld.vec {
				elems = append(elems, g.fromStorable(g.extractElement(l, i32c(int64(k))), a.elem))
			}
		}
		if others != nil {
			for k := range elems {
				elems[k] = g.cur.NewSelect(masks[j*ld.vec], elems[k], others[j*ld.vec+k])
			}
		}
		out = append(out, elems...)
	}
	g.vals[res] = out
	return nil
}

// pipelinedLoadOf returns op as a pipelined load, or nil: a copyable tt.load whose one
// use is as operand A (read from shared memory) or B of a warpgroup dot in the same
// block, with no other value or a zero one, and whose vectors of registers land in
// aligned runs of 4, 8 or 16 bytes of the dot's shared layout.
func (g *gen) pipelinedLoadOf(wg isa.WarpGroupMMA, op *tileir.Op) *pipelinedLoad {
	if !g.copyable(op) {
		return nil
	}
	res := op.Results[0]
	users := g.users[res]
	if len(users) != 1 || users[0].Name != "tt.dot" || users[0].Block() != op.Block() {
		return nil
	}
	dot := users[0]
	plan, ok := g.planMMA(dot)
	opIdx := -1
	for i, o := range dot.Operands {
		if o == res {
			if opIdx >= 0 {
				return nil
			}
			opIdx = i
		}
	}
	if !ok || !plan.WarpGroup || opIdx > 1 || opIdx == 0 && plan.ARegs {
		return nil
	}
	if len(op.Operands) > 2 && !zeroSplat(op.Operands[2]) {
		return nil
	}
	var mask *tileir.Value
	if len(op.Operands) > 1 {
		mask = op.Operands[1]
		if !isTensor(mask) {
			return nil
		}
	}
	elemBits := plan.Operand[opIdx].Bits()
	if tileir.ScalarOf(res.Type).Bits() != elemBits {
		return nil
	}
	shape := shapeInts(dot.Results[0].Type)
	mn, k := shape[opIdx], shapeInts(dot.Operands[0].Type)[1]
	src := g.layoutOf(res)
	place := newPlacement(src, wg.SharedOperand(plan, opIdx, mn, k, mnContiguous(src, opIdx)), opIdx)
	vec := g.vecWidth(op.Operands[0], mask, src, elemBits)
	bytes := vec * elemBits / 8
	if bytes != 4 && bytes != 8 && bytes != 16 {
		return nil
	}
	for r := 0; r < src.numRegs(); r += vec {
		if !place.run(r, vec) {
			return nil
		}
	}
	return &pipelinedLoad{op: op, place: place, vec: vec, bytes: bytes}
}

// pipelinedTMALoadOf returns op as a pipelined load, or nil: a tt.descriptor_load of a
// tensor on a target with TMA, through a host descriptor (a kernel parameter) or a
// tensor map built before the loop. It is direct where directTMA finds the dot operand
// it may be written as.
func (g *gen) pipelinedTMALoadOf(wg isa.WarpGroupMMA, op *tileir.Op) *pipelinedLoad {
	if op.Name != "tt.descriptor_load" || g.isa.TMA() == nil || !isTensor(op.Results[0]) || g.enc[op.Results[0]] == nil {
		return nil
	}
	desc := op.Operands[0]
	if !g.copiesByTMA(desc) || desc.Def() != nil && within(desc.Def(), op.ParentOp()) {
		return nil
	}
	if rank := len(op.Operands) - 1; rank < 1 || rank > 5 {
		return nil
	}
	_, bytes := tmaBlock(op.Results[0].Type)
	ld := &pipelinedLoad{op: op, bytes: bytes, tma: true}
	g.directTMA(wg, ld)
	return ld
}

// directTMA makes TMA load ld direct where its block [R][C] (C contiguous in memory) is
// the one use of operand A or B of a warpgroup dot in the same block, or of a tt.trans
// that is: the dot's shared layout for the operand, contiguous along C, is then slabs
// of R rows of Swizzle bytes, each what one copy of a [R, Swizzle/elem] box through a
// tensor map with that swizzle writes (the hardware's swizzle permutes the 16-byte
// chunks of each 128-byte row by address bits 7 and up, as the layout's Offset does).
func (g *gen) directTMA(wg isa.WarpGroupMMA, ld *pipelinedLoad) {
	res := ld.op.Results[0]
	block := shapeInts(res.Type)
	if len(block) != 2 {
		return
	}
	v, trans := res, false
	users := g.users[v]
	if len(users) == 1 && users[0].Name == "tt.trans" && users[0].Block() == ld.op.Block() {
		v, trans = users[0].Results[0], true
		users = g.users[v]
	}
	if len(users) != 1 || users[0].Name != "tt.dot" || users[0].Block() != ld.op.Block() {
		return
	}
	dot := users[0]
	opIdx := slices.Index(dot.Operands, v)
	if opIdx > 1 || slices.Index(dot.Operands[opIdx+1:], v) >= 0 {
		return
	}
	plan, ok := g.planMMA(dot)
	if !ok || !plan.WarpGroup || opIdx == 0 && plan.ARegs {
		return
	}
	if s, box, ok := directLayout(wg, plan, dot, opIdx, ld.op, trans); ok {
		ld.direct, ld.place, ld.box = true, placement{s: s}, box
	}
}

// eachSlab calls issue with the shared address and the coordinates (innermost first) of
// each slab of direct TMA load ld, whose block is at box and coords: slab j is j boxes on
// along the contiguous coordinate.
func (g *gen) eachSlab(ld *pipelinedLoad, box value.Value, coords []value.Value, issue func(slab value.Value, coords []value.Value)) {
	for j := range shapeInts(ld.op.Results[0].Type)[1] / ld.box[1] {
		c := slices.Clone(coords)
		c[0] = g.cur.NewAdd(c[0], i32c(int64(j*ld.box[1])))
		issue(g.gep(types.I8, box, i32c(int64(j*ld.slabBytes()))), c)
	}
}

// slabBytes is the size of one slab of direct TMA load ld: its box's rows of Swizzle
// bytes.
func (ld *pipelinedLoad) slabBytes() int { return ld.box[0] * ld.place.s.Swizzle }

// directLayout returns the shared layout of operand opIdx (read from shared memory) of
// warpgroup dot that TMA load op writes directly, its block through a tt.trans where
// trans, and the box of one slab's copy; ok is false where the layout has no swizzle or
// the block does not split into its slabs.
func directLayout(wg isa.WarpGroupMMA, plan isa.MMAPlan, dot *tileir.Op, opIdx int, op *tileir.Op, trans bool) (s isa.SharedOperand, box []int, ok bool) {
	res := op.Results[0]
	block := shapeInts(res.Type)
	if plan.Operand[opIdx].Bits() != tileir.ScalarOf(res.Type).Bits() {
		return s, nil, false
	}
	// the operand's MN dimension is the contiguous one for B, and for A when transposed
	mnContiguous := opIdx == 1 != trans
	shape := shapeInts(dot.Results[0].Type)
	s = wg.SharedOperand(plan, opIdx, shape[opIdx], shapeInts(dot.Operands[0].Type)[1], mnContiguous)
	if s.MNMajor != mnContiguous || s.Swizzle == 0 || block[0] > 256 || block[1]*s.ElemBytes%s.Swizzle != 0 {
		return s, nil, false
	}
	return s, []int{block[0], s.Swizzle / s.ElemBytes}, true
}

// swizzleTensorMaps keeps the direct TMA loads of descriptors whose every use is one,
// all with the same box and swizzle, and records those descriptors' tensor maps; the
// other direct loads read their stage into registers instead.
func (g *gen) swizzleTensorMaps() {
	descs := slices.Collect(maps.Keys(g.kernelMaps))
	slices.SortFunc(descs, func(a, b *tileir.Value) int { return g.kernelMaps[a] - g.kernelMaps[b] })
	for _, a := range append(slices.Clone(g.tf.Args()), descs...) {
		if _, ok := a.Type.(*tileir.TensorDescType); !ok {
			continue
		}
		var loads []*pipelinedLoad
		same := true
		for _, u := range g.users[a] {
			ld := g.pipelinedLoads[u]
			if ld == nil || !ld.direct {
				same = false
				continue
			}
			if len(loads) > 0 && (!slices.Equal(ld.box, loads[0].box) || ld.place.s.Swizzle != loads[0].place.s.Swizzle) {
				same = false
			}
			loads = append(loads, ld)
		}
		if len(loads) == 0 {
			continue
		}
		if !same {
			for _, ld := range loads {
				ld.direct = false
			}
			continue
		}
		if g.swizzledMaps == nil {
			g.swizzledMaps = map[*tileir.Value]TensorMap{}
		}
		g.swizzledMaps[a] = TensorMap{Swizzle: loads[0].place.s.Swizzle, Box: loads[0].box}
	}
}

// hasCopies reports whether p has loads copied by cp.async (not TMA).
func (p *pipeline) hasCopies() bool {
	return slices.ContainsFunc(p.loads, func(ld *pipelinedLoad) bool { return !ld.tma })
}

// zeroSplat reports whether v is an arith.constant splat of zero (+0.0 for floats).
func zeroSplat(v *tileir.Value) bool {
	d := v.Def()
	if d == nil || d.Name != "arith.constant" {
		return false
	}
	dense, ok := d.Attr("value").(tileir.DenseAttr)
	if !ok {
		return false
	}
	switch s := dense.Splat.(type) {
	case tileir.IntAttr:
		return s.V == 0
	case tileir.FloatAttr:
		return s.V == 0 && !math.Signbit(s.V)
	}
	return false
}

// sliceOps are the ops a pipeline's slice may run again: pure, without regions.
var sliceOps = map[string]bool{"tt.addptr": true, "tt.splat": true, "tt.broadcast": true, "tt.expand_dims": true,
	"tt.make_range": true, "tt.reshape": true, "tt.bitcast": true, "tt.int_to_ptr": true, "tt.ptr_to_int": true}

// sliceLoads keeps in p the loads whose pointers and masks (coordinates, for TMA) have
// a slice in body: the ops of body they depend on, all of sliceOps or arith's, and for
// each iteration argument among those, the slice of the value the body yields for it.
func (p *pipeline) sliceLoads(body *tileir.Block, loads []*pipelinedLoad) {
	in := map[*tileir.Op]bool{}
	ahead := map[int]bool{}
	yield := body.Terminator()
	var visit func(v *tileir.Value, seenOps map[*tileir.Op]bool, seenArgs map[int]bool) bool
	visit = func(v *tileir.Value, seenOps map[*tileir.Op]bool, seenArgs map[int]bool) bool {
		if v.Block() == body {
			if i := v.Index(); i > 0 && !ahead[i-1] && !seenArgs[i-1] {
				seenArgs[i-1] = true
				return visit(yield.Operands[i-1], seenOps, seenArgs)
			}
			return true
		}
		d := v.Def()
		if d == nil || d.Block() != body || in[d] || seenOps[d] {
			return true // defined outside the loop, or seen
		}
		if len(d.Regions) > 0 || !sliceOps[d.Name] && !(len(d.Name) > 6 && d.Name[:6] == "arith.") {
			return false
		}
		seenOps[d] = true
		for _, o := range d.Operands {
			if !visit(o, seenOps, seenArgs) {
				return false
			}
		}
		return true
	}
	for _, ld := range loads {
		ops := ld.op.Operands[:min(2, len(ld.op.Operands))] // pointers and mask
		if ld.tma {
			ops = ld.op.Operands[1:] // coordinates
		}
		seenOps, seenArgs := map[*tileir.Op]bool{}, map[int]bool{}
		if slices.ContainsFunc(ops, func(o *tileir.Value) bool { return !visit(o, seenOps, seenArgs) }) {
			continue
		}
		maps.Copy(in, seenOps)
		maps.Copy(ahead, seenArgs)
		p.loads = append(p.loads, ld)
	}
	for _, op := range body.Ops {
		if in[op] {
			p.slice = append(p.slice, op)
		}
	}
	for i := range body.Args[1:] {
		if ahead[i] {
			p.ahead = append(p.ahead, i)
		}
	}
}

// sliceRegs are the registers a run of the slice computes: each load's pointers and
// masks (nil without one) or a TMA load's coordinates (innermost first), and the next
// values of the ahead arguments.
type sliceRegs struct {
	ptrs, masks [][]value.Value
	coords      [][]value.Value
	next        [][]value.Value
}

// runSlice lowers p's slice again, for the iteration whose induction variable is iv and
// whose ahead arguments are args, and restores the registers of the body's values.
func (g *gen) runSlice(p *pipeline, iv value.Value, args [][]value.Value) (sliceRegs, error) {
	body := p.loop.Regions[0].Entry()
	iterArgs := body.Args[1:]
	saved := map[*tileir.Value][]value.Value{}
	save := func(v *tileir.Value) {
		saved[v] = g.vals[v]
		delete(g.vals, v) // unset, so that ptrRegsNeeded applies
	}
	save(body.Args[0])
	g.vals[body.Args[0]] = []value.Value{iv}
	for j, a := range p.ahead {
		save(iterArgs[a])
		g.vals[iterArgs[a]] = args[j]
	}
	for _, op := range p.slice {
		for _, r := range op.Results {
			save(r)
		}
	}
	defer func() {
		for v, regs := range saved {
			if regs == nil {
				delete(g.vals, v)
			} else {
				g.vals[v] = regs
			}
		}
	}()
	g.pushScope()
	defer g.popScope()
	for _, op := range p.slice {
		if err := g.op(op); err != nil {
			return sliceRegs{}, err
		}
	}
	var out sliceRegs
	for _, ld := range p.loads {
		if ld.tma {
			coords, err := g.tmaCoords(ld.op, ld.op.Operands[1:])
			if err != nil {
				return sliceRegs{}, err
			}
			out.ptrs, out.masks, out.coords = append(out.ptrs, nil), append(out.masks, nil), append(out.coords, coords)
			continue
		}
		e := g.enc[ld.op.Results[0]]
		out.ptrs = append(out.ptrs, g.in(ld.op.Operands[0], e))
		out.masks = append(out.masks, g.optional(ld.op, 1, e))
		out.coords = append(out.coords, nil)
	}
	yield := body.Terminator()
	for _, a := range p.ahead {
		out.next = append(out.next, g.in(yield.Operands[a], g.enc[iterArgs[a]]))
	}
	return out, nil
}

// issueCopies issues the copies of one iteration into stage (i32) where valid holds,
// and closes their group.
func (g *gen) issueCopies(p *pipeline, regs sliceRegs, stage, valid value.Value) {
	if p.tmaBytes > 0 {
		tma := g.isa.TMA()
		first := g.cur.NewAnd(valid, g.cur.NewICmp(enum.IPredEQ, g.tid, i32c(0)))
		bar := g.stageBarrier(p, stage)
		tma.Expect(first, bar, p.tmaBytes)
		for i, ld := range p.loads {
			if !ld.tma {
				continue
			}
			box, desc := g.stageBox(ld, stage), g.vals[ld.op.Operands[0]][0]
			if !ld.direct {
				tma.LoadAsync(first, bar, box, desc, regs.coords[i])
				continue
			}
			g.eachSlab(ld, box, regs.coords[i], func(slab value.Value, coords []value.Value) {
				tma.LoadAsync(first, bar, slab, desc, coords)
			})
		}
	}
	if !p.hasCopies() {
		return
	}
	ac := g.isa.(isa.AsyncCopier)
	base := g.cur.NewAdd(g.ringAddr(p), g.cur.NewMul(stage, i32c(int64(p.stageBytes))))
	for i, ld := range p.loads {
		if ld.tma {
			continue
		}
		tile := g.cur.NewAdd(base, i32c(int64(ld.offset)))
		mine := g.cur.NewAdd(tile, ld.thread)
		for r := 0; r < len(regs.ptrs[i]); r += ld.vec {
			var mask value.Value
			if regs.masks[i] != nil {
				mask = regs.masks[i][r]
			}
			ac.AsyncCopy(g.copyAddr(ld, tile, mine, r), regs.ptrs[i][r], ld.bytes, mask, valid)
		}
	}
	ac.AsyncCommit()
}

// setThreadParts emits, before p's loop, each cp.async load's thread part of its
// offsets in a stage (thread).
func (g *gen) setThreadParts(p *pipeline) {
	for _, ld := range p.loads {
		switch {
		case ld.tma:
		case ld.staged:
			ld.thread = g.cur.NewMul(g.tid, i32c(int64(ld.bytes)))
		default:
			ld.thread = g.placementThread(ld.place)
		}
	}
}

// copyAddr is the shared address (i32) register r's vector of cp.async load ld is
// copied to, in its tile at tile (i32), mine being tile plus the thread's part: mine
// plus a constant where the register's part sets other bits (an immediate offset of
// the copy, to ptxas).
func (g *gen) copyAddr(ld *pipelinedLoad, tile, mine value.Value, r int) value.Value {
	if ld.staged {
		return g.cur.NewAdd(mine, i32c(int64(r/ld.vec*g.threads()*ld.bytes)))
	}
	o := ld.place.regOff(r)
	if o&ld.place.threadMask == 0 {
		return g.cur.NewAdd(mine, i32c(int64(o)))
	}
	return g.cur.NewAdd(tile, g.cur.NewXor(ld.thread, i32c(int64(o))))
}

// ringAddr is the shared address (i32) of p's ring.
func (g *gen) ringAddr(p *pipeline) value.Value {
	return g.cur.NewPtrToInt(g.sharedAt(p.ring, p.buffers*p.stageBytes), types.I32)
}

// stageTile is the shared address (i32) of ld's tile in the current iteration's stage.
func (g *gen) stageTile(ld *pipelinedLoad) value.Value {
	p := ld.pipe
	off := g.cur.NewAdd(g.cur.NewMul(p.stage, i32c(int64(p.stageBytes))), i32c(int64(ld.offset)))
	return g.cur.NewAdd(g.ringAddr(p), off)
}

// stageBox is the shared pointer (i8) of TMA load ld's box in stage (i32).
func (g *gen) stageBox(ld *pipelinedLoad, stage value.Value) value.Value {
	p := ld.pipe
	off := g.cur.NewAdd(g.cur.NewMul(stage, i32c(int64(p.stageBytes))), i32c(int64(ld.offset)))
	return g.gep(types.I8, g.sharedAt(p.ring, p.buffers*p.stageBytes), off)
}

// stageBarrier is the shared pointer (i8) of stage's mbarrier.
func (g *gen) stageBarrier(p *pipeline, stage value.Value) value.Value {
	return g.gep(types.I8, g.sharedAt(p.bars, 8*p.buffers), g.cur.NewMul(stage, i32c(8)))
}

// loadStage lowers pipelined TMA load ld: its registers read from its box of this
// iteration's stage.
func (g *gen) loadStage(ld *pipelinedLoad) {
	res := ld.op.Results[0]
	rt, _ := tmaBlock(res.Type)
	g.vals[res] = g.readShared(g.stageBox(ld, ld.pipe.stage), g.linearIndex(g.layoutOf(res), nil, nil), rt)
}

// pipelinedOperand returns the pipelined load in the dot's shared layout (a cp.async
// load, or a direct TMA load, possibly transposed) that operand opIdx of dot is, or nil.
func (g *gen) pipelinedOperand(dot *tileir.Op, opIdx int) *pipelinedLoad {
	d := dot.Operands[opIdx].Def()
	if d == nil {
		return nil
	}
	if ld := g.pipelinedLoads[d]; ld != nil && (!ld.tma && !ld.staged || ld.direct) {
		return ld
	}
	return g.directSource(d)
}

// directSource returns the direct TMA load that tt.trans op transposes, or nil.
func (g *gen) directSource(op *tileir.Op) *pipelinedLoad {
	if op.Name != "tt.trans" {
		return nil
	}
	if d := op.Operands[0].Def(); d != nil {
		if ld := g.pipelinedLoads[d]; ld != nil && ld.direct {
			return ld
		}
	}
	return nil
}

// shiftIV is iv + n·step, in iv's type.
func (g *gen) shiftIV(iv, step value.Value, n int) value.Value {
	if n == 0 {
		return iv
	}
	t := iv.Type().(*types.IntType)
	return g.cur.NewAdd(iv, g.cur.NewMul(step, constant.NewInt(t, int64(n))))
}

// inLoop is the predicate iv < ub of loop.
func (g *gen) inLoop(loop *tileir.Op, iv, ub value.Value) value.Value {
	pred := enum.IPredSLT
	if loop.Attr("unsignedCmp") != nil {
		pred = enum.IPredULT
	}
	return g.cur.NewICmp(pred, iv, ub)
}

// pipelinePrologue issues the copies of p's first stages-1 iterations, before the loop,
// and returns the ahead arguments' values for its first iteration.
func (g *gen) pipelinePrologue(p *pipeline, lb, ub, step value.Value, inits [][]value.Value) ([][]value.Value, error) {
	args := make([][]value.Value, len(p.ahead))
	for j, a := range p.ahead {
		args[j] = inits[a]
	}
	g.setThreadParts(p)
	if p.tmaBytes > 0 {
		g.isa.TMA().InitStageBarriers(g.tid, g.sharedAt(p.bars, 8*p.buffers), p.buffers)
	}
	for s := range p.stages - 1 {
		iv := g.shiftIV(lb, step, s)
		regs, err := g.runSlice(p, iv, args)
		if err != nil {
			return nil, err
		}
		g.issueCopies(p, regs, i32c(int64(s)), g.inLoop(p.loop, iv, ub))
		args = regs.next
	}
	return args, nil
}

// pipelineWait starts an iteration of p: it waits for the iteration's copies and makes
// them visible to the block and to the dots, and computes the stage.
func (g *gen) pipelineWait(p *pipeline) {
	// the count is the stage; with TMA loads, iteration mod 2·stages, it gives the stage
	// and the parity of its barrier's phase, (iteration / stages) & 1
	p.stage = p.count
	if p.tmaBytes > 0 {
		second := g.cur.NewICmp(enum.IPredUGE, p.count, i32c(int64(p.stages)))
		p.stage = g.cur.NewSelect(second, g.cur.NewSub(p.count, i32c(int64(p.stages))), p.count)
		g.isa.TMA().WaitPhase(g.stageBarrier(p, p.stage), g.cur.NewZExt(second, types.I32))
	}
	if p.hasCopies() {
		g.isa.(isa.AsyncCopier).AsyncWait(p.stages - 2)
	}
	if p.shared() {
		g.isa.Barrier()
	}
}

// shared reports whether threads of p read what other threads' copies wrote: whether
// it has loads other than staged ones.
func (p *pipeline) shared() bool {
	return slices.ContainsFunc(p.loads, func(ld *pipelinedLoad) bool { return !ld.staged })
}

// pipelineEnd follows p's loop: every copy has been waited for; the stages' barriers
// are invalidated for the loop's next run.
func (g *gen) pipelineEnd(p *pipeline) {
	if p.hasCopies() {
		g.isa.(isa.AsyncCopier).AsyncWait(0)
	}
	if p.tmaBytes > 0 {
		g.isa.TMA().InvalStageBarriers(g.tid, g.sharedAt(p.bars, 8*p.buffers), p.buffers)
	}
}

// pipelineIssue ends an iteration of p (induction variable iv): once every warp is done
// with the stage it overwrites, it issues the copies of the iteration stages-1 on, and
// returns the ahead arguments' next values.
func (g *gen) pipelineIssue(p *pipeline, iv, ub, step value.Value) ([][]value.Value, error) {
	if p.shared() {
		g.barrier()
	}
	ahead := g.shiftIV(iv, step, p.stages-1)
	regs, err := g.runSlice(p, ahead, p.aheadPhis)
	if err != nil {
		return nil, err
	}
	// (stage + stages-1) mod buffers: the stage before this one, or with staged loads
	// alone (stages-1 buffers) this one
	into := p.stage
	if p.buffers == p.stages {
		last := i32c(int64(p.stages - 1))
		into = g.cur.NewSelect(g.cur.NewICmp(enum.IPredEQ, p.stage, i32c(0)), last, g.cur.NewSub(p.stage, i32c(1)))
	}
	g.issueCopies(p, regs, into, g.inLoop(p.loop, ahead, ub))
	var next value.Value = g.cur.NewAdd(p.count, i32c(1))
	next = g.cur.NewSelect(g.cur.NewICmp(enum.IPredEQ, next, i32c(int64(p.period()))), i32c(0), next)
	p.count.Incs = append(p.count.Incs, ir.NewIncoming(next, g.cur)) // g.cur is the latch
	return regs.next, nil
}
