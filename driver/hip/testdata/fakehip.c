// A fake libamdhip64 for driver/hip's tests: one "GPU" whose memory is host memory and
// whose only kernel, add_kernel, runs amdgcn/testdata/vector_add.ll's computation on the
// CPU: 1024 elements per program, 4 per work-item, out[i] = x[i] + y[i] for i < n. It
// checks what the real runtime would get: a code object, the workgroup size, and the six
// kernel parameters of Triton 3.6's AMD ABI (x, y, out, n, then two null scratch pointers).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidImage = 200,
  hipErrorNotFound = 500,
  hipErrorLaunchFailure = 719,
};

const char *hipGetErrorName(int e) {
  switch (e) {
  case hipErrorInvalidValue: return "hipErrorInvalidValue";
  case hipErrorInvalidImage: return "hipErrorInvalidImage";
  case hipErrorNotFound: return "hipErrorNotFound";
  case hipErrorLaunchFailure: return "hipErrorLaunchFailure";
  }
  return "hipErrorUnknown";
}

const char *hipGetErrorString(int e) {
  switch (e) {
  case hipErrorInvalidValue: return "invalid argument";
  case hipErrorInvalidImage: return "device kernel image is invalid";
  case hipErrorNotFound: return "named symbol not found";
  case hipErrorLaunchFailure: return "unspecified launch failure";
  }
  return "unknown error";
}

static int current = -1;

int hipInit(unsigned flags) { return flags == 0 ? hipSuccess : hipErrorInvalidValue; }
int hipDriverGetVersion(int *v) { *v = 70125424; return hipSuccess; }
int hipGetDeviceCount(int *n) { *n = 1; return hipSuccess; }
int hipSetDevice(int d) { if (d != 0) return hipErrorInvalidDevice; current = d; return hipSuccess; }

int hipDeviceGetName(char *name, int len, int d) {
  if (d != 0 || current != 0) return hipErrorInvalidDevice;
  strncpy(name, "Fake Instinct MI300X", len);
  return hipSuccess;
}

// hipGetDevicePropertiesR0600 fills the fields the package reads: gcnArchName at byte 1160.
int hipGetDevicePropertiesR0600(char *props, int d) {
  if (d != 0) return hipErrorInvalidDevice;
  memset(props, 0, 1472);
  strcpy(props, "Fake Instinct MI300X");
  strcpy(props + 1160, "gfx942:sramecc+:xnack-");
  return hipSuccess;
}

int hipDeviceGetAttribute(int *v, int attr, int d) {
  if (d != 0) return hipErrorInvalidDevice;
  switch (attr) {
  case 87: *v = 64; return hipSuccess;     // warp size
  case 63: *v = 304; return hipSuccess;    // compute units
  case 74: *v = 65536; return hipSuccess;  // LDS per workgroup
  }
  return hipErrorInvalidValue;
}

int hipDeviceSynchronize(void) { return current == 0 ? hipSuccess : hipErrorInvalidDevice; }
int hipMalloc(void **p, size_t n) { *p = malloc(n); return *p ? hipSuccess : hipErrorInvalidValue; }
int hipFree(void *p) { free(p); return hipSuccess; }
int hipMemcpyHtoD(void *dst, const void *src, size_t n) { memcpy(dst, src, n); return hipSuccess; }
int hipMemcpyDtoH(void *dst, const void *src, size_t n) { memcpy(dst, src, n); return hipSuccess; }
int hipMemsetD8(void *dst, unsigned char v, size_t n) { memset(dst, v, n); return hipSuccess; }

static int module_token, function_token;

int hipModuleLoadData(void **mod, const void *image) {
  if (memcmp(image, "\177ELF", 4) != 0) return hipErrorInvalidImage;
  *mod = &module_token;
  return hipSuccess;
}

int hipModuleUnload(void *mod) { return mod == &module_token ? hipSuccess : hipErrorInvalidValue; }

int hipModuleGetFunction(void **fn, void *mod, const char *name) {
  if (mod != &module_token) return hipErrorInvalidValue;
  if (strcmp(name, "add_kernel") != 0) return hipErrorNotFound;
  *fn = &function_token;
  return hipSuccess;
}

int hipFuncGetAttribute(int *v, int attr, void *fn) {
  if (fn != &function_token) return hipErrorInvalidValue;
  switch (attr) {
  case 4: *v = 14; return hipSuccess; // registers
  case 3: *v = 0; return hipSuccess;  // scratch
  case 1: *v = 0; return hipSuccess;  // static LDS
  }
  return hipErrorInvalidValue;
}

int hipModuleLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                          unsigned by, unsigned bz, unsigned shared, void *stream,
                          void **params, void **extra) {
  if (fn != &function_token || by != 1 || bz != 1 || bx != 256 || shared != 0 || stream != NULL || extra != NULL)
    return hipErrorInvalidValue;
  const float *x = *(const float **)params[0];
  const float *y = *(const float **)params[1];
  float *out = *(float **)params[2];
  int32_t n = *(const int32_t *)params[3];
  if (*(void **)params[4] != NULL || *(void **)params[5] != NULL) return hipErrorInvalidValue;
  if (n < 0) return hipErrorLaunchFailure;
  for (unsigned pid = 0; pid < gx * gy * gz; pid++)
    for (unsigned tid = 0; tid < bx; tid++)
      for (int j = 0; j < 4; j++) {
        int64_t i = (int64_t)pid * 1024 + tid * 4 + j;
        if (i < n) out[i] = x[i] + y[i];
      }
  return hipSuccess;
}
