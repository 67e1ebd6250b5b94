package simt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"

	"github.com/gotriton/gotriton/driver"
)

// Error is a fault of a launch: the kernel, the program (CTA), the thread when one lane
// faulted, and the instruction.
type Error struct {
	Kernel  string
	Program [3]int
	// Thread is the faulting thread's index in its program, -1 when the fault is not one
	// thread's (a divergent branch, a bad operand of a warp-wide instruction).
	Thread   int
	WarpSize int
	// Loc is the instruction's source position, "file:line:col" ("" when it has none).
	Loc  string
	Inst string
	Err  error
}

func (e *Error) Error() string {
	who := ""
	if e.Thread >= 0 {
		who = fmt.Sprintf(" thread %d (warp %d, lane %d)", e.Thread, e.Thread/e.WarpSize, e.Thread%e.WarpSize)
	}
	loc := ""
	if e.Loc != "" {
		loc = e.Loc + ": "
	}
	return fmt.Sprintf("simt: @%s: program (%d, %d, %d)%s: %s%s: %v", e.Kernel, e.Program[0], e.Program[1], e.Program[2], who, loc, e.Inst, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// laneError is an op's fault in one lane.
type laneError struct {
	lane int
	err  error
}

func (e *laneError) Error() string { return e.err.Error() }

func laneErr(_ *frame, lane int, err error) error { return &laneError{lane, err} }

// frame is one worker's state while it runs a program: every value's lanes, the
// program's shared memory and ids.
type frame struct {
	k      *Kernel
	regs   []uint64
	shared []byte
	lanes  int
	ctaid  [3]int
	nctaid [3]int
	stage  []uint64 // phi moves go through it (a parallel copy)
	// The enabled lanes: all, or those set in active. exited marks lanes that returned.
	all     bool
	active  []bool
	exited  []bool
	nexited int
	target  []int // each lane's successor at a branch
	race    raceState
	wgmma   map[int]*wgmmaQueue       // each warp's asynchronous wgmma instructions, by its first lane
	cp      []asyncQueue              // each lane's cp.async copies
	tma     map[uint64][]func() error // TMA loads not landed yet, by the address of their mbarrier
	local   *Buffer                   // the threads' private memory (allocas), nil when there is none
	// implicitArgs is the device address of the launch's implicit arguments (ISA.ImplicitArgs).
	implicitArgs uint64
	blk          *block // the block running, for internal errors
}

// maxBlocks bounds the blocks one program may run: a spin lock that is never released
// must end as an error, not hang.
const maxBlocks = 1 << 26

// TensorMap is the simulator's tensor descriptor (the CUtensorMap of a TMA copy): a
// row-major view of a buffer. Host code makes one with NewTensorMap and passes it by
// value; a kernel builds one in memory with tensormap.replace (see tensorMapFields).
type TensorMap struct {
	Addr uint64
	// Type is the element type, numbered as tensormap.replace's .elemtype (see elemTypes).
	Type int
	// Dims and Box (in elements) are innermost first; the innermost dimension is
	// contiguous, and Strides are the others' strides in bytes (Strides[i] is dimension
	// i+1's).
	Dims, Strides, Box []int64
	// Swizzle is the span in bytes of the swizzle that copies apply to shared memory: 0
	// (none), 32, 64 or 128, as CU_TENSOR_MAP_SWIZZLE_32B, 64B and 128B (see swizzle).
	Swizzle int
	// NaNFill makes a load's elements outside the tensor NaN (float types), not zeros.
	NaNFill bool
}

// elemType is a tensor map element type: its size in bytes and, for a float type, the
// quiet NaN of a NaN fill (0 for an integer type).
type elemType struct {
	size int
	nan  uint64
}

// elemTypes are the element types by number, in tensormap.replace's .elemtype order
// (not CUtensorMapDataType's, which has f64 before f32.ftz): u8, u16, u32, s32, u64, s64,
// f16, f32, f32.ftz, f64, bf16, tf32, tf32.ftz.
var elemTypes = []elemType{{1, 0}, {2, 0}, {4, 0}, {4, 0}, {8, 0}, {8, 0},
	{2, 0x7E00}, {4, 0x7FC00000}, {4, 0x7FC00000}, {8, 0x7FF8000000000000},
	{2, 0x7FC0}, {4, 0x7FC00000}, {4, 0x7FC00000}}

func (m *TensorMap) elem() elemType { return elemTypes[m.Type] }

// NewTensorMap describes a row-major view of b with elements of elemSize bytes (1, 2, 4
// or 8; the map's type is the unsigned integer of that size); shape, strides (in elements,
// the last 1) and box (the tile one copy moves) are outermost first, as Triton's
// TensorDescriptor's; swizzle is the span in bytes of the shared-memory swizzle (0: none).
// The box and swizzle follow TMA's rules (see check).
func NewTensorMap(b *Buffer, elemSize int, shape, strides, box []int64, swizzle int) (*TensorMap, error) {
	typ := slices.IndexFunc(elemTypes, func(e elemType) bool { return e.size == elemSize })
	n := len(shape)
	if n != len(strides) || n != len(box) || n == 0 || n > 5 || typ < 0 || strides[n-1] != 1 {
		return nil, fmt.Errorf("simt: tensor map of %d-byte elements, shape %v, strides %v, box %v (TMA: 1 to 5 dimensions, the innermost contiguous, elements of 1, 2, 4 or 8 bytes)", elemSize, shape, strides, box)
	}
	m := &TensorMap{Addr: b.Addr(), Type: typ, Swizzle: swizzle}
	for i := n - 1; i >= 0; i-- {
		m.Dims = append(m.Dims, shape[i])
		m.Box = append(m.Box, box[i])
		if i < n-1 {
			m.Strides = append(m.Strides, strides[i]*int64(elemSize))
		}
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("simt: tensor map: %w", err)
	}
	return m, nil
}

// check applies TMA's rules: a global address (a map that has none was not built), box
// dimensions of 1 to 256 elements, a NaN fill for float types only, a swizzle of 0, 32, 64
// or 128 bytes and, with a swizzle, an innermost box row of a multiple of 16 bytes up to
// the swizzle's span.
func (m *TensorMap) check() error {
	if m.Addr == 0 {
		return errors.New("the global address is 0 (was the map built?)")
	}
	for i, n := range m.Box {
		if n < 1 || n > 256 {
			return fmt.Errorf("box dimension %d (innermost first) is %d (TMA: 1 to 256)", i, n)
		}
	}
	if m.NaNFill && m.elem().nan == 0 {
		return fmt.Errorf("a NaN fill of integer elements (type %d; TMA: float types only)", m.Type)
	}
	switch m.Swizzle {
	case 0:
		return nil
	case 32, 64, 128:
	default:
		return fmt.Errorf("a swizzle of %d bytes (TMA: 0, 32, 64 or 128)", m.Swizzle)
	}
	if row := m.Box[0] * int64(m.elem().size); row%16 != 0 || row > int64(m.Swizzle) {
		return fmt.Errorf("a box row of %d bytes with a %d-byte swizzle (TMA: a multiple of 16 bytes up to the swizzle's span)", row, m.Swizzle)
	}
	return nil
}

// swizzle is the shared address where a TMA copy with a swizzle of span bytes (0: none)
// puts the byte that the row-major box has at shared address a: the hardware XORs the
// 16-byte chunk index (bits 4 and up) with the 128-byte row index (bits 7 and up), over
// log2(span/16) bits, of the absolute address. The result stays in a's aligned span.
func swizzle(a uint64, span int) uint64 {
	if span == 0 {
		return a
	}
	return a ^ (a>>7&uint64(span/16-1))<<4
}

// A tensor map is 128 bytes, 128-byte aligned, little-endian fields at these offsets, and
// zeros where a field is 0 (a kernel starts from zeros and sets the fields with
// tensormap.replace, in any order).
const (
	tensorMapBytes = 128
	tmAddr         = 0  // u64: the global address
	tmRank         = 8  // u32: the rank less 1
	tmType         = 12 // u32: the element type
	tmSwizzle      = 16 // u32: the swizzle mode, 0 (none) or 1, 2, 3 (32, 64, 128 bytes)
	tmFill         = 20 // u32: 1 for a NaN fill
	tmBox          = 24 // 5 u32: the box, innermost first
	tmDims         = 48 // 5 u64: the dimensions, innermost first
	tmStrides      = 88 // 4 u64: the strides in bytes of dimensions 1 to 4
)

func (m *TensorMap) encode() []byte {
	out := make([]byte, tensorMapBytes)
	le := binary.LittleEndian
	le.PutUint64(out[tmAddr:], m.Addr)
	le.PutUint32(out[tmRank:], uint32(len(m.Dims)-1))
	le.PutUint32(out[tmType:], uint32(m.Type))
	if m.Swizzle != 0 {
		le.PutUint32(out[tmSwizzle:], uint32(bits.TrailingZeros(uint(m.Swizzle))-4))
	}
	if m.NaNFill {
		le.PutUint32(out[tmFill:], 1)
	}
	for i := range m.Dims {
		le.PutUint32(out[tmBox+4*i:], uint32(m.Box[i]))
		le.PutUint64(out[tmDims+8*i:], uint64(m.Dims[i]))
	}
	for i, s := range m.Strides {
		le.PutUint64(out[tmStrides+8*i:], uint64(s))
	}
	return out
}

// decodeTensorMap reads the map at a global address.
func (d *Device) decodeTensorMap(addr uint64) (*TensorMap, error) {
	if addr%tensorMapBytes != 0 {
		return nil, fmt.Errorf("tensor map at %#x, which is not 128-byte aligned", addr)
	}
	raw, err := d.resolve(addr, tensorMapBytes)
	if err != nil {
		return nil, fmt.Errorf("tensor map: %v", err)
	}
	le := binary.LittleEndian
	rank := 1 + uint64(le.Uint32(raw[tmRank:]))
	typ, mode, fill := le.Uint32(raw[tmType:]), le.Uint32(raw[tmSwizzle:]), le.Uint32(raw[tmFill:])
	if rank > 5 || int(typ) >= len(elemTypes) || mode > 3 || fill > 1 {
		return nil, fmt.Errorf("tensor map at %#x is not one (rank %d, element type %d, swizzle mode %d, fill mode %d)", addr, rank, typ, mode, fill)
	}
	m := &TensorMap{Addr: le.Uint64(raw[tmAddr:]), Type: int(typ), NaNFill: fill == 1}
	if mode != 0 {
		m.Swizzle = 16 << mode
	}
	for i := range int(rank) {
		m.Dims = append(m.Dims, int64(le.Uint64(raw[tmDims+8*i:])))
		m.Box = append(m.Box, int64(le.Uint32(raw[tmBox+4*i:])))
		if i > 0 {
			m.Strides = append(m.Strides, int64(le.Uint64(raw[tmStrides+8*(i-1):])))
		}
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("tensor map at %#x: %v", addr, err)
	}
	return m, nil
}

// Launch runs the kernel over grid. Args follow the kernel's parameters except the two
// trailing scratch pointers: a *Buffer (or nil) for a pointer, a *TensorMap for a
// descriptor passed by value, Go scalars for the rest.
func (k *Kernel) Launch(grid driver.Grid, args ...any) error {
	if len(args)+2 != len(k.params) {
		return fmt.Errorf("simt: @%s: %d arguments for %d parameters (the kernel has %d, two of them the scratch pointers)", k.name, len(args), len(k.params)-2, len(k.params))
	}
	programs, err := grid.Programs()
	if err != nil {
		return fmt.Errorf("simt: %w", err)
	}
	if programs == 0 {
		return nil
	}
	var temps []*Buffer
	defer func() {
		for _, b := range temps {
			b.Free()
		}
	}()
	params := make([]uint64, len(k.params))
	for i, a := range args {
		v, tmp, err := k.encodeArg(k.params[i], a)
		if err != nil {
			return fmt.Errorf("simt: @%s: argument %d: %w", k.name, i, err)
		}
		if tmp != nil {
			temps = append(temps, tmp)
		}
		params[i] = v
	}
	for j, bytes := range []int{k.opts.GlobalScratchBytes, k.opts.ProfileScratchBytes} {
		if bytes == 0 {
			continue
		}
		b, err := k.d.alloc(bytes * programs)
		if err != nil {
			return err
		}
		temps = append(temps, b)
		params[len(args)+j] = b.Addr()
	}
	var implicit uint64
	var printf *Buffer
	if k.isa.ImplicitArgs != nil {
		data := k.isa.ImplicitArgs(grid, k.lanes)
		if k.printf != nil {
			var err error
			if printf, err = k.newPrintfBuffer(data); err != nil {
				return err
			}
			temps = append(temps, printf)
		}
		b, err := k.d.alloc(len(data))
		if err != nil {
			return err
		}
		temps = append(temps, b)
		copy(b.data, data)
		implicit = b.Addr()
	}
	err = k.run(grid, programs, params, implicit)
	if printf != nil { // what the programs printed before a fault is printed too
		if perr := k.printFrames(printf); err == nil {
			err = perr
		}
	}
	return err
}

// encodeArg turns a launch argument into the bits of parameter p; descriptors passed by
// value get a temporary buffer.
func (k *Kernel) encodeArg(p operand, a any) (uint64, *Buffer, error) {
	switch v := a.(type) {
	case nil:
		if p.kinds[0] == kPtr {
			return 0, nil, nil
		}
	case *Buffer:
		if p.kinds[0] == kPtr {
			if v.d != k.d {
				return 0, nil, errors.New("the buffer belongs to another device")
			}
			return v.Addr(), nil, nil
		}
	case *TensorMap:
		if p.kinds[0] == kPtr {
			b, err := k.d.alloc(tensorMapBytes)
			if err != nil {
				return 0, nil, err
			}
			copy(b.data, v.encode())
			return b.Addr(), b, nil
		}
	case driver.Buffer:
		return 0, nil, fmt.Errorf("%T is not a simt buffer", a)
	}
	var bits uint64
	switch v := a.(type) {
	case bool:
		if v {
			bits = 1
		}
	case int8:
		bits = uint64(v)
	case int16:
		bits = uint64(v)
	case int32:
		bits = uint64(v)
	case int64:
		bits = uint64(v)
	case int:
		bits = uint64(v)
	case uint8:
		bits = uint64(v)
	case uint16:
		bits = uint64(v)
	case uint32:
		bits = uint64(v)
	case uint64:
		bits = v
	case float32:
		if p.kinds[0] != kF32 {
			return 0, nil, fmt.Errorf("float32 for a parameter of type %s", p.typ)
		}
		return uint64(math.Float32bits(v)), nil, nil
	case float64:
		if !p.kinds[0].isFloat() {
			return 0, nil, fmt.Errorf("float64 for a parameter of type %s", p.typ)
		}
		return fromFloat(p.kinds[0], v), nil, nil
	default:
		return 0, nil, fmt.Errorf("%T for a parameter of type %s", a, p.typ)
	}
	if _, ok := p.typ.(*types.IntType); !ok {
		return 0, nil, fmt.Errorf("%T for a parameter of type %s", a, p.typ)
	}
	return bits & mask(p.kinds[0].bits()), nil, nil
}

// run executes every program, on the device's workers; the fault of the lowest program
// wins, so that errors do not depend on scheduling.
// run runs the programs of grid on the device's workers; implicit is the address of the
// implicit arguments (0: none).
func (k *Kernel) run(grid driver.Grid, programs int, params []uint64, implicit uint64) error {
	workers := min(k.d.workers, programs)
	var next atomic.Int64
	var mu sync.Mutex
	firstBad, firstErr := programs, error(nil)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, err := k.newFrame(params)
			if f != nil {
				f.implicitArgs = implicit
			}
			if err != nil {
				mu.Lock()
				firstBad, firstErr = 0, err
				mu.Unlock()
				return
			}
			defer f.free()
			defer func() { // an interpreter bug must come out as an error, not a crash
				if r := recover(); r != nil {
					mu.Lock()
					firstBad, firstErr = 0, fmt.Errorf("simt: @%s: program (%d, %d, %d): block %s: internal error: %v", k.name, f.ctaid[0], f.ctaid[1], f.ctaid[2], f.blk.name, r)
					mu.Unlock()
				}
			}()
			for {
				p := int(next.Add(1) - 1)
				mu.Lock()
				stop := p >= firstBad
				mu.Unlock()
				if p >= programs || stop {
					return
				}
				f.ctaid = [3]int{p % grid[0], p / grid[0] % grid[1], p / (grid[0] * grid[1])}
				f.nctaid = [3]int{grid[0], grid[1], grid[2]}
				if err := f.program(); err != nil {
					mu.Lock()
					if p < firstBad {
						firstBad, firstErr = p, err
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}

func (k *Kernel) newFrame(params []uint64) (*frame, error) {
	f := &frame{k: k, blk: k.entry, regs: make([]uint64, k.regs), shared: make([]byte, k.opts.SharedBytes), lanes: k.lanes,
		active: make([]bool, k.lanes), exited: make([]bool, k.lanes), target: make([]int, k.lanes)}
	f.race.init(k.opts.SharedBytes)
	if k.localBytes > 0 {
		var err error
		if f.local, err = k.d.alloc(((k.localBytes + 15) &^ 15) * k.lanes); err != nil {
			return nil, err
		}
	}
	for _, c := range k.consts {
		for e, v := range c.elems {
			d := f.regs[c.o.off+e*k.lanes : c.o.off+(e+1)*k.lanes]
			for l := range d {
				d[l] = v
			}
		}
	}
	for i, p := range k.params {
		d := f.regs[p.off : p.off+k.lanes]
		for l := range d {
			d[l] = params[i]
		}
	}
	return f, nil
}

// path is an entry of the SIMT stack: lanes (nil: all) that run from blk until they
// reach rpc, where they wait for the lanes they diverged from.
type path struct {
	blk, rpc *block
	lanes    []bool
}

// program runs one program from the entry block to its return. Lanes that branch apart
// run one path after the other and meet again at the branch's immediate post-dominator.
func (f *frame) program() error {
	// Shared memory starts as all ones (NaN as floats), so that reading what no thread
	// wrote shows in the results.
	for i := range f.shared {
		f.shared[i] = 0xFF
	}
	clear(f.exited)
	f.nexited = 0
	f.wgmma, f.cp, f.tma = nil, nil, nil
	f.race.barrier() // a new program starts a new interval
	stack := []path{{blk: f.k.entry}}
	for steps := 0; len(stack) > 0; steps++ {
		top := len(stack) - 1
		e := stack[top]
		if e.blk == nil || e.blk == e.rpc || !f.enable(e.lanes) {
			stack = stack[:top]
			continue
		}
		blk := e.blk
		f.blk = blk
		if steps == maxBlocks {
			return f.fault(blk.termInst, fmt.Errorf("no return after %d blocks (a lock never released?)", maxBlocks))
		}
		for i, o := range blk.ops {
			if err := o(f); err != nil {
				return f.fault(blk.insts[i], err)
			}
		}
		switch {
		case blk.ret:
			for l := range f.lanes {
				if f.on(l) && !f.exited[l] {
					f.exited[l] = true
					f.nexited++
				}
			}
			stack = stack[:top]
			continue
		case len(blk.succ) == 1:
			stack[top].blk = f.jump(blk, blk.succ[0], nil)
			continue
		}
		// The successor of every enabled lane; one successor for all is the common case.
		first, split := -1, false
		for l := range f.lanes {
			if f.on(l) {
				t := blk.sel(f, l)
				f.target[l] = t
				if first < 0 {
					first = t
				}
				split = split || t != first
			}
		}
		if !split {
			stack[top].blk = f.jump(blk, blk.succ[first], nil)
			continue
		}
		// Divergence: this entry waits at the post-dominator; each group of lanes runs
		// its own path there, the group of the first target first.
		stack[top].blk = blk.ipdom
		for t := len(blk.succ) - 1; t >= 0; t-- {
			lanes := make([]bool, f.lanes)
			any := false
			for l := range f.lanes {
				if f.on(l) && f.target[l] == t {
					lanes[l], any = true, true
				}
			}
			if any {
				stack = append(stack, path{blk: f.jump(blk, blk.succ[t], lanes), rpc: blk.ipdom, lanes: lanes})
			}
		}
	}
	return f.drain()
}

// drain runs the cp.async copies and wgmma instructions still in flight when the program
// ends, whose results nothing can read any more, so that their operands' faults show.
func (f *frame) drain() error {
	for _, bar := range slices.Sorted(maps.Keys(f.tma)) {
		if err := f.landTMA(bar); err != nil {
			return fmt.Errorf("a TMA load never waited for at the program's end: %w", err)
		}
	}
	for l := range f.cp {
		q := &f.cp[l]
		q.commit()
		if err := q.complete(0); err != nil {
			return laneErr(f, l, fmt.Errorf("a cp.async still in flight at the program's end: %w", err))
		}
	}
	for _, base := range slices.Sorted(maps.Keys(f.wgmma)) {
		w := f.wgmma[base]
		w.commit()
		if err := w.complete(0); err != nil {
			return fmt.Errorf("a wgmma.mma_async still in flight at the program's end: %w", err)
		}
	}
	return nil
}

// enable makes lanes (nil: all) less the exited ones the enabled lanes; false when none is.
func (f *frame) enable(lanes []bool) bool {
	if lanes == nil && f.nexited == 0 {
		f.all = true
		return true
	}
	f.all = false
	any := false
	for l := range f.lanes {
		f.active[l] = (lanes == nil || lanes[l]) && !f.exited[l]
		any = any || f.active[l]
	}
	return any
}

// on reports whether lane l is enabled.
func (f *frame) on(l int) bool { return f.all || f.active[l] }

// jump performs the phi moves of the edge from -> to for lanes (nil: the enabled ones),
// as one parallel copy, and returns to.
func (f *frame) jump(from, to *block, lanes []bool) *block {
	moves := to.phis[from]
	if len(moves) == 0 {
		return to
	}
	f.stage = f.stage[:0]
	for _, m := range moves {
		f.stage = append(f.stage, f.regs[m.src.off:m.src.off+m.src.n()*f.lanes]...)
	}
	pos := 0
	for _, m := range moves {
		n := m.dst.n() * f.lanes
		if lanes == nil && f.all {
			copy(f.regs[m.dst.off:m.dst.off+n], f.stage[pos:pos+n])
		} else {
			for i := range n {
				l := i % f.lanes
				if lanes != nil && lanes[l] || lanes == nil && f.active[l] {
					f.regs[m.dst.off+i] = f.stage[pos+i]
				}
			}
		}
		pos += n
	}
	return to
}

func (f *frame) fault(inst ir.LLStringer, err error) error {
	e := &Error{Kernel: f.k.name, Program: f.ctaid, Thread: -1, WarpSize: f.k.isa.WarpSize, Loc: location(inst), Inst: inst.LLString(), Err: err}
	var le *laneError
	if errors.As(err, &le) {
		e.Thread = le.lane
	}
	return e
}

// converged reports an error unless every live lane is enabled (a barrier or a warp-wide
// instruction in diverged code).
func (f *frame) converged(what string) error {
	if f.all {
		return nil
	}
	for l := range f.lanes {
		if !f.active[l] && !f.exited[l] {
			return laneErr(f, l, fmt.Errorf("%s while thread %d is on another path (the program's threads diverged)", what, l))
		}
	}
	return nil
}

// access is how an instruction uses the memory it names: shared-memory reads and writes
// are checked for races between warps; untracked ones (mbarriers, atomics, a TMA store's
// read) are not, and a TMA load's write (asyncWrite) is ordered for every thread by its
// mbarrier wait.
type access uint8

const (
	read  access = iota
	write        // through frame.store, which checks the bytes written
	untracked
	asyncWrite
)

// mem returns the bytes [addr, addr+size) of address space as for lane l, checking
// bounds, alignment and, in shared memory, races.
func (f *frame) mem(as int, addr uint64, size, align, l int, acc access) ([]byte, error) {
	if addr%uint64(align) != 0 {
		return nil, fmt.Errorf("misaligned address %#x (%d-byte access, alignment %d) in address space %d", addr, size, align, as)
	}
	isa := f.k.isa
	switch {
	case as == isa.Shared:
		if addr+uint64(size) > uint64(len(f.shared)) {
			return nil, fmt.Errorf("shared address %#x (%d bytes) is outside the program's %d bytes of shared memory", addr, size, len(f.shared))
		}
		if acc != write {
			if err := f.race.check(int(addr), size, l/isa.WarpSize, acc); err != nil {
				return nil, err
			}
		}
		return f.shared[addr : addr+uint64(size)], nil
	case as == isa.Private && as != 0:
		stride := uint64(f.k.localBytes+15) &^ 15
		if f.local == nil || addr+uint64(size) > stride {
			return nil, fmt.Errorf("private address %#x (%d bytes) is outside the thread's %d bytes of private memory", addr, size, f.k.localBytes)
		}
		base := uint64(l)*stride + addr
		return f.local.data[base : base+uint64(size)], nil
	case isa.Global[as]:
		return f.k.d.resolve(addr, size)
	}
	return nil, fmt.Errorf("address space %d is not supported", as)
}

// store writes data at addr of address space as for lane l (see mem).
func (f *frame) store(as int, addr uint64, data []byte, align, l int) error {
	mem, err := f.mem(as, addr, len(data), align, l, write)
	if err != nil {
		return err
	}
	if as == f.k.isa.Shared {
		if err := f.race.write(int(addr), data, mem, l/f.k.isa.WarpSize); err != nil {
			return err
		}
	}
	copy(mem, data)
	return nil
}

// free releases the frame's private memory.
func (f *frame) free() {
	if f.local != nil {
		f.local.Free()
	}
}

// location is the source position of an instruction's !dbg attachment, "file:line:col".
func location(inst ir.LLStringer) string {
	md, ok := inst.(interface{ MDAttachments() []*metadata.Attachment })
	if !ok {
		return ""
	}
	for _, a := range md.MDAttachments() {
		loc, ok := a.Node.(*metadata.DILocation)
		if a.Name != "dbg" || !ok || loc.Line == 0 {
			continue
		}
		file := ""
		switch s := loc.Scope.(type) {
		case *metadata.DISubprogram:
			if s.File != nil {
				file = s.File.Filename
			}
		case *metadata.DILexicalBlock:
			if s.File != nil {
				file = s.File.Filename
			}
		case *metadata.DIFile:
			file = s.Filename
		}
		return fmt.Sprintf("%s:%d:%d", file, loc.Line, loc.Column)
	}
	return ""
}
