package lower

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"

	"github.com/gotriton/gotriton/lower/isa"
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

// mmaEnc is the result layout of a dot's matrix instructions (Triton's #ttg.nvidia_mma,
// #ttg.amd_mfma), with the geometry the ISA's plan gives: each warp holds one
// instruction's M×N tile as C says, warps tile Warps of them (M first, or N first), and
// the tiles repeat over N, then M, then the batch. A batched (3-D) dot leads with its
// batch dimension, one batch element per warp and instruction.
type mmaEnc struct {
	isa.MMALayout
}

func (e *mmaEnc) String() string { return fmt.Sprintf(e.Encoding, ints(e.Warps)) }

// tile is the extent of one instruction's tile along dimension d of a rank-r result
// (1 along the batch).
func (e *mmaEnc) tile(d, rank int) int {
	switch d {
	case rank - 2:
		return e.M
	case rank - 1:
		return e.N
	}
	return 1
}

// warpDims lists the dimensions of a rank-r result in the order the warp index steps
// along them.
func (e *mmaEnc) warpDims(rank int) []int {
	m, n := rank-2, rank-1
	d := []int{m, n}
	if e.WarpsNFirst {
		d = []int{n, m}
	}
	if rank == 3 {
		d = append(d, 0)
	}
	return d
}

func (e *mmaEnc) linear(shape []int) *linLayout {
	b := newLL(shape)
	rank := len(shape)
	m, n := rank-2, rank-1
	b.l.reg = b.frag(e.C.Reg, m, n)
	b.l.lane = b.frag(e.C.Lane, m, n)
	for _, d := range e.warpDims(rank) {
		b.add(&b.l.warp, d, e.Warps[d], e.tile(d, rank), false)
	}
	for _, d := range []int{n, m, 0}[:rank] {
		step := e.tile(d, rank) * e.Warps[d]
		b.add(&b.l.reg, d, max(shape[d]/step, 1), step, true)
	}
	b.l.reg = slices.DeleteFunc(b.l.reg, isZero)
	return b.l
}

// frag maps the bases of an instruction's fragment to the tensor's dimensions: a
// basis's row to dimension row, its column to col.
func (b llBuilder) frag(bases [][2]int, row, col int) [][]int {
	out := make([][]int, len(bases))
	for i, v := range bases {
		u := b.unit(row, v[0])
		if c := b.unit(col, v[1]); c[col] != 0 {
			u[col] = c[col]
		}
		out[i] = u
	}
	return out
}

// dotOpEnc is Triton's #ttg.dot_op: operand opIdx (0 for A, 1 for B) of a tt.dot whose
// result has the parent encoding. For an mma parent, each lane holds kWidth consecutive
// K elements in one packed register, and frag is the instruction's fragment of the
// operand (of K k); for a blocked parent (the FMA path) each thread holds the whole K
// extent of its rows or columns.
type dotOpEnc struct {
	opIdx  int
	parent encoding
	kWidth int
	frag   isa.Fragment
	k      int
}

// mmaOperand returns the encoding of operand opIdx of a dot of plan p with result
// encoding parent.
func mmaOperand(opIdx int, parent *mmaEnc, p isa.MMAPlan) *dotOpEnc {
	f := p.Layout.A
	if opIdx == 1 {
		f = p.Layout.B
	}
	return &dotOpEnc{opIdx: opIdx, parent: parent, kWidth: p.KWidth, frag: f, k: p.K}
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

// mmaOperand places the instruction's fragment of the operand (A as M×K, B as K×N) in
// every warp; warps split A's rows and B's columns as the parent's do (each holding its
// whole K), and the batch, if any; the fragment repeats over K, then over the non-K
// dimension, then the batch.
func (e *dotOpEnc) mmaOperand(p *mmaEnc, shape []int, kDim, nonK int) *linLayout {
	b := newLL(shape)
	rank := len(shape)
	row, col := nonK, kDim
	if e.opIdx == 1 {
		row, col = kDim, nonK
	}
	b.l.reg = b.frag(e.frag.Reg, row, col)
	b.l.lane = b.frag(e.frag.Lane, row, col)
	zero := make([]int, rank)
	for _, d := range p.warpDims(rank) {
		for i := 1; i < p.Warps[d]; i *= 2 {
			if d == nonK || d == 0 && rank == 3 {
				b.l.warp = append(b.l.warp, b.unit(d, p.tile(d, rank)*i))
			} else {
				b.l.warp = append(b.l.warp, zero)
			}
		}
	}
	b.add(&b.l.reg, kDim, max(shape[kDim]/e.k, 1), e.k, true)
	tileNonK := p.tile(nonK, rank) * p.Warps[nonK]
	b.add(&b.l.reg, nonK, max(shape[nonK]/tileNonK, 1), tileNonK, true)
	if rank == 3 {
		b.add(&b.l.reg, 0, max(shape[0]/p.Warps[0], 1), p.Warps[0], true)
	}
	b.l.reg = slices.DeleteFunc(b.l.reg, isZero)
	return b.l
}

// log2 of a power of two.
func log2(n int) int { return bits.TrailingZeros(uint(n)) }
