package cpu

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/gotriton/gotriton/tileir"
)

// Integer semantics: every integer element is kept sign-extended from its width (an i1
// true is -1), so signed ops work on the int64 directly and unsigned ops zero-extend first.
// Results wrap around to the width, as on the GPU.

// wrapper returns the function that wraps an int64 to the canonical form of type s.
func wrapper(s tileir.Scalar) func(int64) int64 {
	sh := 64 - s.Bits()
	if !s.IsInt() || sh == 0 {
		return func(x int64) int64 { return x }
	}
	return func(x int64) int64 { return x << sh >> sh }
}

// zext returns the unsigned value of a w-bit canonical integer.
func zext(x int64, w int) uint64 {
	if w >= 64 {
		return uint64(x)
	}
	return uint64(x) & (1<<w - 1)
}

// intBinary are the integer binary ops; w is the width, results are wrapped after.
var intBinary = map[string]func(a, b int64, w int) int64{
	"arith.addi": func(a, b int64, _ int) int64 { return a + b },
	"arith.subi": func(a, b int64, _ int) int64 { return a - b },
	"arith.muli": func(a, b int64, _ int) int64 { return a * b },
	// Division by zero is undefined in MLIR; like the GPU, give all ones (and the
	// dividend for remainders) rather than trap, since masked-off lanes may divide by zero.
	"arith.divsi": func(a, b int64, _ int) int64 {
		if b == 0 {
			return -1
		}
		return a / b
	},
	"arith.divui": func(a, b int64, w int) int64 {
		if zext(b, w) == 0 {
			return -1
		}
		return int64(zext(a, w) / zext(b, w))
	},
	"arith.remsi": func(a, b int64, _ int) int64 {
		if b == 0 {
			return a
		}
		return a % b
	},
	"arith.remui": func(a, b int64, w int) int64 {
		if zext(b, w) == 0 {
			return a
		}
		return int64(zext(a, w) % zext(b, w))
	},
	"arith.ceildivsi":  func(a, b int64, _ int) int64 { return floorDiv(-a, b) * -1 },
	"arith.ceildivui":  func(a, b int64, w int) int64 { return ceilDivU(zext(a, w), zext(b, w)) },
	"arith.floordivsi": func(a, b int64, _ int) int64 { return floorDiv(a, b) },
	"arith.andi":       func(a, b int64, _ int) int64 { return a & b },
	"arith.ori":        func(a, b int64, _ int) int64 { return a | b },
	"arith.xori":       func(a, b int64, _ int) int64 { return a ^ b },
	// Shifts by the width or more give 0 (or the sign for shrsi), as PTX's clamped shifts.
	"arith.shli": func(a, b int64, w int) int64 {
		if s := zext(b, w); s < uint64(w) {
			return a << s
		}
		return 0
	},
	"arith.shrui": func(a, b int64, w int) int64 {
		if s := zext(b, w); s < uint64(w) {
			return int64(zext(a, w) >> s)
		}
		return 0
	},
	"arith.shrsi": func(a, b int64, w int) int64 { return a >> min(zext(b, w), 63) },
	"arith.maxsi": func(a, b int64, _ int) int64 { return max(a, b) },
	"arith.minsi": func(a, b int64, _ int) int64 { return min(a, b) },
	"arith.maxui": func(a, b int64, w int) int64 { return umaxmin(a, b, w, true) },
	"arith.minui": func(a, b int64, w int) int64 { return umaxmin(a, b, w, false) },
	"tt.mulhiui": func(a, b int64, w int) int64 {
		hi, lo := bits.Mul64(zext(a, w), zext(b, w))
		if w == 64 {
			return int64(hi)
		}
		return int64(lo >> w)
	},
}

