package lower

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// TestWGMMAInstructions checks the wgmma form each dot gets on sm_90a, with the
// instruction N of Triton 3.6's mmaVersionToInstrShape and the warps of its
// warpsPerTileV3, and how many instructions the warp issues (M tiles of 16 rows per warp
// along M, times N tiles, times K steps), between one wgmma.fence and one commit and wait.
func TestWGMMAInstructions(t *testing.T) {
	for _, tc := range []struct {
		dotCase
		want string
		n    int
	}{
		// warps [4, 1]: two M tiles of 64, K/16 = 4
		{dotCase{tileir.F16, tileir.F32, "", []int64{128, 64}, []int64{64, 128}, 4}, "m64n128k16.f32.f16.f16", 2 * 4},
		// warps [8, 1], one M tile of 128 and N = 256 in one instruction
		{dotCase{tileir.F16, tileir.F32, "", []int64{128, 64}, []int64{64, 256}, 8}, "m64n256k16.f32.f16.f16", 4},
		// four warps per 64 rows leave two along N: N = 64/2
		{dotCase{tileir.F16, tileir.F32, "", []int64{64, 32}, []int64{32, 64}, 8}, "m64n32k16.f32.f16.f16", 2},
		{dotCase{tileir.BF16, tileir.F32, "", []int64{64, 64}, []int64{64, 64}, 4}, "m64n64k16.f32.bf16.bf16", 4},
		{dotCase{tileir.F16, tileir.F16, "", []int64{64, 64}, []int64{64, 48}, 4}, "m64n48k16.f16.f16.f16", 4},
		{dotCase{tileir.F32, tileir.F32, "tf32", []int64{64, 32}, []int64{32, 64}, 4}, "m64n64k8.f32.tf32.tf32", 4},
		{dotCase{tileir.F8E4M3FN, tileir.F16, "", []int64{64, 64}, []int64{64, 64}, 4}, "m64n64k32.f16.e4m3.e4m3", 2},
		{dotCase{tileir.I8, tileir.I32, "", []int64{64, 64}, []int64{64, 64}, 4}, "m64n64k32.s32.s8.s8", 2},
	} {
		t.Run(tc.String(), func(t *testing.T) {
			_, text := tc.ptx(t)
			counts := map[string]int{}
			for line := range strings.Lines(text) {
				line = strings.TrimSpace(line)
				for _, p := range []string{"wgmma.mma_async", "wgmma.fence", "wgmma.commit_group", "wgmma.wait_group", "fence.proxy.async", "mma.sync"} {
					if strings.HasPrefix(line, p) {
						counts[p]++
					}
				}
				if strings.HasPrefix(line, "wgmma.mma_async") && !strings.HasPrefix(line, "wgmma.mma_async.sync.aligned."+tc.want+" ") {
					t.Errorf("got %s, want wgmma.mma_async.sync.aligned.%s", line, tc.want)
				}
			}
			want := map[string]int{"wgmma.mma_async": tc.n, "wgmma.fence": 1, "wgmma.commit_group": 1, "wgmma.wait_group": 1, "fence.proxy.async": 1}
			for p, n := range want {
				if counts[p] != n {
					t.Errorf("%d %s, want %d", counts[p], p, n)
				}
			}
			if counts["mma.sync"] != 0 {
				t.Errorf("%d mma.sync, want none", counts["mma.sync"])
			}
		})
	}
}

