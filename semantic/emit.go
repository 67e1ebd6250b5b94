package semantic

import (
	"fmt"

	"github.com/gotriton/gotriton/tileir"
)

// emit builds a single-result op at the insertion point. rest holds the operands
// (*tileir.Value) and attributes (tileir.NamedAttr) in any order.
func (g *gen) emit(name string, result tileir.Type, rest ...any) *tileir.Value {
	var operands []*tileir.Value
	var attrs []tileir.NamedAttr
	for _, r := range rest {
		switch r := r.(type) {
		case *tileir.Value:
			if operands == nil {
				operands = make([]*tileir.Value, 0, len(rest))
			}
			operands = append(operands, r)
		case tileir.NamedAttr:
			attrs = append(attrs, r)
		default:
			panic(fmt.Sprintf("emit %s: bad argument %T", name, r))
		}
	}
	return g.b.Create(name, operands, []tileir.Type{result}, attrs...).Results[0]
}

// i32Attr is an i32 integer attribute.
func i32Attr(v int64) tileir.IntAttr { return tileir.IntAttr{V: v, T: tileir.I32} }

// scratchBlock returns a detached block with arguments of the given types, into which
// branches and dry runs are generated before their ops move into a region.
func scratchBlock(types ...tileir.Type) *tileir.Block {
	blk := &tileir.Block{}
	for _, t := range types {
		blk.AddArg(t)
	}
	return blk
}

// inBlock runs f with the builder appending to blk, then restores the insertion point.
func (g *gen) inBlock(blk *tileir.Block, f func()) {
	saved := g.b
	g.b = &tileir.Builder{Loc: saved.Loc}
	g.b.SetInsertionPointToEnd(blk)
	defer func() {
		loc := g.b.Loc
		g.b = saved
		g.b.Loc = loc
	}()
	f()
}

// moveOps moves the ops of a scratch block to the end of the builder's block.
func moveOps(from *tileir.Block, b *tileir.Builder) {
	to := b.Block()
	for _, op := range from.Ops {
		to.Insert(len(to.Ops), op)
	}
	from.Ops = nil
	b.SetInsertionPointToEnd(to)
}

// ifOp builds scf.if from branches already generated into scratch blocks, yielding
// thenVals / elseVals. The else region is built only when needed.
func (g *gen) ifOp(cond *tileir.Value, thenBlk, elseBlk *tileir.Block, thenVals, elseVals []*tileir.Value, withElse bool) []*tileir.Value {
	then := func(b *tileir.Builder) []*tileir.Value {
		moveOps(thenBlk, b)
		return thenVals
	}
	var els func(b *tileir.Builder) []*tileir.Value
	if withElse || len(thenVals) > 0 || len(elseBlk.Ops) > 0 {
		els = func(b *tileir.Builder) []*tileir.Value {
			moveOps(elseBlk, b)
			return elseVals
		}
	}
	return g.b.If(cond, valueTypes(thenVals), then, els)
}
