package tileir

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// Type is a tileir type: a Scalar, a *PtrType, a *TensorType or a *TensorDescType.
//
// Every constructor interns its result, so two types are equal exactly when they are ==.
type Type interface {
	// String returns the type as TTIR prints it, e.g. "tensor<128x!tt.ptr<f16>>".
	String() string
	isType()
}

// Scalar is an element type. Integers are signless, as in MLIR: the frontend picks the signed
// or unsigned op variant (DivSI/DivUI, CmpI "slt"/"ult", ExtSI/ExtUI ...).
type Scalar uint8

// The scalar types. The fp8 names are MLIR's: F8E4M3FN is tl.float8e4nv, F8E5M2 is
// tl.float8e5, F8E4M3B11FNUZ is tl.float8e4b15, F8E4M3FNUZ and F8E5M2FNUZ are AMD's.
const (
	I1 Scalar = iota + 1
	I8
	I16
	I32
	I64
	F16
	BF16
	F32
	F64
	F8E4M3FN
	F8E5M2
	F8E4M3FNUZ
	F8E5M2FNUZ
	F8E4M3B11FNUZ
)

var scalarNames = [...]string{
	I1: "i1", I8: "i8", I16: "i16", I32: "i32", I64: "i64",
	F16: "f16", BF16: "bf16", F32: "f32", F64: "f64",
	F8E4M3FN: "f8E4M3FN", F8E5M2: "f8E5M2", F8E4M3FNUZ: "f8E4M3FNUZ",
	F8E5M2FNUZ: "f8E5M2FNUZ", F8E4M3B11FNUZ: "f8E4M3B11FNUZ",
}

func (s Scalar) String() string {
	if int(s) < len(scalarNames) && scalarNames[s] != "" {
		return scalarNames[s]
	}
	return "scalar(" + strconv.Itoa(int(s)) + ")"
}

func (Scalar) isType() {}

// IsInt reports whether s is an integer (including i1).
func (s Scalar) IsInt() bool { return s >= I1 && s <= I64 }

// IsFloat reports whether s is a floating-point type (including fp8).
func (s Scalar) IsFloat() bool { return s >= F16 && s <= F8E4M3B11FNUZ }

// Bits returns the width of s in bits.
func (s Scalar) Bits() int {
	switch s {
	case I1:
		return 1
	case I8, F8E4M3FN, F8E5M2, F8E4M3FNUZ, F8E5M2FNUZ, F8E4M3B11FNUZ:
		return 8
	case I16, F16, BF16:
		return 16
	case I32, F32:
		return 32
	case I64, F64:
		return 64
	}
	return 0
}

// floatFormat returns the exponent and stored-mantissa widths of a float scalar.
func (s Scalar) floatFormat() (exp, mant int) {
	switch s {
	case F16:
		return 5, 10
	case BF16:
		return 8, 7
	case F32:
		return 8, 23
	case F64:
		return 11, 52
	case F8E5M2, F8E5M2FNUZ:
		return 5, 2
	default: // the e4m3 family
		return 4, 3
	}
}

// PtrType is !tt.ptr<Elem> (address space 1, the default, is not printed) or
// !tt.ptr<Elem, N>. Elem may be a scalar, another pointer, or a tensor (a block pointer).
type PtrType struct {
	elem      Type
	addrSpace int
	str       string
}

// Elem returns the pointee type.
func (p *PtrType) Elem() Type { return p.elem }

// AddrSpace returns the address space (1 is global memory).
func (p *PtrType) AddrSpace() int { return p.addrSpace }

func (p *PtrType) String() string { return p.str }

func (p *PtrType) format() string {
	if p.addrSpace == 1 {
		return "!tt.ptr<" + p.elem.String() + ">"
	}
	return "!tt.ptr<" + p.elem.String() + ", " + strconv.Itoa(p.addrSpace) + ">"
}

func (*PtrType) isType() {}

// TensorType is a ranked tensor of scalars or pointers: tensor<128x64xf32>.
type TensorType struct {
	shape []int64
	elem  Type
	str   string
}

// Shape returns the dimensions. The slice is shared: do not modify it.
func (t *TensorType) Shape() []int64 { return t.shape }

// Elem returns the element type (a Scalar or a *PtrType).
func (t *TensorType) Elem() Type { return t.elem }

// NumElements returns the product of the dimensions.
func (t *TensorType) NumElements() int64 {
	n := int64(1)
	for _, d := range t.shape {
		n *= d
	}
	return n
}

func (t *TensorType) String() string { return t.str }

