package diag

import "testing"

func TestErrorRendering(t *testing.T) {
	src := []byte("x = 1\n\ty = foo(bar)\ns = 'ü' + 1\n")
	for _, tt := range []struct {
		span Span
		want string
	}{
		{Span{Line: 1, Col: 4}, "k.py:1:5: error: msg\nx = 1\n    ^"},
		// Tabs are kept so the caret lines up; the span underlines foo(bar).
		{Span{Line: 2, Col: 5, EndLine: 2, EndCol: 13}, "k.py:2:6: error: msg\n\ty = foo(bar)\n\t    ^" + "~~~~~~~"},
		// Columns are bytes; the caret counts runes, so it sits under the '+'.
		{Span{Line: 3, Col: 9}, "k.py:3:10: error: msg\ns = 'ü' + 1\n" + "        ^"},
		// A span that continues on later lines gets a single caret.
		{Span{Line: 1, Col: 0, EndLine: 2, EndCol: 3}, "k.py:1:1: error: msg\nx = 1\n^"},
		// Out-of-range lines print no source.
		{Span{Line: 9}, "k.py:9:1: error: msg"},
	} {
		if got := New("k.py", src, tt.span, "msg").Error(); got != tt.want {
			t.Errorf("span %+v:\n got %q\nwant %q", tt.span, got, tt.want)
		}
	}
}

func TestNotesAndList(t *testing.T) {
	e := New("k.py", []byte("a\n"), Span{Line: 1}, "bad %s", "thing")
	e.Notes = []string{"k.py:5:3: note: in call to helper"}
	l := List{e, New("k.py", nil, Span{Line: 2, Col: 1}, "second")}
	want := "k.py:1:1: error: bad thing\na\n^\nk.py:5:3: note: in call to helper\nk.py:2:2: error: second"
	if got := l.Error(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if d, ok := As(error(e)); !ok || d != e {
		t.Error("As did not find the diagnostic")
	}
}
