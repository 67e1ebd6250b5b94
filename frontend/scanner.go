package frontend

import (
	"math"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/gotriton/gotriton/diag"
)

// Limits from CPython's tokenizer.
const (
	maxIndent = 100 // MAXINDENT: "too many levels of indentation"
	maxParens = 200 // MAXLEVEL: "too many nested parentheses"
)

type paren struct {
	ch        byte
	line, col int
}

// fframe is an f-string being scanned (one entry of CPython's tokenizer mode stack).
type fframe struct {
	quote     byte
	triple    bool
	raw       bool
	inExpr    bool  // scanning the expression of a replacement field
	depth     int   // brackets opened inside this f-string and still open
	fields    []int // for each open replacement field, depth just after its '{'
	line, col int   // where the f-string starts
}

// scanner turns source into tokens, all at once. It stops at the first error and leaves a
// tkError token where the error is.
type scanner struct {
	file                string
	src                 []byte
	i                   int
	line, lineStart     int
	toks                []token
	indents, altIndents []int
	parens              []paren
	frames              []fframe
	atBOL               bool
	err                 *diag.Error
}

// tokenBuffers holds token buffers that parses are done with (tokens hold no pointers,
// and no syntax tree points into them), so that parsing one file after another reuses
// one buffer instead of allocating and clearing one per file.
var tokenBuffers sync.Pool

// releaseTokens gives a token buffer back to tokenBuffers.
func releaseTokens(toks []token) {
	toks = toks[:0]
	tokenBuffers.Put(&toks)
}

func tokenize(file string, src []byte) ([]token, *diag.Error) {
	s := &scanner{
		file: file, src: src, line: 1, atBOL: true,
		indents: []int{0}, altIndents: []int{0},
	}
	if b, _ := tokenBuffers.Get().(*[]token); b != nil && cap(*b) >= len(src)/4+8 {
		s.toks = (*b)[:0]
	} else {
		s.toks = make([]token, 0, len(src)/4+8)
	}
	if len(src) > math.MaxInt32 {
		s.errorAt(1, 0, "source file too large (over 2 GiB)")
	}
	for s.err == nil && s.step() {
	}
	if s.err != nil {
		sp := s.err.Span
		s.emit(tkError, opNone, s.i, s.i, sp.Line, sp.Col, sp.Line, sp.Col)
	}
	return s.toks, s.err
}

// errorAt records the first error at a 0-based column of a line.
func (s *scanner) errorAt(line, col int, format string, args ...any) {
	if s.err == nil {
		s.err = diag.New(s.file, s.src, diag.Span{Line: line, Col: max(col, 0)}, format, args...)
	}
}

// errorHere records an error at byte offset off of the current line.
func (s *scanner) errorHere(off int, format string, args ...any) {
	s.errorAt(s.line, off-s.lineStart, format, args...)
}

func (s *scanner) newline() {
	s.line++
	s.lineStart = s.i
}

// add appends a token that starts at byte start (line sl, column sc) and ends at s.i.
func (s *scanner) add(kind tokKind, o op, start, sl, sc int) {
	s.emit(kind, o, start, s.i, sl, sc, s.line, s.i-s.lineStart)
}

// emit appends a token. Positions are stored as int32: tokenize rejects larger sources.
func (s *scanner) emit(kind tokKind, o op, start, end, line, col, endLine, endCol int) {
	s.toks = append(s.toks, token{
		kind: kind, op: o, start: int32(start), end: int32(end),
		line: int32(line), col: int32(col), endLine: int32(endLine), endCol: int32(endCol),
	})
}

// addHere appends a single-line token spanning [start, s.i) on the current line.
func (s *scanner) addHere(kind tokKind, o op, start int) {
	s.add(kind, o, start, s.line, start-s.lineStart)
}

func (s *scanner) top() *fframe {
	if n := len(s.frames); n > 0 {
		return &s.frames[n-1]
	}
	return nil
}

