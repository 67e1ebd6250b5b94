package nvidia

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/tileir"
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

// BuildMap builds the map as Triton 3.6 does: warp 0 zeroes the staging bytes; thread 0
// sets each field with tensormap.replace (box dimensions and element strides from
// registers, no interleave); warp 0 copies the map to global memory with
// tensormap.cp_fenceproxy and fences it for the tensor-map proxy (with the bulk-group
// commit and wait that Triton adds for a ptxas bug); the block then synchronizes.
// Global strides are in bytes: Triton writes the byte stride over 16 for PTX 8.5 and
// earlier, for the ptxas of those CUDA releases, but the CUDA 13 driver compiling
// gotriton's PTX 8.4 takes bytes (measured on an H100: the shifted strides misplace rows).
func (t tma) BuildMap(tid, smem, gmap value.Value, m isa.TensorMapSpec) {
	var b strings.Builder
	b.WriteString(`{
.reg .pred p;
.reg .pred w;
.reg .b32 a;
.reg .b32 v;
setp.lt.u32 w, $0, 32;
setp.eq.u32 p, $0, 0;
shl.b32 a, $0, 2;
add.u32 a, a, $1;
@w st.shared.b32 [a], 0;
bar.warp.sync -1;
@p tensormap.replace.tile.global_address.shared::cta.b1024.b64 [$1], $3;
`)
	replace := func(field, format string, args ...any) {
		fmt.Fprintf(&b, "@p tensormap.replace.tile.%s.shared::cta.b1024.%s\n", field, fmt.Sprintf(format, args...))
	}
	rank := len(m.Dims)
	replace("rank", "b32 [$1], %d;", rank-1)
	for i, n := range m.Box {
		fmt.Fprintf(&b, "mov.b32 v, %d;\n", n)
		replace("box_dim", "b32 [$1], %d, v;", i)
	}
	args := []value.Value{tid, smem, gmap, m.Base}
	for i, d := range m.Dims {
		replace("global_dim", "b32 [$1], %d, $%d;", i, len(args))
		args = append(args, d)
	}
	for i, s := range m.Strides {
		replace("global_stride", "b64 [$1], %d, $%d;", i, len(args))
		args = append(args, s)
	}
	b.WriteString("mov.b32 v, 1;\n")
	for i := range rank {
		replace("element_stride", "b32 [$1], %d, v;", i)
	}
	replace("elemtype", "b32 [$1], %d;", mapElemType(m.Elem))
	replace("interleave_layout", "b32 [$1], 0;")
	mode := 0 // none; 32, 64, 128 bytes: 1, 2, 3
	if m.Swizzle > 0 {
		mode = bits.TrailingZeros(uint(m.Swizzle)) - 4
	}
	replace("swizzle_mode", "b32 [$1], %d;", mode)
	fill := 0
	if m.NaNFill {
		fill = 1
	}
	replace("fill_mode", "b32 [$1], %d;", fill)
	b.WriteString(`@w tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [$2], [$1], 128;
@w fence.proxy.tensormap::generic.acquire.gpu [$2], 128;
@w cp.async.bulk.commit_group;
@w cp.async.bulk.wait_group.read 0;
}`)
	cons := "r,r,l,l" + strings.Repeat(",r", rank) + strings.Repeat(",l", len(m.Strides)) + ",~{memory}"
	t.b.Asm(types.Void, b.String(), cons, args...)
	t.Barrier()
}

// mapElemType is the tensor map's element type in PTX's tensormap.replace .elemtype
// numbering (Triton's TMA_ELEMENT_TYPES; not CUtensorMapDataType's, which numbers f64
// and bf16 8 and 9) for elements of type e: the float types by name, integers unsigned
// by size.
func mapElemType(e tileir.Scalar) int {
	switch e {
	case tileir.F16:
		return 6
	case tileir.F32:
		return 7
	case tileir.F64:
		return 9
	case tileir.BF16:
		return 10
	}
	switch e.Bits() {
	case 16:
		return 1
	case 32:
		return 2
	case 64:
		return 4
	}
	return 0 // 8-bit
}
