package cuda

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/gotriton/gotriton/driver"
)

// LoadOptions are the launch facts of a compiled kernel: what Triton keeps in a kernel's
// metadata (num_warps, shared, global_scratch_size, ...).
type LoadOptions struct {
	// NumWarps sets the block size: 32*NumWarps threads (Triton's num_warps; 4 if 0).
	NumWarps int
	// SharedBytes is the dynamic shared memory each block gets (Triton's "shared").
	// Above the default 48 KiB the kernel opts in to the device's maximum.
	SharedBytes int
	// GlobalScratchBytes and GlobalScratchAlign are the global scratch memory each
	// program needs (Triton's global_scratch_size and global_scratch_align). When the size
	// is not 0, each launch passes a buffer of GlobalScratchBytes times the number of
	// programs as the first hidden pointer; otherwise it passes null.
	GlobalScratchBytes int
	GlobalScratchAlign int
	// ProfileScratchBytes and ProfileScratchAlign do the same for the second hidden
	// pointer (Triton's profile_scratch_size, used by proton's instrumentation).
	ProfileScratchBytes int
	ProfileScratchAlign int
	// PDL launches the kernel with programmatic dependent launch
	// (CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION; Triton's launch_pdl), so it
	// may start before the previous kernel on the stream ends. Such a kernel must wait with
	// griddepcontrol.wait before it reads what the previous kernel wrote.
	PDL bool
	// Cooperative launches the grid cooperatively (CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
	// Triton's launch_cooperative_grid), so all programs are resident at once.
	Cooperative bool
}

// Kernel is a kernel function of a module that the driver JIT-compiled from PTX.
type Kernel struct {
	d      *Device
	name   string
	mod    uintptr
	fn     uintptr
	opts   LoadOptions
	params []uintptr // byte size of each PTX parameter, hidden pointers included; nil if unknown
	gen    uint64    // the device's context generation when loaded

	mu      sync.Mutex // guards the scratch buffers, which launches reuse
	scratch [2]*Buffer // global scratch, profile scratch
}

// KernelInfo is what the JIT compiler reports about a kernel's resources.
type KernelInfo struct {
	Registers   int // registers per thread
	LocalBytes  int // local memory per thread (spills and local arrays)
	StaticBytes int // static shared memory per block
}

// jitLogSize is the size of each JIT log buffer.
const jitLogSize = 1 << 16

// LoadPTX JIT-compiles ptx (the text of a PTX module) with cuModuleLoadDataEx and returns
// its kernel called name. A PTX error comes back as an *Error whose Log holds the JIT
// compiler's error log.
func (d *Device) LoadPTX(ptx, name string, opts LoadOptions) (*Kernel, error) {
	if opts.NumWarps == 0 {
		opts.NumWarps = 4
	}
	if opts.NumWarps < 0 || opts.SharedBytes < 0 || opts.GlobalScratchBytes < 0 || opts.ProfileScratchBytes < 0 {
		return nil, fmt.Errorf("cuda: LoadPTX %s: negative option in %+v", name, opts)
	}
	if 32*opts.NumWarps > 1024 {
		return nil, fmt.Errorf("cuda: LoadPTX %s: %d warps is more than 1024 threads per block", name, opts.NumWarps)
	}
	if (opts.PDL || opts.Cooperative) && d.api.cuLaunchKernelEx == nil {
		return nil, fmt.Errorf("cuda: LoadPTX %s: PDL and cooperative launches need cuLaunchKernelEx (CUDA 12.0 or newer)", name)
	}
	k := &Kernel{d: d, name: name, opts: opts, gen: d.gen}
	a := d.api
	err := d.with(func() error {
		if err := k.load(ptx); err != nil {
			return err
		}
		if err := a.check("cuModuleGetFunction", a.cuModuleGetFunction(&k.fn, k.mod, cstr(name))); err != nil {
			return err
		}
		if err := k.setShared(); err != nil {
			return err
		}
		var err error
		k.params, err = k.paramSizes(entryParams(ptx, name))
		return err
	})
	if err != nil {
		if k.mod != 0 {
			d.with(func() error { return a.check("cuModuleUnload", a.cuModuleUnload(k.mod)) })
		}
		return nil, fmt.Errorf("cuda: LoadPTX %s: %w", name, err)
	}
	return k, nil
}

