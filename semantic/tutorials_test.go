package semantic

import (
	"os"
	"path/filepath"
	"testing"
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

// TestTutorials compiles every kernel of the official tutorials 01-09 and 11 under the
// specializations their host code uses. Set GOTRITON_TUTORIALS to their folder.
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
}
