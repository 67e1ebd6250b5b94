package semantic

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gotriton/gotriton/tileir"
)

// Type is a Triton language type, as core.py models it: a scalar dtype, a pointer, a block
// (tensor) of scalars or pointers, or a tensor descriptor. Unlike tileir's types, Triton's
// integer types carry a signedness, which picks the signed or unsigned op variant.
type Type interface {
	// String returns the name Triton prints (int32, fp16, pointer<fp32>, <[128], fp32>).
	String() string
	// IR returns the tileir type.
	IR() tileir.Type
}

// DType is a scalar element type (tl.int32, tl.float16, ...). Void is the type of statements.
type DType uint8

// The scalar dtypes, in Triton's naming.
const (
	Void DType = iota
	Int1
	Int8
	Int16
	Int32
	Int64
	UInt8
	UInt16
	UInt32
	UInt64
	FP8E4NV
	FP8E5
	FP8E4B15
	FP8E4B8
	FP8E5B16
	FP16
	BF16
	FP32
	FP64
)

var dtypeNames = [...]string{
	Void: "void", Int1: "int1", Int8: "int8", Int16: "int16", Int32: "int32", Int64: "int64",
	UInt8: "uint8", UInt16: "uint16", UInt32: "uint32", UInt64: "uint64",
	FP8E4NV: "fp8e4nv", FP8E5: "fp8e5", FP8E4B15: "fp8e4b15", FP8E4B8: "fp8e4b8", FP8E5B16: "fp8e5b16",
	FP16: "fp16", BF16: "bf16", FP32: "fp32", FP64: "fp64",
}

// dtypeByName maps every tl attribute that names a dtype, and the short signature
// spellings, to the dtype.
var dtypeByName = map[string]DType{
	"void": Void, "int1": Int1, "int8": Int8, "int16": Int16, "int32": Int32, "int64": Int64,
	"uint8": UInt8, "uint16": UInt16, "uint32": UInt32, "uint64": UInt64,
	"float8e4nv": FP8E4NV, "float8e5": FP8E5, "float8e4b15": FP8E4B15, "float8e4b8": FP8E4B8,
	"float8e5b16": FP8E5B16, "float16": FP16, "bfloat16": BF16, "float32": FP32, "float64": FP64,
	"float8_e4m3fn": FP8E4NV, "float8_e5m2": FP8E5, "float8_e4m3fnuz": FP8E4B8, "float8_e5m2fnuz": FP8E5B16,
	"half": FP16, "float": FP32, "double": FP64, "bool": Int1, "int": Int32,
}

// sigDTypes maps the signature spellings of triton.tools.compile (str_to_ty) to dtypes.
var sigDTypes = map[string]DType{
	"fp8e4nv": FP8E4NV, "fp8e4b8": FP8E4B8, "fp8e5": FP8E5, "fp8e5b16": FP8E5B16, "fp8e4b15": FP8E4B15,
	"fp16": FP16, "bf16": BF16, "fp32": FP32, "fp64": FP64,
	"i1": Int1, "i8": Int8, "i16": Int16, "i32": Int32, "i64": Int64,
	"u1": Int1, "u8": UInt8, "u16": UInt16, "u32": UInt32, "u64": UInt64, "B": Int1,
}

func (d DType) String() string { return dtypeNames[d] }

// IR returns the signless tileir scalar.
func (d DType) IR() tileir.Type {
	switch d {
	case Int1:
		return tileir.I1
	case Int8, UInt8:
		return tileir.I8
	case Int16, UInt16:
		return tileir.I16
	case Int32, UInt32:
		return tileir.I32
	case Int64, UInt64:
		return tileir.I64
	case FP8E4NV:
		return tileir.F8E4M3FN
	case FP8E5:
		return tileir.F8E5M2
	case FP8E4B15:
		return tileir.F8E4M3B11FNUZ
	case FP8E4B8:
		return tileir.F8E4M3FNUZ
	case FP8E5B16:
		return tileir.F8E5M2FNUZ
	case FP16:
		return tileir.F16
	case BF16:
		return tileir.BF16
	case FP32:
		return tileir.F32
	case FP64:
		return tileir.F64
	}
	return nil
}