// load runs cuModuleLoadDataEx with the JIT compiler's error log captured.
func (k *Kernel) load(ptx string) error {
	a := k.d.api
	image := append([]byte(ptx), 0)
	errLog := make([]byte, jitLogSize)
	// The option values array holds a pointer to the log buffer; pin it so that the driver
	// may write there, as cgo's rules require of Go memory reached through C arrays.
	var pin runtime.Pinner
	pin.Pin(&errLog[0])
	defer pin.Unpin()
	options := []int32{jitErrorLogBuffer, jitErrorLogBufferSize}
	values := []uintptr{uintptr(unsafe.Pointer(&errLog[0])), jitLogSize}
	r := a.cuModuleLoadDataEx(&k.mod, unsafe.Pointer(&image[0]), uint32(len(options)), unsafe.Pointer(&options[0]), unsafe.Pointer(&values[0]))
	if r == cudaSuccess {
		return nil
	}
	e := a.newError("cuModuleLoadDataEx", r)
	e.Log = strings.TrimSpace(goString(errLog))
	return e
}

// setShared checks the kernel's shared memory against the device's limit and, past the
// default 48 KiB, opts the kernel in to the device's maximum, as Triton's loader does.
func (k *Kernel) setShared() error {
	a, d := k.d.api, k.d
	var static int32
	if err := a.check("cuFuncGetAttribute", a.cuFuncGetAttribute(&static, funcAttrSharedSizeBytes, k.fn)); err != nil {
		return err
	}
	if need := k.opts.SharedBytes + int(static); need > d.sharedOptin {
		return fmt.Errorf("needs %d bytes of shared memory (%d dynamic, %d static); %s allows %d",
			need, k.opts.SharedBytes, static, d.name, d.sharedOptin)
	}
	if k.opts.SharedBytes <= d.sharedDefault {
		return nil
	}
	return a.check("cuFuncSetAttribute", a.cuFuncSetAttribute(k.fn, funcAttrMaxDynamicSharedSize, int32(d.sharedOptin)-static))
}

// paramSizes lists the byte size of each of the kernel's n parameters (n from the PTX,
// -1 when unknown) through cuFuncGetParamInfo. It asks only for indices that exist, so no
// driver call fails in normal operation (compute-sanitizer reports every failed call). It
// returns nil on drivers without cuFuncGetParamInfo or when n is unknown.
func (k *Kernel) paramSizes(n int) ([]uintptr, error) {
	a := k.d.api
	if a.cuFuncGetParamInfo == nil || n < 0 {
		return nil, nil
	}
	sizes := make([]uintptr, n)
	for i := range sizes {
		var offset uintptr
		if err := a.check("cuFuncGetParamInfo", a.cuFuncGetParamInfo(k.fn, uintptr(i), &offset, &sizes[i])); err != nil {
			return nil, fmt.Errorf("parameter %d of the %d in the PTX: %w", i, n, err)
		}
	}
	return sizes, nil
}

// entryParams counts the parameters of kernel name's .entry in ptx, or returns -1 when
// the entry cannot be found.
func entryParams(ptx, name string) int {
	for rest := ptx; ; {
		i := strings.Index(rest, ".entry")
		if i < 0 {
			return -1
		}
		rest = rest[i+len(".entry"):]
		sig := strings.TrimLeft(rest, " \t\r\n")
		if !strings.HasPrefix(sig, name) {
			continue
		}
		sig = strings.TrimLeft(sig[len(name):], " \t\r\n")
		if !strings.HasPrefix(sig, "(") {
			continue // a longer name that starts with name
		}
		end := strings.IndexByte(sig, ')')
		if end < 0 {
			return -1
		}
		return strings.Count(sig[:end], ".param")
	}
}

