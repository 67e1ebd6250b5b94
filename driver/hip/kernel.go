package hip

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/gotriton/gotriton/amdgcn"
	"github.com/gotriton/gotriton/driver"
)

// LoadOptions are the launch facts of a compiled kernel, from Triton's kernel metadata.
type LoadOptions struct {
	// NumWarps sets the workgroup size: WarpSize*NumWarps work-items (Triton's num_warps;
	// 4 if 0).
	NumWarps int
	// SharedBytes is the dynamic LDS each workgroup gets (Triton's "shared").
	SharedBytes int
	// GlobalScratchBytes and GlobalScratchAlign are the global scratch memory each
	// program needs. When the size is not 0, each launch passes a buffer of
	// GlobalScratchBytes times the number of programs as the first hidden pointer;
	// otherwise it passes null, as Triton 3.6's AMD launcher always does.
	GlobalScratchBytes int
	GlobalScratchAlign int
	// ProfileScratchBytes and ProfileScratchAlign do the same for the second hidden
	// pointer (Triton's profile_scratch_size).
	ProfileScratchBytes int
	ProfileScratchAlign int
}

// Kernel is a kernel function of a loaded code object.
type Kernel struct {
	d    *Device
	name string
	mod  uintptr
	fn   uintptr
	opts LoadOptions
	meta amdgcn.Kernel
	args []amdgcn.Arg // the explicit kernel arguments, scratch pointers included

	mu      sync.Mutex // guards the scratch buffers, which launches reuse
	scratch [2]*Buffer // global scratch, profile scratch
}

// KernelInfo is what the runtime reports about a kernel's resources.
type KernelInfo struct {
	Registers    int // registers per work-item
	ScratchBytes int // private memory per work-item
	StaticBytes  int // static LDS per workgroup
}

// LoadHSACO loads a code object (package amdgcn's Result.HSACO) with hipModuleLoadData and
// returns its kernel called name. It reads the code object's metadata first and checks it
// against the device and opts: the wavefront size, the workgroup size the kernel was
// compiled for (amdgpu-flat-work-group-size) and the LDS limit.
func (d *Device) LoadHSACO(hsaco []byte, name string, opts LoadOptions) (*Kernel, error) {
	k, err := d.loadHSACO(hsaco, name, opts)
	if err != nil {
		return nil, fmt.Errorf("hip: LoadHSACO %s: %w", name, err)
	}
	return k, nil
}

func (d *Device) loadHSACO(hsaco []byte, name string, opts LoadOptions) (*Kernel, error) {
	if opts.NumWarps == 0 {
		opts.NumWarps = 4
	}
	if opts.NumWarps < 0 || opts.SharedBytes < 0 || opts.GlobalScratchBytes < 0 || opts.ProfileScratchBytes < 0 {
		return nil, fmt.Errorf("negative option in %+v", opts)
	}
	co, err := amdgcn.ReadCodeObject(hsaco)
	if err != nil {
		return nil, err
	}
	meta := co.Kernel(name)
	if meta == nil {
		names := make([]string, len(co.Kernels))
		for i, k := range co.Kernels {
			names[i] = k.Name
		}
		return nil, fmt.Errorf("the code object has no kernel %s (it has %s)", name, strings.Join(names, ", "))
	}
	if meta.WavefrontSize != d.warpSize {
		return nil, fmt.Errorf("the kernel was compiled for wave%d, but %s runs wave%d", meta.WavefrontSize, d.name, d.warpSize)
	}
	if block := d.warpSize * opts.NumWarps; block > meta.MaxFlatWorkgroupSize {
		return nil, fmt.Errorf("%d warps are %d work-items, but the kernel was compiled for at most %d (amdgpu-flat-work-group-size)",
			opts.NumWarps, block, meta.MaxFlatWorkgroupSize)
	}
	if need := opts.SharedBytes + meta.LDSBytes; need > d.sharedMax {
		return nil, fmt.Errorf("needs %d bytes of LDS (%d dynamic, %d static); %s allows %d", need, opts.SharedBytes, meta.LDSBytes, d.name, d.sharedMax)
	}
	k := &Kernel{d: d, name: name, opts: opts, meta: *meta, args: meta.ExplicitArgs()}
	if len(k.args) < 2 {
		return nil, fmt.Errorf("the kernel has %d parameters, fewer than Triton's two scratch pointers", len(k.args))
	}
	a := d.api
	err = d.with(func() error {
		image := append([]byte(nil), hsaco...)
		if err := a.check("hipModuleLoadData", a.hipModuleLoadData(&k.mod, unsafe.Pointer(&image[0]))); err != nil {
			return err
		}
		return a.check("hipModuleGetFunction", a.hipModuleGetFunction(&k.fn, k.mod, cstr(name)))
	})
	if err != nil {
		if k.mod != 0 {
			d.with(func() error { return a.check("hipModuleUnload", a.hipModuleUnload(k.mod)) })
		}
		return nil, err
	}
	return k, nil
}

// Metadata is the kernel's entry of the code object's AMDGPU metadata.
func (k *Kernel) Metadata() amdgcn.Kernel { return k.meta }

