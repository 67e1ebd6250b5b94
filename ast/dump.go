package ast

import (
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Dump renders a tree exactly as CPython 3.12's ast.dump(node, include_attributes=True)
// does: one line, every field named, optional fields that are absent left out, position
// attributes after the fields.
func Dump(n Node) string {
	var b strings.Builder
	dumpValue(&b, reflect.ValueOf(n))
	return b.String()
}

// className returns the CPython class name of a node type.
func className(t reflect.Type) string {
	switch name := t.Name(); name {
	case "ExprStmt":
		return "Expr"
	case "Comprehension", "Arguments", "Arg", "Keyword", "Alias":
		return strings.ToLower(name)
	case "WithItem":
		return "withitem"
	case "MatchCase":
		return "match_case"
	default:
		return name
	}
}

// fieldName turns a Go field name into CPython's: ColOffset -> col_offset.
func fieldName(s string) string {
	if s == "ID" {
		return "id"
	}
	var b strings.Builder
	for i, r := range s {
		if 'A' <= r && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

var (
	posType  = reflect.TypeFor[Pos]()
	noPosTyp = reflect.TypeFor[noPos]()
	anyType  = reflect.TypeFor[any]()
)

// dumpNode writes a struct node: its fields, then its Pos attributes.
func dumpNode(b *strings.Builder, v reflect.Value) {
	t := v.Type()
	b.WriteString(className(t))
	b.WriteByte('(')
	first := true
	sep := func(name string) {
		if !first {
			b.WriteString(", ")
		}
		first = false
		b.WriteString(name)
		b.WriteByte('=')
	}
	var pos *Pos
	for i := 0; i < t.NumField(); i++ {
		f, fv := t.Field(i), v.Field(i)
		switch {
		case f.Type == posType:
			p := fv.Interface().(Pos)
			pos = &p
			continue
		case f.Type == noPosTyp:
			continue
		}
		if absent(fv) {
			continue
		}
		sep(fieldName(f.Name))
		dumpValue(b, fv)
	}
	if pos != nil {
		for _, a := range [...]struct {
			name string
			v    int32
		}{{"lineno", pos.Lineno}, {"col_offset", pos.ColOffset}, {"end_lineno", pos.EndLineno}, {"end_col_offset", pos.EndColOffset}} {
			sep(a.name)
			b.WriteString(strconv.Itoa(int(a.v)))
		}
	}
	b.WriteByte(')')
}

// absent reports whether a field is an optional one that is not set (CPython's None for a
// "?" field, which ast.dump leaves out). Constant values (type any) are never absent.
func absent(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer:
		return v.IsNil()
	case reflect.Interface:
		return v.IsNil() && v.Type() != anyType
	case reflect.String:
		return v.Len() == 0
	}
	return false
}

// dumpValue writes one field value.
func dumpValue(b *strings.Builder, v reflect.Value) {
	if v.Kind() == reflect.Interface {
		switch {
		case v.IsNil():
			b.WriteString("None")
			return
		case v.Type() == anyType: // a constant's value
			b.WriteString(Repr(v.Interface()))
			return
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("None")
			return
		}
		dumpNode(b, v.Elem())
	case reflect.Slice:
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			dumpValue(b, v.Index(i))
		}
		b.WriteByte(']')
	case reflect.String:
		b.WriteString(Repr(v.String()))
	case reflect.Int:
		if s, ok := v.Interface().(interface{ String() string }); ok {
			b.WriteString(s.String())
			b.WriteString("()")
			return
		}
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	default:
		b.WriteString(Repr(v.Interface()))
	}
}

// Repr returns Python's repr of a constant value (see Constant for the Go types).
func Repr(v any) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case bool:
		if v {
			return "True"
		}
		return "False"
	case EllipsisType:
		return "Ellipsis"
	case int64:
		return strconv.FormatInt(v, 10)
	case int:
		return strconv.Itoa(v)
	case *big.Int:
		return v.String()
	case float64:
		return FloatRepr(v, true)
	case complex128:
		if real(v) == 0 && !math.Signbit(real(v)) {
			return FloatRepr(imag(v), false) + "j"
		}
		return "(" + FloatRepr(real(v), false) + signed(FloatRepr(imag(v), false)) + "j)"
	case string:
		return strRepr(v)
	case []byte:
		return bytesRepr(v)
	}
	return "<?>"
}

func signed(s string) string {
	if s[0] == '-' || s[0] == '+' {
		return s
	}
	return "+" + s
}

// FloatRepr formats f like Python's repr: the shortest digits that round-trip, positional
// for decimal exponents in [-4, 16), scientific otherwise. addDot0 appends ".0" to integral
// positional values, as float repr does (complex repr does not).
func FloatRepr(f float64, addDot0 bool) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // [-]d[.ddd]e±XX
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	e := strings.IndexByte(s, 'e')
	mant, exp := s[:e], s[e+1:]
	x, _ := strconv.Atoi(exp)
	digits := strings.Replace(mant, ".", "", 1)
	var out string
	switch {
	case x < -4 || x >= 16:
		out = mant
		sign := "+"
		if x < 0 {
			sign, x = "-", -x
		}
		es := strconv.Itoa(x)
		if len(es) < 2 {
			es = "0" + es
		}
		out += "e" + sign + es
	case x < 0:
		out = "0." + strings.Repeat("0", -x-1) + digits
	case x+1 >= len(digits):
		out = digits + strings.Repeat("0", x+1-len(digits))
		if addDot0 {
			out += ".0"
		}
	default:
		out = digits[:x+1] + "." + digits[x+1:]
	}
	if neg {
		out = "-" + out
	}
	return out
}

// quoteFor picks Python's repr quote: ' unless the text has ' and no ".
func quoteFor(hasSingle, hasDouble bool) byte {
	if hasSingle && !hasDouble {
		return '"'
	}
	return '\''
}

const hexDigits = "0123456789abcdef"

func strRepr(s string) string {
	q := quoteFor(strings.IndexByte(s, '\'') >= 0, strings.IndexByte(s, '"') >= 0)
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(q)
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			// A lone surrogate in WTF-8 (ED A0..BF xx), or a stray byte.
			if i+2 < len(s) && s[i] == 0xED && s[i+1]&0xE0 == 0xA0 {
				r = rune(0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F))
				w = 3
			} else {
				r = rune(s[i])
			}
			escapeRune(&b, r)
			i += w
			continue
		}
		i += w
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x7f && r >= ' ':
			b.WriteRune(r)
		case r >= 0x80 && unicode.IsPrint(r):
			b.WriteRune(r)
		default:
			escapeRune(&b, r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// escapeRune writes \xhh, \uhhhh or \Uhhhhhhhh.
func escapeRune(b *strings.Builder, r rune) {
	n := 8
	switch {
	case r < 0x100:
		b.WriteString(`\x`)
		n = 2
	case r < 0x10000:
		b.WriteString(`\u`)
		n = 4
	default:
		b.WriteString(`\U`)
	}
	for i := n - 1; i >= 0; i-- {
		b.WriteByte(hexDigits[(r>>(4*i))&0xf])
	}
}

func bytesRepr(s []byte) string {
	var hasS, hasD bool
	for _, c := range s {
		hasS = hasS || c == '\''
		hasD = hasD || c == '"'
	}
	q := quoteFor(hasS, hasD)
	var b strings.Builder
	b.WriteString("b")
	b.WriteByte(q)
	for _, c := range s {
		switch {
		case c == q || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < ' ' || c >= 0x7f:
			escapeRune(&b, rune(c))
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(q)
	return b.String()
}