// step scans the next token(s); it returns false after ENDMARKER or an error.
func (s *scanner) step() bool {
	if f := s.top(); f != nil && !f.inExpr {
		s.fstringText(f)
		return s.err == nil
	}
	if s.atBOL {
		s.atBOL = false
		s.indentation()
		if s.err != nil {
			return false
		}
	}
	src := s.src
	for s.i < len(src) && (src[s.i] == ' ' || src[s.i] == '\t' || src[s.i] == '\f') {
		s.i++
	}
	if s.i >= len(src) {
		s.eof()
		return false
	}
	switch c := src[s.i]; {
	case c == '#':
		for s.i < len(src) && src[s.i] != '\n' {
			s.i++
		}
	case c == '\n':
		if len(s.parens) == 0 && len(s.toks) > 0 && s.toks[len(s.toks)-1].kind != tkNewline {
			s.i++
			s.addHere(tkNewline, opNone, s.i-1)
		} else {
			s.i++
		}
		s.newline()
		s.atBOL = true
	case c == '\\':
		switch {
		case s.i+1 >= len(src):
			s.errorHere(s.i+1, "unexpected EOF while parsing")
		case src[s.i+1] == '\n':
			s.i += 2
			s.newline()
			if s.i >= len(src) {
				s.errorHere(s.i, "unexpected EOF while parsing")
			}
		default:
			s.errorHere(s.i+1, "unexpected character after line continuation character")
		}
	case isNameStart(c):
		s.nameOrString()
	case isDigit(c) || c == '.' && s.i+1 < len(src) && isDigit(src[s.i+1]):
		s.number()
	case c == '"' || c == '\'':
		s.str(s.i)
	default:
		s.operator()
	}
	return s.err == nil
}

// indentation measures a line's indentation and emits INDENT/DEDENT tokens (CPython's
// tokenizer, with tabs to multiples of 8 checked against tabs of width 1).
func (s *scanner) indentation() {
	if len(s.parens) > 0 {
		return
	}
	col, alt := 0, 0
	j := s.i
loop:
	for ; j < len(s.src); j++ {
		switch s.src[j] {
		case ' ':
			col++
			alt++
		case '\t':
			col = (col/8 + 1) * 8
			alt++
		case '\f':
			col, alt = 0, 0
		default:
			break loop
		}
	}
	if j >= len(s.src) || s.src[j] == '#' || s.src[j] == '\n' {
		return // a blank line
	}
	n := j - s.lineStart
	top := len(s.indents) - 1
	switch {
	case col == s.indents[top]:
		if alt != s.altIndents[top] {
			s.errorAt(s.line, 0, "inconsistent use of tabs and spaces in indentation")
		}
	case col > s.indents[top]:
		if len(s.indents) >= maxIndent {
			s.errorAt(s.line, 0, "too many levels of indentation")
			return
		}
		if alt <= s.altIndents[top] {
			s.errorAt(s.line, 0, "inconsistent use of tabs and spaces in indentation")
			return
		}
		s.indents = append(s.indents, col)
		s.altIndents = append(s.altIndents, alt)
		s.emit(tkIndent, opNone, j, j, s.line, max(n-1, 0), s.line, n)
	default:
		for top > 0 && col < s.indents[top] {
			top--
			s.emit(tkDedent, opNone, j, j, s.line, max(n-1, 0), s.line, n)
		}
		s.indents, s.altIndents = s.indents[:top+1], s.altIndents[:top+1]
		if col != s.indents[top] {
			s.errorAt(s.line, lineLen(s.src, s.lineStart), "unindent does not match any outer indentation level")
		} else if alt != s.altIndents[top] {
			s.errorAt(s.line, 0, "inconsistent use of tabs and spaces in indentation")
		}
	}
}

// lineLen is the length of the line starting at off, without its newline.
func lineLen(src []byte, off int) int {
	n := 0
	for off+n < len(src) && src[off+n] != '\n' {
		n++
	}
	return n
}

// eof ends the token stream: NEWLINE if a line is open, DEDENTs, ENDMARKER.
func (s *scanner) eof() {
	if f := s.top(); f != nil {
		s.unterminatedFString(f)
		return
	}
	if n := len(s.parens); n > 0 {
		p := s.parens[n-1]
		s.errorAt(p.line, p.col, "'%c' was never closed", p.ch)
		return
	}
	if n := len(s.toks); n > 0 && s.toks[n-1].kind != tkNewline {
		s.emit(tkNewline, opNone, s.i, s.i, s.line, s.i-s.lineStart, s.line, s.i-s.lineStart+1)
	}
	// CPython places DEDENT and ENDMARKER at the end of the last line.
	line, col := s.line, s.i-s.lineStart
	if len(s.src) > 0 && s.src[len(s.src)-1] == '\n' && line > 1 {
		line--
		start := len(s.src) - 1
		for start > 0 && s.src[start-1] != '\n' {
			start--
		}
		col = len(s.src) - 1 - start
	}
	for range len(s.indents) - 1 {
		s.emit(tkDedent, opNone, s.i, s.i, line, col, line, col)
	}
	s.emit(tkEnd, opNone, s.i, s.i, line, col, line, col)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isNameStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c >= 0x80
}
func isNameChar(c byte) bool { return isNameStart(c) || isDigit(c) }

