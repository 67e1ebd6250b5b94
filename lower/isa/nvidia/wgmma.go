package nvidia

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// planWGMMA returns Triton 3.6's wgmma plan (its MMA v3, AccelerateMatmul) for dot d on
// sm_90a, or false where it takes mma.sync: a 2-D dot, warps a multiple of 4, M a
// multiple of 64 and N of 16, f16, bf16, tf32, fp8 (into f32 only with a
// max_num_imprecise_acc of at least 32) or int8 inputs, and K at least one instruction's.
// The instruction's N is the largest that divides the dot's N without exceeding its share
// of the warps (mmaVersionToInstrShape); warps go to M first (warpsPerTileV3), all of
// them when the dot heads a chain. A comes from registers when aFromRegs.
func (n *ISA) planWGMMA(d isa.Dot, aFromRegs bool) (isa.MMAPlan, bool) {
	fp8 := func(s tileir.Scalar) bool { return wgmmaFP8[s] != "" }
	var in string
	switch {
	case d.A == tileir.F16 || d.A == tileir.BF16:
		in = d.A.String()
	case fp8(d.A):
		in = wgmmaFP8[d.A]
	case d.A == tileir.F32 && d.InputPrecision == "tf32":
		in = "tf32"
	case d.A == tileir.I8:
		in = "s8"
	default:
		return isa.MMAPlan{}, false
	}
	if n.noWGMMA || d.B != d.A && !(fp8(d.A) && fp8(d.B)) || d.Batched || n.numWarps%4 != 0 || d.M%64 != 0 || d.N%16 != 0 ||
		fp8(d.A) && d.C == tileir.F32 && d.MaxNumImpreciseAcc < 32 || !n.hasWGMMA(d.A, d.C) {
		return isa.MMAPlan{}, false
	}
	bits := d.A.Bits()
	p := isa.MMAPlan{K: 256 / bits, KWidth: 32 / bits, OperandReg: types.I32, Acc: d.C, WarpGroup: true,
		Operand: [2]tileir.Scalar{d.A, d.B}, ARegs: aFromRegs}
	if d.K < int64(p.K) {
		return isa.MMAPlan{}, false
	}
	p.PartialK = n.partialK(d)
	instrN := wgmmaN(d, n.numWarps)
	warps := []int{4, 1}
	if d.ChainHead {
		warps = []int{n.numWarps, 1}
	}
	for warps[0]*warps[1] < n.numWarps {
		if d.M > int64(16*warps[0]) {
			warps[0] *= 2
		} else {
			warps[1] *= 2
		}
	}
	p.Layout = wgmmaLayout(p.KWidth, p.K, instrN, warps)
	inB := in
	if fp8(d.B) {
		inB = wgmmaFP8[d.B]
	}
	acc := map[tileir.Scalar]string{tileir.F32: "f32", tileir.F16: "f16", tileir.I32: "s32"}[d.C]
	// int8 sums wrap, as Triton's wgmma has no .satfinite (its mma.sync does)
	p.Instr = fmt.Sprintf("wgmma.mma_async.sync.aligned.m64n%dk%d.%s.%s.%s", instrN, p.K, acc, in, inB)
	return p, true
}

// wgmmaFP8 are wgmma's names of the fp8 types it reads.
var wgmmaFP8 = map[tileir.Scalar]string{tileir.F8E4M3FN: "e4m3", tileir.F8E5M2: "e5m2"}

// wgmmaN is the instruction N of Triton's mmaVersionToInstrShape for MMA v3: the largest
// multiple of 8 up to 256 (of 16 up to 224 for int8, and 24) that divides N and is at
// most N over the warps left after one per 16 rows of M.
func wgmmaN(d isa.Dot, numWarps int) int {
	mWarps := max(int(d.M)/16, 1)
	nWarps := max(numWarps/mWarps, 1)
	maxN := max(int(d.N)/nWarps, 8)
	for n := 256; n >= 8; n -= 8 {
		if d.A == tileir.I8 && (n > 224 || n%16 != 0 && n != 24 && n != 8) {
			continue
		}
		if int(d.N)%n == 0 && n <= maxN {
			return n
		}
	}
	return 8
}

