package driver

import (
	"slices"
	"testing"
)

func TestEncodeDecodeRoundTrip(t *testing.T) {
	f := []float32{1.5, -2, 3.25e-7}
	raw := Encode(f)
	if len(raw) != 12 || raw[3] != 0x3f || raw[2] != 0xc0 { // 1.5 = 0x3fc00000, little-endian
		t.Fatalf("Encode(%v) = % x", f, raw)
	}
	if got := Decode[float32](raw); !slices.Equal(got, f) {
		t.Fatalf("Decode = %v, want %v", got, f)
	}
	i := []int64{-1, 1 << 40}
	if got := Decode[int64](Encode(i)); !slices.Equal(got, i) {
		t.Fatalf("int64 round trip = %v", got)
	}
}
