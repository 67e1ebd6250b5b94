package semantic

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/internal/kernelspecs"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/target"
)

// blockScaledSpecs are tutorial 10's launches: block_scaled_matmul_kernel on a B200
// (sm_100) for each block-scale format of initialize_block_scaled (M = N = K = 8192,
// fp16 output), and block_scaled_matmul_kernel_cdna4 on an MI355X (gfx950) for both
// mfma_nonkdim values of initialize_block_scaled_amd.
var blockScaledSpecs = []struct {
	name, kernel string
	opts         Options
}{
	{"nvfp4", "block_scaled_matmul_kernel", Options{Target: "cuda:100:32", SignatureText: "tensordesc<u8[128, 128]>, tensordesc<fp8e4nv[1, 1, 4, 2, 256]>, tensordesc<u8[256, 128]>, tensordesc<fp8e4nv[1, 2, 4, 2, 256]>, tensordesc<fp16[128, 256]>, " +
		"8192, 8192, 8192, 1, 2, 2, 16, 128, 256, 256, 1, 2, 4, 4"}},
	{"mxfp4", "block_scaled_matmul_kernel", Options{Target: "cuda:100:32", SignatureText: "tensordesc<u8[128, 128]>, tensordesc<u8[1, 1, 2, 2, 256]>, tensordesc<u8[256, 128]>, tensordesc<u8[1, 2, 2, 2, 256]>, tensordesc<fp16[128, 256]>, " +
		"8192, 8192, 8192, 1, 2, 2, 32, 128, 256, 256, 1, 2, 2, 4"}},
	{"mxfp8", "block_scaled_matmul_kernel", Options{Target: "cuda:100:32", SignatureText: "tensordesc<fp8e4nv[128, 128]>, tensordesc<u8[1, 1, 1, 2, 256]>, tensordesc<fp8e4nv[256, 128]>, tensordesc<u8[1, 2, 1, 2, 256]>, tensordesc<fp16[128, 256]>, " +
		"8192, 8192, 8192, 1, 1, 1, 32, 128, 256, 128, 1, 2, 1, 4"}},
	{"mixed", "block_scaled_matmul_kernel", Options{Target: "cuda:100:32", SignatureText: "tensordesc<fp8e4nv[128, 128]>, tensordesc<u8[1, 1, 1, 2, 256]>, tensordesc<u8[256, 64]>, tensordesc<u8[1, 2, 1, 2, 256]>, tensordesc<fp16[128, 256]>, " +
		"8192, 8192, 8192, 1, 1, 2, 32, 128, 256, 128, 1, 2, 1, 4"}},
	{"nonkdim16", "block_scaled_matmul_kernel_cdna4", Options{Target: "hip:gfx950:64", NumWarps: 8, NumStages: 2, SignatureText: "*u8:16, *u8:16, *fp32:16, *u8:16, *u8:16, i32:16, i32:16, i32:16, " +
		"i32:16, i32:1, i32:1, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 256, 16"}},
	{"nonkdim32", "block_scaled_matmul_kernel_cdna4", Options{Target: "hip:gfx950:64", NumWarps: 8, NumStages: 2, SignatureText: "*u8:16, *u8:16, *fp32:16, *u8:16, *u8:16, i32:16, i32:16, i32:16, " +
		"i32:16, i32:1, i32:1, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 256, 32"}},
}

// TestTutorials compiles every kernel of the official tutorials 01-09 and 11 under the
// specializations their host code uses, and type-checks tutorial 10's (whose lowering is
// out of scope). Set GOTRITON_TUTORIALS to their folder.
func TestTutorials(t *testing.T) {
	dir := os.Getenv("GOTRITON_TUTORIALS")
	if dir == "" {
		t.Skip("GOTRITON_TUTORIALS not set")
	}
	for _, s := range kernelspecs.Tutorials {
		t.Run(s.File+"/"+s.Kernel, func(t *testing.T) {
			if _, err := compileFile(t, filepath.Join(dir, s.File), s.Kernel, s.Signature); err != nil {
				t.Fatalf("%s", err)
			}
		})
	}
	for _, s := range blockScaledSpecs {
		t.Run("10-block-scaled-matmul.py/"+s.kernel+"/"+s.name, func(t *testing.T) {
			tgt, err := target.Parse(s.opts.Target)
			if err != nil {
				t.Fatal(err)
			}
			f, err := frontend.Load(filepath.Join(dir, "10-block-scaled-matmul.py"), pyeval.Options{Target: tgt})
			if err != nil {
				t.Fatal(err)
			}
			if err := Check(f, map[string]Options{s.kernel: s.opts}, s.kernel); err != nil {
				t.Fatalf("%s", err)
			}
		})
	}
}
