package lower

import (
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"
)

// sinkPure moves each instruction of f that has no effect besides its result and whose
// uses all lie in other blocks down to the block nearest them that its own block
// dominates and that is in no loop its own block is not in: before its first use there,
// or at that block's end. Lowering computes a tensor's pointers where the tile IR op
// stands, often long before the branch that uses them (layer norm backward's DW and DB
// pointers, used only after its lock loop); there they would hold registers through all
// the code between, as they do not in Triton's PTX, whose LLVM sinks them so. Blocks are
// visited in postorder (a block after those it dominates) and each block's instructions
// backwards, so that a chain of instructions sinks together.
func sinkPure(f *ir.Func) {
	if len(f.Blocks) < 2 {
		return
	}
	cfg := newFlowGraph(f)
	// While it runs, each instruction's local ID holds its number plus one (as in
	// removeDeadCode); home is the block of each (its rpo index, -1 when unreachable),
	// pos its index there (for one that has moved, that of the instruction it now
	// precedes, or len for the block's end).
	total := 0
	for _, b := range f.Blocks {
		total += len(b.Insts)
	}
	insts := make([]ir.Instruction, 0, total)
	home, pos := make([]int32, 0, total), make([]int32, 0, total)
	start := make(map[*ir.Block]int32, len(f.Blocks)) // the number of each block's first instruction
	for _, b := range f.Blocks {
		start[b] = int32(len(insts))
		bi := int32(-1)
		if k, ok := cfg.index[b]; ok {
			bi = int32(k)
		}
		for j, inst := range b.Insts {
			if id, _ := idField(inst); id != nil {
				*id = int64(len(insts) + 1)
			}
			insts = append(insts, inst)
			home = append(home, bi)
			pos = append(pos, int32(j))
		}
	}
	defer func() {
		for _, inst := range insts {
			if id, _ := idField(inst); id != nil {
				*id = 0
			}
		}
	}()
	number := func(v any) int32 {
		if id, _ := idField(v); id != nil && *id > 0 {
			return int32(*id - 1)
		}
		return -1
	}
	// The uses of each instruction, users[first[i]:first[i+1]]: the number of an
	// instruction that may move, or -2-k for a use fixed in block rpo[k] (a phi's
	// incoming value, a terminator's operand), -1 for one in an unreachable block;
	// collected as pairs (instruction, use), then sorted by instruction.
	pairs := make([]int32, 0, 4*total) // most instructions have one or two operands
	n := int32(0)
	for _, b := range f.Blocks {
		fixed := int32(-1)
		if k, ok := cfg.index[b]; ok {
			fixed = -2 - int32(k)
		}
		for _, inst := range b.Insts {
			user := n
			n++
			if fixed == -1 {
				user = -1
			}
			if phi, ok := inst.(*ir.InstPhi); ok {
				for _, inc := range phi.Incs {
					if x := number(inc.X); x >= 0 {
						at := int32(-1)
						if k, ok := cfg.index[inc.Pred.(*ir.Block)]; ok && fixed != -1 {
							at = -2 - int32(k)
						}
						pairs = append(pairs, x, at)
					}
				}
			} else if u, ok := inst.(value.User); ok {
				visitOperands(u, func(op value.Value) {
					if x := number(op); x >= 0 {
						pairs = append(pairs, x, user)
					}
				})
			}
		}
		if u, ok := b.Term.(value.User); ok {
			visitOperands(u, func(op value.Value) {
				if x := number(op); x >= 0 {
					pairs = append(pairs, x, fixed)
				}
			})
		}
	}
	first := make([]int32, len(insts)+1)
	for k := 0; k < len(pairs); k += 2 {
		first[pairs[k]+1]++
	}
	for i := range insts {
		first[i+1] += first[i]
	}
	users := make([]int32, first[len(insts)])
	fill := slices.Clone(first[:len(insts)])
	for k := 0; k < len(pairs); k += 2 {
		x := pairs[k]
		users[fill[x]] = pairs[k+1]
		fill[x]++
	}
	before := map[int32][]ir.Instruction{} // by number: what moved before it
	tails := make([][]ir.Instruction, len(cfg.rpo))
	moved := false
	for k := len(cfg.rpo) - 1; k >= 0; k-- {
		b := cfg.rpo[k]
		for j := len(b.Insts) - 1; j >= 0; j-- {
			i := start[b] + int32(j)
			if !sinkable(insts[i]) || first[i] == first[i+1] {
				continue
			}
			us := users[first[i]:first[i+1]]
			var to *ir.Block
			for _, u := range us {
				ub := -2 - u
				if u >= 0 {
					ub = home[u]
				}
				if ub < 0 || int(ub) == k {
					to = nil
					break
				}
				if to == nil {
					to = cfg.rpo[ub]
				} else {
					to = cfg.commonDominator(to, cfg.rpo[ub])
				}
			}
			for to != nil && to != b && !cfg.loopsWithin(to, b) {
				to = cfg.idom[to]
			}
			if to == nil || to == b {
				continue
			}
			t := int32(cfg.index[to])
			at := int32(len(to.Insts))
			for _, u := range us {
				if u >= 0 && home[u] == t && pos[u] < at {
					at = pos[u]
				}
			}
			home[i], pos[i], moved = t, at, true
			if int(at) == len(to.Insts) {
				tails[t] = append(tails[t], insts[i])
			} else {
				anchor := start[to] + at
				before[anchor] = append(before[anchor], insts[i])
			}
		}
	}
	if !moved {
		return
	}
	// Rebuild the blocks: what moved before an instruction (or to the end) came in
	// reverse order, the later first.
	for k, b := range cfg.rpo {
		var out []ir.Instruction
		for j, inst := range b.Insts {
			i := start[b] + int32(j)
			ms := before[i]
			for m := len(ms) - 1; m >= 0; m-- {
				out = append(out, ms[m])
			}
			if home[i] == int32(k) {
				out = append(out, inst)
			}
		}
		for m := len(tails[k]) - 1; m >= 0; m-- {
			out = append(out, tails[k][m])
		}
		b.Insts = out
	}
}

