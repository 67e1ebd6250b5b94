package pyeval

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/gotriton/gotriton/ast"
)

// builtins are the Python builtins that host code uses to build configs and constants.
var builtins map[string]Value

// builtinTypes are the builtins that are classes: isinstance and type() answer with them.
var builtinTypes = map[string]bool{
	"int": true, "float": true, "str": true, "bool": true, "tuple": true, "list": true, "dict": true,
	"set": true, "frozenset": true, "type": true, "object": true, "range": true, "NoneType": true,
}

// unmodelledBuiltins are Python builtins that pyeval does not evaluate: using one gives an
// Unknown, not a NameError.
const unmodelledBuiltins = "aiter anext ascii breakpoint bytearray bytes compile complex copyright " +
	"credits delattr eval exec exit globals hash help id input iter license locals memoryview " +
	"next open quit slice super vars __import__ __build_class__ __debug__ NotImplemented"

type builtinFunc = func(ev *evaluator, args []Value, kwargs *Dict) (Value, error)

func init() {
	builtins = map[string]Value{"True": Bool(true), "False": Bool(false), "None": None, "Ellipsis": EllipsisValue{}}
	for name := range exceptionBases {
		builtins[name] = ExceptionClass{name}
	}
	builtins["BaseException"] = ExceptionClass{"BaseException"}
	for _, name := range strings.Fields(unmodelledBuiltins) {
		builtins[name] = unknownf("the builtin %s is not evaluated offline", name)
	}
	fns := map[string]builtinFunc{
		"len": builtinLen, "range": builtinRange, "list": seqBuiltin("list"), "tuple": seqBuiltin("tuple"),
		"set": seqBuiltin("set"), "frozenset": seqBuiltin("frozenset"), "dict": builtinDict,
		"filter": builtinFilter, "map": builtinMap, "min": minmax("min", -1), "max": minmax("max", 1),
		"abs": builtinAbs, "int": builtinInt, "float": builtinFloat, "str": builtinStr, "bool": builtinBool,
		"sorted": builtinSorted, "reversed": builtinReversed, "enumerate": builtinEnumerate, "zip": builtinZip,
		"any": anyAll(true), "all": anyAll(false), "sum": builtinSum, "round": builtinRound,
		"divmod": builtinDivmod, "pow": builtinPow, "repr": builtinRepr, "format": builtinFormat,
		"chr": builtinChr, "ord": builtinOrd, "hex": radix("hex", 16, "0x"), "oct": radix("oct", 8, "0o"),
		"bin": radix("bin", 2, "0b"), "callable": builtinCallable, "isinstance": builtinIsinstance,
		"issubclass": builtinIssubclass, "type": builtinType, "getattr": builtinGetattr,
		"hasattr": builtinHasattr, "setattr": builtinSetattr, "print": builtinPrint,
		"object": builtinObject, "dir": builtinDir, "staticmethod": descriptorBuiltin("staticmethod"),
		"classmethod": descriptorBuiltin("classmethod"), "property": descriptorBuiltin("property"),
	}
	for name, f := range fns {
		builtins[name] = &Builtin{name, f}
	}
}

func wantArgs(name string, args []Value, lo, hi int) error {
	if len(args) < lo || len(args) > hi {
		if lo == hi {
			return typeError("%s() takes exactly %d argument(s) (%d given)", name, lo, len(args))
		}
		return typeError("%s() takes from %d to %d arguments (%d given)", name, lo, hi, len(args))
	}
	return nil
}

// unknownIn returns the first Unknown among vs.
func unknownIn(vs ...Value) (Unknown, bool) {
	for _, v := range vs {
		if u, ok := v.(Unknown); ok {
			return u, true
		}
	}
	return Unknown{}, false
}

// items iterates v for a builtin: an Unknown stays unknown (ok false, with the Unknown to
// return); a value that is not iterable is a TypeError.
func items(name string, v Value) ([]Value, Value, error) {
	if u, ok := v.(Unknown); ok {
		return nil, u, nil
	}
	out, err := iterate(v)
	if err != nil {
		if exception(err) != nil {
			return nil, nil, err
		}
		return nil, unknownf("%s(%s)", name, Repr(v)), nil
	}
	return out, nil, nil
}

