package frontend

import (
	"bytes"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gotriton/gotriton/ast"
)

// number converts a NUMBER token to its value: int64, *big.Int, float64 or complex128.
func (p *parser) number(t *token) any {
	s := p.text(t)
	if strings.IndexByte(s, '_') >= 0 {
		s = strings.ReplaceAll(s, "_", "")
	}
	if c := s[len(s)-1] | 0x20; c == 'j' {
		f, _ := strconv.ParseFloat(s[:len(s)-1], 64)
		return complex(0, f)
	}
	base := 10
	if len(s) > 1 && s[0] == '0' {
		switch s[1] | 0x20 {
		case 'x':
			base = 16
		case 'o':
			base = 8
		case 'b':
			base = 2
		}
	}
	if base == 10 && strings.ContainsAny(s, ".eE") {
		f, _ := strconv.ParseFloat(s, 64) // out of range gives ±Inf, as Python does
		return f
	}
	digits := s
	if base != 10 {
		digits = s[2:]
	}
	if v, err := strconv.ParseInt(digits, base, 64); err == nil {
		return v
	}
	v, _ := new(big.Int).SetString(digits, base)
	return v
}

// strings parses adjacent string literals and f-strings and concatenates them as CPython
// 3.12 does (_PyPegen_concatenate_strings).
func (p *parser) strings() ast.Expr {
	start := p.pos
	if t := p.peek(); t.kind == tkString {
		if n := p.peekAt(1); n.kind != tkString && n.kind != tkFStart {
			p.next()
			return p.stringConst(t)
		}
	}
	var parts []ast.Expr
	for {
		t := p.peek()
		if t.kind == tkString {
			p.next()
			parts = append(parts, p.stringConst(t))
		} else if t.kind == tkFStart {
			parts = append(parts, p.fstring())
		} else {
			break
		}
	}
	return p.concat(parts, p.posFrom(start))
}

// concat joins string parts: Constants and (f-string) JoinedStrs.
func (p *parser) concat(parts []ast.Expr, pos ast.Pos) ast.Expr {
	var hasF, hasBytes, hasStr bool
	for _, e := range parts {
		if c, ok := e.(*ast.Constant); ok {
			if _, b := c.Value.([]byte); b {
				hasBytes = true
			} else {
				hasStr = true
			}
		} else {
			hasF = true
		}
	}
	if hasBytes && (hasStr || hasF) {
		p.errorAt(int(pos.Lineno), int(pos.ColOffset), "cannot mix bytes and nonbytes literals")
	}
	if hasBytes {
		var b []byte
		for _, e := range parts {
			b = append(b, e.(*ast.Constant).Value.([]byte)...)
		}
		return &ast.Constant{Value: b, Kind: parts[0].(*ast.Constant).Kind, Pos: pos}
	}
	if !hasF && len(parts) == 1 {
		return parts[0]
	}
	var flat []ast.Expr
	for _, e := range parts {
		if j, ok := e.(*ast.JoinedStr); ok {
			flat = append(flat, j.Values...)
		} else {
			flat = append(flat, e)
		}
	}
	var values []ast.Expr
	for i := 0; i < len(flat); i++ {
		c, ok := flat[i].(*ast.Constant)
		if ok && i+1 < len(flat) {
			if _, next := flat[i+1].(*ast.Constant); next {
				var sb strings.Builder
				j := i
				for ; j < len(flat); j++ {
					cj, isC := flat[j].(*ast.Constant)
					if !isC {
						break
					}
					sb.WriteString(cj.Value.(string))
				}
				last := flat[j-1].Position()
				c = &ast.Constant{Value: sb.String(), Kind: c.Kind, Pos: ast.Pos{
					Lineno: c.Lineno, ColOffset: c.ColOffset, EndLineno: last.EndLineno, EndColOffset: last.EndColOffset}}
				i = j - 1
			}
		}
		if ok {
			if hasF && c.Value.(string) == "" {
				continue
			}
			values = append(values, c)
			continue
		}
		values = append(values, flat[i])
	}
	if !hasF {
		return values[0]
	}
	return &ast.JoinedStr{Values: values, Pos: pos}
}