// Info reports the kernel's registers, local memory and static shared memory.
func (k *Kernel) Info() (KernelInfo, error) {
	var info KernelInfo
	a := k.d.api
	err := k.d.with(func() error {
		for _, q := range []struct {
			attr int32
			dst  *int
		}{
			{funcAttrNumRegs, &info.Registers},
			{funcAttrLocalSizeBytes, &info.LocalBytes},
			{funcAttrSharedSizeBytes, &info.StaticBytes},
		} {
			var v int32
			if err := a.check("cuFuncGetAttribute", a.cuFuncGetAttribute(&v, q.attr, k.fn)); err != nil {
				return err
			}
			*q.dst = int(v)
		}
		return nil
	})
	return info, err
}

// Launch runs the kernel over grid on the device's stream, with 32*NumWarps threads per
// block. Args are the kernel's non-constexpr parameters in order: a *Buffer of this device
// for each pointer, and int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32,
// float64 or bool for scalars (a Triton fp16 or bf16 scalar is its bits as a uint16), and a
// *TensorMap for a host tensor descriptor (sm_90 and later). The
// two hidden scratch pointers are added here. Launch does not wait for the kernel; a
// grid with no programs launches nothing.
func (k *Kernel) Launch(grid driver.Grid, args ...any) error {
	if err := k.launch(grid, args); err != nil {
		return fmt.Errorf("cuda: launch %s: %w", k.name, err)
	}
	return nil
}

func (k *Kernel) launch(grid driver.Grid, args []any) error {
	programs, err := grid.Programs()
	if err != nil {
		return err
	}
	if err := k.d.stale("kernel", k.gen); err != nil {
		return err
	}
	if programs == 0 {
		return nil
	}
	if k.fn == 0 {
		return errors.New("the kernel was unloaded")
	}
	if k.params != nil && len(args)+2 != len(k.params) {
		return fmt.Errorf("%d arguments for %d parameters (the kernel has %d, two of them the scratch pointers)",
			len(args), len(k.params)-2, len(k.params))
	}
	// Each scalar or pointer sits in its own 8-byte slot; on a little-endian machine the
	// driver reads a parameter of 1 to 8 bytes from the slot's start. A TensorMap is passed
	// from its own 128 bytes.
	var pin runtime.Pinner
	defer pin.Unpin()
	values := make([]uint64, len(args)+2)
	pin.Pin(&values[0])
	params := make([]unsafe.Pointer, len(values))
	for i := range values {
		params[i] = unsafe.Pointer(&values[i])
	}
	for i, arg := range args {
		size := 0
		if m, ok := arg.(*TensorMap); ok {
			pin.Pin(m)
			params[i], size = unsafe.Pointer(m), int(unsafe.Sizeof(*m))
		} else {
			v, n, err := k.encode(arg)
			if err != nil {
				return fmt.Errorf("argument %d: %w", i, err)
			}
			values[i], size = v, n
		}
		if k.params != nil && k.params[i] != uintptr(size) {
			return fmt.Errorf("argument %d is %T (%d bytes) but the kernel's parameter %d has %d bytes", i, arg, size, i, k.params[i])
		}
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
		values[len(args)+j] = ptr
	}
	return k.d.with(func() error { return k.enqueue(grid, params, &pin) })
}

// encode returns an argument's bits and its byte size.
func (k *Kernel) encode(arg any) (bits uint64, size int, err error) {
	switch v := arg.(type) {
	case *Buffer:
		if v.d != k.d {
			return 0, 0, errors.New("the buffer belongs to another device")
		}
		if err := v.d.stale("buffer", v.gen); err != nil && v.size != 0 {
			return 0, 0, err
		}
		if v.ptr == 0 && v.size != 0 {
			return 0, 0, errors.New("the buffer was freed")
		}
		return v.ptr, 8, nil
	case driver.Buffer:
		return 0, 0, fmt.Errorf("%T is not a CUDA buffer", arg)
	}
	return encodeScalar(arg)
}

