// Package cpu runs gotriton's tile IR on the CPU. It implements the device-neutral API of
// package driver, and it is the semantic reference that compiled code is tested against.
//
// A kernel is compiled once, at Load, into closures over numbered value slots. Each op then
// works on whole tiles (flat slices in row-major order), and program instances run in
// parallel on all cores. Integers and pointers live in []int64 (sign-extended to their
// width; a pointer is an address), floats of every width in []float64 (each element rounded
// to its type, so fp16, bf16 and fp8 arithmetic is bit-exact with round-to-nearest-even).
//
// Memory is checked: an unmasked access outside its buffer, a misaligned access or a failed
// device_assert stops the launch with an *Error that names the kernel, the program, the
// element, the buffer and the source line.
package cpu

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/gotriton/gotriton/driver"
)

// Addresses: buffer id n owns the 1 TiB window [n<<40, (n+1)<<40) of a flat 64-bit address
// space and starts in its middle, so that tt.ptr_to_int / tt.int_to_ptr round-trip and a
// pointer moved below its buffer's start still names that buffer in errors. Address 0 is
// the null pointer.
const (
	windowBits = 40
	baseOffset = 1 << (windowBits - 1)
	maxBuffer  = baseOffset // bytes
)

func baseOf(id int) int64 { return int64(id)<<windowBits + baseOffset }

// Options configure a Device.
type Options struct {
	// Workers is the number of program instances run at once; 0 means runtime.NumCPU().
	Workers int
	// Stdout receives device_print output; nil means os.Stdout.
	Stdout io.Writer
}

// Device runs kernels on the CPU. It implements driver.Device.
type Device struct {
	workers int
	out     io.Writer
	outMu   sync.Mutex

	mu   sync.Mutex
	bufs []*Buffer // by id; nil once freed; id 0 is never used
}

// New returns a CPU device.
func New(opts Options) *Device {
	d := &Device{workers: opts.Workers, out: opts.Stdout, bufs: []*Buffer{nil}}
	if d.workers <= 0 {
		d.workers = runtime.NumCPU()
	}
	if d.out == nil {
		d.out = os.Stdout
	}
	return d
}

// Name describes the device.
func (d *Device) Name() string { return fmt.Sprintf("cpu (%d workers)", d.workers) }

// Alloc returns a zero-filled buffer.
func (d *Device) Alloc(size int) (driver.Buffer, error) {
	if size < 0 || size > maxBuffer {
		return nil, fmt.Errorf("cpu: cannot allocate %d bytes (at most %d)", size, maxBuffer)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.bufs) >= 1<<(63-windowBits) {
		return nil, fmt.Errorf("cpu: too many buffers")
	}
	b := &Buffer{dev: d, id: len(d.bufs), data: make([]byte, size)}
	d.bufs = append(d.bufs, b)
	return b, nil
}

// Synchronize returns at once: Launch runs to completion before it returns.
func (d *Device) Synchronize() error { return nil }

// Close releases every buffer.
func (d *Device) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := range d.bufs {
		d.bufs[i] = nil
	}
	return nil
}

// snapshot returns the buffer table for one launch.
func (d *Device) snapshot() []*Buffer {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.bufs[:len(d.bufs):len(d.bufs)]
}

// Buffer is device memory on the CPU: a byte slice. It implements driver.Buffer.
type Buffer struct {
	dev  *Device
	id   int
	data []byte
	// mu serializes atomic operations on the buffer, which makes them sequentially
	// consistent and orders plain accesses made under a lock built from them.
	mu sync.Mutex
}

// Size returns the size in bytes.
func (b *Buffer) Size() int { return len(b.data) }

// Addr returns the device address of byte 0 of the buffer, as tt.ptr_to_int sees it.
func (b *Buffer) Addr() int64 { return baseOf(b.id) }

func (b *Buffer) span(offset, n int) error {
	if b.data == nil && n > 0 {
		return fmt.Errorf("cpu: buffer %d is freed", b.id)
	}
	if offset < 0 || n < 0 || offset+n > len(b.data) {
		return fmt.Errorf("cpu: access of %d bytes at offset %d is outside the buffer (%d bytes)", n, offset, len(b.data))
	}
	return nil
}

// Write copies src into the buffer at offset.
func (b *Buffer) Write(offset int, src []byte) error {
	if err := b.span(offset, len(src)); err != nil {
		return err
	}
	copy(b.data[offset:], src)
	return nil
}

// Read copies from the buffer at offset into dst.
func (b *Buffer) Read(offset int, dst []byte) error {
	if err := b.span(offset, len(dst)); err != nil {
		return err
	}
	copy(dst, b.data[offset:])
	return nil
}

// Free releases the buffer; later accesses by kernels are errors.
func (b *Buffer) Free() error {
	b.dev.mu.Lock()
	defer b.dev.mu.Unlock()
	b.dev.bufs[b.id] = nil
	b.data = nil
	return nil
}

// Bytes returns the buffer's storage (shared, not a copy).
func (b *Buffer) Bytes() []byte { return b.data }

// TensorDesc is the launch argument for a !tt.tensordesc parameter: a row-major view of a
// buffer, as Triton's host-side TensorDescriptor. Shape and Strides are in elements;
// Offset is in bytes.
type TensorDesc struct {
	Buffer  driver.Buffer
	Offset  int
	Shape   []int64
	Strides []int64
}

var le = binary.LittleEndian
