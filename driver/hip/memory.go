package hip

import (
	"fmt"
	"unsafe"

	"github.com/gotriton/gotriton/driver"
)

// Buffer is device memory from hipMalloc. Copies are synchronous with the null stream, so
// Read sees the results of every kernel launched before it.
type Buffer struct {
	d    *Device
	ptr  uintptr
	size int
}

// Alloc returns a zero-filled buffer of size bytes. A zero-size buffer holds no memory.
func (d *Device) Alloc(size int) (driver.Buffer, error) { return d.alloc(size) }

func (d *Device) alloc(size int) (*Buffer, error) {
	if size < 0 {
		return nil, fmt.Errorf("hip: Alloc of %d bytes", size)
	}
	b := &Buffer{d: d, size: size}
	if size == 0 {
		return b, nil
	}
	a := d.api
	err := d.with(func() error {
		if err := a.check("hipMalloc", a.hipMalloc(&b.ptr, uintptr(size))); err != nil {
			return err
		}
		return a.check("hipMemsetD8", a.hipMemsetD8(b.ptr, 0, uintptr(size)))
	})
	if err != nil {
		if b.ptr != 0 {
			d.with(func() error { return a.check("hipFree", a.hipFree(b.ptr)) })
		}
		return nil, err
	}
	return b, nil
}

// Size is the buffer's length in bytes.
func (b *Buffer) Size() int { return b.size }

// Ptr is the buffer's device address (0 for a zero-size or freed buffer).
func (b *Buffer) Ptr() uintptr { return b.ptr }

// span checks that n bytes at offset lie inside the live buffer.
func (b *Buffer) span(op string, offset, n int) error {
	if b.ptr == 0 && b.size != 0 {
		return fmt.Errorf("hip: %s on a freed buffer", op)
	}
	if offset < 0 || n < 0 || offset+n > b.size {
		return fmt.Errorf("hip: %s of %d bytes at offset %d is outside a %d-byte buffer", op, n, offset, b.size)
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
		return a.check("hipMemcpyHtoD", a.hipMemcpyHtoD(b.ptr+uintptr(offset), unsafe.Pointer(&src[0]), uintptr(len(src))))
	})
}

// Read copies from the buffer at offset into dst (device to host).
func (b *Buffer) Read(offset int, dst []byte) error {
	if err := b.span("Read", offset, len(dst)); err != nil || len(dst) == 0 {
		return err
	}
	a := b.d.api
	return b.d.with(func() error {
		return a.check("hipMemcpyDtoH", a.hipMemcpyDtoH(unsafe.Pointer(&dst[0]), b.ptr+uintptr(offset), uintptr(len(dst))))
	})
}

// Free releases the memory. Freeing twice is a no-op.
func (b *Buffer) Free() error {
	if b.ptr == 0 {
		return nil
	}
	a := b.d.api
	err := b.d.with(func() error { return a.check("hipFree", a.hipFree(b.ptr)) })
	b.ptr = 0
	return err
}
