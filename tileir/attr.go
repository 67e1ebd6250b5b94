package tileir

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Attr is a compile-time attribute value attached to an op or a function.
type Attr interface {
	// String returns the attribute as MLIR prints it inside an attribute dictionary.
	String() string
	isAttr()
}

// IntAttr is an integer of type T (an integer scalar): "16 : i32". Bool-typed (i1)
// integers print as true/false.
type IntAttr struct {
	V int64
	T Scalar
}

// FloatAttr is a float of type T: "1.000000e+00 : f32". V holds the value exactly
// (rounded to T).
type FloatAttr struct {
	V float64
	T Scalar
}

// BoolAttr is true or false.
type BoolAttr bool

// StringAttr is a quoted string.
type StringAttr string

// UnitAttr is a present-or-absent flag; in a dictionary it prints as its name alone.
type UnitAttr struct{}

// I32ArrayAttr is a dense i32 array: array<i32: 1, 0>.
type I32ArrayAttr []int32

// EnumAttr is an enumerant that an op's syntax prints as a bare keyword (a cmpi predicate,
// a program-id axis, a cache modifier, a memory semantic ...).
type EnumAttr string

// DenseAttr is a splat tensor constant: dense<0.000000e+00> : tensor<128xf32>.
// Splat is an IntAttr, FloatAttr or BoolAttr of the element type.
type DenseAttr struct {
	Splat Attr
	T     *TensorType
}

// TypeAttr holds a type.
type TypeAttr struct{ T Type }

// SymbolRefAttr names a function: @name.
type SymbolRefAttr string

// ArrayAttr is a list of attributes: [a, b].
type ArrayAttr []Attr

// DictAttr is a nested attribute dictionary.
type DictAttr []NamedAttr

func (IntAttr) isAttr()       {}
func (FloatAttr) isAttr()     {}
func (BoolAttr) isAttr()      {}
func (StringAttr) isAttr()    {}
func (UnitAttr) isAttr()      {}
func (I32ArrayAttr) isAttr()  {}
func (EnumAttr) isAttr()      {}
func (DenseAttr) isAttr()     {}
func (TypeAttr) isAttr()      {}
func (SymbolRefAttr) isAttr() {}
func (ArrayAttr) isAttr()     {}
func (DictAttr) isAttr()      {}

func (a IntAttr) String() string {
	if a.T == I1 {
		return strconv.FormatBool(a.V != 0)
	}
	return strconv.FormatInt(a.V, 10) + " : " + a.T.String()
}

func (a FloatAttr) String() string { return formatFloat(a.V, a.T) + " : " + a.T.String() }
func (a BoolAttr) String() string  { return strconv.FormatBool(bool(a)) }
func (a StringAttr) String() string {
	return quote(string(a))
}
func (UnitAttr) String() string { return "unit" }
func (a I32ArrayAttr) String() string {
	if len(a) == 0 {
		return "array<i32>"
	}
	var b strings.Builder
	b.WriteString("array<i32: ")
	for i, v := range a {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatInt(int64(v), 10))
	}
	b.WriteByte('>')
	return b.String()
}
func (a EnumAttr) String() string { return string(a) }
func (a DenseAttr) String() string {
	return "dense<" + splatString(a.Splat) + "> : " + a.T.String()
}
func (a TypeAttr) String() string      { return a.T.String() }
func (a SymbolRefAttr) String() string { return "@" + string(a) }
func (a ArrayAttr) String() string {
	parts := make([]string, len(a))
	for i, e := range a {
		parts[i] = e.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
func (a DictAttr) String() string { return dictString(a) }

// splatString prints a scalar attribute without its type, as it appears inside dense<...>.
func splatString(a Attr) string {
	switch a := a.(type) {
	case IntAttr:
		if a.T == I1 {
			return strconv.FormatBool(a.V != 0)
		}
		return strconv.FormatInt(a.V, 10)
	case FloatAttr:
		return formatFloat(a.V, a.T)
	}
	return a.String()
}

// NamedAttr is one entry of an attribute dictionary.
type NamedAttr struct {
	Name  string
	Value Attr
}

// dictString prints {a = 1 : i32, b} with entries in the given order (callers keep them sorted).
func dictString(attrs []NamedAttr) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, a := range attrs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(attrName(a.Name))
		if _, unit := a.Value.(UnitAttr); !unit {
			b.WriteString(" = ")
			b.WriteString(a.Value.String())
		}
	}
	b.WriteByte('}')
	return b.String()
}

// attrName quotes a dictionary key unless it is a bare identifier.
func attrName(s string) string {
	if isBareIdent(s) {
		return s
	}
	return quote(s)
}

func isBareIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '.' || c == '$' || c == '-' || isLetter(c) || (i > 0 && isDigit(c))) {
			return false
		}
	}
	return !isDigit(s[0])
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// quote escapes a string as MLIR does: printable ASCII stays, '"' and '\\' and everything
// else become \XX hex escapes (\\ for the backslash).
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '"' || c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, `\%02X`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// setAttr inserts or replaces name in a dictionary kept sorted by name.
func setAttr(attrs []NamedAttr, name string, v Attr) []NamedAttr {
	i, found := slices.BinarySearchFunc(attrs, name, func(a NamedAttr, n string) int { return strings.Compare(a.Name, n) })
	if found {
		attrs[i].Value = v
		return attrs
	}
	return slices.Insert(attrs, i, NamedAttr{name, v})
}

func getAttr(attrs []NamedAttr, name string) Attr {
	i, found := slices.BinarySearchFunc(attrs, name, func(a NamedAttr, n string) int { return strings.Compare(a.Name, n) })
	if found {
		return attrs[i].Value
	}
	return nil
}

