package simt

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/llir/llvm/ir"

	"github.com/gotriton/gotriton/driver"
)

// ISA is what the interpreter needs to know of one instruction set: everything else (the
// LLVM IR instructions, the generic llvm.* intrinsics, memory, lockstep execution) is
// shared by all of them.
type ISA struct {
	Name string
	// WarpSize is the number of lanes of a warp (wavefront): cross-lane operations work
	// within one.
	WarpSize int
	// Shared is the address space of the program's shared memory (LDS); its pointers are
	// offsets into it.
	Shared int
	// Global lists the address spaces whose pointers are device addresses.
	Global map[int]bool
	// Narrow lists the address spaces with 32-bit pointers.
	Narrow map[int]bool
	// Private is the address space of each thread's own memory (AMD's scratch), whose
	// pointers are offsets into it; 0 when allocas live in the global address space.
	Private int
	// ImplicitArgs, when set, gives the bytes of a launch's implicit kernel arguments
	// (AMD's hidden arguments) from its grid and block size; frame.implicitArgs is their
	// device address.
	ImplicitArgs func(grid driver.Grid, blockSize int) []byte
	// BufferedPrintf: a kernel whose module lists printf formats gets a printf buffer
	// in its implicit arguments, printed after each launch (amdprintf.go).
	BufferedPrintf bool
	// Intrinsics are the ISA's own intrinsics by full name (llvm.nvvm.*, llvm.amdgcn.*).
	Intrinsics map[string]intrinsic
	// Asm compiles an inline assembly call; nil when the ISA's code has none.
	Asm func(s *site, asm *ir.InlineAsm) (op, error)
}

// site is a call being compiled: its argument and result slots.
type site struct {
	b    *builder
	args []operand
	dst  operand // zero when the call returns void
	// inst is the call, for messages.
	inst *ir.InstCall
}

// intrinsic compiles a call of one intrinsic.
type intrinsic func(s *site) (op, error)

func (b *builder) call(in *ir.InstCall) (op, error) {
	args, err := b.operands(in.Args...)
	if err != nil {
		return nil, err
	}
	s := &site{b: b, args: args, dst: b.slots[in], inst: in}
	switch callee := in.Callee.(type) {
	case *ir.InlineAsm:
		if b.k.isa.Asm == nil {
			return nil, fmt.Errorf("inline assembly is not supported for %s", b.k.isa.Name)
		}
		return b.k.isa.Asm(s, callee)
	case *ir.Func:
		name := callee.Name()
		if f, ok := b.k.isa.Intrinsics[name]; ok {
			return f(s)
		}
		if f, ok := genericIntrinsic(name); ok {
			return f(s)
		}
		return nil, fmt.Errorf("call of @%s is not supported", name)
	}
	return nil, fmt.Errorf("call of %s is not supported", in.Callee.Ident())
}

// genericIntrinsic finds a target-neutral llvm.* intrinsic: its name without the type
// suffixes (llvm.fma.f32 is llvm.fma).
func genericIntrinsic(name string) (intrinsic, bool) {
	for n := name; strings.Contains(n, "."); n = n[:strings.LastIndexByte(n, '.')] {
		if f, ok := generic[n]; ok {
			return f, true
		}
	}
	return nil, false
}

// floatFn is an elementwise float intrinsic: the arguments' values, the result rounded
// to the result's type.
func floatFn(fn func(a []float64) float64) intrinsic {
	return func(s *site) (op, error) {
		return s.b.floatMap(s.inst, s.inst.Args, fn)
	}
}

func unary(fn func(float64) float64) intrinsic {
	return floatFn(func(a []float64) float64 { return fn(a[0]) })
}

// intFn is an elementwise integer intrinsic of two operands.
func intFn(fn func(x, y uint64, w int) uint64) intrinsic {
	return func(s *site) (op, error) {
		return s.b.intBin(s.inst, s.inst.Args[0], s.inst.Args[1], fn)
	}
}

