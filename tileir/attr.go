package tileir

import (
	"fmt"
	"math"
	"math/big"
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
		if !(c == '_' || c == '.' || c == '$' || isLetter(c) || (i > 0 && isDigit(c))) {
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

// formatFloat prints a float as MLIR's attribute printer does: "%e"-style with six decimals
// when that reads back as the same value of type t; otherwise the value at its type's
// natural precision; and the raw bits in hex for infinities and NaN.
func formatFloat(x float64, t Scalar) string {
	if !math.IsInf(x, 0) && !math.IsNaN(x) {
		e := apfloatString(x, t, 6, 0, false)
		if parseFloatAs(e, t) == x {
			return e
		}
		if s := apfloatString(x, t, 0, 3, true); strings.Contains(s, ".") {
			return s
		}
	}
	hexDigits := (t.Bits() + 3) / 4
	return fmt.Sprintf("0x%0*X", hexDigits, floatBits(x, t))
}

// parseFloatAs reads a decimal string as a value of type t.
func parseFloatAs(s string, t Scalar) float64 {
	if t == F32 {
		v, _ := strconv.ParseFloat(s, 32)
		return v
	}
	v, _ := strconv.ParseFloat(s, 64)
	return RoundFloat(v, t)
}

// apfloatString converts a finite x of type t to decimal exactly as LLVM's
// APFloat::toString(precision, maxPadding, truncateZero) does, including its truncation of
// excess digits before rounding (which is why 0.01 : f32 prints as 0.00999999977).
func apfloatString(x float64, t Scalar, precision, maxPadding int, truncateZero bool) string {
	var b strings.Builder
	if math.Signbit(x) {
		b.WriteByte('-')
	}
	x = math.Abs(x)
	_, mant := t.floatFormat()
	if precision == 0 {
		precision = 2 + (mant+1)*59/196
	}
	if x == 0 {
		switch {
		case maxPadding != 0:
			b.WriteByte('0')
		case truncateZero:
			b.WriteString("0.0E+0")
		default:
			b.WriteString("0.0" + strings.Repeat("0", max(precision-1, 0)) + "e+00")
		}
		return b.String()
	}
	// x = sig * 2^exp with an integer sig, trailing binary zeros dropped.
	frac, e2 := math.Frexp(x)
	sig := new(big.Int).SetUint64(uint64(math.Ldexp(frac, 53)))
	exp := e2 - 53
	tz := int(sig.TrailingZeroBits())
	sig.Rsh(sig, uint(tz))
	exp += tz
	// Now make it sig * 10^exp.
	if exp > 0 {
		sig.Lsh(sig, uint(exp))
		exp = 0
	} else if exp < 0 {
		sig.Mul(sig, new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(-exp)), nil))
	}
	// Drop whole decimal digits that are certainly beyond the precision (truncating).
	if bits, need := sig.BitLen(), (precision*196+58)/59; bits > need {
		if tens := (bits - need) * 59 / 196; tens > 0 {
			exp += tens
			sig.Quo(sig, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(tens)), nil))
		}
	}
	digits := []byte(sig.String()) // most significant first
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	// Round half up to the precision.
	if n := len(digits); n > precision {
		exp += n - precision
		up := digits[precision] >= '5'
		digits = digits[:precision]
		if up {
			i := len(digits) - 1
			for ; i >= 0 && digits[i] == '9'; i-- {
				exp++
			}
			if i < 0 {
				digits = []byte{'1'}
			} else {
				digits = digits[:i+1]
				digits[i]++
			}
		}
		for len(digits) > 1 && digits[len(digits)-1] == '0' {
			digits = digits[:len(digits)-1]
			exp++
		}
	}
	nd := len(digits)
	scientific := maxPadding == 0
	if !scientific {
		if exp >= 0 {
			scientific = exp > maxPadding || nd+exp > precision
		} else if msd := exp + nd - 1; msd < 0 {
			scientific = -msd > maxPadding
		}
	}
	switch {
	case scientific:
		exp += nd - 1
		b.WriteByte(digits[0])
		b.WriteByte('.')
		if nd == 1 && truncateZero {
			b.WriteByte('0')
		} else {
			b.Write(digits[1:])
		}
		if !truncateZero && precision > nd-1 {
			b.WriteString(strings.Repeat("0", precision-nd+1))
		}
		if truncateZero {
			b.WriteByte('E')
		} else {
			b.WriteByte('e')
		}
		if exp >= 0 {
			b.WriteByte('+')
		} else {
			b.WriteByte('-')
			exp = -exp
		}
		es := strconv.Itoa(exp)
		if !truncateZero && len(es) < 2 {
			es = "0" + es
		}
		b.WriteString(es)
	case exp >= 0:
		b.Write(digits)
		b.WriteString(strings.Repeat("0", exp))
	default:
		if whole := exp + nd; whole > 0 {
			b.Write(digits[:whole])
			b.WriteByte('.')
			b.Write(digits[whole:])
		} else {
			b.WriteString("0.")
			b.WriteString(strings.Repeat("0", -whole))
			b.Write(digits)
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
