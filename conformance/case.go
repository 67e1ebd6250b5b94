// Package conformance runs Triton kernels on a device and checks every output against a
// float64 reference computed in Go.
//
// A Case names a kernel source (one of our own kernels in conformance/kernels, or an
// official Triton tutorial found through a tutorials folder) and builds a Problem from a
// seeded random generator: the tensors (inputs filled, outputs poisoned with all-ones
// bytes, which is NaN for every float type and -1 for integers), one or more launches run
// in sequence (kernel, arguments, grid, num_warps, num_stages), and the expected values of
// the outputs. The Runner compiles each launch for its specialization, runs it on a
// Device, reads the outputs back and compares them: relative L2 error under the output
// type's tolerance (fp32 1e-5, tf32 1e-3, fp16/bf16 1e-2), integers exact, and a NaN
// anywhere fails.
//
// The signature of each launch is derived from its arguments the way Triton's JIT
// specializes: pointers are 16-byte aligned (`*fp16:16`), an integer divisible by 16 is
// `i32:16`, an integer equal to 1 is `i32:1` (and leaves the kernel's parameter list),
// constexprs are given as values, tensor descriptors as `tensordesc<fp16[128, 64]>`.
package conformance

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gotriton/gotriton/driver"
)

// Source says where a case's kernel file comes from.
type Source int

const (
	// Ours is a kernel file in conformance/kernels.
	Ours Source = iota
	// Tutorial is a file of the official Triton 3.6 tutorials (python/tutorials).
	Tutorial
)

func (s Source) String() string {
	if s == Tutorial {
		return "tutorial"
	}
	return "ours"
}

// Case is one conformance test: a kernel file and a problem built from a seed.
type Case struct {
	// Name is unique, e.g. "ours/vector_add/fp32/n=98432" or "tutorial/01/add/n=98432".
	Name   string
	Source Source
	// File is the kernel file's base name: "vector_add.py" or "01-vector-add.py".
	File string
	// Build makes the problem; rng is seeded from the case name.
	Build func(rng *rand.Rand) *Problem
	// Skip, when set, is why the case cannot run at all (it is reported as not run).
	Skip string
	// NoCPU, when set, is why the case cannot run on the CPU interpreter (inline PTX that
	// it does not execute): there it is reported as not run, and --compare-cpu skips it.
	NoCPU string
	// Large marks a case at a tutorial's real size (RealSizeCases): it runs only when
	// asked (Runner.RealSizes, `gotriton conformance --real-sizes`), so that the default
	// CPU suite stays fast.
	Large bool
}

// Problem is what one case runs: tensors, launches in order, and the expected outputs.
type Problem struct {
	Tensors map[string]*Tensor
	Steps   []Step
	Checks  []Check
}

// Tensor is a host array. Values are float64 and already representable in DType.
type Tensor struct {
	DType DType
	Shape []int
	Data  []float64
	// Output tensors are poisoned (all bytes 0xFF) before the run and read back after.
	Output bool
	// AddrOf, when set, makes this an i64 tensor holding the device addresses of the
	// named tensors (grouped GEMM's pointer arrays); Data is filled at upload.
	AddrOf []string
}

