package lower

import (
	"math/bits"
	"slices"
	"strconv"
)

// An encoding says how the elements of a tensor are spread over the registers, lanes and
// warps of a block, as Triton's TritonGPU layout attributes do. Encodings do not depend on
// the tensor's shape; linear gives the concrete mapping for one shape.
type encoding interface {
	// String returns the encoding in TTGIR's notation; equal encodings print the same.
	String() string
	// linear returns the encoding's mapping for a tensor of the given shape.
	linear(shape []int) *linLayout
}

// linLayout is a linear layout (Triton's LinearLayout for one CTA): the coordinate of the
// element held by register r of lane l in warp w is the XOR of the basis vectors of the set
// bits of r, l and w. A zero lane or warp basis means those threads hold copies.
type linLayout struct {
	shape           []int
	reg, lane, warp [][]int

	coords [][]int // every register's regCoord, made on first use
	index  *regIdx // regIndex, made on first use
	ints   []int   // the builder's storage for bases, a chunk at a time
}

func (l *linLayout) numRegs() int { return 1 << len(l.reg) }

// regCoord returns the coordinate contributed by register index r. The slice is shared:
// callers must not modify it.
func (l *linLayout) regCoord(r int) []int {
	if l.coords == nil {
		n, rank := l.numRegs(), len(l.shape)
		buf := make([]int, n*rank)
		l.coords = make([][]int, n)
		for i := range n {
			l.coords[i] = buf[i*rank : (i+1)*rank : (i+1)*rank]
			copy(l.coords[i], xorBases(l.reg, i, rank))
		}
	}
	return l.coords[r]
}

func xorBases(bases [][]int, idx, rank int) []int {
	c := make([]int, rank)
	for b, v := range bases {
		if idx>>b&1 != 0 {
			for d := range c {
				c[d] ^= v[d]
			}
		}
	}
	return c
}

// regIdx finds the register that holds a coordinate's register part.
type regIdx struct {
	shape []int
	regs  map[int]int32 // row-major index of the register part → register
}

// regIndex indexes the registers of l by the coordinate they contribute.
func (l *linLayout) regIndex() regIdx {
	if l.index == nil {
		x := regIdx{shape: l.shape, regs: make(map[int]int32, l.numRegs())}
		for r := range l.numRegs() {
			x.regs[x.flat(l.regCoord(r))] = int32(r)
		}
		l.index = &x
	}
	return *l.index
}

// flat returns the row-major index of c, or -1 when c lies outside the shape.
func (x regIdx) flat(c []int) int {
	f := 0
	for d, n := range x.shape {
		if c[d] < 0 || c[d] >= n {
			return -1
		}
		f = f*n + c[d]
	}
	return f
}

// of returns the register whose coordinate is c.
func (x regIdx) of(c []int) (int, bool) {
	r, ok := x.regs[x.flat(c)]
	return int(r), ok
}

// coordKey encodes a coordinate as a map key (one comma-terminated decimal per dimension).
func coordKey(c []int) string {
	var buf [64]byte
	b := buf[:0]
	for _, x := range c {
		b = strconv.AppendInt(b, int64(x), 10)
		b = append(b, ',')
	}
	return string(b)
}

// threadMask returns, per dimension, the bits that lanes and warps may set.
func (l *linLayout) threadMask() []int {
	m := make([]int, len(l.shape))
	for _, bs := range [][][]int{l.lane, l.warp} {
		for _, v := range bs {
			for d := range m {
				m[d] |= v[d]
			}
		}
	}
	return m
}

func (l *linLayout) equal(o *linLayout) bool {
	eq := func(a, b [][]int) bool {
		return slices.EqualFunc(a, b, func(x, y []int) bool { return slices.Equal(x, y) })
	}
	return slices.Equal(l.shape, o.shape) && eq(l.reg, o.reg) && eq(l.lane, o.lane) && eq(l.warp, o.warp)
}

