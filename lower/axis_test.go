package lower

import (
	"slices"
	"testing"

	"github.com/gotriton/gotriton/tileir"
)

// axisKernel declares the values the axis-analysis table tests refer to: %p is a pointer
// with tt.divisibility 16, %s an i32 with nothing known (a ragged stride such as 150) and
// %s16 one divisible by 16.
const axisKernel = `module {
  tt.func public @k(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %s: i32, %s16: i32 {tt.divisibility = 16 : i32}, %n: i32) {
    %c1 = arith.constant 1 : i32
    %c6 = arith.constant 6 : i32
    %c128 = arith.constant 128 : i32
    %pid = tt.get_program_id x : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %r64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %col = tt.expand_dims %r {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %row = tt.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %ss = tt.splat %s : i32 -> tensor<128x1xi32>
    %ss16 = tt.splat %s16 : i32 -> tensor<128x1xi32>
    %col_s = arith.muli %col, %ss : tensor<128x1xi32>
    %col_s16 = arith.muli %col, %ss16 : tensor<128x1xi32>
    %a = tt.broadcast %col_s : tensor<128x1xi32> -> tensor<128x64xi32>
    %a16 = tt.broadcast %col_s16 : tensor<128x1xi32> -> tensor<128x64xi32>
    %b = tt.broadcast %row : tensor<1x64xi32> -> tensor<128x64xi32>
    %off = arith.addi %a, %b : tensor<128x64xi32>
    %off16 = arith.addi %a16, %b : tensor<128x64xi32>
    %pp = tt.splat %p : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
    %ptr = tt.addptr %pp, %off : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
    %ptr16 = tt.addptr %pp, %off16 : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
    %base = arith.muli %pid, %c128 : i32
    %bs = tt.splat %base : i32 -> tensor<128xi32>
    %offs = arith.addi %bs, %r : tensor<128xi32>
    %ns = tt.splat %n : i32 -> tensor<128xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<128xi32>
    %c128s = arith.constant dense<128> : tensor<128xi32>
    %mask128 = arith.cmpi slt, %offs, %c128s : tensor<128xi32>
    %c1s = arith.constant dense<1> : tensor<128xi32>
    %r_c1 = arith.muli %r, %c1s : tensor<128xi32>
    %c4s = arith.constant dense<4> : tensor<128xi32>
    %c6s = arith.constant dense<6> : tensor<128xi32>
    %quo = arith.divsi %offs, %c4s : tensor<128xi32>
    %rem = arith.remsi %offs, %c4s : tensor<128xi32>
    %rem6 = arith.remsi %offs, %c6s : tensor<128xi32>
    %shl = arith.shli %r, %c4s : tensor<128xi32>
    %s_c6 = arith.muli %s16, %c6 : i32
    %sub = arith.subi %offs, %bs : tensor<128xi32>
    %rsub = arith.subi %bs, %r : tensor<128xi32>
    tt.return
  }
}`

func TestAxisInfoRules(t *testing.T) {
	m, err := tileir.Parse("axis", axisKernel)
	if err != nil {
		t.Fatal(err)
	}
	f := m.Funcs[0]
	a := analyzeAxes(f)
	byName := map[string]*axisInfo{}
	f.Walk(func(op *tileir.Op) bool {
		for _, r := range op.Results {
			byName[r.Hint] = a.get(r)
		}
		return true
	})
	const M = maxDiv
	for _, tc := range []struct {
		name                   string
		contig, div, constancy []int64
	}{
		{"r", []int64{128}, []int64{M}, []int64{1}},
		// expand_dims: the new dimension of a contiguous range is divisible by 1 only
		// ([0, 1, 2, ...] is not a column of multiples of 2^62).
		{"col", []int64{128, 1}, []int64{M, 1}, []int64{1, 1}},
		{"row", []int64{1, 64}, []int64{1, M}, []int64{1, 1}},
		// range * unknown stride: divisible by 1 (Triton treats a contiguous operand's
		// divisibility as 1 in a product), not by 2^62 * 1.
		{"col_s", []int64{1, 1}, []int64{1, 1}, []int64{1, 1}},
		{"col_s16", []int64{1, 1}, []int64{16, 16}, []int64{1, 1}},
		{"a", []int64{1, 1}, []int64{1, 1}, []int64{1, 64}},
		// The root failure: rows * 150 + cols has divisibility 1 along the columns, so a
		// pointer built from it is only 2-byte aligned and accesses stay scalar.
		{"off", []int64{1, 64}, []int64{1, 1}, []int64{1, 1}},
		{"ptr", []int64{1, 64}, []int64{2, 2}, []int64{1, 1}},
		{"off16", []int64{1, 64}, []int64{1, 16}, []int64{1, 1}},
		// With a stride divisible by 16, every row starts 32-byte aligned: 16-byte vectors.
		{"ptr16", []int64{1, 64}, []int64{2, 16}, []int64{1, 1}},
		{"base", []int64{1}, []int64{128}, []int64{1}},
		{"offs", []int64{128}, []int64{128}, []int64{1}},
		// A mask against an unknown bound is constant over runs of 1 only; against 128,
		// over runs that no multiple of 128 straddles.
		{"mask", []int64{1}, []int64{1}, []int64{1}},
		{"mask128", []int64{1}, []int64{1}, []int64{128}},
		{"r_c1", []int64{128}, []int64{M}, []int64{1}},
		{"quo", []int64{1}, []int64{1}, []int64{4}},
		{"rem", []int64{4}, []int64{4}, []int64{1}},
		{"rem6", []int64{2}, []int64{2}, []int64{1}},
		{"shl", []int64{1}, []int64{16}, []int64{1}},
		{"s_c6", []int64{1}, []int64{32}, []int64{1}},
		{"sub", []int64{128}, []int64{128}, []int64{1}},
		{"rsub", []int64{1}, []int64{128}, []int64{1}},
	} {
		got, ok := byName[tc.name]
		if !ok {
			t.Errorf("%%%s: no such value", tc.name)
			continue
		}
		if !slices.Equal(got.contig, tc.contig) || !slices.Equal(got.div, tc.div) || !slices.Equal(got.constancy, tc.constancy) {
			t.Errorf("%%%s: contiguity %v divisibility %v constancy %v, want %v %v %v",
				tc.name, got.contig, got.div, got.constancy, tc.contig, tc.div, tc.constancy)
		}
	}
}
