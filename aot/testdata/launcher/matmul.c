/* Kernel grouped_matmul_kernel of matmul.py, launcher written by gotriton as triton.tools.compile writes it.
   The embedded binary is ptx. */
#include <cuda.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Prints a failed driver call and exits, as Triton's generated launchers do. */
static inline void gpuAssert(CUresult code, const char *file, int line) {
  if (code != CUDA_SUCCESS) {
    const char *msg = NULL;
    cuGetErrorString(code, &msg);
    printf("Triton Error [CUDA]: %s (%s:%d)\n", msg ? msg : "unknown error", file, line);
    exit(code);
  }
}
#define CUDA_CHECK(ans) gpuAssert((ans), __FILE__, __LINE__)

#define CUBIN_NAME matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516_cubin
CUmodule matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516_mod = NULL;
CUfunction matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516_func = NULL;
unsigned char CUBIN_NAME[43453] = {
  /* the binary */
};

void unload_matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516(void) {
  CUDA_CHECK(cuModuleUnload(matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516_mod));
  matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516_mod = NULL;
  matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516_func = NULL;
}

void load_matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516(void) {
  int dev = 0;
  int shared = 147456;
  int shared_optin = 0;
  CUDA_CHECK(cuModuleLoadData(&matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516_mod, (const void *)CUBIN_NAME));
  CUDA_CHECK(cuModuleGetFunction(&matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516_func, matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516_mod, "grouped_matmul_kernel"));
  /* More than 48 KiB of dynamic shared memory must be opted into. */
  CUDA_CHECK(cuDeviceGetAttribute(&shared_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev));
  if (shared > 49152 && shared_optin > 49152) {
    CUDA_CHECK(cuFuncSetCacheConfig(matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516_func, CU_FUNC_CACHE_PREFER_SHARED));
    CUDA_CHECK(cuFuncSetAttribute(matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516_func, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared_optin));
  }
}

/*
['BLOCK_SIZE_M=128', 'BLOCK_SIZE_N=256', 'BLOCK_SIZE_K=64', 'GROUP_SIZE_M=8', 'ACTIVATION=None', 'stride_ak=1', 'stride_bn=1', 'stride_cn=1', 'num_warps=8', 'num_stages=3']
*/
CUresult matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516(CUstream stream, CUdeviceptr a_ptr, CUdeviceptr b_ptr, CUdeviceptr c_ptr, int32_t M, int32_t N, int32_t K, int32_t stride_am, int32_t stride_bk, int32_t stride_cm) {
  if (matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516_func == NULL)
    load_matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516();
  unsigned int gX = ((M + 127) / 128) * ((N + 255) / 256);
  unsigned int gY = 1;
  unsigned int gZ = 1;
  CUdeviceptr global_scratch = 0;
  CUdeviceptr profile_scratch = 0;
  void *args[11] = { &a_ptr, &b_ptr, &c_ptr, &M, &N, &K, &stride_am, &stride_bk, &stride_cm, &global_scratch, &profile_scratch };
  if (gX * gY * gZ == 0)
    return CUDA_SUCCESS;
  return cuLaunchKernel(matmul_fp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516_func, gX, gY, gZ, 8 * 32, 1, 1, 147456, stream, args, NULL);
}
