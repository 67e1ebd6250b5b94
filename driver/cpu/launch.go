package cpu

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/tileir"
)

// LoadOptions configure a kernel. NumWarps is accepted for symmetry with the GPU drivers
// (tl.num_warps-dependent IR is already specialized); the interpreter does not use it.
type LoadOptions struct {
	NumWarps int
}

// Kernel is a compiled kernel. It implements driver.Kernel.
type Kernel struct {
	dev  *Device
	name string
	fn   *fn
}

// Load compiles kernel from m for this device. fp32 dots of precision tf32x3, bf16x3 and
// bf16x6 and tt.dot_scaled ops are first decomposed in m, in place, as the NVIDIA backend
// decomposes them (tileir.F32DotTC, tileir.DecomposeDotScaled), so that the interpreter
// computes what the GPU does.
func (d *Device) Load(m *tileir.Module, kernel string, opts LoadOptions) (driver.Kernel, error) {
	tileir.F32DotTC(m, true)
	if err := tileir.DecomposeDotScaled(m); err != nil {
		return nil, fmt.Errorf("cpu: kernel %s: %w", kernel, err)
	}
	f := m.Func(kernel)
	if f == nil {
		return nil, fmt.Errorf("cpu: no kernel %q in the module", kernel)
	}
	c := &compiler{mod: m, fns: map[*tileir.Func]*fn{}, active: map[*tileir.Func]bool{}}
	cf, err := c.function(f)
	if err != nil {
		return nil, fmt.Errorf("cpu: kernel %s: %w", kernel, err)
	}
	return &Kernel{dev: d, name: kernel, fn: cf}, nil
}

// Error is a run-time failure of one program instance.
type Error struct {
	Kernel  string
	Program [3]int
	Op      string
	Loc     tileir.Loc
	// Element is the flat (row-major) index in the op's tile, and Index the same as a
	// multi-dimensional index; Element is -1 when the failure is not about one element.
	Element int
	Index   []int
	// Buffer is the buffer's id (0 when no buffer is involved), Arg the kernel parameter
	// that received it (when one did), Size its size in bytes and Offset the byte offset
	// accessed.
	Buffer int
	Arg    string
	Size   int
	Offset int64
	Msg    string
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: kernel %s, program (%d, %d, %d): %s: ", where(e.Loc), e.Kernel, e.Program[0], e.Program[1], e.Program[2], e.Op)
	if e.Element >= 0 {
		fmt.Fprintf(&b, "element %d %v: ", e.Element, e.Index)
	}
	b.WriteString(e.Msg)
	if e.Buffer != 0 {
		fmt.Fprintf(&b, " (buffer %d", e.Buffer)
		if e.Arg != "" {
			fmt.Fprintf(&b, ", argument %s", e.Arg)
		}
		fmt.Fprintf(&b, ", %d bytes, offset %d)", e.Size, e.Offset)
	}
	return b.String()
}

// fail builds an *Error for op at element (-1 for none).
func (fr *frame) fail(op *tileir.Op, element int, format string, args ...any) *Error {
	e := &Error{Kernel: fr.inst.l.k.name, Program: fr.inst.pid, Op: op.Name, Loc: op.Loc,
		Element: element, Msg: fmt.Sprintf(format, args...)}
	if element >= 0 && len(op.Operands) > 0 {
		e.Index = unflatten(element, shapeOf(op.Operands[0].Type))
	}
	if len(e.Index) == 0 { // a scalar op: no element to name
		e.Element, e.Index = -1, nil
	}
	return e
}

// where formats a location as file:line:col, the form of compiler diagnostics.
func where(l tileir.Loc) string {
	if l == (tileir.Loc{}) {
		return "<unknown location>"
	}
	return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Col)
}

// unflatten turns a row-major flat index into a multi-dimensional one.
func unflatten(flat int, shape []int) []int {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		idx[d] = flat % shape[d]
		flat /= shape[d]
	}
	return idx
}

func shapeOf(t tileir.Type) []int {
	s := tileir.ShapeOf(t)
	out := make([]int, len(s))
	for i, d := range s {
		out[i] = int(d)
	}
	return out
}

// launch is one run of a kernel over a grid.
type launch struct {
	k       *Kernel
	grid    [3]int
	bufs    []*Buffer
	argName map[int]string // buffer id -> parameter name
}