func builtinLen(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("len", args, 1, 1); err != nil {
		return nil, err
	}
	if s, ok := args[0].(Str); ok {
		return NewInt(int64(len([]rune(string(s))))), nil
	}
	switch args[0].(type) {
	case Int, Float, Bool, NoneValue:
		return nil, typeError("object of type '%s' has no len()", args[0].TypeName())
	}
	it, u, err := items("len", args[0])
	if u != nil || err != nil {
		return u, err
	}
	return NewInt(int64(len(it))), nil
}

func builtinRange(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("range", args, 1, 3); err != nil {
		return nil, err
	}
	if u, ok := unknownIn(args...); ok {
		return u, nil
	}
	var b [3]int64
	b[2] = 1
	for i, a := range args {
		n, ok := intEnumValue(a).(Int)
		if !ok {
			if bv, isBool := a.(Bool); isBool {
				n = boolInt(bv)
			} else {
				return nil, typeError("'%s' object cannot be interpreted as an integer", a.TypeName())
			}
		}
		if !n.V.IsInt64() {
			return nil, &Error{"OverflowError", "range too large to evaluate at compile time"}
		}
		b[i] = n.V.Int64()
	}
	lo, hi, step := b[0], b[1], b[2]
	if len(args) == 1 {
		lo, hi = 0, b[0]
	}
	if step == 0 {
		return nil, &Error{"ValueError", "range() arg 3 must not be zero"}
	}
	var out []Value
	for i := lo; (step > 0 && i < hi) || (step < 0 && i > hi); i += step {
		if len(out) > 1<<20 {
			return nil, &Error{"OverflowError", "range too large to evaluate at compile time"}
		}
		out = append(out, NewInt(i))
	}
	return &List{out}, nil
}

func boolInt(b Bool) Int {
	if b {
		return NewInt(1)
	}
	return NewInt(0)
}

// seqBuiltin makes list, tuple, set and frozenset.
func seqBuiltin(name string) builtinFunc {
	return func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if err := wantArgs(name, args, 0, 1); err != nil {
			return nil, err
		}
		var elems []Value
		if len(args) == 1 {
			it, u, err := items(name, args[0])
			if u != nil || err != nil {
				return u, err
			}
			elems = append(elems, it...)
		}
		switch name {
		case "list":
			return &List{elems}, nil
		case "tuple":
			return Tuple(elems), nil
		}
		return newSet(elems, name == "frozenset"), nil
	}
}

func builtinDict(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
	if err := wantArgs("dict", args, 0, 1); err != nil {
		return nil, err
	}
	d := &Dict{}
	if len(args) == 1 {
		switch src := args[0].(type) {
		case *Dict:
			d.Keys, d.Vals = append(d.Keys, src.Keys...), append(d.Vals, src.Vals...)
		case Unknown:
			return src, nil
		default:
			pairs, u, err := items("dict", src)
			if u != nil || err != nil {
				return u, err
			}
			for _, p := range pairs {
				kv, err := iterate(p)
				if err != nil || len(kv) != 2 {
					return nil, typeError("cannot convert dictionary update sequence element %s to a sequence of length 2", Repr(p))
				}
				d.Set(kv[0], kv[1])
			}
		}
	}
	for i, k := range kwargs.Keys {
		d.Set(k, kwargs.Vals[i])
	}
	return d, nil
}

func builtinFilter(ev *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("filter", args, 2, 2); err != nil {
		return nil, err
	}
	it, u, err := items("filter", args[1])
	if u != nil || err != nil {
		return u, err
	}
	var out []Value
	for _, x := range it {
		keep := x
		if args[0] != None {
			if keep, err = ev.call(args[0], []Value{x}, nil, ast.Pos{}); err != nil {
				return nil, err
			}
		}
		truth, known := Truth(keep)
		if !known {
			return keep, nil
		}
		if truth {
			out = append(out, x)
		}
	}
	return &List{out}, nil
}