// stringPrefix reports whether p (1 or 2 bytes) is a valid string prefix, and whether it
// makes an f-string or a raw string.
func stringPrefix(p []byte) (ok, f, raw bool) {
	var b, r, u bool
	for _, c := range p {
		switch c | 0x20 {
		case 'b':
			if b || f || u {
				return
			}
			b = true
		case 'r':
			if r || u {
				return
			}
			r = true
		case 'u':
			if len(p) > 1 {
				return
			}
			u = true
		case 'f':
			if f || b || u {
				return
			}
			f = true
		default:
			return
		}
	}
	return true, f, r
}

func (s *scanner) nameOrString() {
	src, start := s.src, s.i
	j := start
	for j < len(src) && j-start < 2 && isNameStart(src[j]) && src[j] < 0x80 {
		j++
		if j < len(src) && (src[j] == '"' || src[j] == '\'') {
			if ok, f, raw := stringPrefix(src[start:j]); ok {
				s.i = j
				if f {
					s.fstringStart(start, raw)
				} else {
					s.str(start)
				}
				return
			}
			break
		}
	}
	ascii := true
	for s.i < len(src) && isNameChar(src[s.i]) {
		ascii = ascii && src[s.i] < 0x80
		s.i++
	}
	if !ascii && !s.checkIdentifier(start) {
		return
	}
	kind, o := tkName, keyword(src[start:s.i])
	s.addHere(kind, o, start)
}

// checkIdentifier validates a non-ASCII identifier (Unicode XID rules, approximated with
// Go's tables; NFKC normalization is not applied).
func (s *scanner) checkIdentifier(start int) bool {
	for k := start; k < s.i; {
		r, w := utf8.DecodeRune(s.src[k:s.i])
		ok := r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
		if k > start {
			ok = ok || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)
		}
		if !ok {
			if unicode.IsPrint(r) {
				s.errorHere(k, "invalid character '%c' (U+%04X)", r, r)
			} else {
				s.errorHere(k, "invalid non-printable character U+%04X", r)
			}
			return false
		}
		k += w
	}
	return true
}

// digits scans digits accepted by ok, with single underscores between them. It reports
// whether at least one digit was read; on a misplaced underscore it records an error.
func (s *scanner) digits(ok func(byte) bool, kind string) bool {
	src, any := s.src, false
	for s.i < len(src) {
		c := src[s.i]
		if ok(c) {
			s.i++
			any = true
			continue
		}
		if c == '_' && any || c == '_' && kind != "decimal" {
			s.i++
			if s.i >= len(src) || !ok(src[s.i]) {
				s.errorHere(s.i-1, "invalid %s literal", kind)
				return false
			}
			continue
		}
		break
	}
	return any
}

func isHex(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }
func isOct(c byte) bool { return '0' <= c && c <= '7' }
func isBin(c byte) bool { return c == '0' || c == '1' }

// endOfNumber checks what follows a number, as CPython's verify_end_of_number does: a
// keyword may follow directly (1if x else y), an identifier character may not.
func (s *scanner) endOfNumber(kind string) {
	if s.i >= len(s.src) || !isNameChar(s.src[s.i]) {
		return
	}
	rest := s.src[s.i:]
	for _, kw := range [...]string{"and", "else", "for", "if", "in", "is", "not", "or"} {
		if len(rest) >= len(kw) && string(rest[:len(kw)]) == kw {
			return
		}
	}
	s.errorHere(s.i-1, "invalid %s literal", kind)
}

