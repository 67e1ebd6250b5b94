package ptx

import (
	"math"
	"strconv"
	"testing"
)

func TestAppendInt(t *testing.T) {
	xs := []int64{0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 12345, 99999, 100000, 1 << 31, math.MaxInt64, -1, -10, math.MinInt64}
	for _, x := range xs {
		for _, room := range []int{0, 3, 32} {
			b := make([]byte, 2, 2+room)
			b[0], b[1] = 'a', 'b'
			got := string(appendInt(b, x))
			if want := "ab" + strconv.FormatInt(x, 10); got != want {
				t.Errorf("appendInt(%d) with room %d = %q, want %q", x, room, got, want)
			}
		}
	}
}