func builtinMap(ev *evaluator, args []Value, _ *Dict) (Value, error) {
	if len(args) < 2 {
		return nil, typeError("map() must have at least two arguments.")
	}
	var cols [][]Value
	for _, a := range args[1:] {
		it, u, err := items("map", a)
		if u != nil || err != nil {
			return u, err
		}
		cols = append(cols, it)
	}
	var out []Value
	for i := 0; ; i++ {
		row := make([]Value, len(cols))
		for j, c := range cols {
			if i >= len(c) {
				return &List{out}, nil
			}
			row[j] = c[i]
		}
		v, err := ev.call(args[0], row, nil, ast.Pos{})
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
}

// keyOf applies a key= function, or returns v when there is none.
func keyOf(ev *evaluator, key, v Value) (Value, error) {
	if key == nil || key == None {
		return v, nil
	}
	return ev.call(key, []Value{v}, nil, ast.Pos{})
}

func minmax(name string, want int) builtinFunc {
	return func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		key, def := kwargs.Get(Str("key")), kwargs.Get(Str("default"))
		if len(args) == 0 {
			return nil, typeError("%s expected at least 1 argument, got 0", name)
		}
		if len(args) == 1 {
			it, u, err := items(name, args[0])
			if u != nil || err != nil {
				return u, err
			}
			args = it
		}
		if len(args) == 0 {
			if def != nil {
				return def, nil
			}
			return nil, &Error{"ValueError", name + "() iterable argument is empty"}
		}
		best := args[0]
		bestKey, err := keyOf(ev, key, best)
		if err != nil {
			return nil, err
		}
		for _, a := range args[1:] {
			k, err := keyOf(ev, key, a)
			if err != nil {
				return nil, err
			}
			if u, ok := unknownIn(k, bestKey); ok {
				return u, nil
			}
			c, err := order(k, bestKey)
			if err != nil {
				return nil, typeError("'%s' not supported between instances of '%s' and '%s'", map[int]string{-1: "<", 1: ">"}[want], k.TypeName(), bestKey.TypeName())
			}
			if c == want {
				best, bestKey = a, k
			}
		}
		return best, nil
	}
}

func builtinAbs(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("abs", args, 1, 1); err != nil {
		return nil, err
	}
	switch v := intEnumValue(args[0]).(type) {
	case Int:
		return Int{new(big.Int).Abs(v.V)}, nil
	case Bool:
		return boolInt(v), nil
	case Float:
		return Float(math.Abs(float64(v))), nil
	case Unknown:
		return v, nil
	}
	return nil, typeError("bad operand type for abs(): '%s'", args[0].TypeName())
}

func builtinInt(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
	if base := kw(args, kwargs, 1, "base"); base != nil {
		s, ok := args[0].(Str)
		b, okb := base.(Int)
		if !ok || !okb {
			return nil, typeError("int() can't convert non-string with explicit base")
		}
		return parseIntBase(string(s), int(b.V.Int64()))
	}
	if err := wantArgs("int", args, 0, 1); err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return NewInt(0), nil
	}
	switch v := intEnumValue(args[0]).(type) {
	case Int:
		return v, nil
	case Bool:
		return boolInt(v), nil
	case Float:
		if math.IsInf(float64(v), 0) {
			return nil, &Error{"OverflowError", "cannot convert float infinity to integer"}
		}
		if math.IsNaN(float64(v)) {
			return nil, &Error{"ValueError", "cannot convert float NaN to integer"}
		}
		b, _ := big.NewFloat(math.Trunc(float64(v))).Int(nil)
		return Int{b}, nil
	case Str:
		return parseIntLiteral(strings.TrimSpace(string(v)))
	case Unknown:
		return v, nil
	}
	return unknownf("int(%s)", Repr(args[0])), nil
}

