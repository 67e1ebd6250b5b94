package pyeval

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// fmtSpec is a parsed format specification: [[fill]align][sign][#][0][width][,|_][.precision][type].
type fmtSpec struct {
	fill  string
	align byte // 0 when not given
	sign  byte // 0, '+', '-' or ' '
	alt   bool
	width int
	group byte // 0, ',' or '_'
	prec  int  // -1 when not given
	typ   byte // 0 when not given
}

func parseSpec(spec string) (fmtSpec, error) {
	f := fmtSpec{fill: " ", prec: -1}
	bad := &Error{"ValueError", "Invalid format specifier '" + spec + "'"}
	s := spec
	isAlign := func(c byte) bool { return c == '<' || c == '>' || c == '^' || c == '=' }
	if r, n := utf8.DecodeRuneInString(s); n > 0 && len(s) > n && isAlign(s[n]) {
		f.fill, f.align, s = string(r), s[n], s[n+1:]
	} else if len(s) > 0 && isAlign(s[0]) {
		f.align, s = s[0], s[1:]
	}
	if len(s) > 0 && (s[0] == '+' || s[0] == '-' || s[0] == ' ') {
		f.sign, s = s[0], s[1:]
	}
	if len(s) > 0 && s[0] == '#' {
		f.alt, s = true, s[1:]
	}
	if len(s) > 0 && s[0] == '0' {
		if f.align == 0 {
			f.fill, f.align = "0", '='
		}
		s = s[1:]
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 {
		f.width, _ = strconv.Atoi(s[:i])
		s = s[i:]
	}
	if len(s) > 0 && (s[0] == ',' || s[0] == '_') {
		f.group, s = s[0], s[1:]
	}
	if len(s) > 0 && s[0] == '.' {
		j := 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == 1 {
			return f, &Error{"ValueError", "Format specifier missing precision"}
		}
		f.prec, _ = strconv.Atoi(s[1:j])
		s = s[j:]
	}
	if len(s) > 1 {
		return f, bad
	}
	if len(s) == 1 {
		f.typ = s[0]
	}
	return f, nil
}

// pad aligns s in a field of width runes.
func pad(s string, width int, align byte, fill string) string {
	n := utf8.RuneCountInString(s)
	if n >= width {
		return s
	}
	gap := width - n
	switch align {
	case '<':
		return s + strings.Repeat(fill, gap)
	case '^':
		return strings.Repeat(fill, gap/2) + s + strings.Repeat(fill, gap-gap/2)
	case '=': // after the sign (and base prefix)
		i := 0
		if i < len(s) && (s[i] == '-' || s[i] == '+' || s[i] == ' ') {
			i++
		}
		if len(s) >= i+2 && s[i] == '0' && strings.ContainsRune("xXoObB", rune(s[i+1])) {
			i += 2
		}
		return s[:i] + strings.Repeat(fill, gap) + s[i:]
	}
	return strings.Repeat(fill, gap) + s
}

// group inserts a separator every n digits of an unsigned digit string.
func group(digits string, sep byte, n int) string {
	if sep == 0 || len(digits) <= n {
		return digits
	}
	var b strings.Builder
	first := len(digits) % n
	if first > 0 {
		b.WriteString(digits[:first])
	}
	for i := first; i < len(digits); i += n {
		if b.Len() > 0 {
			b.WriteByte(sep)
		}
		b.WriteString(digits[i : i+n])
	}
	return b.String()
}

// formatValue is Python's format(v, spec).
func formatValue(v Value, spec string) (Value, error) {
	if u, ok := v.(Unknown); ok {
		return u, nil
	}
	v = intEnumValue(v)
	if b, ok := v.(Bool); ok {
		if spec == "" {
			return Str(Repr(b)), nil
		}
		v = boolInt(b)
	}
	f, err := parseSpec(spec)
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case Str:
		if f.typ != 0 && f.typ != 's' {
			return nil, &Error{"ValueError", "Unknown format code '" + string(f.typ) + "' for object of type 'str'"}
		}
		s := string(x)
		if f.prec >= 0 && utf8.RuneCountInString(s) > f.prec {
			s = string([]rune(s)[:f.prec])
		}
		return Str(pad(s, f.width, cmpByte(f.align, '<'), f.fill)), nil
	case Int:
		switch f.typ {
		case 'e', 'E', 'f', 'F', 'g', 'G', '%':
			fl, _ := new(big.Float).SetInt(x.V).Float64()
			return Str(formatFloat(fl, f)), nil
		}
		s, err := formatInt(x.V, f)
		return Str(s), err
	case Float:
		if f.typ != 0 && !strings.ContainsRune("eEfFgGn%", rune(f.typ)) {
			return nil, &Error{"ValueError", "Unknown format code '" + string(f.typ) + "' for object of type 'float'"}
		}
		return Str(formatFloat(float64(x), f)), nil
	}
	if spec != "" {
		return nil, typeError("unsupported format string passed to %s.__format__", v.TypeName())
	}
	return Str(ToStr(v)), nil
}

func cmpByte(a, b byte) byte {
	if a != 0 {
		return a
	}
	return b
}

