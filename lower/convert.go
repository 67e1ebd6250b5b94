package lower

import (
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

// bitsTo returns the part of coordinate d that the bits of x select through bases:
// consecutive bits that map to consecutive powers of two become one shift and mask.
func (g *gen) bitsTo(x value.Value, bases [][]int, d int) value.Value {
	var acc value.Value
	mask := 0
	for b := 0; b < len(bases); {
		v := bases[b][d]
		if v == 0 {
			b++
			continue
		}
		n := 1
		for b+n < len(bases) && bases[b+n][d] == v<<n && v&(v-1) == 0 {
			n++
		}
		var part value.Value = x
		if b > 0 {
			part = g.cur.NewLShr(part, i32c(int64(b)))
		}
		part = g.cur.NewAnd(part, i32c(int64(1<<n-1)))
		if v&(v-1) == 0 {
			if v > 1 {
				part = g.cur.NewShl(part, i32c(int64(log2(v))))
			}
		} else {
			part = g.cur.NewMul(part, i32c(int64(v)))
		}
		acc = g.combineBits(acc, part, mask, v<<n-v|v)
		mask |= v<<n - v | v
		b += n
	}
	if acc == nil {
		return i32c(0)
	}
	return acc
}

// combineBits ORs two coordinate parts when their bits are disjoint, XORs them otherwise.
func (g *gen) combineBits(acc, part value.Value, accMask, partMask int) value.Value {
	switch {
	case acc == nil:
		return part
	case accMask&partMask == 0:
		return g.cur.NewOr(acc, part)
	}
	return g.cur.NewXor(acc, part)
}

// threadCoords returns, per dimension, the coordinate part set by the lane and warp ids.
func (g *gen) threadCoords(l *linLayout) []value.Value {
	key := memoKey{kind: memoThreadCoords, id: g.layouts.layoutID(l)}
	if v, ok := g.memo(key); ok {
		return v
	}
	out := make([]value.Value, len(l.shape))
	for d := range out {
		lp, wp := g.bitsTo(g.lane, l.lane, d), g.bitsTo(g.warp, l.warp, d)
		lm, wm := 0, 0
		for _, v := range l.lane {
			lm |= v[d]
		}
		for _, v := range l.warp {
			wm |= v[d]
		}
		switch {
		case wm == 0:
			out[d] = lp
		case lm == 0:
			out[d] = wp
		default:
			out[d] = g.combineBits(lp, wp, lm, wm)
		}
	}
	g.remember(key, out)
	return out
}

// coordOf returns coordinate d of register r: the thread part combined with the
// register's own bits.
func (g *gen) coordOf(l *linLayout, thread []value.Value, r, d int) value.Value {
	rc := l.regCoord(r)[d]
	if rc == 0 {
		return thread[d]
	}
	if l.threadMask()[d]&rc == 0 {
		return g.cur.NewOr(thread[d], i32c(int64(rc)))
	}
	return g.cur.NewXor(thread[d], i32c(int64(rc)))
}

// index gives, per register, the row-major index of its element. When the thread's part
// and the register's part of every coordinate have disjoint bits, it is base (the thread's
// part) plus the constant offs[r], and align is a power of two dividing base, so that runs
// of consecutive indices can move as vectors; otherwise offs is nil and at holds each
// register's index.
type index struct {
	at    []value.Value
	base  value.Value
	offs  []int
	align int
}

// shifted returns x with k added to every index.
func (g *gen) shifted(x index, k int) index {
	if k == 0 {
		return x
	}
	if x.offs != nil {
		offs := make([]int, len(x.offs))
		for r, o := range x.offs {
			offs[r] = o + k
		}
		x.offs = offs
		return x
	}
	at := make([]value.Value, len(x.at))
	for r, a := range x.at {
		at[r] = g.cur.NewAdd(a, i32c(int64(k)))
	}
	x.at = at
	return x
}

func (x index) len() int {
	if x.offs != nil {
		return len(x.offs)
	}
	return len(x.at)
}

// values returns each register's index as a value.
func (g *gen) indexValues(x index) []value.Value {
	if x.offs == nil {
		return x.at
	}
	out := make([]value.Value, len(x.offs))
	for r, k := range x.offs {
		out[r] = x.base
		if k != 0 {
			out[r] = g.cur.NewAdd(x.base, i32c(int64(k)))
		}
	}
	return out
}

// linearIndex returns the row-major index of each register's element in a tensor of shape
// dims (by default l.shape), with coordinate dimension perm[i] placed at position i.
func (g *gen) linearIndex(l *linLayout, perm []int, dims []int) index {
	rank := len(l.shape)
	if perm == nil {
		perm = make([]int, rank)
		for i := range perm {
			perm[i] = i
		}
	}
	if dims == nil {
		dims = make([]int, rank)
		for i, p := range perm {
			dims[i] = l.shape[p]
		}
	}
	strides := make([]int, rank) // stride of coordinate dimension perm[i]
	s := 1
	for i := rank - 1; i >= 0; i-- {
		strides[perm[i]] = s
		s *= dims[i]
	}
	return g.stridedIndex(l, strides)
}

// stridedIndex returns the index of each register's element in a buffer where coordinate
// dimension d has stride strides[d].
func (g *gen) stridedIndex(l *linLayout, strides []int) index {
	thread := g.threadCoords(l)
	lin := func(coord func(d int) value.Value) value.Value {
		var acc value.Value = i32c(0)
		for d := range l.shape {
			if l.shape[d] == 1 {
				continue
			}
			c := coord(d)
			if strides[d] != 1 {
				c = g.cur.NewMul(c, i32c(int64(strides[d])))
			}
			if k, ok := acc.(*constant.Int); ok && k.X.Sign() == 0 {
				acc = c
			} else {
				acc = g.cur.NewAdd(acc, c)
			}
		}
		return acc
	}
	offs, align, ok := regOffsets(l, strides)
	if !ok {
		out := index{at: make([]value.Value, l.numRegs())}
		for r := range out.at {
			out.at[r] = lin(func(d int) value.Value { return g.coordOf(l, thread, r, d) })
		}
		return out
	}
	return index{base: lin(func(d int) value.Value { return thread[d] }), offs: offs, align: align}
}

// regOffsets returns each register's constant offset from its thread's index at the given
// strides, and a power of two dividing every thread's index; ok is false when the
// thread's and the register's parts of a coordinate share bits (no constant offsets).
func regOffsets(l *linLayout, strides []int) (offs []int, align int, ok bool) {
	mask := l.threadMask()
	for r := range l.numRegs() {
		for d, c := range l.regCoord(r) {
			if mask[d]&c != 0 {
				return nil, 0, false
			}
		}
	}
	offs, align = make([]int, l.numRegs()), 1<<20
	for d := range l.shape {
		if m := mask[d]; m != 0 && l.shape[d] > 1 {
			step := (m & -m) * strides[d] // the least a thread's index moves by along d
			align = min(align, step&-step)
		}
	}
	for r := range offs {
		for d, c := range l.regCoord(r) {
			offs[r] += c * strides[d]
		}
	}
	return offs, align, true
}

// exchangeStrides returns the strides and the element count of the buffer through which
// convert moves a tensor of elements of size bytes from layout src to dst: row-major,
// its rows (the innermost dimension) padded by 0, 4, 8 or 16 bytes, whichever makes the
// fewest bank conflicts for the writes and the reads together (Triton pads or swizzles
// its conversion buffers to the same end). An accumulator of mma lanes, eight rows to a
// warp, written into rows whose length is a multiple of 128 bytes, hits one bank eight
// times a store without padding. The choice is made once per pair of (interned) layouts,
// size and scratch start; the strides are shared, and callers must not modify them.
func (g *gen) exchangeStrides(src, dst *linLayout, size int) (strides []int, numel int) {
	key := exchangeKey{src, dst, size, g.scratchStart}
	if b, ok := g.exchanges[key]; ok {
		return b.strides, b.numel
	}
	rank := len(src.shape)
	best := -1
	for _, pad := range []int{0, 4, 8, 16} {
		if pad%size != 0 || (rank < 2 && pad > 0) {
			continue
		}
		st := make([]int, rank)
		n := 1
		for d := rank - 1; d >= 0; d-- {
			st[d] = n
			n *= src.shape[d]
			if d == rank-1 {
				n += pad / size
			}
		}
		if pad > 0 && g.scratchStart+n*size > g.t.SharedPerBlock {
			break
		}
		cost := bankCost(src, st, size) + bankCost(dst, st, size)
		if best < 0 || cost < best {
			best, strides, numel = cost, st, n
		}
	}
	if g.exchanges == nil {
		g.exchanges = map[exchangeKey]exchangeBuffer{}
	}
	g.exchanges[key] = exchangeBuffer{strides, numel}
	return strides, numel
}

// exchangeKey is what exchangeStrides' choice depends on, and exchangeBuffer the choice.
type exchangeKey struct {
	src, dst           *linLayout
	size, scratchStart int
}

type exchangeBuffer struct {
	strides []int
	numel   int
}

// bankCost estimates the shared-memory wavefronts the first warp of layout l takes to
// write (or read) its elements of size bytes at the given strides, as vectors the way
// writeScratch and readShared move them: per access, the most distinct 4-byte words one
// of the 32 banks serves.
func bankCost(l *linLayout, strides []int, size int) int {
	offs, align, ok := regOffsets(l, strides)
	if !ok {
		return 0 // one element at a time at computed indices: no layout to choose for
	}
	lanes := make([]int, 1<<len(l.lane))
	for i := range lanes {
		for d, c := range xorBases(l.lane, i, len(l.shape)) {
			lanes[i] += c * strides[d]
		}
	}
	x := index{offs: offs, align: align}
	cost := 0
	var bankWords [32][]int // the distinct words each bank serves in one access
	for r := 0; r < len(offs); {
		v := x.run(r, size)
		for b := range bankWords {
			bankWords[b] = bankWords[b][:0]
		}
		worst := 0
		for _, at := range lanes {
			first := (at + offs[r]) * size
			for w := first / 4; w <= (first+v*size-1)/4; w++ {
				if b := w % 32; !slices.Contains(bankWords[b], w) {
					bankWords[b] = append(bankWords[b], w)
					worst = max(worst, len(bankWords[b]))
				}
			}
		}
		cost += worst
		r += v
	}
	return cost
}

// run returns how many registers from r on one vector access may cover: consecutive
// indices, aligned to the vector, at most 16 bytes of elements of the given size.
func (x index) run(r, bytes int) int {
	if x.offs == nil {
		return 1
	}
	v := max(16/bytes, 1)
	for ; v > 1; v /= 2 {
		ok := r%v == 0 && r+v <= len(x.offs) && x.offs[r]%v == 0 && x.align%v == 0
		for j := 1; ok && j < v; j++ {
			ok = x.offs[r+j] == x.offs[r]+j
		}
		if ok {
			break
		}
	}
	return v
}

// smemPtr returns a pointer of type t* in shared memory at byte offset base + idx*size.
func (g *gen) smemPtr(t types.Type, base int, idx value.Value, need int) value.Value {
	tp := g.BitCast(g.sharedAt(g.scratchStart+base, need-base), g.ptrType(t, 3))
	return g.gep(t, tp, idx)
}

// storable converts a register value to the type it has in shared memory (pointers as i64,
// i1 as i8), and back.
func (g *gen) toStorable(v value.Value) value.Value {
	switch t := v.Type().(type) {
	case *types.PointerType:
		return g.cur.NewPtrToInt(v, types.I64)
	case *types.IntType:
		if t.BitSize == 1 {
			return g.cur.NewZExt(v, types.I8)
		}
	}
	return v
}

func (g *gen) fromStorable(v value.Value, t types.Type) value.Value {
	switch t := t.(type) {
	case *types.PointerType:
		return g.cur.NewIntToPtr(v, t)
	case *types.IntType:
		if t.BitSize == 1 {
			return g.cur.NewICmp(enum.IPredNE, v, constant.NewInt(types.I8, 0))
		}
	}
	return v
}

func storableType(t types.Type) types.Type {
	switch t := t.(type) {
	case *types.PointerType:
		return types.I64
	case *types.IntType:
		if t.BitSize == 1 {
			return types.I8
		}
	}
	return t
}

func byteSize(t types.Type) int {
	switch t := t.(type) {
	case *types.IntType:
		return int(max(t.BitSize/8, 1))
	case *types.FloatType:
		switch t.Kind {
		case types.FloatKindHalf:
			return 2
		case types.FloatKindFloat:
			return 4
		}
	}
	return 8
}

// exchange moves a tensor between two layouts through shared memory: every thread writes
// its elements at their index under src, the block synchronizes, and every thread reads
// the elements it needs under dst. It begins with a barrier (smemBarrier), so that shared
// memory may be reused by every exchange: no thread writes while another may still read
// an earlier exchange's bytes. Like every barrier, it needs all warps on the same path.
func (g *gen) exchange(vals []value.Value, src, dst index, numel int) []value.Value {
	return g.exchangeMany([][]value.Value{vals}, []index{src}, []index{dst}, numel, nil)[0]
}

// exchangeMany is exchange for several tensors of one type written into one shared buffer
// of numel elements (vals[i] at writes[i]) and several read back (at reads[j]). When own
// is set, only the threads where it holds write. Runs of consecutive indices move as
// vectors of up to 16 bytes.
func (g *gen) exchangeMany(vals [][]value.Value, writes, reads []index, numel int, own value.Value) [][]value.Value {
	t := vals[0][0].Type()
	st := storableType(t)
	size := byteSize(st)
	need := numel * size
	g.smemBarrier()
	g.writeScratch(vals, writes, st, need, own)
	g.barrier()
	out := make([][]value.Value, len(reads))
	for j, x := range reads {
		out[j] = g.readScratch(x, t, need)
	}
	return out
}

// readScratch loads the elements at x from the shared scratch buffer (need bytes) as
// values of type t, as vectors of up to 16 bytes over runs of consecutive indices.
func (g *gen) readScratch(x index, t types.Type, need int) []value.Value {
	return g.readShared(g.sharedBase(need), x, t)
}

// readShared is readScratch from the shared memory at the i8 pointer at.
func (g *gen) readShared(at value.Value, x index, t types.Type) []value.Value {
	st := storableType(t)
	size := byteSize(st)
	ptr := g.sharedPointers(at, x, st)
	out := make([]value.Value, x.len())
	for r := 0; r < x.len(); {
		v := x.run(r, size)
		if v == 1 {
			ld := g.load(st, ptr(r, 1))
			ld.Align = ir.Align(size)
			out[r] = g.fromStorable(ld, t)
			r++
			continue
		}
		vt := g.vecType(v, st)
		ld := g.load(vt, ptr(r, v))
		ld.Align = ir.Align(v * size)
		for k := range v {
			out[r+k] = g.fromStorable(g.extractElement(ld, i32c(int64(k))), t)
		}
		r += v
	}
	return out
}

// scratchPointers returns a function giving the pointer (element type st, in a scratch
// buffer of need bytes) to register r's element under x and, when v > 1, to the vector of
// v elements starting there. Indices off one base share its pointer.
func (g *gen) scratchPointers(x index, st types.Type, need int) func(r, v int) value.Value {
	return g.sharedPointers(g.sharedBase(need), x, st)
}

// sharedPointers is scratchPointers into the shared memory at the i8 pointer at.
func (g *gen) sharedPointers(at value.Value, x index, st types.Type) func(r, v int) value.Value {
	tp := g.BitCast(at, g.ptrType(st, 3))
	var base value.Value
	if x.offs != nil {
		base = g.gep(st, tp, x.base)
	}
	return func(r, v int) value.Value {
		var p value.Value
		switch {
		case x.offs == nil:
			p = g.gep(st, tp, x.at[r])
		case x.offs[r] == 0:
			p = base
		default:
			p = g.gep(st, base, i32c(int64(x.offs[r])))
		}
		if v == 1 {
			return p
		}
		return g.BitCast(p, g.ptrType(g.vecType(v, st), 3))
	}
}

// writeScratch stores vals[i] at writes[i] in the shared scratch buffer (element type st,
// need bytes), as vectors of up to 16 bytes over runs of consecutive indices; when own is
// set, only the threads where it holds write, one element at a time.
func (g *gen) writeScratch(vals [][]value.Value, writes []index, st types.Type, need int, own value.Value) {
	size := byteSize(st)
	for i, vs := range vals {
		ptr := g.scratchPointers(writes[i], st, need)
		for r := 0; r < len(vs); {
			v := writes[i].run(r, size)
			if own != nil {
				v = 1
			}
			p := ptr(r, v)
			var x value.Value = g.toStorable(vs[r])
			if v > 1 {
				x = g.undef(g.vecType(v, st))
				for j := range v {
					x = g.insertElement(x, g.toStorable(vs[r+j]), i32c(int64(j)))
				}
			}
			if own != nil {
				g.isa.StoreShared(p, x, own)
			} else {
				g.Store(x, p).Align = ir.Align(v * size)
			}
			r += v
		}
	}
}

// convert moves values from layout src to layout dst of the same shape.
func (g *gen) convert(vals []value.Value, src, dst *linLayout) []value.Value {
	if src.equal(dst) {
		return vals
	}
	if src.sameThreads(dst) {
		idx := src.regIndex()
		out := make([]value.Value, dst.numRegs())
		for r := range out {
			i, _ := idx.of(dst.regCoord(r))
			out[r] = vals[i]
		}
		return out
	}
	strides, numel := g.exchangeStrides(src, dst, byteSize(storableType(vals[0].Type())))
	return g.exchange(vals, g.stridedIndex(src, strides), g.stridedIndex(dst, strides), numel)
}

// in returns the registers of v in encoding e, converting (and remembering the
// conversion in the current scope) when v lives in another one.
func (g *gen) in(v *tileir.Value, e encoding) []value.Value {
	home := g.enc[v]
	if !isTensor(v) || e == nil || home == nil || g.layouts.encID(home) == g.layouts.encID(e) {
		return g.vals[v]
	}
	key := memoKey{kind: memoConvert, v: v, id: g.layouts.encID(e)}
	if out, ok := g.memo(key); ok {
		return out
	}
	var buf [maxCachedRank]int
	shape := appendShape(buf[:0], v.Type)
	out, ok := g.remat(v, e)
	if !ok {
		out = g.convert(g.vals[v], g.layouts.layout(home, shape), g.layouts.layout(e, shape))
	}
	g.remember(key, out)
	return out
}

// remat recomputes v in encoding e when its producer is cheap (index arithmetic, splats,
// ranges, broadcasts, elementwise math), as Triton's layout propagation rematerializes
// such values instead of converting them through shared memory.
func (g *gen) remat(v *tileir.Value, e encoding) ([]value.Value, bool) {
	if !cheap(v, 16) {
		return nil, false
	}
	op := v.Def()
	savedEnc, savedVals := g.enc[v], g.vals[v]
	defer func() { g.enc[v], g.vals[v] = savedEnc, savedVals }()
	g.enc[v] = e
	if err := lowerings[op.Name](g, op); err != nil {
		return nil, false
	}
	return g.vals[v], true
}

// layoutOf returns the linear layout of tensor value v in its own encoding.
func (g *gen) layoutOf(v *tileir.Value) *linLayout {
	var buf [maxCachedRank]int
	return g.layouts.layout(g.enc[v], appendShape(buf[:0], v.Type))
}

// cheap reports whether v is computed from scalars by at most depth levels of splats,
// ranges, broadcasts and pure elementwise ops, so that recomputing it costs less than
// moving it through shared memory.
func cheap(v *tileir.Value, depth int) bool {
	op := v.Def()
	if !isTensor(v) {
		return true
	}
	if op == nil || depth == 0 || len(op.Results) != 1 || len(op.Regions) > 0 || !tileir.IsPure(op) {
		return false
	}
	switch op.Name {
	case "tt.splat", "arith.constant", "tt.make_range":
		return true
	case "tt.broadcast", "tt.expand_dims":
	default:
		if !op.Has(tileir.Elementwise) {
			return false
		}
	}
	for _, o := range op.Operands {
		if !cheap(o, depth-1) {
			return false
		}
	}
	return true
}
