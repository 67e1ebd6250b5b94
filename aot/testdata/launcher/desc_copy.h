#ifndef TT_KERNEL_INCLUDES
#define TT_KERNEL_INCLUDES

#include <cuda.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#endif

#ifndef TT_TENSORDESC2
#define TT_TENSORDESC2
/* A host tensor descriptor of rank 2: a row-major tensor at base, with its shape and
   strides in elements, outermost first (the last stride must be 1). */
typedef struct {
  CUdeviceptr base;
  int64_t shape[2];
  int64_t strides[2];
} tt_tensordesc2;
#endif

void unload_desc_copy_8d97cd5b_012345(void);
void load_desc_copy_8d97cd5b_012345(void);
// tt-linker: desc_copy_8d97cd5b_012345:tt_tensordesc2 src_desc, tt_tensordesc2 dst_desc, int32_t M, int32_t N:32x64_warps4xstages3
CUresult desc_copy_8d97cd5b_012345(CUstream stream, tt_tensordesc2 src_desc, tt_tensordesc2 dst_desc, int32_t M, int32_t N);
