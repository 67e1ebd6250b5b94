#ifndef TT_KERNEL_INCLUDES
#define TT_KERNEL_INCLUDES

#include <cuda.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#endif

void unload_matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516(void);
void load_matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516(void);
// tt-linker: matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516:CUdeviceptr a_ptr, CUdeviceptr b_ptr, CUdeviceptr c_ptr, int32_t M, int32_t N, int32_t K, int32_t stride_am, int32_t stride_ak, int32_t stride_bk, int32_t stride_bn, int32_t stride_cm, int32_t stride_cn:128x256x64x8xNonex1x1x1_warps8xstages3
CUresult matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516(CUstream stream, CUdeviceptr a_ptr, CUdeviceptr b_ptr, CUdeviceptr c_ptr, int32_t M, int32_t N, int32_t K, int32_t stride_am, int32_t stride_bk, int32_t stride_cm);