func floorDiv(a, b int64) int64 {
	if b == 0 {
		return -1
	}
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func ceilDivU(a, b uint64) int64 {
	if b == 0 {
		return -1
	}
	return int64((a + b - 1) / b)
}

// floatBinary are the float binary ops, computed in float64 and rounded to the type after
// (exact for add, sub, mul, div: float64 holds twice the precision of f32 and more).
var floatBinary = map[string]func(a, b float64) float64{
	"arith.addf":      func(a, b float64) float64 { return a + b },
	"arith.subf":      func(a, b float64) float64 { return a - b },
	"arith.mulf":      func(a, b float64) float64 { return a * b },
	"arith.divf":      func(a, b float64) float64 { return a / b },
	"tt.precise_divf": func(a, b float64) float64 { return a / b },
	"arith.remf":      math.Mod,
	"arith.maxnumf":   maxNum,
	"arith.minnumf":   minNum,
	"arith.maximumf":  maximum,
	"arith.minimumf":  minimum,
}

// maxNum and minNum return the other operand when one is NaN (IEEE maxNum).
func maxNum(a, b float64) float64 {
	switch {
	case math.IsNaN(a):
		return b
	case math.IsNaN(b):
		return a
	}
	return max(a, b) // as math.Max without NaNs, and inlined
}

func minNum(a, b float64) float64 {
	switch {
	case math.IsNaN(a):
		return b
	case math.IsNaN(b):
		return a
	}
	return min(a, b)
}

// maximum and minimum propagate NaN and order -0 below +0 (IEEE 754-2019 maximum).
func maximum(a, b float64) float64 { return math.Max(a, b) }
func minimum(a, b float64) float64 { return math.Min(a, b) }

// floatUnary are the float unary ops (computed in float64, rounded to the type after).
var floatUnary = map[string]func(float64) float64{
	"arith.negf":      func(a float64) float64 { return -a },
	"math.absf":       math.Abs,
	"math.floor":      math.Floor,
	"math.ceil":       math.Ceil,
	"math.trunc":      math.Trunc,
	"math.round":      math.Round,
	"math.roundeven":  math.RoundToEven,
	"math.sqrt":       math.Sqrt,
	"tt.precise_sqrt": math.Sqrt,
	"math.rsqrt":      func(a float64) float64 { return 1 / math.Sqrt(a) },
	"math.exp":        math.Exp,
	"math.exp2":       math.Exp2,
	"math.expm1":      math.Expm1,
	"math.log":        math.Log,
	"math.log2":       math.Log2,
	"math.log1p":      math.Log1p,
	"math.sin":        math.Sin,
	"math.cos":        math.Cos,
	"math.tan":        math.Tan,
	"math.erf":        math.Erf,
	"math.tanh":       math.Tanh,
}

var intCompare = map[string]func(a, b int64, w int) bool{
	"eq":  func(a, b int64, _ int) bool { return a == b },
	"ne":  func(a, b int64, _ int) bool { return a != b },
	"slt": func(a, b int64, _ int) bool { return a < b },
	"sle": func(a, b int64, _ int) bool { return a <= b },
	"sgt": func(a, b int64, _ int) bool { return a > b },
	"sge": func(a, b int64, _ int) bool { return a >= b },
	"ult": func(a, b int64, w int) bool { return zext(a, w) < zext(b, w) },
	"ule": func(a, b int64, w int) bool { return zext(a, w) <= zext(b, w) },
	"ugt": func(a, b int64, w int) bool { return zext(a, w) > zext(b, w) },
	"uge": func(a, b int64, w int) bool { return zext(a, w) >= zext(b, w) },
}

// floatCompare: "o" predicates are false when either operand is NaN, "u" ones true.
var floatCompare = map[string]func(a, b float64) bool{
	"false": func(a, b float64) bool { return false },
	"true":  func(a, b float64) bool { return true },
	"oeq":   ordered(func(a, b float64) bool { return a == b }),
	"ogt":   ordered(func(a, b float64) bool { return a > b }),
	"oge":   ordered(func(a, b float64) bool { return a >= b }),
	"olt":   ordered(func(a, b float64) bool { return a < b }),
	"ole":   ordered(func(a, b float64) bool { return a <= b }),
	"one":   ordered(func(a, b float64) bool { return a != b }),
	"ord":   ordered(func(a, b float64) bool { return true }),
	"ueq":   unordered(func(a, b float64) bool { return a == b }),
	"ugt":   unordered(func(a, b float64) bool { return a > b }),
	"uge":   unordered(func(a, b float64) bool { return a >= b }),
	"ult":   unordered(func(a, b float64) bool { return a < b }),
	"ule":   unordered(func(a, b float64) bool { return a <= b }),
	"une":   unordered(func(a, b float64) bool { return a != b }),
	"uno":   unordered(func(a, b float64) bool { return false }),
}

func ordered(f func(a, b float64) bool) func(a, b float64) bool {
	return func(a, b float64) bool { return !math.IsNaN(a) && !math.IsNaN(b) && f(a, b) }
}

func unordered(f func(a, b float64) bool) func(a, b float64) bool {
	return func(a, b float64) bool { return math.IsNaN(a) || math.IsNaN(b) || f(a, b) }
}

func boolInt(b bool) int64 {
	if b {
		return -1
	}
	return 0
}

func init() {
	for name, f := range intBinary {
		register(intBinaryOp(f), name)
	}
	for name, f := range floatBinary {
		register(floatBinaryOp(f), name)
	}
	for name, f := range floatUnary {
		register(floatUnaryOp(f), name)
	}
	register(compileConstant, "arith.constant")
	register(compileCmpI, "arith.cmpi")
	register(compileCmpF, "arith.cmpf")
	register(compileSelect, "arith.select")
	register(compileFMA, "math.fma")
	register(compileClampF, "tt.clampf")
	register(compileAbsI, "math.absi")
	for name, c := range casts {
		register(castOp(c), name)
	}
}

// mapI writes f(i) into every element of an integer result, wrapped to its type.
func mapI(fc *fnc, op *tileir.Op, f func(fr *frame, i int) int64) step {
	s, out := tileir.ScalarOf(op.Results[0].Type), fc.use(op.Results[0])
	switch s { // inline the wrap of the common widths
	case tileir.I32:
		return func(fr *frame) error {
			o := fr.v[out].i
			for i := range o {
				o[i] = int64(int32(f(fr, i)))
			}
			return nil
		}
	case tileir.I64:
		return func(fr *frame) error {
			o := fr.v[out].i
			for i := range o {
				o[i] = f(fr, i)
			}
			return nil
		}
	}
	wrap := wrapper(s)
	return func(fr *frame) error {
		o := fr.v[out].i
		for i := range o {
			o[i] = wrap(f(fr, i))
		}
		return nil
	}
}

// mapF writes f(i) into every element of a float result, rounded to its type.
func mapF(fc *fnc, op *tileir.Op, f func(fr *frame, i int) float64) step {
	s, out := tileir.ScalarOf(op.Results[0].Type), fc.use(op.Results[0])
	if s == tileir.F32 { // inline the common rounding
		return func(fr *frame) error {
			o := fr.v[out].f
			for i := range o {
				if x := f(fr, i); x == x {
					o[i] = float64(float32(x))
				} else {
					o[i] = x
				}
			}
			return nil
		}
	}
	round := rounder(s)
	return func(fr *frame) error {
		o := fr.v[out].f
		for i := range o {
			o[i] = round(f(fr, i))
		}
		return nil
	}
}

// The elementwise ops read their operand slices once per step and loop over them. The
// common integer and f32/f64 ops have tight loops (intKernels, floatKernels) in which the
// op and the wrap or rounding inline; the others call their table function per element.

// intKernel computes o[i] = op(a[i], b[i]) wrapped to the result width.
type intKernel func(o, a, b []int64)

// intKernels returns the tight loops of the common integer binary ops and signed
// comparisons (whose i1 results are -1 or 0, their own canonical form) at width T.
func intKernels[T int8 | int16 | int32 | int64]() map[string]intKernel {
	return map[string]intKernel{
		"arith.addi": func(o, a, b []int64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = int64(T(a[i] + b[i]))
			}
		},
		"arith.subi": func(o, a, b []int64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = int64(T(a[i] - b[i]))
			}
		},
		"arith.muli": func(o, a, b []int64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = int64(T(a[i] * b[i]))
			}
		},
		"arith.andi": func(o, a, b []int64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = a[i] & b[i]
			}
		},
		"arith.ori": func(o, a, b []int64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = a[i] | b[i]
			}
		},
		"arith.xori": func(o, a, b []int64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = a[i] ^ b[i]
			}
		},
		"arith.maxsi": func(o, a, b []int64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = max(a[i], b[i])
			}
		},
		"arith.minsi": func(o, a, b []int64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = min(a[i], b[i])
			}
		},
		"cmpi.eq": func(o, a, b []int64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = boolInt(a[i] == b[i])
			}
		},
		"cmpi.ne": func(o, a, b []int64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = boolInt(a[i] != b[i])
			}
		},
		"cmpi.slt": func(o, a, b []int64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = boolInt(a[i] < b[i])
			}
		},
		"cmpi.sle": func(o, a, b []int64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = boolInt(a[i] <= b[i])
			}
		},
		"cmpi.sgt": func(o, a, b []int64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = boolInt(a[i] > b[i])
			}
		},
		"cmpi.sge": func(o, a, b []int64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = boolInt(a[i] >= b[i])
			}
		},
	}
}

