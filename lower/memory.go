package lower

import (
	"slices"

	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/tileir"
)

func init() {
	lowerings["tt.load"] = lowerLoad
	lowerings["tt.store"] = lowerStore
	lowerings["tt.atomic_rmw"] = lowerAtomic
	lowerings["tt.atomic_cas"] = lowerAtomic
}

// access describes one global-memory op after layout: its registers grouped into vectors.
type access struct {
	vec              int        // elements per vector access
	elem             types.Type // register type of one element
	mem              types.Type // in-memory type of one element
	bits             int        // bits per element in memory
	wordBits, nWords int
}

func (a access) wordType() types.Type { return isa.IntType(a.wordBits) }

// unitRun returns the dimension d along which layout l's first registers step by one
// element, and how many registers run so (registers r·run to r·run+run-1 then hold an
// aligned block of run elements along d); d is -1 when there is no such dimension.
func unitRun(l *linLayout) (d, run int) {
	if len(l.reg) == 0 {
		return -1, 1
	}
	d = -1
	for i, c := range l.reg[0] {
		if c == 1 {
			d = i
		}
	}
	if d < 0 {
		return -1, 1
	}
	run = 1
	for k, b := range l.reg {
		unit := make([]int, len(b))
		unit[d] = 1 << k
		if coordKey(b) != coordKey(unit) {
			break
		}
		run *= 2
	}
	return d, run
}

// vecWidth returns how many consecutive registers of layout l one access may cover:
// registers that step by one element along a dimension, within the pointer's contiguity
// and alignment, the mask's constancy and 128 bits.
func (g *gen) vecWidth(ptr, mask *tileir.Value, l *linLayout, bits int) int {
	if !isTensor(ptr) {
		return 1
	}
	d, run := unitRun(l)
	if d < 0 {
		return 1
	}
	info := g.axes.get(ptr)
	eb := int64(max(bits/8, 1))
	vec := min(int64(run), info.contig[d], max(info.div[d]/eb, 1), int64(max(128/bits, 1)))
	if mask != nil && isTensor(mask) {
		vec = min(vec, g.axes.get(mask).constancy[d])
	}
	p := 1
	for int64(p*2) <= vec {
		p *= 2
	}
	return p
}

func (g *gen) newAccess(op *tileir.Op, vec int) (access, error) {
	pt := tileir.ElemType(op.Operands[0].Type).(*tileir.PtrType)
	et, err := g.llType(tileir.WithElem(op.Operands[0].Type, pt.Elem()))
	if err != nil {
		return access{}, err
	}
	return g.accessOf(et, vec), nil
}

// accessOf describes vector accesses of vec elements of register type et.
func (g *gen) accessOf(et types.Type, vec int) access {
	a := access{vec: vec, elem: et, mem: storableType(et)}
	a.bits = byteSize(a.mem) * 8
	total := vec * a.bits
	a.wordBits = min(total, max(32, a.bits))
	a.nWords = total / a.wordBits
	return a
}

// globalOf is the ISA's description of a's words with op's cache modifier, eviction
// policy and volatility.
func (a access) globalOf(op *tileir.Op) isa.Access {
	ga := isa.Access{WordBits: a.wordBits, Words: a.nWords}
	ga.Volatile = op.Attr("isVolatile") == tileir.BoolAttr(true)
	if c := op.EnumAttr("cache"); c != "none" {
		ga.Cache = c
	}
	if e := op.EnumAttr("evict"); e != "evict_normal" {
		ga.Evict = e
	}
	return ga
}

// pack turns a vector's elements into its memory words.
func (g *gen) pack(a access, elems []value.Value) []value.Value {
	per := a.wordBits / a.bits
	words := make([]value.Value, a.nWords)
	for w := range words {
		part := elems[w*per : (w+1)*per]
		if per == 1 {
			words[w] = g.BitCast(g.toStorable(part[0]), a.wordType())
			if a.mem.Equal(a.wordType()) {
				words[w] = g.toStorable(part[0])
			}
			continue
		}
		vt := g.vecType(per, a.mem)
		var v value.Value = g.undef(vt)
		for i, e := range part {
			v = g.insertElement(v, g.toStorable(e), i32c(int64(i)))
		}
		words[w] = g.BitCast(v, a.wordType())
	}
	return words
}