// parseIntBase converts int(s, base); base 0 reads the prefix (0x, 0o, 0b).
func parseIntBase(s string, base int) (Value, error) {
	if base != 0 && (base < 2 || base > 36) {
		return nil, &Error{"ValueError", "int() base must be >= 2 and <= 36, or 0"}
	}
	t := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "_", "")
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimLeft(t, "+-")
	if base == 0 || base == 16 || base == 8 || base == 2 {
		for p, b := range map[string]int{"0x": 16, "0o": 8, "0b": 2} {
			if strings.HasPrefix(t, p) && (base == 0 || base == b) {
				t, base = t[2:], b
			}
		}
		if base == 0 {
			base = 10
		}
	}
	n, ok := new(big.Int).SetString(t, base)
	if !ok {
		return nil, &Error{"ValueError", fmt.Sprintf("invalid literal for int() with base %d: %s", base, StrRepr(s))}
	}
	if neg {
		n.Neg(n)
	}
	return Int{n}, nil
}

func builtinFloat(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("float", args, 0, 1); err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return Float(0), nil
	}
	if s, ok := args[0].(Str); ok {
		t := strings.ToLower(strings.TrimSpace(string(s)))
		switch strings.TrimLeft(t, "+-") {
		case "inf", "infinity":
			return Float(math.Inf(map[bool]int{true: -1, false: 1}[strings.HasPrefix(t, "-")])), nil
		case "nan":
			return Float(math.NaN()), nil
		}
		f, err := strconv.ParseFloat(strings.ReplaceAll(t, "_", ""), 64)
		if err != nil && !strings.Contains(err.Error(), "range") {
			return nil, &Error{"ValueError", "could not convert string to float: " + StrRepr(string(s))}
		}
		return Float(f), nil
	}
	if u, ok := args[0].(Unknown); ok {
		return u, nil
	}
	if n, ok := toNumber(intEnumValue(args[0])); ok {
		f := n.float()
		if math.IsInf(f, 0) && !n.isFloat {
			return nil, &Error{"OverflowError", "int too large to convert to float"}
		}
		return Float(f), nil
	}
	return unknownf("float(%s)", Repr(args[0])), nil
}

func builtinStr(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("str", args, 0, 1); err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return Str(""), nil
	}
	if u, ok := args[0].(Unknown); ok {
		return u, nil
	}
	return Str(ToStr(args[0])), nil
}

func builtinRepr(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("repr", args, 1, 1); err != nil {
		return nil, err
	}
	if u, ok := args[0].(Unknown); ok {
		return u, nil
	}
	return Str(Repr(args[0])), nil
}

func builtinBool(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("bool", args, 0, 1); err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return Bool(false), nil
	}
	t, known := Truth(args[0])
	if !known {
		return args[0], nil
	}
	return Bool(t), nil
}

// sortValues sorts vs by key (nil for none) as Python's stable sort does.
func sortValues(ev *evaluator, vs []Value, key Value, reverse bool) error {
	keys := make([]Value, len(vs))
	for i, v := range vs {
		k, err := keyOf(ev, key, v)
		if err != nil {
			return err
		}
		if u, ok := k.(Unknown); ok {
			return fmt.Errorf("sort key %s", u.Why)
		}
		keys[i] = k
	}
	idx := make([]int, len(vs))
	for i := range idx {
		idx[i] = i
	}
	var sortErr error
	sort.SliceStable(idx, func(i, j int) bool {
		a, b := keys[idx[i]], keys[idx[j]]
		if reverse {
			a, b = b, a
		}
		c, err := order(a, b)
		if err != nil && sortErr == nil {
			sortErr = typeError("'<' not supported between instances of '%s' and '%s'", a.TypeName(), b.TypeName())
		}
		return c == -1
	})
	sorted := make([]Value, len(vs))
	for i, j := range idx {
		sorted[i] = vs[j]
	}
	copy(vs, sorted)
	return sortErr
}

func builtinSorted(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
	if err := wantArgs("sorted", args, 1, 1); err != nil {
		return nil, err
	}
	it, u, err := items("sorted", args[0])
	if u != nil || err != nil {
		return u, err
	}
	out := append([]Value{}, it...)
	rev, _ := Truth(orDefault(kwargs.Get(Str("reverse")), Bool(false)))
	if err := sortValues(ev, out, kwargs.Get(Str("key")), rev); err != nil {
		if exception(err) == nil {
			return unknownf("sorted(...): %v", err), nil
		}
		return nil, err
	}
	return &List{out}, nil
}

