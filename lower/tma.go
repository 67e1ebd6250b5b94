package lower

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

// Host tensor descriptors on targets with the Tensor Memory Accelerator (sm_90 and later)
// follow Triton 3.6's ABI: the parameter is a 128-byte CUtensorMap passed by value
// (`i8* byval([128 x i8]) align 64 "nvvm.grid_constant"`), and the descriptor's shape
// (i32) and strides (i64) follow it as parameters. Loads and stores through it are TMA
// copies between global memory and the shared scratch buffer, which holds the block
// row-major (the launcher encodes the map without swizzle or interleave, with zero fill):
//
//   - load: thread 0 arms the kernel's mbarrier with the block's byte count and issues
//     cp.async.bulk.tensor global → shared; every thread arrives on the mbarrier and waits
//     for the phase its arrival belongs to, then reads its elements in the result's layout.
//   - store: every thread writes its elements row-major into shared memory and fences them
//     for the async proxy; after a barrier thread 0 issues cp.async.bulk.tensor shared →
//     global and waits until the copy has read shared memory.
//
// The mbarrier sits in the first bytes of global_smem, initialized once at kernel entry
// for all the block's threads; the scratch buffer starts after it (tmaScratchStart). It is
// never invalidated or reinitialized: each use completes one phase, and a thread waits on
// the phase its own arrival returned, so no parity has to be tracked through control flow.

// tmaScratchStart is where the shared scratch buffer starts when the kernel has an
// mbarrier for TMA: TMA copies need 128-byte-aligned shared addresses.
const tmaScratchStart = 128

// hostDescParam is the LLVM parameter of a host tensor descriptor: a CUtensorMap by value
// where the target has TMA, else gotriton's fallback ABI, the tensor's global address.
func (g *gen) hostDescParam() *ir.Param {
	if !g.t.HasTMA() {
		return ir.NewParam("", globalI8Ptr())
	}
	p := ir.NewParam("", types.NewPointer(types.I8))
	p.Attrs = append(p.Attrs, ir.Byval{Typ: types.NewArray(128, types.I8)}, ir.Align(64), ir.AttrString("nvvm.grid_constant"))
	return p
}

// isTensorMap reports whether desc's registers start with a CUtensorMap (a generic
// pointer to the by-value parameter) rather than a global base address.
func (g *gen) isTensorMap(desc *tileir.Value) bool {
	p, ok := g.vals[desc][0].Type().(*types.PointerType)
	return ok && p.AddrSpace == 0
}

// usesTMA reports whether the kernel takes a host tensor descriptor on a TMA target.
func (g *gen) usesTMA() bool {
	if !g.t.HasTMA() {
		return false
	}
	for _, a := range g.tf.Args() {
		if _, ok := a.Type.(*tileir.TensorDescType); ok {
			return true
		}
	}
	return false
}

// initTMABarrier makes the kernel's mbarrier at the start of global_smem: thread 0
// initializes it for every thread of the block and fences the initialization for the
// async proxy, and the block synchronizes before anyone uses it.
func (g *gen) initTMABarrier() {
	g.tmaBarrier = g.sharedBase(0)
	threads := g.opts.NumWarps * g.t.WarpSize
	g.asm(types.Void, fmt.Sprintf("{\n.reg .pred p;\nsetp.eq.u32 p, $0, 0;\n@p mbarrier.init.shared::cta.b64 [$1], %d;\n@p fence.mbarrier_init.release.cluster;\n@p fence.proxy.async.shared::cta;\n}", threads),
		"r,r", g.tid, g.tmaBarrier)
	g.call(barrierIntrinsic, types.Void, i32c(0))
}

// tmaCoords returns the coordinates idx of descriptor access op innermost first, as TMA
// takes them, and their operand list "{$first, $first+1, ...}"; TMA copies 1 to 5
// dimensions.
func (g *gen) tmaCoords(op *tileir.Op, idx []*tileir.Value, first int) ([]value.Value, string, error) {
	if len(idx) < 1 || len(idx) > 5 {
		return nil, "", g.errorf(op, "a TMA copy of rank %d (TMA takes 1 to 5 dimensions)", len(idx))
	}
	coords := make([]value.Value, len(idx))
	names := make([]string, len(idx))
	for i := range idx {
		coords[i] = g.vals[idx[len(idx)-1-i]][0]
		names[i] = fmt.Sprintf("$%d", first+i)
	}
	return coords, "{" + strings.Join(names, ", ") + "}", nil
}

// tmaBlock returns the block's register element type and its size in shared memory.
func tmaBlock(t tileir.Type) (types.Type, int) {
	rt := llScalar(tileir.ScalarOf(t))
	return rt, numel(shapeInts(t)) * byteSize(storableType(rt))
}

// tmaLoad lowers tt.descriptor_load on a CUtensorMap.
func (g *gen) tmaLoad(op *tileir.Op) error {
	res := op.Results[0]
	coords, list, err := g.tmaCoords(op, op.Operands[1:], 4)
	if err != nil {
		return err
	}
	rank := len(coords)
	rt, bytes := tmaBlock(res.Type)
	g.smemBarrier() // earlier users of the scratch buffer are done
	box := g.sharedBase(bytes)
	g.tmaWaits++
	text := fmt.Sprintf(`{
.reg .pred p;
.reg .b64 state;
setp.eq.u32 p, $0, 0;
@p mbarrier.arrive.expect_tx.shared::cta.b64 state, [$1], %d;
@!p mbarrier.arrive.shared::cta.b64 state, [$1];
@p cp.async.bulk.tensor.%dd.shared::cluster.global.mbarrier::complete_tx::bytes [$2], [$3, %s], [$1];
tma_wait_%d:
mbarrier.try_wait.shared::cta.b64 p, [$1], state;
@!p bra tma_wait_%d;
}`, bytes, rank, list, g.tmaWaits, g.tmaWaits)
	args := append([]value.Value{g.tid, g.tmaBarrier, box, g.vals[op.Operands[0]][0]}, coords...)
	g.asm(types.Void, text, "r,r,r,l"+strings.Repeat(",r", rank), args...)
	g.vals[res] = g.readScratch(g.linearIndex(g.layoutOf(res), nil, nil), rt, bytes)
	return nil
}

// tmaStore lowers tt.descriptor_store on a CUtensorMap.
func (g *gen) tmaStore(op *tileir.Op) error {
	v := op.Operands[1]
	coords, list, err := g.tmaCoords(op, op.Operands[2:], 3)
	if err != nil {
		return err
	}
	rank := len(coords)
	rt, bytes := tmaBlock(v.Type)
	l := g.layoutOf(v)
	g.smemBarrier()
	g.writeScratch([][]value.Value{g.vals[v]}, []index{g.linearIndex(l, nil, nil)}, storableType(rt), bytes, g.owner(l))
	g.asm(types.Void, "fence.proxy.async.shared::cta;", "")
	g.barrier()
	box := g.sharedBase(bytes)
	text := fmt.Sprintf(`{
.reg .pred p;
setp.eq.u32 p, $0, 0;
@p cp.async.bulk.tensor.%dd.global.shared::cta.bulk_group [$1, %s], [$2];
@p cp.async.bulk.commit_group;
@p cp.async.bulk.wait_group.read 0;
}`, rank, list)
	args := append([]value.Value{g.tid, g.vals[op.Operands[0]][0], box}, coords...)
	g.asm(types.Void, text, "r,l,r"+strings.Repeat(",r", rank), args...)
	return nil
}