// intKernelsByWidth holds intKernels for each width with a Go integer type.
var intKernelsByWidth = map[int]map[string]intKernel{
	8: intKernels[int8](), 16: intKernels[int16](), 32: intKernels[int32](), 64: intKernels[int64](),
}

// floatKernel computes o[i] = op(a[i], b[i]) rounded to the result type.
type floatKernel func(o, a, b []float64)

// floatKernels returns the tight loops of the basic float ops for results of type T,
// rounding as rounder does (a NaN keeps its float64 payload).
func floatKernels[T float32 | float64]() map[string]floatKernel {
	round := func(x float64) float64 {
		if x == x {
			return float64(T(x))
		}
		return x
	}
	return map[string]floatKernel{
		"arith.addf": func(o, a, b []float64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = round(a[i] + b[i])
			}
		},
		"arith.subf": func(o, a, b []float64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = round(a[i] - b[i])
			}
		},
		"arith.mulf": func(o, a, b []float64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = round(a[i] * b[i])
			}
		},
		"arith.divf": func(o, a, b []float64) {
			a, b = a[:len(o)], b[:len(o)]
			for i := range o {
				o[i] = round(a[i] / b[i])
			}
		},
	}
}

// foldKernel combines acc with x[0], x[stride], x[2*stride], ... in order, rounding each
// step to the result type: a reduction along one axis.
type foldKernel func(acc float64, x []float64, stride int) float64