// Info reports the kernel's registers, scratch and static LDS as the runtime sees them.
func (k *Kernel) Info() (KernelInfo, error) {
	var info KernelInfo
	a := k.d.api
	err := k.d.with(func() error {
		for _, q := range []struct {
			attr int32
			dst  *int
		}{
			{funcAttrNumRegs, &info.Registers},
			{funcAttrLocalSizeBytes, &info.ScratchBytes},
			{funcAttrSharedSizeBytes, &info.StaticBytes},
		} {
			var v int32
			if err := a.check("hipFuncGetAttribute", a.hipFuncGetAttribute(&v, q.attr, k.fn)); err != nil {
				return err
			}
			*q.dst = int(v)
		}
		return nil
	})
	return info, err
}

// Launch runs the kernel over grid with WarpSize*NumWarps work-items per workgroup. Args
// are the kernel's non-constexpr parameters in order: a *Buffer of this device for each
// pointer, and Go scalars as driver.ScalarBits takes them (a Triton fp16 or bf16 scalar is
// its bits as a uint16). The two scratch pointers are added here. Each argument's size
// must be the kernarg size the code object gives its parameter. Launch does not wait for
// the kernel; a grid with no programs launches nothing.
func (k *Kernel) Launch(grid driver.Grid, args ...any) error {
	if err := k.launch(grid, args); err != nil {
		return fmt.Errorf("hip: launch %s: %w", k.name, err)
	}
	return nil
}

func (k *Kernel) launch(grid driver.Grid, args []any) error {
	programs, err := grid.Programs()
	if err != nil {
		return err
	}
	if programs == 0 {
		return nil
	}
	if k.fn == 0 {
		return errors.New("the kernel was unloaded")
	}
	if len(args)+2 != len(k.args) {
		return fmt.Errorf("%d arguments for %d parameters (the kernel has %d, two of them the scratch pointers)",
			len(args), len(k.args)-2, len(k.args))
	}
	// Each argument sits in its own 8-byte slot; HIP copies the parameter's size from the
	// slot's start into the kernarg segment (little-endian).
	var pin runtime.Pinner
	defer pin.Unpin()
	values := make([]uint64, len(k.args))
	pin.Pin(&values[0])
	params := make([]unsafe.Pointer, len(values))
	for i := range values {
		params[i] = unsafe.Pointer(&values[i])
	}
	for i, arg := range args {
		v, size, err := k.encode(arg)
		if err != nil {
			return fmt.Errorf("argument %d: %w", i, err)
		}
		if p := k.args[i]; p.Size != size {
			return fmt.Errorf("argument %d is %T (%d bytes) but the kernel's parameter %d (%s) has %d bytes", i, arg, size, i, p.Name, p.Size)
		}
		values[i] = v
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for j, s := range []struct{ bytes, align int }{
		{k.opts.GlobalScratchBytes, k.opts.GlobalScratchAlign},
		{k.opts.ProfileScratchBytes, k.opts.ProfileScratchAlign},
	} {
		ptr, err := k.scratchFor(j, s.bytes*programs, s.align)
		if err != nil {
			return err
		}
		values[len(args)+j] = uint64(ptr)
	}
	a := k.d.api
	block := uint32(k.d.warpSize * k.opts.NumWarps)
	return k.d.with(func() error {
		return a.check("hipModuleLaunchKernel", a.hipModuleLaunchKernel(k.fn,
			uint32(grid[0]), uint32(grid[1]), uint32(grid[2]), block, 1, 1,
			uint32(k.opts.SharedBytes), 0, unsafe.Pointer(&params[0]), nil))
	})
}

// encode returns an argument's bits and its byte size.
func (k *Kernel) encode(arg any) (bits uint64, size int, err error) {
	switch v := arg.(type) {
	case *Buffer:
		if v.d != k.d {
			return 0, 0, errors.New("the buffer belongs to another device")
		}
		if v.ptr == 0 && v.size != 0 {
			return 0, 0, errors.New("the buffer was freed")
		}
		return uint64(v.ptr), 8, nil
	case driver.Buffer:
		return 0, 0, fmt.Errorf("%T is not a HIP buffer", arg)
	}
	return driver.ScalarBits(arg)
}

// scratchFor returns the device address of scratch buffer j holding at least size bytes
// aligned to align, growing the cached buffer when needed (0 when size is 0).
func (k *Kernel) scratchFor(j, size, align int) (uintptr, error) {
	if size == 0 {
		return 0, nil
	}
	// hipMalloc aligns to at least 256 bytes; a larger alignment is met by over-allocating.
	pad := max(align-256, 0)
	if b := k.scratch[j]; b == nil || b.size < size+pad {
		if b != nil {
			// An earlier launch may still use it.
			if err := k.d.Synchronize(); err != nil {
				return 0, err
			}
			if err := b.Free(); err != nil {
				return 0, err
			}
			k.scratch[j] = nil
		}
		nb, err := k.d.alloc(size + pad)
		if err != nil {
			return 0, err
		}
		k.scratch[j] = nb
	}
	ptr := k.scratch[j].ptr
	if align > 1 {
		ptr = (ptr + uintptr(align) - 1) / uintptr(align) * uintptr(align)
	}
	return ptr, nil
}

// Unload waits for the device's work, frees the kernel's scratch buffers and unloads its
// code object. The kernel must not be launched after.
func (k *Kernel) Unload() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	err := k.d.Synchronize()
	for j, b := range k.scratch {
		if b != nil {
			err = errors.Join(err, b.Free())
			k.scratch[j] = nil
		}
	}
	if k.mod != 0 {
		a := k.d.api
		err = errors.Join(err, k.d.with(func() error { return a.check("hipModuleUnload", a.hipModuleUnload(k.mod)) }))
		k.mod, k.fn = 0, 0
	}
	return err
}