// encodeScalar returns a Go scalar's bits and byte size.
var encodeScalar = driver.ScalarBits

// scratchFor returns the device address of scratch buffer j holding at least size bytes
// aligned to align, growing the cached buffer when needed (0 when size is 0).
func (k *Kernel) scratchFor(j, size, align int) (uint64, error) {
	if size == 0 {
		return 0, nil
	}
	// cuMemAlloc aligns to at least 256 bytes; a larger alignment is met by over-allocating.
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
		ptr = (ptr + uint64(align) - 1) / uint64(align) * uint64(align)
	}
	return ptr, nil
}

// enqueue launches the kernel with cuLaunchKernel, or with cuLaunchKernelEx when it needs
// launch attributes. The caller has pinned the values that params point to.
func (k *Kernel) enqueue(grid driver.Grid, params []unsafe.Pointer, pin *runtime.Pinner) error {
	a, d := k.d.api, k.d
	block := uint32(32 * k.opts.NumWarps)
	shared := uint32(k.opts.SharedBytes)
	var attrs []launchAttribute
	if k.opts.PDL {
		attrs = append(attrs, newLaunchAttribute(launchAttrProgrammatic, 1))
	}
	if k.opts.Cooperative {
		attrs = append(attrs, newLaunchAttribute(launchAttrCooperative, 1))
	}
	if len(attrs) == 0 {
		return a.check("cuLaunchKernel", a.cuLaunchKernel(k.fn,
			uint32(grid[0]), uint32(grid[1]), uint32(grid[2]), block, 1, 1,
			shared, d.stream, unsafe.Pointer(&params[0]), nil))
	}
	pin.Pin(&attrs[0])
	cfg := launchConfig{
		gridX: uint32(grid[0]), gridY: uint32(grid[1]), gridZ: uint32(grid[2]),
		blockX: block, blockY: 1, blockZ: 1,
		sharedBytes: shared,
		stream:      d.stream,
		attrs:       unsafe.Pointer(&attrs[0]),
		numAttrs:    uint32(len(attrs)),
	}
	return a.check("cuLaunchKernelEx", a.cuLaunchKernelEx(unsafe.Pointer(&cfg), k.fn, unsafe.Pointer(&params[0]), nil))
}

// launchConfig is CUlaunchConfig (56 bytes on 64-bit machines).
type launchConfig struct {
	gridX, gridY, gridZ    uint32
	blockX, blockY, blockZ uint32
	sharedBytes            uint32
	stream                 uintptr
	attrs                  unsafe.Pointer
	numAttrs               uint32
}

// launchAttribute is CUlaunchAttribute: an id padded to 8 bytes, then a 64-byte union.
type launchAttribute struct {
	id    uint32
	_     uint32
	value [64]byte
}

// newLaunchAttribute returns an attribute whose value is the int v.
func newLaunchAttribute(id uint32, v int32) launchAttribute {
	at := launchAttribute{id: id}
	binary.LittleEndian.PutUint32(at.value[:], uint32(v))
	return at
}

// Unload waits for the device's work, frees the kernel's scratch buffers and unloads its
// module. The kernel must not be launched after. After a context reset it only forgets
// the module, which went with the old context.
func (k *Kernel) Unload() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.d.stale("kernel", k.gen) != nil {
		k.mod, k.fn, k.scratch = 0, 0, [2]*Buffer{}
		return nil
	}
	err := k.d.Synchronize()
	for j, b := range k.scratch {
		if b != nil {
			err = errors.Join(err, b.Free())
			k.scratch[j] = nil
		}
	}
	if k.mod != 0 {
		a := k.d.api
		err = errors.Join(err, k.d.with(func() error { return a.check("cuModuleUnload", a.cuModuleUnload(k.mod)) }))
		k.mod, k.fn = 0, 0
	}
	return err
}

// cstr returns s as a NUL-terminated byte string.
func cstr(s string) *byte {
	b := append([]byte(s), 0)
	return &b[0]
}
