package pyeval

import (
	"math"
	"math/big"
	"slices"
	"strings"
)

// Truth returns Python's bool(v); ok is false for Unknown values.
func Truth(v Value) (truth, ok bool) {
	switch v := v.(type) {
	case NoneValue:
		return false, true
	case Bool:
		return bool(v), true
	case Int:
		return v.V.Sign() != 0, true
	case Float:
		return v != 0, true
	case Str:
		return v != "", true
	case Tuple:
		return len(v) > 0, true
	case *List:
		return len(v.Elems) > 0, true
	case *Dict:
		return len(v.Keys) > 0, true
	case *Set:
		return len(v.Elems) > 0, true
	case *Instance:
		if e, ok := v.enumValue(); ok && v.Class.Kind == IntEnumClass {
			return Truth(e)
		}
	case *StructSeq:
		return len(v.Tuple) > 0, true
	case TorchVersionStr:
		return v.S != "", true
	case Unknown, *Tensor:
		return false, false
	}
	return true, true
}

// Equal is Python's ==, with bool, int and float comparing by numeric value.
func Equal(a, b Value) bool {
	a, b = plain(a), plain(b)
	if c, ok := versionOrder(a, b); ok {
		return c == 0
	}
	if x, y, ok := numericPair(a, b); ok {
		return cmpNumbers(x, y) == 0
	}
	switch a := a.(type) {
	case *Set:
		t, ok := b.(*Set)
		if !ok || len(a.Elems) != len(t.Elems) {
			return false
		}
		for _, e := range a.Elems {
			if !containsSeq(t.Elems, e) {
				return false
			}
		}
		return true
	case NoneValue:
		_, ok := b.(NoneValue)
		return ok
	case Str:
		s, ok := b.(Str)
		return ok && a == s
	case Tuple:
		t, ok := b.(Tuple)
		return ok && equalSeq(a, t)
	case *List:
		l, ok := b.(*List)
		return ok && equalSeq(a.Elems, l.Elems)
	case *Dict:
		d, ok := b.(*Dict)
		if !ok || len(d.Keys) != len(a.Keys) {
			return false
		}
		for i, k := range a.Keys {
			if v := d.Get(k); v == nil || !Equal(v, a.Vals[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// plain returns the builtin value that v behaves as in comparisons: the int of an
// IntEnum member, the tuple of a struct sequence, else v.
func plain(v Value) Value {
	switch x := v.(type) {
	case *StructSeq:
		return x.Tuple
	case *Instance:
		return intEnumValue(x)
	}
	return v
}

// intEnumValue returns the int an IntEnum member stands for, else v.
func intEnumValue(v Value) Value {
	if i, ok := v.(*Instance); ok && i.Class.Kind == IntEnumClass {
		if e, ok := i.enumValue(); ok {
			return e
		}
	}
	return v
}

func equalSeq(a, b []Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// number is an int (exact) or a float, the operands of Python arithmetic.
type number struct {
	isFloat bool
	i       *big.Int
	f       float64
}

func toNumber(v Value) (number, bool) {
	switch v := v.(type) {
	case Bool:
		if v {
			return number{i: big.NewInt(1)}, true
		}
		return number{i: big.NewInt(0)}, true
	case Int:
		return number{i: v.V}, true
	case Float:
		return number{isFloat: true, f: float64(v)}, true
	}
	return number{}, false
}

func numericPair(a, b Value) (number, number, bool) {
	x, ok1 := toNumber(a)
	y, ok2 := toNumber(b)
	return x, y, ok1 && ok2
}

func (n number) float() float64 {
	if n.isFloat {
		return n.f
	}
	f, _ := new(big.Float).SetInt(n.i).Float64()
	return f
}

func cmpNumbers(x, y number) int {
	if !x.isFloat && !y.isFloat {
		return x.i.Cmp(y.i)
	}
	a, b := x.float(), y.float()
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	}
	return 2 // unordered (NaN)
}

// BinOp applies a Python binary operator, named by its symbol ("+", "//", "**", "<<", ...).
func BinOp(op string, a, b Value) (Value, error) {
	if u, ok := a.(Unknown); ok {
		return u, nil
	}
	if u, ok := b.(Unknown); ok {
		return u, nil
	}
	a, b = plain(a), plain(b)
	if t, ok := a.(TorchVersionStr); ok {
		a = Str(t.S)
	}
	if x, y, ok := numericPair(a, b); ok {
		return numericBinOp(op, x, y, isBool(a) && isBool(b))
	}
	if t, ok := tensorBinOp(op, a, b); ok {
		return t, nil
	}
	if n, ok := a.(Int); ok && op == "*" { // int * sequence repeats, like sequence * int
		switch b.(type) {
		case Str, Tuple, *List:
			return BinOp(op, b, n)
		}
	}
	switch a := a.(type) {
	case Str:
		switch b := b.(type) {
		case Str:
			if op == "+" {
				return a + b, nil
			}
		case Int:
			if op == "*" {
				return Str(strings.Repeat(string(a), repeatCount(b))), nil
			}
		}
		if op == "%" {
			return percentFormat(string(a), b)
		}
	case Tuple:
		switch b := b.(type) {
		case Tuple:
			if op == "+" {
				return append(append(Tuple{}, a...), b...), nil
			}
		case Int:
			if op == "*" {
				return Tuple(repeatSeq(a, repeatCount(b))), nil
			}
		}
	case *List:
		switch b := b.(type) {
		case *List:
			if op == "+" {
				return &List{append(append([]Value{}, a.Elems...), b.Elems...)}, nil
			}
		case Int:
			if op == "*" {
				return &List{repeatSeq(a.Elems, repeatCount(b))}, nil
			}
		}
	case *Set:
		if b, ok := b.(*Set); ok {
			if out, ok := setOp(op, a, b); ok {
				return out, nil
			}
		}
	case *Dict:
		if b, ok := b.(*Dict); ok && op == "|" {
			out := &Dict{}
			for i, k := range a.Keys {
				out.Set(k, a.Vals[i])
			}
			for i, k := range b.Keys {
				out.Set(k, b.Vals[i])
			}
			return out, nil
		}
	}
	return nil, typeError("unsupported operand type(s) for %s: '%s' and '%s'", op, a.TypeName(), b.TypeName())
}

func isBool(v Value) bool { _, ok := v.(Bool); return ok }

// setOp applies |, &, - or ^ to two sets; the result is frozen when a is.
func setOp(op string, a, b *Set) (*Set, bool) {
	out := &Set{Frozen: a.Frozen}
	switch op {
	case "|":
		out.Elems = append(out.Elems, a.Elems...)
		for _, e := range b.Elems {
			out.add(e)
		}
	case "&", "-":
		for _, e := range a.Elems {
			if containsSeq(b.Elems, e) == (op == "&") {
				out.Elems = append(out.Elems, e)
			}
		}
	case "^":
		for _, e := range a.Elems {
			if !containsSeq(b.Elems, e) {
				out.Elems = append(out.Elems, e)
			}
		}
		for _, e := range b.Elems {
			if !containsSeq(a.Elems, e) {
				out.Elems = append(out.Elems, e)
			}
		}
	default:
		return nil, false
	}
	return out, true
}

func repeatCount(n Int) int {
	c, _ := n.Int64()
	return int(max(min(c, 1<<20), 0))
}

func repeatSeq(s []Value, n int) []Value {
	out := make([]Value, 0, len(s)*n)
	for range n {
		out = append(out, s...)
	}
	return out
}

func numericBinOp(op string, x, y number, bothBool bool) (Value, error) {
	if bothBool && (op == "&" || op == "|" || op == "^") {
		a, b := x.i.Sign() != 0, y.i.Sign() != 0
		switch op {
		case "&":
			return Bool(a && b), nil
		case "|":
			return Bool(a || b), nil
		}
		return Bool(a != b), nil
	}
	if op == "/" {
		if y.float() == 0 {
			return nil, &Error{"ZeroDivisionError", "division by zero"}
		}
		if !x.isFloat && !y.isFloat {
			q, _ := new(big.Rat).SetFrac(x.i, y.i).Float64()
			return Float(q), nil
		}
		return Float(x.float() / y.float()), nil
	}
	if x.isFloat || y.isFloat {
		return floatBinOp(op, x.float(), y.float())
	}
	a, b := x.i, y.i
	r := new(big.Int)
	switch op {
	case "+":
		return Int{r.Add(a, b)}, nil
	case "-":
		return Int{r.Sub(a, b)}, nil
	case "*":
		return Int{r.Mul(a, b)}, nil
	case "//", "%":
		if b.Sign() == 0 {
			return nil, &Error{"ZeroDivisionError", "integer division or modulo by zero"}
		}
		q, m := new(big.Int), new(big.Int)
		q.DivMod(a, b, m) // Euclidean: 0 <= m < |b|
		if m.Sign() != 0 && b.Sign() < 0 {
			// Python's floor division: the remainder takes the divisor's sign.
			m.Add(m, b)
			q.Sub(q, big.NewInt(1))
		}
		if op == "//" {
			return Int{q}, nil
		}
		return Int{m}, nil
	case "**":
		if b.Sign() < 0 {
			return Float(math.Pow(x.float(), y.float())), nil
		}
		if b.BitLen() > 16 {
			return nil, &Error{"OverflowError", "exponent too large to evaluate at compile time"}
		}
		return Int{r.Exp(a, b, nil)}, nil
	case "<<", ">>":
		if b.Sign() < 0 {
			return nil, &Error{"ValueError", "negative shift count"}
		}
		if !b.IsInt64() || b.Int64() > 1<<16 {
			return nil, &Error{"OverflowError", "shift count too large"}
		}
		if op == "<<" {
			return Int{r.Lsh(a, uint(b.Int64()))}, nil
		}
		return Int{r.Rsh(a, uint(b.Int64()))}, nil
	case "&":
		return Int{r.And(a, b)}, nil
	case "|":
		return Int{r.Or(a, b)}, nil
	case "^":
		return Int{r.Xor(a, b)}, nil
	}
	return nil, typeError("unsupported operand type(s) for %s: 'int' and 'int'", op)
}

func floatBinOp(op string, a, b float64) (Value, error) {
	switch op {
	case "+":
		return Float(a + b), nil
	case "-":
		return Float(a - b), nil
	case "*":
		return Float(a * b), nil
	case "//", "%":
		if b == 0 {
			return nil, &Error{"ZeroDivisionError", "float floor division by zero"}
		}
		m := math.Mod(a, b)
		if m != 0 && (m < 0) != (b < 0) {
			m += b
		}
		if op == "%" {
			return Float(m), nil
		}
		return Float(math.Floor((a - m) / b)), nil
	case "**":
		return Float(math.Pow(a, b)), nil
	}
	return nil, typeError("unsupported operand type(s) for %s: 'float' and 'float'", op)
}

// Compare applies a Python comparison operator ("<", "==", "in", "is not", ...).
func Compare(op string, a, b Value) (Value, error) {
	if u, ok := a.(Unknown); ok {
		return u, nil
	}
	if u, ok := b.(Unknown); ok {
		return u, nil
	}
	if t, ok := tensorBinOp(op, a, b); ok && op != "is" && op != "is not" && op != "in" && op != "not in" {
		return t, nil
	}
	switch op {
	case "==":
		return Bool(Equal(a, b)), nil
	case "!=":
		return Bool(!Equal(a, b)), nil
	case "is":
		return Bool(identical(a, b)), nil
	case "is not":
		return Bool(!identical(a, b)), nil
	case "in", "not in":
		in, err := contains(b, a)
		if err != nil {
			return nil, err
		}
		return Bool(in == (op == "in")), nil
	}
	c, err := order(a, b)
	if err != nil {
		return nil, typeError("'%s' not supported between instances of '%s' and '%s'", op, a.TypeName(), b.TypeName())
	}
	switch op {
	case "<":
		return Bool(c == -1), nil
	case "<=":
		return Bool(c == -1 || c == 0), nil
	case ">":
		return Bool(c == 1), nil
	case ">=":
		return Bool(c == 1 || c == 0), nil
	}
	return nil, typeError("unknown comparison %s", op)
}

func identical(a, b Value) bool {
	switch a.(type) {
	case NoneValue, Bool, EllipsisValue:
		return a == b
	}
	return Equal(a, b) && a.TypeName() == b.TypeName()
}

// order compares a and b: -1, 0, 1, or 2 when unordered (NaN).
func order(a, b Value) (int, error) {
	a, b = plain(a), plain(b)
	if c, ok := versionOrder(a, b); ok {
		return c, nil
	}
	if x, y, ok := numericPair(a, b); ok {
		return cmpNumbers(x, y), nil
	}
	switch a := a.(type) {
	case Str:
		if b, ok := b.(Str); ok {
			return strings.Compare(string(a), string(b)), nil
		}
	case Tuple:
		if b, ok := b.(Tuple); ok {
			return orderSeq(a, b)
		}
	case *List:
		if b, ok := b.(*List); ok {
			return orderSeq(a.Elems, b.Elems)
		}
	}
	return 0, typeError("unordered types")
}

func orderSeq(a, b []Value) (int, error) {
	for i := 0; i < len(a) && i < len(b); i++ {
		if !Equal(a[i], b[i]) {
			return order(a[i], b[i])
		}
	}
	switch {
	case len(a) < len(b):
		return -1, nil
	case len(a) > len(b):
		return 1, nil
	}
	return 0, nil
}

func contains(container, item Value) (bool, error) {
	if t, ok := container.(TorchVersionStr); ok {
		container = Str(t.S)
	}
	switch c := plain(container).(type) {
	case Str:
		s, ok := item.(Str)
		if !ok {
			return false, typeError("'in <string>' requires string as left operand, not %s", item.TypeName())
		}
		return strings.Contains(string(c), string(s)), nil
	case Tuple:
		return containsSeq(c, item), nil
	case *List:
		return containsSeq(c.Elems, item), nil
	case *Dict:
		return c.Get(item) != nil, nil
	case *Set:
		return containsSeq(c.Elems, item), nil
	case *Class:
		return containsSeq(instancesOf(c.Members), item), nil
	}
	return false, typeError("argument of type '%s' is not iterable", container.TypeName())
}

// containsSeq reports whether item equals an element of s, as Python's "in" does.
func containsSeq(s []Value, item Value) bool {
	return slices.ContainsFunc(s, func(e Value) bool { return Equal(e, item) })
}

// UnaryOp applies "-", "+", "~" or "not".
func UnaryOp(op string, v Value) (Value, error) {
	if u, ok := v.(Unknown); ok {
		return u, nil
	}
	if op == "not" {
		t, _ := Truth(v)
		return Bool(!t), nil
	}
	if t, ok := v.(*Tensor); ok {
		return t, nil
	}
	n, ok := toNumber(intEnumValue(v))
	if !ok {
		return nil, typeError("bad operand type for unary %s: '%s'", op, v.TypeName())
	}
	if n.isFloat {
		switch op {
		case "-":
			return Float(-n.f), nil
		case "+":
			return Float(n.f), nil
		}
		return nil, typeError("bad operand type for unary ~: 'float'")
	}
	switch op {
	case "-":
		return Int{new(big.Int).Neg(n.i)}, nil
	case "+":
		return Int{n.i}, nil
	}
	return Int{new(big.Int).Not(n.i)}, nil
}
