package frontend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/diag"
)

// errorCases are malformed inputs with CPython 3.12's message and position (0-based
// column). cpython311 marks cases whose message and position CPython 3.11 reports
// identically, so TestErrorsCPython can check them against the local python3.
var errorCases = []struct {
	name, src  string
	msg        string
	line, col  int
	cpython311 bool
}{
	{"generic", "x = = 1\n", "invalid syntax", 1, 4, true},
	{"eol after operator", "x = 1 +\n", "invalid syntax", 1, 7, true},
	{"missing rhs", "x =\n", "invalid syntax", 1, 3, true},
	{"dollar", "x = $\n", "invalid syntax", 1, 4, true},
	{"forgot comma", "print(a b)\n", "invalid syntax. Perhaps you forgot a comma?", 1, 6, true},
	{"forgot comma list", "x = [1, 2 3]\n", "invalid syntax. Perhaps you forgot a comma?", 1, 8, true},
	{"unexpected indent", "x = 1\n    y = 2\n", "unexpected indent", 2, 3, true},
	{"unindent mismatch", "if x:\n    a\n  b\n", "unindent does not match any outer indentation level", 3, 3, true},
	{"tab error", "if x:\n\ta\n        b\n", "inconsistent use of tabs and spaces in indentation", 3, 0, true},
	{"no block def", "def f():\npass\n", "expected an indented block after function definition on line 1", 2, 0, true},
	{"no block if eof", "if x:\n", "expected an indented block after 'if' statement on line 1", 1, 5, true},
	{"no block for", "for x in y:\nz\n", "expected an indented block after 'for' statement on line 1", 2, 0, true},
	{"no block class", "class C:\nx = 1\n", "expected an indented block after class definition on line 1", 2, 0, true},
	{"expected colon", "if x\n  pass\n", "expected ':'", 1, 4, true},
	{"expected colon def", "def f() pass\n", "expected ':'", 1, 8, true},
	{"unterminated string", "x = \"abc\ny\n", "unterminated string literal (detected at line 1)", 1, 4, true},
	{"unterminated triple", "x = \"\"\"abc\n\nfoo", "unterminated triple-quoted string literal (detected at line 3)", 1, 4, true},
	{"unterminated triple nl", "x = '''abc\n\n", "unterminated triple-quoted string literal (detected at line 2)", 1, 4, true},
	{"never closed", "x = (1,\n2\n", "'(' was never closed", 1, 4, true},
	{"unmatched", "x = ]\n", "unmatched ']'", 1, 4, true},
	{"mismatch", "x = (]\n", "closing parenthesis ']' does not match opening parenthesis '('", 1, 5, true},
	{"mismatch lines", "x = (\n]\n", "closing parenthesis ']' does not match opening parenthesis '(' on line 1", 2, 0, true},
	{"line continuation", "x = 1 \\ y\n", "unexpected character after line continuation character", 1, 7, true},
	{"eof after backslash", "x = \\", "unexpected EOF while parsing", 1, 5, true},
	{"invalid decimal", "x = 1abc\n", "invalid decimal literal", 1, 4, true},
	{"invalid hex", "x = 0x1g\n", "invalid hexadecimal literal", 1, 6, true},
	{"invalid binary digit", "x = 0b12\n", "invalid digit '2' in binary literal", 1, 7, true},
	{"leading zeros", "x = 0123\n", "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers", 1, 4, true},
	{"non-printable", "x = \u00a0\n", "invalid non-printable character U+00A0", 1, 4, true},
	{"invalid character", "x = \u20ac\n", "invalid character '\u20ac' (U+20AC)", 1, 4, true},
	{"assign to call", "f() = 1\n", "cannot assign to function call here. Maybe you meant '==' instead of '='?", 1, 0, true},
	{"assign to call chained", "f() = x = 1\n", "cannot assign to function call", 1, 0, true},
	{"assign in tuple", "a, f() = 1\n", "cannot assign to function call here. Maybe you meant '==' instead of '='?", 1, 3, true},
	{"augassign tuple", "(a, b) += 1\n", "'tuple' is an illegal expression for augmented assignment", 1, 0, true},
	{"delete call", "del f()\n", "cannot delete function call", 1, 4, true},
	{"for target", "for f() in x: pass\n", "cannot assign to function call", 1, 4, true},
	{"if without else", "x = 1 if y els 2\n", "expected 'else' after 'if' expression", 1, 4, true},
	{"positional after keyword", "f(a=1, b)\n", "positional argument follows keyword argument", 1, 8, true},
	{"unpacking after kwargs", "f(**a, *b)\n", "iterable argument unpacking follows keyword argument unpacking", 1, 7, true},
	{"bare genexp", "f(x for x in y, 1)\n", "Generator expression must be parenthesized", 1, 2, true},
	{"trailing comma import", "from x import a,\n", "trailing comma not allowed without surrounding parentheses", 1, 16, true},
	{"except mix", "try:\n pass\nexcept* A:\n pass\nexcept B:\n pass\n", "cannot have both 'except' and 'except*' on the same 'try'", 5, 0, true},
	{"bytes non-ascii", "x = b\"\u00e9\"\n", "bytes can only contain ASCII literal characters", 1, 4, true},
	{"non-default after default", "def f(a=1, b): pass\n", "parameter without a default follows parameter with a default", 1, 11, false},
	{"null byte", "x = 1\ny = \x00\n", "source code cannot contain null bytes", 2, 4, false},
	{"invalid utf-8", "x = 1\ny = '\xff'\n", "(unicode error) 'utf-8' codec can't decode byte 0xff in position 11: invalid start byte", 2, 5, false},
	{"unterminated f-string", "x = f\"abc\n", "unterminated f-string literal (detected at line 1)", 1, 4, false},
	{"f-string expecting brace", "x = f\"{x\"\n", "f-string: expecting '}'", 1, 8, false},
	{"f-string single brace", "x = f\"}\"\n", "f-string: single '}' is not allowed", 1, 6, false},
	{"f-string empty", "x = f\"{}\"\n", "f-string: empty expression not allowed", 1, 7, false},
	{"f-string conversion", "x = f\"{x!z}\"\n", "f-string: invalid conversion character 'z': expected 's', 'r', or 'a'", 1, 9, false},
	{"tokenizer error wins", "x = = 1\ny = 'abc\n", "unterminated string literal (detected at line 2)", 2, 4, true},
}