func (s *scanner) number() {
	src, start := s.src, s.i
	if src[s.i] == '0' && s.i+1 < len(src) {
		var ok func(byte) bool
		var kind string
		switch src[s.i+1] | 0x20 {
		case 'x':
			ok, kind = isHex, "hexadecimal"
		case 'o':
			ok, kind = isOct, "octal"
		case 'b':
			ok, kind = isBin, "binary"
		}
		if ok != nil {
			s.i += 2
			if !s.digits(ok, kind) {
				if s.err == nil {
					s.errorHere(s.i-1, "invalid %s literal", kind)
				}
				return
			}
			if s.i < len(src) && isDigit(src[s.i]) && kind != "hexadecimal" {
				s.errorHere(s.i, "invalid digit '%c' in %s literal", src[s.i], kind)
				return
			}
			if s.endOfNumber(kind); s.err == nil {
				s.addHere(tkNumber, opNone, start)
			}
			return
		}
	}
	isFloat := false
	if src[s.i] != '.' {
		if !s.digits(isDigit, "decimal") {
			return
		}
	}
	if s.i < len(src) && src[s.i] == '.' {
		isFloat = true
		s.i++
		if s.i < len(src) && isDigit(src[s.i]) && !s.digits(isDigit, "decimal") {
			return
		}
	}
	if s.i < len(src) && src[s.i]|0x20 == 'e' {
		j := s.i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
			if j >= len(src) || !isDigit(src[j]) {
				s.errorHere(j, "invalid decimal literal")
				return
			}
		}
		if j < len(src) && isDigit(src[j]) {
			s.i = j
			isFloat = true
			if !s.digits(isDigit, "decimal") {
				return
			}
		}
	}
	if s.i < len(src) && src[s.i]|0x20 == 'j' {
		s.i++
		if s.endOfNumber("imaginary"); s.err == nil {
			s.addHere(tkNumber, opNone, start)
		}
		return
	}
	if !isFloat && src[start] == '0' {
		for k := start; k < s.i; k++ {
			if src[k] != '0' && src[k] != '_' {
				s.errorAt(s.line, start-s.lineStart, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers")
				return
			}
		}
	}
	if s.endOfNumber("decimal"); s.err == nil {
		s.addHere(tkNumber, opNone, start)
	}
}

// str scans a non-f string literal whose prefix starts at start; s.i is at the quote.
func (s *scanner) str(start int) {
	src := s.src
	sl, sc := s.line, start-s.lineStart
	q := src[s.i]
	triple := s.i+2 < len(src) && src[s.i+1] == q && src[s.i+2] == q
	if triple {
		s.i += 3
	} else {
		s.i++
	}
	for {
		if s.i >= len(src) {
			s.unterminated(sl, sc, q, triple)
			return
		}
		switch c := src[s.i]; c {
		case q:
			s.i++
			if !triple {
				s.add(tkString, opNone, start, sl, sc)
				return
			}
			if s.i+1 < len(src) && src[s.i] == q && src[s.i+1] == q {
				s.i += 2
				s.add(tkString, opNone, start, sl, sc)
				return
			}
		case '\\':
			s.i++
			if s.i < len(src) {
				s.i++
				if src[s.i-1] == '\n' {
					s.newline()
				}
			}
		case '\n':
			if !triple {
				s.unterminated(sl, sc, q, triple)
				return
			}
			s.i++
			s.newline()
		default:
			s.i++
		}
	}
}

// detectedLine is the line CPython names in "(detected at line N)" at end of input.
func (s *scanner) detectedLine() int {
	if s.i >= len(s.src) && len(s.src) > 0 && s.src[len(s.src)-1] == '\n' {
		return s.line - 1
	}
	return s.line
}

func (s *scanner) unterminated(sl, sc int, q byte, triple bool) {
	if f := s.top(); f != nil && f.quote == q && f.triple == triple {
		s.errorAt(sl, sc, "f-string: expecting '}'")
		return
	}
	if triple {
		s.errorAt(sl, sc, "unterminated triple-quoted string literal (detected at line %d)", s.detectedLine())
	} else {
		s.errorAt(sl, sc, "unterminated string literal (detected at line %d)", s.line)
	}
}

func (s *scanner) unterminatedFString(f *fframe) {
	if f.triple {
		s.errorAt(f.line, f.col, "unterminated triple-quoted f-string literal (detected at line %d)", s.detectedLine())
	} else {
		s.errorAt(f.line, f.col, "unterminated f-string literal (detected at line %d)", s.line)
	}
}

