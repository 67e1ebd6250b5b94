package cpu

import (
	"fmt"
	"math"

	"github.com/gotriton/gotriton/tileir"
)

// elemIO reads and writes one element of a scalar type in memory, little-endian.
type elemIO struct {
	size  int
	float bool
	getI  func(b []byte) int64
	putI  func(b []byte, v int64)
	getF  func(b []byte) float64
	putF  func(b []byte, v float64)
	// The run accessors move len(dst) or len(src) contiguous elements at once (the load
	// and store fast path); withRuns fills them from the element accessors when a type
	// has no specialized loop.
	getRunI func(mem []byte, dst []int64)
	putRunI func(mem []byte, src []int64)
	getRunF func(mem []byte, dst []float64)
	putRunF func(mem []byte, src []float64)
}

// withRuns completes io's run accessors from its element accessors.
func (io elemIO) withRuns() elemIO {
	if io.float {
		if io.getRunF == nil {
			io.getRunF = elemGetRun(io.getF, io.size)
		}
		if io.putRunF == nil {
			io.putRunF = elemPutRun(io.putF, io.size)
		}
		return io
	}
	if io.getRunI == nil {
		io.getRunI = elemGetRun(io.getI, io.size)
	}
	if io.putRunI == nil {
		io.putRunI = elemPutRun(io.putI, io.size)
	}
	return io
}

// elemGetRun decodes a run of size-byte elements with get, one at a time.
func elemGetRun[T int64 | float64](get func([]byte) T, size int) func(mem []byte, dst []T) {
	return func(mem []byte, dst []T) {
		for i := range dst {
			dst[i] = get(mem[i*size:])
		}
	}
}

// elemPutRun encodes a run of size-byte elements with put, one at a time.
func elemPutRun[T int64 | float64](put func([]byte, T), size int) func(mem []byte, src []T) {
	return func(mem []byte, src []T) {
		for i, v := range src {
			put(mem[i*size:], v)
		}
	}
}

// f32 runs: finite values and infinities convert directly; NaNs keep their payloads
// through floatFromBits and floatBits.
func getRunF32(mem []byte, dst []float64) {
	mem = mem[:4*len(dst)]
	for i := range dst {
		u := le.Uint32(mem[4*i:])
		if u&0x7f800000 != 0x7f800000 || u&0x7fffff == 0 {
			dst[i] = float64(math.Float32frombits(u))
		} else {
			dst[i] = floatFromBits(uint64(u), tileir.F32)
		}
	}
}

func putRunF32(mem []byte, src []float64) {
	mem = mem[:4*len(src)]
	for i, v := range src {
		if v == v {
			le.PutUint32(mem[4*i:], math.Float32bits(float32(v)))
		} else {
			le.PutUint32(mem[4*i:], uint32(floatBits(v, tileir.F32)))
		}
	}
}

func getRunI32(mem []byte, dst []int64) {
	mem = mem[:4*len(dst)]
	for i := range dst {
		dst[i] = int64(int32(le.Uint32(mem[4*i:])))
	}
}

func putRunI32(mem []byte, src []int64) {
	mem = mem[:4*len(src)]
	for i, v := range src {
		le.PutUint32(mem[4*i:], uint32(v))
	}
}

func getRunI64(mem []byte, dst []int64) {
	mem = mem[:8*len(dst)]
	for i := range dst {
		dst[i] = int64(le.Uint64(mem[8*i:]))
	}
}

func putRunI64(mem []byte, src []int64) {
	mem = mem[:8*len(src)]
	for i, v := range src {
		le.PutUint64(mem[8*i:], uint64(v))
	}
}

// getRunTable decodes a run of a 16-bit float type through its decoding table.
func getRunTable(table []float64) func(mem []byte, dst []float64) {
	return func(mem []byte, dst []float64) {
		mem = mem[:2*len(dst)]
		for i := range dst {
			dst[i] = table[le.Uint16(mem[2*i:])]
		}
	}
}

// ioOf returns the memory access functions for pointee type t (a scalar or a pointer).
func ioOf(t tileir.Type) (elemIO, error) {
	io, err := ioOfElem(t)
	return io.withRuns(), err
}

