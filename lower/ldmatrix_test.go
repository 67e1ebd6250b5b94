package lower

import (
	"slices"
	"testing"
)

// TestLdmatrixFragments derives, from the PTX ISA's definition of ldmatrix, which operand
// elements each lane's registers receive, given the row addresses ldmatrixRow gives, and
// checks them against the dot operand layout that the mma lowering reads fragments from.
// ISA: lanes 8i..8i+7 give the addresses of rows 0..7 of matrix i; without .trans lane t
// receives in register i row t/4, columns 2(t%4) and 2(t%4)+1 of matrix i; with .trans,
// column t/4 of rows 2(t%4) and 2(t%4)+1. A register holds its first element in its low
// half, as packPairs packs it.
func TestLdmatrixFragments(t *testing.T) {
	parent := &mmaEnc{wpc: []int{1, 1}}
	for _, tc := range []struct {
		opIdx int
		shape []int // one x4 load: a 16×16 A fragment; two K steps of an 8-column B fragment
	}{{0, []int{16, 16}}, {1, []int{32, 8}}} {
		l := (&dotOpEnc{opIdx: tc.opIdx, parent: parent, kWidth: 2}).linear(tc.shape)
		for lane := range 32 {
			laneCoord := xorBases(l.lane, lane, 2)
			for i := range 4 {
				for e := range 2 {
					var got []int
					if tc.opIdx == 0 {
						r, c := ldmatrixRow(0, 8*i+lane/4)
						got = []int{r, c + 2*(lane%4) + e}
					} else {
						r, c := ldmatrixRow(1, 8*i+2*(lane%4)+e)
						got = []int{r, c + lane/4}
					}
					// the layout's element: pair i of the fragment (for B, pair i%2 of K step i/2)
					reg, step := 2*i+e, []int{0, 0}
					if tc.opIdx == 1 {
						reg, step = 2*(i%2)+e, []int{16 * (i / 2), 0}
					}
					rc := l.regCoord(reg)
					want := []int{laneCoord[0] ^ rc[0] ^ step[0], laneCoord[1] ^ rc[1] ^ step[1]}
					if !slices.Equal(got, want) {
						t.Errorf("op %d lane %d register %d element %d: ldmatrix gives %v, the layout wants %v", tc.opIdx, lane, i, e, got, want)
					}
				}
			}
		}
	}
}

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
