package lower

import (
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

func init() {
	lowerings["tt.get_program_id"] = func(g *gen, op *tileir.Op) error { return g.sreg(op, "ctaid") }
	lowerings["tt.get_num_programs"] = func(g *gen, op *tileir.Op) error { return g.sreg(op, "nctaid") }
	lowerings["tt.make_range"] = lowerMakeRange
	lowerings["tt.splat"] = func(g *gen, op *tileir.Op) error {
		out := make([]value.Value, g.regs(op.Results[0]))
		for i := range out {
			out[i] = g.vals[op.Operands[0]][0]
		}
		g.vals[op.Results[0]] = out
		return nil
	}
	lowerings["tt.broadcast"] = func(g *gen, op *tileir.Op) error {
		src := tileir.ShapeOf(op.Operands[0].Type)
		return g.gather(op, g.enc[op.Results[0]], func(dst, c []int) []int {
			dst = append(dst, c...)
			for d := range dst {
				if src[d] == 1 {
					dst[d] = 0
				}
			}
			return dst
		})
	}
	lowerings["tt.expand_dims"] = func(g *gen, op *tileir.Op) error {
		axis := int(op.IntAttr("axis"))
		return g.gather(op, &sliceEnc{dim: axis, parent: g.enc[op.Results[0]]}, func(dst, c []int) []int {
			return append(append(dst, c[:axis]...), c[axis+1:]...)
		})
	}
	lowerings["tt.addptr"] = func(g *gen, op *tileir.Op) error {
		pt, err := g.llType(op.Results[0].Type)
		if err != nil {
			return g.errorf(op, "%v", err)
		}
		elem := pt.(*types.PointerType).ElemType
		var narrow, wide value.Value // the last offset widened, reused for a splat's repeats
		return g.elementwise(op, func(a []value.Value) (value.Value, error) {
			off := a[1]
			if off.Type().(*types.IntType).BitSize < 64 {
				if off != narrow {
					narrow, wide = off, g.sext(off, types.I64)
				}
				off = wide
			}
			return g.gep(elem, a[0], off), nil
		})
	}
	lowerings["llvm.intr.assume"] = func(*gen, *tileir.Op) error { return nil }
	lowerings["tt.return"] = func(g *gen, op *tileir.Op) error {
		if len(op.Operands) > 0 {
			return g.errorf(op, "kernels return no values")
		}
		g.cur.NewRet(nil)
		return nil
	}
	lowerings["gpu.barrier"] = func(g *gen, op *tileir.Op) error { g.barrier(); return nil }
}

// sreg reads %ctaid or %nctaid along the op's axis.
func (g *gen) sreg(op *tileir.Op, reg string) error {
	axis := op.EnumAttr("axis")
	if axis == "" {
		axis = []string{"x", "y", "z"}[op.IntAttr("axis")]
	}
	g.vals[op.Results[0]] = []value.Value{g.call("llvm.nvvm.read.ptx.sreg."+reg+"."+axis, types.I32)}
	return nil
}

func lowerMakeRange(g *gen, op *tileir.Op) error {
	l := g.layoutOf(op.Results[0])
	thread := g.threadCoords(l)
	start := op.IntAttr("start")
	out := make([]value.Value, l.numRegs())
	for r := range out {
		c := g.coordOf(l, thread, r, 0)
		if start != 0 {
			c = g.cur.NewAdd(c, i32c(start))
		}
		out[r] = c
	}
	g.vals[op.Results[0]] = out
	return nil
}

// gather builds the result of a shape-changing op whose elements each thread already
// holds: result register r takes the operand register (operand in encoding srcEnc) at
// coordinate srcCoord(coordinate of r), which srcCoord appends to dst (empty).
func (g *gen) gather(op *tileir.Op, srcEnc encoding, srcCoord func(dst, c []int) []int) error {
	res := op.Results[0]
	src := g.in(op.Operands[0], srcEnc)
	var shape [maxCachedRank]int
	idx := g.layouts.layout(srcEnc, appendShape(shape[:0], op.Operands[0].Type)).regIndex()
	l := g.layoutOf(res)
	out := g.values(l.numRegs())
	var buf []int
	for r := range out {
		buf = srcCoord(buf[:0], l.regCoord(r))
		i, ok := idx.of(buf)
		if !ok {
			return g.errorf(op, "layouts %s and %s do not line up", srcEnc, g.enc[res])
		}
		out[r] = src[i]
	}
	g.vals[res] = out
	return nil
}
