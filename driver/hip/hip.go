// Package hip runs AMDGCN kernels (HSACO code objects made by package amdgcn) on AMD GPUs
// through the HIP runtime. It loads libamdhip64 at run time with
// github.com/ebitengine/purego, so it needs no cgo and no ROCm at build time:
// CGO_ENABLED=0 builds and cross-builds work, and on a machine without ROCm Open returns a
// *NoRuntimeError instead of failing to start. The binary still links the C library
// (glibc) dynamically, as dlopen requires. TRITON_LIBHIP_PATH, as for Triton, names the
// library to load.
//
// Kernels follow Triton 3.6's AMD ABI: the user's non-constexpr parameters, then a
// global-scratch and a profile-scratch pointer, with warpSize*num_warps work-items per
// workgroup (256 for num_warps=4 on wave64 CDNA). HIP copies each argument into the
// kernarg segment at the offset the code object's metadata gives; Launch checks the
// arguments against that metadata first.
//
// It has the shape of package driver/cuda but is untested on hardware: there is no AMD GPU
// where gotriton is developed. Its tests run it against a fake libamdhip64 built from C.
package hip

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/gotriton/gotriton/driver"
)

var (
	_ driver.Device = (*Device)(nil)
	_ driver.Buffer = (*Buffer)(nil)
	_ driver.Kernel = (*Kernel)(nil)
)

// Device is one AMD GPU. Launches go to the device's null stream.
type Device struct {
	api     *api
	ordinal int32
	open    bool

	name          string
	arch          string
	warpSize      int
	cus           int
	sharedMax     int
	driverVersion int
}

// DeviceCount returns the number of HIP devices, or a *NoRuntimeError where the runtime
// cannot be loaded.
func DeviceCount() (int, error) {
	a, err := lib()
	if err != nil {
		return 0, err
	}
	var n int32
	if err := a.check("hipGetDeviceCount", a.hipGetDeviceCount(&n)); err != nil {
		return 0, err
	}
	return int(n), nil
}

// Open opens HIP device ordinal (0 is the first GPU). Where libamdhip64 cannot be loaded
// the error is a *NoRuntimeError.
func Open(ordinal int) (*Device, error) {
	a, err := lib()
	if err != nil {
		return nil, err
	}
	return open(a, ordinal)
}

func open(a *api, ordinal int) (*Device, error) {
	var count int32
	if err := a.check("hipGetDeviceCount", a.hipGetDeviceCount(&count)); err != nil {
		return nil, err
	}
	if ordinal < 0 || ordinal >= int(count) {
		return nil, fmt.Errorf("hip: no device %d (this machine has %d)", ordinal, count)
	}
	d := &Device{api: a, ordinal: int32(ordinal), open: true}
	if err := d.with(d.describe); err != nil {
		return nil, err
	}
	return d, nil
}

// describe reads the device's name, gfx architecture, wavefront size, compute units, LDS
// limit and the runtime version.
func (d *Device) describe() error {
	a := d.api
	buf := make([]byte, 256)
	if err := a.check("hipDeviceGetName", a.hipDeviceGetName(&buf[0], int32(len(buf)), d.ordinal)); err != nil {
		return err
	}
	d.name = goString(buf)
	props := make([]byte, devicePropSize)
	if err := a.check("hipGetDeviceProperties", a.hipGetDeviceProperties(unsafe.Pointer(&props[0]), d.ordinal)); err != nil {
		return err
	}
	// gcnArchName is e.g. "gfx942:sramecc+:xnack-"; Triton keeps the part before the first colon.
	d.arch = goString(props[archNameOffset : archNameOffset+archNameSize])
	for i := range len(d.arch) {
		if d.arch[i] == ':' {
			d.arch = d.arch[:i]
			break
		}
	}
	for _, q := range []struct {
		attr int32
		dst  *int
	}{
		{attrWarpSize, &d.warpSize},
		{attrMultiprocessorCount, &d.cus},
		{attrMaxSharedPerBlock, &d.sharedMax},
	} {
		var v int32
		if err := a.check("hipDeviceGetAttribute", a.hipDeviceGetAttribute(&v, q.attr, d.ordinal)); err != nil {
			return err
		}
		*q.dst = int(v)
	}
	var v int32
	if err := a.check("hipDriverGetVersion", a.hipDriverGetVersion(&v)); err != nil {
		return err
	}
	d.driverVersion = int(v)
	return nil
}

// with runs fn on a locked OS thread with the device current, since HIP's current device
// is per thread and goroutines move between threads.
func (d *Device) with(fn func() error) error {
	if !d.open {
		return errors.New("hip: the device is closed")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := d.api.check("hipSetDevice", d.api.hipSetDevice(d.ordinal)); err != nil {
		return err
	}
	return fn()
}

// Name describes the device, e.g. "hip: AMD Instinct MI300X (gfx942)".
func (d *Device) Name() string { return fmt.Sprintf("hip: %s (%s)", d.name, d.arch) }

// Arch is the gfx architecture without target features, e.g. "gfx942".
func (d *Device) Arch() string { return d.arch }

// WarpSize is the wavefront size (64 on CDNA).
func (d *Device) WarpSize() int { return d.warpSize }

// CUCount is the number of compute units.
func (d *Device) CUCount() int { return d.cus }

// MaxSharedBytes is the most LDS one workgroup may use.
func (d *Device) MaxSharedBytes() int { return d.sharedMax }

// DriverVersion is the HIP runtime's version number (hipDriverGetVersion).
func (d *Device) DriverVersion() int { return d.driverVersion }

// Synchronize waits until all work on the device has finished, and reports an error that
// an earlier launch raised on the GPU.
func (d *Device) Synchronize() error {
	return d.with(func() error { return d.api.check("hipDeviceSynchronize", d.api.hipDeviceSynchronize()) })
}

// Close waits for the device's work. Buffers and kernels of the device must not be used after.
func (d *Device) Close() error {
	if !d.open {
		return nil
	}
	err := d.Synchronize()
	d.open = false
	return err
}