// TestAsyncDots checks which dots stay in flight across their loop's iterations: the
// matmul's, whose accumulator is only carried (wait_group 1 after each iteration's
// instructions, wait_group 0 after the loop, a double buffer of A's and B's tiles ahead
// of the scratch buffer), and attention's P·V, whose accumulator is rescaled before the
// dot reads it (no wait after it; the next iteration waits, wait_group 0, just before
// the rescale, and the code after the loop; Q·Kᵀ waits for its own at once).
func TestAsyncDots(t *testing.T) {
	for _, tc := range []struct {
		name         string
		wait1, wait0 int
		commits      int
		minShared    int
	}{
		{"matmul.grouped_matmul_kernel.default", 1, 1, 1, 2 * (128*64*2 + 64*256*2)},
		{"attention.attn_fwd_kernel.default", 0, 3, 2, 0},
	} {
		ll, md, err := lowerFileFor(t, tc.name, target.Default)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		w1, w0 := strings.Count(ll, "wgmma.wait_group.sync.aligned 1;"), strings.Count(ll, "wgmma.wait_group.sync.aligned 0;")
		if w1 != tc.wait1 || w0 != tc.wait0 {
			t.Errorf("%s: %d wait_group 1 and %d wait_group 0, want %d and %d", tc.name, w1, w0, tc.wait1, tc.wait0)
		}
		if c := strings.Count(ll, "wgmma.commit_group.sync.aligned;"); c != tc.commits {
			t.Errorf("%s: %d commit_group, want %d", tc.name, c, tc.commits)
		}
		if w1 > 0 && strings.Index(ll, "aligned 1;") > strings.Index(ll, "aligned 0;") {
			t.Errorf("%s: the wait after the loop comes before the one in it", tc.name)
		}
		if md.SharedBytes < tc.minShared {
			t.Errorf("%s: %d bytes of shared memory, want at least %d", tc.name, md.SharedBytes, tc.minShared)
		}
	}
}

// TestDisableMMAv3 checks that DisableMMAv3 (Triton's DISABLE_MMA_V3) sends an sm_90a
// dot that would take wgmma to mma.sync.
func TestDisableMMAv3(t *testing.T) {
	m := dotModule(tileir.F16, tileir.F32, "", []int64{128, 64}, []int64{64, 128}, 0, false)
	for _, disable := range []bool{false, true} {
		mod, _, err := Lower(m, target.Default, Options{Options: isa.Options{NumWarps: 4, DisableMMAv3: disable}})
		if err != nil {
			t.Fatal(err)
		}
		ll := mod.String()
		if w, s := strings.Contains(ll, "wgmma.mma_async"), strings.Contains(ll, "mma.sync"); w == disable || s != disable {
			t.Errorf("DisableMMAv3 %t: wgmma %t, mma.sync %t", disable, w, s)
		}
	}
}

// TestPipelinedLoads checks the software pipeline of the matmul's K loop: with num_stages
// S of at least 2, A's and B's loads become cp.async copies of 16 bytes straight into a
// ring of S stages (S-1 iterations' copies before the loop, one iteration's in it), each
// iteration waits with cp.async.wait_group S-2, and no thread stores an operand tile
// itself. It is not pipelined with S = 1, when the ring exceeds shared memory, or when the loads' vectors are of 2 bytes (the ragged variant's strides
// have no known divisibility), as Triton's pipeliner leaves such loads synchronous.
func TestPipelinedLoads(t *testing.T) {
	halfStores := regexp.MustCompile(`store (<\d+ x )?half>? %[^,]*, (<\d+ x )?half>? addrspace\(3\)\*`)
	const stage = 128*64*2 + 64*256*2 // the 128x256x64 fp16 tiles of A and B
	for _, tc := range []struct {
		name      string
		stages    int
		pipelined bool
	}{
		{"matmul.grouped_matmul_kernel.default", 1, false},
		{"matmul.grouped_matmul_kernel.default", 2, true},
		{"matmul.grouped_matmul_kernel.default", 3, true},
		{"matmul.grouped_matmul_kernel.default", 4, true},  // 192 KiB of ring, the scratch buffer reusing it after the loop
		{"matmul.grouped_matmul_kernel.default", 5, false}, // 240 KiB of ring
		{"matmul.grouped_matmul_kernel.ragged", 3, false},
	} {
		t.Run(fmt.Sprintf("%s/ns%d", tc.name, tc.stages), func(t *testing.T) {
			ll, md := lowerStages(t, tc.name, 8, tc.stages)
			copies, waits := strings.Count(ll, "cp.async.cg.shared.global"), strings.Count(ll, "cp.async.wait_group")
			// the stores before the first wgmma are those of its operand tiles
			stores := len(halfStores.FindAllString(ll[:strings.Index(ll, "wgmma.mma_async")], -1))
			if !tc.pipelined {
				if copies != 0 || waits != 0 || stores == 0 {
					t.Errorf("%d copies, %d waits and %d stores of halves, want none, none and some", copies, waits, stores)
				}
				return
			}
			perIter := stage / 16 / 256 // 16 bytes per thread and copy, 256 threads
			if copies != tc.stages*perIter {
				t.Errorf("%d cp.async, want %d (%d iterations of %d)", copies, tc.stages*perIter, tc.stages, perIter)
			}
			if want := fmt.Sprintf("cp.async.wait_group %d;", tc.stages-2); !strings.Contains(ll, want) {
				t.Errorf("no %q", want)
			}
			if n := strings.Count(ll, "cp.async.wait_group 0;"); tc.stages > 2 && n != 1 {
				t.Errorf("%d cp.async.wait_group 0, want 1 (after the loop)", n)
			}
			if stores != 0 {
				t.Errorf("%d stores of halves: an operand tile is stored by its threads, not copied", stores)
			}
			if md.SharedBytes < tc.stages*stage {
				t.Errorf("%d bytes of shared memory, want at least %d for the ring", md.SharedBytes, tc.stages*stage)
			}
		})
	}
}