// sameThreads reports whether two layouts of one shape give every thread the same set of
// elements, so that converting between them only renumbers registers.
func (l *linLayout) sameThreads(o *linLayout) bool {
	eq := func(a, b [][]int) bool {
		return slices.EqualFunc(a, b, func(x, y []int) bool { return slices.Equal(x, y) })
	}
	if !slices.Equal(l.shape, o.shape) || !eq(l.lane, o.lane) || !eq(l.warp, o.warp) || len(l.reg) != len(o.reg) {
		return false
	}
	idx := l.regIndex()
	for r := range o.numRegs() {
		if _, ok := idx.of(o.regCoord(r)); !ok {
			return false
		}
	}
	return true
}

// builder for linear layouts: bases are appended per input dimension, and any basis that
// reaches past the shape becomes zero (lanes, warps) or is dropped (registers).
type llBuilder struct{ l *linLayout }

func newLL(shape []int) llBuilder { return llBuilder{&linLayout{shape: slices.Clone(shape)}} }

func (b llBuilder) unit(dim, v int) []int {
	n := len(b.l.shape)
	if len(b.l.ints) < n {
		b.l.ints = make([]int, 16*n)
	}
	u := b.l.ints[:n:n]
	b.l.ints = b.l.ints[n:]
	if v < b.l.shape[dim] {
		u[dim] = v
	}
	return u
}

// add appends log2(n) bases along dim, starting at stride, to the given input.
func (b llBuilder) add(in *[][]int, dim, n, stride int, dropZero bool) {
	for i := 1; i < n; i *= 2 {
		u := b.unit(dim, stride*i)
		if dropZero && isZero(u) {
			continue
		}
		*in = append(*in, u)
	}
}

func isZero(v []int) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// blocked is Triton's #ttg.blocked: each thread holds sizePerThread contiguous elements,
// threadsPerWarp and warpsPerCTA tile those, and the tile repeats to cover the shape.
// order lists the dimensions fastest first.
type blocked struct {
	spt, tpw, wpc, order []int
}

func (e *blocked) String() string {
	return "#ttg.blocked<{sizePerThread = " + ints(e.spt) + ", threadsPerWarp = " + ints(e.tpw) +
		", warpsPerCTA = " + ints(e.wpc) + ", order = " + ints(e.order) + "}>"
}

// ints prints v as [1, 2, 3].
func ints(v []int) string {
	b := make([]byte, 0, 4*len(v)+2)
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(append(b, ']'))
}

func (e *blocked) linear(shape []int) *linLayout {
	b := newLL(shape)
	for _, d := range e.order {
		b.add(&b.l.reg, d, e.spt[d], 1, true)
	}
	for _, d := range e.order {
		b.add(&b.l.lane, d, e.tpw[d], e.spt[d], false)
	}
	for _, d := range e.order {
		b.add(&b.l.warp, d, e.wpc[d], e.spt[d]*e.tpw[d], false)
	}
	for _, d := range e.order {
		tile := e.spt[d] * e.tpw[d] * e.wpc[d]
		b.add(&b.l.reg, d, max(shape[d]/tile, 1), tile, true)
	}
	return b.l
}

// newBlocked distributes threads and warps over shape as Triton's BlockedEncodingAttr
// builder does: fastest dimension first, leftovers to the slowest one.
func newBlocked(shape, spt, order []int, numWarps, warpSize int) *blocked {
	rank := len(shape)
	e := &blocked{spt: slices.Clone(spt), tpw: make([]int, rank), wpc: make([]int, rank), order: slices.Clone(order)}
	lanes, threads, warps := warpSize, numWarps*warpSize, numWarps
	prevLanes, prevWarps := 1, 1
	for _, i := range order[:rank-1] {
		perCTA := clamp(threads, 1, max(1, shape[i]/spt[i]))
		e.tpw[i] = clamp(perCTA, 1, lanes)
		e.wpc[i] = clamp(perCTA/e.tpw[i], 1, warps)
		warps /= e.wpc[i]
		lanes /= e.tpw[i]
		threads /= perCTA
		prevLanes *= e.tpw[i]
		prevWarps *= e.wpc[i]
	}
	last := order[rank-1]
	e.tpw[last] = warpSize / prevLanes
	e.wpc[last] = numWarps / prevWarps
	return e
}

