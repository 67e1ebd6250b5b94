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
//
// A kernel fault (illegal or misaligned address, illegal instruction, ...) is sticky: it
// poisons the context, and every later call fails with the same error. The Device records
// the first such error (Fault) and Reset recovers with a fresh primary context; buffers
// and kernels from before the reset no longer exist, and using them is an error that
// says so (StaleError).
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

	fault error  // the sticky error that poisoned the context, until Reset
	gen   uint64 // counts Resets; buffers and kernels remember the one they were made in
	reset error  // the fault that the latest Reset recovered from
}

// StaleError reports the use of a buffer or kernel made before the device's context was
// reset: its memory or module went with the old context.
type StaleError struct {
	What  string // "buffer" or "kernel"
	Fault error  // the sticky error that led to the reset
}

func (e *StaleError) Error() string {
	return fmt.Sprintf("cuda: this %s was made before the context was reset after %v; it no longer exists", e.What, e.Fault)
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
// context is bound per thread and goroutines move between threads. A sticky error from
// fn is recorded as the device's fault.
func (d *Device) with(fn func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	err := d.api.check("cuCtxSetCurrent", d.api.cuCtxSetCurrent(d.ctx))
	if err == nil {
		err = fn()
	}
	if d.fault == nil && IsSticky(err) {
		d.fault = err
	}
	return err
}

// Fault returns the sticky error that made the device's context unusable (see
// Error.Sticky), or nil while it is healthy. Reset clears it.
func (d *Device) Fault() error { return d.fault }

// Reset recovers from a sticky error: it resets the device's primary context
// (cuDevicePrimaryCtxReset, which frees every allocation and module of this process on
// the device), retains it again and makes a new stream. Buffers and kernels made before
// are gone; using them returns a *StaleError. Reset on a healthy device does the same.
func (d *Device) Reset() error {
	a := d.api
	if a.cuDevicePrimaryCtxReset == nil {
		return errors.New("cuda: this driver has no cuDevicePrimaryCtxReset")
	}
	fault := d.fault
	if fault == nil {
		fault = errors.New("an explicit Reset")
	}
	// The reset keeps our retain of the primary context; retaining once more gives the
	// new context's handle, and the release puts the count back.
	if err := a.check("cuDevicePrimaryCtxReset", a.cuDevicePrimaryCtxReset(d.dev)); err != nil {
		return err
	}
	d.gen++
	d.flush, d.stream, d.fault, d.reset = nil, 0, nil, fault
	if err := a.check("cuDevicePrimaryCtxRetain", a.cuDevicePrimaryCtxRetain(&d.ctx, d.dev)); err != nil {
		return err
	}
	if err := a.check("cuDevicePrimaryCtxRelease", a.cuDevicePrimaryCtxRelease(d.dev)); err != nil {
		return err
	}
	err := d.with(func() error {
		return a.check("cuStreamCreate", a.cuStreamCreate(&d.stream, streamDefault))
	})
	if err != nil {
		return fmt.Errorf("cuda: the context is still unusable after a reset: %w", err)
	}
	// A sticky error that survives the reset would show here.
	if err := d.Synchronize(); err != nil {
		return fmt.Errorf("cuda: the context is still unusable after a reset: %w", err)
	}
	return nil
}

// stale returns a *StaleError when gen is not the device's current context generation.
func (d *Device) stale(what string, gen uint64) error {
	if gen == d.gen {
		return nil
	}
	return &StaleError{What: what, Fault: d.reset}
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
	err := d.fault
	if err == nil {
		err = d.Synchronize()
	}
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
