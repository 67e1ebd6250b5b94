/* A fake CUDA driver for tests: it records what the generated launchers ask of it, so that
   a C program can check which launcher a dispatcher picked and how it launched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda.h"

struct CUmod_st { const void *image; };
struct CUfunc_st { CUmodule mod; char name[128]; };

CUfunction fake_last_func;
void (*fake_launch_hook)(void **kernelParams); /* called during each launch, while the arguments live */
char fake_tensormaps[1024]; /* what each cuTensorMapEncodeTiled was asked, a line each */
unsigned int fake_last_grid[3], fake_last_block, fake_last_shared;
int fake_launches, fake_loads, fake_unloads;

CUresult cuGetErrorString(CUresult error, const char **pStr) { *pStr = "fake error"; return CUDA_SUCCESS; }
CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  *module = malloc(sizeof(struct CUmod_st));
  (*module)->image = image;
  fake_loads++;
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule hmod) { free(hmod); fake_unloads++; return CUDA_SUCCESS; }
CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name) {
  *hfunc = malloc(sizeof(struct CUfunc_st));
  (*hfunc)->mod = hmod;
  strncpy((*hfunc)->name, name, sizeof((*hfunc)->name) - 1);
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev) { *pi = 232448; return CUDA_SUCCESS; }
CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config) { return CUDA_SUCCESS; }
CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value) { return CUDA_SUCCESS; }
CUresult cuTensorMapEncodeTiled(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
                                void *globalAddress, const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
                                const cuuint32_t *boxDim, const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
                                CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill) {
  char *log = fake_tensormaps + strlen(fake_tensormaps);
  size_t room = sizeof(fake_tensormaps) - (log - fake_tensormaps);
  int n = snprintf(log, room, "encode type %d rank %u base %p dims", (int)tensorDataType, tensorRank, globalAddress);
  for (cuuint32_t i = 0; i < tensorRank; i++) n += snprintf(log + n, room - n, " %llu", (unsigned long long)globalDim[i]);
  n += snprintf(log + n, room - n, " strides");
  for (cuuint32_t i = 0; i + 1 < tensorRank; i++) n += snprintf(log + n, room - n, " %llu", (unsigned long long)globalStrides[i]);
  n += snprintf(log + n, room - n, " box");
  for (cuuint32_t i = 0; i < tensorRank; i++) n += snprintf(log + n, room - n, " %u", boxDim[i]);
  snprintf(log + n, room - n, " swizzle %d fill %d\n", (int)swizzle, (int)oobFill);
  memset(tensorMap, 0, sizeof(*tensorMap));
  tensorMap->opaque[0] = (cuuint64_t)(uintptr_t)globalAddress; /* lets a test see which map was passed */
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                        unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra) {
  fake_last_func = f;
  if (fake_launch_hook) fake_launch_hook(kernelParams);
  fake_last_grid[0] = gridDimX;
  fake_last_grid[1] = gridDimY;
  fake_last_grid[2] = gridDimZ;
  fake_last_block = blockDimX * blockDimY * blockDimZ;
  fake_last_shared = sharedMemBytes;
  fake_launches++;
  return CUDA_SUCCESS;
}
