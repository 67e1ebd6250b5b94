// Package simt runs the LLVM IR that package lower emits, without a GPU: a SIMT interpreter
// in which every thread of a program (CTA) is one lane of each SSA value, and the lanes of
// all warps step through the kernel in lockstep. What is ISA-specific (the intrinsics, the
// inline assembly, the warp size, the address spaces) sits in an ISA table: NVIDIA's
// (llvm.nvvm.* and the PTX subset lower writes as inline asm) is the first; AMD's can be
// added as another table without changing the core.
//
// Memory is checked: an access outside every buffer, outside shared memory or misaligned
// stops the launch with an *Error naming the kernel, the program, the lane and the
// instruction. Control flow must be uniform across a program's threads, as Triton's is;
// a divergent branch is an error too.
package simt

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/gotriton/gotriton/driver"
)

// Addresses: buffer id n owns the window [n<<40, (n+1)<<40) of a flat 64-bit space and
// starts at its beginning plus a guard, so that an address names its buffer by its top bits.
// Address 0 is the null pointer.
const (
	windowBits = 40
	guard      = 1 << 20
	maxBuffer  = 1<<windowBits - 2*guard
)

func baseOf(id int) uint64 { return uint64(id)<<windowBits + guard }

// Options configure a Device.
type Options struct {
	// Workers is the number of programs run at once; 0 means runtime.NumCPU().
	Workers int
	// Stdout receives device printf output; nil means os.Stdout.
	Stdout io.Writer
}

// Device is the simulated GPU's memory plus a worker count. It implements driver.Device.
type Device struct {
	isa     *ISA
	workers int

	mu   sync.RWMutex
	bufs []*Buffer // by id; nil once freed; id 0 is never used
	// atomic serialises read-modify-write operations of programs run at once.
	atomic sync.Mutex
	out    io.Writer
	outMu  sync.Mutex
}

// New returns a device that runs code of isa.
func New(isa *ISA, opts Options) *Device {
	d := &Device{isa: isa, workers: opts.Workers, bufs: []*Buffer{nil}, out: opts.Stdout}
	if d.out == nil {
		d.out = os.Stdout
	}
	if d.workers <= 0 {
		d.workers = runtime.NumCPU()
	}
	return d
}

// Name describes the device.
func (d *Device) Name() string {
	return fmt.Sprintf("simt %s (%d workers)", d.isa.Name, d.workers)
}

// Alloc returns a zero-filled buffer.
func (d *Device) Alloc(size int) (driver.Buffer, error) { return d.alloc(size) }

func (d *Device) alloc(size int) (*Buffer, error) {
	if size < 0 || size > maxBuffer {
		return nil, fmt.Errorf("simt: cannot allocate %d bytes (at most %d)", size, maxBuffer)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.bufs) >= 1<<(64-windowBits) {
		return nil, fmt.Errorf("simt: too many buffers")
	}
	b := &Buffer{d: d, id: len(d.bufs), data: make([]byte, size)}
	d.bufs = append(d.bufs, b)
	return b, nil
}

// Synchronize does nothing: launches run to completion.
func (d *Device) Synchronize() error { return nil }

// Close frees every buffer.
func (d *Device) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := range d.bufs {
		d.bufs[i] = nil
	}
	return nil
}

// resolve finds the buffer bytes [addr, addr+size) lie in, or says why there is none.
func (d *Device) resolve(addr uint64, size int) ([]byte, error) {
	id := int(addr >> windowBits)
	d.mu.RLock()
	var b *Buffer
	if id > 0 && id < len(d.bufs) {
		b = d.bufs[id]
	}
	d.mu.RUnlock()
	if b == nil {
		return nil, fmt.Errorf("address %#x is in no buffer", addr)
	}
	off := int64(addr - uint64(id)<<windowBits - guard)
	if off < 0 || off+int64(size) > int64(len(b.data)) {
		return nil, fmt.Errorf("address %#x (%d bytes) is outside buffer %d [%#x, %#x)", addr, size, id, baseOf(id), baseOf(id)+uint64(len(b.data)))
	}
	return b.data[off : off+int64(size)], nil
}

// Buffer is device memory on the simulated device.
type Buffer struct {
	d    *Device
	id   int
	data []byte
}

// Size is the buffer's length in bytes.
func (b *Buffer) Size() int { return len(b.data) }

// Addr is the buffer's device address.
func (b *Buffer) Addr() uint64 { return baseOf(b.id) }

// Write copies src into the buffer at offset.
func (b *Buffer) Write(offset int, src []byte) error {
	if offset < 0 || offset+len(src) > len(b.data) {
		return fmt.Errorf("simt: write of %d bytes at %d into a %d-byte buffer", len(src), offset, len(b.data))
	}
	copy(b.data[offset:], src)
	return nil
}

// Read copies from the buffer at offset into dst.
func (b *Buffer) Read(offset int, dst []byte) error {
	if offset < 0 || offset+len(dst) > len(b.data) {
		return fmt.Errorf("simt: read of %d bytes at %d from a %d-byte buffer", len(dst), offset, len(b.data))
	}
	copy(dst, b.data[offset:])
	return nil
}

// Free releases the buffer; its addresses become invalid.
func (b *Buffer) Free() error {
	b.d.mu.Lock()
	defer b.d.mu.Unlock()
	if b.id < len(b.d.bufs) && b.d.bufs[b.id] == b {
		b.d.bufs[b.id] = nil
	}
	return nil
}