// ioOfElem returns t's element accessors and its specialized run accessors.
func ioOfElem(t tileir.Type) (elemIO, error) {
	s, ok := t.(tileir.Scalar)
	if _, ptr := t.(*tileir.PtrType); ptr {
		s, ok = tileir.I64, true
	}
	if !ok {
		return elemIO{}, fmt.Errorf("cannot access memory of type %s", t)
	}
	if s == tileir.F32 {
		return elemIO{size: 4, float: true,
			getF: func(b []byte) float64 {
				if u := le.Uint32(b); u&0x7f800000 != 0x7f800000 {
					return float64(math.Float32frombits(u))
				}
				return floatFromBits(uint64(le.Uint32(b)), s)
			},
			putF:    func(b []byte, v float64) { le.PutUint32(b, uint32(floatBits(v, s))) },
			getRunF: getRunF32, putRunF: putRunF32}, nil
	}
	if s.IsFloat() {
		size := s.Bits() / 8
		get, put := rawIO(size)
		io := elemIO{size: size, float: true,
			getF: func(b []byte) float64 { return floatFromBits(get(b), s) },
			putF: func(b []byte, v float64) { put(b, floatBits(v, s)) }}
		if f := formatOf(s); f != nil && size == 2 {
			io.getRunF = getRunTable(f.table())
		}
		return io, nil
	}
	if s == tileir.I1 { // a bool is one byte in memory
		return elemIO{size: 1,
			getI: func(b []byte) int64 { return -int64(min(b[0], 1)) },
			putI: func(b []byte, v int64) { b[0] = byte(v & 1) }}, nil
	}
	size := s.Bits() / 8
	get, put := rawIO(size)
	wrap := wrapper(s)
	io := elemIO{size: size,
		getI: func(b []byte) int64 { return wrap(int64(get(b))) },
		putI: func(b []byte, v int64) { put(b, uint64(v)) }}
	switch size {
	case 4:
		io.getRunI, io.putRunI = getRunI32, putRunI32
	case 8:
		io.getRunI, io.putRunI = getRunI64, putRunI64
	}
	return io, nil
}

// rawIO returns little-endian accessors of size-byte words.
func rawIO(size int) (func([]byte) uint64, func([]byte, uint64)) {
	switch size {
	case 1:
		return func(b []byte) uint64 { return uint64(b[0]) }, func(b []byte, v uint64) { b[0] = byte(v) }
	case 2:
		return func(b []byte) uint64 { return uint64(le.Uint16(b)) }, func(b []byte, v uint64) { le.PutUint16(b, uint16(v)) }
	case 4:
		return func(b []byte) uint64 { return uint64(le.Uint32(b)) }, func(b []byte, v uint64) { le.PutUint32(b, uint32(v)) }
	}
	return le.Uint64, le.PutUint64
}

// access checks an access of size bytes at addr by element elem of op, and returns the
// buffer and the bytes.
func (fr *frame) access(op *tileir.Op, elem int, addr int64, size int, verb string) (*Buffer, []byte, error) {
	l := fr.inst.l
	id := int(addr >> windowBits)
	if addr == 0 {
		return nil, nil, fr.fail(op, elem, "%s through a null pointer", verb)
	}
	if addr < 0 || id >= len(l.bufs) || l.bufs[id] == nil {
		return nil, nil, fr.fail(op, elem, "%s at address %#x, which is in no live buffer", verb, addr)
	}
	b := l.bufs[id]
	off := addr - baseOf(id)
	var why string
	switch {
	case off < 0 || off+int64(size) > int64(len(b.data)):
		why = fmt.Sprintf("%d-byte %s out of bounds", size, verb)
	case off%int64(size) != 0:
		why = fmt.Sprintf("misaligned %d-byte %s", size, verb)
	default:
		return b, b.data[off : off+int64(size)], nil
	}
	e := fr.fail(op, elem, "%s", why)
	e.Buffer, e.Arg, e.Size, e.Offset = id, l.argName[id], len(b.data), off
	return nil, nil, e
}

// cursor caches the buffer of the last access, so that runs of accesses to one buffer (the
// common case) skip the buffer lookup.
type cursor struct {
	id   int64
	base int64
	data []byte
}