// unpack splits memory words into elements.
func (g *gen) unpack(a access, words []value.Value) []value.Value {
	per := a.wordBits / a.bits
	var out []value.Value
	for _, w := range words {
		if per == 1 {
			v := w
			if !a.mem.Equal(a.wordType()) {
				v = g.BitCast(w, a.mem)
			}
			out = append(out, g.fromStorable(v, a.elem))
			continue
		}
		vec := g.BitCast(w, g.vecType(per, a.mem))
		for i := range per {
			out = append(out, g.fromStorable(g.extractElement(vec, i32c(int64(i))), a.elem))
		}
	}
	return out
}

// operands returns the registers of op's optional operand i in encoding e, or nil.
func (g *gen) optional(op *tileir.Op, i int, e encoding) []value.Value {
	if i >= len(op.Operands) {
		return nil
	}
	return g.in(op.Operands[i], e)
}

func lowerLoad(g *gen, op *tileir.Op) error {
	if ld := g.pipelinedLoads[op]; ld != nil {
		if ld.staged {
			return g.loadStaged(ld)
		}
		return nil // the dot reads its pipeline's ring
	}
	if _, ok := tileir.ElemType(op.Operands[0].Type).(*tileir.PtrType).Elem().(*tileir.TensorType); ok {
		return lowerBlockLoad(g, op)
	}
	res := op.Results[0]
	e := g.enc[res]
	ptrs, masks, others := g.in(op.Operands[0], e), g.optional(op, 1, e), g.optional(op, 2, e)
	var l *linLayout
	if e != nil {
		l = g.layoutOf(res)
	}
	var mask *tileir.Value
	if len(op.Operands) > 1 {
		mask = op.Operands[1]
	}
	a, err := g.newAccess(op, 1)
	if err != nil {
		return g.errorf(op, "%v", err)
	}
	if l != nil {
		a, _ = g.newAccess(op, g.vecWidth(op.Operands[0], mask, l, a.bits))
	}
	out := make([]value.Value, len(ptrs))
	for r := 0; r < len(ptrs); r += a.vec {
		var otherWords []value.Value
		if others != nil {
			otherWords = g.pack(a, others[r:r+a.vec])
		}
		var pred value.Value
		if masks != nil {
			pred = masks[r]
		}
		words := g.isa.LoadGlobal(a.globalOf(op), ptrs[r], pred, otherWords)
		copy(out[r:], g.unpack(a, words))
	}
	g.vals[res] = out
	return nil
}

// owner returns the predicate of the threads that own the elements of layout l: lanes
// and warps that merely hold copies (a zero basis) stay quiet. For a scalar (l == nil)
// only thread 0 owns it. It returns nil when every thread owns its elements.
func (g *gen) owner(l *linLayout) value.Value {
	if l == nil {
		return g.cur.NewICmp(enum.IPredEQ, g.tid, i32c(0))
	}
	zeroMask := func(bases [][]int) int64 {
		m := int64(0)
		for b, v := range bases {
			if isZero(v) {
				m |= 1 << b
			}
		}
		return m
	}
	var pred value.Value
	for _, p := range []struct {
		id   value.Value
		mask int64
	}{{g.lane, zeroMask(l.lane)}, {g.warp, zeroMask(l.warp)}} {
		if p.mask == 0 {
			continue
		}
		c := g.cur.NewICmp(enum.IPredEQ, g.cur.NewAnd(p.id, i32c(p.mask)), i32c(0))
		if pred == nil {
			pred = c
		} else {
			pred = g.cur.NewAnd(pred, c)
		}
	}
	return pred
}

func andPred(g *gen, a, b value.Value) value.Value {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return g.cur.NewAnd(a, b)
}

