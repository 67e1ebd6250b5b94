package lower

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// slab hands out values of T from chunks that grow with use, so that the instructions
// lowering emits by the thousand cost one allocation per chunk instead of one each. The
// module keeps the chunks alive as long as any of their instructions.
type slab[T any] struct {
	buf  []T
	size int
}

func (s *slab[T]) next() *T {
	if len(s.buf) == 0 {
		s.size = min(max(2*s.size, 16), 512)
		s.buf = make([]T, s.size)
	}
	p := &s.buf[0]
	s.buf = s.buf[1:]
	return p
}

// arena holds the slabs of the instructions lowering emits most.
type arena struct {
	extractValue   slab[ir.InstExtractValue]
	insertElement  slab[ir.InstInsertElement]
	extractElement slab[ir.InstExtractElement]
	gep            slab[gepInst]
	bitCast        slab[ir.InstBitCast]
	sext           slab[ir.InstSExt]
	phi            slab[phiInst]
	incoming       slab[ir.Incoming]
	undefs         map[types.Type]*constant.Undef
}

// gepInst is a getelementptr with room for its one index.
type gepInst struct {
	inst ir.InstGetElementPtr
	idx  [1]value.Value
}

// phiInst is a phi with room for two incoming values.
type phiInst struct {
	inst ir.InstPhi
	incs [2]*ir.Incoming
}

// incoming returns [x, pred].
func (g *gen) incoming(x value.Value, pred *ir.Block) *ir.Incoming {
	inc := g.ar.incoming.next()
	inc.X, inc.Pred = x, pred
	return inc
}

// phi appends to b a phi of x coming from pred (ir.Block.NewPhi).
func (g *gen) phi(b *ir.Block, x value.Value, pred *ir.Block) *ir.InstPhi {
	p := g.ar.phi.next()
	p.incs[0] = g.incoming(x, pred)
	p.inst.Incs = p.incs[:1:2]
	p.inst.Typ = x.Type()
	b.Insts = append(b.Insts, &p.inst)
	return &p.inst
}

// insertElement emits insertelement x, elem, idx (ir.Block.NewInsertElement).
func (g *gen) insertElement(x, elem, idx value.Value) *ir.InstInsertElement {
	inst := g.ar.insertElement.next()
	inst.X, inst.Elem, inst.Index = x, elem, idx
	inst.Typ = x.Type().(*types.VectorType)
	g.cur.Insts = append(g.cur.Insts, inst)
	return inst
}

// extractElement emits extractelement x, idx (ir.Block.NewExtractElement).
func (g *gen) extractElement(x, idx value.Value) *ir.InstExtractElement {
	inst := g.ar.extractElement.next()
	inst.X, inst.Index = x, idx
	inst.Typ = x.Type().(*types.VectorType).ElemType
	g.cur.Insts = append(g.cur.Insts, inst)
	return inst
}

// bitCast emits bitcast from to to (ir.Block.NewBitCast).
func (g *gen) bitCast(from value.Value, to types.Type) *ir.InstBitCast {
	inst := g.ar.bitCast.next()
	inst.From, inst.To = from, to
	g.cur.Insts = append(g.cur.Insts, inst)
	return inst
}

// sext emits sext from to to (ir.Block.NewSExt).
func (g *gen) sext(from value.Value, to types.Type) *ir.InstSExt {
	inst := g.ar.sext.next()
	inst.From, inst.To = from, to
	g.cur.Insts = append(g.cur.Insts, inst)
	return inst
}

// undef returns the undef of type t, one value per type.
func (g *gen) undef(t types.Type) *constant.Undef {
	u, ok := g.ar.undefs[t]
	if !ok {
		if g.ar.undefs == nil {
			g.ar.undefs = map[types.Type]*constant.Undef{}
		}
		u = constant.NewUndef(t)
		g.ar.undefs[t] = u
	}
	return u
}