func builtinReversed(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("reversed", args, 1, 1); err != nil {
		return nil, err
	}
	if _, ok := args[0].(*Set); ok {
		return nil, typeError("'set' object is not reversible")
	}
	it, u, err := items("reversed", args[0])
	if u != nil || err != nil {
		return u, err
	}
	out := make([]Value, len(it))
	for i, v := range it {
		out[len(it)-1-i] = v
	}
	return &List{out}, nil
}

func builtinEnumerate(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
	if err := wantArgs("enumerate", args, 1, 2); err != nil {
		return nil, err
	}
	start := int64(0)
	if s, ok := kw(args, kwargs, 1, "start").(Int); ok {
		start = s.V.Int64()
	}
	it, u, err := items("enumerate", args[0])
	if u != nil || err != nil {
		return u, err
	}
	out := make([]Value, len(it))
	for i, x := range it {
		out[i] = Tuple{NewInt(start + int64(i)), x}
	}
	return &List{out}, nil
}

func builtinZip(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
	var cols [][]Value
	n := -1
	for _, a := range args {
		it, u, err := items("zip", a)
		if u != nil || err != nil {
			return u, err
		}
		cols = append(cols, it)
		if n < 0 || len(it) < n {
			n = len(it)
		}
	}
	if strict, _ := Truth(orDefault(kwargs.Get(Str("strict")), Bool(false))); strict {
		for _, c := range cols {
			if len(c) != n {
				return nil, &Error{"ValueError", "zip() arguments have different lengths"}
			}
		}
	}
	out := make([]Value, max(n, 0))
	for i := range out {
		row := make(Tuple, len(cols))
		for j := range cols {
			row[j] = cols[j][i]
		}
		out[i] = row
	}
	return &List{out}, nil
}

// anyAll makes any (want true) and all (want false).
func anyAll(want bool) builtinFunc {
	name := map[bool]string{true: "any", false: "all"}[want]
	return func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if err := wantArgs(name, args, 1, 1); err != nil {
			return nil, err
		}
		it, u, err := items(name, args[0])
		if u != nil || err != nil {
			return u, err
		}
		for _, x := range it {
			t, known := Truth(x)
			if !known {
				return x, nil
			}
			if t == want {
				return Bool(want), nil
			}
		}
		return Bool(!want), nil
	}
}

