package nvidia

import "testing"

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
