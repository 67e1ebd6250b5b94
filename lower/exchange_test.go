package lower

import (
	"slices"
	"testing"

	"github.com/gotriton/gotriton/target"
)

// TestExchangePadding checks the bank-conflict model of convert's shared buffer and the
// padding it picks: an mma accumulator (rows lane/4, columns 2*(lane%4) in each n8 tile)
// converted to the coalesced 8-elements-a-thread layout of its store.
func TestExchangePadding(t *testing.T) {
	tg, err := target.Parse("cuda:90")
	if err != nil {
		t.Fatal(err)
	}
	g := &gen{t: tg}
	cases := []struct {
		name                 string
		src, dst             *linLayout
		size                 int
		rowPadBytes          int
		costBefore, costWith int // writes + reads, in wavefronts of warp 0
	}{
		{
			// 64 two-element stores (8 rows on one bank: 8 wavefronts each unpadded, 1
			// padded) and 16 16-byte loads (4 each).
			name:        "mma to blocked f16 128x256",
			src:         (&mmaEnc{nvidiaPlan(t, 2, []int{8, 1}).Layout}).linear([]int{128, 256}),
			dst:         newBlocked([]int{128, 256}, []int{1, 8}, []int{1, 0}, 8, 32).linear([]int{128, 256}),
			size:        2,
			rowPadBytes: 16, costBefore: 64*8 + 16*4, costWith: 64 + 16*4,
		},
		{
			// A transposition: each warp reads columns, every element of a column on one
			// bank unpadded; rows of 65 words put them on 32 banks, at the price of scalar
			// writes (rows no longer 16-byte aligned).
			name:        "blocked transposed f32 64x64",
			src:         newBlocked([]int{64, 64}, []int{1, 4}, []int{1, 0}, 4, 32).linear([]int{64, 64}),
			dst:         newBlocked([]int{64, 64}, []int{4, 1}, []int{0, 1}, 4, 32).linear([]int{64, 64}),
			size:        4,
			rowPadBytes: 4, costBefore: 16*2 + 16*32, costWith: 64 + 64,
		},
		{
			// Both sides conflict-free already: no padding.
			name:        "blocked 4 to 2 a thread f32 64x64",
			src:         newBlocked([]int{64, 64}, []int{1, 4}, []int{1, 0}, 4, 32).linear([]int{64, 64}),
			dst:         newBlocked([]int{64, 64}, []int{1, 2}, []int{1, 0}, 4, 32).linear([]int{64, 64}),
			size:        4,
			rowPadBytes: 0,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rows := c.src.shape[1]
			strides, numel := g.exchangeStrides(c.src, c.dst, c.size)
			want := []int{rows + c.rowPadBytes/c.size, 1}
			if !slices.Equal(strides, want) || numel != c.src.shape[0]*want[0] {
				t.Fatalf("strides %v, %d elements; want %v, %d", strides, numel, want, c.src.shape[0]*want[0])
			}
			if c.costBefore == 0 {
				return
			}
			plain := []int{rows, 1}
			if got := bankCost(c.src, plain, c.size) + bankCost(c.dst, plain, c.size); got != c.costBefore {
				t.Errorf("unpadded: cost %d, want %d", got, c.costBefore)
			}
			if got := bankCost(c.src, strides, c.size) + bankCost(c.dst, strides, c.size); got != c.costWith {
				t.Errorf("padded: cost %d, want %d", got, c.costWith)
			}
		})
	}
}