func builtinSum(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
	if err := wantArgs("sum", args, 1, 2); err != nil {
		return nil, err
	}
	acc := orDefault(kw(args, kwargs, 1, "start"), NewInt(0))
	if _, ok := acc.(Str); ok {
		return nil, typeError("sum() can't sum strings [use ''.join(seq) instead]")
	}
	it, u, err := items("sum", args[0])
	if u != nil || err != nil {
		return u, err
	}
	for _, x := range it {
		if acc, err = BinOp("+", acc, x); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

func builtinRound(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
	if err := wantArgs("round", args, 1, 2); err != nil {
		return nil, err
	}
	nd := kw(args, kwargs, 1, "ndigits")
	if u, ok := unknownIn(args...); ok {
		return u, nil
	}
	switch v := intEnumValue(args[0]).(type) {
	case Int, Bool:
		n := v
		if b, ok := v.(Bool); ok {
			n = boolInt(b)
		}
		if d, ok := nd.(Int); ok && d.V.Sign() < 0 {
			// Round to a multiple of 10**-d, half to even.
			p := new(big.Int).Exp(big.NewInt(10), new(big.Int).Neg(d.V), nil)
			q, r := new(big.Int).DivMod(n.(Int).V, p, new(big.Int))
			twice := new(big.Int).Lsh(r, 1)
			if c := twice.Cmp(p); c > 0 || (c == 0 && q.Bit(0) == 1) {
				q.Add(q, big.NewInt(1))
			}
			return Int{q.Mul(q, p)}, nil
		}
		return n, nil
	case Float:
		f := float64(v)
		if nd == nil || nd == None {
			if math.IsInf(f, 0) {
				return nil, &Error{"OverflowError", "cannot convert float infinity to integer"}
			}
			if math.IsNaN(f) {
				return nil, &Error{"ValueError", "cannot convert float NaN to integer"}
			}
			b, _ := big.NewFloat(math.RoundToEven(f)).Int(nil)
			return Int{b}, nil
		}
		d, ok := nd.(Int)
		if !ok {
			return nil, typeError("'%s' object cannot be interpreted as an integer", nd.TypeName())
		}
		digits := d.V.Int64()
		if math.IsInf(f, 0) || math.IsNaN(f) || digits > 300 {
			return v, nil
		}
		if digits < 0 {
			p := math.Pow(10, float64(-digits))
			return Float(math.RoundToEven(f/p) * p), nil
		}
		// The decimal string of f rounded half-even at the digit, as CPython's
		// correctly rounded round() gives.
		r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', int(digits), 64), 64)
		return Float(r), nil
	}
	return nil, typeError("type %s doesn't define __round__ method", args[0].TypeName())
}

func builtinDivmod(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("divmod", args, 2, 2); err != nil {
		return nil, err
	}
	q, err := BinOp("//", args[0], args[1])
	if err != nil {
		return nil, err
	}
	r, err := BinOp("%", args[0], args[1])
	if err != nil {
		return nil, err
	}
	if u, ok := unknownIn(q, r); ok {
		return u, nil
	}
	return Tuple{q, r}, nil
}

func builtinPow(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
	if err := wantArgs("pow", args, 2, 3); err != nil {
		return nil, err
	}
	if mod := kw(args, kwargs, 2, "mod"); mod != nil && mod != None {
		b, ok1 := args[0].(Int)
		e, ok2 := args[1].(Int)
		m, ok3 := mod.(Int)
		if !ok1 || !ok2 || !ok3 {
			return nil, typeError("pow() 3rd argument not allowed unless all arguments are integers")
		}
		if m.V.Sign() == 0 {
			return nil, &Error{"ValueError", "pow() 3rd argument cannot be 0"}
		}
		if e.V.Sign() < 0 {
			return unknownf("pow with a negative exponent and a modulus"), nil
		}
		r := new(big.Int).Exp(b.V, e.V, new(big.Int).Abs(m.V))
		if m.V.Sign() < 0 && r.Sign() != 0 {
			r.Add(r, m.V)
		}
		return Int{r}, nil
	}
	return BinOp("**", args[0], args[1])
}

func builtinFormat(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("format", args, 1, 2); err != nil {
		return nil, err
	}
	spec := ""
	if len(args) == 2 {
		s, ok := args[1].(Str)
		if !ok {
			return nil, typeError("format() argument 2 must be str, not %s", args[1].TypeName())
		}
		spec = string(s)
	}
	return formatValue(args[0], spec)
}

func builtinChr(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("chr", args, 1, 1); err != nil {
		return nil, err
	}
	n, ok := args[0].(Int)
	if !ok {
		return nil, typeError("'%s' object cannot be interpreted as an integer", args[0].TypeName())
	}
	if !n.V.IsInt64() || n.V.Int64() < 0 || n.V.Int64() > 0x10ffff {
		return nil, &Error{"ValueError", "chr() arg not in range(0x110000)"}
	}
	return Str(string(rune(n.V.Int64()))), nil
}

func builtinOrd(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("ord", args, 1, 1); err != nil {
		return nil, err
	}
	s, ok := args[0].(Str)
	if !ok {
		return nil, typeError("ord() expected string of length 1, but %s found", args[0].TypeName())
	}
	r := []rune(string(s))
	if len(r) != 1 {
		return nil, typeError("ord() expected a character, but string of length %d found", len(r))
	}
	return NewInt(int64(r[0])), nil
}

// radix makes hex, oct and bin.
func radix(name string, base int, prefix string) builtinFunc {
	return func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if err := wantArgs(name, args, 1, 1); err != nil {
			return nil, err
		}
		n, ok := intEnumValue(args[0]).(Int)
		if !ok {
			if u, isU := args[0].(Unknown); isU {
				return u, nil
			}
			return nil, typeError("'%s' object cannot be interpreted as an integer", args[0].TypeName())
		}
		if n.V.Sign() < 0 {
			return Str("-" + prefix + new(big.Int).Neg(n.V).Text(base)), nil
		}
		return Str(prefix + n.V.Text(base)), nil
	}
}

func builtinCallable(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("callable", args, 1, 1); err != nil {
		return nil, err
	}
	switch args[0].(type) {
	case *Function, *Builtin, *JITFunction, *Class, ExceptionClass, method, boundMethod:
		return Bool(true), nil
	case Ref, Unknown, *Object, *Instance:
		return unknownf("callable(%s)", Repr(args[0])), nil
	}
	return Bool(false), nil
}

// isInstance answers isinstance(v, class) for one class; known is false when the answer
// cannot be known offline.
func isInstance(v, class Value) (is, known bool) {
	switch c := class.(type) {
	case Tuple:
		for _, e := range c {
			is, known := isInstance(v, e)
			if !known || is {
				return is, known
			}
		}
		return false, true
	case *Builtin:
		if !builtinTypes[c.Name] {
			return false, false
		}
		switch v.(type) {
		case Unknown, Ref, *Object:
			return false, false
		}
		t := v.TypeName()
		if i, ok := v.(*Instance); ok && i.Class.Kind == IntEnumClass {
			t = "int"
		}
		return c.Name == "object" || t == c.Name || (c.Name == "int" && t == "bool") ||
			(c.Name == "type" && (t == "type")), true
	case *Class:
		if i, ok := v.(*Instance); ok {
			return i.Class.isSubclassOf(c), true
		}
		if _, ok := v.(Unknown); ok {
			return false, false
		}
		return false, true
	case ExceptionClass:
		if e, ok := v.(*Error); ok {
			return isSubclass(e.Kind, c.Name), true
		}
		if _, ok := v.(Unknown); ok {
			return false, false
		}
		return false, true
	case Ref:
		if _, isJIT := v.(*JITFunction); isJIT && jitClasses[c.Path] {
			return true, true
		}
		if c.Path == "torch.Tensor" {
			// An abstract tensor is one; a plain Python value (a number, None, a
			// string, a container) is not.
			switch v.(type) {
			case *Tensor:
				return true, true
			case NoneValue, Bool, Int, Float, Str, Tuple, *List, *Dict:
				return false, true
			}
		}
	}
	return false, false
}

// jitClasses are the classes of Triton 3.6 that a @triton.jit function is an instance of.
var jitClasses = map[string]bool{
	"triton.JITFunction": true, "triton.runtime.JITFunction": true, "triton.runtime.jit.JITFunction": true,
	"triton.KernelInterface": true, "triton.runtime.KernelInterface": true, "triton.runtime.jit.KernelInterface": true,
	"triton.runtime.jit.JITCallable": true,
}

func builtinIsinstance(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("isinstance", args, 2, 2); err != nil {
		return nil, err
	}
	is, known := isInstance(args[0], args[1])
	if !known {
		return unknownf("isinstance(%s, %s)", Repr(args[0]), Repr(args[1])), nil
	}
	return Bool(is), nil
}

func builtinIssubclass(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("issubclass", args, 2, 2); err != nil {
		return nil, err
	}
	switch a := args[0].(type) {
	case *Class:
		if b, ok := args[1].(*Class); ok {
			return Bool(a.isSubclassOf(b)), nil
		}
	case ExceptionClass:
		if b, ok := args[1].(ExceptionClass); ok {
			return Bool(isSubclass(a.Name, b.Name)), nil
		}
	}
	return unknownf("issubclass(%s, %s)", Repr(args[0]), Repr(args[1])), nil
}

func builtinType(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("type", args, 1, 1); err != nil {
		return nil, err
	}
	switch v := args[0].(type) {
	case *Instance:
		return v.Class, nil
	case *Error:
		return ExceptionClass{v.Kind}, nil
	case Unknown:
		return v, nil
	}
	if t, ok := builtins[args[0].TypeName()].(*Builtin); ok && builtinTypes[t.Name] {
		return t, nil
	}
	if args[0] == None {
		return &Builtin{"NoneType", builtinNoneType}, nil
	}
	return unknownf("type(%s)", Repr(args[0])), nil
}

func builtinNoneType(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	return None, wantArgs("NoneType", args, 0, 0)
}

func builtinObject(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("object", args, 0, 0); err != nil {
		return nil, err
	}
	return &Instance{Class: &Class{Name: "object", NS: newScope(nil)}, Attrs: newScope(nil)}, nil
}

func attrName(fn string, v Value) (string, error) {
	s, ok := v.(Str)
	if !ok {
		return "", typeError("%s(): attribute name must be string, not '%s'", fn, v.TypeName())
	}
	return string(s), nil
}

func builtinGetattr(ev *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("getattr", args, 2, 3); err != nil {
		return nil, err
	}
	if u, ok := args[1].(Unknown); ok {
		return u, nil
	}
	name, err := attrName("getattr", args[1])
	if err != nil {
		return nil, err
	}
	v, err := ev.attr(args[0], name, ev.pos)
	if e := exception(err); e != nil && e.Kind == "AttributeError" && len(args) == 3 {
		return args[2], nil
	}
	return v, err
}

func builtinHasattr(ev *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("hasattr", args, 2, 2); err != nil {
		return nil, err
	}
	if u, ok := unknownIn(args...); ok {
		return u, nil
	}
	name, err := attrName("hasattr", args[1])
	if err != nil {
		return nil, err
	}
	v, err := ev.attr(args[0], name, ev.pos)
	if e := exception(err); e != nil && e.Kind == "AttributeError" {
		return Bool(false), nil
	}
	if err != nil {
		return nil, err
	}
	if u, ok := v.(Unknown); ok {
		return u, nil
	}
	return Bool(true), nil
}

func builtinSetattr(ev *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("setattr", args, 3, 3); err != nil {
		return nil, err
	}
	name, err := attrName("setattr", args[1])
	if err != nil {
		return nil, err
	}
	return None, ev.setAttribute(args[0], name, args[2], ev.pos)
}

func builtinPrint(_ *evaluator, _ []Value, _ *Dict) (Value, error) { return None, nil }

// descriptorBuiltin makes staticmethod, classmethod and property.
func descriptorBuiltin(kind string) builtinFunc {
	return func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		if err := wantArgs(kind, args, 1, 1); err != nil {
			return nil, err
		}
		return descriptor{kind, args[0]}, nil
	}
}

// builtinDir is dir() of a module (evaluated, or of the modelled Triton), a class or an
// instance: its sorted attribute names.
func builtinDir(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("dir", args, 1, 1); err != nil {
		return nil, err
	}
	var names []string
	switch o := args[0].(type) {
	case Ref:
		if !isTritonModuleRef(o.Path) {
			return unknownf("dir(%s)", o.Path), nil
		}
		for n := range tritonModules()[o.Path].names {
			names = append(names, n)
		}
	case *Module:
		names = append(names, o.Names()...)
	case *Class:
		for c := []*Class{o}; len(c) > 0; c = append(c[1:], c[0].Bases...) {
			names = append(names, c[0].NS.names...)
		}
	case *Instance:
		names = append(names, o.Attrs.names...)
		for c := []*Class{o.Class}; len(c) > 0; c = append(c[1:], c[0].Bases...) {
			names = append(names, c[0].NS.names...)
		}
	case Unknown:
		return o, nil
	default:
		return unknownf("dir(%s)", Repr(args[0])), nil
	}
	sort.Strings(names)
	out := &List{}
	for i, n := range names {
		if i == 0 || n != names[i-1] {
			out.Elems = append(out.Elems, Str(n))
		}
	}
	return out, nil
}
