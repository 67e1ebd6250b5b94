package cuda

import (
	"errors"
	"fmt"
	"unsafe"
)

// TensorMap is a CUtensorMap: the 128-byte descriptor that TMA instructions read. It is
// the launch argument for a host-side tensor descriptor parameter (Triton's
// TensorDescriptor) on sm_90 and later, passed by value as Triton 3.6 passes it; the
// descriptor's shape and strides follow it as separate parameters.
type TensorMap struct {
	words [16]uint64
}

// CUtensorMapDataType values (cuda.h).
const (
	tmaUint8    = 0
	tmaUint16   = 1
	tmaUint32   = 2
	tmaInt32    = 3
	tmaUint64   = 4
	tmaInt64    = 5
	tmaFloat16  = 6
	tmaFloat32  = 7
	tmaFloat64  = 8
	tmaBFloat16 = 9
)

// tmaTypes maps a Triton element type to its CUtensorMapDataType and byte size. fp8 types
// travel as bytes, as Triton encodes them.
var tmaTypes = map[string]struct{ code, size int }{
	"i1": {tmaUint8, 1}, "i8": {tmaUint8, 1}, "u8": {tmaUint8, 1},
	"fp8e4nv": {tmaUint8, 1}, "fp8e5": {tmaUint8, 1}, "fp8e4b15": {tmaUint8, 1},
	"i16": {tmaUint16, 2}, "u16": {tmaUint16, 2}, "fp16": {tmaFloat16, 2}, "bf16": {tmaBFloat16, 2},
	"i32": {tmaInt32, 4}, "u32": {tmaUint32, 4}, "fp32": {tmaFloat32, 4},
	"i64": {tmaInt64, 8}, "u64": {tmaUint64, 8}, "fp64": {tmaFloat64, 8},
}

// tmaSwizzles are the CUtensorMapSwizzle values (cuda.h), by the swizzle's span in bytes.
var tmaSwizzles = map[int]int{0: 0, 32: 1, 64: 2, 128: 3}

// tensorMapArgs are cuTensorMapEncodeTiled's arguments, innermost dimension first.
type tensorMapArgs struct {
	dataType      int
	globalDim     []uint64
	globalStrides []uint64 // bytes, one per dimension after the innermost
	boxDim        []uint32
	elemStrides   []uint32
	swizzle       int // a CUtensorMapSwizzle
}

// newTensorMapArgs checks a row-major descriptor (shape and strides in elements, outermost
// first; box is the tile one TMA copy moves; swizzle the swizzle's span in bytes) against
// TMA's rules and returns the encoder's arguments. The rules are Triton's TensorDescriptor
// checks plus the driver's: rank 1 to 5, the last dimension contiguous, a 16-byte-aligned
// base and outer strides, box dimensions of 1 to 256 elements, an innermost box row of a
// multiple of 16 bytes, a swizzle of 0 (none), 32, 64 or 128 bytes and, with a swizzle,
// an innermost box row of at most the swizzle's span.
func newTensorMapArgs(dtype string, addr uint64, shape, strides, box []int64, swizzle int) (tensorMapArgs, error) {
	var a tensorMapArgs
	t, ok := tmaTypes[dtype]
	if !ok {
		return a, fmt.Errorf("tensor descriptor of %s: TMA has no such element type", dtype)
	}
	rank := len(shape)
	if rank < 1 || rank > 5 {
		return a, fmt.Errorf("tensor descriptor of rank %d: TMA takes 1 to 5 dimensions", rank)
	}
	if len(strides) != rank || len(box) != rank {
		return a, fmt.Errorf("tensor descriptor with %d dimensions, %d strides and a box of %d", rank, len(strides), len(box))
	}
	if strides[rank-1] != 1 {
		return a, fmt.Errorf("tensor descriptor: the last dimension must be contiguous (stride %d)", strides[rank-1])
	}
	if addr%16 != 0 {
		return a, fmt.Errorf("tensor descriptor: base address %#x is not 16-byte aligned", addr)
	}
	row := box[rank-1] * int64(t.size)
	if row%16 != 0 {
		return a, fmt.Errorf("tensor descriptor: a box row of %d bytes (%d × %s) is not a multiple of 16 bytes", row, box[rank-1], dtype)
	}
	if a.swizzle, ok = tmaSwizzles[swizzle]; !ok {
		return a, fmt.Errorf("tensor descriptor: a swizzle of %d bytes (TMA: 0, 32, 64 or 128)", swizzle)
	}
	if swizzle != 0 && row > int64(swizzle) {
		return a, fmt.Errorf("tensor descriptor: a box row of %d bytes (%d × %s) is wider than its %d-byte swizzle", row, box[rank-1], dtype, swizzle)
	}
	a.dataType = t.code
	for i := rank - 1; i >= 0; i-- {
		if shape[i] < 1 || shape[i] > 1<<32 {
			return a, fmt.Errorf("tensor descriptor: dimension %d has size %d (TMA: 1 to 2^32)", i, shape[i])
		}
		if box[i] < 1 || box[i] > 256 {
			return a, fmt.Errorf("tensor descriptor: box dimension %d is %d (TMA: 1 to 256)", i, box[i])
		}
		a.globalDim = append(a.globalDim, uint64(shape[i]))
		a.boxDim = append(a.boxDim, uint32(box[i]))
		a.elemStrides = append(a.elemStrides, 1)
		if i < rank-1 {
			bytes := strides[i] * int64(t.size)
			if bytes%16 != 0 || bytes <= 0 || bytes >= 1<<40 {
				return a, fmt.Errorf("tensor descriptor: dimension %d's stride is %d bytes (TMA: a positive multiple of 16 below 2^40)", i, bytes)
			}
			a.globalStrides = append(a.globalStrides, uint64(bytes))
		}
	}
	return a, nil
}

