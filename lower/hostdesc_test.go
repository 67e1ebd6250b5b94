package lower

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/lower/isa/nvidia"
	"github.com/gotriton/gotriton/target"
)

// TestHostDescriptorABI lowers Triton's TTIR of the persistent TMA matmul, whose three
// host descriptors are parameters, for sm_90 and sm_80. On sm_90 each descriptor is
// Triton 3.6's CUtensorMap by value, followed by its two i32 shapes and two i64 strides;
// the two loads per K step are TMA copies into shared memory completed through one
// mbarrier (initialized once), and the epilogue's two sub-tile stores are TMA copies out
// of shared memory. On sm_80, without TMA, each descriptor is an i8 addrspace(1)* (a
// .u64 global address) and the accesses are scalar (nothing is known of the base's
// alignment).
func TestHostDescriptorABI(t *testing.T) {
	const name = "persistent_matmul.matmul_tma_persistent_kernel.default"
	const tail = "i32 %15, i32 %16, i32 %17, i8 addrspace(1)* %18, i8 addrspace(1)* %19)"
	for _, c := range []struct {
		target, desc string
		counts       map[string]int
	}{
		{"cuda:90", `i8* byval([128 x i8]) align 64 "nvvm.grid_constant"`, map[string]int{
			"mbarrier.init.shared::cta.b64 [$1], ":                                        1, // for 32 × num_warps threads
			"cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes": 2,
			"mbarrier.arrive.expect_tx.shared::cta.b64 state, [$1], 16384;":               1, // A: 128x64 fp16
			"mbarrier.arrive.expect_tx.shared::cta.b64 state, [$1], 32768;":               1, // B: 256x64 fp16
			"cp.async.bulk.tensor.2d.global.shared::cta.bulk_group":                       2,
			"fence.proxy.async.shared::cta;":                                              4, // the mbarrier's, the stores' and the wgmma's
		}},
		{"cuda:80", "i8 addrspace(1)*", map[string]int{"cp.async.bulk": 0, "mbarrier": 0}},
	} {
		ll, md, err := lowerFileFor(t, name, mustTarget(t, c.target))
		if err != nil {
			t.Fatalf("%s: %v", c.target, err)
		}
		var want []string
		for i := 0; i < 15; i += 5 {
			want = append(want, fmt.Sprintf("%s %%%d, i32 %%%d, i32 %%%d, i64 %%%d, i64 %%%d", c.desc, i, i+1, i+2, i+3, i+4))
		}
		sig := "@matmul_tma_persistent_kernel(" + strings.Join(want, ", ") + ", " + tail
		if !strings.Contains(ll, sig) {
			t.Errorf("%s: parameters are not the host-descriptor ABI; the function starts %q", c.target, ll[strings.Index(ll, "@matmul_tma_persistent_kernel("):][:400])
		}
		for text, n := range c.counts {
			if got := strings.Count(ll, text); got != n {
				t.Errorf("%s: %q appears %d times, want %d", c.target, text, got, n)
			}
		}
		if c.target == "cuda:80" {
			if ld, st := widestAccesses(ll); ld != 16 || st != 16 {
				t.Errorf("%s: descriptor accesses of %d/%d bits, want scalar fp16", c.target, ld, st)
			}
		} else if start := nvidia.New(nil, mustTarget(t, c.target), isa.Options{NumWarps: 4}).TMA().ScratchStart(); md.SharedBytes < start+32768 {
			t.Errorf("%s: %d bytes of shared memory, want at least the mbarrier's %d and B's 32768", c.target, md.SharedBytes, start)
		}
	}
}

func mustTarget(t *testing.T, s string) target.Target {
	t.Helper()
	tg, err := target.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// TestHostDescriptorParamsChecked rejects a descriptor parameter that is not followed by
// its shape and strides.
func TestHostDescriptorParamsChecked(t *testing.T) {
	src := `module {
  tt.func public @k(%d: !tt.tensordesc<tensor<16x16xf16>>, %s0: i32, %s1: i64) {
    tt.return
  }
}`
	_, err := lowerSource(t, "k", src)
	if err == nil || !strings.Contains(err.Error(), "shape and stride parameters") {
		t.Errorf("got %v, want an error about the descriptor's shape and strides", err)
	}
}