// at is fr.access with the cache in front.
func (c *cursor) at(fr *frame, op *tileir.Op, elem int, addr int64, size int, verb string) ([]byte, error) {
	off := addr - c.base
	if addr>>windowBits == c.id && off >= 0 && off+int64(size) <= int64(len(c.data)) && off&int64(size-1) == 0 {
		return c.data[off : off+int64(size)], nil
	}
	b, mem, err := fr.access(op, elem, addr, size, verb)
	if err == nil {
		c.id, c.base, c.data = int64(b.id), baseOf(b.id), b.data
	}
	return mem, err
}

func init() {
	register(compileLoad, "tt.load")
	register(compileStore, "tt.store")
	register(compileAtomicRMW, "tt.atomic_rmw")
	register(compileAtomicCAS, "tt.atomic_cas")
	register(compileAddPtr, "tt.addptr")
	register(compileMakeTensorPtr, "tt.make_tensor_ptr")
	register(compileAdvance, "tt.advance")
	register(compileMakeDesc, "tt.make_tensor_descriptor")
	register(compileDescLoad, "tt.descriptor_load")
	register(compileDescStore, "tt.descriptor_store")
}

// pointee returns the element type that a pointer or tensor of pointers points to.
func pointee(t tileir.Type) tileir.Type {
	return tileir.ElemType(t).(*tileir.PtrType).Elem()
}

// optSlot returns the slot of operand i, or -1 when op has fewer operands.
func optSlot(fc *fnc, op *tileir.Op, i int) int {
	if i < len(op.Operands) {
		return fc.use(op.Operands[i])
	}
	return -1
}

// masked reports whether element i is masked off.
func masked(fr *frame, mask, i int) bool {
	if mask < 0 {
		return false
	}
	m := fr.v[mask].i
	return m[min(i, len(m)-1)] == 0
}

// maskOf returns the mask tile's elements, or nil when every element is enabled: no mask
// operand, or a one-element (broadcast) mask that is true. all reports a one-element mask
// that is false.
func maskOf(fr *frame, mask int) (m []int64, off bool) {
	if mask < 0 {
		return nil, false
	}
	m = fr.v[mask].i
	if len(m) == 1 {
		return nil, m[0] == 0
	}
	return m, false
}

// run returns the end of the run of enabled elements at contiguous addresses that starts
// at element i (which is enabled).
func run(p, m []int64, i int, size int64) int {
	j := i + 1
	for j < len(p) && p[j] == p[j-1]+size && (m == nil || m[j] != 0) {
		j++
	}
	return j
}

// span returns the memory of n elements of size bytes from addr when they all lie,
// aligned, in one live buffer; otherwise the caller checks element by element, which
// names the first failing one.
func (fr *frame) span(addr int64, n, size int) ([]byte, bool) {
	bufs := fr.inst.l.bufs
	id := addr >> windowBits
	if addr <= 0 || id >= int64(len(bufs)) || bufs[id] == nil {
		return nil, false
	}
	data := bufs[id].data
	off := addr - baseOf(int(id))
	end := off + int64(n*size)
	if off < 0 || end > int64(len(data)) || off%int64(size) != 0 {
		return nil, false
	}
	return data[off:end], true
}