func (t *TensorType) format() string {
	var b strings.Builder
	b.WriteString("tensor<")
	for _, d := range t.shape {
		b.WriteString(strconv.FormatInt(d, 10))
		b.WriteByte('x')
	}
	b.WriteString(t.elem.String())
	b.WriteByte('>')
	return b.String()
}

func (*TensorType) isType() {}

// TensorDescType is !tt.tensordesc<tensor<...>>, a TMA-style descriptor of a block.
type TensorDescType struct {
	block *TensorType
	str   string
}

// Block returns the block's tensor type.
func (d *TensorDescType) Block() *TensorType { return d.block }

func (d *TensorDescType) String() string { return d.str }

func (*TensorDescType) isType() {}

// typeKey identifies a composite type: its kind's constructor, element (or block) type,
// address space and, for tensors, the dimensions' bytes.
type typeKey struct {
	kind      byte // 'p', 't' or 'd'
	elem      Type
	addrSpace int
	dims      string
}

var (
	internMu sync.Mutex
	interned = map[typeKey]Type{}
)

// intern returns the type for k, building it the first time.
func intern(k typeKey, build func() Type) Type {
	internMu.Lock()
	defer internMu.Unlock()
	t, ok := interned[k]
	if !ok {
		t = build()
		k.dims = strings.Clone(k.dims)
		interned[k] = t
	}
	return t
}

// Ptr returns !tt.ptr<elem> in address space 1.
func Ptr(elem Type) *PtrType { return PtrIn(elem, 1) }

// PtrIn returns !tt.ptr<elem, addrSpace>.
func PtrIn(elem Type, addrSpace int) *PtrType {
	return intern(typeKey{kind: 'p', elem: elem, addrSpace: addrSpace}, func() Type {
		p := &PtrType{elem: elem, addrSpace: addrSpace}
		p.str = p.format()
		return p
	}).(*PtrType)
}

// Tensor returns tensor<shape x elem>. elem must be a Scalar or a *PtrType.
func Tensor(shape []int64, elem Type) *TensorType {
	var dims string // the dimensions' bytes, viewed in place for the lookup
	if len(shape) > 0 {
		dims = unsafe.String((*byte)(unsafe.Pointer(&shape[0])), len(shape)*8)
	}
	return intern(typeKey{kind: 't', elem: elem, dims: dims}, func() Type {
		t := &TensorType{shape: slices.Clone(shape), elem: elem}
		t.str = t.format()
		return t
	}).(*TensorType)
}

// TensorDesc returns !tt.tensordesc<block>.
func TensorDesc(block *TensorType) *TensorDescType {
	return intern(typeKey{kind: 'd', elem: block}, func() Type {
		return &TensorDescType{block: block, str: "!tt.tensordesc<" + block.String() + ">"}
	}).(*TensorDescType)
}

// ElemType returns the element type of a tensor, or t itself otherwise.
func ElemType(t Type) Type {
	if tt, ok := t.(*TensorType); ok {
		return tt.elem
	}
	return t
}

// ScalarOf returns the scalar element type of t (a scalar or a tensor of scalars), or 0.
func ScalarOf(t Type) Scalar {
	s, _ := ElemType(t).(Scalar)
	return s
}

// ShapeOf returns the shape of a tensor type, or nil for anything else.
func ShapeOf(t Type) []int64 {
	if tt, ok := t.(*TensorType); ok {
		return tt.shape
	}
	return nil
}

// WithElem returns t with its element type replaced: a tensor of the same shape, or elem
// itself when t is not a tensor. It is handy for masks: WithElem(t, I1).
func WithElem(t Type, elem Type) Type {
	if tt, ok := t.(*TensorType); ok {
		return Tensor(tt.shape, elem)
	}
	return elem
}

// IsIntLike reports whether t is an integer scalar or a tensor of them.
func IsIntLike(t Type) bool { return ScalarOf(t).IsInt() }

// IsFloatLike reports whether t is a float scalar or a tensor of them.
func IsFloatLike(t Type) bool { return ScalarOf(t).IsFloat() }

// IsPtrLike reports whether t is a pointer or a tensor of pointers.
func IsPtrLike(t Type) bool {
	_, ok := ElemType(t).(*PtrType)
	return ok
}

func sameShape(a, b Type) bool {
	sa, sb := ShapeOf(a), ShapeOf(b)
	_, ta := a.(*TensorType)
	_, tb := b.(*TensorType)
	if ta != tb || len(sa) != len(sb) {
		return false
	}
	for i := range sa {
		if sa[i] != sb[i] {
			return false
		}
	}
	return true
}
