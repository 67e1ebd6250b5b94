package lower

import (
	"slices"
	"testing"

	"github.com/gotriton/gotriton/lower/isa"
)

// TestLdmatrixFragments derives, from the PTX ISA's definition of ldmatrix, which operand
// elements each lane's registers receive, given the row addresses the NVIDIA ISA's MatrixRow gives, and
// checks them against the dot operand layout that the mma lowering reads fragments from.
// ISA: lanes 8i..8i+7 give the addresses of rows 0..7 of matrix i; without .trans lane t
// receives in register i row t/4, columns 2(t%4) and 2(t%4)+1 of matrix i; with .trans,
// column t/4 of rows 2(t%4) and 2(t%4)+1. A register holds its first element in its low
// half, as packPairs packs it.
func TestLdmatrixFragments(t *testing.T) {
	ldmatrixRow := nvidiaISA.(isa.MatrixLoader).MatrixRow
	parent := &mmaEnc{nvidiaPlan(t, 2, []int{1, 1}).Layout}
	for _, tc := range []struct {
		opIdx int
		shape []int // one x4 load: a 16×16 A fragment; two K steps of an 8-column B fragment
	}{{0, []int{16, 16}}, {1, []int{32, 8}}} {
		l := nvidiaOperand(t, tc.opIdx, parent, 2).linear(tc.shape)
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
