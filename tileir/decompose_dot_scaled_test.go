package tileir

import (
	"strings"
	"testing"
)

// dotScaledSpec describes one tt.dot_scaled for the tests: operand types, scales (nil for
// None), formats and flags.
type dotScaledSpec struct {
	name                 string
	a, aScale, b, bScale Type
	fa, fb               string
	fastMath             bool
	lhsKPack, rhsKPack   bool
	acc                  Type // the accumulator's and result's type when not the product's
}

// dotScaledFunc appends to m a private function that takes the operands (and accumulator)
// as arguments and returns tt.dot_scaled of them, built as semantic builds it.
func dotScaledFunc(m *Module, s dotScaledSpec) {
	sa, sb := ShapeOf(s.a), ShapeOf(s.b)
	r := len(sa)
	mm, nn := sa[r-2], sb[r-1]
	if s.fb == "e2m1" && !s.rhsKPack {
		nn *= 2
	}
	if s.fa == "e2m1" && !s.lhsKPack {
		mm *= 2
	}
	var out Type = Tensor(append(append([]int64{}, sa[:r-2]...), mm, nn), F32)
	if s.acc != nil {
		out = s.acc
	}
	args := []Type{s.a}
	seg := I32ArrayAttr{1, 0, 1, 0, 1}
	if s.aScale != nil {
		args, seg[1] = append(args, s.aScale), 1
	}
	args = append(args, s.b)
	if s.bScale != nil {
		args, seg[3] = append(args, s.bScale), 1
	}
	args = append(args, out)
	f := m.NewFunc(s.name, "private", args, []Type{out})
	b := NewBuilder(f)
	b.SetLoc("kernel.py", 7, 9)
	op := b.Create("tt.dot_scaled", f.Args(), []Type{out},
		NamedAttr{"a_elem_type", EnumAttr("#tt<scale_dot_elem_type " + s.fa + ">")},
		NamedAttr{"b_elem_type", EnumAttr("#tt<scale_dot_elem_type " + s.fb + ">")},
		NamedAttr{"fastMath", BoolAttr(s.fastMath)},
		NamedAttr{"lhs_k_pack", BoolAttr(s.lhsKPack)},
		NamedAttr{"rhs_k_pack", BoolAttr(s.rhsKPack)},
		NamedAttr{"operandSegmentSizes", seg})
	b.Return(op.Results[0])
}

func t2(m, n int64, e Type) Type    { return Tensor([]int64{m, n}, e) }
func t3(b, m, n int64, e Type) Type { return Tensor([]int64{b, m, n}, e) }

// TestDecomposeDotScaledGolden: what the pass makes of e2m1 operands (lhs and rhs, 2-D and
// 3-D), fp8, bf16 and fp16 ones, scales on either side or both, fastMath both ways.
func TestDecomposeDotScaledGolden(t *testing.T) {
	m := &Module{}
	for _, s := range []dotScaledSpec{
		{name: "e2m1_scaled_x_e4m3", a: t2(16, 32, I8), aScale: t2(16, 2, I8), b: t2(64, 16, F8E4M3FN), fa: "e2m1", fb: "e4m3"},
		{name: "fp16_x_e2m1_scaled_fast_math", a: t2(16, 64, F16), b: t2(32, 16, I8), bScale: t2(16, 2, I8), fa: "fp16", fb: "e2m1", fastMath: true},
		{name: "bf16_scaled_x_e5m2_scaled", a: t2(16, 32, BF16), aScale: t2(16, 1, I8), b: t2(32, 16, F8E5M2), bScale: t2(16, 1, I8), fa: "bf16", fb: "e5m2"},
		{name: "batched_e2m1_x_e2m1", a: t3(2, 16, 32, I8), b: t3(2, 32, 16, I8), fa: "e2m1", fb: "e2m1"},
	} {
		s.lhsKPack, s.rhsKPack = true, true
		dotScaledFunc(m, s)
	}
	before := m.String()
	if err := DecomposeDotScaled(m); err != nil {
		t.Fatal(err)
	}
	if err := Verify(m); err != nil {
		t.Fatal(err)
	}
	after := m.String()
	if strings.Contains(after, "tt.dot_scaled") {
		t.Fatalf("tt.dot_scaled left:\n%s", after)
	}
	golden(t, "passes/decompose_dot_scaled.golden", "// before\n"+before+"// after decompose_dot_scaled\n"+after)
	roundTrip(t, "decompose_dot_scaled", after)
	if err := Run(m, []string{"decompose_dot_scaled"}, true); err != nil || m.String() != after {
		t.Fatalf("not idempotent (%v):\n%s", err, m.String())
	}
}