// EncodeTensorMap builds the CUtensorMap for a row-major view of b: dtype is the Triton
// element type, shape and strides are in elements and box is the tile each TMA copy
// moves (the descriptor's block, or a slab of it), all outermost first. swizzle is the
// span in bytes of the shared-memory swizzle the kernel reads the box with: 0 (none), 32,
// 64 or 128 (CU_TENSOR_MAP_SWIZZLE_32B, 64B, 128B); with one, the box's innermost row may
// be at most that wide. The map uses no interleave and fills out-of-bounds elements with
// zeros. gotriton's lowering gives each descriptor parameter's box and swizzle
// (lower.Metadata.TensorMaps).
func (d *Device) EncodeTensorMap(b *Buffer, dtype string, shape, strides, box []int64, swizzle int) (*TensorMap, error) {
	if b == nil || b.d != d {
		return nil, errors.New("cuda: EncodeTensorMap: the buffer belongs to another device")
	}
	args, err := newTensorMapArgs(dtype, b.ptr, shape, strides, box, swizzle)
	if err != nil {
		return nil, fmt.Errorf("cuda: %w", err)
	}
	a := d.api
	if a.cuTensorMapEncodeTiled == nil {
		return nil, errors.New("cuda: the driver has no cuTensorMapEncodeTiled (CUDA 12.0 or later is needed for tensor descriptors)")
	}
	m := new(TensorMap)
	var outerStrides unsafe.Pointer // none for rank 1
	if len(args.globalStrides) > 0 {
		outerStrides = unsafe.Pointer(&args.globalStrides[0])
	}
	const interleaveNone, l2Promotion128B, oobFillZero = 0, 2, 0
	// The driver checks the address against the calling thread's current context, so
	// the call runs on the device's (a goroutine may be on a thread with none).
	err = d.with(func() error {
		return a.check("cuTensorMapEncodeTiled", a.cuTensorMapEncodeTiled(unsafe.Pointer(m), int32(args.dataType), uint32(len(args.globalDim)), b.ptr,
			unsafe.Pointer(&args.globalDim[0]), outerStrides, unsafe.Pointer(&args.boxDim[0]), unsafe.Pointer(&args.elemStrides[0]),
			interleaveNone, int32(args.swizzle), l2Promotion128B, oobFillZero))
	})
	if err != nil {
		return nil, fmt.Errorf("cuda: %w", err)
	}
	return m, nil
}
