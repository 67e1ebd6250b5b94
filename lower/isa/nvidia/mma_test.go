package nvidia

import (
	"testing"

	"github.com/llir/llvm/ir/types"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// TestLdmatrixRowTable pins ldmatrixRow to the mma fragment geometry by hand: A's lanes
// 0-7 address rows 0-7 at column 0, 8-15 rows 8-15, 16-23 rows 0-7 at column 8, 24-31
// rows 8-15 at column 8; B's lane l addresses row (K) l.
func TestLdmatrixRowTable(t *testing.T) {
	for _, tc := range []struct{ opIdx, lane, row, col int }{
		{0, 0, 0, 0}, {0, 7, 7, 0}, {0, 8, 8, 0}, {0, 15, 15, 0}, {0, 16, 0, 8}, {0, 23, 7, 8}, {0, 24, 8, 8}, {0, 31, 15, 8},
		{1, 0, 0, 0}, {1, 9, 9, 0}, {1, 31, 31, 0},
	} {
		if r, c := ldmatrixRow(tc.opIdx, tc.lane); r != tc.row || c != tc.col {
			t.Errorf("ldmatrixRow(%d, %d) = (%d, %d), want (%d, %d)", tc.opIdx, tc.lane, r, c, tc.row, tc.col)
		}
	}
}

// TestPlanMMA pins the mma.sync form of each dot type, as Triton 3.6's MMAv2 lowering
// spells it (fp8 widened to f16 on sm_90), and the dots that take the FMA path.
func TestPlanMMA(t *testing.T) {
	const f32Acc = " {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};"
	n := New(nil, target.Default, isa.Options{NumWarps: 4}).(*ISA)
	for _, tc := range []struct {
		d     isa.Dot
		instr string
		plan  plan
	}{
		{isa.Dot{A: tileir.F16, C: tileir.F32, M: 64, N: 64, K: 16}, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" + f32Acc,
			plan{tileir.F16, tileir.F32, 16, 2}},
		{isa.Dot{A: tileir.F16, C: tileir.F16, M: 1, N: 2, K: 32}, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {$0,$1}, {$2,$3,$4,$5}, {$6,$7}, {$8,$9};",
			plan{tileir.F16, tileir.F16, 16, 2}},
		{isa.Dot{A: tileir.BF16, C: tileir.F32, M: 16, N: 8, K: 16}, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" + f32Acc,
			plan{tileir.BF16, tileir.F32, 16, 2}},
		{isa.Dot{A: tileir.F8E5M2, C: tileir.F32, M: 1, N: 2, K: 32}, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" + f32Acc,
			plan{tileir.F16, tileir.F32, 16, 2}},
		{isa.Dot{A: tileir.F8E4M3FN, C: tileir.F16, M: 32, N: 32, K: 32}, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {$0,$1}, {$2,$3,$4,$5}, {$6,$7}, {$8,$9};",
			plan{tileir.F16, tileir.F16, 16, 2}},
		{isa.Dot{A: tileir.F32, C: tileir.F32, M: 32, N: 32, K: 8, InputPrecision: "tf32"}, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" + f32Acc,
			plan{tileir.F32, tileir.F32, 8, 1}},
		{isa.Dot{A: tileir.I8, C: tileir.I32, M: 64, N: 128, K: 128}, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32" + f32Acc,
			plan{tileir.I8, tileir.I32, 32, 4}},
	} {
		p, ok := n.PlanMMA(tc.d)
		if !ok || p.Instr != tc.instr {
			t.Errorf("%+v: %q (%v), want %q", tc.d, p.Instr, ok, tc.instr)
		}
		got := plan{p.Operand[0], p.Acc, p.K, p.KWidth}
		if got != tc.plan || p.Operand[1] != p.Operand[0] || p.OperandReg != types.I32 {
			t.Errorf("%+v: plan %+v, want %+v", tc.d, p, tc.plan)
		}
	}
	for _, d := range []isa.Dot{
		{A: tileir.F32, C: tileir.F32, M: 32, N: 32, K: 32},                           // ieee
		{A: tileir.F32, C: tileir.F32, M: 32, N: 32, K: 32, InputPrecision: "tf32x3"}, // exact
		{A: tileir.BF16, C: tileir.BF16, M: 32, N: 32, K: 32},                         // no bf16 accumulators
		{A: tileir.F16, C: tileir.F16, M: 32, N: 32, K: 8},                            // K below one instruction
		{A: tileir.I8, C: tileir.I32, M: 32, N: 32, K: 16},
		{A: tileir.F64, C: tileir.F64, M: 32, N: 32, K: 32},
	} {
		if p, ok := n.PlanMMA(d); ok {
			t.Errorf("%+v: planned %s, want the FMA path", d, p.Instr)
		}
	}
}

// plan is the part of an isa.MMAPlan that TestPlanMMA pins: the operands' type (both),
// the accumulators', the instruction's K and the operands' packing.
type plan struct {
	operand, acc tileir.Scalar
	k, kWidth    int
}

// TestPartialK pins when Triton 3.6 splits an fp8 dot's accumulation (sm_90's wgmma with
// 32 <= max_num_imprecise_acc <= K) and the run of K of each partial accumulator: the
// limit rounded up to wgmma's K of 32.
func TestPartialK(t *testing.T) {
	dot := func(max int64) isa.Dot {
		return isa.Dot{A: tileir.F8E5M2, C: tileir.F32, M: 64, N: 16, K: 128, MaxNumImpreciseAcc: max}
	}
	sm := func(arch string) target.Target {
		tg, err := target.Parse(arch)
		if err != nil {
			t.Fatal(err)
		}
		return tg
	}
	sm90, sm89, sm100 := sm("cuda:90:32"), sm("cuda:89:32"), sm("cuda:100:32")
	e4 := dot(32)
	e4.A = tileir.F8E4M3FN
	for _, tc := range []struct {
		name  string
		tg    target.Target
		warps int
		d     isa.Dot
		want  int
	}{
		{"32", sm90, 4, dot(32), 32},
		{"e4m3", sm90, 8, e4, 32},
		{"33", sm90, 4, dot(33), 64},
		{"96", sm90, 4, dot(96), 96},
		{"K", sm90, 4, dot(128), 128},
		{"over K", sm90, 4, dot(129), 0},
		{"none given", sm90, 4, dot(1 << 30), 0},
		{"below 32", sm90, 4, dot(16), 0},
		{"zero", sm90, 4, dot(0), 0},
		{"sm_89", sm89, 4, dot(32), 0},
		{"sm_100", sm100, 4, dot(32), 0},
		{"2 warps", sm90, 2, dot(32), 0},
		{"M 32", sm90, 4, isa.Dot{A: tileir.F8E5M2, C: tileir.F32, M: 32, N: 16, K: 128, MaxNumImpreciseAcc: 32}, 0},
		{"N 8", sm90, 4, isa.Dot{A: tileir.F8E5M2, C: tileir.F32, M: 64, N: 8, K: 128, MaxNumImpreciseAcc: 32}, 0},
		{"batched", sm90, 4, isa.Dot{A: tileir.F8E5M2, C: tileir.F32, M: 64, N: 16, K: 128, Batched: true, MaxNumImpreciseAcc: 32}, 0},
		{"f16 acc", sm90, 4, isa.Dot{A: tileir.F8E5M2, C: tileir.F16, M: 64, N: 16, K: 128, MaxNumImpreciseAcc: 32}, 0},
		{"f16 in", sm90, 4, isa.Dot{A: tileir.F16, C: tileir.F32, M: 64, N: 16, K: 128, MaxNumImpreciseAcc: 32}, 0},
	} {
		p, ok := New(nil, tc.tg, isa.Options{NumWarps: tc.warps}).(*ISA).PlanMMA(tc.d)
		if !ok || p.PartialK != tc.want {
			t.Errorf("%s: PartialK %d (planned %v), want %d", tc.name, p.PartialK, ok, tc.want)
		}
	}
}
