package target

import "testing"

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, want, arch string
		warp           int
	}{
		{"cuda:90:32", "cuda:90:32", "sm_90a", 32},
		{"cuda:90", "cuda:90:32", "sm_90a", 32},
		{"cuda:sm_80", "cuda:80:32", "sm_80", 32},
		{"cuda:89:32", "cuda:89:32", "sm_89", 32},
		{"hip:gfx942:64", "hip:gfx942:64", "gfx942", 64},
		{"hip:gfx90a", "hip:gfx90a:64", "gfx90a", 64},
		{"cuda:100:32", "cuda:100:32", "sm_100a", 32},
		{"hip:gfx950:64", "hip:gfx950:64", "gfx950", 64},
	} {
		got, err := Parse(tc.in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.in, err)
		}
		if got.String() != tc.want || got.Arch != tc.arch || got.WarpSize != tc.warp {
			t.Errorf("Parse(%q) = %s (%s, warp %d), want %s (%s, warp %d)", tc.in, got, got.Arch, got.WarpSize, tc.want, tc.arch, tc.warp)
		}
	}
	for _, bad := range []string{"cuda", "cuda:70", "cuda:90:64", "hip:gfx1100", "metal:1", "cuda:x"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", bad)
		}
	}
}

func TestMMA(t *testing.T) {
	if _, ok := Default.HasMMA(MMASync, "f16"); !ok {
		t.Error("sm_90 lacks mma.sync f16")
	}
	if _, ok := mustParse("cuda:80").HasMMA(MMASync, "f8E4M3FN"); ok {
		t.Error("sm_80 has fp8 mma")
	}
}

func TestHasTMA(t *testing.T) {
	for in, want := range map[string]bool{"cuda:80": false, "cuda:89": false, "cuda:90": true, "cuda:100": true, "hip:gfx942": false} {
		if got := mustParse(in).HasTMA(); got != want {
			t.Errorf("%s: HasTMA() = %v, want %v", in, got, want)
		}
	}
}
