package ptx

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
)

// regClass is a PTX virtual register class. Each class has its own register
// prefix and declaration type, as LLVM's NVPTX backend does.
type regClass uint8

const (
	rcPred regClass = iota // i1
	rcB16                  // i8, i16 (i8 lives in the low byte; the high byte is unspecified)
	rcF16                  // half
	rcB32                  // i32, 32-bit pointers
	rcF32                  // float
	rcB64                  // i64, 64-bit pointers
	rcF64                  // double
	numRegClasses
)

// regClassInfo describes one register class: its name prefix, the type in
// its .reg declaration and its width in bits.
var regClassInfo = [numRegClasses]struct {
	prefix string
	decl   string
	bits   int
}{
	rcPred: {"%p", ".pred", 1},
	rcB16:  {"%rs", ".b16", 16},
	rcF16:  {"%h", ".b16", 16},
	rcB32:  {"%r", ".b32", 32},
	rcF32:  {"%f", ".f32", 32},
	rcB64:  {"%rd", ".b64", 64},
	rcF64:  {"%fd", ".f64", 64},
}

// bitsClass returns the untyped register class of the given width.
func bitsClass(bits int) regClass {
	switch bits {
	case 16:
		return rcB16
	case 32:
		return rcB32
	}
	return rcB64
}

func (rc regClass) bits() int     { return regClassInfo[rc].bits }
func (rc regClass) isFloat() bool { return rc == rcF16 || rc == rcF32 || rc == rcF64 }

// movType is the type suffix of a plain register move in this class.
func (rc regClass) movType() string { return movTypes[rc] }

var movTypes = func() (t [numRegClasses]string) {
	for rc := range regClass(numRegClasses) {
		t[rc] = rc.computeMovType()
	}
	return t
}()

func (rc regClass) computeMovType() string {
	switch rc {
	case rcPred:
		return "pred"
	case rcF32:
		return "f32"
	case rcF64:
		return "f64"
	}
	return "b" + strconv.Itoa(rc.bits())
}

// layout holds the target facts taken from the module's data layout.
type layout struct {
	ptrBits map[types.AddrSpace]int // pointer width per address space; 64 when absent
}

// pointerBits returns the width of a pointer in the given address space.
func (l *layout) pointerBits(as types.AddrSpace) int {
	if b, ok := l.ptrBits[as]; ok {
		return b
	}
	return 64
}

// intBits returns the bit width of an integer type, or 0 for other types.
func intBits(t types.Type) int {
	if it, ok := t.(*types.IntType); ok {
		return int(it.BitSize)
	}
	return 0
}

// classOf returns the register class that holds a scalar of type t.
// callBits is the width of a call parameter or result of type t: a 32- or 64-bit scalar
// or pointer (the only ones extern calls pass).
func (l *layout) callBits(t types.Type) (int, error) {
	rc, err := l.classOf(t)
	if err != nil {
		return 0, err
	}
	if rc != rcB32 && rc != rcB64 && rc != rcF32 && rc != rcF64 {
		return 0, fmt.Errorf("%s: only 32- and 64-bit scalars and pointers are passed to external functions", t)
	}
	return rc.bits(), nil
}

func (l *layout) classOf(t types.Type) (regClass, error) {
	switch t := t.(type) {
	case *types.IntType:
		switch {
		case t.BitSize == 1:
			return rcPred, nil
		case t.BitSize == 8 || t.BitSize == 16:
			return rcB16, nil
		case t.BitSize == 32:
			return rcB32, nil
		case t.BitSize == 64:
			return rcB64, nil
		}
	case *types.FloatType:
		switch t.Kind {
		case types.FloatKindHalf:
			return rcF16, nil
		case types.FloatKindFloat:
			return rcF32, nil
		case types.FloatKindDouble:
			return rcF64, nil
		}
	case *types.PointerType:
		if l.pointerBits(t.AddrSpace) == 32 {
			return rcB32, nil
		}
		return rcB64, nil
	}
	return 0, fmt.Errorf("type %s has no PTX register class", t)
}

