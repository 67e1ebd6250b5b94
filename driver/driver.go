// Package driver is the device-neutral API that the conformance runner and `gotriton run`
// use to allocate memory and launch kernels. Each device implements it: driver/cpu runs
// tile IR in Go; driver/cuda loads PTX through libcuda.
package driver

import (
	"encoding/binary"
	"fmt"
	"math"
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

// ScalarBits returns the bits of a kernel's scalar argument, zero-extended to 64 bits,
// and its size in bytes: bool and int8/uint8 are 1 byte, int16/uint16 2 (a Triton fp16 or
// bf16 scalar is passed as its bits in a uint16), int32/uint32/float32 4, and
// int64/uint64/float64 8. Go's int and uint have no fixed size and are refused.
func ScalarBits(arg any) (bits uint64, size int, err error) {
	switch v := arg.(type) {
	case bool:
		if v {
			return 1, 1, nil
		}
		return 0, 1, nil
	case int8:
		return uint64(uint8(v)), 1, nil
	case uint8:
		return uint64(v), 1, nil
	case int16:
		return uint64(uint16(v)), 2, nil
	case uint16:
		return uint64(v), 2, nil
	case int32:
		return uint64(uint32(v)), 4, nil
	case uint32:
		return uint64(v), 4, nil
	case float32:
		return uint64(math.Float32bits(v)), 4, nil
	case int64:
		return uint64(v), 8, nil
	case uint64:
		return v, 8, nil
	case float64:
		return math.Float64bits(v), 8, nil
	case int, uint:
		return 0, 0, fmt.Errorf("%T has no fixed size; pass int32 or int64 to match the parameter", arg)
	}
	return 0, 0, fmt.Errorf("cannot pass %T to a kernel", arg)
}

// Programs returns the number of programs of g: the product of its dimensions, each of
// which must be in [0, 2^31).
func (g Grid) Programs() (int, error) {
	programs := 1
	for i, n := range g {
		if n < 0 || n > math.MaxInt32 {
			return 0, fmt.Errorf("grid dimension %d is %d", i, n)
		}
		programs *= n
	}
	return programs, nil
}
