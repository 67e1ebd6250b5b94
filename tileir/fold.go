package tileir

import "math"

// Constant folding. A fold hook gets the constant value of each operand (an IntAttr,
// FloatAttr or splat DenseAttr; nil when not constant) and returns the op's constant result,
// or nil when it cannot fold. Only splat constants exist in tileir, so folding works on one
// scalar and re-wraps it in the result's shape.

// splatOf returns the scalar inside a constant: the attribute itself or a dense splat's value.
func splatOf(a Attr) Attr {
	if d, ok := a.(DenseAttr); ok {
		return d.Splat
	}
	return a
}

// wrap shapes a scalar constant like t: a dense splat for a tensor type.
func wrap(s Attr, t Type) Attr {
	if s == nil {
		return nil
	}
	if tt, ok := t.(*TensorType); ok {
		return DenseAttr{Splat: s, T: tt}
	}
	return s
}

// normInt brings v into the canonical signed form of a bits-wide integer (i1 is 0 or 1).
func normInt(v int64, bits int) int64 {
	switch bits {
	case 1:
		return v & 1
	case 64:
		return v
	}
	shift := 64 - bits
	return v << shift >> shift
}

// unsignedOf reads v as a bits-wide unsigned integer.
func unsignedOf(v int64, bits int) uint64 {
	if bits == 64 {
		return uint64(v)
	}
	return uint64(v) & (1<<bits - 1)
}

func allConst(in []Attr) bool {
	for _, a := range in {
		if a == nil {
			return false
		}
	}
	return len(in) > 0
}

func foldConstant(op *Op, _ []Attr) Attr { return op.Attr("value") }

func foldSplat(op *Op, in []Attr) Attr {
	if len(in) != 1 || in[0] == nil {
		return nil
	}
	return wrap(splatOf(in[0]), op.Results[0].Type)
}

func foldSelect(op *Op, in []Attr) Attr {
	c, ok := splatOf(in[0]).(IntAttr)
	if !ok {
		return nil
	}
	if c.V != 0 {
		return in[1]
	}
	return in[2]
}

func foldArith(op *Op, in []Attr) Attr {
	if !allConst(in) {
		return nil
	}
	t := op.Results[0].Type
	s := ScalarOf(t)
	if s.IsInt() {
		args := make([]int64, len(in))
		for i, a := range in {
			args[i] = splatOf(a).(IntAttr).V
		}
		v, ok := foldIntOp(op.Name, args, s.Bits())
		if !ok {
			return nil
		}
		return wrap(IntAttr{normInt(v, s.Bits()), s}, t)
	}
	args := make([]float64, len(in))
	for i, a := range in {
		args[i] = splatOf(a).(FloatAttr).V
	}
	v, ok := foldFloatOp(op.Name, args)
	if !ok {
		return nil
	}
	return wrap(FloatAttr{RoundFloat(v, s), s}, t)
}

// foldIntOp evaluates an integer op on bits-wide operands.
func foldIntOp(name string, a []int64, bits int) (int64, bool) {
	x := a[0]
	if len(a) == 1 {
		if name == "math.absi" {
			return max(x, -x), true
		}
		return 0, false
	}
	y := a[1]
	ux, uy := unsignedOf(x, bits), unsignedOf(y, bits)
	minInt := normInt(int64(1)<<(bits-1), bits)
	switch name {
	case "arith.addi":
		return x + y, true
	case "arith.subi":
		return x - y, true
	case "arith.muli":
		return x * y, true
	case "arith.andi":
		return x & y, true
	case "arith.ori":
		return x | y, true
	case "arith.xori":
		return x ^ y, true
	case "arith.maxsi":
		return max(x, y), true
	case "arith.minsi":
		return min(x, y), true
	case "arith.maxui":
		return int64(max(ux, uy)), true
	case "arith.minui":
		return int64(min(ux, uy)), true
	case "arith.shli", "arith.shrsi", "arith.shrui":
		if uy >= uint64(bits) {
			return 0, false
		}
		switch name {
		case "arith.shli":
			return x << uy, true
		case "arith.shrsi":
			return x >> uy, true
		}
		return int64(ux >> uy), true
	}
	if y == 0 || (x == minInt && y == -1 && name[len(name)-2] == 's') {
		return 0, false // division by zero, or signed overflow
	}
	switch name {
	case "arith.divsi":
		return x / y, true
	case "arith.remsi":
		return x % y, true
	case "arith.divui":
		return int64(ux / uy), true
	case "arith.remui":
		return int64(ux % uy), true
	case "arith.ceildivsi":
		q := x / y
		if x%y != 0 && (x < 0) == (y < 0) {
			q++
		}
		return q, true
	case "arith.floordivsi":
		q := x / y
		if x%y != 0 && (x < 0) != (y < 0) {
			q--
		}
		return q, true
	case "arith.ceildivui":
		q := ux / uy
		if ux%uy != 0 {
			q++
		}
		return int64(q), true
	}
	return 0, false
}

var floatUnary = map[string]func(float64) float64{
	"arith.negf": func(x float64) float64 { return -x },
	"math.exp":   math.Exp, "math.exp2": math.Exp2, "math.log": math.Log, "math.log2": math.Log2,
	"math.sqrt": math.Sqrt, "math.rsqrt": func(x float64) float64 { return 1 / math.Sqrt(x) },
	"math.sin": math.Sin, "math.cos": math.Cos, "math.tan": math.Tan, "math.absf": math.Abs,
	"math.floor": math.Floor, "math.ceil": math.Ceil, "math.erf": math.Erf, "math.tanh": math.Tanh,
	"math.trunc": math.Trunc, "math.round": math.Round, "math.roundeven": math.RoundToEven,
	"math.log1p": math.Log1p, "math.expm1": math.Expm1,
}