// leaves flattens a first-class type into its scalar leaves, in memory
// order: vectors, arrays and structs are spread element by element.
func leaves(t types.Type) []types.Type {
	switch t := t.(type) {
	case *types.VectorType:
		return repeat(t.ElemType, int(t.Len))
	case *types.ArrayType:
		return repeat(t.ElemType, int(t.Len))
	case *types.StructType:
		var out []types.Type
		for _, f := range t.Fields {
			out = append(out, leaves(f)...)
		}
		return out
	}
	return []types.Type{t}
}

// leafKey identifies a type whose leaves are cached: n leaves of one
// integer (kind 'i', bits) or floating-point type (kind 'f', its FloatKind).
// The key is structural: lower makes new instances of equal types.
type leafKey struct {
	kind uint64 // a byte, widened so that the key has no padding and hashes in one piece
	bits uint64
	n    int64
}

// leafEntry is one key of (*fnEmitter).leaves and its leaves.
type leafEntry struct {
	k  leafKey
	ls []types.Type
}

// leaves is the package's leaves, memoized per kernel for scalars and for vectors,
// arrays and structs of one scalar type (lower makes a new vector type per
// instruction, so the key is structural). The returned slice is shared: callers must
// not modify it.
func (e *fnEmitter) leaves(t types.Type) []types.Type {
	k, ok := cacheKey(t)
	if !ok {
		switch t.(type) {
		case *types.VectorType, *types.ArrayType, *types.StructType:
			return leaves(t)
		}
		// a scalar, such as a pointer: its one leaf in a slice carved out of a chunk
		if cap(e.typeChunk)-len(e.typeChunk) < 1 {
			e.typeChunk = make([]types.Type, 0, 256)
		}
		n := len(e.typeChunk)
		e.typeChunk = append(e.typeChunk, t)
		return e.typeChunk[n : n+1 : n+1]
	}
	if e.leafLast.ok && e.leafLast.k == k {
		return e.leafLast.ls
	}
	for i := range e.leafList { // the first few keys, without hashing
		if e.leafList[i].k == k {
			ls := e.leafList[i].ls
			e.leafLast.k, e.leafLast.ls, e.leafLast.ok = k, ls, true
			return ls
		}
	}
	if ls, ok := e.leafCache[k]; ok {
		e.leafLast.k, e.leafLast.ls, e.leafLast.ok = k, ls, true
		return ls
	}
	ls := leaves(t)
	if len(e.leafList) < cap(e.leafArr) {
		if e.leafList == nil {
			e.leafList = e.leafArr[:0]
		}
		e.leafList = append(e.leafList, leafEntry{k, ls})
	} else {
		if e.leafCache == nil {
			e.leafCache = map[leafKey][]types.Type{}
		}
		e.leafCache[k] = ls
	}
	e.leafLast.k, e.leafLast.ls, e.leafLast.ok = k, ls, true
	return ls
}

// scalarKey returns the key of one leaf of scalar type t, and false when t
// is neither an integer nor a floating-point type.
func scalarKey(t types.Type) (leafKey, bool) {
	switch t := t.(type) {
	case *types.IntType:
		return leafKey{'i', t.BitSize, 1}, true
	case *types.FloatType:
		return leafKey{'f', uint64(t.Kind), 1}, true
	}
	return leafKey{}, false
}

// cacheKey returns the key of the leaves of t, and false when t's leaves
// are not worth a cache entry: aggregates of several types, nested
// aggregates, and pointers (lower makes a new pointer type per use).
func cacheKey(t types.Type) (leafKey, bool) {
	var k leafKey
	var ok bool
	switch t := t.(type) {
	case *types.VectorType:
		k, ok = scalarKey(t.ElemType)
		k.n = int64(t.Len)
	case *types.ArrayType:
		k, ok = scalarKey(t.ElemType)
		k.n = int64(t.Len)
	case *types.StructType:
		if len(t.Fields) == 0 {
			return k, false
		}
		if k, ok = scalarKey(t.Fields[0]); !ok {
			return k, false
		}
		for _, f := range t.Fields[1:] {
			if fk, ok := scalarKey(f); !ok || fk != k {
				return k, false
			}
		}
		k.n = int64(len(t.Fields))
	default:
		k, ok = scalarKey(t)
	}
	return k, ok
}

