package ast

import (
	"math"
	"math/big"
	"testing"
)

func TestRepr(t *testing.T) {
	huge, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	for _, c := range []struct {
		v    any
		want string
	}{
		{nil, "None"},
		{true, "True"},
		{Ellipsis, "Ellipsis"},
		{int64(-7), "-7"},
		{huge, "123456789012345678901234567890"},
		{1.0, "1.0"},
		{0.1, "0.1"},
		{1e-05, "1e-05"},
		{0.0001, "0.0001"},
		{1e16, "1e+16"},
		{1234567890123456.0, "1234567890123456.0"},
		{1.5e300, "1.5e+300"},
		{math.Inf(1), "inf"},
		{complex(0, 1), "1j"},
		{complex(0, 2.5), "2.5j"},
		{complex(0, 1e16), "1e+16j"},
		{complex(0, math.Inf(1)), "infj"},
		{"it's", `"it's"`},
		{`a'b"c`, `'a\'b"c'`},
		{"tab\there\n\x00\x7f\u00e9\u200b\U0001F600", `'tab\there\n\x00\x7fé\u200b😀'`},
		{"\xed\xa0\x80", `'\ud800'`},
		{[]byte("a'\x00\xff\\"), `b"a'\x00\xff\\"`},
	} {
		if got := Repr(c.v); got != c.want {
			t.Errorf("Repr(%#v) = %s, want %s", c.v, got, c.want)
		}
	}
}

func TestDump(t *testing.T) {
	p := func(l, c, el, ec int32) Pos { return Pos{l, c, el, ec} }
	m := &Module{Body: []Stmt{
		&ExprStmt{Value: &Constant{Value: int64(1), Pos: p(1, 0, 1, 1)}, Pos: p(1, 0, 1, 1)},
		&ImportFrom{Names: []*Alias{{Name: "x", Pos: p(2, 14, 2, 15)}}, Level: 1, Pos: p(2, 0, 2, 15)},
		&FunctionDef{Name: "f", Args: &Arguments{}, Body: []Stmt{&Pass{Pos: p(3, 9, 3, 13)}}, Pos: p(3, 0, 3, 13)},
	}}
	want := "Module(body=[Expr(value=Constant(value=1, lineno=1, col_offset=0, end_lineno=1, end_col_offset=1), lineno=1, col_offset=0, end_lineno=1, end_col_offset=1), " +
		"ImportFrom(names=[alias(name='x', lineno=2, col_offset=14, end_lineno=2, end_col_offset=15)], level=1, lineno=2, col_offset=0, end_lineno=2, end_col_offset=15), " +
		"FunctionDef(name='f', args=arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=[Pass(lineno=3, col_offset=9, end_lineno=3, end_col_offset=13)], decorator_list=[], type_params=[], lineno=3, col_offset=0, end_lineno=3, end_col_offset=13)], type_ignores=[])"
	if got := Dump(m); got != want {
		t.Errorf("Dump:\n got %s\nwant %s", got, want)
	}
	var names []string
	Inspect(m, func(n Node) bool {
		if a, ok := n.(*Alias); ok {
			names = append(names, a.Name)
		}
		return true
	})
	if len(names) != 1 || names[0] != "x" {
		t.Errorf("Inspect found aliases %v", names)
	}
}
