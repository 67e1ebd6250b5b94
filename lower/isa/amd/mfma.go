package amd

import (
	"fmt"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/tileir"
)

// mfma is one MFMA instruction as Triton 3.6's MfmaGroup.cpp lists it: its intrinsic
// (llvm.amdgcn.mfma.*), an n×n×k product whose A and B operands hold kBase consecutive
// K elements per lane.
type mfma struct {
	name        string
	n, k, kBase int
}

// mfmaInput is the row of Triton's MFMA map an operand type pair selects: the types the
// operands are converted to, the accumulator type, and the instructions by MFMA version
// (2: CDNA2, gfx90a; 3: CDNA3, gfx942) and n (32, 16).
type mfmaInput struct {
	a, b, acc tileir.Scalar
	instrs    map[int]map[int]mfma
}

// f16Input is the f16 row; OCP fp8 (tl.float8e4nv, tl.float8e5), which CDNA2 and CDNA3
// lack, is widened to f16 and takes it too, as Triton emulates it.
var f16Input = mfmaInput{tileir.F16, tileir.F16, tileir.F32, both(
	mfma{"f32.32x32x8f16", 32, 8, 4}, mfma{"f32.16x16x16f16", 16, 16, 4})}

// both lists instructions that CDNA2 and CDNA3 share.
func both(i ...mfma) map[int]map[int]mfma {
	m := map[int]mfma{}
	for _, x := range i {
		m[x.n] = x
	}
	return map[int]map[int]mfma{2: m, 3: m}
}

// mfmaOf returns the row for operands of types a and b, false when MFMA does not take
// them. Triton's map lists a second bf16 instruction per size for CDNA2 (32x32x4bf16_1k,
// 16x16x8bf16) for a K below the first's; tl.dot's K of at least 16 never selects it.
func mfmaOf(a, b tileir.Scalar) (mfmaInput, bool) {
	ocp := func(s tileir.Scalar) bool { return s == tileir.F8E4M3FN || s == tileir.F8E5M2 }
	fnuz := map[tileir.Scalar]string{tileir.F8E4M3FNUZ: "fp8", tileir.F8E5M2FNUZ: "bf8"}
	switch {
	case a != b && !(ocp(a) && ocp(b)) && (fnuz[a] == "" || fnuz[b] == ""):
		return mfmaInput{}, false
	case a == tileir.F64:
		return mfmaInput{a, b, tileir.F64, both(mfma{"f64.16x16x4f64", 16, 4, 1})}, true
	case a == tileir.F32:
		return mfmaInput{a, b, tileir.F32, both(mfma{"f32.32x32x2f32", 32, 2, 1}, mfma{"f32.16x16x4f32", 16, 4, 1})}, true
	case a == tileir.F16 || ocp(a):
		return f16Input, true
	case a == tileir.BF16:
		return mfmaInput{a, b, tileir.F32, both(mfma{"f32.32x32x8bf16.1k", 32, 8, 4}, mfma{"f32.16x16x16bf16.1k", 16, 16, 4})}, true
	case a == tileir.I8:
		return mfmaInput{a, b, tileir.I32, map[int]map[int]mfma{
			2: {32: {"i32.32x32x8i8", 32, 8, 4}, 16: {"i32.16x16x16i8", 16, 16, 4}},
			3: {32: {"i32.32x32x16.i8", 32, 16, 8}, 16: {"i32.16x16x32.i8", 16, 32, 8}},
		}}, true
	case fnuz[a] != "": // CDNA3's native fp8 (tl.float8e4b8, tl.float8e5b16)
		ab := fnuz[a] + "." + fnuz[b]
		return mfmaInput{a, b, tileir.F32, map[int]map[int]mfma{
			3: {32: {"f32.32x32x16." + ab, 32, 16, 8}, 16: {"f32.16x16x32." + ab, 16, 32, 8}},
		}}, true
	}
	return mfmaInput{}, false
}

// mfmaVersion is Triton's MFMA version of the target: 2 for CDNA2, 3 for CDNA3; 0 where
// no MFMA is lowered (gfx950's CDNA4 instructions are not).
func (a *ISA) mfmaVersion() int {
	return map[string]int{"gfx90a": 2, "gfx942": 3}[a.t.Arch]
}

// PlanMMA picks the MFMA instruction of dot d as Triton 3.6's AccelerateAMDMatmul does
// with kpack = 1: n = matrix_instr_nonkdim where the option gives it and M and N are at
// least that, else 32 when M and N are both at least 32 (16 for f64), else 16 when both
// are at least 16; the instruction of that n for the operand types, which K must be a multiple of; accumulators in f32 (i32 for
// int8, f64 for f64) whatever the dot's result type; operands packed kBase to a
// register; warps as its warpsPerTile chooses them; the result in the transposed
// amd_mfma layout. Else the dot takes the FMA path: M or N below 16 (Triton's 4×64 and
// 64×4 instructions are not lowered), a K that is no multiple of the instruction's, or
// types MFMA does not take. An f32 dot with input_precision tf32 takes the f32
// instruction (Triton's CDNA3 xf32 ones are not lowered), which is exact where xf32
// rounds its inputs.
func (a *ISA) PlanMMA(d isa.Dot) (isa.MMAPlan, bool) {
	in, ok := mfmaOf(d.A, d.B)
	if !ok {
		return isa.MMAPlan{}, false
	}
	n := 0
	switch mn := min(d.M, d.N); {
	case a.nonKDim != 0 && mn >= int64(a.nonKDim):
		n = a.nonKDim
	case mn >= 32 && in.acc != tileir.F64:
		n = 32
	case mn >= 16:
		n = 16
	}
	ins, ok := in.instrs[a.mfmaVersion()][n]
	if !ok || d.K%int64(ins.k) != 0 {
		return isa.MMAPlan{}, false
	}
	return isa.MMAPlan{
		Operand:    [2]tileir.Scalar{in.a, in.b},
		Acc:        in.acc,
		K:          ins.k,
		KWidth:     ins.kBase,
		OperandReg: operandReg(in.a, ins.kBase),
		Instr:      "llvm.amdgcn.mfma." + ins.name,
		Layout:     a.mfmaLayout(ins, in.acc, a.mfmaWarps(d, n)),
	}, true
}