// IsInt reports an integer dtype, bool included.
func (d DType) IsInt() bool { return d >= Int1 && d <= UInt64 }

// IsSigned reports a signed integer (int1 counts as signed storage but never sign-extends).
func (d DType) IsSigned() bool { return d >= Int1 && d <= Int64 }

// IsUnsigned reports an unsigned integer.
func (d DType) IsUnsigned() bool { return d >= UInt8 && d <= UInt64 }

// IsFloat reports a floating-point dtype, fp8 included.
func (d DType) IsFloat() bool { return d >= FP8E4NV && d <= FP64 }

// IsFP8 reports one of the fp8 formats.
func (d DType) IsFP8() bool { return d >= FP8E4NV && d <= FP8E5B16 }

// IsStandardFloat reports fp16, bf16, fp32 or fp64.
func (d DType) IsStandardFloat() bool { return d >= FP16 && d <= FP64 }

// Bits is the primitive bit width.
func (d DType) Bits() int {
	switch d {
	case Int1:
		return 1
	case Int8, UInt8, FP8E4NV, FP8E5, FP8E4B15, FP8E4B8, FP8E5B16:
		return 8
	case Int16, UInt16, FP16, BF16:
		return 16
	case Int32, UInt32, FP32:
		return 32
	case Int64, UInt64, FP64:
		return 64
	}
	return 0
}

// mantissa is fp_mantissa_width.
func (d DType) mantissa() int {
	switch d {
	case FP8E4NV, FP8E4B15, FP8E4B8:
		return 3
	case FP8E5, FP8E5B16:
		return 2
	case FP16:
		return 10
	case BF16:
		return 7
	case FP32:
		return 23
	case FP64:
		return 52
	}
	return 0
}

// kind orders dtypes for scalar promotion: bool < integer < float, as Triton 3.6's
// dtype.KIND (signed and unsigned integers are one kind: uint16 << 7 stays uint16).
func (d DType) kind() int {
	switch {
	case d == Int1:
		return 0
	case d.IsInt():
		return 1
	}
	return 2
}

// intRange returns the representable range of an integer dtype.
func (d DType) intRange() (lo, hi float64) {
	n := d.Bits()
	if d == Int1 {
		return 0, 1
	}
	if d.IsUnsigned() {
		return 0, float64(uint64(1)<<n - 1)
	}
	return -float64(uint64(1) << (n - 1)), float64(uint64(1)<<(n-1) - 1)
}

// intDType returns the integer dtype of a width and signedness.
func intDType(bits int, signed bool) DType {
	for _, d := range []DType{Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64} {
		if d.Bits() == bits && d.IsSigned() == signed {
			return d
		}
	}
	return Int1
}

// PtrType is tl.pointer_type: a pointer to a scalar, or to a block (a block pointer).
type PtrType struct {
	Elem      Type // a DType, or a *BlockType for block pointers
	AddrSpace int
	Const     bool
}

// String is Triton's name for the type: a pointer to a constant is const_pointer<...>, and
// types compare by it (sameType), so a const and a plain pointer differ as in Triton 3.6.
func (p *PtrType) String() string {
	if p.Const {
		return "const_pointer<" + p.Elem.String() + ">"
	}
	return "pointer<" + p.Elem.String() + ">"
}

// IR returns !tt.ptr<elem>.
func (p *PtrType) IR() tileir.Type { return tileir.PtrIn(p.Elem.IR(), p.AddrSpace) }

// BlockType is a tensor of scalars or pointers.
type BlockType struct {
	Elem  Type // a DType or a *PtrType
	Shape []int64
}

func (b *BlockType) String() string { return "<" + shapeString(b.Shape) + ", " + b.Elem.String() + ">" }

// IR returns tensor<shape x elem>.
func (b *BlockType) IR() tileir.Type { return tileir.Tensor(b.Shape, b.Elem.IR()) }

// Numel returns the number of elements.
func (b *BlockType) Numel() int64 {
	n := int64(1)
	for _, d := range b.Shape {
		n *= d
	}
	return n
}

// DescType is tl.tensor_descriptor_type: a TMA descriptor of a block in global memory.
type DescType struct{ Block *BlockType }