// foldKernels returns the folds of the common reduction ops for results of type T.
func foldKernels[T float32 | float64]() map[string]foldKernel {
	round := func(x float64) float64 {
		if x == x {
			return float64(T(x))
		}
		return x
	}
	return map[string]foldKernel{
		"arith.addf": func(acc float64, x []float64, stride int) float64 {
			for k := 0; k < len(x); k += stride {
				acc = round(acc + x[k])
			}
			return acc
		},
		"arith.mulf": func(acc float64, x []float64, stride int) float64 {
			for k := 0; k < len(x); k += stride {
				acc = round(acc * x[k])
			}
			return acc
		},
		"arith.maxnumf": func(acc float64, x []float64, stride int) float64 {
			for k := 0; k < len(x); k += stride {
				acc = round(maxNum(acc, x[k]))
			}
			return acc
		},
		"arith.minnumf": func(acc float64, x []float64, stride int) float64 {
			for k := 0; k < len(x); k += stride {
				acc = round(minNum(acc, x[k]))
			}
			return acc
		},
	}
}

// foldKernelsByType holds foldKernels for the result types with a Go float type.
var foldKernelsByType = map[tileir.Scalar]map[string]foldKernel{
	tileir.F32: foldKernels[float32](), tileir.F64: foldKernels[float64](),
}

// floatKernelsByType holds floatKernels for the result types with a Go float type.
var floatKernelsByType = map[tileir.Scalar]map[string]floatKernel{
	tileir.F32: floatKernels[float32](), tileir.F64: floatKernels[float64](),
}

func intBinaryOp(f func(a, b int64, w int) int64) opFunc {
	return func(fc *fnc, op *tileir.Op) (step, error) {
		a, b, w := fc.use(op.Operands[0]), fc.use(op.Operands[1]), tileir.ScalarOf(op.Operands[0].Type).Bits()
		if k := intKernelsByWidth[w][op.Name]; k != nil {
			return zipI(fc, op, a, b, k), nil
		}
		return mapI2(fc, op, a, b, func(x, y int64) int64 { return f(x, y, w) }), nil
	}
}

// zipI runs a kernel on the slots a and b into op's result.
func zipI(fc *fnc, op *tileir.Op, a, b int, k intKernel) step {
	out := fc.use(op.Results[0])
	return func(fr *frame) error {
		k(fr.v[out].i, fr.v[a].i, fr.v[b].i)
		return nil
	}
}