// prefixLen returns the length of a string token's prefix and its flags.
func (p *parser) prefix(t *token) (n int, raw, isBytes, u bool) {
	for ; ; n++ {
		switch c := p.src[int(t.start)+n]; c | 0x20 {
		case 'r':
			raw = true
		case 'b':
			isBytes = true
		case 'u':
			u = c == 'u' // only a lowercase u gives kind='u'
		case 'f':
		default:
			return
		}
	}
}

// stringConst decodes a STRING token.
func (p *parser) stringConst(t *token) *ast.Constant {
	n, raw, isBytes, u := p.prefix(t)
	q := 1
	body := p.src[int(t.start)+n : t.end]
	if len(body) >= 6 && body[0] == body[1] && body[1] == body[2] {
		q = 3
	}
	body = body[q : len(body)-q]
	c := &ast.Constant{Pos: t.pos()}
	if u {
		c.Kind = "u"
	}
	if isBytes {
		for _, b := range body {
			if b >= 0x80 {
				p.errorTok(t, "bytes can only contain ASCII literal characters")
			}
		}
		if raw {
			c.Value = append([]byte(nil), body...)
		} else {
			v, msg := decodeEscapes(body, true)
			if msg != "" {
				p.errorTok(t, "%s", msg)
			}
			c.Value = []byte(v)
		}
		return c
	}
	c.Value = p.decodeStr(t, body, raw)
	return c
}

func (p *parser) decodeStr(t *token, body []byte, raw bool) string {
	if raw || bytes.IndexByte(body, '\\') < 0 {
		return string(body)
	}
	v, msg := decodeEscapes(body, false)
	if msg != "" {
		p.errorTok(t, "%s", msg)
	}
	return v
}