// nanAware implements maxnumf/minnumf: a NaN operand loses.
func nanAware(f func(float64, float64) float64) func(float64, float64) float64 {
	return func(x, y float64) float64 {
		switch {
		case math.IsNaN(x):
			return y
		case math.IsNaN(y):
			return x
		}
		return f(x, y)
	}
}

var floatBinary = map[string]func(float64, float64) float64{
	"arith.addf": func(x, y float64) float64 { return x + y },
	"arith.subf": func(x, y float64) float64 { return x - y },
	"arith.mulf": func(x, y float64) float64 { return x * y },
	"arith.divf": func(x, y float64) float64 { return x / y },
	"arith.remf": math.Mod, "arith.maximumf": math.Max, "arith.minimumf": math.Min,
	"arith.maxnumf": nanAware(math.Max), "arith.minnumf": nanAware(math.Min),
}

// foldFloatOp evaluates a float op in float64 (the caller rounds to the result type).
func foldFloatOp(name string, a []float64) (float64, bool) {
	switch len(a) {
	case 1:
		if f := floatUnary[name]; f != nil {
			return f(a[0]), true
		}
	case 2:
		if f := floatBinary[name]; f != nil {
			return f(a[0], a[1]), true
		}
	case 3:
		if name == "math.fma" {
			return math.FMA(a[0], a[1], a[2]), true
		}
	}
	return 0, false
}

func foldCmp(op *Op, in []Attr) Attr {
	if !allConst(in) {
		return nil
	}
	pred := op.EnumAttr("predicate")
	var r bool
	if x, ok := splatOf(in[0]).(IntAttr); ok {
		y := splatOf(in[1]).(IntAttr)
		bits := x.T.Bits()
		ux, uy := unsignedOf(x.V, bits), unsignedOf(y.V, bits)
		switch pred {
		case "eq":
			r = x.V == y.V
		case "ne":
			r = x.V != y.V
		case "slt":
			r = x.V < y.V
		case "sle":
			r = x.V <= y.V
		case "sgt":
			r = x.V > y.V
		case "sge":
			r = x.V >= y.V
		case "ult":
			r = ux < uy
		case "ule":
			r = ux <= uy
		case "ugt":
			r = ux > uy
		case "uge":
			r = ux >= uy
		}
	} else {
		x, y := splatOf(in[0]).(FloatAttr).V, splatOf(in[1]).(FloatAttr).V
		unordered := math.IsNaN(x) || math.IsNaN(y)
		var cmp bool
		switch pred[1:] {
		case "eq":
			cmp = x == y
		case "gt":
			cmp = x > y
		case "ge":
			cmp = x >= y
		case "lt":
			cmp = x < y
		case "le":
			cmp = x <= y
		case "ne":
			cmp = x != y
		}
		switch {
		case pred == "true" || pred == "false":
			r = pred == "true"
		case pred == "ord" || pred == "uno":
			r = unordered == (pred == "uno")
		case pred[0] == 'o':
			r = !unordered && cmp
		default:
			r = unordered || cmp
		}
	}
	return wrap(IntAttr{boolInt(r), I1}, op.Results[0].Type)
}

func foldCast(op *Op, in []Attr) Attr {
	if !allConst(in) {
		return nil
	}
	src, dst := ScalarOf(op.Operands[0].Type), ScalarOf(op.Results[0].Type)
	a := splatOf(in[0])
	var out Attr
	switch op.Name {
	case "arith.extsi", "arith.trunci":
		out = IntAttr{normInt(a.(IntAttr).V, dst.Bits()), dst}
	case "arith.extui":
		out = IntAttr{int64(unsignedOf(a.(IntAttr).V, src.Bits())), dst}
	case "arith.sitofp":
		out = FloatAttr{RoundFloat(float64(a.(IntAttr).V), dst), dst}
	case "arith.uitofp":
		out = FloatAttr{RoundFloat(float64(unsignedOf(a.(IntAttr).V, src.Bits())), dst), dst}
	case "arith.fptosi", "arith.fptoui":
		v := math.Trunc(a.(FloatAttr).V)
		lo, hi := -math.Ldexp(1, dst.Bits()-1), math.Ldexp(1, dst.Bits()-1)
		if op.Name == "arith.fptoui" {
			lo, hi = 0, math.Ldexp(1, dst.Bits())
		}
		if math.IsNaN(v) || v < lo || v >= hi {
			return nil
		}
		out = IntAttr{normInt(int64(uint64(v)), dst.Bits()), dst}
		if v < 0 {
			out = IntAttr{int64(v), dst}
		}
	case "arith.extf", "arith.truncf":
		out = FloatAttr{RoundFloat(a.(FloatAttr).V, dst), dst}
	case "arith.bitcast":
		var bits uint64
		if i, ok := a.(IntAttr); ok {
			bits = unsignedOf(i.V, src.Bits())
		} else {
			bits = floatBits(a.(FloatAttr).V, src)
		}
		if dst.IsInt() {
			out = IntAttr{normInt(int64(bits), dst.Bits()), dst}
		} else {
			out = FloatAttr{floatFromBits(bits, dst), dst}
		}
	}
	return wrap(out, op.Results[0].Type)
}
