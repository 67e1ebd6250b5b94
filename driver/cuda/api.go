package cuda

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

// result is a CUresult.
type result int32

// cudaSuccess is CUDA_SUCCESS.
const cudaSuccess result = 0

// Enumerators from cuda.h that this package passes to the driver.
const (
	attrMaxSharedPerBlock      = 8  // CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK
	attrMultiprocessorCount    = 16 // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
	attrComputeCapabilityMajor = 75 // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
	attrComputeCapabilityMinor = 76 // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
	attrMaxSharedPerBlockOptin = 97 // CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN

	funcAttrSharedSizeBytes      = 1 // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES (static shared memory)
	funcAttrLocalSizeBytes       = 3 // CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES (spills and local arrays)
	funcAttrNumRegs              = 4 // CU_FUNC_ATTRIBUTE_NUM_REGS
	funcAttrMaxDynamicSharedSize = 8 // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES

	jitErrorLogBuffer      = 5 // CU_JIT_ERROR_LOG_BUFFER
	jitErrorLogBufferSize  = 6 // CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
	launchAttrCooperative  = 2 // CU_LAUNCH_ATTRIBUTE_COOPERATIVE
	launchAttrProgrammatic = 6 // CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
	streamDefault          = 0 // CU_STREAM_DEFAULT: a blocking stream, ordered with the legacy stream
	eventDefault           = 0 // CU_EVENT_DEFAULT: an event that records timing
)

// api holds the libcuda entry points, bound by purego. The Go signatures follow cuda.h:
// CUdevice is int32, CUdeviceptr is uint64, handles and size_t are uintptr, and pointers
// to Go memory are typed pointers or unsafe.Pointer so that they stay alive during a call.
type api struct {
	cuInit                    func(flags uint32) result
	cuDriverGetVersion        func(version *int32) result
	cuGetErrorName            func(r result, s **byte) result
	cuGetErrorString          func(r result, s **byte) result
	cuDeviceGetCount          func(n *int32) result
	cuDeviceGet               func(dev *int32, ordinal int32) result
	cuDeviceGetName           func(name *byte, size int32, dev int32) result
	cuDeviceGetAttribute      func(v *int32, attr int32, dev int32) result
	cuDevicePrimaryCtxRetain  func(ctx *uintptr, dev int32) result
	cuDevicePrimaryCtxRelease func(dev int32) result
	cuDevicePrimaryCtxReset   func(dev int32) result
	cuCtxSetCurrent           func(ctx uintptr) result
	cuModuleLoadDataEx        func(mod *uintptr, image unsafe.Pointer, numOptions uint32, options, values unsafe.Pointer) result
	cuModuleUnload            func(mod uintptr) result
	cuModuleGetFunction       func(fn *uintptr, mod uintptr, name *byte) result
	cuFuncGetAttribute        func(v *int32, attr int32, fn uintptr) result
	cuFuncSetAttribute        func(fn uintptr, attr int32, v int32) result
	cuFuncGetParamInfo        func(fn uintptr, index uintptr, offset, size *uintptr) result // CUDA 12.4+; may be nil
	cuLaunchKernel            func(fn uintptr, gx, gy, gz, bx, by, bz, sharedBytes uint32, stream uintptr, params, extra unsafe.Pointer) result
	cuLaunchKernelEx          func(config unsafe.Pointer, fn uintptr, params, extra unsafe.Pointer) result // CUDA 12.0+; may be nil
	cuMemAlloc                func(ptr *uint64, size uintptr) result
	cuTensorMapEncodeTiled    func(m unsafe.Pointer, dataType int32, rank uint32, addr uint64, dims, strides, box, elemStrides unsafe.Pointer, interleave, swizzle, l2Promotion, oobFill int32) result // CUDA 12.0+; may be nil
	cuMemFree                 func(ptr uint64) result
	cuMemcpyHtoD              func(dst uint64, src unsafe.Pointer, size uintptr) result
	cuMemcpyDtoH              func(dst unsafe.Pointer, src uint64, size uintptr) result
	cuMemsetD8                func(dst uint64, value uint8, n uintptr) result
	cuStreamCreate            func(stream *uintptr, flags uint32) result
	cuStreamDestroy           func(stream uintptr) result
	cuStreamSynchronize       func(stream uintptr) result
	cuEventCreate             func(event *uintptr, flags uint32) result
	cuEventDestroy            func(event uintptr) result
	cuEventRecord             func(event, stream uintptr) result
	cuEventSynchronize        func(event uintptr) result
	cuEventElapsedTime        func(ms *float32, start, end uintptr) result
}