func TestErrors(t *testing.T) {
	for _, c := range errorCases {
		t.Run(c.name, func(t *testing.T) {
			mod, err := ParseFile("t.py", []byte(c.src))
			if err == nil {
				t.Fatalf("parsed without error: %s", ast.Dump(mod))
			}
			d, ok := diag.As(err)
			if !ok {
				t.Fatalf("error %T is not a *diag.Error: %v", err, err)
			}
			if d.Msg != c.msg || d.Span.Line != c.line || d.Span.Col != c.col {
				t.Errorf("got %d:%d %q\nwant %d:%d %q", d.Span.Line, d.Span.Col, d.Msg, c.line, c.col, c.msg)
			}
			if !strings.HasPrefix(err.Error(), "t.py:") || !strings.Contains(err.Error(), "error: "+c.msg) {
				t.Errorf("rendered error %q", err.Error())
			}
		})
	}
}

// TestErrorsCPython checks the table against the local python3 for the cases where 3.11
// and 3.12 agree.
func TestErrorsCPython(t *testing.T) {
	dir := t.TempDir()
	var files []string
	byFile := map[string]int{}
	for i, c := range errorCases {
		if !c.cpython311 {
			continue
		}
		f := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".py")
		if err := os.WriteFile(f, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		byFile[f] = i
	}
	got, _ := runOracle(t, files)
	for _, f := range files {
		c := errorCases[byFile[f]]
		r := got[f]
		if r.Error == nil {
			t.Errorf("%s: CPython accepts the input", c.name)
			continue
		}
		msg, line, off := r.Error[0], r.Error[1], r.Error[2]
		if msg != c.msg || line != float64(c.line) || off != float64(c.col+1) {
			t.Errorf("%s: CPython says %v:%v %q, table says %d:%d %q", c.name, line, off, msg, c.line, c.col+1, c.msg)
		}
	}
}

// TestParserFailure checks the error a panic of the parser becomes (ParseFile's last-resort
// recover): positioned at the token being parsed, naming it, and without "internal error".
func TestParserFailure(t *testing.T) {
	src := []byte("x = (1 +\n    foo)\n")
	toks, _ := tokenize("bug.py", src)
	p := &parser{file: "bug.py", src: src, srcStr: string(src), toks: toks}
	for _, c := range []struct {
		pos  int
		want string
	}{
		{4, "bug.py:1:8: error: the parser failed on `+` (a gotriton bug, please report it): boom"},
		{8, "bug.py:2:9: error: the parser failed here (a gotriton bug, please report it): boom"},
	} {
		p.pos = c.pos
		if got := p.failure("boom").Error(); !strings.HasPrefix(got, c.want) {
			t.Errorf("token %d: got %q, want the prefix %q", c.pos, got, c.want)
		}
	}
	p.toks = nil
	if got := p.failure("boom").Error(); !strings.HasPrefix(got, "bug.py:1:") || !strings.Contains(got, "the parser failed before the first token") {
		t.Errorf("no tokens: got %q", got)
	}
}
