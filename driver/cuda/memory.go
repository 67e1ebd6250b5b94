package cuda

import (
	"fmt"
	"unsafe"

	"github.com/gotriton/gotriton/driver"
)

// Buffer is device memory from cuMemAlloc. Copies go through the legacy default stream,
// which orders them after earlier work on the device's stream, so Read sees the results
// of every kernel launched before it.
type Buffer struct {
	d    *Device
	ptr  uint64
	size int
	gen  uint64 // the device's context generation when allocated
}

// Alloc returns a zero-filled buffer of size bytes. A zero-size buffer holds no memory.
func (d *Device) Alloc(size int) (driver.Buffer, error) {
	return d.alloc(size)
}

// alloc is Alloc with the concrete type.
func (d *Device) alloc(size int) (*Buffer, error) {
	if size < 0 {
		return nil, fmt.Errorf("cuda: Alloc of %d bytes", size)
	}
	b := &Buffer{d: d, size: size, gen: d.gen}
	if size == 0 {
		return b, nil
	}
	a := d.api
	err := d.with(func() error {
		if err := a.check("cuMemAlloc", a.cuMemAlloc(&b.ptr, uintptr(size))); err != nil {
			return err
		}
		return a.check("cuMemsetD8", a.cuMemsetD8(b.ptr, 0, uintptr(size)))
	})
	if err != nil {
		if b.ptr != 0 {
			d.with(func() error { return a.check("cuMemFree", a.cuMemFree(b.ptr)) })
		}
		return nil, err
	}
	return b, nil
}

// Size is the buffer's length in bytes.
func (b *Buffer) Size() int { return b.size }

// Ptr is the buffer's device address (0 for a zero-size or freed buffer).
func (b *Buffer) Ptr() uint64 { return b.ptr }

// span checks that n bytes at offset lie inside the live buffer.
func (b *Buffer) span(op string, offset, n int) error {
	if err := b.d.stale("buffer", b.gen); err != nil && b.size != 0 {
		return fmt.Errorf("%s: %w", op, err)
	}
	if b.ptr == 0 && b.size != 0 {
		return fmt.Errorf("cuda: %s on a freed buffer", op)
	}
	if offset < 0 || n < 0 || offset+n > b.size {
		return fmt.Errorf("cuda: %s of %d bytes at offset %d is outside a %d-byte buffer", op, n, offset, b.size)
	}
	return nil
}

// Write copies src into the buffer at offset (host to device).
func (b *Buffer) Write(offset int, src []byte) error {
	if err := b.span("Write", offset, len(src)); err != nil || len(src) == 0 {
		return err
	}
	a := b.d.api
	return b.d.with(func() error {
		return a.check("cuMemcpyHtoD", a.cuMemcpyHtoD(b.ptr+uint64(offset), unsafe.Pointer(&src[0]), uintptr(len(src))))
	})
}

// Read copies from the buffer at offset into dst (device to host). It waits for earlier
// launches and reports their errors.
func (b *Buffer) Read(offset int, dst []byte) error {
	if err := b.span("Read", offset, len(dst)); err != nil || len(dst) == 0 {
		return err
	}
	a := b.d.api
	return b.d.with(func() error {
		return a.check("cuMemcpyDtoH", a.cuMemcpyDtoH(unsafe.Pointer(&dst[0]), b.ptr+uint64(offset), uintptr(len(dst))))
	})
}

// Memset sets n bytes at offset to value.
func (b *Buffer) Memset(offset, n int, value byte) error {
	if err := b.span("Memset", offset, n); err != nil || n == 0 {
		return err
	}
	a := b.d.api
	return b.d.with(func() error {
		return a.check("cuMemsetD8", a.cuMemsetD8(b.ptr+uint64(offset), value, uintptr(n)))
	})
}

// Free releases the memory. Freeing twice, or after the context was reset (which freed
// it already), is a no-op.
func (b *Buffer) Free() error {
	if b.ptr == 0 || b.d.stale("buffer", b.gen) != nil {
		b.ptr = 0
		return nil
	}
	a := b.d.api
	err := b.d.with(func() error { return a.check("cuMemFree", a.cuMemFree(b.ptr)) })
	b.ptr = 0
	return err
}