// classesOfLeaves returns the register classes of the leaves ts, all of one
// type (as a struct of ts would have them).
func (e *fnEmitter) classesOfLeaves(ts []types.Type) ([]regClass, error) {
	k, ok := cacheKey(ts[0])
	if !ok {
		return e.lay.classesOf(types.NewStruct(ts...))
	}
	k.n = int64(len(ts))
	if rcs, ok := e.classCache[k]; ok {
		return rcs, nil
	}
	rcs, err := e.lay.classesOf(types.NewStruct(ts...))
	if err != nil {
		return nil, err
	}
	if e.classCache == nil {
		e.classCache = map[leafKey][]regClass{}
	}
	e.classCache[k] = rcs
	return rcs, nil
}

// classesOf is the layout's classesOf, memoized per kernel as leaves is. The
// returned slice is shared: callers must not modify it.
func (e *fnEmitter) classesOf(t types.Type) ([]regClass, error) {
	k, ok := cacheKey(t)
	if !ok {
		return e.lay.classesOf(t)
	}
	if e.classLast.ok && e.classLast.k == k {
		return e.classLast.rcs, nil
	}
	rcs, ok := e.classCache[k]
	if !ok {
		var err error
		if rcs, err = e.lay.classesOf(t); err != nil {
			return nil, err
		}
		if e.classCache == nil {
			e.classCache = map[leafKey][]regClass{}
		}
		e.classCache[k] = rcs
	}
	e.classLast.k, e.classLast.rcs, e.classLast.ok = k, rcs, true
	return rcs, nil
}

func repeat(elem types.Type, n int) []types.Type {
	one := leaves(elem)
	out := make([]types.Type, 0, n*len(one))
	for i := 0; i < n; i++ {
		out = append(out, one...)
	}
	return out
}

// classesOf returns the register classes of the leaves of t.
func (l *layout) classesOf(t types.Type) ([]regClass, error) {
	switch t := t.(type) {
	case *types.VectorType, *types.ArrayType:
		var elem types.Type
		var n int
		if v, ok := t.(*types.VectorType); ok {
			elem, n = v.ElemType, int(v.Len)
		} else {
			a := t.(*types.ArrayType)
			elem, n = a.ElemType, int(a.Len)
		}
		if n == 0 {
			return []regClass{}, nil
		}
		one, err := l.classesOf(elem)
		if err != nil {
			return nil, err
		}
		out := make([]regClass, 0, n*len(one))
		for range n {
			out = append(out, one...)
		}
		return out, nil
	case *types.StructType:
		var out []regClass
		for _, f := range t.Fields {
			fs, err := l.classesOf(f)
			if err != nil {
				return nil, err
			}
			out = append(out, fs...)
		}
		return out, nil
	}
	rc, err := l.classOf(t)
	if err != nil {
		return nil, err
	}
	return []regClass{rc}, nil
}

// sizeAlign returns the allocation size and ABI alignment in bytes of t.
func (l *layout) sizeAlign(t types.Type) (size, align int64, err error) {
	switch t := t.(type) {
	case *types.IntType:
		s := int64(t.BitSize+7) / 8
		if s == 0 {
			s = 1
		}
		return s, s, nil
	case *types.FloatType:
		switch t.Kind {
		case types.FloatKindHalf:
			return 2, 2, nil
		case types.FloatKindFloat:
			return 4, 4, nil
		case types.FloatKindDouble:
			return 8, 8, nil
		}
	case *types.PointerType:
		s := int64(l.pointerBits(t.AddrSpace) / 8)
		return s, s, nil
	case *types.VectorType:
		es, _, err := l.sizeAlign(t.ElemType)
		if err != nil {
			return 0, 0, err
		}
		s := es * int64(t.Len)
		return s, s, nil
	case *types.ArrayType:
		es, ea, err := l.sizeAlign(t.ElemType)
		return es * int64(t.Len), ea, err
	case *types.StructType:
		var off, maxAlign int64 = 0, 1
		for _, f := range t.Fields {
			fs, fa, err := l.sizeAlign(f)
			if err != nil {
				return 0, 0, err
			}
			if t.Packed {
				fa = 1
			}
			off = (off + fa - 1) / fa * fa
			off += fs
			maxAlign = max(maxAlign, fa)
		}
		return (off + maxAlign - 1) / maxAlign * maxAlign, maxAlign, nil
	}
	return 0, 0, fmt.Errorf("type %s has no size", t)
}

