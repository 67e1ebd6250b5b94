// Package diag formats compiler diagnostics the way every gotriton stage reports them:
//
//	file:line:col: error: message
//	    source line
//	    ^~~~~
//
// Positions follow CPython's conventions internally (1-based lines, 0-based UTF-8 byte
// columns); the printed column is 1-based, as compilers print it.
package diag

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// Span is a source range. Line and EndLine are 1-based; Col and EndCol are 0-based byte
// offsets into their lines. EndLine == 0 means the span is a single point.
type Span struct {
	Line, Col, EndLine, EndCol int
}

// Error is one diagnostic. Notes are printed after the caret, one per line, and carry context
// such as the chain of jit calls that led to the error.
type Error struct {
	File  string
	Span  Span
	Msg   string
	Src   string // the text of Span.Line, without its newline; empty when unknown
	Notes []string
}

// New builds an Error and looks up the source line in src (the whole file's text).
func New(file string, src []byte, span Span, format string, args ...any) *Error {
	return &Error{File: file, Span: span, Msg: fmt.Sprintf(format, args...), Src: Line(src, span.Line)}
}

// Error renders the diagnostic: the located message, the source line and a caret line.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d: error: %s", e.File, e.Span.Line, e.Span.Col+1, e.Msg)
	if e.Src != "" {
		b.WriteByte('\n')
		b.WriteString(e.Src)
		b.WriteByte('\n')
		b.WriteString(caret(e.Src, e.Span))
	}
	for _, n := range e.Notes {
		b.WriteString("\n")
		b.WriteString(n)
	}
	return b.String()
}

// caret returns the marker line: spaces (tabs kept, so it lines up) up to Col, a '^', and '~'
// under the rest of the span when it ends on the same line.
func caret(src string, s Span) string {
	col := min(max(s.Col, 0), len(src))
	var b strings.Builder
	for i := 0; i < col; i++ {
		if src[i] == '\t' {
			b.WriteByte('\t')
		} else if src[i]&0xC0 != 0x80 { // one column per UTF-8 rune
			b.WriteByte(' ')
		}
	}
	b.WriteByte('^')
	if s.EndLine == s.Line && s.EndCol > s.Col+1 {
		end := min(s.EndCol, len(src))
		for i := col + 1; i < end; i++ {
			if src[i]&0xC0 != 0x80 {
				b.WriteByte('~')
			}
		}
	}
	return b.String()
}

// Line returns line n (1-based) of src without its line ending, or "" when out of range.
func Line(src []byte, n int) string {
	if n < 1 {
		return ""
	}
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if j := bytes.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return strings.TrimRight(string(src), "\r")
}

// List collects several diagnostics, as `gotriton check` reports every kernel's errors.
type List []*Error

func (l List) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// As reports whether err is, or wraps, a *Error, and returns it.
func As(err error) (*Error, bool) {
	var d *Error
	ok := errors.As(err, &d)
	return d, ok
}
