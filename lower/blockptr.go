package lower

import (
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

// Tensor descriptors made in the kernel (tl.make_tensor_descriptor) are lowered as masked
// 2-D (n-D) accesses: a descriptor's registers are its base pointer, its shape (i32) and
// its strides (i64), and a block access checks every coordinate against the shape, as
// TMA's zero fill does.

func init() {
	lowerings["tt.make_tensor_descriptor"] = func(g *gen, op *tileir.Op) error {
		var regs []value.Value
		for _, o := range op.Operands {
			regs = append(regs, g.vals[o][0])
		}
		g.vals[op.Results[0]] = regs
		return nil
	}
	lowerings["tt.descriptor_load"] = lowerDescLoad
	lowerings["tt.descriptor_store"] = lowerDescStore
}

func lowerBlockLoad(g *gen, op *tileir.Op) error {
	return g.errorf(op, "loads through block pointers are not supported yet")
}

func lowerBlockStore(g *gen, op *tileir.Op) error {
	return g.errorf(op, "stores through block pointers are not supported yet")
}

// descAccess computes, for each register of a block of layout l at offsets offs, the
// element's address and whether it lies inside the tensor; vec is the width of the
// vector accesses that stay inside one aligned run of the last dimension.
func (g *gen) descAccess(op *tileir.Op, desc *tileir.Value, offs []*tileir.Value, l *linLayout, elem tileir.Scalar) (ptrs, masks []value.Value, vec int, err error) {
	regs := g.vals[desc]
	rank := len(l.shape)
	if len(offs) != rank || len(regs) != 1+2*rank {
		return nil, nil, 0, g.errorf(op, "descriptor block and result ranks differ")
	}
	base, shape, strides := regs[0], regs[1:1+rank], regs[1+rank:]
	pt := types.NewPointer(memType(elem))
	pt.AddrSpace = 1
	base = g.cur.NewBitCast(base, pt)
	thread := g.threadCoords(l)
	ptrs, masks = make([]value.Value, l.numRegs()), make([]value.Value, l.numRegs())
	for r := range ptrs {
		var off value.Value = constantI64(0)
		var in value.Value
		for d := range rank {
			idx := g.cur.NewAdd(g.coordOf(l, thread, r, d), g.vals[offs[d]][0])
			ok := g.cur.NewICmp(enum.IPredULT, idx, shape[d]) // negative indices wrap past the shape
			in = andPred(g, in, ok)
			off = g.cur.NewAdd(off, g.cur.NewMul(g.cur.NewSExt(idx, types.I64), strides[d]))
		}
		ptrs[r] = g.cur.NewGetElementPtr(memType(elem), base, off)
		masks[r] = in
	}
	// vectors along the last dimension: the run of unit register steps, 16 bytes, the
	// alignment of the offset and of the shape (when the descriptor's origin is visible)
	last := rank - 1
	run := 1
	for k, b := range l.reg {
		unit := make([]int, rank)
		unit[last] = 1 << k
		if coordKey(b) != coordKey(unit) {
			break
		}
		run *= 2
	}
	vec = min(run, max(16/max(elem.Bits()/8, 1), 1), int(g.axes.get(offs[last]).div[0]))
	if def := desc.Def(); def != nil && def.Name == "tt.make_tensor_descriptor" {
		vec = min(vec, int(g.axes.get(def.Operands[1+last]).div[0]))
	} else {
		vec = 1
	}
	p := 1
	for p*2 <= vec {
		p *= 2
	}
	return ptrs, masks, p, nil
}

func lowerDescLoad(g *gen, op *tileir.Op) error {
	res := op.Results[0]
	l := g.layoutOf(res)
	ptrs, masks, vec, err := g.descAccess(op, op.Operands[0], op.Operands[1:], l, tileir.ScalarOf(res.Type))
	if err != nil {
		return err
	}
	et := llScalar(tileir.ScalarOf(res.Type))
	a := g.accessOf(et, vec)
	out := make([]value.Value, len(ptrs))
	for r := 0; r < len(ptrs); r += vec {
		copy(out[r:], g.unpack(a, g.loadWords(a, ptrs[r], masks[r], nil, ".global")))
	}
	g.vals[res] = out
	return nil
}

func lowerDescStore(g *gen, op *tileir.Op) error {
	v := op.Operands[1]
	e := g.enc[v]
	l := g.layoutOf(v)
	vals := g.in(v, e)
	ptrs, masks, vec, err := g.descAccess(op, op.Operands[0], op.Operands[2:], l, tileir.ScalarOf(v.Type))
	if err != nil {
		return err
	}
	a := g.accessOf(llScalar(tileir.ScalarOf(v.Type)), vec)
	own := g.owner(l)
	for r := 0; r < len(ptrs); r += vec {
		g.storeWords(a, ptrs[r], andPred(g, own, masks[r]), g.pack(a, vals[r:r+vec]), ".global")
	}
	return nil
}