// decodeEscapes interprets backslash escapes; on a bad escape it returns CPython's message.
func decodeEscapes(s []byte, isBytes bool) (string, string) {
	var b strings.Builder
	b.Grow(len(s))
	codec := "unicodeescape"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			b.WriteByte('\\')
			break
		}
		at := i
		i++
		switch c = s[i]; c {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(c)
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte(11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := rune(c - '0')
			for k := 0; k < 2 && i+1 < len(s) && isOct(s[i+1]); k++ {
				i++
				v = v*8 + rune(s[i]-'0')
			}
			if isBytes {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(v)
			}
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			if isBytes && c != 'x' {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			var v rune
			k := 0
			for ; k < n && i+1 < len(s) && isHex(s[i+1]); k++ {
				i++
				d := s[i] | 0x20
				if d >= 'a' {
					v = v*16 + rune(d-'a'+10)
				} else {
					v = v*16 + rune(d-'0')
				}
			}
			if k < n {
				if isBytes {
					return "", "(value error) invalid \\x escape at position " + strconv.Itoa(at)
				}
				return "", "(unicode error) '" + codec + "' codec can't decode bytes in position " +
					strconv.Itoa(at) + "-" + strconv.Itoa(i) + ": truncated \\" + map[byte]string{'x': "xXX", 'u': "uXXXX", 'U': "UXXXXXXXX"}[c] + " escape"
			}
			switch {
			case isBytes:
				b.WriteByte(byte(v))
			case v > utf8.MaxRune:
				return "", "(unicode error) '" + codec + "' codec can't decode bytes in position " +
					strconv.Itoa(at) + "-" + strconv.Itoa(i) + ": illegal Unicode character"
			case v >= 0xD800 && v < 0xE000: // a lone surrogate, kept as WTF-8
				b.WriteByte(byte(0xE0 | v>>12))
				b.WriteByte(byte(0x80 | (v>>6)&0x3F))
				b.WriteByte(byte(0x80 | v&0x3F))
			default:
				b.WriteRune(v)
			}
		case 'N':
			if isBytes {
				b.WriteString("\\N")
				continue
			}
			return "", "(unicode error) '" + codec + "' codec can't decode bytes in position " +
				strconv.Itoa(at) + "-" + strconv.Itoa(i) + ": \\N{...} escapes are not supported by gotriton"
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

// fstring parses FSTRING_START ... FSTRING_END into a JoinedStr (CPython's
// _PyPegen_joined_str: debug texts flattened, constants decoded, empty ones dropped).
func (p *parser) fstring() ast.Expr {
	start := p.pos
	st := p.next()
	_, raw, _, _ := p.prefix(st)
	var values []ast.Expr
	for {
		t := p.peek()
		switch {
		case t.kind == tkFMiddle:
			p.next()
			if c := p.middle(t, raw); c.Value != "" {
				values = append(values, c)
			}
		case t.kind == tkOp && t.op == opLbrace:
			fv := p.replacementField(raw)
			if j, ok := fv.(*ast.JoinedStr); ok {
				values = append(values, j.Values...)
			} else {
				values = append(values, fv)
			}
		case t.kind == tkFEnd:
			p.next()
			return &ast.JoinedStr{Values: values, Pos: p.posFrom(start)}
		default:
			p.syntaxError()
		}
	}
}

// middle decodes an FSTRING_MIDDLE token.
func (p *parser) middle(t *token, raw bool) *ast.Constant {
	return &ast.Constant{
		Value: p.decodeStr(t, p.src[t.start:t.end], raw),
		Pos:   t.pos(),
	}
}

// replacementField parses '{' expr ['='] ['!' NAME] [':' spec] '}'. With '=' it returns a
// JoinedStr of the debug text and the FormattedValue, as CPython does.
func (p *parser) replacementField(raw bool) ast.Expr {
	start := p.pos
	lb := p.next()
	if p.isOp(opRbrace) {
		p.errorTok(p.peek(), "f-string: empty expression not allowed")
	}
	var value ast.Expr
	if p.isKw(kwYield) {
		value = p.yieldExpr()
	} else {
		value = p.starExpressions()
	}
	debug := p.eatOp(opEqual)
	fv := &ast.FormattedValue{Value: value, Conversion: -1}
	term := p.peek()
	var convTok *token
	if p.eatOp(opExclamation) {
		convTok = p.peek()
		if !isIdent(convTok) || convTok.start != term.end {
			p.errorTok(convTok, "f-string: missing conversion character")
		}
		p.next()
		switch name := p.text(convTok); name {
		case "s", "r", "a":
			fv.Conversion = int(name[0])
		default:
			p.errorTok(convTok, "f-string: invalid conversion character %s: expected 's', 'r', or 'a'", ast.Repr(name))
		}
	}
	var colon *token
	if p.isOp(opColon) {
		colon = p.peek()
		fv.FormatSpec = p.formatSpec(raw)
	}
	if !p.isOp(opRbrace) {
		p.errorTok(p.peek(), "f-string: expecting '}'")
	}
	rb := p.next()
	fv.Pos = p.posFrom(start)
	if !debug {
		return fv
	}
	if convTok == nil && colon == nil {
		fv.Conversion = 'r'
	}
	el, ec := int(rb.endLine), int(rb.endCol)
	switch {
	case convTok != nil:
		el, ec = int(convTok.line), int(convTok.col)
	case colon != nil:
		el, ec = int(colon.line), int(colon.col)+1
	}
	line, col := int(lb.line), int(lb.col)
	text := &ast.Constant{
		Value: p.decodeStr(term, p.src[lb.end:term.start], raw),
		Pos:   ast.Pos{Lineno: int32(line), ColOffset: int32(col + 1), EndLineno: int32(el), EndColOffset: int32(ec - 1)},
	}
	return &ast.JoinedStr{Values: []ast.Expr{text, fv}, Pos: ast.Pos{Lineno: int32(line), ColOffset: int32(col), EndLineno: int32(el), EndColOffset: int32(ec)}}
}

// formatSpec parses ':' and the format spec up to the field's '}'. As in CPython 3.12, the
// parts are kept as they come (no folding); a spec that is one empty text has no parts.
func (p *parser) formatSpec(raw bool) ast.Expr {
	start := p.pos
	p.next()
	var items []ast.Expr
	for {
		t := p.peek()
		if t.kind == tkFMiddle {
			p.next()
			items = append(items, p.middle(t, raw))
		} else if t.kind == tkOp && t.op == opLbrace {
			items = append(items, p.replacementField(raw))
		} else {
			break
		}
	}
	if len(items) == 1 {
		if c, ok := items[0].(*ast.Constant); ok && c.Value == "" {
			items = nil
		}
	}
	return &ast.JoinedStr{Values: items, Pos: p.posFrom(start)}
}
