package lower

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

// Host tensor descriptors on targets with a tensor memory accelerator (the ISA's TMA;
// NVIDIA sm_90 and later) follow Triton 3.6's ABI: the parameter is the ISA's descriptor
// parameter (a 128-byte CUtensorMap passed by value), and the descriptor's shape (i32)
// and strides (i64) follow it as parameters. Loads and stores through it are TMA copies
// between global memory and the shared scratch buffer, which holds the block row-major
// (the launcher encodes the map without swizzle or interleave, with zero fill, unless
// the map is one of a pipeline's swizzled ones, see pipeline.go):
//
//   - load: one thread arms the kernel's mbarrier with the block's byte count and issues
//     the copy global → shared; every thread arrives on the mbarrier and waits for the
//     phase its arrival belongs to, then reads its elements in the result's layout.
//   - store: every thread writes its elements row-major into shared memory and fences them
//     for the copy; after a barrier one thread issues the copy shared → global and waits
//     until it has read shared memory.
//
// The mbarrier sits in the first bytes of global_smem, initialized once at kernel entry
// for all the block's threads; the scratch buffer starts after it (the TMA's
// ScratchStart). It is never invalidated or reinitialized: each use completes one phase,
// and a thread waits on the phase its own arrival returned, so no parity has to be
// tracked through control flow.

// hostDescParam is the LLVM parameter of a host tensor descriptor: the TMA's descriptor
// where the target has one, else gotriton's fallback ABI, the tensor's global address.
func (g *gen) hostDescParam() *ir.Param {
	if tma := g.isa.TMA(); tma != nil {
		return tma.DescriptorParam()
	}
	return ir.NewParam("", globalI8Ptr())
}

// isTensorMap reports whether desc's registers start with a TMA descriptor (a generic
// pointer to the by-value parameter) rather than a global base address.
func (g *gen) isTensorMap(desc *tileir.Value) bool {
	p, ok := g.vals[desc][0].Type().(*types.PointerType)
	return ok && p.AddrSpace == 0
}

// usesTMA reports whether the kernel takes a host tensor descriptor on a TMA target.
func (g *gen) usesTMA() bool {
	if g.isa.TMA() == nil {
		return false
	}
	for _, a := range g.tf.Args() {
		if _, ok := a.Type.(*tileir.TensorDescType); ok {
			return true
		}
	}
	return false
}

// initTMABarrier makes the kernel's mbarrier at the start of global_smem, initialized
// for every thread of the block before anyone uses it.
func (g *gen) initTMABarrier() {
	tma := g.isa.TMA()
	g.tmaBarrier, g.tmaScratchStart = g.sharedAt(0, 0), tma.ScratchStart()
	g.scratchStart = g.tmaScratchStart
	tma.InitBarrier(g.tid, g.tmaBarrier)
}

// tmaCoords returns the coordinates idx of descriptor access op innermost first, as TMA
// takes them; TMA copies 1 to 5 dimensions.
func (g *gen) tmaCoords(op *tileir.Op, idx []*tileir.Value) ([]value.Value, error) {
	if len(idx) < 1 || len(idx) > 5 {
		return nil, g.errorf(op, "a TMA copy of rank %d (TMA takes 1 to 5 dimensions)", len(idx))
	}
	coords := make([]value.Value, len(idx))
	for i := range idx {
		coords[i] = g.vals[idx[len(idx)-1-i]][0]
	}
	return coords, nil
}

// tmaBlock returns the block's register element type and its size in shared memory.
func tmaBlock(t tileir.Type) (types.Type, int) {
	rt := llScalar(tileir.ScalarOf(t))
	return rt, numel(shapeInts(t)) * byteSize(storableType(rt))
}

// tmaLoad lowers tt.descriptor_load on a TMA descriptor.
func (g *gen) tmaLoad(op *tileir.Op) error {
	res := op.Results[0]
	coords, err := g.tmaCoords(op, op.Operands[1:])
	if err != nil {
		return err
	}
	rt, bytes := tmaBlock(res.Type)
	g.smemBarrier() // earlier users of the scratch buffer are done
	box := g.sharedBase(bytes)
	g.isa.TMA().Load(g.tid, g.tmaBarrier, box, g.vals[op.Operands[0]][0], coords, bytes)
	g.vals[res] = g.readScratch(g.linearIndex(g.layoutOf(res), nil, nil), rt, bytes)
	return nil
}

// tmaStore lowers tt.descriptor_store on a TMA descriptor.
func (g *gen) tmaStore(op *tileir.Op) error {
	v := op.Operands[1]
	coords, err := g.tmaCoords(op, op.Operands[2:])
	if err != nil {
		return err
	}
	rt, bytes := tmaBlock(v.Type)
	l := g.layoutOf(v)
	g.smemBarrier()
	g.writeScratch([][]value.Value{g.vals[v]}, []index{g.linearIndex(l, nil, nil)}, storableType(rt), bytes, g.owner(l))
	tma := g.isa.TMA()
	tma.FenceShared()
	g.barrier()
	tma.Store(g.tid, g.vals[op.Operands[0]][0], g.sharedBase(bytes), coords)
	return nil
}

// tensorMaps are the tensor maps of the kernel's host descriptor parameters on a TMA
// target (nil elsewhere): a swizzled slab where the loads through it feed warpgroup
// dots from their pipeline's stages (swizzledMaps), else the block without swizzle.
func (g *gen) tensorMaps() []TensorMap {
	if g.isa.TMA() == nil {
		return nil
	}
	var out []TensorMap
	for _, a := range g.tf.Args() {
		d, ok := a.Type.(*tileir.TensorDescType)
		if !ok {
			continue
		}
		if m, ok := g.swizzledMaps[a]; ok {
			out = append(out, m)
			continue
		}
		out = append(out, TensorMap{Box: shapeInts(d.Block())})
	}
	return out
}
