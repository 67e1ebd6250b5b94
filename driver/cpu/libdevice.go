package cpu

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/gotriton/gotriton/tileir"
)

// tt.extern_elementwise calls of NVIDIA's libdevice (__nv_*) run as Go functions on
// float64, rounded to the result type after. That is correctly rounded or within an ulp,
// inside libdevice's documented bounds (1-4 ulp for the single-precision functions).
// Names are looked up without the __nv_ prefix and the f of single-precision variants.

var libFloat1 = map[string]func(float64) float64{
	"sin": math.Sin, "cos": math.Cos, "tan": math.Tan,
	"asin": asin, "acos": math.Acos, "atan": math.Atan,
	"sinh": math.Sinh, "cosh": math.Cosh, "tanh": math.Tanh,
	"asinh": math.Asinh, "acosh": math.Acosh, "atanh": math.Atanh,
	"exp": math.Exp, "exp2": math.Exp2, "exp10": func(x float64) float64 { return math.Pow(10, x) },
	"expm1": math.Expm1, "log": math.Log, "log2": math.Log2, "log10": math.Log10, "log1p": math.Log1p,
	"sqrt": math.Sqrt, "rsqrt": func(x float64) float64 { return 1 / math.Sqrt(x) },
	"cbrt": math.Cbrt, "rcbrt": func(x float64) float64 { return 1 / math.Cbrt(x) },
	"erf": math.Erf, "erfc": math.Erfc, "erfinv": math.Erfinv, "erfcinv": math.Erfcinv,
	"erfcx":      func(x float64) float64 { return math.Exp(x*x) * math.Erfc(x) },
	"normcdf":    func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) },
	"normcdfinv": func(x float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*x) },
	"lgamma":     func(x float64) float64 { v, _ := math.Lgamma(x); return v },
	"tgamma":     math.Gamma,
	"j0":         math.J0, "j1": math.J1, "y0": math.Y0, "y1": math.Y1,
	"sinpi": func(x float64) float64 { return math.Sin(math.Pi * x) },
	"cospi": func(x float64) float64 { return math.Cos(math.Pi * x) },
	"floor": math.Floor, "ceil": math.Ceil, "trunc": math.Trunc, "round": math.Round,
	"rint": math.RoundToEven, "nearbyint": math.RoundToEven, "fabs": math.Abs,
	"saturate": func(x float64) float64 { return math.Min(math.Max(x, 0), 1) },
	"rcp":      func(x float64) float64 { return 1 / x },
	"logb":     math.Logb,
}

// asin is math.Asin without its cancellation near ±1 (math.Asin is up to 7 ulp off
// there, above libdevice's 2; elsewhere it is within 1.7): for |x| > 0.9,
// asin(x) = pi/2 - 2 asin(sqrt((1 - |x|) / 2)), where 1 - |x| is exact.
func asin(x float64) float64 {
	a := math.Abs(x)
	if a <= 0.9 || a > 1 {
		return math.Asin(x)
	}
	const pio2Lo = 6.123233995736766e-17 // pi/2 - float64(pi/2)
	return math.Copysign(math.Pi/2-(2*math.Asin(math.Sqrt((1-a)/2))-pio2Lo), x)
}

var libFloat2 = map[string]func(a, b float64) float64{
	"pow": math.Pow, "atan2": math.Atan2, "fmod": math.Mod, "remainder": math.Remainder,
	"hypot": math.Hypot, "fmin": minNum, "fmax": maxNum, "copysign": math.Copysign,
	"fdim":      func(a, b float64) float64 { return math.Max(a-b, 0) },
	"nextafter": math.Nextafter,
	"fdividef":  func(a, b float64) float64 { return a / b },
	"div_rn":    func(a, b float64) float64 { return a / b },
	"fdiv_rn":   func(a, b float64) float64 { return a / b },
	"ddiv_rn":   func(a, b float64) float64 { return a / b },
	"fadd_rn":   func(a, b float64) float64 { return a + b },
	"dadd_rn":   func(a, b float64) float64 { return a + b },
	"fmul_rn":   func(a, b float64) float64 { return a * b },
	"dmul_rn":   func(a, b float64) float64 { return a * b },
}

