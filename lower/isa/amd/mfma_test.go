package amd_test

import (
	"testing"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/lower/isa/amd"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// TestPlanMMA pins the MFMA instruction Triton 3.6's AMD backend picks for each dot type
// on CDNA2 (gfx90a) and CDNA3 (gfx942) (MfmaGroup.cpp's map, with nonKDim 32 for M and N
// of at least 32, else 16), the types the operands become, the accumulators' type, the
// instruction's K, the elements a lane packs and the LLVM type it packs them in; and the
// dots that take the FMA path.
func TestPlanMMA(t *testing.T) {
	e4, e5, e4n, e5n := tileir.F8E4M3FN, tileir.F8E5M2, tileir.F8E4M3FNUZ, tileir.F8E5M2FNUZ
	f16, bf16, f32, f64, i8, i32 := tileir.F16, tileir.BF16, tileir.F32, tileir.F64, tileir.I8, tileir.I32
	dot := func(a, b, c tileir.Scalar, m, n, k int64) isa.Dot { return isa.Dot{A: a, B: b, C: c, M: m, N: n, K: k} }
	plan := func(arch string, d isa.Dot) (isa.MMAPlan, bool) {
		tg, err := target.Parse("hip:" + arch + ":64")
		if err != nil {
			t.Fatal(err)
		}
		return amd.New(nil, tg, isa.Options{NumWarps: 4}).PlanMMA(d)
	}
	for _, tc := range []struct {
		arch       string
		d          isa.Dot
		instr      string
		a, b, acc  tileir.Scalar
		k, kWidth  int
		operandReg string
	}{
		{"gfx942", dot(f16, f16, f32, 128, 128, 64), "f32.32x32x8f16", f16, f16, f32, 8, 4, "<4 x half>"},
		{"gfx942", dot(f16, f16, f16, 16, 64, 32), "f32.16x16x16f16", f16, f16, f32, 16, 4, "<4 x half>"},
		{"gfx90a", dot(f16, f16, f32, 32, 32, 16), "f32.32x32x8f16", f16, f16, f32, 8, 4, "<4 x half>"},
		{"gfx942", dot(bf16, bf16, f32, 64, 32, 32), "f32.32x32x8bf16.1k", bf16, bf16, f32, 8, 4, "<4 x i16>"},
		{"gfx90a", dot(bf16, bf16, f32, 16, 16, 16), "f32.16x16x16bf16.1k", bf16, bf16, f32, 16, 4, "<4 x i16>"},
		{"gfx942", dot(f32, f32, f32, 32, 32, 16), "f32.32x32x2f32", f32, f32, f32, 2, 1, "float"},
		{"gfx90a", dot(f32, f32, f32, 16, 64, 16), "f32.16x16x4f32", f32, f32, f32, 4, 1, "float"},
		{"gfx942", dot(f64, f64, f64, 64, 64, 16), "f64.16x16x4f64", f64, f64, f64, 4, 1, "double"}, // 16 also at 32 and more
		{"gfx942", dot(i8, i8, i32, 32, 32, 32), "i32.32x32x16.i8", i8, i8, i32, 16, 8, "i64"},
		{"gfx942", dot(i8, i8, i32, 16, 32, 32), "i32.16x16x32.i8", i8, i8, i32, 32, 8, "i64"},
		{"gfx90a", dot(i8, i8, i32, 32, 32, 32), "i32.32x32x8i8", i8, i8, i32, 8, 4, "i32"},
		{"gfx90a", dot(i8, i8, i32, 16, 16, 32), "i32.16x16x16i8", i8, i8, i32, 16, 4, "i32"},
		{"gfx942", dot(e4n, e4n, f32, 32, 32, 32), "f32.32x32x16.fp8.fp8", e4n, e4n, f32, 16, 8, "i64"},
		{"gfx942", dot(e4n, e5n, f32, 32, 64, 64), "f32.32x32x16.fp8.bf8", e4n, e5n, f32, 16, 8, "i64"},
		{"gfx942", dot(e5n, e4n, f16, 16, 16, 32), "f32.16x16x32.bf8.fp8", e5n, e4n, f32, 32, 8, "i64"},
		{"gfx942", dot(e5n, e5n, f32, 16, 32, 64), "f32.16x16x32.bf8.bf8", e5n, e5n, f32, 32, 8, "i64"},
		{"gfx942", dot(e4, e5, f32, 32, 32, 32), "f32.32x32x8f16", f16, f16, f32, 8, 4, "<4 x half>"}, // OCP fp8: emulated with f16
		{"gfx90a", dot(e5, e5, f16, 16, 16, 32), "f32.16x16x16f16", f16, f16, f32, 16, 4, "<4 x half>"},
	} {
		p, ok := plan(tc.arch, tc.d)
		if !ok {
			t.Errorf("%s %+v: the FMA path, want %s", tc.arch, tc.d, tc.instr)
			continue
		}
		if p.Instr != "llvm.amdgcn.mfma."+tc.instr || p.Operand != [2]tileir.Scalar{tc.a, tc.b} || p.Acc != tc.acc ||
			p.K != tc.k || p.KWidth != tc.kWidth || p.OperandReg.String() != tc.operandReg || p.PartialK != 0 {
			t.Errorf("%s %+v: %s %v %s K %d kWidth %d %s, want llvm.amdgcn.mfma.%s %v %s K %d kWidth %d %s", tc.arch, tc.d,
				p.Instr, p.Operand, p.Acc, p.K, p.KWidth, p.OperandReg, tc.instr, [2]tileir.Scalar{tc.a, tc.b}, tc.acc, tc.k, tc.kWidth, tc.operandReg)
		}
		if n := p.Layout.M; n != p.Layout.N || (n != 32 && n != 16) || len(p.Layout.C.Lane) != 6 || (1<<len(p.Layout.C.Reg))*64 != n*n {
			t.Errorf("%s %+v: a %dx%d tile with %d accumulators", tc.arch, tc.d, p.Layout.M, p.Layout.N, 1<<len(p.Layout.C.Reg))
		}
	}
	for _, tc := range []struct {
		arch string
		d    isa.Dot
	}{
		{"gfx942", dot(f16, f16, f32, 8, 64, 64)},   // M below 16 (Triton's 4x64 instructions are not lowered)
		{"gfx942", dot(f16, f16, f32, 64, 8, 64)},   // N below 16
		{"gfx942", dot(e4n, e4n, f32, 16, 16, 16)},  // K no multiple of the instruction's 32
		{"gfx942", dot(i8, i8, i32, 32, 32, 8)},     // ... of 16
		{"gfx90a", dot(e4n, e4n, f32, 32, 32, 32)},  // no FNUZ fp8 on CDNA2
		{"gfx942", dot(e4n, e4, f32, 32, 32, 32)},   // FNUZ with OCP
		{"gfx942", dot(f16, bf16, f32, 32, 32, 32)}, // mixed 16-bit types
		{"gfx950", dot(f16, f16, f32, 32, 32, 32)},  // CDNA4's instructions are not lowered
	} {
		if p, ok := plan(tc.arch, tc.d); ok {
			t.Errorf("%s %+v: planned %s, want the FMA path", tc.arch, tc.d, p.Instr)
		}
	}
}

// TestPlanMMANonKDim checks that matrix_instr_nonkdim picks the MFMA instruction's M and N
// as Triton 3.6 enforces it (tutorial 03's HIP configs set 16), and that a dot smaller
// than it keeps the default choice.
func TestPlanMMANonKDim(t *testing.T) {
	tg, err := target.Parse("hip:gfx942:64")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		nonKDim int
		m, n    int64
		instr   string
	}{
		{0, 128, 128, "llvm.amdgcn.mfma.f32.32x32x8f16"},
		{16, 128, 128, "llvm.amdgcn.mfma.f32.16x16x16f16"},
		{32, 64, 32, "llvm.amdgcn.mfma.f32.32x32x8f16"},
		{32, 16, 64, "llvm.amdgcn.mfma.f32.16x16x16f16"},
	} {
		d := isa.Dot{A: tileir.F16, B: tileir.F16, C: tileir.F32, M: tc.m, N: tc.n, K: 64}
		p, ok := amd.New(nil, tg, isa.Options{NumWarps: 8, MatrixInstrNonKDim: tc.nonKDim}).PlanMMA(d)
		if !ok || p.Instr != tc.instr {
			t.Errorf("nonkdim %d, %dx%d: %q (ok %v), want %q", tc.nonKDim, tc.m, tc.n, p.Instr, ok, tc.instr)
		}
	}
}
