package lower

import (
	"fmt"
	"unsafe"

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
		var zero T
		// chunks stay small objects (at most 16 KiB): large ones cost page allocations
		s.size = min(max(2*s.size, 8), max(16<<10/int(unsafe.Sizeof(zero)), 1))
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
	call           slab[ir.InstCall]
	fadd           slab[ir.InstFAdd]
	fsub           slab[ir.InstFSub]
	fmul           slab[ir.InstFMul]
	fptrunc        slab[ir.InstFPTrunc]
	load           slab[ir.InstLoad]
	store          slab[ir.InstStore]
	undefs         map[types.Type]*constant.Undef
	values         []value.Value // see values
	valuesSize     int
}

// values returns a new list of n values (capacity n), cut from a shared chunk when short.
func (g *gen) values(n int) []value.Value {
	if n > 64 {
		return make([]value.Value, n)
	}
	if len(g.ar.values) < n {
		g.ar.valuesSize = min(max(2*g.ar.valuesSize, 128), 1024)
		g.ar.values = make([]value.Value, g.ar.valuesSize)
	}
	v := g.ar.values[:n:n]
	g.ar.values = g.ar.values[n:]
	return v
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
func (g *gen) BitCast(from value.Value, to types.Type) *ir.InstBitCast {
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

// newCall emits call callee(args...) (ir.Block.NewCall; args is copied).
func (g *gen) newCall(callee value.Value, args []value.Value) *ir.InstCall {
	inst := g.ar.call.next()
	// The call keeps its own copy: callers pass reused buffers (elementwise's operand row).
	inst.Callee, inst.Args = callee, append(g.values(len(args))[:0], args...)
	inst.Type()
	g.cur.Insts = append(g.cur.Insts, inst)
	return inst
}

// fadd, fsub and fmul emit the float arithmetic (ir.Block.NewFAdd …).
func (g *gen) fadd(x, y value.Value) *ir.InstFAdd {
	inst := g.ar.fadd.next()
	inst.X, inst.Y = x, y
	inst.Type()
	g.cur.Insts = append(g.cur.Insts, inst)
	return inst
}

func (g *gen) fsub(x, y value.Value) *ir.InstFSub {
	inst := g.ar.fsub.next()
	inst.X, inst.Y = x, y
	inst.Type()
	g.cur.Insts = append(g.cur.Insts, inst)
	return inst
}

func (g *gen) fmul(x, y value.Value) *ir.InstFMul {
	inst := g.ar.fmul.next()
	inst.X, inst.Y = x, y
	inst.Type()
	g.cur.Insts = append(g.cur.Insts, inst)
	return inst
}

// fptrunc emits fptrunc from to to (ir.Block.NewFPTrunc).
func (g *gen) fptrunc(from value.Value, to types.Type) *ir.InstFPTrunc {
	inst := g.ar.fptrunc.next()
	inst.From, inst.To = from, to
	g.cur.Insts = append(g.cur.Insts, inst)
	return inst
}

// load emits load elem, src (ir.Block.NewLoad).
func (g *gen) load(elem types.Type, src value.Value) *ir.InstLoad {
	inst := g.ar.load.next()
	inst.ElemType, inst.Src = elem, src
	g.cur.Insts = append(g.cur.Insts, inst)
	return inst
}

// store emits store src, dst (ir.Block.NewStore, with its operand check).
func (g *gen) Store(src, dst value.Value) *ir.InstStore {
	pt, ok := dst.Type().(*types.PointerType)
	if !ok {
		panic(fmt.Errorf("invalid store dst operand type; expected *types.Pointer, got %T", dst.Type()))
	}
	if !typeEqual(src.Type(), pt.ElemType) {
		panic(fmt.Errorf("store operands are not compatible: src=%v; dst=%v", src.Type(), dst.Type()))
	}
	inst := g.ar.store.next()
	inst.Src, inst.Dst = src, dst
	g.cur.Insts = append(g.cur.Insts, inst)
	return inst
}

// EntryAlloca allocates a t (aligned to align bytes) at the start of the entry block.
func (g *gen) EntryAlloca(t types.Type, align int) *ir.InstAlloca {
	buf := ir.NewAlloca(t)
	buf.Align = ir.Align(align)
	entry := g.f.Blocks[0]
	entry.Insts = append([]ir.Instruction{buf}, entry.Insts...)
	if len(g.stamped) > 0 {
		g.stamped[0] = [2]int{} // the entry's instructions moved
	}
	return buf
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