// TestPipelinedTMALoads checks the pipeline of loads through host descriptors: the
// attention kernel's K and V boxes (64x64 fp16 each) in every loop (the causal variant
// has two), a ring of S stages with an mbarrier each, initialized before the loop and
// invalidated after it; thread 0 arms a stage with both boxes' bytes, and every
// iteration waits on its stage's phase parity. Q's load, before the loops, is a
// synchronous copy into each loop's buffer for it (mbarrier.try_wait on its arrival's
// state, once per loop).
func TestPipelinedTMALoads(t *testing.T) {
	for _, tc := range []struct {
		name          string
		stages, loops int
	}{
		{"attention.attn_fwd_kernel.default", 3, 1},
		{"attention.attn_fwd_kernel.default", 2, 1},
		{"attention.attn_fwd_kernel.causal", 3, 2},
	} {
		t.Run(fmt.Sprintf("%s/ns%d", tc.name, tc.stages), func(t *testing.T) {
			ll, md := lowerStages(t, tc.name, 4, tc.stages)
			count := func(s string) int { return strings.Count(ll, s) }
			box := 64 * 64 * 2
			for _, c := range []struct {
				what string
				n    int
			}{
				{"mbarrier.init.shared::cta.b64 [$1+", tc.loops * tc.stages},
				{"mbarrier.inval.shared::cta.b64 [$1+", tc.loops * tc.stages},
				{fmt.Sprintf("@$0 mbarrier.arrive.expect_tx.shared::cta.b64 state, [$1], %d;", 2*box), tc.loops * tc.stages},
				{"@$0 cp.async.bulk.tensor.2d", tc.loops * tc.stages * 2},
				{"mbarrier.try_wait.parity", tc.loops},
				{"mbarrier.try_wait.shared::cta.b64 p, [$1], state;", tc.loops},
			} {
				if n := count(c.what); n != c.n {
					t.Errorf("%d of %q, want %d", n, c.what, c.n)
				}
			}
			// the loops' rings share their space: the loops never run at once
			if ring := tc.stages * 2 * box; md.SharedBytes < ring || md.SharedBytes >= ring+tc.stages*2*box {
				t.Errorf("%d bytes of shared memory, want one ring of %d (and less than another ring more)", md.SharedBytes, ring)
			}
		})
	}
}

// lowerStages lowers testdata TTIR name for the default target with num_warps warps
// and num_stages stages.
func lowerStages(t *testing.T, name string, warps, stages int) (string, Metadata) {
	t.Helper()
	mod, md, err := Lower(parseTTIR(t, name), target.Default, Options{Options: isa.Options{NumWarps: warps}, NumStages: stages})
	if err != nil {
		t.Fatal(err)
	}
	return mod.String(), md
}