// fstringStart emits FSTRING_START; s.i is at the quote.
func (s *scanner) fstringStart(start int, raw bool) {
	src := s.src
	q := src[s.i]
	triple := s.i+2 < len(src) && src[s.i+1] == q && src[s.i+2] == q
	if triple {
		s.i += 3
	} else {
		s.i++
	}
	s.addHere(tkFStart, opNone, start)
	s.frames = append(s.frames, fframe{quote: q, triple: triple, raw: raw, line: s.line, col: start - s.lineStart})
}

// fstringText scans literal text of an f-string or of a format spec, up to a replacement
// field, the end of the field or the closing quote.
func (s *scanner) fstringText(f *fframe) {
	src := s.src
	start, sl, sc := s.i, s.line, s.i-s.lineStart
	inSpec := len(f.fields) > 0
	// middle emits the text before end; CPython emits an empty one before a format
	// spec's closing '}'.
	middle := func(end int) {
		if end > start || inSpec && end < len(src) && src[end] == '}' {
			saved := s.i
			s.i = end
			s.add(tkFMiddle, opNone, start, sl, sc)
			s.i = saved
		}
	}
	// doubled emits the text up to and including the first of two braces; as in CPython,
	// the token's range covers both.
	doubled := func() {
		s.i += 2
		s.add(tkFMiddle, opNone, start, sl, sc)
		s.toks[len(s.toks)-1].end--
	}
	for s.i < len(src) {
		c := src[s.i]
		switch {
		case c == f.quote && (!f.triple || s.i+2 < len(src) && src[s.i+1] == c && src[s.i+2] == c):
			middle(s.i)
			q := s.i
			if f.triple {
				s.i += 3
			} else {
				s.i++
			}
			s.addHere(tkFEnd, opNone, q)
			s.frames = s.frames[:len(s.frames)-1]
			return
		case c == '\n':
			if !f.triple {
				if inSpec {
					s.errorHere(s.i, "f-string: newlines are not allowed in format specifiers for single quoted f-strings")
				} else {
					s.unterminatedFString(f)
				}
				return
			}
			s.i++
			s.newline()
		case c == '\\':
			s.i++
			if s.i >= len(src) || src[s.i] == '{' || src[s.i] == '}' {
				continue
			}
			if !f.raw && src[s.i] == 'N' && s.i+1 < len(src) && src[s.i+1] == '{' {
				for s.i < len(src) && src[s.i] != '}' && src[s.i] != f.quote && src[s.i] != '\n' {
					s.i++
				}
				if s.i < len(src) && src[s.i] == '}' {
					s.i++
				}
				continue
			}
			if src[s.i] == '\n' {
				s.i++
				s.newline()
			} else {
				s.i++
			}
		case c == '{':
			if !inSpec && s.i+1 < len(src) && src[s.i+1] == '{' {
				doubled()
				return
			}
			middle(s.i)
			s.i++
			s.openBracket('{', opLbrace)
			f = s.top()
			f.fields = append(f.fields, f.depth)
			f.inExpr = true
			return
		case c == '}':
			if !inSpec && s.i+1 < len(src) && src[s.i+1] == '}' {
				doubled()
				return
			}
			if !inSpec {
				s.errorHere(s.i, "f-string: single '}' is not allowed")
				return
			}
			middle(s.i)
			f.inExpr = true // the expression scanner closes the field
			return
		default:
			s.i++
		}
	}
	s.unterminatedFString(f)
}

// openBracket records an opening bracket whose byte is at s.i-1 and emits it.
func (s *scanner) openBracket(ch byte, o op) {
	if len(s.parens) >= maxParens {
		s.errorHere(s.i-1, "too many nested parentheses")
		return
	}
	s.parens = append(s.parens, paren{ch, s.line, s.i - 1 - s.lineStart})
	if f := s.top(); f != nil {
		f.depth++
	}
	s.addHere(tkOp, o, s.i-1)
}