func (d *DescType) String() string { return "tensor_descriptor<" + d.Block.String() + ">" }

// IR returns !tt.tensordesc<tensor<...>>.
func (d *DescType) IR() tileir.Type { return tileir.TensorDesc(d.Block.IR().(*tileir.TensorType)) }

func shapeString(s []int64) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// sameType reports type equality.
func sameType(a, b Type) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.String() == b.String()
}

// scalarOf returns the element type of a block, or t itself.
func scalarOf(t Type) Type {
	if b, ok := t.(*BlockType); ok {
		return b.Elem
	}
	return t
}

// dtypeOf returns the scalar dtype of t, or Void for pointers and descriptors.
func dtypeOf(t Type) DType {
	d, _ := scalarOf(t).(DType)
	return d
}

// isPtr reports a pointer or a block of pointers.
func isPtr(t Type) bool {
	_, ok := scalarOf(t).(*PtrType)
	return ok
}

// shapeOf returns a block's shape, or nil for a scalar.
func shapeOf(t Type) []int64 {
	if b, ok := t.(*BlockType); ok {
		return b.Shape
	}
	return nil
}

// withElem returns t with its element type replaced (a block keeps its shape).
func withElem(t Type, elem Type) Type {
	if b, ok := t.(*BlockType); ok {
		return &BlockType{Elem: elem, Shape: b.Shape}
	}
	return elem
}

// blockOf returns a block type, or the scalar itself for an empty shape.
func blockOf(elem Type, shape []int64) Type {
	if len(shape) == 0 {
		return elem
	}
	return &BlockType{Elem: elem, Shape: append([]int64(nil), shape...)}
}

// typeRepr is how Triton's __repr__ shows a dtype in messages (triton.language.int32).
func typeRepr(t Type) string {
	if d, ok := t.(DType); ok {
		return "triton.language." + d.String()
	}
	return t.String()
}

// parseTypeName parses a signature type: i32, fp16, *fp32, *k*i8, tensordesc<fp16[64, 64]>.
func parseTypeName(s string) (Type, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "*") {
		rest := strings.TrimPrefix(s[1:], "k")
		c := len(s)-1 != len(rest)
		elem, err := parseTypeName(rest)
		if err != nil {
			return nil, err
		}
		return &PtrType{Elem: elem, AddrSpace: 1, Const: c}, nil
	}
	if strings.HasPrefix(s, "tensordesc<") && strings.HasSuffix(s, ">") {
		inner := s[len("tensordesc<") : len(s)-1]
		lb, rb := strings.IndexByte(inner, '['), strings.IndexByte(inner, ']')
		if lb < 0 || rb < lb {
			return nil, fmt.Errorf("malformed tensor descriptor type %q", s)
		}
		elem, ok := sigDTypes[strings.TrimSpace(inner[:lb])]
		if !ok {
			return nil, fmt.Errorf("unknown element type %q in %q", strings.TrimSpace(inner[:lb]), s)
		}
		var shape []int64
		for _, f := range strings.Split(inner[lb+1:rb], ",") {
			n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
			if err != nil || n <= 0 {
				return nil, fmt.Errorf("bad block dimension %q in %q", strings.TrimSpace(f), s)
			}
			shape = append(shape, n)
		}
		return &DescType{Block: &BlockType{Elem: elem, Shape: shape}}, nil
	}
	if d, ok := sigDTypes[s]; ok {
		return d, nil
	}
	if d, ok := dtypeByName[strings.TrimPrefix(strings.TrimPrefix(s, "tl."), "torch.")]; ok && d != Void {
		for k, v := range sigDTypes {
			if v == d && !strings.HasPrefix(k, "u1") && k != "B" {
				return nil, fmt.Errorf("unknown type %q (did you mean %q?)", s, k)
			}
		}
	}
	if alias, ok := map[string]string{"f16": "fp16", "f32": "fp32", "f64": "fp64", "b16": "bf16", "i": "i32"}[s]; ok {
		return nil, fmt.Errorf("unknown type %q (did you mean %q?)", s, alias)
	}
	return nil, fmt.Errorf("unknown type %q", s)
}