// TestDecomposeDotScaledErrors: what Triton 3.6 cannot decompose either is an error at the
// op, and the pass table's entry leaves such an op in place.
func TestDecomposeDotScaledErrors(t *testing.T) {
	base := dotScaledSpec{name: "f", a: t2(16, 32, I8), aScale: t2(16, 2, I8), b: t2(64, 16, F8E4M3FN), fa: "e2m1", fb: "e4m3", lhsKPack: true, rhsKPack: true}
	for _, c := range []struct {
		edit func(s *dotScaledSpec)
		want string
	}{
		{func(s *dotScaledSpec) { s.lhsKPack = false },
			"kernel.py:7:9: 'tt.dot_scaled' op: lhs_k_pack=False is not supported: Triton 3.6 decomposes dot_scaled only for operands packed along K on targets without microscaling MMA (sm_80, sm_90), and gotriton lowers no such MMA"},
		{func(s *dotScaledSpec) { s.b, s.fb, s.rhsKPack = t2(64, 8, I8), "e2m1", false },
			"kernel.py:7:9: 'tt.dot_scaled' op: rhs_k_pack=False is not supported: Triton 3.6 decomposes dot_scaled only for operands packed along K on targets without microscaling MMA (sm_80, sm_90), and gotriton lowers no such MMA"},
		{func(s *dotScaledSpec) { s.aScale = t2(16, 4, F8E4M3FN) },
			"kernel.py:7:9: 'tt.dot_scaled' op: lhs_scale must be a tensor of uint8 (e8m0), got tensor<16x4xf8E4M3FN>: Triton 3.6 decomposes no other scale type on targets without microscaling MMA"},
		{func(s *dotScaledSpec) { s.aScale = t2(16, 1, I8) },
			"kernel.py:7:9: 'tt.dot_scaled' op: lhs_scale must be a tensor of shape [16, 2]. Got [16, 1]"},
		{func(s *dotScaledSpec) { s.bScale = t2(64, 2, I8) },
			"kernel.py:7:9: 'tt.dot_scaled' op: rhs_scale must be a tensor of shape [16, 2]. Got [64, 2]"},
		{func(s *dotScaledSpec) {
			s.a, s.aScale, s.b = t3(2, 16, 32, I8), t3(2, 16, 2, I8), t3(2, 64, 16, F8E4M3FN)
		},
			"kernel.py:7:9: 'tt.dot_scaled' op: lhs_scale must be a tensor of shape [16, 2]. Got [2, 16, 2]"},
		{func(s *dotScaledSpec) { s.b = t2(32, 16, F8E4M3FN) },
			"kernel.py:7:9: 'tt.dot_scaled' op: reduction dimensions differ: tensor<16x32xi8> and tensor<32x16xf8E4M3FN> hold 64 and 32 elements along K"},
		{func(s *dotScaledSpec) { s.acc = t2(16, 16, F16) },
			"kernel.py:7:9: 'tt.dot_scaled' op: the accumulator and the result must be tensor<16x16xf32>, got tensor<16x16xf16> and tensor<16x16xf16>"},
		{func(s *dotScaledSpec) { s.b = t2(64, 16, F8E5M2) },
			"kernel.py:7:9: 'tt.dot_scaled' op: rhs must be a tensor of f8E4M3FN for format e4m3, got tensor<64x16xf8E5M2>"},
	} {
		s := base
		c.edit(&s)
		m := &Module{}
		dotScaledFunc(m, s)
		err := DecomposeDotScaled(m)
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
		if err := Run(m, []string{"decompose_dot_scaled"}, false); err != nil || !strings.Contains(m.String(), "tt.dot_scaled") {
			t.Errorf("the pass table's entry removed an unsupported op (%v):\n%s", err, m)
		}
	}
}
