package lower

import (
	"regexp"
	"testing"
)

// TestEqualRegs checks that an elementwise op computes one register per run of equal
// elements: in layer norm's forward kernel, with N a multiple of 16, the masks offs < N
// of the three loops over a row are one compare per vector of 8 fp16 columns (8 per
// thread and mask, as in Triton's PTX), beside each loop's bound. Without runs, the
// where of pass 2 alone would take 64, one per column.
func TestEqualRegs(t *testing.T) {
	ll, _, err := lowerFile(t, "layer_norm.layer_norm_fwd_kernel.default")
	if err != nil {
		t.Fatal(err)
	}
	if n, want := len(regexp.MustCompile(`= icmp slt `).FindAllString(ll, -1)), 3*(1+8); n != want {
		t.Errorf("%d signed compares, want %d", n, want)
	}
}
