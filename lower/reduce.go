package lower

import (
	"slices"

	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

func init() {
	lowerings["tt.reduce"] = lowerReduce
}

// combine lowers the reduce's combiner region on scalars: lhs and rhs hold one value per
// operand.
func (g *gen) combine(op *tileir.Op, lhs, rhs []value.Value) ([]value.Value, error) {
	return g.scalarRegion(op.Regions[0].Entry(), append(slices.Clone(lhs), rhs...))
}

// scalarRegion lowers a region of scalar code (a combiner, a map_elementwise body) with
// its arguments bound to args, and returns its terminator's operands.
func (g *gen) scalarRegion(blk *tileir.Block, args []value.Value) ([]value.Value, error) {
	for i, a := range args {
		g.vals[blk.Args[i]] = []value.Value{a}
	}
	g.pushScope()
	defer g.popScope()
	if err := g.region(blk); err != nil {
		return nil, err
	}
	ops := blk.Terminator().Operands
	out := make([]value.Value, len(ops))
	for i, v := range ops {
		out[i] = g.vals[v][0]
	}
	return out, nil
}

// shuffleXor exchanges v with the lane whose id differs by mask (the ISA's butterfly
// shuffle), in 32-bit pieces.
func (g *gen) shuffleXor(v value.Value, mask int) value.Value {
	t := v.Type()
	bits := byteSize(storableType(t)) * 8
	shfl := func(x value.Value) value.Value { return g.isa.ShuffleXor(x, mask) }
	w := g.toStorable(v)
	if _, ok := w.Type().(*types.FloatType); ok {
		w = g.BitCast(w, types.NewInt(uint64(bits)))
	}
	var r value.Value
	switch {
	case bits == 64:
		lo := shfl(g.cur.NewTrunc(w, types.I32))
		hi := shfl(g.cur.NewTrunc(g.cur.NewLShr(w, constantI64(32)), types.I32))
		r = g.cur.NewOr(g.cur.NewZExt(lo, types.I64), g.cur.NewShl(g.cur.NewZExt(hi, types.I64), constantI64(32)))
	case bits < 32:
		r = g.cur.NewTrunc(shfl(g.cur.NewZExt(w, types.I32)), types.NewInt(uint64(bits)))
	default:
		r = shfl(w)
	}
	st := storableType(t)
	if !r.Type().Equal(st) {
		r = g.BitCast(r, st)
	}
	return g.fromStorable(r, t)
}

// lowerReduce reduces along an axis in three steps, as Triton does: within each thread,
// across the lanes of a warp with butterfly shuffles, and across warps through shared
// memory.
func lowerReduce(g *gen, op *tileir.Op) error {
	in0 := op.Operands[0]
	e := g.enc[in0]
	axis := int(op.IntAttr("axis"))
	l := g.layoutOf(in0)
	n := len(op.Operands)
	ins := make([][]value.Value, n)
	for i, v := range op.Operands {
		ins[i] = g.in(v, e)
	}
	// 1. registers with equal coordinates off the axis
	keyOf := func(c []int) string {
		c = append([]int(nil), c...)
		c[axis] = 0
		return coordKey(c)
	}
	groupOf := map[string]int{}
	var accs [][]value.Value // per group, per operand
	for r := range l.numRegs() {
		k := keyOf(l.regCoord(r))
		cur := make([]value.Value, n)
		for i := range cur {
			cur[i] = ins[i][r]
		}
		gi, ok := groupOf[k]
		if !ok {
			groupOf[k] = len(accs)
			accs = append(accs, cur)
			continue
		}
		next, err := g.combine(op, accs[gi], cur)
		if err != nil {
			return err
		}
		accs[gi] = next
	}
	// 2. lanes along the axis
	for b, v := range l.lane {
		if v[axis] == 0 {
			continue
		}
		for gi := range accs {
			other := make([]value.Value, n)
			for i, x := range accs[gi] {
				other[i] = g.shuffleXor(x, 1<<b)
			}
			next, err := g.combine(op, accs[gi], other)
			if err != nil {
				return err
			}
			accs[gi] = next
		}
	}
	// 3. warps along the axis
	var warpBits []int
	for b, v := range l.warp {
		if v[axis] != 0 {
			warpBits = append(warpBits, b)
		}
	}
	if len(warpBits) > 0 {
		var err error
		if accs, err = g.reduceWarps(op, l, axis, warpBits, accs); err != nil {
			return err
		}
	}
	// results: one register per group, in the result's layout order
	for i, res := range op.Results {
		if !isTensor(res) {
			g.vals[res] = []value.Value{accs[0][i]}
			continue
		}
		// the groups are the registers of the operand's layout sliced along the axis
		sl := (&sliceEnc{dim: axis, parent: e}).linear(shapeInts(res.Type))
		out := make([]value.Value, sl.numRegs())
		for r := range out {
			c := sl.regCoord(r)
			full := append(append(append([]int(nil), c[:axis]...), 0), c[axis:]...)
			gi, ok := groupOf[coordKey(full)]
			if !ok {
				return g.errorf(op, "no partial result for %v", c)
			}
			out[r] = accs[gi][i]
		}
		g.vals[res] = g.convert(out, sl, g.layoutOf(res))
	}
	return nil
}

// reduceWarps combines the per-warp partial results: each warp writes its partials to
// shared memory at [warp index along the axis][element], then every thread combines all
// the partials of its elements in warp order.
func (g *gen) reduceWarps(op *tileir.Op, l *linLayout, axis int, warpBits []int, accs [][]value.Value) ([][]value.Value, error) {
	nw := 1 << len(warpBits)
	// the index of the warp along the axis
	var widx value.Value = i32c(0)
	for i, b := range warpBits {
		bit := g.cur.NewAnd(g.cur.NewLShr(g.warp, i32c(int64(b))), i32c(1))
		var part value.Value = bit
		if i > 0 {
			part = g.cur.NewShl(bit, i32c(int64(i)))
		}
		if i == 0 {
			widx = part
		} else {
			widx = g.cur.NewOr(widx, part)
		}
	}
	// element index: the linear index of the coordinate with the axis dropped
	rl := &linLayout{shape: append([]int(nil), l.shape...), reg: l.reg, lane: l.lane, warp: l.warp}
	rl.shape[axis] = 1
	for _, bs := range []*[][]int{&rl.reg, &rl.lane, &rl.warp} {
		nb := make([][]int, len(*bs))
		for i, v := range *bs {
			nb[i] = append([]int(nil), v...)
			nb[i][axis] = 0
		}
		*bs = nb
	}
	idx := g.indexValues(g.linearIndex(rl, nil, nil))
	numOut := 1
	for _, d := range rl.shape {
		numOut *= d
	}
	// one region per operand
	n := len(accs[0])
	bases := make([]int, n)
	total := 0
	for i := range n {
		bases[i] = total
		total += (nw*numOut*byteSize(storableType(accs[0][i].Type())) + 15) &^ 15
	}
	firstReg := map[int]int{} // group -> a register of it
	seen := map[string]bool{}
	gi := 0
	for r := range l.numRegs() {
		c := append([]int(nil), l.regCoord(r)...)
		c[axis] = 0
		if k := coordKey(c); !seen[k] {
			seen[k] = true
			firstReg[gi] = r
			gi++
		}
	}
	g.smemBarrier()
	for gi, acc := range accs {
		off := g.cur.NewAdd(g.cur.NewMul(widx, i32c(int64(numOut))), idx[firstReg[gi]])
		for i, v := range acc {
			st := storableType(v.Type())
			g.Store(g.toStorable(v), g.smemPtr(st, bases[i], off, total))
		}
	}
	g.barrier()
	out := make([][]value.Value, len(accs))
	for gi, acc := range accs {
		var res []value.Value
		// a reduction to one element reads each operand's nw partials as vectors
		var whole [][]value.Value
		if numOut == 1 {
			warps := index{base: i32c(0), offs: make([]int, nw), align: 1 << 20}
			for w := range warps.offs {
				warps.offs[w] = w
			}
			whole = make([][]value.Value, len(acc))
			for i, v := range acc {
				whole[i] = g.readShared(g.sharedAt(g.scratchStart+bases[i], total-bases[i]), warps, v.Type())
			}
		}
		for w := range nw {
			part := make([]value.Value, len(acc))
			for i, v := range acc {
				if whole != nil {
					part[i] = whole[i][w]
					continue
				}
				off := g.cur.NewAdd(idx[firstReg[gi]], i32c(int64(w*numOut)))
				st := storableType(v.Type())
				part[i] = g.fromStorable(g.load(st, g.smemPtr(st, bases[i], off, total)), v.Type())
			}
			if res == nil {
				res = part
				continue
			}
			var err error
			if res, err = g.combine(op, res, part); err != nil {
				return nil, err
			}
		}
		out[gi] = res
	}
	return out, nil
}
