package tileir

import "testing"

func TestFoldIntOps(t *testing.T) {
	for _, c := range []struct {
		name string
		x, y int64
		bits int
		want int64
		ok   bool
	}{
		{"arith.divsi", -7, 2, 32, -3, true},
		{"arith.remsi", -7, 2, 32, -1, true},
		{"arith.floordivsi", -7, 2, 32, -4, true},
		{"arith.ceildivsi", 7, 2, 32, 4, true},
		{"arith.ceildivui", 7, 2, 32, 4, true},
		{"arith.divui", -1, 2, 32, 0x7FFFFFFF, true},
		{"arith.remui", -1, 10, 8, 5, true}, // 255 % 10
		{"arith.divsi", -2147483648, -1, 32, 0, false},
		{"arith.divui", 1, 0, 32, 0, false},
		{"arith.shrsi", -8, 1, 32, -4, true},
		{"arith.shrui", -8, 28, 32, 15, true},
		{"arith.shli", 1, 32, 32, 0, false},
		{"arith.maxui", -1, 1, 16, -1, true},
		{"arith.minsi", -1, 1, 16, -1, true},
	} {
		got, ok := foldIntOp(c.name, []int64{c.x, c.y}, c.bits)
		if ok != c.ok || ok && normInt(got, c.bits) != normInt(c.want, c.bits) {
			t.Errorf("%s(%d, %d) on i%d = %d, %v; want %d, %v", c.name, c.x, c.y, c.bits, got, ok, c.want, c.ok)
		}
	}
}

func TestFoldCmpAndCasts(t *testing.T) {
	m := &Module{}
	f := m.NewFunc("k", "public", nil, nil)
	b := NewBuilder(f)
	i8 := func(v int64) *Value { return b.ConstInt(v, I8) }
	f32 := func(v float64) *Value { return b.ConstFloat(v, F32) }
	checks := []struct {
		v    *Value
		want string
	}{
		{b.CmpI("ult", i8(-1), i8(1)), "false"},
		{b.CmpI("slt", i8(-1), i8(1)), "true"},
		{b.CmpF("une", f32(1), f32(1)), "false"},
		{b.CmpF("uno", f32(1), b.ConstFloat(0, F32)), "false"},
		{b.Cast("arith.extui", i8(-1), I32), "255 : i32"},
		{b.Cast("arith.extsi", i8(-1), I32), "-1 : i32"},
		{b.Cast("arith.trunci", b.ConstInt(511, I32), I8), "-1 : i8"},
		{b.Cast("arith.uitofp", i8(-1), F32), "2.550000e+02 : f32"},
		{b.Cast("arith.fptosi", f32(-2.5), I32), "-2 : i32"},
		{b.Cast("arith.bitcast", f32(1), I32), "1065353216 : i32"},
		{b.Cast("arith.truncf", f32(1.0/3), F16), "3.332520e-01 : f16"},
		{b.Splat(i8(3), []int64{4}), "dense<3> : tensor<4xi8>"},
	}
	b.Return()
	if err := Run(m, []string{"fold"}, true); err != nil {
		t.Fatal(err)
	}
	consts := map[string]bool{}
	f.Walk(func(op *Op) bool {
		if op.Name == "arith.constant" {
			consts[op.Attr("value").String()] = true
		}
		return true
	})
	for _, c := range checks {
		if !consts[c.want] {
			t.Errorf("no folded constant %s in\n%s", c.want, m)
		}
	}
}
