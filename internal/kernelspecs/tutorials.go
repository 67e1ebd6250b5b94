package kernelspecs

// Tutorials are the specializations the official tutorials' host code launches on an
// H200 (see ../shared/corpus/triton-tutorials/INVENTORY.md).
var Tutorials = []Spec{
	{File: "01-vector-add.py", Kernel: "add_kernel", Signature: "*fp32:16, *fp32:16, *fp32:16, i32, 1024"},
	{File: "02-fused-softmax.py", Kernel: "softmax_kernel", Signature: "*fp32:16, *fp32:16, i32, i32, i32, i32, 1024, 4"},
	{File: "03-matrix-multiplication.py", Kernel: "matmul_kernel", Signature: "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 64, 8, ''"},
	{File: "03-matrix-multiplication.py", Kernel: "matmul_kernel", Signature: "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 64, 8, 'leaky_relu'"},
	{File: "03-matrix-multiplication.py", Kernel: "matmul_kernel", Signature: "*fp8e5:16, *fp8e5:16, *fp16:16, i32, i32, i32, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 128, 8, ''"},
	{File: "04-low-memory-dropout.py", Kernel: "_dropout", Signature: "*fp32:16, *i8:16, *fp32:16, i32, fp32, 1024"},
	{File: "04-low-memory-dropout.py", Kernel: "_seeded_dropout", Signature: "*fp32:16, *fp32:16, i32, fp32, i32, 1024"},
	{File: "05-layer-norm.py", Kernel: "_layer_norm_fwd_fused", Signature: "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, i32:16, i32:16, fp32, 8192"},
	{File: "05-layer-norm.py", Kernel: "_layer_norm_bwd_dx_fused", Signature: "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, *i32:16, i32:16, i32:16, 64, 8192"},
	{File: "05-layer-norm.py", Kernel: "_layer_norm_bwd_dwdb", Signature: "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, 32, 128"},
	{File: "06-fused-attention.py", Kernel: "_attn_fwd", Signature: "fp32, *fp32:16, i32, i32, tensordesc<fp16[128, 64]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[128, 64]>, i32, 64, 128, 64, False, 3, False, True"},
	{File: "06-fused-attention.py", Kernel: "_attn_bwd_preprocess", Signature: "*fp16:16, *fp16:16, *fp32:16, i32, i32, i32, 128, 64"},
	{File: "06-fused-attention.py", Kernel: "_attn_bwd", Signature: "*fp16:16, *fp16:16, *fp16:16, fp32, *fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, i32:16, i32:16, i32:16, i32:1, i32, i32:16, 32, 128, 128, 32, 2, 64"},
	{File: "07-extern-functions.py", Kernel: "asin_kernel", Signature: "*fp32:16, *fp32:16, i32, 1024"},
	{File: "08-grouped-gemm.py", Kernel: "grouped_matmul_kernel", Signature: "*i64:16, *i64:16, *i64:16, *i32:16, *i32:16, i32"},
	{File: "08-grouped-gemm.py", Kernel: "grouped_matmul_tma_kernel", Signature: "*i64:16, *i64:16, *i64:16, *i32:16, *i32:16, i32, 132, 128, 128, 64, False"},
	{File: "09-persistent-matmul.py", Kernel: "matmul_kernel", Signature: "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1"},
	{File: "09-persistent-matmul.py", Kernel: "matmul_kernel_tma", Signature: "tensordesc<fp16[128, 64]>, tensordesc<fp16[256, 64]>, tensordesc<fp16[128, 256]>, i32, i32, i32:16, 128, 256, 64, 8, False, False"},
	{File: "09-persistent-matmul.py", Kernel: "matmul_kernel_persistent", Signature: "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 64, 8, 132"},
	{File: "09-persistent-matmul.py", Kernel: "matmul_kernel_tma_persistent", Signature: "tensordesc<fp16[128, 64]>, tensordesc<fp16[256, 64]>, tensordesc<fp16[128, 128]>, i32, i32, i32:16, 128, 256, 64, 8, False, True, 132, False"},
	{File: "09-persistent-matmul.py", Kernel: "matmul_kernel_descriptor_persistent", Signature: "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32:16, 128, 256, 64, 8, False, 132, True, True"},
	{File: "11-programmatic-dependent-launch.py", Kernel: "add_kernel", Signature: "*fp32:16, *fp32:16, *fp32:16, i32, 1024, True"},
}