func clamp(x, lo, hi int) int { return min(max(x, lo), hi) }

// defaultOrder is [rank-1, ..., 0]: the last dimension fastest.
func defaultOrder(rank int) []int {
	o := make([]int, rank)
	for i := range o {
		o[i] = rank - 1 - i
	}
	return o
}

// sliceEnc is Triton's #ttg.slice: the parent layout with dimension dim removed, as the
// result of a reduction along dim or the operand of expand_dims.
type sliceEnc struct {
	dim    int
	parent encoding
}

func (e *sliceEnc) String() string {
	return "#ttg.slice<{dim = " + strconv.Itoa(e.dim) + ", parent = " + e.parent.String() + "}>"
}

func (e *sliceEnc) linear(shape []int) *linLayout {
	ps := slices.Insert(slices.Clone(shape), e.dim, 1)
	p := e.parent.linear(ps)
	drop := func(bs [][]int, keepZero bool) [][]int {
		var out [][]int
		for _, v := range bs {
			v = slices.Delete(slices.Clone(v), e.dim, e.dim+1)
			if keepZero || !isZero(v) {
				out = append(out, v)
			}
		}
		return out
	}
	return &linLayout{shape: slices.Clone(shape), reg: drop(p.reg, false), lane: drop(p.lane, true), warp: drop(p.warp, true)}
}

// mmaEnc is Triton's #ttg.nvidia_mma version 2: the accumulator fragments of mma.sync
// m16n8kK, one 16×8 tile per warp and instruction, warps tiled warpsPerCTA. A batched
// (3-D) dot leads with its batch dimension, one batch element per warp and instruction.
type mmaEnc struct {
	wpc []int // warps along M, N, or along batch, M, N
}

func (e *mmaEnc) String() string {
	instr := "[16, 8]"
	if len(e.wpc) == 3 {
		instr = "[1, 16, 8]"
	}
	return "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = " + ints(e.wpc) + ", instrShape = " + instr + "}>"
}

// linear: lane l holds rows l/4 and l/4+8, columns 2(l%4) and 2(l%4)+1. Warps tile M, then
// N, then the batch; the tile repeats over N, then M, then the batch.
func (e *mmaEnc) linear(shape []int) *linLayout {
	b := newLL(shape)
	rank := len(shape)
	m, n := rank-2, rank-1
	b.l.reg = [][]int{b.unit(n, 1), b.unit(m, 8)}
	b.l.lane = [][]int{b.unit(n, 2), b.unit(n, 4), b.unit(m, 1), b.unit(m, 2), b.unit(m, 4)}
	b.add(&b.l.warp, m, e.wpc[m], 16, false)
	b.add(&b.l.warp, n, e.wpc[n], 8, false)
	if rank == 3 {
		b.add(&b.l.warp, 0, e.wpc[0], 1, false)
	}
	b.add(&b.l.reg, n, max(shape[n]/(8*e.wpc[n]), 1), 8*e.wpc[n], true)
	b.add(&b.l.reg, m, max(shape[m]/(16*e.wpc[m]), 1), 16*e.wpc[m], true)
	if rank == 3 {
		b.add(&b.l.reg, 0, max(shape[0]/e.wpc[0], 1), e.wpc[0], true)
	}
	b.l.reg = slices.DeleteFunc(b.l.reg, isZero)
	return b.l
}

// dotOpEnc is Triton's #ttg.dot_op: operand opIdx (0 for A, 1 for B) of a tt.dot whose
// result has the parent encoding. For an mma parent, kWidth is the number of consecutive
// K elements a lane holds in one 32-bit register (4 for 8-bit inputs, 2 for 16-bit, 1 for
// tf32); for a blocked parent (the FMA path) each thread holds the whole K extent of its
// rows or columns.
type dotOpEnc struct {
	opIdx  int
	parent encoding
	kWidth int
}