func signOf(neg bool, sign byte) string {
	switch {
	case neg:
		return "-"
	case sign == '+':
		return "+"
	case sign == ' ':
		return " "
	}
	return ""
}

func formatInt(n *big.Int, f fmtSpec) (string, error) {
	if f.prec >= 0 {
		return "", &Error{"ValueError", "Precision not allowed in integer format specifier"}
	}
	abs := new(big.Int).Abs(n)
	var digits, prefix string
	switch f.typ {
	case 0, 'd', 'n':
		digits = group(abs.String(), f.group, 3)
	case 'b', 'o', 'x', 'X':
		base := map[byte]int{'b': 2, 'o': 8, 'x': 16, 'X': 16}[f.typ]
		digits = group(abs.Text(base), f.group, 4)
		if f.typ == 'X' {
			digits = strings.ToUpper(digits)
		}
		if f.alt {
			prefix = "0" + string(f.typ)
		}
	case 'c':
		return pad(string(rune(n.Int64())), f.width, cmpByte(f.align, '<'), f.fill), nil
	default:
		return "", &Error{"ValueError", "Unknown format code '" + string(f.typ) + "' for object of type 'int'"}
	}
	return pad(signOf(n.Sign() < 0, f.sign)+prefix+digits, f.width, cmpByte(f.align, '>'), f.fill), nil
}

func formatFloat(x float64, f fmtSpec) string {
	neg := math.Signbit(x) && !math.IsNaN(x)
	a := math.Abs(x)
	prec := f.prec
	var body string
	switch {
	case math.IsInf(a, 0):
		body = "inf"
	case math.IsNaN(a):
		body = "nan"
	default:
		switch f.typ {
		case 'f', 'F', '%':
			if prec < 0 {
				prec = 6
			}
			if f.typ == '%' {
				a *= 100
			}
			body = strconv.FormatFloat(a, 'f', prec, 64)
		case 'e', 'E':
			if prec < 0 {
				prec = 6
			}
			body = strconv.FormatFloat(a, 'e', prec, 64)
		case 'g', 'G', 'n':
			if prec < 0 {
				prec = 6
			}
			body = formatG(a, max(prec, 1), max(prec, 1), f.alt)
		default:
			if prec < 0 {
				body = FloatRepr(a)
			} else {
				// Like 'g', but scientific from an exponent of precision-1 on, and a
				// fixed-point result keeps a digit after the point.
				body = formatG(a, max(prec, 1), max(prec, 1)-1, f.alt)
				if !strings.ContainsAny(body, ".e") {
					body += ".0"
				}
			}
		}
	}
	if f.group != 0 && !strings.ContainsAny(body, "en") {
		intPart, frac, dot := strings.Cut(body, ".")
		body = group(intPart, f.group, 3)
		if dot {
			body += "." + frac
		}
	}
	if f.typ == '%' {
		body += "%"
	}
	if f.typ == 'E' || f.typ == 'F' || f.typ == 'G' {
		body = strings.ToUpper(body)
	}
	return pad(signOf(neg, f.sign)+body, f.width, cmpByte(f.align, '>'), f.fill)
}

// formatG is the 'g' presentation: prec significant digits, scientific when the exponent
// is below -4 or at least sciFrom, trailing zeros removed unless alt.
func formatG(a float64, prec, sciFrom int, alt bool) string {
	e := strconv.FormatFloat(a, 'e', prec-1, 64)
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	var s string
	if exp < -4 || exp >= sciFrom {
		if !alt && strings.Contains(mant, ".") {
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		}
		s = mant + "e" + expText
	} else {
		s = strconv.FormatFloat(a, 'f', max(prec-1-exp, 0), 64)
		if !alt && strings.Contains(s, ".") {
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
	}
	return s
}

// formatString is str.format: {} {0} {name} {name.attr} {name[key]}, with !r/!s
// conversions and format specs (which may hold nested fields).
func formatString(s string, args []Value, kwargs *Dict) (Value, error) {
	var b strings.Builder
	auto := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '}' {
			if i+1 < len(s) && s[i+1] == '}' {
				b.WriteByte('}')
				i++
				continue
			}
			return nil, &Error{"ValueError", "Single '}' encountered in format string"}
		}
		if c != '{' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(s) && s[i+1] == '{' {
			b.WriteByte('{')
			i++
			continue
		}
		depth, j := 1, i+1
		for ; j < len(s) && depth > 0; j++ {
			switch s[j] {
			case '{':
				depth++
			case '}':
				depth--
			}
		}
		if depth > 0 {
			return nil, &Error{"ValueError", "expected '}' before end of string"}
		}
		field := s[i+1 : j-1]
		i = j - 1
		name, spec, _ := strings.Cut(field, ":")
		name, conv, _ := strings.Cut(name, "!")
		v, err := formatField(name, &auto, args, kwargs)
		if err != nil {
			return nil, err
		}
		if u, ok := v.(Unknown); ok {
			return u, nil
		}
		switch conv {
		case "r", "a":
			v = Str(Repr(v))
		case "s":
			v = Str(ToStr(v))
		case "":
		default:
			return nil, &Error{"ValueError", "Unknown conversion specifier " + conv}
		}
		if strings.Contains(spec, "{") {
			sv, err := formatString(spec, args, kwargs)
			if err != nil {
				return nil, err
			}
			spec = ToStr(sv)
		}
		out, err := formatValue(v, spec)
		if err != nil {
			return nil, err
		}
		if u, ok := out.(Unknown); ok {
			return u, nil
		}
		b.WriteString(ToStr(out))
	}
	return Str(b.String()), nil
}

