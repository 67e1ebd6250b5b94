/* A fake CUDA driver for tests: it records what the generated launchers ask of it, so that
   a C program can check which launcher a dispatcher picked and how it launched. */
#include <stdlib.h>
#include <string.h>
#include "cuda.h"

struct CUmod_st { const void *image; };
struct CUfunc_st { CUmodule mod; char name[128]; };

CUfunction fake_last_func;
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
CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                        unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra) {
  fake_last_func = f;
  fake_last_grid[0] = gridDimX;
  fake_last_grid[1] = gridDimY;
  fake_last_grid[2] = gridDimZ;
  fake_last_block = blockDimX * blockDimY * blockDimZ;
  fake_last_shared = sharedMemBytes;
  fake_launches++;
  return CUDA_SUCCESS;
}