func lowerStore(g *gen, op *tileir.Op) error {
	if _, ok := tileir.ElemType(op.Operands[0].Type).(*tileir.PtrType).Elem().(*tileir.TensorType); ok {
		return lowerBlockStore(g, op)
	}
	ptr := op.Operands[0]
	e := g.enc[ptr]
	ptrs, vals, masks := g.in(ptr, e), g.in(op.Operands[1], e), g.optional(op, 2, e)
	var l *linLayout
	var mask *tileir.Value
	if len(op.Operands) > 2 {
		mask = op.Operands[2]
	}
	if e != nil {
		l = g.layoutOf(ptr)
	}
	a, err := g.newAccess(op, 1)
	if err != nil {
		return g.errorf(op, "%v", err)
	}
	if l != nil {
		a, _ = g.newAccess(op, g.vecWidth(ptr, mask, l, a.bits))
	}
	own := g.owner(l)
	for r := 0; r < len(ptrs); r += a.vec {
		var m value.Value
		if masks != nil {
			m = masks[r]
		}
		g.isa.StoreGlobal(a.globalOf(op), ptrs[r], andPred(g, own, m), g.pack(a, vals[r:r+a.vec]))
	}
	return nil
}

// lowerAtomic lowers tt.atomic_rmw and tt.atomic_cas to the ISA's predicated atomics, one
// element at a time, issued only by the threads that own each element. When copies of
// the result live in other threads, the owners hand it over through shared memory.
func lowerAtomic(g *gen, op *tileir.Op) error {
	res := op.Results[0]
	e := g.enc[res]
	s := tileir.ScalarOf(res.Type)
	kind, nIn, maskIdx := op.EnumAttr("atomic_rmw_op"), 1, 2
	if op.Name == "tt.atomic_cas" {
		kind, nIn, maskIdx = "cas", 2, 3
	}
	sem, scope := op.EnumAttr("sem"), op.EnumAttr("scope")
	if sem != "" && !slices.Contains([]string{"relaxed", "acquire", "release", "acq_rel"}, sem) {
		return g.errorf(op, "atomic memory semantics %q not supported", sem)
	}
	if scope != "" && !slices.Contains([]string{"gpu", "cta", "sys"}, scope) {
		return g.errorf(op, "atomic scope %q not supported", scope)
	}
	atom := isa.Atomic{Kind: kind, Elem: s, Sem: sem, Scope: scope}
	if err := g.isa.CheckAtomic(atom); err != nil {
		return g.errorf(op, "%v", err)
	}
	ptrs := g.in(op.Operands[0], e)
	ins := make([][]value.Value, nIn)
	for i := range ins {
		ins[i] = g.in(op.Operands[1+i], e)
	}
	masks := g.optional(op, maskIdx, e)
	var l *linLayout
	if e != nil {
		l = g.layoutOf(res)
	}
	own := g.owner(l)
	a, err := g.newAccess(op, 1)
	if err != nil {
		return g.errorf(op, "%v", err)
	}
	atom.WordBits = a.wordBits
	if own != nil {
		// The owners act for every thread that holds a copy of the element: the block
		// first synchronizes, so that no thread's earlier access (in program order) of the
		// location is still to come when the atomic is performed. Without it, thread 0's
		// atomic_xchg(written, 1) in a lock-protected "if tl.load(written) == 0" can land
		// before another warp's load of written: the warps then take different branches
		// and pair up different bar.syncs (the racecheck hazards in layer_norm_bwd_dx).
		g.barrier()
	}
	out := make([]value.Value, len(ptrs))
	for r := range ptrs {
		var m value.Value
		if masks != nil {
			m = masks[r]
		}
		pred := andPred(g, own, m)
		operands := make([]value.Value, len(ins))
		for i := range ins {
			operands[i] = g.pack(a, ins[i][r:r+1])[0]
		}
		w := g.isa.Atomic(atom, ptrs[r], pred, operands)
		out[r] = g.unpack(a, []value.Value{w})[0]
	}
	if own != nil && g.used(res) {
		// Only the owners hold the result; when it is used, every copy is handed over.
		// Triton skips this exchange (atomicNeedsSharedMemory) when nothing uses it.
		out = g.shareFromOwners(out, l)
	}
	g.vals[res] = out
	return nil
}

// shareFromOwners gives every thread the value its element's owner computed, through
// shared memory (for scalars, thread 0's).
func (g *gen) shareFromOwners(vals []value.Value, l *linLayout) []value.Value {
	if l == nil {
		zero := index{at: []value.Value{i32c(0)}}
		return g.exchangeMany([][]value.Value{vals}, []index{zero}, []index{zero}, 1, g.owner(nil))[0]
	}
	idx := g.linearIndex(l, nil, nil)
	return g.exchangeMany([][]value.Value{vals}, []index{idx}, []index{idx}, numel(l.shape), g.owner(l))[0]
}