// symbol names one entry point: the exported names to try in order (the newest ABI
// version first), where to bind it, and whether the package works without it.
type symbol struct {
	names    []string
	fptr     any
	optional bool
}

// symbols lists every entry point of a.
func (a *api) symbols() []symbol {
	return []symbol{
		{names: []string{"cuInit"}, fptr: &a.cuInit},
		{names: []string{"cuDriverGetVersion"}, fptr: &a.cuDriverGetVersion},
		{names: []string{"cuGetErrorName"}, fptr: &a.cuGetErrorName},
		{names: []string{"cuGetErrorString"}, fptr: &a.cuGetErrorString},
		{names: []string{"cuDeviceGetCount"}, fptr: &a.cuDeviceGetCount},
		{names: []string{"cuDeviceGet"}, fptr: &a.cuDeviceGet},
		{names: []string{"cuDeviceGetName"}, fptr: &a.cuDeviceGetName},
		{names: []string{"cuDeviceGetAttribute"}, fptr: &a.cuDeviceGetAttribute},
		{names: []string{"cuDevicePrimaryCtxRetain"}, fptr: &a.cuDevicePrimaryCtxRetain},
		{names: []string{"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"}, fptr: &a.cuDevicePrimaryCtxRelease},
		{names: []string{"cuDevicePrimaryCtxReset_v2", "cuDevicePrimaryCtxReset"}, fptr: &a.cuDevicePrimaryCtxReset},
		{names: []string{"cuCtxSetCurrent"}, fptr: &a.cuCtxSetCurrent},
		{names: []string{"cuModuleLoadDataEx"}, fptr: &a.cuModuleLoadDataEx},
		{names: []string{"cuModuleUnload"}, fptr: &a.cuModuleUnload},
		{names: []string{"cuModuleGetFunction"}, fptr: &a.cuModuleGetFunction},
		{names: []string{"cuFuncGetAttribute"}, fptr: &a.cuFuncGetAttribute},
		{names: []string{"cuFuncSetAttribute"}, fptr: &a.cuFuncSetAttribute},
		{names: []string{"cuFuncGetParamInfo"}, fptr: &a.cuFuncGetParamInfo, optional: true},
		{names: []string{"cuLaunchKernel"}, fptr: &a.cuLaunchKernel},
		{names: []string{"cuLaunchKernelEx"}, fptr: &a.cuLaunchKernelEx, optional: true},
		{names: []string{"cuMemAlloc_v2"}, fptr: &a.cuMemAlloc},
		{names: []string{"cuTensorMapEncodeTiled"}, fptr: &a.cuTensorMapEncodeTiled, optional: true},
		{names: []string{"cuMemFree_v2"}, fptr: &a.cuMemFree},
		{names: []string{"cuMemcpyHtoD_v2"}, fptr: &a.cuMemcpyHtoD},
		{names: []string{"cuMemcpyDtoH_v2"}, fptr: &a.cuMemcpyDtoH},
		{names: []string{"cuMemsetD8_v2"}, fptr: &a.cuMemsetD8},
		{names: []string{"cuStreamCreate"}, fptr: &a.cuStreamCreate},
		{names: []string{"cuStreamDestroy_v2", "cuStreamDestroy"}, fptr: &a.cuStreamDestroy},
		{names: []string{"cuStreamSynchronize"}, fptr: &a.cuStreamSynchronize},
		{names: []string{"cuEventCreate"}, fptr: &a.cuEventCreate},
		{names: []string{"cuEventDestroy_v2", "cuEventDestroy"}, fptr: &a.cuEventDestroy},
		{names: []string{"cuEventRecord"}, fptr: &a.cuEventRecord},
		{names: []string{"cuEventSynchronize"}, fptr: &a.cuEventSynchronize},
		{names: []string{"cuEventElapsedTime_v2", "cuEventElapsedTime"}, fptr: &a.cuEventElapsedTime},
	}
}