// compileLoad: runs of enabled elements at contiguous addresses (a whole row of a tile, or
// the whole tile) that lie in one buffer are decoded at once; others, and failures, go
// element by element.
func compileLoad(fc *fnc, op *tileir.Op) (step, error) {
	if isBlockPtr(op.Operands[0].Type) {
		return compileBlockLoad(fc, op)
	}
	io, err := ioOf(pointee(op.Operands[0].Type))
	if err != nil {
		return nil, err
	}
	ptr, mask, other, out := fc.use(op.Operands[0]), optSlot(fc, op, 1), optSlot(fc, op, 2), fc.use(op.Results[0])
	return func(fr *frame) error {
		p, o := fr.v[ptr].i, &fr.v[out]
		m, off := maskOf(fr, mask)
		for i := 0; i < len(p); {
			if off || (m != nil && m[i] == 0) {
				switch {
				case other >= 0 && io.float:
					o.f[i] = fr.v[other].f[i]
				case other >= 0:
					o.i[i] = fr.v[other].i[i]
				case io.float:
					o.f[i] = 0
				default:
					o.i[i] = 0
				}
				i++
				continue
			}
			var err error
			if i, err = transferRun(fr, op, &io, p, m, i, o, true); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

// transferRun moves the run of enabled elements that starts at i (see run)
// between t and memory: into t when read, else out of it. A run that lies in
// one buffer is decoded or encoded at once, any other element by element.
// It returns where the run ends.
func transferRun(fr *frame, op *tileir.Op, io *elemIO, p, m []int64, i int, t *tile, read bool) (int, error) {
	j := run(p, m, i, int64(io.size))
	if mem, ok := fr.span(p[i], j-i, io.size); ok {
		switch {
		case read && io.float:
			io.getRunF(mem, t.f[i:j])
		case read:
			io.getRunI(mem, t.i[i:j])
		case io.float:
			io.putRunF(mem, t.f[i:j])
		default:
			io.putRunI(mem, t.i[i:j])
		}
		return j, nil
	}
	verb := "write"
	if read {
		verb = "read"
	}
	var c cursor
	for ; i < j; i++ {
		mem, err := c.at(fr, op, i, p[i], io.size, verb)
		if err != nil {
			return i, err
		}
		switch {
		case read && io.float:
			t.f[i] = io.getF(mem)
		case read:
			t.i[i] = io.getI(mem)
		case io.float:
			io.putF(mem, t.f[i])
		default:
			io.putI(mem, t.i[i])
		}
	}
	return j, nil
}

// compileStore: as compileLoad, contiguous runs of enabled elements in one buffer are
// encoded at once.
func compileStore(fc *fnc, op *tileir.Op) (step, error) {
	if isBlockPtr(op.Operands[0].Type) {
		return compileBlockStore(fc, op)
	}
	io, err := ioOf(pointee(op.Operands[0].Type))
	if err != nil {
		return nil, err
	}
	ptr, val, mask := fc.use(op.Operands[0]), fc.use(op.Operands[1]), optSlot(fc, op, 2)
	return func(fr *frame) error {
		p, v := fr.v[ptr].i, &fr.v[val]
		m, off := maskOf(fr, mask)
		if off {
			return nil
		}
		for i := 0; i < len(p); {
			if m != nil && m[i] == 0 {
				i++
				continue
			}
			var err error
			if i, err = transferRun(fr, op, &io, p, m, i, v, false); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

// atomicFn combines the old memory value with the operand. Integer functions get the
// width-canonical values; float functions get and return float values (rounded after).
type atomicFn struct {
	i func(old, v int64, w int) int64
	f func(old, v float64) float64
}

var atomicOps = map[string]atomicFn{
	"add":  {i: func(o, v int64, _ int) int64 { return o + v }, f: func(o, v float64) float64 { return o + v }},
	"fadd": {f: func(o, v float64) float64 { return o + v }},
	"and":  {i: func(o, v int64, _ int) int64 { return o & v }},
	"or":   {i: func(o, v int64, _ int) int64 { return o | v }},
	"xor":  {i: func(o, v int64, _ int) int64 { return o ^ v }},
	"max":  {i: func(o, v int64, _ int) int64 { return max(o, v) }, f: maxNum},
	"min":  {i: func(o, v int64, _ int) int64 { return min(o, v) }, f: minNum},
	"umax": {i: func(o, v int64, w int) int64 { return umaxmin(o, v, w, true) }},
	"umin": {i: func(o, v int64, w int) int64 { return umaxmin(o, v, w, false) }},
	"exch": {i: func(_, v int64, _ int) int64 { return v }, f: func(_, v float64) float64 { return v }},
}

func umaxmin(a, b int64, w int, isMax bool) int64 {
	if (zext(a, w) > zext(b, w)) == isMax {
		return a
	}
	return b
}

func compileAtomicRMW(fc *fnc, op *tileir.Op) (step, error) {
	kind := op.EnumAttr("atomic_rmw_op")
	fn, ok := atomicOps[kind]
	s := tileir.ScalarOf(op.Operands[1].Type)
	if !ok || (s.IsFloat() && fn.f == nil) || (!s.IsFloat() && fn.i == nil) {
		return nil, fmt.Errorf("unsupported atomic %s on %s", kind, s)
	}
	io, err := ioOf(pointee(op.Operands[0].Type))
	if err != nil {
		return nil, err
	}
	ptr, val, mask, out := fc.use(op.Operands[0]), fc.use(op.Operands[1]), optSlot(fc, op, 2), fc.use(op.Results[0])
	round, wrap, w := rounder(s), wrapper(s), s.Bits()
	return func(fr *frame) error {
		v, o := &fr.v[val], &fr.v[out]
		for i, a := range fr.v[ptr].i {
			if masked(fr, mask, i) {
				continue
			}
			b, mem, err := fr.access(op, i, a, io.size, "atomic "+kind)
			if err != nil {
				return err
			}
			b.mu.Lock()
			if io.float {
				o.f[i] = io.getF(mem)
				io.putF(mem, round(fn.f(o.f[i], v.f[i])))
			} else {
				o.i[i] = io.getI(mem)
				io.putI(mem, wrap(fn.i(o.i[i], v.i[i], w)))
			}
			b.mu.Unlock()
		}
		return nil
	}, nil
}

func compileAtomicCAS(fc *fnc, op *tileir.Op) (step, error) {
	io, err := ioOf(pointee(op.Operands[0].Type))
	if err != nil {
		return nil, err
	}
	ptr, cmp, val, out := fc.use(op.Operands[0]), fc.use(op.Operands[1]), fc.use(op.Operands[2]), fc.use(op.Results[0])
	return func(fr *frame) error {
		c, v, o := &fr.v[cmp], &fr.v[val], &fr.v[out]
		for i, a := range fr.v[ptr].i {
			b, mem, err := fr.access(op, i, a, io.size, "atomic cas")
			if err != nil {
				return err
			}
			b.mu.Lock()
			if io.float { // compares bit patterns, as the hardware does
				o.f[i] = io.getF(mem)
				if math.Float64bits(o.f[i]) == math.Float64bits(c.f[i]) {
					io.putF(mem, v.f[i])
				}
			} else {
				o.i[i] = io.getI(mem)
				if o.i[i] == c.i[i] {
					io.putI(mem, v.i[i])
				}
			}
			b.mu.Unlock()
		}
		return nil
	}, nil
}

// elemSize is the size in bytes of what a pointer type points to.
func elemSize(t tileir.Type) int64 {
	switch e := pointee(t).(type) {
	case tileir.Scalar:
		return int64(max(e.Bits()/8, 1))
	}
	return 8
}

func compileAddPtr(fc *fnc, op *tileir.Op) (step, error) {
	size := elemSize(op.Operands[0].Type)
	ptr, off, out := fc.use(op.Operands[0]), fc.use(op.Operands[1]), fc.use(op.Results[0])
	if def := op.Operands[0].Def(); def != nil && def.Name == "tt.splat" && fc.onlyUsedAs(op.Operands[0], "tt.addptr", 0) {
		base := fc.use(def.Operands[0]) // the splat is not filled: read its scalar
		return func(fr *frame) error {
			p, o := fr.v[base].i[0], fr.v[out].i
			d := fr.v[off].i[:len(o)]
			for i := range o {
				o[i] = p + d[i]*size
			}
			return nil
		}, nil
	}
	return func(fr *frame) error {
		p, d, o := fr.v[ptr].i, fr.v[off].i, fr.v[out].i
		for i := range o {
			o[i] = p[i] + d[i]*size
		}
		return nil
	}, nil
}

// ---- block pointers (tt.make_tensor_ptr) ----

// blockPtr is a block pointer: a block of a strided tensor in memory at element offsets.
type blockPtr struct {
	base                    int64
	shape, strides, offsets []int64
}

func isBlockPtr(t tileir.Type) bool {
	p, ok := t.(*tileir.PtrType)
	if !ok {
		return false
	}
	_, ok = p.Elem().(*tileir.TensorType)
	return ok
}

func compileMakeTensorPtr(fc *fnc, op *tileir.Op) (step, error) {
	rank := (len(op.Operands) - 1) / 3
	base, rest, out := fc.use(op.Operands[0]), fc.uses(op.Operands[1:]), fc.use(op.Results[0])
	return func(fr *frame) error {
		bp := &blockPtr{base: fr.v[base].i[0], shape: make([]int64, rank), strides: make([]int64, rank), offsets: make([]int64, rank)}
		for d := range rank {
			bp.shape[d] = fr.v[rest[d]].i[0]
			bp.strides[d] = fr.v[rest[rank+d]].i[0]
			bp.offsets[d] = fr.v[rest[2*rank+d]].i[0]
		}
		fr.v[out].bp = bp
		return nil
	}, nil
}

func compileAdvance(fc *fnc, op *tileir.Op) (step, error) {
	ptr, offs, out := fc.use(op.Operands[0]), fc.uses(op.Operands[1:]), fc.use(op.Results[0])
	return func(fr *frame) error {
		old := fr.v[ptr].bp
		bp := &blockPtr{base: old.base, shape: old.shape, strides: old.strides, offsets: make([]int64, len(old.offsets))}
		for d, o := range offs {
			bp.offsets[d] = int64(int32(old.offsets[d] + fr.v[o].i[0]))
		}
		fr.v[out].bp = bp
		return nil
	}, nil
}

// blockAccess visits the elements of a block at coordinates offsets+index in a strided
// tensor: f gets the flat index and the address, or ok=false when a checked dimension is
// out of bounds.
type blockAccess struct {
	block    []int
	checked  []bool
	elemSize int64
}

func (ba *blockAccess) each(base int64, shape, strides, offsets []int64, f func(i int, addr int64, ok bool) error) error {
	n := 1
	for _, d := range ba.block {
		n *= d
	}
	idx := make([]int, len(ba.block))
	for i := range n {
		addr, ok := base, true
		for d, k := range idx {
			c := offsets[d] + int64(k)
			if ba.checked[d] && (c < 0 || c >= shape[d]) {
				ok = false
			}
			addr += c * strides[d] * ba.elemSize
		}
		if err := f(i, addr, ok); err != nil {
			return err
		}
		for d := len(idx) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < ba.block[d] {
				break
			}
			idx[d] = 0
		}
	}
	return nil
}

func newBlockAccess(block *tileir.TensorType, checkAll bool, checkDims tileir.Attr) (*blockAccess, elemIO, error) {
	io, err := ioOf(block.Elem())
	ba := &blockAccess{block: shapeOf(block), checked: make([]bool, len(block.Shape())), elemSize: int64(io.size)}
	for d := range ba.checked {
		ba.checked[d] = checkAll
	}
	if dims, ok := checkDims.(tileir.I32ArrayAttr); ok {
		for _, d := range dims {
			ba.checked[d] = true
		}
	}
	return ba, io, err
}

// fill writes the padding value into element i of t.
func fill(t *tile, i int, float bool, pad float64) {
	if float {
		t.f[i] = pad
	} else {
		t.i[i] = 0
	}
}

func compileBlockLoad(fc *fnc, op *tileir.Op) (step, error) {
	block := pointee(op.Operands[0].Type).(*tileir.TensorType)
	ba, io, err := newBlockAccess(block, false, op.Attr("boundaryCheck"))
	if err != nil {
		return nil, err
	}
	pad := 0.0
	if op.IntAttr("padding") == 2 {
		pad = math.NaN()
	}
	ptr, out := fc.use(op.Operands[0]), fc.use(op.Results[0])
	return func(fr *frame) error {
		bp, o := fr.v[ptr].bp, &fr.v[out]
		return ba.each(bp.base, bp.shape, bp.strides, bp.offsets, func(i int, addr int64, ok bool) error {
			return loadElem(fr, op, o, i, addr, ok, io, pad)
		})
	}, nil
}

func loadElem(fr *frame, op *tileir.Op, o *tile, i int, addr int64, ok bool, io elemIO, pad float64) error {
	if !ok {
		fill(o, i, io.float, pad)
		return nil
	}
	_, mem, err := fr.access(op, i, addr, io.size, "read")
	if err != nil {
		return err
	}
	if io.float {
		o.f[i] = io.getF(mem)
	} else {
		o.i[i] = io.getI(mem)
	}
	return nil
}

func storeElem(fr *frame, op *tileir.Op, v *tile, i int, addr int64, ok bool, io elemIO) error {
	if !ok {
		return nil
	}
	_, mem, err := fr.access(op, i, addr, io.size, "write")
	if err != nil {
		return err
	}
	if io.float {
		io.putF(mem, v.f[i])
	} else {
		io.putI(mem, v.i[i])
	}
	return nil
}

func compileBlockStore(fc *fnc, op *tileir.Op) (step, error) {
	block := pointee(op.Operands[0].Type).(*tileir.TensorType)
	ba, io, err := newBlockAccess(block, false, op.Attr("boundaryCheck"))
	if err != nil {
		return nil, err
	}
	ptr, val := fc.use(op.Operands[0]), fc.use(op.Operands[1])
	return func(fr *frame) error {
		bp, v := fr.v[ptr].bp, &fr.v[val]
		return ba.each(bp.base, bp.shape, bp.strides, bp.offsets, func(i int, addr int64, ok bool) error {
			return storeElem(fr, op, v, i, addr, ok, io)
		})
	}, nil
}

// ---- tensor descriptors ----

// tensorDesc is a TMA-style descriptor: a strided tensor in memory; every access is
// bounds-checked in every dimension (out-of-bounds elements read as zero and are not
// written).
type tensorDesc struct {
	base           int64
	shape, strides []int64
	nanPad         bool
}

// desc validates a launch argument for a tensor descriptor parameter.
func (l *launch) desc(td TensorDesc, t *tileir.TensorDescType, name string) (*tensorDesc, error) {
	rank := len(t.Block().Shape())
	if len(td.Shape) != rank || len(td.Strides) != rank {
		return nil, fmt.Errorf("descriptor of rank %d for a block of rank %d", len(td.Shape), rank)
	}
	addr, err := l.address(td.Buffer, name)
	if err != nil {
		return nil, err
	}
	return &tensorDesc{base: addr + int64(td.Offset), shape: td.Shape, strides: td.Strides}, nil
}

func compileMakeDesc(fc *fnc, op *tileir.Op) (step, error) {
	rank := (len(op.Operands) - 1) / 2
	base, rest, out := fc.use(op.Operands[0]), fc.uses(op.Operands[1:]), fc.use(op.Results[0])
	nan := op.EnumAttr("padding") == "nan" || op.IntAttr("padding") == 2
	return func(fr *frame) error {
		td := &tensorDesc{base: fr.v[base].i[0], shape: make([]int64, rank), strides: make([]int64, rank), nanPad: nan}
		for d := range rank {
			td.shape[d] = fr.v[rest[d]].i[0]
			td.strides[d] = fr.v[rest[rank+d]].i[0]
		}
		fr.v[out].td = td
		return nil
	}, nil
}

// descIndices reads the block's coordinates from the index operands.
func descIndices(fr *frame, idx []int) []int64 {
	out := make([]int64, len(idx))
	for d, s := range idx {
		out[d] = fr.v[s].i[0]
	}
	return out
}

func compileDescLoad(fc *fnc, op *tileir.Op) (step, error) {
	block := op.Results[0].Type.(*tileir.TensorType)
	ba, io, err := newBlockAccess(block, true, nil)
	if err != nil {
		return nil, err
	}
	desc, idx, out := fc.use(op.Operands[0]), fc.uses(op.Operands[1:]), fc.use(op.Results[0])
	if len(idx) != len(block.Shape()) {
		return nil, fmt.Errorf("%d indices for a block of rank %d", len(idx), len(block.Shape()))
	}
	return func(fr *frame) error {
		td, o := fr.v[desc].td, &fr.v[out]
		pad := 0.0
		if td.nanPad {
			pad = math.NaN()
		}
		return ba.each(td.base, td.shape, td.strides, descIndices(fr, idx), func(i int, addr int64, ok bool) error {
			return loadElem(fr, op, o, i, addr, ok, io, pad)
		})
	}, nil
}

func compileDescStore(fc *fnc, op *tileir.Op) (step, error) {
	block := op.Operands[1].Type.(*tileir.TensorType)
	ba, io, err := newBlockAccess(block, true, nil)
	if err != nil {
		return nil, err
	}
	desc, val, idx := fc.use(op.Operands[0]), fc.use(op.Operands[1]), fc.uses(op.Operands[2:])
	if len(idx) != len(block.Shape()) {
		return nil, fmt.Errorf("%d indices for a block of rank %d", len(idx), len(block.Shape()))
	}
	return func(fr *frame) error {
		td, v := fr.v[desc].td, &fr.v[val]
		return ba.each(td.base, td.shape, td.strides, descIndices(fr, idx), func(i int, addr int64, ok bool) error {
			return storeElem(fr, op, v, i, addr, ok, io)
		})
	}, nil
}
