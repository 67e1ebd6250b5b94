package lower

import (
	"math"
	"slices"

	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

// Tensor descriptors made in the kernel (tl.make_tensor_descriptor) that are not tensor
// maps, host descriptors on targets without TMA (tma.go has the others) and block pointers (tl.make_block_ptr) are
// lowered as masked n-D accesses. A descriptor's registers are its
// base pointer, its shape (i32) and its strides (i64); a block pointer's are its base,
// shape (i64), strides (i64) and offsets (i32). A block access checks coordinates against
// the shape (every dimension for descriptors, as TMA's zero fill; the boundaryCheck
// dimensions for block pointers).

func init() {
	collect := func(g *gen, op *tileir.Op) error {
		g.vals[op.Results[0]] = g.operandRegs(op)
		return nil
	}
	lowerings["tt.make_tensor_descriptor"] = func(g *gen, op *tileir.Op) error {
		if _, ok := g.kernelMaps[op.Results[0]]; ok {
			return g.buildTensorMap(op)
		}
		return collect(g, op)
	}
	lowerings["tt.make_tensor_ptr"] = collect
	lowerings["tt.advance"] = func(g *gen, op *tileir.Op) error {
		regs := slices.Clone(g.vals[op.Operands[0]])
		rank := len(op.Operands) - 1
		for d := range rank {
			i := len(regs) - rank + d
			regs[i] = g.cur.NewAdd(regs[i], g.vals[op.Operands[1+d]][0])
		}
		g.vals[op.Results[0]] = regs
		return nil
	}
	lowerings["tt.descriptor_load"] = func(g *gen, op *tileir.Op) error {
		if ld := g.pipelinedLoads[op]; ld != nil {
			if !ld.direct { // else the dot reads the stage
				g.loadStage(ld)
			}
			return nil
		}
		if g.isTensorMap(op.Operands[0]) {
			return g.tmaLoad(op)
		}
		return g.blockLoad(op, g.descBlock(op.Operands[0], op.Operands[1:]))
	}
	lowerings["tt.descriptor_store"] = func(g *gen, op *tileir.Op) error {
		if g.isTensorMap(op.Operands[0]) {
			return g.tmaStore(op)
		}
		return g.blockStore(op, op.Operands[1], g.descBlock(op.Operands[0], op.Operands[2:]))
	}
}

// operandRegs is the registers of a descriptor or block pointer that op makes: one per
// (scalar) operand, in order.
func (g *gen) operandRegs(op *tileir.Op) []value.Value {
	regs := make([]value.Value, len(op.Operands))
	for i, o := range op.Operands {
		regs[i] = g.vals[o][0]
	}
	return regs
}

// block is one n-D block access: where the tensor lies, where the block starts, which
// dimensions to check, and the hints that bound vector accesses.
type block struct {
	base            value.Value
	shape, strides  []value.Value
	offsets         []value.Value
	check           []bool
	offDiv, lastDiv int64 // divisibility of the last offset and of the last extent
	rowBytes        int64 // divisibility in bytes of the base address and every outer stride
	padNaN          bool
}

// descBlock describes the block of a descriptor access at the given indices.
func (g *gen) descBlock(desc *tileir.Value, idx []*tileir.Value) block {
	regs := g.vals[desc]
	rank := len(idx)
	b := block{base: regs[0], shape: regs[1 : 1+rank], strides: regs[1+rank : 1+2*rank], check: make([]bool, rank)}
	for d := range rank {
		b.check[d] = true
		b.offsets = append(b.offsets, g.vals[idx[d]][0])
	}
	b.offDiv, b.lastDiv, b.rowBytes = g.axes.get(idx[rank-1]).div[0], 1, 1
	if def := desc.Def(); def != nil && def.Name == "tt.make_tensor_descriptor" {
		b.padNaN = def.IntAttr("padding") == 2
		b.lastDiv = g.axes.get(def.Operands[rank]).div[0]
		// Rows start at base + i*stride: vectors must divide both.
		eb := int64(max(tileir.ScalarOf(desc.Type.(*tileir.TensorDescType).Block()).Bits()/8, 1))
		b.rowBytes = g.axes.get(def.Operands[0]).div[0]
		for d := range rank - 1 {
			b.rowBytes = gcd(b.rowBytes, multiplyDivisor(g.axes.get(def.Operands[1+rank+d]).div[0], eb))
		}
	}
	return b
}

// ptrBlock describes the block a block pointer points at.
func (g *gen) ptrBlock(op *tileir.Op, ptr *tileir.Value) block {
	regs := g.vals[ptr]
	rank := (len(regs) - 1) / 3
	b := block{base: regs[0], shape: regs[1 : 1+rank], strides: regs[1+rank : 1+2*rank], offsets: regs[1+2*rank:],
		check: make([]bool, rank), offDiv: 1, lastDiv: 1, rowBytes: 1, padNaN: op.IntAttr("padding") == 2}
	if bc, ok := op.Attr("boundaryCheck").(tileir.I32ArrayAttr); ok {
		for _, d := range bc {
			b.check[d] = true
		}
	}
	return b
}

// access computes, for each register of layout l, the address of its element and
// whether it lies inside the checked bounds (nil: always), and the vector width: unit
// register steps along the last dimension, 16 bytes, the alignment of the last offset
// and extent, and that of the base and outer strides (a block pointer's are unknown, so
// its accesses are scalar).
func (g *gen) access(b block, l *linLayout, elem tileir.Scalar) (ptrs, masks []value.Value, vec int) {
	rank := len(l.shape)
	pt := types.NewPointer(memType(elem))
	pt.AddrSpace = 1
	base := g.BitCast(b.base, pt)
	thread := g.threadCoords(l)
	ptrs, masks = make([]value.Value, l.numRegs()), make([]value.Value, l.numRegs())
	for r := range ptrs {
		var off value.Value = constantI64(0)
		var in value.Value
		for d := range rank {
			idx := g.cur.NewAdd(g.coordOf(l, thread, r, d), b.offsets[d])
			wide := g.sext(idx, types.I64)
			if b.check[d] {
				st := b.shape[d].Type().(*types.IntType)
				var i value.Value = idx
				if st.BitSize == 64 {
					i = wide
				}
				in = andPred(g, in, g.cur.NewICmp(enum.IPredULT, i, b.shape[d])) // negative indices wrap past the shape
			}
			off = g.cur.NewAdd(off, g.cur.NewMul(wide, b.strides[d]))
		}
		ptrs[r], masks[r] = g.cur.NewGetElementPtr(memType(elem), base, off), in
	}
	last := rank - 1
	run := 1
	for k, v := range l.reg {
		unit := make([]int, rank)
		unit[last] = 1 << k
		if coordKey(v) != coordKey(unit) {
			break
		}
		run *= 2
	}
	eb := int64(max(elem.Bits()/8, 1))
	v := min(int64(run), max(16/eb, 1), b.offDiv, max(b.rowBytes/eb, 1))
	if b.check[last] {
		v = min(v, b.lastDiv)
	}
	vec = 1
	for int64(vec*2) <= v {
		vec *= 2
	}
	return ptrs, masks, vec
}

func (g *gen) blockLoad(op *tileir.Op, b block) error {
	res := op.Results[0]
	l := g.layoutOf(res)
	s := tileir.ScalarOf(res.Type)
	ptrs, masks, vec := g.access(b, l, s)
	a := g.accessOf(llScalar(s), vec)
	var other []value.Value
	if b.padNaN {
		nan, err := scalarConst(tileir.FloatAttr{V: math.NaN(), T: s}, s)
		if err != nil {
			return g.errorf(op, "%v", err)
		}
		fill := make([]value.Value, vec)
		for i := range fill {
			fill[i] = nan
		}
		other = g.pack(a, fill)
	}
	out := make([]value.Value, len(ptrs))
	for r := 0; r < len(ptrs); r += vec {
		copy(out[r:], g.unpack(a, g.isa.LoadGlobal(a.globalOf(op), ptrs[r], masks[r], other)))
	}
	g.vals[res] = out
	return nil
}

func (g *gen) blockStore(op *tileir.Op, v *tileir.Value, b block) error {
	l := g.layoutOf(v)
	vals := g.vals[v]
	s := tileir.ScalarOf(v.Type)
	ptrs, masks, vec := g.access(b, l, s)
	a := g.accessOf(llScalar(s), vec)
	own := g.owner(l)
	for r := 0; r < len(ptrs); r += vec {
		g.isa.StoreGlobal(a.globalOf(op), ptrs[r], andPred(g, own, masks[r]), g.pack(a, vals[r:r+vec]))
	}
	return nil
}

func lowerBlockLoad(g *gen, op *tileir.Op) error {
	return g.blockLoad(op, g.ptrBlock(op, op.Operands[0]))
}

func lowerBlockStore(g *gen, op *tileir.Op) error {
	return g.blockStore(op, op.Operands[1], g.ptrBlock(op, op.Operands[0]))
}