// wgmmaLayout is the geometry of wgmma.mma_async m64nNk(8·kWidth) as Triton's
// nvidia_mma version 3 layout gives it, per warp: the warp's 16 rows of the
// warpgroup's 64. A's registers (where A comes from registers) are mma.sync's A
// fragment; the accumulators repeat mma.sync's over N in steps of 8: register i holds row
// g + 8·(i/2 % 2), column 8·(i/4) + 2t + i%2.
func wgmmaLayout(kWidth, k, instrN int, warps []int) isa.MMALayout {
	l := mmaLayout(kWidth, warps)
	l.N = instrN
	l.C.Reg = [][2]int{{0, 1}, {8, 0}}
	for c := 8; c < instrN; c *= 2 {
		l.C.Reg = append(l.C.Reg, [2]int{0, c})
	}
	l.B = isa.Fragment{}
	l.Encoding = fmt.Sprintf("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = %%s, instrShape = [16, %d, %d]}>", instrN, k)
	return l
}

// hasWGMMA reports whether the target has wgmma with operands of type in (f32 for
// tf32) and accumulators of type acc.
func (n *ISA) hasWGMMA(in, acc tileir.Scalar) bool {
	for _, s := range n.t.MMA {
		if s.Kind == target.WGMMA && s.In == in.String() && s.Acc == acc.String() {
			return true
		}
	}
	return false
}

// SharedOperand is the NVMMA shared layout Triton gives a wgmma operand: contiguous along
// MN only for 16-bit types (the only ones wgmma transposes) when asked, swizzled by the
// largest of 128, 64 and 32 bytes that the contiguous extent is a multiple of.
func (n *ISA) SharedOperand(p isa.MMAPlan, opIdx, mn, k int, mnContiguous bool) isa.SharedOperand {
	eb := p.Operand[opIdx].Bits() / 8
	s := isa.SharedOperand{MN: mn, K: k, ElemBytes: eb, MNMajor: mnContiguous && eb == 2}
	contig := k * eb
	if s.MNMajor {
		contig = mn * eb
	}
	for _, w := range []int{128, 64, 32} {
		if contig%w == 0 {
			s.Swizzle = w
			break
		}
	}
	return s
}

// FenceAsyncShared emits fence.proxy.async.shared::cta: wgmma reads shared memory
// through the async proxy.
func (n *ISA) FenceAsyncShared() {
	n.b.Asm(types.Void, "fence.proxy.async.shared::cta;", "~{memory}")
}

// swizzleModes are the descriptor's swizzle field by swizzle width.
var swizzleModes = map[int]uint64{128: 1, 64: 2, 32: 3}

// Descriptor builds wgmma's shared memory matrix descriptor: the start address, LBO and
// SBO in 16-byte units in bits 0–13, 16–29 and 32–45, the swizzle mode in bits 62–63.
// SBO steps 8 rows of Swizzle bytes along the strided dimension; LBO steps one slab
// along the contiguous one (K-major operands read within one slab).
func (n *ISA) Descriptor(s isa.SharedOperand, addr value.Value) value.Value {
	rows := s.MN
	if s.MNMajor {
		rows = s.K
	}
	lbo, sbo := uint64(rows*s.Swizzle/16), uint64(8*s.Swizzle/16)
	fields := lbo<<16 | sbo<<32 | swizzleModes[s.Swizzle]<<62
	b := n.b.Block()
	start := b.NewAnd(b.NewLShr(addr, isa.I32(4)), isa.I32(0x3FFF))
	return b.NewOr(b.NewZExt(start, types.I64), constant.NewInt(types.I64, int64(fields)))
}

// AdvanceDescriptor adds bytes/16 to the descriptor's start address.
func (n *ISA) AdvanceDescriptor(d value.Value, bytes int) value.Value {
	if bytes == 0 {
		return d
	}
	return n.b.Block().NewAdd(d, constant.NewInt(types.I64, int64(bytes/16)))
}

// MMAFence has the next wgmma.mma_async open with wgmma.fence.sync.aligned, in the
// same inline asm statement: the register copies that its operands need (a loop's
// accumulators into the instruction's registers) then come before the fence, as PTX
// requires, instead of between it and the instruction.
func (n *ISA) MMAFence() { n.fence = true }