// formatField looks up one replacement field's value: an argument, then .attr and [key]
// accesses (keys of dicts and indices of sequences).
func formatField(name string, auto *int, args []Value, kwargs *Dict) (Value, error) {
	end := strings.IndexAny(name, ".[")
	if end < 0 {
		end = len(name)
	}
	head, rest := name[:end], name[end:]
	var v Value
	if head == "" {
		if *auto >= len(args) {
			return nil, &Error{"IndexError", "Replacement index " + strconv.Itoa(*auto) + " out of range for positional args tuple"}
		}
		v = args[*auto]
		*auto++
	} else if n, err := strconv.Atoi(head); err == nil {
		if n >= len(args) {
			return nil, &Error{"IndexError", "Replacement index " + head + " out of range for positional args tuple"}
		}
		v = args[n]
	} else {
		if v = kwargs.Get(Str(head)); v == nil {
			return nil, &Error{"KeyError", StrRepr(head)}
		}
	}
	for rest != "" {
		if rest[0] == '[' {
			k := strings.IndexByte(rest, ']')
			if k < 0 {
				return nil, &Error{"ValueError", "Missing ']' in format string"}
			}
			key := rest[1:k]
			var kv Value = Str(key)
			if n, err := strconv.Atoi(key); err == nil {
				kv = NewInt(int64(n))
			}
			var err error
			if v, err = subscript(v, kv); err != nil {
				return nil, err
			}
			rest = rest[k+1:]
			continue
		}
		return unknownf("attribute access in a format field"), nil
	}
	return v, nil
}

// percentFormat is printf-style `format % args`.
func percentFormat(format string, arg Value) (Value, error) {
	var args []Value
	named, _ := arg.(*Dict)
	if t, ok := arg.(Tuple); ok {
		args = t
	} else if named == nil {
		args = []Value{arg}
	}
	if u, ok := unknownIn(append([]Value{arg}, args...)...); ok {
		return u, nil
	}
	var b strings.Builder
	next := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		i++
		if i >= len(format) {
			return nil, &Error{"ValueError", "incomplete format"}
		}
		var v Value
		if format[i] == '(' {
			k := strings.IndexByte(format[i:], ')')
			if k < 0 || named == nil {
				return nil, typeError("format requires a mapping")
			}
			key := format[i+1 : i+k]
			if v = named.Get(Str(key)); v == nil {
				return nil, &Error{"KeyError", StrRepr(key)}
			}
			i += k + 1
		}
		start := i
		for i < len(format) && strings.IndexByte("-+ #0123456789.", format[i]) >= 0 {
			i++
		}
		if i >= len(format) {
			return nil, &Error{"ValueError", "incomplete format"}
		}
		flags, typ := format[start:i], format[i]
		if typ == '%' {
			b.WriteByte('%')
			continue
		}
		if v == nil {
			if next >= len(args) {
				return nil, typeError("not enough arguments for format string")
			}
			v, next = args[next], next+1
		}
		spec := percentSpec(flags)
		var out Value
		var err error
		switch typ {
		case 's':
			out, err = formatValue(Str(ToStr(v)), spec)
		case 'r', 'a':
			out, err = formatValue(Str(Repr(v)), spec)
		case 'd', 'i', 'u':
			iv, cerr := builtinInt(nil, []Value{v}, &Dict{})
			if cerr != nil {
				return nil, typeError("%%%c format: a real number is required, not %s", typ, v.TypeName())
			}
			out, err = formatValue(iv, spec+"d")
		case 'x', 'X', 'o', 'e', 'E', 'f', 'F', 'g', 'G', 'c':
			out, err = formatValue(v, spec+string(typ))
		default:
			return nil, &Error{"ValueError", "unsupported format character '" + string(typ) + "'"}
		}
		if err != nil {
			return nil, err
		}
		b.WriteString(ToStr(out))
	}
	if next < len(args) && named == nil {
		return nil, typeError("not all arguments converted during string formatting")
	}
	return Str(b.String()), nil
}

// percentSpec turns printf flags (-, +, space, #, 0, width, .precision) into a format
// spec.
func percentSpec(flags string) string {
	var sign, align, alt, zero string
	i := 0
	for ; i < len(flags) && strings.IndexByte("-+ #0", flags[i]) >= 0; i++ {
		switch flags[i] {
		case '-':
			align = "<"
		case '+', ' ':
			if sign != "+" {
				sign = string(flags[i])
			}
		case '#':
			alt = "#"
		case '0':
			zero = "0"
		}
	}
	if align != "" {
		zero = ""
	}
	return align + sign + alt + zero + flags[i:]
}