func removeAttr(attrs []NamedAttr, name string) []NamedAttr {
	i, found := slices.BinarySearchFunc(attrs, name, func(a NamedAttr, n string) int { return strings.Compare(a.Name, n) })
	if found {
		return slices.Delete(attrs, i, i+1)
	}
	return attrs
}

// RoundFloat rounds x to the nearest value of float type t (ties to even). Infinities and
// NaN pass through; values past the largest finite one become infinities.
func RoundFloat(x float64, t Scalar) float64 {
	switch t {
	case F64:
		return x
	case F32:
		return float64(float32(x))
	}
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return x
	}
	expBits, mant := t.floatFormat()
	bias := 1<<(expBits-1) - 1
	minExp := 1 - bias // exponent of the smallest normal
	_, e := math.Frexp(x)
	e-- // x = m * 2^e with 1 <= |m| < 2
	e = max(e, minExp)
	quantum := math.Ldexp(1, e-mant)
	r := math.RoundToEven(x/quantum) * quantum
	maxExp := bias
	if largest := math.Ldexp(2-math.Ldexp(1, -mant), maxExp); math.Abs(r) > largest {
		return math.Copysign(math.Inf(1), x)
	}
	return r
}

// floatBits encodes x (already rounded) in t's IEEE-style bit layout.
func floatBits(x float64, t Scalar) uint64 {
	switch t {
	case F64:
		return math.Float64bits(x)
	case F32:
		return uint64(math.Float32bits(float32(x)))
	}
	expBits, mant := t.floatFormat()
	bias := 1<<(expBits-1) - 1
	var sign uint64
	if math.Signbit(x) {
		sign = 1 << (expBits + mant)
	}
	x = math.Abs(x)
	switch {
	case math.IsNaN(x):
		return sign | (1<<expBits-1)<<mant | 1<<(mant-1)
	case math.IsInf(x, 0):
		return sign | (1<<expBits-1)<<mant
	case x == 0:
		return sign
	}
	_, e := math.Frexp(x)
	e--
	if e < 1-bias { // subnormal
		return sign | uint64(math.Round(x/math.Ldexp(1, 1-bias-mant)))
	}
	frac := uint64(math.Round((x/math.Ldexp(1, e) - 1) * math.Ldexp(1, mant)))
	return sign | uint64(e+bias)<<mant | frac
}

// formatFloat prints a float as MLIR's attribute printer does: "%e" with six decimals when
// that reads back exactly; otherwise the value at its type's natural precision; and the
// raw bits in hex for infinities and NaN.
func formatFloat(x float64, t Scalar) string {
	if !math.IsInf(x, 0) && !math.IsNaN(x) {
		e := strconv.FormatFloat(x, 'e', 5, 64) // six significant digits
		i := strings.IndexByte(e, 'e')
		e = e[:i] + "0" + e[i:]
		if v, err := strconv.ParseFloat(e, 64); err == nil && RoundFloat(v, t) == x {
			return e
		}
		if s := naturalFloat(x, t); strings.Contains(s, ".") {
			return s
		}
	}
	hexDigits := (t.Bits() + 3) / 4
	return fmt.Sprintf("0x%0*X", hexDigits, floatBits(x, t))
}

// naturalFloat prints x with as many significant digits as its type holds, trailing zeros
// dropped, switching to scientific notation (upper-case E) past three padding zeros; this
// is APFloat::toString with its default arguments.
func naturalFloat(x float64, t Scalar) string {
	_, mant := t.floatFormat()
	prec := 2 + (mant+1)*59/196
	s := strconv.FormatFloat(math.Abs(x), 'e', prec-1, 64)
	i := strings.IndexByte(s, 'e')
	digits := strings.TrimRight(strings.Replace(s[:i], ".", "", 1), "0")
	if digits == "" {
		digits = "0"
	}
	exp10, _ := strconv.Atoi(s[i+1:])
	nd := len(digits)
	exp := exp10 - (nd - 1) // power of ten of the last digit
	var b strings.Builder
	if math.Signbit(x) {
		b.WriteByte('-')
	}
	scientific := false
	if exp >= 0 {
		scientific = exp > 3 || nd+exp > prec
	} else if msd := exp + nd - 1; msd < 0 {
		scientific = -msd > 3
	}
	switch {
	case scientific:
		b.WriteByte(digits[0])
		b.WriteByte('.')
		if nd == 1 {
			b.WriteByte('0')
		} else {
			b.WriteString(digits[1:])
		}
		fmt.Fprintf(&b, "E%+d", exp10)
	case exp >= 0:
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", exp))
	default:
		whole := exp + nd
		if whole > 0 {
			b.WriteString(digits[:whole])
			b.WriteByte('.')
			b.WriteString(digits[whole:])
		} else {
			b.WriteString("0.")
			b.WriteString(strings.Repeat("0", -whole))
			b.WriteString(digits)
		}
	}
	return b.String()
}

// floatFromBits decodes bits in t's layout.
func floatFromBits(bits uint64, t Scalar) float64 {
	switch t {
	case F64:
		return math.Float64frombits(bits)
	case F32:
		return float64(math.Float32frombits(uint32(bits)))
	}
	expBits, mant := t.floatFormat()
	bias := 1<<(expBits-1) - 1
	sign := 1.0
	if bits>>(expBits+mant)&1 != 0 {
		sign = -1
	}
	e := int(bits>>mant) & (1<<expBits - 1)
	frac := float64(bits & (1<<mant - 1))
	switch {
	case e == 1<<expBits-1 && frac == 0:
		return math.Inf(int(sign))
	case e == 1<<expBits-1:
		return math.NaN()
	case e == 0:
		return sign * frac * math.Ldexp(1, 1-bias-mant)
	}
	return sign * (1 + frac*math.Ldexp(1, -mant)) * math.Ldexp(1, e-bias)
}
