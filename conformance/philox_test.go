package conformance

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"
)

// TestPhiloxGolden checks Rand and RandInt bit for bit against what Triton 3.6 computed
// on an H200 (testdata/philox_golden.json: tl.rand and tl.randint at offsets 0..1023 for
// three seeds).
func TestPhiloxGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/philox_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden map[string]struct {
		RandBits []uint32 `json:"rand_f32_bits"`
		RandInt  []uint32 `json:"randint_u32"`
	}
	if err := json.Unmarshal(raw, &golden); err != nil {
		t.Fatal(err)
	}
	if len(golden) == 0 {
		t.Fatal("no seeds in the golden file")
	}
	for key, g := range golden {
		seed, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.RandBits) == 0 || len(g.RandInt) != len(g.RandBits) {
			t.Fatalf("seed %d: malformed golden data", seed)
		}
		bad := 0
		for i := range g.RandBits {
			if got := RandBits(seed, int32(i)); got != g.RandBits[i] {
				bad++
				if bad <= 3 {
					t.Errorf("seed %d offset %d: rand bits %#x, want %#x", seed, i, got, g.RandBits[i])
				}
			}
			if got := RandInt(seed, int32(i)); got != g.RandInt[i] {
				bad++
				if bad <= 3 {
					t.Errorf("seed %d offset %d: randint %#x, want %#x", seed, i, got, g.RandInt[i])
				}
			}
		}
		if bad > 0 {
			t.Errorf("seed %d: %d mismatches", seed, bad)
		}
	}
}
