package lower

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

func init() {
	lowerings["tt.gather"] = lowerGather
}

// lowerGather lowers tt.gather (out[i] = src[i with its axis coordinate replaced by
// idx[i]]) through shared memory, Triton's general path: the source's owners write it
// row-major to the scratch buffer, the block synchronizes, and each thread loads its
// elements of the result from the positions its indices name. Triton reads an
// unspecified element for an index outside the source; here the load may fall outside
// the buffer.
func lowerGather(g *gen, op *tileir.Op) error {
	src, res := op.Operands[0], op.Results[0]
	axis := int(op.IntAttr("axis"))
	sl, rl := g.layoutOf(src), g.layoutOf(res)
	srcShape := shapeInts(src.Type)
	t := g.vals[src][0].Type()
	st := storableType(t)
	need := numel(srcShape) * byteSize(st)

	idx := g.in(op.Operands[1], g.enc[res]) // first: a layout conversion may use the scratch buffer too
	g.smemBarrier()
	g.writeScratch([][]value.Value{g.vals[src]}, []index{g.linearIndex(sl, nil, nil)}, st, need, g.owner(sl))
	g.barrier()

	thread := g.threadCoords(rl)
	out := make([]value.Value, rl.numRegs())
	for r := range out {
		var lin value.Value
		stride := 1
		for d := len(srcShape) - 1; d >= 0; d-- {
			c := g.coordOf(rl, thread, r, d)
			if d == axis {
				c = g.toI32(idx[r])
			}
			if stride != 1 {
				c = g.cur.NewMul(c, i32c(int64(stride)))
			}
			if lin == nil {
				lin = c
			} else {
				lin = g.cur.NewAdd(lin, c)
			}
			stride *= srcShape[d]
		}
		ld := g.load(st, g.smemPtr(st, 0, lin, need))
		ld.Align = ir.Align(byteSize(st))
		out[r] = g.fromStorable(ld, t)
	}
	g.vals[res] = out
	return nil
}

// toI32 converts the integer index x to i32 (sign-extending narrower ones).
func (g *gen) toI32(x value.Value) value.Value {
	switch bits := x.Type().(*types.IntType).BitSize; {
	case bits < 32:
		return g.cur.NewSExt(x, types.I32)
	case bits > 32:
		return g.cur.NewTrunc(x, types.I32)
	}
	return x
}