// mapI2 writes f(a[i], b[i]) into op's integer result, wrapped to its type.
func mapI2(fc *fnc, op *tileir.Op, a, b int, f func(x, y int64) int64) step {
	wrap, out := wrapper(tileir.ScalarOf(op.Results[0].Type)), fc.use(op.Results[0])
	return func(fr *frame) error {
		o := fr.v[out].i
		x, y := fr.v[a].i[:len(o)], fr.v[b].i[:len(o)]
		for i := range o {
			o[i] = wrap(f(x[i], y[i]))
		}
		return nil
	}
}

// mapF1 writes f(a[i]) into op's float result, rounded to its type.
func mapF1(fc *fnc, op *tileir.Op, a int, f func(x float64) float64) step {
	s, out := tileir.ScalarOf(op.Results[0].Type), fc.use(op.Results[0])
	if s == tileir.F32 { // rounder's f32 rounding, inlined
		return func(fr *frame) error {
			o := fr.v[out].f
			x := fr.v[a].f[:len(o)]
			for i := range o {
				if v := f(x[i]); v == v {
					o[i] = float64(float32(v))
				} else {
					o[i] = v
				}
			}
			return nil
		}
	}
	round := rounder(s)
	return func(fr *frame) error {
		o := fr.v[out].f
		x := fr.v[a].f[:len(o)]
		for i := range o {
			o[i] = round(f(x[i]))
		}
		return nil
	}
}

// mapF2 writes f(a[i], b[i]) into op's float result, rounded to its type.
func mapF2(fc *fnc, op *tileir.Op, a, b int, f func(x, y float64) float64) step {
	round, out := rounder(tileir.ScalarOf(op.Results[0].Type)), fc.use(op.Results[0])
	return func(fr *frame) error {
		o := fr.v[out].f
		x, y := fr.v[a].f[:len(o)], fr.v[b].f[:len(o)]
		for i := range o {
			o[i] = round(f(x[i], y[i]))
		}
		return nil
	}
}

func floatBinaryOp(f func(a, b float64) float64) opFunc {
	return func(fc *fnc, op *tileir.Op) (step, error) {
		a, b, out := fc.use(op.Operands[0]), fc.use(op.Operands[1]), fc.use(op.Results[0])
		if k := floatKernelsByType[tileir.ScalarOf(op.Results[0].Type)][op.Name]; k != nil {
			return func(fr *frame) error {
				k(fr.v[out].f, fr.v[a].f, fr.v[b].f)
				return nil
			}, nil
		}
		return mapF2(fc, op, a, b, f), nil
	}
}

func floatUnaryOp(f func(float64) float64) opFunc {
	return func(fc *fnc, op *tileir.Op) (step, error) {
		return mapF1(fc, op, fc.use(op.Operands[0]), f), nil
	}
}

func compileFMA(fc *fnc, op *tileir.Op) (step, error) {
	a, b, c := fc.use(op.Operands[0]), fc.use(op.Operands[1]), fc.use(op.Operands[2])
	to := tileir.ScalarOf(op.Results[0].Type)
	return mapF(fc, op, func(fr *frame, i int) float64 { return fmaTo(fr.v[a].f[i], fr.v[b].f[i], fr.v[c].f[i], to) }), nil
}

func compileClampF(fc *fnc, op *tileir.Op) (step, error) {
	x, lo, hi := fc.use(op.Operands[0]), fc.use(op.Operands[1]), fc.use(op.Operands[2])
	lower, upper := maxNum, minNum
	if op.EnumAttr("propagateNan") == "all" {
		lower, upper = maximum, minimum
	}
	return mapF(fc, op, func(fr *frame, i int) float64 {
		return upper(lower(fr.v[x].f[i], fr.v[lo].f[i]), fr.v[hi].f[i])
	}), nil
}

func compileAbsI(fc *fnc, op *tileir.Op) (step, error) {
	a := fc.use(op.Operands[0])
	return mapI(fc, op, func(fr *frame, i int) int64 {
		if v := fr.v[a].i[i]; v < 0 {
			return -v
		}
		return fr.v[a].i[i]
	}), nil
}