// libFloatTest are the classification functions: float in, int out.
var libFloatTest = map[string]func(float64) int64{
	"isnan":     func(x float64) int64 { return b2i(math.IsNaN(x)) },
	"isinf":     func(x float64) int64 { return b2i(math.IsInf(x, 0)) },
	"finite":    func(x float64) int64 { return b2i(!math.IsNaN(x) && !math.IsInf(x, 0)) },
	"isfinited": func(x float64) int64 { return b2i(!math.IsNaN(x) && !math.IsInf(x, 0)) },
	"signbit":   func(x float64) int64 { return b2i(math.Signbit(x)) },
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// libInt are integer functions on w-bit canonical values.
var libInt = map[string]func(args []int64, w int) int64{
	"popc": func(a []int64, w int) int64 { return int64(bits.OnesCount64(zext(a[0], w))) },
	"clz":  func(a []int64, w int) int64 { return int64(bits.LeadingZeros64(zext(a[0], w)) - (64 - w)) },
	"ffs": func(a []int64, w int) int64 {
		if a[0] == 0 {
			return 0
		}
		return int64(bits.TrailingZeros64(zext(a[0], w)) + 1)
	},
	"brev":   func(a []int64, w int) int64 { return int64(bits.Reverse64(zext(a[0], w)) >> (64 - w)) },
	"umulhi": func(a []int64, w int) int64 { return intBinary["tt.mulhiui"](a[0], a[1], w) },
	"mulhi": func(a []int64, w int) int64 {
		if w == 64 {
			hi, _ := bits.Mul64(uint64(a[0]), uint64(a[1]))
			return int64(hi) - a[0]>>63&a[1] - a[1]>>63&a[0]
		}
		return a[0] * a[1] >> w
	},
	"abs": func(a []int64, _ int) int64 { return max(a[0], -a[0]) },
}

func init() {
	register(compileExtern, "tt.extern_elementwise")
}

// libName maps a libdevice symbol to a key of the tables, trying name then name less its
// single-precision suffix: __nv_expf -> exp, __nv_erff -> erf, __nv_llabs -> abs.
func libName(symbol string, has func(string) bool) (string, bool) {
	n := strings.TrimPrefix(strings.TrimPrefix(symbol, "__nv_"), "fast_")
	for _, c := range []string{n, strings.TrimSuffix(n, "f"), strings.TrimSuffix(n, "ll"), strings.TrimPrefix(n, "ll"), strings.TrimPrefix(n, "u")} {
		if has(c) {
			return c, true
		}
	}
	return "", false
}

func compileExtern(fc *fnc, op *tileir.Op) (step, error) {
	sym, _ := op.Attr("symbol").(tileir.StringAttr)
	args := fc.uses(op.Operands)
	in := tileir.ScalarOf(op.Operands[0].Type)
	out := tileir.ScalarOf(op.Results[0].Type)
	switch {
	case in.IsFloat() && out.IsFloat() && len(args) == 1:
		if n, ok := libName(string(sym), func(s string) bool { _, ok := libFloat1[s]; return ok }); ok {
			f, a := libFloat1[n], args[0]
			return mapF(fc, op, func(fr *frame, i int) float64 { return f(fr.v[a].f[i]) }), nil
		}
	case in.IsFloat() && out.IsFloat() && len(args) == 2:
		if n, ok := libName(string(sym), func(s string) bool { _, ok := libFloat2[s]; return ok }); ok {
			f, a, b := libFloat2[n], args[0], args[1]
			return mapF(fc, op, func(fr *frame, i int) float64 { return f(fr.v[a].f[i], fr.v[b].f[i]) }), nil
		}
	case in.IsFloat() && len(args) == 3 && strings.Contains(string(sym), "fma"):
		return compileFMA(fc, op)
	case in.IsFloat() && len(args) == 1:
		if n, ok := libName(string(sym), func(s string) bool { _, ok := libFloatTest[s]; return ok }); ok {
			f, a := libFloatTest[n], args[0]
			return mapI(fc, op, func(fr *frame, i int) int64 { return f(fr.v[a].f[i]) }), nil
		}
	case in.IsInt():
		if n, ok := libName(string(sym), func(s string) bool { _, ok := libInt[s]; return ok }); ok {
			f, w := libInt[n], in.Bits()
			return mapI(fc, op, func(fr *frame, i int) int64 {
				vals := make([]int64, len(args))
				for j, a := range args {
					vals[j] = fr.v[a].i[i]
				}
				return f(vals, w)
			}), nil
		}
	}
	return nil, fmt.Errorf("libdevice function %s on %s is not implemented", sym, op.Operands[0].Type)
}
