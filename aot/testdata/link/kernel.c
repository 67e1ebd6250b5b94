#include <cuda.h>
#include <stdint.h>

// launcher for: matmul_fp16_64x64x32x8xNonex1x1x1_warps4xstages3
CUresult matmul_fp16_08280e4f_0d1d2d34567c89c1011c1213141516(CUstream stream, CUdeviceptr a_ptr, CUdeviceptr b_ptr, CUdeviceptr c_ptr, int32_t M, int32_t N, int32_t K, int32_t stride_am, int32_t stride_bk, int32_t stride_cm);

CUresult matmul_fp16_64x64x32x8xNonex1x1x1_warps4xstages3(CUstream stream, CUdeviceptr a_ptr, CUdeviceptr b_ptr, CUdeviceptr c_ptr, int32_t M, int32_t N, int32_t K, int32_t stride_am, int32_t stride_ak, int32_t stride_bk, int32_t stride_bn, int32_t stride_cm, int32_t stride_cn) {
  if ((a_ptr % 16 == 0) && (b_ptr % 16 == 0) && (c_ptr % 16 == 0) && (stride_ak == 1) && (stride_bn == 1) && (stride_cn == 1))
    return matmul_fp16_08280e4f_0d1d2d34567c89c1011c1213141516(stream, a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm);

  return CUDA_ERROR_INVALID_VALUE;
}

// load for: matmul_fp16_64x64x32x8xNonex1x1x1_warps4xstages3
void load_matmul_fp16_08280e4f_0d1d2d34567c89c1011c1213141516(void);
void load_matmul_fp16_64x64x32x8xNonex1x1x1_warps4xstages3(void) {
  load_matmul_fp16_08280e4f_0d1d2d34567c89c1011c1213141516();
}

// unload for: matmul_fp16_64x64x32x8xNonex1x1x1_warps4xstages3
void unload_matmul_fp16_08280e4f_0d1d2d34567c89c1011c1213141516(void);
void unload_matmul_fp16_64x64x32x8xNonex1x1x1_warps4xstages3(void) {
  unload_matmul_fp16_08280e4f_0d1d2d34567c89c1011c1213141516();
}

// launcher for: matmul_fp16_128x256x64x8xNonex1x1x1_warps8xstages3
CUresult matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516(CUstream stream, CUdeviceptr a_ptr, CUdeviceptr b_ptr, CUdeviceptr c_ptr, int32_t M, int32_t N, int32_t K, int32_t stride_am, int32_t stride_bk, int32_t stride_cm);
CUresult matmul_fp16_35b41110_0d1d2d34567c89c1011c1213141516(CUstream stream, CUdeviceptr a_ptr, CUdeviceptr b_ptr, CUdeviceptr c_ptr, int32_t M, int32_t N, int32_t K, int32_t stride_am, int32_t stride_bk, int32_t stride_cm);

CUresult matmul_fp16_128x256x64x8xNonex1x1x1_warps8xstages3(CUstream stream, CUdeviceptr a_ptr, CUdeviceptr b_ptr, CUdeviceptr c_ptr, int32_t M, int32_t N, int32_t K, int32_t stride_am, int32_t stride_ak, int32_t stride_bk, int32_t stride_bn, int32_t stride_cm, int32_t stride_cn) {
  if ((a_ptr % 16 == 0) && (b_ptr % 16 == 0) && (c_ptr % 16 == 0) && (M % 16 == 0) && (N % 16 == 0) && (K % 16 == 0) && (stride_am % 16 == 0) && (stride_ak == 1) && (stride_bk % 16 == 0) && (stride_bn == 1) && (stride_cm % 16 == 0) && (stride_cn == 1))
    return matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516(stream, a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm);
  if ((a_ptr % 16 == 0) && (b_ptr % 16 == 0) && (c_ptr % 16 == 0) && (stride_ak == 1) && (stride_bn == 1) && (stride_cn == 1))
    return matmul_fp16_35b41110_0d1d2d34567c89c1011c1213141516(stream, a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm);

  return CUDA_ERROR_INVALID_VALUE;
}

// load for: matmul_fp16_128x256x64x8xNonex1x1x1_warps8xstages3
void load_matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516(void);
void load_matmul_fp16_35b41110_0d1d2d34567c89c1011c1213141516(void);
void load_matmul_fp16_128x256x64x8xNonex1x1x1_warps8xstages3(void) {
  load_matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516();
  load_matmul_fp16_35b41110_0d1d2d34567c89c1011c1213141516();
}

// unload for: matmul_fp16_128x256x64x8xNonex1x1x1_warps8xstages3
void unload_matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516(void);
void unload_matmul_fp16_35b41110_0d1d2d34567c89c1011c1213141516(void);
void unload_matmul_fp16_128x256x64x8xNonex1x1x1_warps8xstages3(void) {
  unload_matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516();
  unload_matmul_fp16_35b41110_0d1d2d34567c89c1011c1213141516();
}

typedef CUresult (*matmul_fp16_kernel_func_t)(CUstream stream, CUdeviceptr a_ptr, CUdeviceptr b_ptr, CUdeviceptr c_ptr, int32_t M, int32_t N, int32_t K, int32_t stride_am, int32_t stride_ak, int32_t stride_bk, int32_t stride_bn, int32_t stride_cm, int32_t stride_cn);
matmul_fp16_kernel_func_t matmul_fp16_kernels[] = {
  matmul_fp16_64x64x32x8xNonex1x1x1_warps4xstages3,
  matmul_fp16_128x256x64x8xNonex1x1x1_warps8xstages3,
};

int matmul_fp16_get_num_algos(void) {
  return (int)(sizeof(matmul_fp16_kernels) / sizeof(matmul_fp16_kernels[0]));
}

CUresult matmul_fp16(CUstream stream, CUdeviceptr a_ptr, CUdeviceptr b_ptr, CUdeviceptr c_ptr, int32_t M, int32_t N, int32_t K, int32_t stride_am, int32_t stride_ak, int32_t stride_bk, int32_t stride_bn, int32_t stride_cm, int32_t stride_cn, int algo_id) {
  if (algo_id < 0 || algo_id >= matmul_fp16_get_num_algos())
    return CUDA_ERROR_INVALID_VALUE;
  return matmul_fp16_kernels[algo_id](stream, a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn);
}

void load_matmul_fp16(void) {
  load_matmul_fp16_64x64x32x8xNonex1x1x1_warps4xstages3();
  load_matmul_fp16_128x256x64x8xNonex1x1x1_warps8xstages3();
}

void unload_matmul_fp16(void) {
  unload_matmul_fp16_64x64x32x8xNonex1x1x1_warps4xstages3();
  unload_matmul_fp16_128x256x64x8xNonex1x1x1_warps8xstages3();
}

CUresult matmul_fp16_default(CUstream stream, CUdeviceptr a_ptr, CUdeviceptr b_ptr, CUdeviceptr c_ptr, int32_t M, int32_t N, int32_t K, int32_t stride_am, int32_t stride_ak, int32_t stride_bk, int32_t stride_bn, int32_t stride_cm, int32_t stride_cn) {
  return matmul_fp16(stream, a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn, 0);
}