// sinkable reports whether inst has no effect besides its result and may be computed
// anywhere its operands are available. Loads, calls and atomics stay; so do phis, and
// the aggregate ops that carry inline asm results (the PTX emitter ties wgmma's
// accumulators through them).
func sinkable(inst ir.Instruction) bool {
	if !removable(inst) {
		return false
	}
	switch inst.(type) {
	case *ir.InstPhi, *ir.InstLoad, *ir.InstAlloca, *ir.InstExtractValue, *ir.InstInsertValue:
		return false
	}
	return true
}

// flowGraph is the control flow of a function: its blocks in reverse postorder, their
// immediate dominators, and the loops (headers of back edges) around each block.
type flowGraph struct {
	rpo   []*ir.Block
	index map[*ir.Block]int // position in rpo
	idom  map[*ir.Block]*ir.Block
	loops map[*ir.Block][]*ir.Block // the headers of the loops that contain each block
}

func newFlowGraph(f *ir.Func) *flowGraph {
	g := &flowGraph{index: map[*ir.Block]int{}, idom: map[*ir.Block]*ir.Block{}, loops: map[*ir.Block][]*ir.Block{}}
	seen := map[*ir.Block]bool{}
	var post []*ir.Block
	var visit func(b *ir.Block)
	visit = func(b *ir.Block) {
		seen[b] = true
		for _, s := range b.Term.Succs() {
			if !seen[s] {
				visit(s)
			}
		}
		post = append(post, b)
	}
	visit(f.Blocks[0])
	for i := len(post) - 1; i >= 0; i-- {
		g.index[post[i]] = len(g.rpo)
		g.rpo = append(g.rpo, post[i])
	}
	preds := map[*ir.Block][]*ir.Block{}
	for _, b := range g.rpo {
		for _, s := range b.Term.Succs() {
			preds[s] = append(preds[s], b)
		}
	}
	// Cooper, Harvey and Kennedy's iteration over reverse postorder
	entry := g.rpo[0]
	g.idom[entry] = entry
	for changed := true; changed; {
		changed = false
		for _, b := range g.rpo[1:] {
			var d *ir.Block
			for _, p := range preds[b] {
				if g.idom[p] == nil {
					continue
				}
				if d == nil {
					d = p
				} else {
					d = g.commonDominator(d, p)
				}
			}
			if g.idom[b] != d {
				g.idom[b], changed = d, true
			}
		}
	}
	g.idom[entry] = nil
	// natural loops: for each back edge x -> h (h dominates x), h and the blocks that
	// reach x without passing through h
	for _, x := range g.rpo {
		for _, h := range x.Term.Succs() {
			if !g.dominates(h, x) {
				continue
			}
			in := map[*ir.Block]bool{h: true}
			work := []*ir.Block{x}
			for len(work) > 0 {
				b := work[len(work)-1]
				work = work[:len(work)-1]
				if in[b] {
					continue
				}
				in[b] = true
				work = append(work, preds[b]...)
			}
			for b := range in {
				if !slices.Contains(g.loops[b], h) {
					g.loops[b] = append(g.loops[b], h)
				}
			}
		}
	}
	return g
}

// commonDominator is the nearest block that dominates both a and b.
func (g *flowGraph) commonDominator(a, b *ir.Block) *ir.Block {
	for a != b {
		for g.index[a] > g.index[b] {
			a = g.idom[a]
		}
		for g.index[b] > g.index[a] {
			b = g.idom[b]
		}
	}
	return a
}

// dominates reports whether a dominates b.
func (g *flowGraph) dominates(a, b *ir.Block) bool {
	for b != nil && g.index[b] >= g.index[a] {
		if b == a {
			return true
		}
		b = g.idom[b]
	}
	return false
}

// loopsWithin reports whether every loop around block a is also around block b.
func (g *flowGraph) loopsWithin(a, b *ir.Block) bool {
	for _, h := range g.loops[a] {
		if !slices.Contains(g.loops[b], h) {
			return false
		}
	}
	return true
}