func compileCmpI(fc *fnc, op *tileir.Op) (step, error) {
	pred := op.EnumAttr("predicate")
	f, ok := intCompare[pred]
	if !ok {
		return nil, fmt.Errorf("unknown predicate %q", pred)
	}
	a, b, w := fc.use(op.Operands[0]), fc.use(op.Operands[1]), tileir.ScalarOf(op.Operands[0].Type).Bits()
	if w == 0 { // pointers compare as addresses
		w = 64
	}
	if k := intKernelsByWidth[64]["cmpi."+pred]; k != nil { // signed: on the canonical int64s
		return zipI(fc, op, a, b, k), nil
	}
	return mapI2(fc, op, a, b, func(x, y int64) int64 { return boolInt(f(x, y, w)) }), nil
}

func compileCmpF(fc *fnc, op *tileir.Op) (step, error) {
	pred := op.EnumAttr("predicate")
	f, ok := floatCompare[pred]
	if !ok {
		return nil, fmt.Errorf("unknown predicate %q", pred)
	}
	a, b, out := fc.use(op.Operands[0]), fc.use(op.Operands[1]), fc.use(op.Results[0])
	return func(fr *frame) error {
		o := fr.v[out].i
		x, y := fr.v[a].f[:len(o)], fr.v[b].f[:len(o)]
		for i := range o {
			o[i] = boolInt(f(x[i], y[i]))
		}
		return nil
	}, nil
}

func compileSelect(fc *fnc, op *tileir.Op) (step, error) {
	c, a, b, out := fc.use(op.Operands[0]), fc.use(op.Operands[1]), fc.use(op.Operands[2]), fc.use(op.Results[0])
	return func(fr *frame) error {
		cond, o := fr.v[c].i, &fr.v[out]
		if o.bp != nil || o.td != nil || fr.v[a].bp != nil || fr.v[a].td != nil {
			src := &fr.v[b]
			if cond[0] != 0 {
				src = &fr.v[a]
			}
			o.copyFrom(src)
			return nil
		}
		x, y := &fr.v[a], &fr.v[b]
		for i := range max(len(o.i), len(o.f)) {
			src := y
			if cond[min(i, len(cond)-1)] != 0 {
				src = x
			}
			if o.f != nil {
				o.f[i] = src.f[i]
			} else {
				o.i[i] = src.i[i]
			}
		}
		return nil
	}, nil
}

// compileConstant fills the slot once, when a frame is made: nothing else writes it.
func compileConstant(fc *fnc, op *tileir.Op) (step, error) {
	a := op.Attr("value")
	if d, ok := a.(tileir.DenseAttr); ok {
		a = d.Splat
	}
	out := fc.use(op.Results[0])
	s := tileir.ScalarOf(op.Results[0].Type)
	var iv int64
	var fv float64
	switch v := a.(type) {
	case tileir.IntAttr:
		iv = wrapper(s)(v.V)
		fv = float64(v.V)
	case tileir.FloatAttr:
		fv = v.V
	case tileir.BoolAttr:
		iv = boolInt(bool(v))
	default:
		return nil, fmt.Errorf("unsupported constant %v", a)
	}
	fc.fn.inits = append(fc.fn.inits, func(fr *frame) {
		t := &fr.v[out]
		for i := range t.i {
			t.i[i] = iv
		}
		for i := range t.f {
			t.f[i] = fv
		}
	})
	return nil, nil
}

// A cast maps one element of the source type to one of the result type. Integer sources
// arrive canonical; w is the source width (64 for pointers).
type cast struct {
	i2i func(x int64, w int) int64
	i2f func(x int64, w int, to tileir.Scalar) float64 // float64 that rounds to the right value of type to
	f2i func(x float64, to tileir.Scalar) int64
	f2f func(x float64, from, to tileir.Scalar) float64
}

var casts = map[string]cast{
	"arith.extsi":   {i2i: func(x int64, _ int) int64 { return x }},
	"arith.extui":   {i2i: func(x int64, w int) int64 { return int64(zext(x, w)) }},
	"arith.trunci":  {i2i: func(x int64, _ int) int64 { return x }},
	"tt.int_to_ptr": {i2i: func(x int64, _ int) int64 { return x }},
	"tt.ptr_to_int": {i2i: func(x int64, _ int) int64 { return x }},
	"arith.sitofp":  {i2f: func(x int64, _ int, to tileir.Scalar) float64 { return uintTo(uint64(max(x, -x)), x < 0, to) }},
	"arith.uitofp":  {i2f: func(x int64, w int, to tileir.Scalar) float64 { return uintTo(zext(x, w), false, to) }},
	"arith.fptosi":  {f2i: fpToInt(true)},
	"arith.fptoui":  {f2i: fpToInt(false)},
	"arith.extf":    {f2f: func(x float64, _, _ tileir.Scalar) float64 { return x }},
	"arith.truncf":  {f2f: func(x float64, _, _ tileir.Scalar) float64 { return x }},
	"tt.fp_to_fp":   {f2f: func(x float64, _, _ tileir.Scalar) float64 { return x }},
	// Bitcasts leave the conversions between ints and floats unset: those reinterpret bits.
	"arith.bitcast": {i2i: func(x int64, _ int) int64 { return x }},
	"tt.bitcast":    {i2i: func(x int64, _ int) int64 { return x }},
}