// TestDirectTMALoads checks the loads through host descriptors that feed warpgroup dots
// from their stages: the kernel's tensor maps are swizzled as the dots' shared layouts
// (128 bytes: 64 fp16 elements per slab), their boxes one slab of the block each, and
// every stage is written by one copy per slab; so is the attention's Q, a loop-invariant
// operand copied once per loop; descriptors stored through keep the block, unswizzled. The scratch
// buffer of the code after the loop reuses the ring (the persistent matmul's 148 KiB,
// not 148 KiB plus its 128x256 fp32 exchange).
func TestDirectTMALoads(t *testing.T) {
	unswizzled := func(box ...int) TensorMap { return TensorMap{Box: box} }
	swizzled := func(box ...int) TensorMap { return TensorMap{Swizzle: 128, Box: box} }
	for _, tc := range []struct {
		name          string
		warps, stages int
		maps          []TensorMap
		copies        int // cp.async.bulk.tensor in the prologue and the loop
		maxShared     int
	}{
		{"attention.attn_fwd_kernel.default", 4, 3,
			[]TensorMap{swizzled(128, 64), swizzled(64, 64), swizzled(64, 64), unswizzled(128, 64)}, 3 * 2, 72 << 10},
		{"attention.attn_fwd_kernel.d128", 8, 3,
			[]TensorMap{swizzled(128, 64), swizzled(64, 64), swizzled(64, 64), unswizzled(128, 128)}, 3 * 4, 136 << 10},
		{"persistent_matmul.matmul_tma_persistent_kernel.default", 8, 3,
			[]TensorMap{swizzled(128, 64), swizzled(256, 64), unswizzled(128, 128)}, 3 * 2, 150 << 10},
	} {
		t.Run(fmt.Sprintf("%s/ns%d", tc.name, tc.stages), func(t *testing.T) {
			ll, md := lowerStages(t, tc.name, tc.warps, tc.stages)
			if !reflect.DeepEqual(md.TensorMaps, tc.maps) {
				t.Errorf("tensor maps %+v, want %+v", md.TensorMaps, tc.maps)
			}
			if n := strings.Count(ll, "@$0 cp.async.bulk.tensor.2d"); n != tc.copies {
				t.Errorf("%d pipelined TMA copies, want %d", n, tc.copies)
			}
			if md.SharedBytes > tc.maxShared {
				t.Errorf("%d bytes of shared memory, want at most %d", md.SharedBytes, tc.maxShared)
			}
		})
	}
}

// TestInvariantOperands checks that a dot operand defined outside its loop (attention's
// Q, operand A of Q·Kᵀ, a TMA load) is copied into shared memory once before each run
// of the loop, not in every iteration, and by TMA in the dot's swizzled layout (one copy
// per 64-element slab), not stored by the threads: the only stores of halves are the 8
// vector stores per thread of O's tile on its way to the TMA store.
func TestInvariantOperands(t *testing.T) {
	halfStores := regexp.MustCompile(`store (<\d+ x )?half>? %[^,]*, (<\d+ x )?half>? addrspace\(3\)\*`)
	for _, tc := range []struct {
		name                string
		warps, loops, slabs int
	}{
		{"attention.attn_fwd_kernel.default", 4, 1, 1},
		{"attention.attn_fwd_kernel.causal", 4, 2, 1},
		{"attention.attn_fwd_kernel.d128", 8, 1, 2},
	} {
		ll, _ := lowerStages(t, tc.name, tc.warps, 3)
		if n := len(halfStores.FindAllString(ll, -1)); n != 8 {
			t.Errorf("%s: %d stores of halves to shared memory, want 8", tc.name, n)
		}
		if n, want := strings.Count(ll, "@p cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$2]"), tc.loops*tc.slabs; n != want {
			t.Errorf("%s: %d copies of Q, want %d", tc.name, n, want)
		}
	}
}

// TestStridedPointers checks that a loop without a pipeline carries the matmul's
// a_ptrs and b_ptrs, each advanced by one scalar per iteration, as one 64-bit offset
// each from their initial pointers (stridedArgs), not one pointer phi per element: with
// num_stages 1, the loop's phis are the accumulator's 128 floats, the induction
// variable and the two offsets.
func TestStridedPointers(t *testing.T) {
	ll, _ := lowerStages(t, "matmul.grouped_matmul_kernel.default", 8, 1)
	phis := map[string]int{}
	for line := range strings.Lines(ll) {
		if _, rest, ok := strings.Cut(line, " = phi "); ok {
			ty, _, _ := strings.Cut(rest, " ")
			phis[ty]++
		}
	}
	want := map[string]int{"float": 128, "i32": 1, "i64": 2}
	if !reflect.DeepEqual(phis, want) {
		t.Errorf("phis by type %v, want %v", phis, want)
	}
}