// Len returns the number of elements of a shape.
func Len(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// Step is one kernel launch.
type Step struct {
	Kernel    string
	Args      []Arg // one per kernel parameter, in order, constexprs included
	Grid      driver.Grid
	NumWarps  int
	NumStages int
}

// Check compares one output tensor with its reference values.
type Check struct {
	Tensor string
	Want   []float64
	// Tol overrides the dtype's tolerance when non-zero.
	Tol float64
	// Index, when set, makes this a sampled check: Want[k] is the expected value of the
	// output's element Index[k] (flat, row-major), and only those elements are compared.
	Index []int
}

// ArgKind says what an Arg is.
type ArgKind int

// The kinds of kernel arguments.
const (
	ArgPtr   ArgKind = iota // a pointer to a tensor's buffer
	ArgInt                  // an integer scalar (i32, or i64 when it does not fit)
	ArgFloat                // an fp32 scalar
	ArgConst                // a constexpr, as signature text
	ArgDesc                 // a host-side tensor descriptor over a tensor
	ArgNull                 // a null pointer of some element type
)

// Arg is one kernel argument.
type Arg struct {
	Kind   ArgKind
	Tensor string  // ArgPtr, ArgDesc
	Int    int64   // ArgInt
	Float  float64 // ArgFloat
	Const  string  // ArgConst; ArgNull: the element type
	// Block is a descriptor's block shape; the descriptor's shape is the tensor's shape
	// and its strides are the tensor's contiguous strides.
	Block []int
}

// Ptr passes tensor t's buffer.
func Ptr(t string) Arg { return Arg{Kind: ArgPtr, Tensor: t} }

// Int passes an integer.
func Int(v int) Arg { return Arg{Kind: ArgInt, Int: int64(v)} }

// Float passes an fp32 scalar.
func Float(v float64) Arg { return Arg{Kind: ArgFloat, Float: v} }

// Const passes a constexpr; v is formatted in signature syntax (ints, bools, None,
// quoted strings as given).
func Const(v any) Arg {
	switch x := v.(type) {
	case bool:
		if x {
			return Arg{Kind: ArgConst, Const: "True"}
		}
		return Arg{Kind: ArgConst, Const: "False"}
	case nil:
		return Arg{Kind: ArgConst, Const: "None"}
	case string:
		return Arg{Kind: ArgConst, Const: x}
	}
	return Arg{Kind: ArgConst, Const: fmt.Sprint(v)}
}

// Str passes a constexpr string.
func Str(s string) Arg { return Arg{Kind: ArgConst, Const: "'" + s + "'"} }

// Desc passes a host tensor descriptor over tensor t with the given block shape.
func Desc(t string, block ...int) Arg { return Arg{Kind: ArgDesc, Tensor: t, Block: block} }

// sigEntry returns the argument's entry in a triton.tools.compile signature.
func (a Arg) sigEntry(tensors map[string]*Tensor) (string, error) {
	switch a.Kind {
	case ArgPtr:
		t, ok := tensors[a.Tensor]
		if !ok {
			return "", fmt.Errorf("no tensor %q", a.Tensor)
		}
		return "*" + string(t.DType) + ":16", nil
	case ArgNull:
		return "*" + a.Const, nil
	case ArgInt:
		ty := "i32"
		if a.Int < -1<<31 || a.Int >= 1<<31 {
			ty = "i64"
		}
		switch {
		case a.Int == 1:
			return ty + ":1", nil
		case a.Int%16 == 0:
			return ty + ":16", nil
		}
		return ty, nil
	case ArgFloat:
		return "fp32", nil
	case ArgConst:
		return a.Const, nil
	case ArgDesc:
		t, ok := tensors[a.Tensor]
		if !ok {
			return "", fmt.Errorf("no tensor %q", a.Tensor)
		}
		if len(a.Block) != len(t.Shape) {
			return "", fmt.Errorf("descriptor over %q: block %v for a tensor of shape %v", a.Tensor, a.Block, t.Shape)
		}
		dims := make([]string, len(a.Block))
		for i, b := range a.Block {
			dims[i] = strconv.Itoa(b)
		}
		return fmt.Sprintf("tensordesc<%s[%s]>", t.DType, strings.Join(dims, ", ")), nil
	}
	return "", fmt.Errorf("unknown argument kind %d", a.Kind)
}

// Signature returns the step's signature in triton.tools.compile syntax.
func (s *Step) Signature(tensors map[string]*Tensor) (string, error) {
	parts := make([]string, len(s.Args))
	for i, a := range s.Args {
		e, err := a.sigEntry(tensors)
		if err != nil {
			return "", fmt.Errorf("argument %d: %v", i, err)
		}
		parts[i] = e
	}
	return strings.Join(parts, ", "), nil
}

// Strides returns the contiguous (row-major) strides of shape, in elements.
func Strides(shape []int) []int64 {
	st := make([]int64, len(shape))
	acc := int64(1)
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = acc
		acc *= int64(shape[i])
	}
	return st
}
