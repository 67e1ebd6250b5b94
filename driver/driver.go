// Package driver is the device-neutral API that the conformance runner and `gotriton run`
// use to allocate memory and launch kernels. Each device implements it: driver/cpu runs
// tile IR in Go; driver/cuda loads PTX through libcuda.
package driver

import (
	"encoding/binary"
	"fmt"
)

// Device owns memory and runs kernels.
type Device interface {
	// Name is a short description, e.g. "cpu (16 cores)" or "cuda: NVIDIA H200 (sm_90)".
	Name() string
	// Alloc returns a zero-filled buffer of size bytes.
	Alloc(size int) (Buffer, error)
	// Synchronize waits until all launched work has finished.
	Synchronize() error
	Close() error
}

// Buffer is device memory. Offsets and sizes are in bytes.
type Buffer interface {
	Size() int
	// Write copies src into the buffer at offset (host to device).
	Write(offset int, src []byte) error
	// Read copies from the buffer at offset into dst (device to host).
	Read(offset int, dst []byte) error
	Free() error
}

// Grid is the number of program instances along x, y and z.
type Grid [3]int

// Kernel is a compiled kernel loaded on a device.
type Kernel interface {
	// Launch runs the kernel over grid. Args follow the kernel's non-constexpr parameters
	// in order: a Buffer for each pointer, and Go scalars (int32, int64, uint32, uint64,
	// float32, float64, bool) for the rest.
	Launch(grid Grid, args ...any) error
}

// Elem is a Go type that can be copied to and from a buffer, little-endian.
type Elem interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// Upload allocates a buffer on d holding data.
func Upload[T Elem](d Device, data []T) (Buffer, error) {
	raw := Encode(data)
	b, err := d.Alloc(len(raw))
	if err != nil {
		return nil, err
	}
	if err := b.Write(0, raw); err != nil {
		b.Free()
		return nil, err
	}
	return b, nil
}

// Download reads a whole buffer as elements of type T.
func Download[T Elem](b Buffer) ([]T, error) {
	var zero T
	n := b.Size() / binary.Size(zero)
	raw := make([]byte, n*binary.Size(zero))
	if err := b.Read(0, raw); err != nil {
		return nil, err
	}
	return Decode[T](raw), nil
}

// Encode returns data's little-endian bytes.
func Encode[T Elem](data []T) []byte {
	out, err := binary.Append(nil, binary.LittleEndian, data)
	if err != nil {
		panic(fmt.Sprintf("driver.Encode: %v", err)) // unreachable: Elem types are fixed-size
	}
	return out
}

// Decode interprets little-endian bytes as elements of type T.
func Decode[T Elem](raw []byte) []T {
	var zero T
	out := make([]T, len(raw)/binary.Size(zero))
	if _, err := binary.Decode(raw, binary.LittleEndian, out); err != nil {
		panic(fmt.Sprintf("driver.Decode: %v", err)) // unreachable: the length is a multiple
	}
	return out
}