// Launch runs the kernel over grid. args follow the kernel's parameters: a *Buffer (or nil,
// the null pointer) for each pointer, a TensorDesc for each tensor descriptor, and Go
// numbers or bools for scalars. It returns the first failure of any program instance.
func (k *Kernel) Launch(grid driver.Grid, args ...any) error {
	params := k.fn.src.Args()
	if len(args) != len(params) {
		return fmt.Errorf("cpu: kernel %s takes %d arguments, got %d", k.name, len(params), len(args))
	}
	for _, g := range grid {
		if g < 0 {
			return fmt.Errorf("cpu: kernel %s: negative grid %v", k.name, grid)
		}
	}
	l := &launch{k: k, grid: grid, bufs: k.dev.snapshot(), argName: map[int]string{}}
	bound := make([]tile, len(params))
	for i, p := range params {
		name := p.Hint
		if name == "" {
			name = fmt.Sprintf("#%d", i)
		}
		t, err := l.bind(p.Type, args[i], name)
		if err != nil {
			return fmt.Errorf("cpu: kernel %s: argument %d (%s): %w", k.name, i, name, err)
		}
		bound[i] = t
	}
	total := grid[0] * grid[1] * grid[2]
	var next atomic.Int64
	var failed atomic.Bool
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	for range min(k.dev.workers, total) {
		wg.Go(func() {
			for !failed.Load() {
				n := int(next.Add(1) - 1)
				if n >= total {
					return
				}
				pid := [3]int{n % grid[0], n / grid[0] % grid[1], n / (grid[0] * grid[1])}
				if err := l.program(pid, bound); err != nil {
					once.Do(func() { firstErr = err })
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return firstErr
}

// program runs one program instance; a panic (an interpreter bug) becomes an error.
func (l *launch) program(pid [3]int, args []tile) (err error) {
	inst := &instance{l: l, pid: pid}
	f := l.k.fn
	fr := f.newFrame(inst)
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cpu: kernel %s, program %v: the interpreter failed (a bug in gotriton, please report it): %v", l.k.name, pid, r)
			if os.Getenv("GOTRITON_TRACEBACK") == "1" {
				err = fmt.Errorf("%w\n%s", err, debug.Stack())
			}
			return
		}
		f.release(fr)
	}()
	for i, s := range f.params {
		fr.v[s].copyFrom(&args[i])
	}
	return f.run(fr)
}

// bind converts a launch argument to a tile of parameter type t.
func (l *launch) bind(t tileir.Type, arg any, name string) (tile, error) {
	switch t := t.(type) {
	case *tileir.PtrType:
		addr, err := l.address(arg, name)
		return tile{i: []int64{addr}}, err
	case *tileir.TensorDescType:
		td, ok := arg.(TensorDesc)
		if !ok {
			return tile{}, fmt.Errorf("want a cpu.TensorDesc, got %T", arg)
		}
		d, err := l.desc(td, t, name)
		return tile{td: d}, err
	case tileir.Scalar:
		if t.IsFloat() {
			x, ok := toFloat(arg)
			if !ok {
				return tile{}, fmt.Errorf("want a number for %s, got %T", t, arg)
			}
			return tile{f: []float64{rounder(t)(x)}}, nil
		}
		x, ok := toInt(arg)
		if !ok {
			return tile{}, fmt.Errorf("want an integer for %s, got %T", t, arg)
		}
		return tile{i: []int64{wrapper(t)(x)}}, nil
	}
	return tile{}, fmt.Errorf("unsupported parameter type %s", t)
}

func (l *launch) address(arg any, name string) (int64, error) {
	switch b := arg.(type) {
	case nil:
		return 0, nil
	case *Buffer:
		if b.dev != l.k.dev {
			return 0, fmt.Errorf("buffer %d belongs to another device", b.id)
		}
		if b.data == nil && b.id < len(l.bufs) && l.bufs[b.id] == nil {
			return 0, fmt.Errorf("buffer %d is freed", b.id)
		}
		if _, dup := l.argName[b.id]; !dup {
			l.argName[b.id] = name
		}
		return b.Addr(), nil
	}
	return 0, fmt.Errorf("want a *cpu.Buffer, got %T", arg)
}

func toFloat(a any) (float64, bool) {
	switch v := a.(type) {
	case float32:
		return float64(v), true
	case float64:
		return v, true
	}
	if i, ok := toInt(a); ok {
		return float64(i), true
	}
	return math.NaN(), false
}

func toInt(a any) (int64, bool) {
	switch v := a.(type) {
	case bool:
		if v {
			return 1, true
		}
		return 0, true
	case int:
		return int64(v), true
	case int8:
		return int64(v), true
	case int16:
		return int64(v), true
	case int32:
		return int64(v), true
	case int64:
		return v, true
	case uint:
		return int64(v), true
	case uint8:
		return int64(v), true
	case uint16:
		return int64(v), true
	case uint32:
		return int64(v), true
	case uint64:
		return int64(v), true
	}
	return 0, false
}
