#include <cuda.h>

CUresult matmul_fp16_64x64x32x8xNonex1x1x1_warps4xstages3(CUstream stream, CUdeviceptr a_ptr, CUdeviceptr b_ptr, CUdeviceptr c_ptr, int32_t M, int32_t N, int32_t K, int32_t stride_am, int32_t stride_ak, int32_t stride_bk, int32_t stride_bn, int32_t stride_cm, int32_t stride_cn);
void load_matmul_fp16_64x64x32x8xNonex1x1x1_warps4xstages3(void);
void unload_matmul_fp16_64x64x32x8xNonex1x1x1_warps4xstages3(void);

CUresult matmul_fp16_128x256x64x8xNonex1x1x1_warps8xstages3(CUstream stream, CUdeviceptr a_ptr, CUdeviceptr b_ptr, CUdeviceptr c_ptr, int32_t M, int32_t N, int32_t K, int32_t stride_am, int32_t stride_ak, int32_t stride_bk, int32_t stride_bn, int32_t stride_cm, int32_t stride_cn);
void load_matmul_fp16_128x256x64x8xNonex1x1x1_warps8xstages3(void);
void unload_matmul_fp16_128x256x64x8xNonex1x1x1_warps8xstages3(void);

int matmul_fp16_get_num_algos(void);

CUresult matmul_fp16_default(CUstream stream, CUdeviceptr a_ptr, CUdeviceptr b_ptr, CUdeviceptr c_ptr, int32_t M, int32_t N, int32_t K, int32_t stride_am, int32_t stride_ak, int32_t stride_bk, int32_t stride_bn, int32_t stride_cm, int32_t stride_cn);
CUresult matmul_fp16(CUstream stream, CUdeviceptr a_ptr, CUdeviceptr b_ptr, CUdeviceptr c_ptr, int32_t M, int32_t N, int32_t K, int32_t stride_am, int32_t stride_ak, int32_t stride_bk, int32_t stride_bn, int32_t stride_cm, int32_t stride_cn, int algo_id);
void load_matmul_fp16(void);
void unload_matmul_fp16(void);
