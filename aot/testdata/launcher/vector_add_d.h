#ifndef TT_KERNEL_INCLUDES
#define TT_KERNEL_INCLUDES

#include <cuda.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#endif

void unload_add_kernel_01feb3de_0d1d2d3d4(void);
void load_add_kernel_01feb3de_0d1d2d3d4(void);
// tt-linker: add_kernel_01feb3de_0d1d2d3d4:CUdeviceptr lhs_ptr, CUdeviceptr rhs_ptr, CUdeviceptr out_ptr, int32_t numel:1024_warps4xstages3
CUresult add_kernel_01feb3de_0d1d2d3d4(CUstream stream, CUdeviceptr lhs_ptr, CUdeviceptr rhs_ptr, CUdeviceptr out_ptr, int32_t numel);