// The driver is loaded and initialized once per process.
var (
	loadOnce sync.Once
	loaded   *api
	loadErr  error
)

// lib returns the bound and initialized driver API, or why there is none.
func lib() (*api, error) {
	loadOnce.Do(func() {
		a := new(api)
		if err := bind(a); err != nil {
			loadErr = err
			return
		}
		if err := a.check("cuInit", a.cuInit(0)); err != nil {
			loadErr = err
			return
		}
		loaded = a
	})
	return loaded, loadErr
}

// NoDriverError reports that libcuda.so.1 could not be loaded, so no CUDA device can be
// used on this machine.
type NoDriverError struct {
	// Reason is the dynamic loader's message (dlerror), or why loading was not attempted.
	Reason string
}

func (e *NoDriverError) Error() string {
	return fmt.Sprintf("cuda: no NVIDIA driver found (libcuda.so.1 could not be loaded: %s); use --device cpu", e.Reason)
}

// Error is a failed CUDA driver call.
type Error struct {
	Call string // the driver function, e.g. "cuModuleLoadDataEx"
	Code int    // the CUresult
	Name string // the CUresult's name, e.g. "CUDA_ERROR_INVALID_PTX"
	Desc string // the driver's description of the CUresult
	Log  string // the PTX JIT compiler's error log, for module loads
}

// Sticky reports whether the error is one that poisons the CUDA context: a kernel fault
// (illegal or misaligned address, illegal instruction, hardware stack error, a device-side
// assert, ...) after which every later call in the context fails the same way. Only a
// context reset (Device.Reset) makes the device usable again.
func (e *Error) Sticky() bool { return stickyResult(result(e.Code)) }

// stickyResult lists the CUresults that leave the context unusable.
func stickyResult(r result) bool {
	switch r {
	case 214, // CUDA_ERROR_ECC_UNCORRECTABLE
		700, // CUDA_ERROR_ILLEGAL_ADDRESS
		702, // CUDA_ERROR_LAUNCH_TIMEOUT
		710, // CUDA_ERROR_ASSERT
		714, // CUDA_ERROR_HARDWARE_STACK_ERROR
		715, // CUDA_ERROR_ILLEGAL_INSTRUCTION
		716, // CUDA_ERROR_MISALIGNED_ADDRESS
		717, // CUDA_ERROR_INVALID_ADDRESS_SPACE
		718, // CUDA_ERROR_INVALID_PC
		719: // CUDA_ERROR_LAUNCH_FAILED
		return true
	}
	return false
}

// IsSticky reports whether err (or an error it wraps) is a sticky *Error.
func IsSticky(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Sticky()
}

func (e *Error) Error() string {
	s := fmt.Sprintf("%s: %s (%s)", e.Call, e.Name, e.Desc)
	if e.Log != "" {
		s += ": " + e.Log
	}
	return s
}

// check turns a CUresult into nil or an *Error naming call.
func (a *api) check(call string, r result) error {
	if r == cudaSuccess {
		return nil
	}
	return a.newError(call, r)
}

// newError builds the *Error for a failed call.
func (a *api) newError(call string, r result) *Error {
	e := &Error{Call: call, Code: int(r), Name: fmt.Sprintf("CUDA_ERROR_%d", int(r)), Desc: "unknown error"}
	var s *byte
	if a.cuGetErrorName(r, &s) == cudaSuccess && s != nil {
		e.Name = cString(s)
	}
	s = nil
	if a.cuGetErrorString(r, &s) == cudaSuccess && s != nil {
		e.Desc = cString(s)
	}
	return e
}

// cString copies a NUL-terminated C string owned by the driver.
func cString(p *byte) string {
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

// goString returns the text of buf up to its first NUL.
func goString(buf []byte) string {
	for i, c := range buf {
		if c == 0 {
			return string(buf[:i])
		}
	}
	return string(buf)
}
