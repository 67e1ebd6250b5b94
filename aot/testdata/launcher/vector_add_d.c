/* Kernel vector_add_kernel of vector_add.py, launcher written by gotriton as triton.tools.compile writes it.
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

#define CUBIN_NAME add_kernel_01feb3de_0d1d2d3d4_cubin
CUmodule add_kernel_01feb3de_0d1d2d3d4_mod = NULL;
CUfunction add_kernel_01feb3de_0d1d2d3d4_func = NULL;
unsigned char CUBIN_NAME[3565] = {
  /* the binary */
};

void unload_add_kernel_01feb3de_0d1d2d3d4(void) {
  CUDA_CHECK(cuModuleUnload(add_kernel_01feb3de_0d1d2d3d4_mod));
  add_kernel_01feb3de_0d1d2d3d4_mod = NULL;
  add_kernel_01feb3de_0d1d2d3d4_func = NULL;
}

void load_add_kernel_01feb3de_0d1d2d3d4(void) {
  int dev = 0;
  int shared = 0;
  int shared_optin = 0;
  CUDA_CHECK(cuModuleLoadData(&add_kernel_01feb3de_0d1d2d3d4_mod, (const void *)CUBIN_NAME));
  CUDA_CHECK(cuModuleGetFunction(&add_kernel_01feb3de_0d1d2d3d4_func, add_kernel_01feb3de_0d1d2d3d4_mod, "vector_add_kernel"));
  /* More than 48 KiB of dynamic shared memory must be opted into. */
  CUDA_CHECK(cuDeviceGetAttribute(&shared_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev));
  if (shared > 49152 && shared_optin > 49152) {
    CUDA_CHECK(cuFuncSetCacheConfig(add_kernel_01feb3de_0d1d2d3d4_func, CU_FUNC_CACHE_PREFER_SHARED));
    CUDA_CHECK(cuFuncSetAttribute(add_kernel_01feb3de_0d1d2d3d4_func, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared_optin));
  }
}

/*
['BLOCK_SIZE=1024', 'num_warps=4', 'num_stages=3']
*/
CUresult add_kernel_01feb3de_0d1d2d3d4(CUstream stream, CUdeviceptr lhs_ptr, CUdeviceptr rhs_ptr, CUdeviceptr out_ptr, int32_t numel) {
  if (add_kernel_01feb3de_0d1d2d3d4_func == NULL)
    load_add_kernel_01feb3de_0d1d2d3d4();
  unsigned int gX = numel / 1024;
  unsigned int gY = 1;
  unsigned int gZ = 1;
  CUdeviceptr global_scratch = 0;
  CUdeviceptr profile_scratch = 0;
  void *args[6] = { &lhs_ptr, &rhs_ptr, &out_ptr, &numel, &global_scratch, &profile_scratch };
  if (gX * gY * gZ == 0)
    return CUDA_SUCCESS;
  return cuLaunchKernel(add_kernel_01feb3de_0d1d2d3d4_func, gX, gY, gZ, 4 * 32, 1, 1, 0, stream, args, NULL);
}
