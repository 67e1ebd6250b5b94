package hip

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"unsafe"
)

// result is a hipError_t.
type result int32

// hipSuccess is hipSuccess.
const hipSuccess result = 0

// Enumerators from hip_runtime_api.h (ROCm 7) that this package passes to the runtime.
const (
	attrMaxSharedPerBlock   = 74 // hipDeviceAttributeMaxSharedMemoryPerBlock
	attrMultiprocessorCount = 63 // hipDeviceAttributeMultiprocessorCount
	attrWarpSize            = 87 // hipDeviceAttributeWarpSize

	funcAttrSharedSizeBytes = 1 // HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES (static LDS)
	funcAttrLocalSizeBytes  = 3 // HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES (scratch per work-item)
	funcAttrNumRegs         = 4 // HIP_FUNC_ATTRIBUTE_NUM_REGS

	// devicePropSize and archNameOffset place gcnArchName in hipDeviceProp_t as
	// hipGetDevicePropertiesR0600 fills it (1472 bytes; gcnArchName[256] at byte 1160, as
	// gcc computes from Triton 3.6's bundled HIP headers). The buffer has room to spare.
	devicePropSize = 2048
	archNameOffset = 1160
	archNameSize   = 256
)

// api holds the libamdhip64 entry points, bound by purego. The Go signatures follow
// hip_runtime_api.h: hipError_t is int32, devices are int32 ordinals, device pointers,
// modules, functions and streams are uintptr, size_t is uintptr.
type api struct {
	hipInit                func(flags uint32) result
	hipDriverGetVersion    func(version *int32) result
	hipGetErrorName        func(r result) *byte
	hipGetErrorString      func(r result) *byte
	hipGetDeviceCount      func(n *int32) result
	hipSetDevice           func(dev int32) result
	hipDeviceGetName       func(name *byte, size int32, dev int32) result
	hipDeviceGetAttribute  func(v *int32, attr int32, dev int32) result
	hipGetDeviceProperties func(props unsafe.Pointer, dev int32) result
	hipDeviceSynchronize   func() result
	hipMalloc              func(ptr *uintptr, size uintptr) result
	hipFree                func(ptr uintptr) result
	hipMemcpyHtoD          func(dst uintptr, src unsafe.Pointer, size uintptr) result
	hipMemcpyDtoH          func(dst unsafe.Pointer, src uintptr, size uintptr) result
	hipMemsetD8            func(dst uintptr, value uint8, n uintptr) result
	hipModuleLoadData      func(mod *uintptr, image unsafe.Pointer) result
	hipModuleUnload        func(mod uintptr) result
	hipModuleGetFunction   func(fn *uintptr, mod uintptr, name *byte) result
	hipFuncGetAttribute    func(v *int32, attr int32, fn uintptr) result
	hipModuleLaunchKernel  func(fn uintptr, gx, gy, gz, bx, by, bz, sharedBytes uint32, stream uintptr, params, extra unsafe.Pointer) result
}

// symbol names one entry point: the exported name and where to bind it.
type symbol struct {
	name string
	fptr any
}

// symbols lists every entry point of a. hipGetDeviceProperties is a macro for the
// versioned symbol of ROCm 6 and later.
func (a *api) symbols() []symbol {
	return []symbol{
		{"hipInit", &a.hipInit},
		{"hipDriverGetVersion", &a.hipDriverGetVersion},
		{"hipGetErrorName", &a.hipGetErrorName},
		{"hipGetErrorString", &a.hipGetErrorString},
		{"hipGetDeviceCount", &a.hipGetDeviceCount},
		{"hipSetDevice", &a.hipSetDevice},
		{"hipDeviceGetName", &a.hipDeviceGetName},
		{"hipDeviceGetAttribute", &a.hipDeviceGetAttribute},
		{"hipGetDevicePropertiesR0600", &a.hipGetDeviceProperties},
		{"hipDeviceSynchronize", &a.hipDeviceSynchronize},
		{"hipMalloc", &a.hipMalloc},
		{"hipFree", &a.hipFree},
		{"hipMemcpyHtoD", &a.hipMemcpyHtoD},
		{"hipMemcpyDtoH", &a.hipMemcpyDtoH},
		{"hipMemsetD8", &a.hipMemsetD8},
		{"hipModuleLoadData", &a.hipModuleLoadData},
		{"hipModuleUnload", &a.hipModuleUnload},
		{"hipModuleGetFunction", &a.hipModuleGetFunction},
		{"hipFuncGetAttribute", &a.hipFuncGetAttribute},
		{"hipModuleLaunchKernel", &a.hipModuleLaunchKernel},
	}
}

// libraryPaths are the names tried, in order, for the HIP runtime: TRITON_LIBHIP_PATH
// alone when set (Triton's own override), else the development and versioned sonames
// and ROCm's default location.
func libraryPaths() []string {
	if p := os.Getenv("TRITON_LIBHIP_PATH"); p != "" {
		return []string{p}
	}
	return []string{"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6", "/opt/rocm/lib/libamdhip64.so"}
}

// The runtime is loaded and initialized once per process.
var (
	loadOnce sync.Once
	loaded   *api
	loadErr  error
)

// lib returns the bound and initialized runtime API, or why there is none.
func lib() (*api, error) {
	loadOnce.Do(func() { loaded, loadErr = load(libraryPaths()) })
	return loaded, loadErr
}

// load binds the first of paths that dlopen accepts and runs hipInit.
func load(paths []string) (*api, error) {
	a := new(api)
	if err := bind(a, paths); err != nil {
		return nil, err
	}
	if err := a.check("hipInit", a.hipInit(0)); err != nil {
		return nil, err
	}
	return a, nil
}

// NoRuntimeError reports that libamdhip64 could not be loaded, so no AMD GPU can be used
// on this machine.
type NoRuntimeError struct {
	// Tried lists the library names and paths that were tried.
	Tried []string
	// Reason is the dynamic loader's message (dlerror) for the first of them, or why
	// loading was not attempted.
	Reason string
}

func (e *NoRuntimeError) Error() string {
	return fmt.Sprintf("hip: no AMD HIP runtime found (tried %s: %s); use --device cpu", strings.Join(e.Tried, ", "), e.Reason)
}

// Error is a failed HIP runtime call.
type Error struct {
	Call string // the runtime function, e.g. "hipModuleLoadData"
	Code int    // the hipError_t
	Name string // its name, e.g. "hipErrorInvalidImage"
	Desc string // the runtime's description of it
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s (%s)", e.Call, e.Name, e.Desc)
}

// check turns a hipError_t into nil or an *Error naming call.
func (a *api) check(call string, r result) error {
	if r == hipSuccess {
		return nil
	}
	e := &Error{Call: call, Code: int(r), Name: fmt.Sprintf("hipError%d", int(r)), Desc: "unknown error"}
	if s := a.hipGetErrorName(r); s != nil {
		e.Name = cString(s)
	}
	if s := a.hipGetErrorString(r); s != nil {
		e.Desc = cString(s)
	}
	return e
}

// IsError reports whether err is an *Error with the given hipError_t code.
func IsError(err error, code int) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// cString copies a NUL-terminated C string owned by the runtime.
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

// cstr returns s as a NUL-terminated byte string.
func cstr(s string) *byte {
	b := append([]byte(s), 0)
	return &b[0]
}
