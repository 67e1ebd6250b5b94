package lower

import (
	"fmt"
	"math"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

// regs returns the number of registers of value v (1 for a scalar).
func (g *gen) regs(v *tileir.Value) int {
	if !isTensor(v) {
		return 1
	}
	return g.layoutOf(v).numRegs()
}

// setUniform gives every register of v the value x (a splat, a constant).
func (g *gen) setUniform(v *tileir.Value, x value.Value) {
	out := make([]value.Value, g.regs(v))
	for i := range out {
		out[i] = x
	}
	g.vals[v] = out
}

// equalRegs returns how many consecutive registers of tensor v (from a multiple of it)
// hold equal elements, by v's constancy along the dimension its registers step along
// (a mask cols < N with N a multiple of 8 is one value per 8 columns): 1 when unknown.
func (g *gen) equalRegs(v *tileir.Value) int {
	if !isTensor(v) || g.enc[v] == nil {
		return 1
	}
	d, run := unitRun(g.layoutOf(v))
	if d < 0 {
		return 1
	}
	c := g.axes.get(v).constancy[d]
	return int(min(int64(run), c&-c)) // c&-c, the largest power of two dividing c: its aligned blocks lie in c's
}

// elementwise lowers op by applying f to each register's operands, all in the encoding
// of the op's first result.
// Registers whose operands are those of the previous register (as all of a splat's are)
// share its result, as do the registers of a run equalRegs finds; so f must not have
// side effects.
func (g *gen) elementwise(op *tileir.Op, f func(args []value.Value) (value.Value, error)) error {
	res := op.Results[0]
	e := g.enc[res]
	n := g.regs(res)
	ins := make([][]value.Value, len(op.Operands))
	for i, o := range op.Operands {
		ins[i] = g.in(o, e)
	}
	out := g.values(n)
	args := g.values(len(op.Operands))
	group := g.equalRegs(res)
	for r := range n {
		if r%group != 0 { // a register of a run the axis analysis knows to be equal
			out[r] = out[r-r%group]
			continue
		}
		same := r > 0 // the same operands as the previous register (a splat's): same result
		for i := range ins {
			a := ins[i][min(r, len(ins[i])-1)]
			same = same && a == args[i]
			args[i] = a
		}
		if same {
			out[r] = out[r-1]
			continue
		}
		v, err := f(args)
		if err != nil {
			return g.errorf(op, "%v", err)
		}
		out[r] = v
	}
	g.vals[res] = out
	return nil
}

func init() {
	ints := map[string]func(g *gen, x, y value.Value) value.Value{
		"addi":  func(g *gen, x, y value.Value) value.Value { return g.cur.NewAdd(x, y) },
		"subi":  func(g *gen, x, y value.Value) value.Value { return g.cur.NewSub(x, y) },
		"muli":  func(g *gen, x, y value.Value) value.Value { return g.cur.NewMul(x, y) },
		"divsi": func(g *gen, x, y value.Value) value.Value { return g.cur.NewSDiv(x, y) },
		"divui": func(g *gen, x, y value.Value) value.Value { return g.cur.NewUDiv(x, y) },
		"remsi": func(g *gen, x, y value.Value) value.Value { return g.cur.NewSRem(x, y) },
		"remui": func(g *gen, x, y value.Value) value.Value { return g.cur.NewURem(x, y) },
		"andi":  func(g *gen, x, y value.Value) value.Value { return g.cur.NewAnd(x, y) },
		"ori":   func(g *gen, x, y value.Value) value.Value { return g.cur.NewOr(x, y) },
		"xori":  func(g *gen, x, y value.Value) value.Value { return g.cur.NewXor(x, y) },
		"shli":  func(g *gen, x, y value.Value) value.Value { return g.cur.NewShl(x, y) },
		"shrsi": func(g *gen, x, y value.Value) value.Value { return g.cur.NewAShr(x, y) },
		"shrui": func(g *gen, x, y value.Value) value.Value { return g.cur.NewLShr(x, y) },
		"maxsi": func(g *gen, x, y value.Value) value.Value { return g.pick(enum.IPredSGT, x, y) },
		"minsi": func(g *gen, x, y value.Value) value.Value { return g.pick(enum.IPredSLT, x, y) },
		"maxui": func(g *gen, x, y value.Value) value.Value { return g.pick(enum.IPredUGT, x, y) },
		"minui": func(g *gen, x, y value.Value) value.Value { return g.pick(enum.IPredULT, x, y) },
		"ceildivsi": func(g *gen, x, y value.Value) value.Value {
			return g.roundedDiv(x, y, true)
		},
		"floordivsi": func(g *gen, x, y value.Value) value.Value {
			return g.roundedDiv(x, y, false)
		},
		"ceildivui": func(g *gen, x, y value.Value) value.Value {
			q, r := g.cur.NewUDiv(x, y), g.cur.NewURem(x, y)
			nz := g.cur.NewICmp(enum.IPredNE, r, constant.NewInt(r.Type().(*types.IntType), 0))
			return g.cur.NewAdd(q, g.cur.NewZExt(nz, q.Type()))
		},
	}
	for name, f := range ints {
		f := f
		lowerings["arith."+name] = func(g *gen, op *tileir.Op) error {
			return g.elementwise(op, func(a []value.Value) (value.Value, error) { return f(g, a[0], a[1]), nil })
		}
	}
	floats := map[string]func(g *gen, a []value.Value) value.Value{
		"addf":     func(g *gen, a []value.Value) value.Value { return g.fadd(a[0], a[1]) },
		"subf":     func(g *gen, a []value.Value) value.Value { return g.fsub(a[0], a[1]) },
		"mulf":     func(g *gen, a []value.Value) value.Value { return g.fmul(a[0], a[1]) },
		"remf":     func(g *gen, a []value.Value) value.Value { return g.remf(a[0], a[1]) },
		"negf":     func(g *gen, a []value.Value) value.Value { return g.cur.NewFNeg(a[0]) },
		"maxnumf":  func(g *gen, a []value.Value) value.Value { return g.fintr("llvm.maxnum", a...) },
		"minnumf":  func(g *gen, a []value.Value) value.Value { return g.fintr("llvm.minnum", a...) },
		"maximumf": func(g *gen, a []value.Value) value.Value { return g.fintr("llvm.maximum", a...) },
		"minimumf": func(g *gen, a []value.Value) value.Value { return g.fintr("llvm.minimum", a...) },
	}
	for name, f := range floats {
		f := f
		lowerings["arith."+name] = func(g *gen, op *tileir.Op) error {
			return g.floatwise(op, func(a []value.Value) (value.Value, error) { return f(g, a), nil })
		}
	}
	lowerings["arith.divf"] = lowerDivF
	lowerings["tt.precise_divf"] = func(g *gen, op *tileir.Op) error {
		return g.floatwise(op, func(a []value.Value) (value.Value, error) { return g.cur.NewFDiv(a[0], a[1]), nil })
	}
	lowerings["arith.constant"] = lowerConstant
	lowerings["ub.poison"] = lowerPoison
	lowerings["arith.cmpi"] = lowerCmpI
	lowerings["arith.cmpf"] = lowerCmpF
	lowerings["arith.select"] = func(g *gen, op *tileir.Op) error {
		return g.elementwise(op, func(a []value.Value) (value.Value, error) { return g.cur.NewSelect(a[0], a[1], a[2]), nil })
	}
	for _, name := range []string{"arith.extsi", "arith.extui", "arith.trunci", "arith.sitofp", "arith.uitofp",
		"arith.fptosi", "arith.fptoui", "arith.extf", "arith.truncf", "arith.bitcast", "tt.bitcast", "tt.int_to_ptr",
		"tt.ptr_to_int", "tt.fp_to_fp"} {
		lowerings[name] = lowerCast
	}
	lowerings["tt.mulhiui"] = func(g *gen, op *tileir.Op) error {
		return g.elementwise(op, func(a []value.Value) (value.Value, error) {
			if hi, ok := g.isa.MulHiU(a[0], a[1]); ok {
				return hi, nil
			}
			t := a[0].Type().(*types.IntType)
			wide := types.NewInt(2 * t.BitSize)
			p := g.cur.NewMul(g.cur.NewZExt(a[0], wide), g.cur.NewZExt(a[1], wide))
			return g.cur.NewTrunc(g.cur.NewLShr(p, constant.NewInt(wide, int64(t.BitSize))), t), nil
		})
	}
	lowerings["math.absi"] = func(g *gen, op *tileir.Op) error {
		return g.elementwise(op, func(a []value.Value) (value.Value, error) {
			t := a[0].Type().(*types.IntType)
			neg := g.cur.NewICmp(enum.IPredSLT, a[0], constant.NewInt(t, 0))
			return g.cur.NewSelect(neg, g.cur.NewSub(constant.NewInt(t, 0), a[0]), a[0]), nil
		})
	}
	lowerings["tt.clampf"] = func(g *gen, op *tileir.Op) error {
		name := "llvm.minnum"
		if op.Attr("propagateNan") != nil && op.EnumAttr("propagateNan") != "none" {
			name = "llvm.minimum"
		}
		return g.floatwise(op, func(a []value.Value) (value.Value, error) {
			return g.fintr(name, g.fintr(strings2max(name), a[0], a[1]), a[2]), nil
		})
	}
}

// strings2max returns the max intrinsic that pairs with a min intrinsic.
func strings2max(min string) string {
	if min == "llvm.minimum" {
		return "llvm.maximum"
	}
	return "llvm.maxnum"
}

// pick returns x if x pred y, else y (integer min/max).
func (g *gen) pick(pred enum.IPred, x, y value.Value) value.Value {
	return g.cur.NewSelect(g.cur.NewICmp(pred, x, y), x, y)
}

// roundedDiv is signed division rounded up (ceil) or down (floor).
func (g *gen) roundedDiv(x, y value.Value, ceil bool) value.Value {
	t := x.Type().(*types.IntType)
	zero := constant.NewInt(t, 0)
	q, r := g.cur.NewSDiv(x, y), g.cur.NewSRem(x, y)
	nz := g.cur.NewICmp(enum.IPredNE, r, zero)
	rNeg, yNeg := g.cur.NewICmp(enum.IPredSLT, r, zero), g.cur.NewICmp(enum.IPredSLT, y, zero)
	if ceil {
		adj := g.cur.NewAnd(nz, g.cur.NewICmp(enum.IPredEQ, rNeg, yNeg))
		return g.cur.NewAdd(q, g.cur.NewZExt(adj, t))
	}
	adj := g.cur.NewAnd(nz, g.cur.NewICmp(enum.IPredNE, rNeg, yNeg))
	return g.cur.NewSub(q, g.cur.NewZExt(adj, t))
}

// fintr calls a floating-point LLVM intrinsic overloaded on its argument type.
func (g *gen) fintr(name string, args ...value.Value) value.Value {
	return g.Call(name+"."+typeSuffix(args[0].Type()), args[0].Type(), args...)
}

func typeSuffix(t types.Type) string {
	switch t := t.(type) {
	case *types.FloatType:
		switch t.Kind {
		case types.FloatKindHalf:
			return "f16"
		case types.FloatKindFloat:
			return "f32"
		}
		return "f64"
	case *types.IntType:
		return fmt.Sprintf("i%d", t.BitSize)
	}
	return t.String()
}

// floatwise is elementwise for float ops: bf16 operands (carried as i16) are computed
// in f32 and rounded back.
func (g *gen) floatwise(op *tileir.Op, f func(a []value.Value) (value.Value, error)) error {
	if tileir.ScalarOf(op.Results[0].Type) != tileir.BF16 {
		return g.elementwise(op, f)
	}
	return g.elementwise(op, func(a []value.Value) (value.Value, error) {
		wide := make([]value.Value, len(a))
		for i, x := range a {
			wide[i] = g.bf16ToF32(x)
		}
		v, err := f(wide)
		if err != nil {
			return nil, err
		}
		return g.f32ToBF16(v), nil
	})
}

// lowerDivF divides as Triton's arith.divf: an f32 quotient takes the ISA's DivF32
// (NVIDIA's div.full.f32), any other type (and AMD) LLVM's correctly rounded fdiv.
func lowerDivF(g *gen, op *tileir.Op) error {
	f32 := tileir.ScalarOf(op.Results[0].Type) == tileir.F32
	return g.floatwise(op, func(a []value.Value) (value.Value, error) {
		if f32 {
			if q, ok := g.isa.DivF32(a[0], a[1]); ok {
				return q, nil
			}
		}
		return g.cur.NewFDiv(a[0], a[1]), nil
	})
}

// remf is x - trunc(x/y)*y with the sign of x (C's fmod), computed as LLVM's NVPTX
// backend expands frem, which package ptx does not take: fma(-trunc(x/y), y, x), or x
// when y is infinite; half is computed in f32, as llc promotes it.
func (g *gen) remf(x, y value.Value) value.Value {
	t := x.Type().(*types.FloatType)
	if t.Kind == types.FloatKindHalf {
		r := g.remf(g.cur.NewFPExt(x, types.Float), g.cur.NewFPExt(y, types.Float))
		return g.fptrunc(r, types.Half)
	}
	q := g.fintr("llvm.trunc", g.cur.NewFDiv(x, y))
	r := g.fintr("llvm.fma", g.cur.NewFNeg(q), y, x)
	inf := g.cur.NewFCmp(enum.FPredOEQ, g.fintr("llvm.fabs", y), constant.NewFloat(t, math.Inf(1)))
	return g.cur.NewSelect(inf, x, r)
}

// bf16ToF32 widens a bf16 bit pattern exactly.
func (g *gen) bf16ToF32(x value.Value) value.Value {
	w := g.cur.NewShl(g.cur.NewZExt(x, types.I32), i32c(16))
	return g.BitCast(w, types.Float)
}

// f32ToBF16 rounds to nearest even (NaN stays a quiet NaN).
func (g *gen) f32ToBF16(x value.Value) value.Value {
	u := g.BitCast(x, types.I32)
	lsb := g.cur.NewAnd(g.cur.NewLShr(u, i32c(16)), i32c(1))
	r := g.cur.NewLShr(g.cur.NewAdd(g.cur.NewAdd(u, i32c(0x7fff)), lsb), i32c(16))
	isNaN := g.cur.NewFCmp(enum.FPredUNO, x, x)
	return g.cur.NewTrunc(g.cur.NewSelect(isNaN, i32c(0x7fc0), r), types.I16)
}

// scalarConst returns the LLVM constant of a scalar attribute of element type s.
func scalarConst(a tileir.Attr, s tileir.Scalar) (constant.Constant, error) {
	t := llScalar(s)
	switch a := a.(type) {
	case tileir.IntAttr:
		if s.IsFloat() {
			return floatConst(float64(a.V), s), nil
		}
		return constant.NewInt(t.(*types.IntType), a.V), nil
	case tileir.BoolAttr:
		if a {
			return constant.NewInt(t.(*types.IntType), 1), nil
		}
		return constant.NewInt(t.(*types.IntType), 0), nil
	case tileir.FloatAttr:
		return floatConst(a.V, s), nil
	}
	return nil, fmt.Errorf("constant %s not supported", a)
}

// floatConst encodes x as a constant of float type s (bf16 as its i16 bit pattern).
func floatConst(x float64, s tileir.Scalar) constant.Constant {
	switch s {
	case tileir.BF16:
		b := math.Float32bits(float32(x)) // exact for values read from a bf16 attribute
		return constant.NewInt(types.I16, int64(int16(uint16(b>>16))))
	case tileir.F16, tileir.F32, tileir.F64:
		return constant.NewFloat(llScalar(s).(*types.FloatType), tileir.RoundFloat(x, s))
	}
	return constant.NewInt(types.I8, 0) // fp8 constants are only ever zero in practice
}

func lowerConstant(g *gen, op *tileir.Op) error {
	r := op.Results[0]
	s := tileir.ScalarOf(r.Type)
	a := op.Attr("value")
	if d, ok := a.(tileir.DenseAttr); ok {
		a = d.Splat
	}
	c, err := scalarConst(a, s)
	if err != nil {
		return g.errorf(op, "%v", err)
	}
	g.setUniform(r, c)
	return nil
}

var intPreds = map[string]enum.IPred{
	"eq": enum.IPredEQ, "ne": enum.IPredNE, "slt": enum.IPredSLT, "sle": enum.IPredSLE, "sgt": enum.IPredSGT,
	"sge": enum.IPredSGE, "ult": enum.IPredULT, "ule": enum.IPredULE, "ugt": enum.IPredUGT, "uge": enum.IPredUGE,
}

var floatPreds = map[string]enum.FPred{
	"false": enum.FPredFalse, "oeq": enum.FPredOEQ, "ogt": enum.FPredOGT, "oge": enum.FPredOGE, "olt": enum.FPredOLT,
	"ole": enum.FPredOLE, "one": enum.FPredONE, "ord": enum.FPredORD, "ueq": enum.FPredUEQ, "ugt": enum.FPredUGT,
	"uge": enum.FPredUGE, "ult": enum.FPredULT, "ule": enum.FPredULE, "une": enum.FPredUNE, "uno": enum.FPredUNO,
	"true": enum.FPredTrue,
}

func lowerCmpI(g *gen, op *tileir.Op) error {
	p, ok := intPreds[op.EnumAttr("predicate")]
	if !ok {
		return g.errorf(op, "unknown predicate %q", op.EnumAttr("predicate"))
	}
	return g.elementwise(op, func(a []value.Value) (value.Value, error) { return g.cur.NewICmp(p, a[0], a[1]), nil })
}

func lowerCmpF(g *gen, op *tileir.Op) error {
	p, ok := floatPreds[op.EnumAttr("predicate")]
	if !ok {
		return g.errorf(op, "unknown predicate %q", op.EnumAttr("predicate"))
	}
	bf := tileir.ScalarOf(op.Operands[0].Type) == tileir.BF16
	return g.elementwise(op, func(a []value.Value) (value.Value, error) {
		x, y := a[0], a[1]
		if bf {
			x, y = g.bf16ToF32(x), g.bf16ToF32(y)
		}
		return g.cur.NewFCmp(p, x, y), nil
	})
}

// lowerCast lowers the arith casts, tt.bitcast, tt.fp_to_fp and the pointer casts.
func lowerCast(g *gen, op *tileir.Op) error {
	from, to := tileir.ElemType(op.Operands[0].Type), tileir.ElemType(op.Results[0].Type)
	dst, err := g.llType(op.Results[0].Type)
	if err != nil {
		return g.errorf(op, "%v", err)
	}
	fs, _ := from.(tileir.Scalar)
	ts, _ := to.(tileir.Scalar)
	return g.elementwise(op, func(a []value.Value) (value.Value, error) {
		x := a[0]
		switch op.Name {
		case "arith.extsi":
			return g.sext(x, dst), nil
		case "arith.extui":
			return g.cur.NewZExt(x, dst), nil
		case "arith.trunci":
			return g.cur.NewTrunc(x, dst), nil
		case "tt.int_to_ptr":
			return g.cur.NewIntToPtr(x, dst), nil
		case "tt.ptr_to_int":
			return g.cur.NewPtrToInt(x, dst), nil
		case "arith.bitcast", "tt.bitcast":
			if x.Type().Equal(dst) {
				return x, nil
			}
			return g.BitCast(x, dst), nil
		case "arith.sitofp", "arith.uitofp":
			return g.intToFloat(x, ts, op.Name == "arith.sitofp")
		case "arith.fptosi", "arith.fptoui":
			x, err := g.toComputable(x, fs)
			if err != nil {
				return nil, err
			}
			if op.Name == "arith.fptosi" {
				return g.cur.NewFPToSI(x, dst), nil
			}
			return g.cur.NewFPToUI(x, dst), nil
		}
		return g.floatCast(x, fs, ts, op.EnumAttr("rounding"))
	})
}

func (g *gen) intToFloat(x value.Value, ts tileir.Scalar, signed bool) (value.Value, error) {
	ct := llScalar(ts)
	if ts != tileir.F16 && ts != tileir.F32 && ts != tileir.F64 {
		ct = types.Float
	}
	var v value.Value
	if signed {
		v = g.cur.NewSIToFP(x, ct)
	} else {
		v = g.cur.NewUIToFP(x, ct)
	}
	return g.floatCast(v, scalarOfLL(ct), ts, "")
}

func scalarOfLL(t types.Type) tileir.Scalar {
	switch t.(*types.FloatType).Kind {
	case types.FloatKindHalf:
		return tileir.F16
	case types.FloatKindFloat:
		return tileir.F32
	}
	return tileir.F64
}

// toComputable turns a float of type s into an LLVM float (bf16 and fp8 widen to f32).
func (g *gen) toComputable(x value.Value, s tileir.Scalar) (value.Value, error) {
	switch s {
	case tileir.F16, tileir.F32, tileir.F64:
		return x, nil
	}
	return g.floatCast(x, s, tileir.F32, "")
}

// floatCast converts between float types; fp8 and bf16 go through f32.
func (g *gen) floatCast(x value.Value, from, to tileir.Scalar, rounding string) (value.Value, error) {
	native := func(s tileir.Scalar) bool { return s == tileir.F16 || s == tileir.F32 || s == tileir.F64 }
	switch {
	case from == to:
		return x, nil
	case native(from) && native(to):
		if from.Bits() < to.Bits() {
			return g.cur.NewFPExt(x, llScalar(to)), nil
		}
		return g.fptrunc(x, llScalar(to)), nil
	case from == tileir.BF16:
		return g.floatCast(g.bf16ToF32(x), tileir.F32, to, rounding)
	case to == tileir.BF16:
		f, err := g.floatCast(x, from, tileir.F32, rounding)
		if err != nil {
			return nil, err
		}
		return g.f32ToBF16(f), nil
	}
	if fp8 := from; !native(fp8) || !native(to) {
		return g.fp8Cast(x, from, to)
	}
	return nil, fmt.Errorf("conversion from %s to %s not supported", from, to)
}

// fp8Cast converts to and from the fp8 formats with the ISA's conversions, as Triton
// does: an fp8 source widens to f16 first, an fp8 result is narrowed from f32.
func (g *gen) fp8Cast(x value.Value, from, to tileir.Scalar) (value.Value, error) {
	if h, ok := g.isa.FP8ToF16(x, from); ok {
		return g.floatCast(h, tileir.F16, to, "")
	}
	if to.IsFloat() && to.Bits() == 8 {
		f, err := g.floatCast(x, from, tileir.F32, "")
		if err != nil {
			return nil, err
		}
		if p, ok := g.isa.F32ToFP8(f, to); ok {
			return p, nil
		}
	}
	return nil, fmt.Errorf("conversion from %s to %s not supported", from, to)
}

// lowerPoison gives ub.poison's registers zero: a poison value may be anything, and zero
// (a null pointer for pointers) keeps the PTX free of undefined registers.
func lowerPoison(g *gen, op *tileir.Op) error {
	r := op.Results[0]
	t, err := g.llType(r.Type)
	if err != nil {
		return g.errorf(op, "%v", err)
	}
	var c constant.Constant
	switch t := t.(type) {
	case *types.PointerType:
		c = constant.NewNull(t)
	default:
		if c, err = scalarConst(tileir.IntAttr{V: 0}, tileir.ScalarOf(r.Type)); err != nil {
			return g.errorf(op, "%v", err)
		}
	}
	g.setUniform(r, c)
	return nil
}