// fpToInt converts toward zero, saturating at the result type's range; NaN gives 0
// (PTX cvt.rzi semantics).
func fpToInt(signed bool) func(x float64, to tileir.Scalar) int64 {
	return func(x float64, to tileir.Scalar) int64 {
		w := to.Bits()
		if math.IsNaN(x) {
			return 0
		}
		x = math.Trunc(x)
		if signed {
			lo, hi := -math.Ldexp(1, w-1), math.Ldexp(1, w-1)
			switch {
			case x <= lo:
				return int64(-1) << (w - 1)
			case x >= hi:
				return int64(uint64(1)<<(w-1) - 1)
			}
			return int64(x)
		}
		hi := math.Ldexp(1, w)
		switch {
		case x <= 0:
			return 0
		case x >= hi:
			return -1
		case x >= math.Ldexp(1, 63):
			return int64(uint64(x))
		}
		return int64(x)
	}
}

func castOp(c cast) opFunc {
	return func(fc *fnc, op *tileir.Op) (step, error) {
		from, to := tileir.ScalarOf(op.Operands[0].Type), tileir.ScalarOf(op.Results[0].Type)
		a := fc.use(op.Operands[0])
		w := from.Bits()
		if w == 0 {
			w = 64
		}
		switch {
		case isBlockPtr(op.Operands[0].Type):
			out := fc.use(op.Results[0])
			return func(fr *frame) error { fr.v[out].bp = fr.v[a].bp; return nil }, nil
		case !from.IsFloat() && !to.IsFloat() && c.i2i != nil:
			return mapI(fc, op, func(fr *frame, i int) int64 { return c.i2i(fr.v[a].i[i], w) }), nil
		case !from.IsFloat() && to.IsFloat() && c.i2f != nil:
			return mapF(fc, op, func(fr *frame, i int) float64 { return c.i2f(fr.v[a].i[i], w, to) }), nil
		case !from.IsFloat() && to.IsFloat():
			return mapF(fc, op, func(fr *frame, i int) float64 { return floatFromBits(zext(fr.v[a].i[i], w), to) }), nil
		case from.IsFloat() && !to.IsFloat() && c.f2i != nil:
			return mapI(fc, op, func(fr *frame, i int) int64 { return c.f2i(fr.v[a].f[i], to) }), nil
		case from.IsFloat() && !to.IsFloat():
			return mapI(fc, op, func(fr *frame, i int) int64 { return int64(floatBits(fr.v[a].f[i], from)) }), nil
		case from.IsFloat() && to.IsFloat() && c.f2f != nil:
			if op.EnumAttr("rounding") == "rtz" {
				return mapF(fc, op, func(fr *frame, i int) float64 { return towardZero(fr.v[a].f[i], to) }), nil
			}
			return mapF(fc, op, func(fr *frame, i int) float64 { return fr.v[a].f[i] }), nil
		case from.IsFloat() && to.IsFloat():
			return mapF(fc, op, func(fr *frame, i int) float64 { return floatFromBits(floatBits(fr.v[a].f[i], from), to) }), nil
		}
		return nil, fmt.Errorf("unsupported cast %s -> %s", op.Operands[0].Type, op.Results[0].Type)
	}
}

// towardZero rounds x to type s toward zero (tt.fp_to_fp with rounding = rtz).
func towardZero(x float64, s tileir.Scalar) float64 {
	r := rounder(s)(x)
	if math.IsNaN(x) || math.Abs(r) <= math.Abs(x) {
		return r
	}
	b := floatBits(r, s)
	if math.IsInf(x, 0) {
		return r
	}
	return floatFromBits(b-1, s) // one step toward zero in magnitude
}
