package lower

import (
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

func init() {
	lowerings["scf.for"] = lowerFor
	lowerings["scf.if"] = lowerIf
	lowerings["scf.while"] = lowerWhile
	// Terminators are read by their parent op.
	for _, name := range []string{"scf.yield", "scf.condition", "tt.reduce.return", "tt.scan.return"} {
		lowerings[name] = func(*gen, *tileir.Op) error { return nil }
	}
}

// phis creates, in block b, one phi per register of each value in like (taking the
// registers of init, coming from block from).
func (g *gen) phis(b *ir.Block, from *ir.Block, inits [][]value.Value) [][]value.Value {
	out := make([][]value.Value, len(inits))
	for i, regs := range inits {
		out[i] = make([]value.Value, len(regs))
		for r, v := range regs {
			out[i][r] = g.phi(b, v, from)
		}
	}
	return out
}

// addIncoming adds the edge from block from to the phis.
func (g *gen) addIncoming(phis [][]value.Value, vals [][]value.Value, from *ir.Block) {
	for i := range phis {
		for r, p := range phis[i] {
			if p == nil {
				continue // a pointer register nothing reads (ptrRegsNeeded)
			}
			phi := p.(*ir.InstPhi)
			phi.Incs = append(phi.Incs, g.incoming(vals[i][r], from))
		}
	}
}

// inputs returns the registers of vs, each in the encoding of the matching like value.
func (g *gen) inputs(vs []*tileir.Value, like []*tileir.Value) [][]value.Value {
	out := make([][]value.Value, len(vs))
	for i, v := range vs {
		out[i] = g.in(v, g.enc[like[i]])
	}
	return out
}

// bind gives the values vs (region arguments or results) the registers regs. Results
// bound with like take the encoding of the matching like values (the region arguments
// their phis belong to); users convert lazily, so unused results cost nothing.
func (g *gen) bind(vs []*tileir.Value, regs [][]value.Value, like []*tileir.Value) {
	for i, v := range vs {
		g.vals[v] = regs[i]
		if like != nil && isTensor(v) {
			g.enc[v] = g.enc[like[i]]
		}
	}
}

// body lowers a nested region's block in its own conversion scope, and returns the
// registers of its terminator's operands in the encodings of like. The conversions of the
// terminator's operands belong to that scope too: they are emitted in the region's last
// block, which does not dominate the code after the region.
func (g *gen) body(b *tileir.Block, like []*tileir.Value) ([][]value.Value, error) {
	g.pushScope()
	defer g.popScope()
	if err := g.region(b); err != nil {
		return nil, err
	}
	return g.inputs(b.Terminator().Operands, like), nil
}

// lowerFor: preheader → header (phis, iv < ub) → body … latch → header; exit.
func lowerFor(g *gen, op *tileir.Op) error {
	body := op.Regions[0].Entry()
	iterArgs := body.Args[1:]
	lb, ub, step := g.vals[op.Operands[0]][0], g.vals[op.Operands[1]][0], g.vals[op.Operands[2]][0]
	inits := g.inputs(op.Operands[3:], iterArgs)
	restoreScratch := g.loopScratch(op)
	g.stageInvariants(op)
	pipe := g.pipelines[op]
	var aheadInits [][]value.Value
	if pipe != nil {
		var err error
		if aheadInits, err = g.pipelinePrologue(pipe, lb, ub, step, inits); err != nil {
			return err
		}
	}
	pre := g.cur
	header, loop, exit := g.f.NewBlock(""), g.f.NewBlock(""), g.f.NewBlock("")
	pre.NewBr(header)
	g.cur = header
	iv := header.NewPhi(ir.NewIncoming(lb, pre))
	// carry makes the header's phis of iteration argument a, entering with regs
	carry := func(a *tileir.Value, regs []value.Value) []value.Value {
		need := g.ptrRegsNeeded(a)
		phis := make([]value.Value, len(regs))
		for r, v := range regs {
			if need == nil || need[r] {
				phis[r] = g.phi(header, v, pre)
			}
		}
		return phis
	}
	strides := g.stridedArgs(op, pipe)
	offsets := make([]*ir.InstPhi, len(inits)) // a strided argument's elements' offset from its init
	carried := make([][]value.Value, len(inits))
	for i, regs := range inits {
		if strides[i] != nil {
			offsets[i] = header.NewPhi(ir.NewIncoming(constant.NewInt(types.I64, 0), pre))
			continue
		}
		carried[i] = carry(iterArgs[i], regs)
	}
	if pipe != nil {
		pipe.count = header.NewPhi(ir.NewIncoming(i32c(0), pre))
		pipe.aheadPhis = make([][]value.Value, len(pipe.ahead))
		for j, a := range pipe.ahead {
			pipe.aheadPhis[j] = carry(iterArgs[a], aheadInits[j])
		}
	}
	header.NewCondBr(g.inLoop(op, iv, ub), loop, exit)
	g.cur = loop
	g.vals[body.Args[0]] = []value.Value{iv}
	g.bind(iterArgs, g.advanced(iterArgs, inits, carried, offsets), nil)
	if pipe != nil {
		g.pipelineWait(pipe)
	}
	next, err := g.body(body, iterArgs)
	if err != nil {
		return err
	}
	var aheadNext [][]value.Value
	if pipe != nil {
		if aheadNext, err = g.pipelineIssue(pipe, iv, ub, step); err != nil {
			return err
		}
	}
	nextIV := g.cur.NewAdd(iv, step)
	for i, o := range offsets {
		if o != nil {
			o.Incs = append(o.Incs, ir.NewIncoming(g.cur.NewAdd(o, g.step(strides[i])), g.cur))
		}
	}
	latch := g.cur
	latch.NewBr(header)
	iv.Incs = append(iv.Incs, ir.NewIncoming(nextIV, latch))
	g.addIncoming(carried, next, latch)
	if pipe != nil {
		g.addIncoming(pipe.aheadPhis, aheadNext, latch)
	}
	g.cur = exit
	g.bind(op.Results, g.advanced(iterArgs, inits, carried, offsets), iterArgs)
	if pipe != nil {
		g.pipelineEnd(pipe)
	}
	g.waitAsyncDots(op)
	restoreScratch()
	return nil
}

// stride is what a strided iteration argument advances by each iteration: the scalar
// of a splat, or a splat constant.
type stride struct {
	scalar *tileir.Value
	konst  int64
}

// stridedArgs returns, for each iteration argument of scf.for op that is a tensor of
// pointers which the body yields advanced by one scalar (tt.addptr(arg, splat(s)) or by
// a splat constant: a matmul's a_ptrs += BLOCK_K * stride_ak), that stride, and nil for
// the others, in a loop without a pipeline (whose loads a pipeline issues from its own
// copies of them). Such an argument is carried as one 64-bit offset from its initial
// pointers, as LLVM's loop strength reduction leaves Triton's: the initial pointers are
// loop-invariant, so ptxas may recompute them from the narrower offsets they came from
// instead of holding every element's 64-bit pointer through the loop (96 of them in
// tutorial 03's unaligned 128x256x64 tiles, beside a 128-register accumulator).
func (g *gen) stridedArgs(op *tileir.Op, pipe *pipeline) []*stride {
	body := op.Regions[0].Entry()
	out := make([]*stride, len(body.Args)-1)
	if pipe != nil {
		return out
	}
	yield := body.Terminator()
	for i, arg := range body.Args[1:] {
		add := yield.Operands[i].Def()
		if !isTensor(arg) || !tileir.IsPtrLike(arg.Type) || add == nil || add.Name != "tt.addptr" || add.Operands[0] != arg {
			continue
		}
		switch by := add.Operands[1].Def(); {
		case by == nil:
		case by.Name == "tt.splat" && !isTensor(by.Operands[0]):
			out[i] = &stride{scalar: by.Operands[0]}
		case by.Name == "arith.constant":
			if dense, ok := by.Attr("value").(tileir.DenseAttr); ok {
				if c, ok := dense.Splat.(tileir.IntAttr); ok {
					n := 64 - c.T.Bits() // sign-extended from the offsets' width
					out[i] = &stride{konst: c.V << n >> n}
				}
			}
		}
	}
	return out
}

// step is stride s as a 64-bit integer (tt.addptr sign-extends narrower offsets).
func (g *gen) step(s *stride) value.Value {
	if s.scalar == nil {
		return constant.NewInt(types.I64, s.konst)
	}
	x := g.vals[s.scalar][0]
	if x.Type().(*types.IntType).BitSize < 64 {
		return g.sext(x, types.I64)
	}
	return x
}

// advanced returns the registers of iteration arguments args: carried's, but for a
// strided argument (offsets[i] not nil) its initial pointers advanced by its offset.
func (g *gen) advanced(args []*tileir.Value, inits, carried [][]value.Value, offsets []*ir.InstPhi) [][]value.Value {
	out := slices.Clone(carried)
	for i, o := range offsets {
		if o == nil {
			continue
		}
		need := g.ptrRegsNeeded(args[i])
		out[i] = make([]value.Value, len(inits[i]))
		for r, p := range inits[i] {
			if p != nil && (need == nil || need[r]) {
				out[i][r] = g.gep(p.Type().(*types.PointerType).ElemType, p, o)
			}
		}
	}
	return out
}

// lowerIf: then / else blocks that meet in a block with phis for the results.
func lowerIf(g *gen, op *tileir.Op) error {
	cond := g.vals[op.Operands[0]][0]
	thenB, merge := g.f.NewBlock(""), g.f.NewBlock("")
	elseB := merge
	hasElse := len(op.Regions) > 1 && len(op.Regions[1].Blocks) > 0
	if hasElse {
		elseB = g.f.NewBlock("")
	}
	g.cur.NewCondBr(cond, thenB, elseB)
	var ends []*ir.Block
	var yields [][][]value.Value
	for i, b := range []*ir.Block{thenB, elseB} {
		if i == 1 && !hasElse {
			break
		}
		g.cur = b
		y, err := g.body(op.Regions[i].Entry(), op.Results)
		if err != nil {
			return err
		}
		yields = append(yields, y)
		g.cur.NewBr(merge)
		ends = append(ends, g.cur)
	}
	g.cur = merge
	if len(op.Results) == 0 {
		return nil
	}
	phis := g.phis(merge, ends[0], yields[0])
	g.addIncoming(phis, yields[1], ends[1])
	g.bind(op.Results, phis, nil)
	return nil
}

// lowerWhile: before (phis, condition) → after … → before; exit takes the forwarded values.
func lowerWhile(g *gen, op *tileir.Op) error {
	before, after := op.Regions[0].Entry(), op.Regions[1].Entry()
	inits := g.inputs(op.Operands, before.Args)
	pre := g.cur
	head, afterB, exit := g.f.NewBlock(""), g.f.NewBlock(""), g.f.NewBlock("")
	pre.NewBr(head)
	g.cur = head
	carried := g.phis(head, pre, inits)
	g.pushScope()
	g.bind(before.Args, carried, nil)
	if err := g.region(before); err != nil {
		return err
	}
	cond := before.Terminator()
	fwd := g.inputs(cond.Operands[1:], after.Args)
	g.cur.NewCondBr(g.vals[cond.Operands[0]][0], afterB, exit)
	g.cur = afterB
	g.bind(after.Args, fwd, nil)
	next, err := g.body(after, before.Args)
	if err != nil {
		return err
	}
	g.cur.NewBr(head)
	g.addIncoming(carried, next, g.cur)
	g.popScope()
	g.cur = exit
	g.bind(op.Results, fwd, after.Args)
	return nil
}
