package aot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/lower"
)

// TestTensorMapsFromLowering: the lowering's tensor maps (lower.Metadata.TensorMaps) give
// each host descriptor parameter's tensordesc_meta and the C launcher's
// cuTensorMapEncodeTiled call their box and swizzle; without them, each takes its block
// unswizzled.
func TestTensorMapsFromLowering(t *testing.T) {
	tc := launcherCase{"", "testdata/desc_copy.py", "desc_copy_kernel", "desc_copy",
		"tensordesc<fp16[64, 256]>, tensordesc<fp16[64, 256]>, i32, i32, 64, 256", "M / 64, N / 256, 1", 4, 3}
	k := compileCase(t, tc)
	k.Result.Meta.TensorMaps = []lower.TensorMap{{Swizzle: 128, Box: []int{64, 64}}, {Swizzle: 64, Box: []int{64, 32}}}

	md := k.Metadata()
	if got, want := descMetaText(md.TensordescMeta), "swizzle 3 box [64 64]; swizzle 2 box [64 32]"; got != want {
		t.Errorf("tensordesc_meta: %s, want %s", got, want)
	}
	if js := md.JSON(); !strings.Contains(js, `"swizzle": 3,`) || !strings.Contains(js, "\"block_size\": [\n        64,\n        64\n      ]") {
		t.Errorf("metadata JSON:\n%s", js)
	}

	l, err := k.Launcher(tc.outName, tc.grid, &Binary{Data: []byte{0}, Kind: "ptx"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"a box of [64, 64] (outermost first) per copy, 128-byte swizzle", "const cuuint32_t box[2] = {64, 64};", "CU_TENSOR_MAP_SWIZZLE_128B,",
		"a box of [64, 32] (outermost first) per copy, 64-byte swizzle", "const cuuint32_t box[2] = {32, 64};", "CU_TENSOR_MAP_SWIZZLE_64B,",
	} {
		if !strings.Contains(l.C, want) {
			t.Errorf("the launcher lacks %q:\n%s", want, l.C)
		}
	}
	h, c, err := Link(mustParseHeader(t, l.H), "")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"k.c": l.C, "k.h": l.H, "kernels.h": h, "kernels.c": c, "main.c": `#include <stdio.h>
#include "kernels.h"
extern char fake_tensormaps[1024];
int main(void) {
  tt_tensordesc2 src = {0x10000, {64, 512}, {512, 1}}, dst = {0x20000, {64, 512}, {512, 1}};
  printf("launch %d\n%s", (int)desc_copy_default(0, src, dst, 64, 512), fake_tensormaps);
  return 0;
}
`}
	want := `launch 0
encode type 6 rank 2 base 0x10000 dims 512 64 strides 1024 box 64 64 swizzle 3 fill 0
encode type 6 rank 2 base 0x20000 dims 512 64 strides 1024 box 32 64 swizzle 2 fill 0
`
	if out := runC(t, files); out != want {
		t.Errorf("C program printed\n%s\nwant\n%s", out, want)
	}

	k.Result.Meta.TensorMaps = nil // a result that was not lowered
	if got, want := descMetaText(k.Metadata().TensordescMeta), "swizzle 0 box [64 256]; swizzle 0 box [64 256]"; got != want {
		t.Errorf("tensordesc_meta without tensor maps: %s, want %s", got, want)
	}
	if l, err := k.Launcher(tc.outName, tc.grid, &Binary{Data: []byte{0}, Kind: "ptx"}); err != nil || strings.Count(l.C, "CU_TENSOR_MAP_SWIZZLE_NONE,") != 2 || strings.Count(l.C, "box[2] = {256, 64};") != 2 {
		t.Errorf("launcher without tensor maps: %v\n%s", err, l.C)
	}

	for _, c := range []struct {
		tm   lower.TensorMap
		want string
	}{
		{lower.TensorMap{Swizzle: 16, Box: []int{64, 8}}, "parameter 'src_desc': a tensor map swizzle of 16 bytes (TMA: 0, 32, 64 or 128)"},
		{lower.TensorMap{Box: []int{64}}, "parameter 'src_desc': a tensor map box of 1 dimensions for a block of 2"},
	} {
		k.Result.Meta.TensorMaps = []lower.TensorMap{c.tm, {Box: []int{64, 256}}}
		if _, err := k.Launcher(tc.outName, tc.grid, &Binary{Data: []byte{0}, Kind: "ptx"}); err == nil || err.Error() != c.want {
			t.Errorf("tensor map %+v: got error %v, want %s", c.tm, err, c.want)
		}
	}
}

// descMetaText writes each descriptor's swizzle and box.
func descMetaText(ds []TensordescMeta) string {
	var parts []string
	for _, d := range ds {
		parts = append(parts, fmt.Sprintf("swizzle %d box %v", *d.Swizzle, d.BlockSize))
	}
	return strings.Join(parts, "; ")
}

func mustParseHeader(t *testing.T, h string) []LinkedKernel {
	t.Helper()
	ks, err := ParseHeader("k.h", h)
	if err != nil {
		t.Fatal(err)
	}
	return ks
}