// operandReg is the type the MFMA intrinsics take kBase elements of s in: a vector of
// half, of i16 for bf16; f32 and f64 alone; 8-bit elements packed in an i32 or i64.
func operandReg(s tileir.Scalar, kBase int) types.Type {
	switch s {
	case tileir.F16:
		return types.NewVector(uint64(kBase), types.Half)
	case tileir.BF16:
		return types.NewVector(uint64(kBase), types.I16)
	case tileir.F32:
		return types.Float
	case tileir.F64:
		return types.Double
	}
	return isa.IntType(8 * kBase)
}

// mfmaLayout is the geometry of instruction ins, as Triton's amd_mfma layout (transposed,
// one tile per warp) and its dot operands give it, for the CDNA lane mapping: lane l
// holds kBase consecutive K elements of row l%n of A and of column l%n of B, from K
// kBase·(l/n). The instruction is issued with B's register as its first operand and A's
// as its second, so that it computes the tile transposed: lane l then holds row l%n of
// the result, its registers h consecutive columns (h = 4, 1 for f64) from column
// h·(l/n), then the same every h·64/n columns further.
func (a *ISA) mfmaLayout(ins mfma, acc tileir.Scalar, warps []int) isa.MMALayout {
	var A, B, C isa.Fragment
	for i := 1; i < ins.kBase; i *= 2 {
		A.Reg = append(A.Reg, [2]int{0, i})
		B.Reg = append(B.Reg, [2]int{i, 0})
	}
	for i := 1; i < ins.n; i *= 2 {
		A.Lane = append(A.Lane, [2]int{i, 0})
		B.Lane = append(B.Lane, [2]int{0, i})
		C.Lane = append(C.Lane, [2]int{i, 0})
	}
	groups := a.t.WarpSize / ins.n // lanes of one row (of A, B) or column (of C)
	for i := 1; i < groups; i *= 2 {
		A.Lane = append(A.Lane, [2]int{0, ins.kBase * i})
		B.Lane = append(B.Lane, [2]int{ins.kBase * i, 0})
	}
	height, width := 4, ""
	if acc.Bits() == 64 {
		height, width = 1, ", elementBitWidth = 64"
	}
	for i := 1; i < height; i *= 2 {
		C.Reg = append(C.Reg, [2]int{0, i})
	}
	for i := 1; i < groups; i *= 2 {
		C.Lane = append(C.Lane, [2]int{0, height * i})
	}
	for i := height * groups; i < ins.n; i *= 2 {
		C.Reg = append(C.Reg, [2]int{0, i})
	}
	return isa.MMALayout{
		Encoding: fmt.Sprintf("#ttg.amd_mfma<{version = %d, warpsPerCTA = %%s, instrShape = [%d, %d, %d], isTransposed = true%s}>",
			a.mfmaVersion(), ins.n, ins.n, ins.k, width),
		M: ins.n, N: ins.n, A: A, B: B, C: C,
		Warps: warps, WarpsNFirst: true,
	}
}

// mfmaWarps splits the warps over M and N as Triton's warpsPerTile does for an n×n
// instruction: a batched dot puts them all on its batch; the head of a chain of dots (as
// attention's first) all on M, and a tail (the second) on M as far as its tiles go, the
// rest on N; otherwise doubling along M while M has at least twice as many tiles per warp
// as N has (and tiles left), else along N, and swapped when N cannot hold its warps.
func (a *ISA) mfmaWarps(d isa.Dot, n int) []int {
	w := a.numWarps
	switch {
	case d.Batched:
		return []int{w, 1, 1}
	case d.ChainHead:
		return []int{w, 1}
	case d.ChainTail:
		m := min(w, int((d.M+int64(n)-1)/int64(n)))
		return []int{m, w / m}
	}
	M, N := int(d.M), int(d.N)
	ret := []int{1, 1}
	for ret[0]*ret[1] < w {
		if M/(2*n)/ret[0] >= N/n/ret[1] && ret[0] < M/n {
			ret[0] *= 2
		} else {
			ret[1] *= 2
		}
	}
	if ret[1]*n > N {
		return []int{ret[1], ret[0]}
	}
	return ret
}

// MMA emits the plan's llvm.amdgcn.mfma intrinsic on the tile's accumulators, B's
// register first (the transposed layout), with cbsz, abid and blgp 0.
func (a *ISA) MMA(p isa.MMAPlan, x, y, c []value.Value) []value.Value {
	cur := a.b.Block()
	vt := types.NewVector(uint64(len(c)), c[0].Type())
	var acc value.Value = constant.NewUndef(vt)
	for i, v := range c {
		acc = cur.NewInsertElement(acc, v, isa.I32(int64(i)))
	}
	zero := isa.I32(0)
	d := a.b.Call(p.Instr, vt, y[0], x[0], acc, zero, zero, zero)
	out := make([]value.Value, len(c))
	for i := range out {
		out[i] = cur.NewExtractElement(d, isa.I32(int64(i)))
	}
	return out
}
