package lower

import (
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
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

// copiesByTMA reports whether loads through descriptor desc are TMA copies: desc is a
// host descriptor parameter on a TMA target or a tensor map the kernel builds.
func (g *gen) copiesByTMA(desc *tileir.Value) bool {
	if _, ok := desc.Type.(*tileir.TensorDescType); !ok || g.isa.TMA() == nil {
		return false
	}
	_, built := g.kernelMaps[desc]
	return built || slices.Contains(g.tf.Args(), desc)
}

// usesTMA reports whether the kernel takes a host tensor descriptor or builds a tensor
// map on a TMA target.
func (g *gen) usesTMA() bool {
	if g.isa.TMA() == nil {
		return false
	}
	if len(g.kernelMaps) > 0 {
		return true
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

// Tensor descriptors made in the kernel (tl.make_tensor_descriptor) on a TMA target are
// tensor maps the kernel builds where it makes them, as Triton 3.6 does: each
// tt.make_tensor_descriptor has isa.MapBytes of the program's global scratch memory
// (the trailing global scratch pointer, programs in linear order), where the ISA writes
// the map (BuildMap) through the shared scratch buffer. Its registers are then the map's
// generic address, the shape and the strides, as a host descriptor's are, and loads and
// stores through it are TMA copies (pipelined and direct as a host descriptor's, where
// it is made outside the loop). A descriptor whose box TMA cannot copy (a dimension over
// 256 elements, elements of other than 1, 2, 4 or 8 bytes, rows of other than a multiple
// of 16 bytes), or that is used other than by loads and stores, keeps
// the masked accesses of blockptr.go.

// planKernelMaps gives each in-kernel descriptor that becomes a tensor map its offset in
// the program's global scratch memory (kernelMaps, globalScratch).
func (g *gen) planKernelMaps() {
	if g.isa.TMA() == nil {
		return
	}
	g.tf.Walk(func(op *tileir.Op) bool {
		if op.Name != "tt.make_tensor_descriptor" || !g.mapsWell(op.Results[0]) {
			return true
		}
		if g.kernelMaps == nil {
			g.kernelMaps = map[*tileir.Value]int{}
		}
		g.kernelMaps[op.Results[0]] = g.globalScratch
		g.globalScratch += isa.MapBytes
		return true
	})
}

// mapsWell reports whether TMA copies the blocks of in-kernel descriptor desc and every
// use of it is a load or store through it.
func (g *gen) mapsWell(desc *tileir.Value) bool {
	t := desc.Type.(*tileir.TensorDescType).Block()
	block, bits := shapeInts(t), tileir.ScalarOf(t).Bits()
	switch bits {
	case 8, 16, 32, 64:
	default:
		return false
	}
	eb := bits / 8
	if len(block) > 5 || block[len(block)-1]*eb%16 != 0 || slices.ContainsFunc(block, func(n int) bool { return n > 256 }) {
		return false
	}
	for _, u := range g.users[desc] {
		if u.Name != "tt.descriptor_load" && u.Name != "tt.descriptor_store" || u.Operands[0] != desc || slices.Index(u.Operands[1:], desc) >= 0 {
			return false
		}
	}
	return true
}

// buildTensorMap lowers tt.make_tensor_descriptor to a tensor map (planKernelMaps): the
// block's box, or the swizzled slab of its direct pipelined loads (swizzleTensorMaps).
func (g *gen) buildTensorMap(op *tileir.Op) error {
	desc := op.Results[0]
	block := desc.Type.(*tileir.TensorDescType).Block()
	elem := tileir.ScalarOf(block)
	rank := len(shapeInts(block))
	m, ok := g.swizzledMaps[desc]
	if !ok {
		m = TensorMap{Box: shapeInts(block)}
	}
	spec := isa.TensorMapSpec{Base: g.vals[op.Operands[0]][0], Elem: elem, Swizzle: m.Swizzle, NaNFill: op.IntAttr("padding") == 2}
	eb := constantI64(int64(elem.Bits() / 8))
	for d := rank - 1; d >= 0; d-- {
		spec.Box = append(spec.Box, m.Box[d])
		spec.Dims = append(spec.Dims, g.vals[op.Operands[1+d]][0])
		if d > 0 { // the stride of dimension d-1, operand 1+rank+d-1
			spec.Strides = append(spec.Strides, g.cur.NewMul(g.vals[op.Operands[rank+d]][0], eb))
		}
	}
	at := g.cur.NewGetElementPtr(types.I8, g.mapScratch, constantI64(int64(g.kernelMaps[desc])))
	gmap := g.cur.NewAddrSpaceCast(at, types.NewPointer(types.I8))
	g.smemBarrier() // earlier users of the scratch buffer are done
	g.isa.TMA().BuildMap(g.tid, g.sharedBase(isa.MapBytes), gmap, spec)
	g.vals[desc] = g.operandRegs(op)
	g.vals[desc][0] = gmap // in place of the base
	return nil
}

// programScratch sets mapScratch, at the kernel's entry, to this program's global
// scratch memory: the trailing scratch pointer plus the program's linear index (x
// fastest) times globalScratch.
func (g *gen) programScratch() {
	var program value.Value = g.isa.ProgramID(2)
	for axis := 1; axis >= 0; axis-- {
		program = g.cur.NewAdd(g.cur.NewMul(program, g.isa.NumPrograms(axis)), g.isa.ProgramID(axis))
	}
	at := g.cur.NewMul(g.sext(program, types.I64), constantI64(int64(g.globalScratch)))
	g.mapScratch = g.cur.NewGetElementPtr(types.I8, g.f.Params[len(g.f.Params)-2], at)
}