// closeBracket checks and emits a closing bracket whose byte is at s.i-1.
func (s *scanner) closeBracket(ch byte, o op) {
	f := s.top()
	n := len(s.parens)
	if n == 0 {
		s.errorHere(s.i-1, "unmatched '%c'", ch)
		return
	}
	open := s.parens[n-1]
	if want := matching(ch); open.ch != want {
		switch {
		case f != nil && open.ch == '{' && len(f.fields) > 0 && f.depth == f.fields[len(f.fields)-1]:
			s.errorHere(s.i-1, "f-string: unmatched '%c'", ch)
		case open.line != s.line:
			s.errorHere(s.i-1, "closing parenthesis '%c' does not match opening parenthesis '%c' on line %d", ch, open.ch, open.line)
		default:
			s.errorHere(s.i-1, "closing parenthesis '%c' does not match opening parenthesis '%c'", ch, open.ch)
		}
		return
	}
	s.parens = s.parens[:n-1]
	s.addHere(tkOp, o, s.i-1)
	if f != nil {
		if ch == '}' && len(f.fields) > 0 && f.depth == f.fields[len(f.fields)-1] {
			f.fields = f.fields[:len(f.fields)-1]
			f.inExpr = false
		}
		f.depth--
	}
}

// matching returns the opening bracket for a closing one.
func matching(ch byte) byte {
	if ch == ')' {
		return '('
	}
	return ch - 2 // ']' - 2 == '[', '}' - 2 == '{'
}

// bracketOps maps bracket bytes to their tokens.
var bracketOps = [128]op{'(': opLpar, ')': opRpar, '[': opLsqb, ']': opRsqb, '{': opLbrace, '}': opRbrace}

// operator scans an operator or delimiter.
func (s *scanner) operator() {
	src, start := s.src, s.i
	c := src[s.i]
	at := func(k int) byte {
		if s.i+k < len(src) {
			return src[s.i+k]
		}
		return 0
	}
	c2, c3 := at(1), at(2)
	o, n := opUnknown, 1
	// withEq picks the operator or its augmented-assignment form.
	withEq := func(plain, eq op) {
		if c2 == '=' {
			o, n = eq, 2
		} else {
			o = plain
		}
	}
	// withDouble also picks the doubled operator (**, //, <<, >>) or its augmented form.
	withDouble := func(plain, plainEq, double, doubleEq op) {
		if c2 != c {
			withEq(plain, plainEq)
			return
		}
		o, n = double, 2
		if c3 == '=' {
			o, n = doubleEq, 3
		}
	}
	switch c {
	case '(', '[', '{':
		s.i++
		s.openBracket(c, bracketOps[c])
		return
	case ')', ']', '}':
		s.i++
		s.closeBracket(c, bracketOps[c])
		return
	case ':':
		if f := s.top(); f != nil && len(f.fields) > 0 && f.depth == f.fields[len(f.fields)-1] {
			s.i++
			f.inExpr = false
			s.addHere(tkOp, opColon, start)
			return
		}
		withEq(opColon, opColonEq)
	case ',':
		o = opComma
	case ';':
		o = opSemi
	case '~':
		o = opTilde
	case '+':
		withEq(opPlus, opPlusEq)
	case '-':
		if c2 == '>' {
			o, n = opRarrow, 2
		} else {
			withEq(opMinus, opMinusEq)
		}
	case '*':
		withDouble(opStar, opStarEq, opDoubleStar, opDoubleStarEq)
	case '/':
		withDouble(opSlash, opSlashEq, opDoubleSlash, opDoubleSlashEq)
	case '%':
		withEq(opPercent, opPercentEq)
	case '&':
		withEq(opAmper, opAmperEq)
	case '|':
		withEq(opVbar, opVbarEq)
	case '^':
		withEq(opCircumflex, opCircumflexEq)
	case '@':
		withEq(opAt, opAtEq)
	case '=':
		withEq(opEqual, opEqEqual)
	case '!':
		withEq(opExclamation, opNotEqual)
	case '<':
		withDouble(opLess, opLessEqual, opLeftShift, opLeftShiftEq)
	case '>':
		withDouble(opGreater, opGreaterEqual, opRightShift, opRightShiftEq)
	case '.':
		if c2 == '.' && c3 == '.' {
			o, n = opEllipsis, 3
		} else {
			o = opDot
		}
	default:
		if c < ' ' || c == 0x7f {
			s.errorHere(s.i, "invalid non-printable character U+%04X", c)
			return
		}
	}
	s.i += n
	s.addHere(tkOp, o, start)
}