// intUnary is an elementwise integer intrinsic of one operand (extra operands, such as
// ctlz's is_zero_poison flag, are ignored).
func intUnary(fn func(x uint64, w int) uint64) intrinsic {
	return func(s *site) (op, error) {
		return s.b.intBin(s.inst, s.inst.Args[0], s.inst.Args[0], func(x, _ uint64, w int) uint64 { return fn(x, w) })
	}
}

// maxNum and minNum are IEEE maxNum and minNum: a NaN operand yields the other one.
func maxNum(a []float64) float64 {
	switch {
	case math.IsNaN(a[0]):
		return a[1]
	case math.IsNaN(a[1]):
		return a[0]
	}
	return math.Max(a[0], a[1])
}

func minNum(a []float64) float64 {
	switch {
	case math.IsNaN(a[0]):
		return a[1]
	case math.IsNaN(a[1]):
		return a[0]
	}
	return math.Min(a[0], a[1])
}

// generic are the target-neutral LLVM intrinsics lower emits, by name without type
// suffixes.
var generic = map[string]intrinsic{
	"llvm.fma":       floatFn(func(a []float64) float64 { return math.FMA(a[0], a[1], a[2]) }),
	"llvm.fmuladd":   floatFn(func(a []float64) float64 { return math.FMA(a[0], a[1], a[2]) }),
	"llvm.maxnum":    floatFn(maxNum),
	"llvm.minnum":    floatFn(minNum),
	"llvm.maximum":   floatFn(func(a []float64) float64 { return math.Max(a[0], a[1]) }),
	"llvm.minimum":   floatFn(func(a []float64) float64 { return math.Min(a[0], a[1]) }),
	"llvm.fabs":      unary(math.Abs),
	"llvm.copysign":  floatFn(func(a []float64) float64 { return math.Copysign(a[0], a[1]) }),
	"llvm.sqrt":      unary(math.Sqrt),
	"llvm.rint":      unary(math.RoundToEven),
	"llvm.nearbyint": unary(math.RoundToEven),
	"llvm.roundeven": unary(math.RoundToEven),
	"llvm.round":     unary(math.Round),
	"llvm.floor":     unary(math.Floor),
	"llvm.ceil":      unary(math.Ceil),
	"llvm.trunc":     unary(math.Trunc),
	"llvm.exp2":      unary(math.Exp2),
	"llvm.exp":       unary(math.Exp),
	"llvm.log2":      unary(math.Log2),
	"llvm.log":       unary(math.Log),
	"llvm.sin":       unary(math.Sin),
	"llvm.cos":       unary(math.Cos),
	"llvm.pow":       floatFn(func(a []float64) float64 { return math.Pow(a[0], a[1]) }),
	"llvm.smax": intFn(func(x, y uint64, w int) uint64 {
		if sext(x, w) > sext(y, w) {
			return x
		}
		return y
	}),
	"llvm.smin": intFn(func(x, y uint64, w int) uint64 {
		if sext(x, w) < sext(y, w) {
			return x
		}
		return y
	}),
	"llvm.umax": intFn(func(x, y uint64, _ int) uint64 { return max(x, y) }),
	"llvm.umin": intFn(func(x, y uint64, _ int) uint64 { return min(x, y) }),
	"llvm.abs": intUnary(func(x uint64, w int) uint64 {
		if v := sext(x, w); v < 0 {
			return uint64(-v)
		}
		return x
	}),
	"llvm.ctpop": intUnary(func(x uint64, _ int) uint64 { return uint64(bits.OnesCount64(x)) }),
	"llvm.ctlz":  intUnary(func(x uint64, w int) uint64 { return uint64(bits.LeadingZeros64(x) - (64 - w)) }),
	"llvm.cttz": intUnary(func(x uint64, w int) uint64 {
		return uint64(min(bits.TrailingZeros64(x), w))
	}),
}

func mul64(x, y uint64) (hi, lo uint64) { return bits.Mul64(x, y) }
