package lower

import (
	"fmt"
	"math"
	"strings"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

// irMath emits the math library as LLVM IR in one float type.
type irMath struct {
	g *gen
	t *types.FloatType
}

func (m irMath) f64() bool           { return m.t.Kind == types.FloatKindDouble }
func (m irMath) v(a num) value.Value { return a.(value.Value) }
func (m irMath) k(x float64) num {
	if !m.f64() {
		x = float64(float32(x))
	}
	return constant.NewFloat(m.t, x)
}
func (m irMath) add(a, b num) num    { return m.g.fadd(m.v(a), m.v(b)) }
func (m irMath) sub(a, b num) num    { return m.g.fsub(m.v(a), m.v(b)) }
func (m irMath) mul(a, b num) num    { return m.g.fmul(m.v(a), m.v(b)) }
func (m irMath) div(a, b num) num    { return m.g.cur.NewFDiv(m.v(a), m.v(b)) }
func (m irMath) fma(a, b, c num) num { return m.g.fintr("llvm.fma", m.v(a), m.v(b), m.v(c)) }
func (m irMath) sqrt(a num) num      { return m.g.fintr("llvm.sqrt", m.v(a)) }
func (m irMath) abs(a num) num       { return m.g.fintr("llvm.fabs", m.v(a)) }
func (m irMath) rint(a num) num      { return m.g.fintr("llvm.rint", m.v(a)) }
func (m irMath) floor(a num) num     { return m.g.fintr("llvm.floor", m.v(a)) }
func (m irMath) lt(a, b num) cond    { return m.g.cur.NewFCmp(enum.FPredOLT, m.v(a), m.v(b)) }
func (m irMath) eq(a, b num) cond    { return m.g.cur.NewFCmp(enum.FPredOEQ, m.v(a), m.v(b)) }
func (m irMath) isNaN(a num) cond    { return m.g.cur.NewFCmp(enum.FPredUNO, m.v(a), m.v(a)) }
func (m irMath) or(a, b cond) cond   { return m.g.cur.NewOr(m.v(a), m.v(b)) }
func (m irMath) sel(c cond, a, b num) num {
	return m.g.cur.NewSelect(m.v(c), m.v(a), m.v(b))
}
func (m irMath) copysign(a, b num) num { return m.g.fintr("llvm.copysign", m.v(a), m.v(b)) }
func (m irMath) ex2(a num) num         { return m.g.isa.Exp2Approx(m.v(a), false) }
func (m irMath) exp2f(a num) num       { return m.g.isa.Exp2Approx(m.v(a), !m.g.opts.NoReflectFTZ) }
func (m irMath) rcp(a num) num         { return m.g.isa.RcpApprox(m.v(a)) }

// format returns the integer type, mantissa bits and exponent bias of the float type.
func (m irMath) format() (*types.IntType, int64, int64) {
	if m.f64() {
		return types.I64, 52, 1023
	}
	return types.I32, 23, 127
}

// ldexp scales by 2^n in two steps, so that n may reach past one exponent's range.
func (m irMath) ldexp(a, n num) num {
	it, mant, bias := m.format()
	ni := m.g.cur.NewFPToSI(m.v(n), it)
	half := m.g.cur.NewAShr(ni, constant.NewInt(it, 1))
	rest := m.g.cur.NewSub(ni, half)
	pow := func(e value.Value) value.Value {
		b := m.g.cur.NewShl(m.g.cur.NewAdd(e, constant.NewInt(it, bias)), constant.NewInt(it, mant))
		return m.g.BitCast(b, m.t)
	}
	return m.g.fmul(m.g.fmul(m.v(a), pow(half)), pow(rest))
}

// frexp splits a finite nonzero value; subnormals are scaled up first.
func (m irMath) frexp(a num) (num, num) {
	it, mant, bias := m.format()
	x := m.v(a)
	tiny := m.g.cur.NewFCmp(enum.FPredOLT, m.g.fintr("llvm.fabs", x), constant.NewFloat(m.t, math.Ldexp(1, int(1-bias))))
	scaled := m.g.fmul(x, constant.NewFloat(m.t, math.Ldexp(1, int(mant+1))))
	x = m.g.cur.NewSelect(tiny, scaled, x)
	adj := m.g.cur.NewSelect(tiny, constant.NewInt(it, mant+1), constant.NewInt(it, 0))
	bitsV := m.g.BitCast(x, it)
	expMask := int64(1)<<(int64(it.BitSize)-mant-1) - 1 // the exponent field
	field := m.g.cur.NewAnd(m.g.cur.NewLShr(bitsV, constant.NewInt(it, mant)), constant.NewInt(it, expMask))
	e := m.g.cur.NewSub(m.g.cur.NewSub(field, constant.NewInt(it, bias-1)), adj)
	keep := ^(expMask << mant)
	mb := m.g.cur.NewOr(m.g.cur.NewAnd(bitsV, constant.NewInt(it, keep)), constant.NewInt(it, (bias-1)<<mant))
	return m.g.BitCast(mb, m.t), m.g.cur.NewSIToFP(e, m.t)
}

// mathFuncs are the unary functions of the library, by base name.
var mathFuncs = map[string]func(m mathOps, x num) num{
	"exp": mathExp, "log": mathLog, "log1p": mathLog1p, "expm1": mathExpm1, "sin": mathSin, "cos": mathCos,
	"tan": mathTan, "tanh": mathTanh, "erf": mathErf, "asin": mathAsin,
	"exp2":  mathExp2,
	"log2":  func(m mathOps, x num) num { return m.mul(mathLog(m, x), m.k(math.Log2E)) },
	"sqrt":  func(m mathOps, x num) num { return m.sqrt(x) },
	"rsqrt": func(m mathOps, x num) num { return m.div(m.k(1), m.sqrt(x)) },
	"abs":   func(m mathOps, x num) num { return m.abs(x) },
	"floor": func(m mathOps, x num) num { return m.floor(x) },
	"round": mathRound,
}

// intrinsicFuncs map straight to LLVM intrinsics.
var intrinsicFuncs = map[string]string{
	"ceil": "llvm.ceil", "trunc": "llvm.trunc", "roundeven": "llvm.roundeven",
	"fma": "llvm.fma", "fabs": "llvm.fabs", "absf": "llvm.fabs",
}

func init() {
	for name := range mathFuncs {
		lowerings["math."+name] = lowerMath
	}
	for name := range intrinsicFuncs {
		lowerings["math."+name] = lowerMath
	}
	lowerings["math.absf"] = lowerMath
	lowerings["tt.precise_sqrt"] = lowerMath
	lowerings["tt.extern_elementwise"] = lowerMath
}

// mathName returns the library name of a math op or a libdevice symbol (__nv_asinf → asin).
func mathName(op *tileir.Op) string {
	switch op.Name {
	case "tt.precise_sqrt":
		return "sqrt"
	case "math.absf":
		return "abs"
	case "tt.extern_elementwise":
		sym, _ := op.Attr("symbol").(tileir.StringAttr)
		name := strings.TrimPrefix(string(sym), "__nv_")
		_, lib := mathFuncs[name]
		_, intr := intrinsicFuncs[name]
		if !lib && !intr {
			name = strings.TrimSuffix(name, "f") // the f32 variant: __nv_expf
		}
		return name
	}
	return strings.TrimPrefix(op.Name, "math.")
}

// lowerMath lowers the math dialect and libdevice calls: f16 and bf16 are computed in
// f32 and rounded back. math.exp on f32 is Triton's fast exp; everything else is the
// accurate library (mathFuncs) or an LLVM intrinsic.
func lowerMath(g *gen, op *tileir.Op) error {
	name := mathName(op)
	s := tileir.ScalarOf(op.Results[0].Type)
	ct := tileir.F32
	if s == tileir.F64 {
		ct = tileir.F64
	}
	lib, isLib := mathFuncs[name]
	intr, isIntr := intrinsicFuncs[name]
	if !isLib && !isIntr {
		return g.errorf(op, "math function %q not supported", name)
	}
	return g.elementwise(op, func(a []value.Value) (value.Value, error) {
		args := g.values(len(a))
		for i, x := range a {
			var err error
			if args[i], err = g.floatCast(x, s, ct, ""); err != nil {
				return nil, err
			}
		}
		var r value.Value
		if op.Name == "math.exp" && s == tileir.F32 {
			// tl.exp on fp32, as Triton lowers it: ex2.approx(x·log2 e), the product
			// rounded (up to 64 ulp from e^x near |x| = 88; libdevice's exp is mathExp)
			r = g.isa.Exp2Approx(g.cur.NewFMul(args[0], constant.NewFloat(types.Float, float64(float32(math.Log2E)))), false)
		} else if isLib {
			if len(args) != 1 {
				return nil, fmt.Errorf("%s takes one argument", name)
			}
			r = lib(irMath{g, llScalar(ct).(*types.FloatType)}, args[0]).(value.Value)
		} else {
			r = g.fintr(intr, args...)
		}
		return g.floatCast(r, ct, s, "")
	})
}
