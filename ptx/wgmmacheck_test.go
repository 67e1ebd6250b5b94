package ptx

import (
	"slices"
	"strings"
	"testing"
)

// TestCheckWarpGroupMMA: each hazard of checkWarpGroupMMA on a small function, and the
// same function without it.
func TestCheckWarpGroupMMA(t *testing.T) {
	const mma = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1,%f2,%f3,%f4}, %rd1, %rd2, %p1, 1, 1, 0, 0;"
	const first = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1,%f2,%f3,%f4}, %rd1, %rd2, 0, 1, 1, 0, 0;"
	for _, tc := range []struct {
		name string
		body []string
		want []string // the findings, by line (the body's first line is line 1)
	}{
		{"wait before the read", []string{"wgmma.fence.sync.aligned;", first, "wgmma.commit_group.sync.aligned;", "wgmma.wait_group.sync.aligned 0;", "add.f32 %f5, %f1, %f2;"}, nil},
		{"read in flight", []string{"wgmma.fence.sync.aligned;", first, "wgmma.commit_group.sync.aligned;", "add.f32 %f5, %f1, %f2;", "wgmma.wait_group.sync.aligned 0;"},
			[]string{"line 4: add uses %f1, an accumulator of the wgmma.mma_async at line 2 still in flight (ptxas serializes the function's wgmma)"}},
		{"wait 1 leaves the newest group in flight", []string{"wgmma.fence.sync.aligned;", first, "wgmma.commit_group.sync.aligned;", "wgmma.wait_group.sync.aligned 1;", "mov.f32 %f6, %f3;", "wgmma.wait_group.sync.aligned 0;"},
			[]string{"line 5: mov uses %f3, an accumulator of the wgmma.mma_async at line 2 still in flight (ptxas serializes the function's wgmma)"}},
		{"in flight across the back edge", []string{"mov.f32 %f1, 0f00000000;", "$L__BB0_1:", "mov.f32 %f7, %f1;", "wgmma.fence.sync.aligned;", mma, "wgmma.commit_group.sync.aligned;", "@%p2 bra $L__BB0_1;", "wgmma.wait_group.sync.aligned 0;"},
			[]string{"line 3: mov uses %f1, an accumulator of the wgmma.mma_async at line 5 still in flight (ptxas serializes the function's wgmma)"}},
		{"accumulator written after the fence", []string{"wgmma.fence.sync.aligned;", "mov.f32 %f2, 0f00000000;", mma, "wgmma.commit_group.sync.aligned;", "wgmma.wait_group.sync.aligned 0;"},
			[]string{"line 3: wgmma.mma_async reads %f2, written at line 2 after the last wgmma.fence (PTX wants a wgmma.fence between)"}},
		{"scale-d 0 reads no accumulator", []string{"wgmma.fence.sync.aligned;", "mov.f32 %f2, 0f00000000;", first, mma, "wgmma.commit_group.sync.aligned;", "wgmma.wait_group.sync.aligned 0;"}, nil},
		{"empty group at the loop's exit", []string{"$L__BB0_1:", "wgmma.fence.sync.aligned;", mma, "wgmma.commit_group.sync.aligned;", "wgmma.wait_group.sync.aligned 1;", "@%p2 bra $L__BB0_1;", "wgmma.commit_group.sync.aligned;", "wgmma.wait_group.sync.aligned 0;"},
			[]string{"line 7: wgmma.commit_group closes a group with no wgmma.mma_async on some path (ptxas issues an HGMMA for it)"}},
	} {
		got := checkWarpGroupMMA(tc.body)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, strings.Join(got, "\n     "), strings.Join(tc.want, "\n     "))
		}
	}
}
