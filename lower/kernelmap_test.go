package lower

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/lower/isa"
)

// TestKernelTensorMaps checks the tensor maps that kernels build for
// tl.make_tensor_descriptor on sm_90a: 128 bytes of global scratch memory per
// descriptor and program, each map written once where the descriptor is made, with the
// swizzle and slab box of the dots' shared layouts where every load through it is a
// direct pipelined one (A and B, 128 bytes: a 64-element fp16 slab) and the block
// unswizzled otherwise (C, stored through); the loads through them pipelined as through
// host descriptors. Without TMA (sm_80) the descriptors stay masked accesses.
func TestKernelTensorMaps(t *testing.T) {
	swizzle := regexp.MustCompile(`swizzle_mode\.shared::cta\.b1024\.b32 \[\$1\], (\d);`)
	boxDim := regexp.MustCompile(`mov\.b32 v, (\d+);\\0A@p tensormap\.replace\.tile\.box_dim\.shared::cta\.b1024\.b32 \[\$1\], (\d), v;`)
	for _, tc := range []struct {
		name          string
		warps, stages int
		swizzles      []string
		boxes         []string // innermost first
		copies        int      // pipelined cp.async.bulk.tensor
	}{
		{"persistent_matmul.matmul_descriptor_persistent_kernel.default", 8, 3,
			[]string{"3", "3", "0"}, []string{"64x128", "64x256", "128x128"}, 3 * 2},
		{"grouped_gemm.grouped_gemm_tma_kernel.default", 4, 3,
			[]string{"3", "3", "0"}, []string{"64x128", "64x128", "128x128"}, 3 * 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ll, md := lowerStages(t, tc.name, tc.warps, tc.stages)
			if md.GlobalScratchSize != 3*128 || md.GlobalScratchAlign != 128 {
				t.Errorf("global scratch %d bytes aligned to %d, want %d and 128", md.GlobalScratchSize, md.GlobalScratchAlign, 3*128)
			}
			if n := strings.Count(ll, "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned"); n != 3 {
				t.Errorf("%d maps written, want 3", n)
			}
			var sw, bx []string
			for _, m := range swizzle.FindAllStringSubmatch(ll, -1) {
				sw = append(sw, m[1])
			}
			for _, m := range boxDim.FindAllStringSubmatch(ll, -1) { // dimension 0, then 1
				if m[2] == "0" {
					bx = append(bx, m[1])
				} else if len(bx) > 0 {
					bx[len(bx)-1] += "x" + m[1]
				}
			}
			if strings.Join(sw, ",") != strings.Join(tc.swizzles, ",") || strings.Join(bx, ",") != strings.Join(tc.boxes, ",") {
				t.Errorf("swizzle modes %v and boxes %v, want %v and %v", sw, bx, tc.swizzles, tc.boxes)
			}
			if n := strings.Count(ll, "@$0 cp.async.bulk.tensor.2d"); n != tc.copies {
				t.Errorf("%d pipelined TMA copies, want %d", n, tc.copies)
			}
		})
	}
	t.Run("sm_80", func(t *testing.T) {
		mod, md, err := Lower(parseTTIR(t, "persistent_matmul.matmul_descriptor_persistent_kernel.default"), mustTarget(t, "cuda:80"), Options{Options: isa.Options{NumWarps: 8}, NumStages: 3})
		if err != nil {
			t.Fatal(err)
		}
		if ll := mod.String(); md.GlobalScratchSize != 0 || strings.Contains(ll, "tensormap") {
			t.Errorf("sm_80: %d bytes of global scratch, tensor maps written: %v", md.GlobalScratchSize, strings.Contains(ll, "tensormap"))
		}
	})
}
