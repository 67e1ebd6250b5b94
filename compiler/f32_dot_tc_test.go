package compiler

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

// TestF32DotTC: fp32 dots of input precision tf32x3, bf16x3 and bf16x6 reach the tensor
// cores on NVIDIA targets, as the PTX check of Triton's test_dot wants (bf16 m16n8k16 or
// tf32 m16n8k8 mma.sync, no FMA loop), 3 or 6 products of parts per dot (16 or 32 mma per
// 32x32x32 product, over 4 warps). On AMD, as in Triton, the bf16 emulations are rewritten
// and tf32x3 is an error (the AMD backends do not list it).
func TestF32DotTC(t *testing.T) {
	for _, c := range []struct {
		precision, mma string
		count          int
	}{
		{"tf32x3", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 3 * 32 / 4},
		{"bf16x3", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 3 * 16 / 4},
		{"bf16x6", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 6 * 16 / 4},
	} {
		s := spec{File: "dot_precision.py", Kernel: "dot_precision_kernel", NumWarps: 4,
			Signature: "*fp32:16, i32:16, 1, *fp32:16, i32:16, 1, *fp32:16, *fp32:16, 32, 32, 32, '" + c.precision + "'"}
		for _, tgt := range []string{"cuda:90:32", "cuda:80:32"} {
			r := compileSpecFor(t, s, tgt, PTX)
			if n := strings.Count(r.PTX, c.mma); n != c.count {
				t.Errorf("%s on %s: %d of %s, want %d", c.precision, tgt, n, c.mma, c.count)
			}
			if strings.Contains(r.PTX, "fma.rn.f32") {
				t.Errorf("%s on %s: the PTX has fp32 FMAs", c.precision, tgt)
			}
		}
		if c.precision == "tf32x3" {
			f, err := frontend.Load(filepath.Join("../conformance/kernels", s.File), pyeval.Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = Compile(f, s.Kernel, Options{Options: semantic.Options{SignatureText: s.Signature, NumWarps: s.NumWarps, Target: "hip:gfx942:64"}}, TileIR)
			if want := "input_precision must be one of ('bf16x3', 'bf16x6', 'ieee', 'tf32'). Got tf32x3"; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("tf32x3 on gfx942: %v, want the error %q", err, want)
			}
			continue
		}
		r := compileSpecFor(t, s, "hip:gfx942:64", LLVM)
		if strings.Contains(r.TileIR.String(), "inputPrecision = "+c.precision) {
			t.Errorf("%s on gfx942: the dot was left in place", c.precision)
		}
	}
}

// compileSpecFor compiles s for target tgt up to stage until.
func compileSpecFor(t *testing.T, s spec, tgt string, until Stage) *Result {
	t.Helper()
	f, err := frontend.Load(filepath.Join("../conformance/kernels", s.File), pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Compile(f, s.Kernel, Options{Options: semantic.Options{SignatureText: s.Signature, NumWarps: s.NumWarps, Target: tgt}}, until)
	if err != nil {
		t.Fatalf("%s %s: %v", s.Kernel, tgt, err)
	}
	return r
}