// WarpGroupMMA emits one wgmma.mma_async: with useC the accumulators are outputs tied
// to the inputs c and scale-d a predicate operand (true); without, scale-d is the
// immediate 0 and the accumulators pure outputs, so that nothing writes them between
// the wgmma.fence and the instruction (as Triton emits a dot's first wgmma). A and B
// are not negated, and 16-bit operands are transposed (read MN-major) where their
// layout is.
func (n *ISA) WarpGroupMMA(p isa.MMAPlan, a, b isa.WarpGroupOperand, c []value.Value, useC bool) []value.Value {
	nc := len(c)
	reg, out := "f", types.Type(types.Float)
	if p.Acc != tileir.F32 {
		reg, out = "r", types.I32
	}
	var text strings.Builder
	if n.fence {
		text.WriteString("wgmma.fence.sync.aligned;\n\t")
		n.fence = false
	}
	text.WriteString(p.Instr + " " + regList(0, nc) + ", ")
	cons := strings.Repeat("="+reg+",", nc)
	var args []value.Value
	if p.ARegs {
		text.WriteString(regList(nc, len(a.Regs)))
		cons += strings.Repeat("r,", len(a.Regs))
		args = append(args, a.Regs...)
	} else {
		fmt.Fprintf(&text, "$%d", nc)
		cons += "l,"
		args = append(args, a.Desc)
	}
	fmt.Fprintf(&text, ", $%d", nc+len(args))
	cons += "l"
	args = append(args, b.Desc)
	if useC {
		fmt.Fprintf(&text, ", $%d", nc+len(args))
		cons += ",b"
		args = append(args, constant.NewBool(true))
	} else {
		text.WriteString(", 0")
	}
	switch p.Operand[0] {
	case tileir.F16, tileir.BF16:
		text.WriteString(", 1, 1")
		if !p.ARegs {
			fmt.Fprintf(&text, ", %d", boolIndex(a.Layout.MNMajor))
		}
		fmt.Fprintf(&text, ", %d", boolIndex(b.Layout.MNMajor))
	case tileir.I8:
	default:
		text.WriteString(", 1, 1")
	}
	text.WriteString(";")
	if useC {
		for i := range nc {
			cons += fmt.Sprintf(",%d", i)
		}
		args = append(args, c...)
	}
	call := n.b.Asm(accStruct(out, nc), text.String(), cons, args...)
	return n.extractAll(call, nc)
}

// MMACommit emits wgmma.commit_group.sync.aligned.
func (n *ISA) MMACommit() { n.b.Asm(types.Void, "wgmma.commit_group.sync.aligned;", "~{memory}") }

// MMAWait emits wgmma.wait_group.sync.aligned pending, with the accumulators passed
// through it (outputs tied to inputs), so that every later use of them reads them after
// the wait.
func (n *ISA) MMAWait(acc []value.Value, pending int) []value.Value {
	wait := fmt.Sprintf("wgmma.wait_group.sync.aligned %d;", pending)
	if len(acc) == 0 {
		n.b.Asm(types.Void, wait, "~{memory}")
		return acc
	}
	// one wait per type of accumulator
	var out []value.Value
	for start := 0; start < len(acc); {
		end := start + 1
		for end < len(acc) && acc[end].Type().Equal(acc[start].Type()) {
			end++
		}
		reg := "r"
		if acc[start].Type().Equal(types.Float) {
			reg = "f"
		}
		var cons strings.Builder
		cons.WriteString(strings.Repeat("="+reg+",", end-start))
		for i := range end - start {
			if i > 0 {
				cons.WriteByte(',')
			}
			cons.WriteString(strconv.Itoa(i))
		}
		call := n.b.Asm(accStruct(acc[start].Type(), end-start), wait, cons.String(), acc[start:end]...)
		out = append(out, n.extractAll(call, end-start)...)
		start = end
	}
	return out
}

// accStruct is the struct of n fields of type t.
func accStruct(t types.Type, n int) *types.StructType {
	fields := make([]types.Type, n)
	for i := range fields {
		fields[i] = t
	}
	return types.NewStruct(fields...)
}

// extractAll returns the n fields of the struct call returns.
func (n *ISA) extractAll(call value.Value, count int) []value.Value {
	out := make([]value.Value, count)
	for i := range out {
		out[i] = n.b.Extract(call, i)
	}
	return out
}