// fieldOffset returns the byte offset of field i of struct t.
func (l *layout) fieldOffset(t *types.StructType, i int) (int64, error) {
	var off int64
	for j, f := range t.Fields {
		fs, fa, err := l.sizeAlign(f)
		if err != nil {
			return 0, err
		}
		if t.Packed {
			fa = 1
		}
		off = (off + fa - 1) / fa * fa
		if j == i {
			return off, nil
		}
		off += fs
	}
	return 0, fmt.Errorf("struct %s has no field %d", t, i)
}

// intImm formats an integer constant as a PTX immediate.
func intImm(x *big.Int) string {
	if x.IsInt64() {
		return strconv.FormatInt(x.Int64(), 10)
	}
	return x.String()
}

// floatBits returns the IEEE bits of a float constant in its own width.
func floatBits(c *constant.Float) (uint64, error) {
	f, _ := c.X.Float64()
	if c.NaN {
		f = math.NaN()
		if c.X != nil && c.X.Signbit() {
			f = math.Copysign(f, -1)
		}
	}
	switch c.Typ.Kind {
	case types.FloatKindHalf:
		return uint64(halfBits(f)), nil
	case types.FloatKindFloat:
		return uint64(math.Float32bits(float32(f))), nil
	case types.FloatKindDouble:
		return math.Float64bits(f), nil
	}
	return 0, fmt.Errorf("float constant of type %s is not supported", c.Typ)
}

// halfBits converts a float64 to IEEE binary16 bits, rounding to nearest even.
func halfBits(f float64) uint16 {
	b := math.Float64bits(f)
	sign := uint16(b>>48) & 0x8000
	switch {
	case math.IsNaN(f):
		return sign | 0x7e00
	case math.IsInf(f, 0):
		return sign | 0x7c00
	}
	a := math.Abs(f)
	if a >= 65520 { // rounds to infinity
		return sign | 0x7c00
	}
	if a < 0x1p-14 { // subnormal or zero: a multiple of 2^-24
		return sign | uint16(math.RoundToEven(a*0x1p24))
	}
	exp := math.Floor(math.Log2(a))
	if math.Ldexp(1, int(exp)) > a { // guard against log2 rounding up
		exp--
	}
	mant := math.RoundToEven(math.Ldexp(a, 10-int(exp))) // in [1024, 2048]
	e := int(exp) + 15
	if mant == 2048 {
		mant, e = 1024, e+1
	}
	if e >= 31 {
		return sign | 0x7c00
	}
	return sign | uint16(e)<<10 | uint16(mant-1024)
}

// floatImm is the package's floatImm, carved out of e.names.
func (e *fnEmitter) floatImm(rc regClass, bits uint64) string {
	if bits == 0 {
		return floatImm(rc, 0)
	}
	prefix, digits := "0x", 4
	switch rc {
	case rcF32:
		prefix, digits = "0f", 8
	case rcF64:
		prefix, digits = "0d", 16
	}
	const hex = "0123456789ABCDEF"
	start := e.strStart(2 + digits)
	e.names = append(e.names, prefix...)
	for i := digits - 1; i >= 0; i-- {
		e.names = append(e.names, hex[bits>>(4*i)&15])
	}
	return e.strEnd(start)
}

// floatImm formats the bits of an f32 or f64 constant as a PTX immediate.
func floatImm(rc regClass, bits uint64) string {
	if bits == 0 {
		switch rc {
		case rcF32:
			return "0f00000000"
		case rcF64:
			return "0d0000000000000000"
		case rcF16:
			return "0x0000"
		}
	}
	prefix, digits := "0x", 4
	switch rc {
	case rcF32:
		prefix, digits = "0f", 8
	case rcF64:
		prefix, digits = "0d", 16
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 2+digits)
	copy(b, prefix)
	for i := len(b) - 1; i >= 2; i-- {
		b[i] = hex[bits&15]
		bits >>= 4
	}
	return string(b)
}
