// Package cuda runs PTX kernels on NVIDIA GPUs through the CUDA driver API. It loads
// libcuda.so.1 at run time with github.com/ebitengine/purego, so it needs no cgo and no
// CUDA toolkit: CGO_ENABLED=0 builds and cross-builds work, and on a machine without the
// NVIDIA driver Open returns a *NoDriverError instead of failing to start. The binary still
// links the C library (glibc) dynamically, as dlopen requires.
//
// The driver JIT-compiles PTX when a module is loaded (LoadPTX). Kernels follow Triton
// 3.6's ABI: the user's non-constexpr parameters, then a global-scratch and a
// profile-scratch pointer, with 32*num_warps threads per block.
//
// A Device uses the device's primary context and one stream of its own. Every call binds
// that context to the calling OS thread first, so a Device can be used from any goroutine.
// Every CUresult is checked; a failure is an *Error that names the driver call.
package cuda

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/gotriton/gotriton/driver"
)

var (
	_ driver.Device = (*Device)(nil)
	_ driver.Buffer = (*Buffer)(nil)
	_ driver.Kernel = (*Kernel)(nil)
)

// Device is one CUDA GPU, with its primary context and a stream that every launch, memset
// and timing event goes to.
type Device struct {
	api    *api
	dev    int32
	ctx    uintptr
	stream uintptr

	name          string
	major, minor  int
	sms           int
	sharedDefault int
	sharedOptin   int
	driverVersion int

	flush *Buffer // the L2-flush buffer for Time, allocated on first use
}

// DeviceCount returns the number of CUDA devices, or a *NoDriverError where the driver
// cannot be loaded.
func DeviceCount() (int, error) {
	a, err := lib()
	if err != nil {
		return 0, err
	}
	var n int32
	if err := a.check("cuDeviceGetCount", a.cuDeviceGetCount(&n)); err != nil {
		return 0, err
	}
	return int(n), nil
}

// Open opens CUDA device ordinal (0 is the first GPU): it retains the device's primary
// context and creates a stream. Where libcuda.so.1 cannot be loaded the error is a
// *NoDriverError.
func Open(ordinal int) (*Device, error) {
	a, err := lib()
	if err != nil {
		return nil, err
	}
	var count int32
	if err := a.check("cuDeviceGetCount", a.cuDeviceGetCount(&count)); err != nil {
		return nil, err
	}
	if ordinal < 0 || ordinal >= int(count) {
		return nil, fmt.Errorf("cuda: no device %d (this machine has %d)", ordinal, count)
	}
	d := &Device{api: a}
	if err := a.check("cuDeviceGet", a.cuDeviceGet(&d.dev, int32(ordinal))); err != nil {
		return nil, err
	}
	if err := d.describe(); err != nil {
		return nil, err
	}
	if err := a.check("cuDevicePrimaryCtxRetain", a.cuDevicePrimaryCtxRetain(&d.ctx, d.dev)); err != nil {
		return nil, err
	}
	err = d.with(func() error {
		return a.check("cuStreamCreate", a.cuStreamCreate(&d.stream, streamDefault))
	})
	if err != nil {
		a.cuDevicePrimaryCtxRelease(d.dev)
		return nil, err
	}
	return d, nil
}

// describe reads the device's name, compute capability, SM count, shared memory limits
// and the driver version.
func (d *Device) describe() error {
	a := d.api
	buf := make([]byte, 256)
	if err := a.check("cuDeviceGetName", a.cuDeviceGetName(&buf[0], int32(len(buf)), d.dev)); err != nil {
		return err
	}
	d.name = goString(buf)
	for _, q := range []struct {
		attr int32
		dst  *int
	}{
		{attrComputeCapabilityMajor, &d.major},
		{attrComputeCapabilityMinor, &d.minor},
		{attrMultiprocessorCount, &d.sms},
		{attrMaxSharedPerBlock, &d.sharedDefault},
		{attrMaxSharedPerBlockOptin, &d.sharedOptin},
	} {
		var v int32
		if err := a.check("cuDeviceGetAttribute", a.cuDeviceGetAttribute(&v, q.attr, d.dev)); err != nil {
			return err
		}
		*q.dst = int(v)
	}
	var v int32
	if err := a.check("cuDriverGetVersion", a.cuDriverGetVersion(&v)); err != nil {
		return err
	}
	d.driverVersion = int(v)
	return nil
}

// with runs fn on a locked OS thread with the device's context current, since a CUDA
// context is bound per thread and goroutines move between threads.
func (d *Device) with(fn func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := d.api.check("cuCtxSetCurrent", d.api.cuCtxSetCurrent(d.ctx)); err != nil {
		return err
	}
	return fn()
}

// Name describes the device, e.g. "cuda: NVIDIA H200 (sm_90)".
func (d *Device) Name() string {
	return fmt.Sprintf("cuda: %s (sm_%d%d)", d.name, d.major, d.minor)
}

// Capability is the compute capability as Triton writes it: 10*major + minor (90 for sm_90).
func (d *Device) Capability() int { return 10*d.major + d.minor }

// SMCount is the number of streaming multiprocessors.
func (d *Device) SMCount() int { return d.sms }

// MaxSharedBytes is the most shared memory one block may use once it opts in
// (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN; 232448 on an H100 or H200).
func (d *Device) MaxSharedBytes() int { return d.sharedOptin }

// DriverVersion is the CUDA version the driver supports, e.g. 13000 for CUDA 13.0.
func (d *Device) DriverVersion() int { return d.driverVersion }

// Synchronize waits until all work on the device's stream has finished, and reports an
// error that an earlier launch raised on the GPU.
func (d *Device) Synchronize() error {
	return d.with(func() error {
		return d.api.check("cuStreamSynchronize", d.api.cuStreamSynchronize(d.stream))
	})
}

// Close waits for the device's work, frees Time's flush buffer, destroys the stream and
// releases the primary context. Buffers and kernels of the device must not be used after.
func (d *Device) Close() error {
	if d.ctx == 0 {
		return nil
	}
	a := d.api
	err := d.Synchronize()
	if d.flush != nil {
		err = errors.Join(err, d.flush.Free())
		d.flush = nil
	}
	err = errors.Join(err, d.with(func() error {
		return a.check("cuStreamDestroy", a.cuStreamDestroy(d.stream))
	}))
	err = errors.Join(err, a.check("cuDevicePrimaryCtxRelease", a.cuDevicePrimaryCtxRelease(d.dev)))
	d.ctx, d.stream = 0, 0
	return err
}
