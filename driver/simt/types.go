package simt

import (
	"fmt"

	"github.com/llir/llvm/ir/types"
)

// kind is the scalar type of one element of a value. Every element lives in a uint64:
// integers zero-extended to their width, floats as their bit pattern, pointers as
// addresses (32 bits wide in 32-bit address spaces).
type kind uint8

const (
	kI1 kind = iota
	kI8
	kI16
	kI32
	kI64
	kF16
	kBF16
	kF32
	kF64
	kPtr
)

// bits is the element's width in bits as stored in memory (pointers: see ptrBits).
func (k kind) bits() int {
	switch k {
	case kI1:
		return 1
	case kI8:
		return 8
	case kI16, kF16, kBF16:
		return 16
	case kI32, kF32:
		return 32
	}
	return 64
}

func (k kind) isFloat() bool { return k >= kF16 && k <= kF64 }

// scalarKind returns t's kind when t is a scalar type.
func scalarKind(t types.Type) (kind, error) {
	switch t := t.(type) {
	case *types.IntType:
		switch t.BitSize {
		case 1:
			return kI1, nil
		case 8:
			return kI8, nil
		case 16:
			return kI16, nil
		case 32:
			return kI32, nil
		case 64:
			return kI64, nil
		}
	case *types.FloatType:
		switch t.Kind {
		case types.FloatKindHalf:
			return kF16, nil
		case types.FloatKindFloat:
			return kF32, nil
		case types.FloatKindDouble:
			return kF64, nil
		}
	case *types.PointerType:
		return kPtr, nil
	}
	return 0, fmt.Errorf("unsupported type %s", t)
}

// flatten lists the kinds of t's scalar elements in order (a vector, struct or array is
// laid out element by element).
func flatten(t types.Type) ([]kind, error) {
	switch t := t.(type) {
	case *types.VectorType:
		k, err := scalarKind(t.ElemType)
		if err != nil {
			return nil, err
		}
		out := make([]kind, t.Len)
		for i := range out {
			out[i] = k
		}
		return out, nil
	case *types.ArrayType:
		e, err := flatten(t.ElemType)
		if err != nil {
			return nil, err
		}
		var out []kind
		for range t.Len {
			out = append(out, e...)
		}
		return out, nil
	case *types.StructType:
		var out []kind
		for _, f := range t.Fields {
			e, err := flatten(f)
			if err != nil {
				return nil, err
			}
			out = append(out, e...)
		}
		return out, nil
	case *types.VoidType:
		return nil, nil
	}
	k, err := scalarKind(t)
	if err != nil {
		return nil, err
	}
	return []kind{k}, nil
}

// ptrBits is the width of a pointer into address space as (NVPTX's data layout: 32-bit
// shared, constant and local pointers, 64-bit global and generic ones).
func (isa *ISA) ptrBits(t types.Type) int {
	if p, ok := t.(*types.PointerType); ok && isa.Narrow[int(p.AddrSpace)] {
		return 32
	}
	return 64
}

// sizeOf is t's allocation size in bytes (natural alignment, as lower's types need).
func (isa *ISA) sizeOf(t types.Type) (int, error) {
	switch t := t.(type) {
	case *types.IntType:
		return (int(t.BitSize) + 7) / 8, nil
	case *types.FloatType:
		k, err := scalarKind(t)
		if err != nil {
			return 0, err
		}
		return k.bits() / 8, nil
	case *types.PointerType:
		return isa.ptrBits(t) / 8, nil
	case *types.VectorType:
		e, err := isa.sizeOf(t.ElemType)
		return e * int(t.Len), err
	case *types.ArrayType:
		e, err := isa.sizeOf(t.ElemType)
		return e * int(t.Len), err
	case *types.StructType:
		size, align := 0, 1
		for _, f := range t.Fields {
			s, err := isa.sizeOf(f)
			if err != nil {
				return 0, err
			}
			a := isa.alignOf(f)
			size = (size + a - 1) / a * a
			size += s
			align = max(align, a)
		}
		return (size + align - 1) / align * align, nil
	}
	return 0, fmt.Errorf("no size for type %s", t)
}

func (isa *ISA) alignOf(t types.Type) int {
	switch t := t.(type) {
	case *types.StructType:
		a := 1
		for _, f := range t.Fields {
			a = max(a, isa.alignOf(f))
		}
		return a
	case *types.ArrayType:
		return isa.alignOf(t.ElemType)
	}
	s, err := isa.sizeOf(t)
	if err != nil || s == 0 {
		return 1
	}
	return s
}

// elemSizes lists the byte size of each flattened element of t in memory.
func (isa *ISA) elemSizes(t types.Type) ([]int, error) {
	ks, err := flatten(t)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(ks))
	for i, k := range ks {
		if k == kPtr {
			out[i] = isa.ptrBits(elemPtrType(t)) / 8
		} else {
			out[i] = max(k.bits()/8, 1)
		}
	}
	return out, nil
}

// elemPtrType is the pointer type of t's elements when t is a pointer or a vector of them.
func elemPtrType(t types.Type) types.Type {
	if v, ok := t.(*types.VectorType); ok {
		return v.ElemType
	}
	return t
}

// mask is the all-ones value of a width.
func mask(bits int) uint64 {
	if bits >= 64 {
		return ^uint64(0)
	}
	return 1<<bits - 1
}

// sext sign-extends the low bits of v.
func sext(v uint64, bits int) int64 {
	s := 64 - bits
	return int64(v<<s) >> s
}
