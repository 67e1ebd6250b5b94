// Package pyeval evaluates the host-side Python that Triton kernels lean on at compile time:
// module constants, `tl.constexpr` expressions, autotune configs built by helper functions and
// comprehensions. It models Python's values and operator semantics (arbitrary-precision
// ints, floor division, float repr, ...) closely enough that constexpr arithmetic folds
// exactly as CPython would, with Python's builtins, classes and exceptions (try/except takes
// the branch Python takes). Imports of triton follow the modules and names of Triton 3.6 as
// installed (triton_modules.go, generated from its sources), so that feature probes and
// fallbacks see what Triton 3.6 has; torch, the GPU and the versions are modelled as
// constants of the target (hostfacts.go). Anything it cannot know offline (tensors, the live
// driver) evaluates to an Unknown that records the construct and its line.
package pyeval

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/gotriton/gotriton/ast"
)

// Value is a Python value.
type Value interface {
	// TypeName is Python's type(v).__name__.
	TypeName() string
}

type (
	// NoneValue is Python's None.
	NoneValue struct{}
	// Bool is a Python bool.
	Bool bool
	// Int is a Python int of any size. V may be shared (see NewInt): never modify it in
	// place.
	Int struct{ V *big.Int }
	// Float is a Python float.
	Float float64
	// Str is a Python str.
	Str string
	// Tuple is a Python tuple.
	Tuple []Value
	// List is a Python list (shared by reference, as in Python).
	List struct{ Elems []Value }
	// Dict is a Python dict that keeps insertion order.
	Dict struct {
		Keys []Value
		Vals []Value
	}
	// Set is a Python set, or a frozenset when Frozen. It keeps insertion order, where
	// CPython's order follows hashes.
	Set struct {
		Elems  []Value
		Frozen bool
	}
	// EllipsisValue is Python's `...`.
	EllipsisValue struct{}
	// Unknown is a value that cannot be computed offline; Why says which expression and why.
	Unknown struct{ Why string }
)

// None is the None singleton.
var None Value = NoneValue{}

func (NoneValue) TypeName() string     { return "NoneType" }
func (Bool) TypeName() string          { return "bool" }
func (Int) TypeName() string           { return "int" }
func (Float) TypeName() string         { return "float" }
func (Str) TypeName() string           { return "str" }
func (Tuple) TypeName() string         { return "tuple" }
func (*List) TypeName() string         { return "list" }
func (*Dict) TypeName() string         { return "dict" }
func (EllipsisValue) TypeName() string { return "ellipsis" }
func (s *Set) TypeName() string {
	if s.Frozen {
		return "frozenset"
	}
	return "set"
}
func (Unknown) TypeName() string { return "unknown" }

// NewInt returns the Python int i. Small ints are shared, as CPython shares them.
func NewInt(i int64) Int {
	if i >= smallIntMin && i < smallIntMin+int64(len(smallInts)) {
		return smallInts[i-smallIntMin]
	}
	return Int{big.NewInt(i)}
}

// smallInts are the ints smallIntMin ... 256, made once.
const smallIntMin = -5

var smallInts = func() (ints [256 - smallIntMin + 1]Int) {
	for i := range ints {
		ints[i] = Int{big.NewInt(int64(i) + smallIntMin)}
	}
	return ints
}()

// Int64 returns v as an int64 and whether it fits.
func (v Int) Int64() (int64, bool) { return v.V.Int64(), v.V.IsInt64() }

// newDict returns an empty dict with room for n items.
func newDict(n int) *Dict {
	kv := make([]Value, 2*n) // keys and values share one allocation
	return &Dict{Keys: kv[:0:n], Vals: kv[n:n]}
}

// Get returns the value stored under key, or nil.
func (d *Dict) Get(key Value) Value {
	for i, k := range d.Keys {
		if Equal(k, key) {
			return d.Vals[i]
		}
	}
	return nil
}

// Set stores val under key, keeping the first insertion position.
func (d *Dict) Set(key, val Value) {
	for i, k := range d.Keys {
		if Equal(k, key) {
			d.Vals[i] = val
			return
		}
	}
	d.Keys = append(d.Keys, key)
	d.Vals = append(d.Vals, val)
}

// newSet returns the set of items, without duplicates.
func newSet(items []Value, frozen bool) *Set {
	s := &Set{Frozen: frozen}
	for _, it := range items {
		s.add(it)
	}
	return s
}

func (s *Set) add(v Value) {
	if !containsSeq(s.Elems, v) {
		s.Elems = append(s.Elems, v)
	}
}

// Repr returns Python's repr(v).
func Repr(v Value) string {
	switch v := v.(type) {
	case NoneValue:
		return "None"
	case Bool:
		if v {
			return "True"
		}
		return "False"
	case Int:
		return v.V.String()
	case Float:
		return FloatRepr(float64(v))
	case Str:
		return StrRepr(string(v))
	case Tuple:
		if len(v) == 1 {
			return "(" + Repr(v[0]) + ",)"
		}
		return "(" + joinRepr(v) + ")"
	case *List:
		return "[" + joinRepr(v.Elems) + "]"
	case *Dict:
		parts := make([]string, len(v.Keys))
		for i := range v.Keys {
			parts[i] = Repr(v.Keys[i]) + ": " + Repr(v.Vals[i])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *Set:
		inner := "{" + joinRepr(v.Elems) + "}"
		switch {
		case v.Frozen && len(v.Elems) == 0:
			return "frozenset()"
		case v.Frozen:
			return "frozenset(" + inner + ")"
		case len(v.Elems) == 0:
			return "set()"
		}
		return inner
	case EllipsisValue:
		return "Ellipsis"
	case Unknown:
		return "<unknown: " + v.Why + ">"
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprintf("<%s>", v.TypeName())
}

// ToStr returns Python's str(v).
func ToStr(v Value) string {
	switch v := v.(type) {
	case Str:
		return string(v)
	case TorchVersionStr:
		return v.S
	case Version:
		return v.v.canonical()
	case *Error:
		return v.Msg
	}
	return Repr(v)
}

func joinRepr(vs []Value) string {
	parts := make([]string, len(vs))
	for i, e := range vs {
		parts[i] = Repr(e)
	}
	return strings.Join(parts, ", ")
}

// FloatRepr formats f as Python's repr does.
func FloatRepr(f float64) string { return ast.FloatRepr(f, true) }

// StrRepr quotes s as Python's repr does.
func StrRepr(s string) string { return ast.Repr(s) }
