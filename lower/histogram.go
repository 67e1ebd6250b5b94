package lower

import (
	"slices"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

func init() {
	lowerings["tt.histogram"] = lowerHistogram
}

// lowerHistogram counts the source's values in the bins of the result [N] with shared
// memory atomics, as Triton's HistogramOpToLLVM finishes its warp-level counts: the block
// zeroes N+1 i32 counters, each element's owner adds one to the counter of its value
// (an LLVM atomicrmw, which every ISA's backend has), and every thread reads its bins
// back. Masked-off elements and values outside [0, N) count in the extra counter N, which
// is never read: they are ignored, as the CPU interpreter ignores them.
func lowerHistogram(g *gen, op *tileir.Op) error {
	src, res := op.Operands[0], op.Results[0]
	bins := shapeInts(res.Type)[0]
	need := (bins + 1) * 4
	xs := g.vals[src]
	sl := g.layoutOf(src)
	masks := g.optional(op, 1, g.enc[src])
	threads := g.opts.NumWarps * g.t.WarpSize

	g.smemBarrier()
	for k := 0; k <= bins; k += threads {
		idx := g.tid
		if k > 0 {
			idx = g.cur.NewAdd(g.tid, i32c(int64(k)))
		}
		p := g.smemPtr(types.I32, 0, idx, need)
		if k+threads <= bins+1 {
			g.Store(i32c(0), p).Align = 4
		} else {
			g.isa.StoreShared(p, i32c(0), g.cur.NewICmp(enum.IPredULT, idx, i32c(int64(bins+1))))
		}
	}
	g.barrier()

	own := g.owner(sl)
	var counted [][]int // coordinates of the registers already counted (copies hold the same element)
	for r, x := range xs {
		c := sl.regCoord(r)
		if slices.ContainsFunc(counted, func(d []int) bool { return slices.Equal(c, d) }) {
			continue
		}
		counted = append(counted, c)
		idx := binIndex(g, x, bins)
		keep := g.cur.NewICmp(enum.IPredULT, idx, i32c(int64(bins)))
		var pred value.Value = keep
		if masks != nil {
			pred = g.cur.NewAnd(pred, masks[r])
		}
		if own != nil {
			pred = g.cur.NewAnd(pred, own)
		}
		idx = g.cur.NewSelect(pred, idx, i32c(int64(bins)))
		g.cur.NewAtomicRMW(enum.AtomicOpAdd, g.smemPtr(types.I32, 0, idx, need), i32c(1), enum.AtomicOrderingMonotonic)
	}
	g.barrier()
	g.vals[res] = g.readScratch(g.linearIndex(g.layoutOf(res), nil, nil), types.I32, need)
	return nil
}

// binIndex is the integer x (signed) as an i32 bin index, or an index of at least bins
// when x is outside [0, bins).
func binIndex(g *gen, x value.Value, bins int) value.Value {
	t := x.Type().(*types.IntType)
	switch {
	case t.BitSize < 32:
		return g.cur.NewSExt(x, types.I32)
	case t.BitSize > 32:
		inRange := g.cur.NewICmp(enum.IPredULT, x, constant.NewInt(t, int64(bins)))
		return g.cur.NewSelect(inRange, g.cur.NewTrunc(x, types.I32), i32c(int64(bins)))
	}
	return x
}
