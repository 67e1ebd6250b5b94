package semantic

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/target"
)

// tutorialSpecs are the specializations the official tutorials' host code launches on an
// H200 (see ../shared/corpus/triton-tutorials/INVENTORY.md).
var tutorialSpecs = []struct{ file, kernel, sig string }{
	{"01-vector-add.py", "add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 1024"},
	{"02-fused-softmax.py", "softmax_kernel", "*fp32:16, *fp32:16, i32, i32, i32, i32, 1024, 4"},
	{"03-matrix-multiplication.py", "matmul_kernel", "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 64, 8, ''"},
	{"03-matrix-multiplication.py", "matmul_kernel", "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 64, 8, 'leaky_relu'"},
	{"03-matrix-multiplication.py", "matmul_kernel", "*fp8e5:16, *fp8e5:16, *fp16:16, i32, i32, i32, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 128, 8, ''"},
	{"04-low-memory-dropout.py", "_dropout", "*fp32:16, *i8:16, *fp32:16, i32, fp32, 1024"},
	{"04-low-memory-dropout.py", "_seeded_dropout", "*fp32:16, *fp32:16, i32, fp32, i32, 1024"},
	{"05-layer-norm.py", "_layer_norm_fwd_fused", "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, i32:16, i32:16, fp32, 8192"},
	{"05-layer-norm.py", "_layer_norm_bwd_dx_fused", "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, *i32:16, i32:16, i32:16, 64, 8192"},
	{"05-layer-norm.py", "_layer_norm_bwd_dwdb", "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, 32, 128"},
	{"06-fused-attention.py", "_attn_fwd", "fp32, *fp32:16, i32, i32, tensordesc<fp16[128, 64]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[128, 64]>, i32, 64, 128, 64, False, 3, False, True"},
	{"06-fused-attention.py", "_attn_bwd_preprocess", "*fp16:16, *fp16:16, *fp32:16, i32, i32, i32, 128, 64"},
	{"06-fused-attention.py", "_attn_bwd", "*fp16:16, *fp16:16, *fp16:16, fp32, *fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, i32:16, i32:16, i32:16, i32:1, i32, i32:16, 32, 128, 128, 32, 2, 64"},
	{"07-extern-functions.py", "asin_kernel", "*fp32:16, *fp32:16, i32, 1024"},
	{"08-grouped-gemm.py", "grouped_matmul_kernel", "*i64:16, *i64:16, *i64:16, *i32:16, *i32:16, i32"},
	{"08-grouped-gemm.py", "grouped_matmul_tma_kernel", "*i64:16, *i64:16, *i64:16, *i32:16, *i32:16, i32, 132, 128, 128, 64, False"},
	{"09-persistent-matmul.py", "matmul_kernel", "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1"},
	{"09-persistent-matmul.py", "matmul_kernel_tma", "tensordesc<fp16[128, 64]>, tensordesc<fp16[256, 64]>, tensordesc<fp16[128, 256]>, i32, i32, i32:16, 128, 256, 64, 8, False, False"},
	{"09-persistent-matmul.py", "matmul_kernel_persistent", "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 64, 8, 132"},
	{"09-persistent-matmul.py", "matmul_kernel_tma_persistent", "tensordesc<fp16[128, 64]>, tensordesc<fp16[256, 64]>, tensordesc<fp16[128, 128]>, i32, i32, i32:16, 128, 256, 64, 8, False, True, 132, False"},
	{"09-persistent-matmul.py", "matmul_kernel_descriptor_persistent", "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32:16, 128, 256, 64, 8, False, 132, True, True"},
	{"11-programmatic-dependent-launch.py", "add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 1024, True"},
}

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
	for _, s := range tutorialSpecs {
		t.Run(s.file+"/"+s.kernel, func(t *testing.T) {
			if _, err := compileFile(t, filepath.Join(dir, s.file), s.kernel, s.sig); err != nil {
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
