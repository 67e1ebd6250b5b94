package nvidia

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
)

// TMA returns the Tensor Memory Accelerator of sm_90 and later, nil before.
func (n *ISA) TMA() isa.TMA {
	if !n.t.HasTMA() {
		return nil
	}
	return tma{n}
}

// tma emits TMA copies as Triton 3.6 does, with the mbarrier protocol of package lower's
// tma.go.
type tma struct{ *ISA }

// DescriptorParam is a 128-byte CUtensorMap passed by value.
func (t tma) DescriptorParam() *ir.Param {
	p := ir.NewParam("", types.NewPointer(types.I8))
	p.Attrs = append(p.Attrs, ir.Byval{Typ: types.NewArray(128, types.I8)}, ir.Align(64), ir.AttrString("nvvm.grid_constant"))
	return p
}

// ScratchStart is 128: TMA copies need 128-byte-aligned shared addresses.
func (t tma) ScratchStart() int { return 128 }

// InitBarrier has thread 0 initialize the mbarrier for every thread of the block and
// fence the initialization for the async proxy; the block then synchronizes.
func (t tma) InitBarrier(tid, bar value.Value) {
	threads := t.numWarps * t.t.WarpSize
	t.b.Asm(types.Void, fmt.Sprintf("{\n.reg .pred p;\nsetp.eq.u32 p, $0, 0;\n@p mbarrier.init.shared::cta.b64 [$1], %d;\n@p fence.mbarrier_init.release.cluster;\n@p fence.proxy.async.shared::cta;\n}", threads),
		"r,r", tid, bar)
	t.Barrier()
}

// operandList is "{$first, $first+1, ...}" for n operands.
func operandList(first, n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("$%d", first+i)
	}
	return "{" + strings.Join(names, ", ") + "}"
}

// Load: thread 0 arms the mbarrier with the box's byte count and issues
// cp.async.bulk.tensor global → shared; every thread arrives on the mbarrier and waits
// for the phase its arrival belongs to.
func (t tma) Load(tid, bar, box, desc value.Value, coords []value.Value, bytes int) {
	rank := len(coords)
	t.tmaWaits++
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
}`, bytes, rank, operandList(4, rank), t.tmaWaits, t.tmaWaits)
	args := append([]value.Value{tid, bar, box, desc}, coords...)
	t.b.Asm(types.Void, text, "r,r,r,l"+strings.Repeat(",r", rank), args...)
}

// FenceShared is fence.proxy.async.shared::cta.
func (t tma) FenceShared() { t.b.Asm(types.Void, "fence.proxy.async.shared::cta;", "") }

// Store: thread 0 issues cp.async.bulk.tensor shared → global and waits until the copy
// has read shared memory.
func (t tma) Store(tid, desc, box value.Value, coords []value.Value) {
	rank := len(coords)
	text := fmt.Sprintf(`{
.reg .pred p;
setp.eq.u32 p, $0, 0;
@p cp.async.bulk.tensor.%dd.global.shared::cta.bulk_group [$1, %s], [$2];
@p cp.async.bulk.commit_group;
@p cp.async.bulk.wait_group.read 0;
}`, rank, operandList(3, rank))
	args := append([]value.Value{tid, desc, box}, coords...)
	t.b.Asm(types.Void, text, "r,l,r"+strings.Repeat(",r", rank), args...)
}

// InitStageBarriers: thread 0 initializes the n mbarriers for one arrival each and
// fences the initialization for the async proxy; the block then synchronizes.
func (t tma) InitStageBarriers(tid, bars value.Value, n int) {
	t.eachBarrier(tid, bars, n, "mbarrier.init.shared::cta.b64 [$1+%d], 1;", "@p fence.mbarrier_init.release.cluster;\n@p fence.proxy.async.shared::cta;\n")
	t.Barrier()
}

// InvalStageBarriers: after a barrier, thread 0 invalidates the n mbarriers.
func (t tma) InvalStageBarriers(tid, bars value.Value, n int) {
	t.Barrier()
	t.eachBarrier(tid, bars, n, "mbarrier.inval.shared::cta.b64 [$1+%d];", "")
}

// eachBarrier has thread tid 0 run instruction format (of the byte offset) on each of
// the n mbarriers from bars, then the instructions after.
func (t tma) eachBarrier(tid, bars value.Value, n int, format, after string) {
	var b strings.Builder
	b.WriteString("{\n.reg .pred p;\nsetp.eq.u32 p, $0, 0;\n")
	for i := range n {
		fmt.Fprintf(&b, "@p "+format+"\n", 8*i)
	}
	b.WriteString(after + "}")
	t.b.Asm(types.Void, b.String(), "r,r", tid, bars)
}

// Expect is mbarrier.arrive.expect_tx.
func (t tma) Expect(pred, bar value.Value, bytes int) {
	t.b.Asm(types.Void, fmt.Sprintf("{\n.reg .b64 state;\n@$0 mbarrier.arrive.expect_tx.shared::cta.b64 state, [$1], %d;\n}", bytes), "b,r", pred, bar)
}

// LoadAsync is cp.async.bulk.tensor global → shared, completing on the mbarrier.
func (t tma) LoadAsync(pred, bar, box, desc value.Value, coords []value.Value) {
	rank := len(coords)
	text := fmt.Sprintf("@$0 cp.async.bulk.tensor.%dd.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, %s], [$3];",
		rank, operandList(4, rank))
	args := append([]value.Value{pred, box, desc, bar}, coords...)
	t.b.Asm(types.Void, text, "b,r,l,r"+strings.Repeat(",r", rank), args...)
}

// WaitPhase spins on mbarrier.try_wait.parity.
func (t tma) WaitPhase(bar, phase value.Value) {
	t.tmaWaits++
	t.b.Asm(types.Void, fmt.Sprintf("{\n.reg .pred p;\ntma_phase_%d:\nmbarrier.try_wait.parity.shared::cta.b64 p, [$0], $1;\n@!p bra tma_phase_%d;\n}", t.tmaWaits, t.tmaWaits),
		"r,r,~{memory}", bar, phase)
}