func (e *dotOpEnc) String() string {
	return "#ttg.dot_op<{opIdx = " + strconv.Itoa(e.opIdx) + ", parent = " + e.parent.String() + ", kWidth = " + strconv.Itoa(e.kWidth) + "}>"
}

func (e *dotOpEnc) linear(shape []int) *linLayout {
	// K is A's last dimension and B's second to last (a batched dot leads with its batch).
	rank := len(shape)
	kDim, nonK := rank-1, rank-2
	if e.opIdx == 1 {
		kDim, nonK = rank-2, rank-1
	}
	switch p := e.parent.(type) {
	case *mmaEnc:
		return e.mmaOperand(p, shape, kDim, nonK)
	default:
		// FMA: the parent's mapping of the non-K dimension, every K element in registers.
		ps := slices.Clone(shape)
		ps[kDim] = 1
		l := p.linear(ps)
		b := llBuilder{l}
		l.shape = slices.Clone(shape)
		b.add(&l.reg, kDim, shape[kDim], 1, true)
		return l
	}
}

// mmaOperand gives the A (16×K) and B (K×8) fragments of mma.sync m16n8k(8·kWidth), g =
// lane/4 and t = lane%4: each register packs kWidth consecutive K elements, lane t holding
// K kWidth·t onwards, and the registers step over the rest of the fragment. A's registers
// are rows g, g+8, g, g+8 at K +0, +0, +4·kWidth, +4·kWidth; B's are K +0 and +4·kWidth of
// column g. With kWidth 2 (16-bit inputs, k16) A's elements are (g, 2t), (g, 2t+1),
// (g+8, 2t), (g+8, 2t+1), then the same 8 columns further; with kWidth 1 (tf32, k8)
// (g, t), (g+8, t), (g, t+4), (g+8, t+4); with kWidth 4 (8-bit, k32) (g, 4t..4t+3),
// (g+8, 4t..4t+3), then 16 columns further. Warps split A's rows and B's columns as the
// parent's do (each holding its whole K) and the batch, if any.
func (e *dotOpEnc) mmaOperand(p *mmaEnc, shape []int, kDim, nonK int) *linLayout {
	b := newLL(shape)
	rank := len(shape)
	m, n := rank-2, rank-1
	kk := 8 * e.kWidth // K per instruction
	b.add(&b.l.reg, kDim, e.kWidth, 1, true)
	if e.opIdx == 0 {
		b.l.reg = append(b.l.reg, b.unit(m, 8))
	}
	b.l.reg = append(b.l.reg, b.unit(kDim, 4*e.kWidth))
	b.l.lane = [][]int{b.unit(kDim, e.kWidth), b.unit(kDim, 2*e.kWidth), b.unit(nonK, 1), b.unit(nonK, 2), b.unit(nonK, 4)}
	tileNonK := []int{16, 8}[e.opIdx]
	zero := make([]int, rank)
	for i := 1; i < p.wpc[m]; i *= 2 {
		if e.opIdx == 0 {
			b.l.warp = append(b.l.warp, b.unit(m, 16*i))
		} else {
			b.l.warp = append(b.l.warp, zero)
		}
	}
	for i := 1; i < p.wpc[n]; i *= 2 {
		if e.opIdx == 1 {
			b.l.warp = append(b.l.warp, b.unit(n, 8*i))
		} else {
			b.l.warp = append(b.l.warp, zero)
		}
	}
	if rank == 3 {
		b.add(&b.l.warp, 0, p.wpc[0], 1, false)
	}
	b.add(&b.l.reg, kDim, max(shape[kDim]/kk, 1), kk, true)
	w := p.wpc[nonK]
	b.add(&b.l.reg, nonK, max(shape[nonK]/(tileNonK*w), 1), tileNonK*w, true)
	if rank == 3 {
		b.add(&b.l.reg, 0, max(shape[0]/p.wpc[0], 1), p.wpc[0], true)
	}
	b.l.reg = slices.DeleteFunc(b.l.reg, isZero)
	return b.l
}

// log2 of a power of two.
func log2(n int) int { return bits.TrailingZeros(uint(n)) }
