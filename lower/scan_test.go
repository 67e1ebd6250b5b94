package lower

import (
	"slices"
	"testing"

	"github.com/gotriton/gotriton/tileir"
)

// TestScanBits checks which layouts scan in registers: every basis along the axis a unit
// step there alone, one per bit of the coordinate (registers, lanes and warps in any
// order, bases along the other axis and broadcast bases ignored); others take the shared
// memory scan.
func TestScanBits(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    linLayout
		axis int
		want []scanBit // nil: not in registers
	}{
		{"blocked 16x32 axis 1", linLayout{shape: []int{16, 32}, reg: [][]int{{0, 1}, {0, 2}}, lane: [][]int{{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}, warp: [][]int{{4, 0}, {8, 0}}},
			1, []scanBit{{regBasis, 0}, {regBasis, 1}, {laneBasis, 0}, {laneBasis, 1}, {laneBasis, 2}}},
		{"blocked 16x32 axis 0", linLayout{shape: []int{16, 32}, reg: [][]int{{0, 1}, {0, 2}}, lane: [][]int{{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}, warp: [][]int{{4, 0}, {8, 0}}},
			0, []scanBit{{laneBasis, 3}, {laneBasis, 4}, {warpBasis, 0}, {warpBasis, 1}}},
		{"repeated registers above the warps", linLayout{shape: []int{8}, reg: [][]int{{1}, {8 / 2}}, lane: [][]int{{2}}, warp: [][]int{{0}}},
			0, []scanBit{{regBasis, 0}, {laneBasis, 0}, {regBasis, 1}}},
		{"a basis along both axes", linLayout{shape: []int{4, 4}, reg: [][]int{{1, 1}, {2, 0}}, lane: [][]int{{0, 1}, {0, 2}}},
			0, nil},
		{"two bases for one bit (replicated)", linLayout{shape: []int{4}, reg: [][]int{{1}, {2}}, lane: [][]int{{1}}},
			0, nil},
		{"a missing bit", linLayout{shape: []int{4}, reg: [][]int{{1}}, lane: [][]int{{0}}},
			0, nil},
		{"length one", linLayout{shape: []int{1, 8}, reg: [][]int{{0, 1}}},
			0, []scanBit{}},
	} {
		got, ok := scanBits(&tc.l, tc.axis)
		if ok != (tc.want != nil) || ok && !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v %t, want %v", tc.name, got, ok, tc.want)
		}
	}
}

// TestCommutativeCombiner checks which scan combiners scanRegisters may call with its
// operands in either order (no selects between the sibling blocks' totals): the
// cumsum's addf and the cumprod's mulf, not the affine recurrence's pair.
func TestCommutativeCombiner(t *testing.T) {
	m := parseTTIR(t, "language_features.scan_kernel.default")
	var got []bool
	m.Funcs[0].Walk(func(op *tileir.Op) bool {
		if op.Name == "tt.scan" {
			got = append(got, commutativeCombiner(op.Regions[0].Entry()))
		}
		return true
	})
	if want := []bool{true, true, false}; !slices.Equal(got, want) {
		t.Errorf("commutative combiners %v, want %v", got, want)
	}
}
