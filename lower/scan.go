package lower

import (
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

func init() {
	lowerings["tt.scan"] = lowerScan
}

// lowerScan computes a prefix scan (inclusive; reverse: from the end) in registers
// where the operands' layout allows it (scanRegisters), else through shared memory
// (scanShared).
func lowerScan(g *gen, op *tileir.Op) error {
	axis := int(op.IntAttr("axis"))
	reverse := op.Attr("reverse") == tileir.BoolAttr(true)
	l := g.layoutOf(op.Operands[0])
	if bits, ok := scanBits(l, axis); ok {
		return g.scanRegisters(op, l, bits, reverse)
	}
	return g.scanShared(op, l, axis, reverse)
}

// scanBit is where one bit of the coordinate along the scan's axis comes from: the
// index of a register, lane or warp basis (kind).
type scanBit struct {
	kind  basisKind
	index int
}

type basisKind int

const (
	regBasis basisKind = iota
	laneBasis
	warpBasis
)

// scanBits returns, for each bit of the coordinate along axis, least significant first,
// the basis of l that provides it. It reports false unless every basis with a component
// along axis is a unit step along axis alone, one basis per bit.
func scanBits(l *linLayout, axis int) ([]scanBit, bool) {
	bits := make([]scanBit, log2(l.shape[axis]))
	found := make([]bool, len(bits))
	for kind, bases := range [][][]int{l.reg, l.lane, l.warp} {
		for i, b := range bases {
			if b[axis] == 0 {
				continue
			}
			for d, x := range b {
				if d != axis && x != 0 {
					return nil, false
				}
			}
			j := log2(b[axis])
			if b[axis] != 1<<j || j >= len(bits) || found[j] {
				return nil, false
			}
			found[j], bits[j] = true, scanBit{basisKind(kind), i}
		}
	}
	return bits, !slices.Contains(found, false)
}

// scanRegisters scans along the axis whose coordinate bits come from bits, as a
// butterfly over them, least significant first: every element keeps its prefix within
// its block of 2^j elements along the axis and the block's total; at bit j it gets the
// total of the sibling block (the element whose coordinate differs in bit j: another
// register, a lane's by a shuffle, or a warp's through shared memory), and the later
// block of the two (higher coordinates; reverse: lower) combines it into its prefix.
// Both blocks combine the earlier total with the later into their new total.
func (g *gen) scanRegisters(op *tileir.Op, l *linLayout, bits []scanBit, reverse bool) error {
	e := g.enc[op.Operands[0]]
	n := len(op.Operands)
	prefix, total := make([][]value.Value, n), make([][]value.Value, n)
	for i, v := range op.Operands {
		prefix[i] = slices.Clone(g.in(v, e))
		total[i] = slices.Clone(prefix[i])
	}
	regs := len(prefix[0])
	at := func(vals [][]value.Value, r int) []value.Value {
		out := make([]value.Value, n)
		for i := range vals {
			out[i] = vals[i][r]
		}
		return out
	}
	set := func(vals [][]value.Value, r int, x []value.Value) {
		for i := range vals {
			vals[i][r] = x[i]
		}
	}
	commutative := commutativeCombiner(op.Regions[0].Entry())
	var idx []value.Value // the registers' element indices, for exchanges across warps
	for _, b := range bits {
		if b.kind == regBasis {
			m := 1 << b.index
			for r := range regs {
				if r&m != 0 {
					continue
				}
				early, late := r, r|m // the registers of the earlier and later blocks
				if reverse {
					early, late = late, early
				}
				t, err := g.combine(op, at(total, early), at(total, late))
				if err != nil {
					return err
				}
				p, err := g.combine(op, at(total, early), at(prefix, late))
				if err != nil {
					return err
				}
				set(prefix, late, p)
				set(total, early, t)
				set(total, late, t)
			}
			continue
		}
		// the sibling's totals, and whether this thread's block is the later one
		sibling := make([][]value.Value, n)
		var id value.Value
		if b.kind == laneBasis {
			id = g.lane
			for i := range total {
				sibling[i] = make([]value.Value, regs)
				shuffled := map[value.Value]value.Value{} // registers of one block share their total
				for r, v := range total[i] {
					if sibling[i][r] = shuffled[v]; sibling[i][r] == nil {
						sibling[i][r] = g.shuffleXor(v, 1<<b.index)
						shuffled[v] = sibling[i][r]
					}
				}
			}
		} else {
			id = g.warp
			if idx == nil {
				idx = g.indexValues(g.linearIndex(l, nil, nil))
			}
			sibling = g.exchangeAcrossWarps(total, idx, l.warp[b.index], l)
		}
		pred := enum.IPredNE // the later block: bit set (reverse: clear)
		if reverse {
			pred = enum.IPredEQ
		}
		late := g.cur.NewICmp(pred, g.cur.NewAnd(id, i32c(int64(1)<<b.index)), i32c(0))
		type newTotal struct{ own, t []value.Value }
		var totals []newTotal // the new total of each distinct total: registers of a block share it
		for r := range regs {
			own, sib := at(total, r), at(sibling, r)
			var t []value.Value
			for _, nt := range totals {
				if slices.Equal(nt.own, own) {
					t = nt.t
					break
				}
			}
			if t == nil {
				left, right := own, sib // the order does not matter to a commutative combiner
				if !commutative {
					left, right = make([]value.Value, n), make([]value.Value, n)
					for i := range n {
						left[i] = g.cur.NewSelect(late, sib[i], own[i])
						right[i] = g.cur.NewSelect(late, own[i], sib[i])
					}
				}
				var err error
				if t, err = g.combine(op, left, right); err != nil {
					return err
				}
				totals = append(totals, newTotal{own, t})
			}
			p, err := g.combine(op, sib, at(prefix, r))
			if err != nil {
				return err
			}
			for i := range n {
				p[i] = g.cur.NewSelect(late, p[i], prefix[i][r])
			}
			set(prefix, r, p)
			set(total, r, t)
		}
	}
	for i, res := range op.Results {
		g.vals[res] = g.convert(prefix[i], l, g.layoutOf(res))
	}
	return nil
}

// commutativeOps are the ops whose two operands may be swapped without changing the
// result's bits.
var commutativeOps = map[string]bool{"arith.addf": true, "arith.mulf": true, "arith.addi": true, "arith.muli": true,
	"arith.andi": true, "arith.ori": true, "arith.xori": true, "arith.maxsi": true, "arith.minsi": true,
	"arith.maxui": true, "arith.minui": true, "arith.maximumf": true, "arith.minimumf": true}

// commutativeCombiner reports whether combiner region blk (arguments a, b) is one
// commutative op of a and b whose result it returns: combine(a, b) == combine(b, a).
func commutativeCombiner(blk *tileir.Block) bool {
	ops := blk.Ops
	if len(blk.Args) != 2 || len(ops) != 2 {
		return false
	}
	op, ret := ops[0], ops[1]
	if !commutativeOps[op.Name] || len(op.Operands) != 2 || len(ret.Operands) != 1 || ret.Operands[0] != op.Results[0] {
		return false
	}
	a, b := op.Operands[0], op.Operands[1]
	return a == blk.Args[0] && b == blk.Args[1] || a == blk.Args[1] && b == blk.Args[0]
}

// exchangeAcrossWarps returns, for every register of vals (one list per operand, in
// layout l, whose elements have indices idx), the value of the element whose
// coordinates differ by the warp basis step: stored to and read from the shared scratch
// buffer at the elements' row-major indices.
func (g *gen) exchangeAcrossWarps(vals [][]value.Value, idx []value.Value, step []int, l *linLayout) [][]value.Value {
	flip := 0 // the step's row-major index: a single bit, as each dimension is a power of two
	stride := 1
	for d := len(l.shape) - 1; d >= 0; d-- {
		flip += step[d] * stride
		stride *= l.shape[d]
	}
	sts, bases, need := scanRegions(vals, numel(l.shape))
	g.smemBarrier()
	for i := range vals {
		for r, v := range vals[i] {
			g.Store(g.toStorable(v), g.smemPtr(sts[i], bases[i], idx[r], need))
		}
	}
	g.barrier()
	out := make([][]value.Value, len(vals))
	for i := range vals {
		out[i] = make([]value.Value, len(vals[i]))
		for r := range vals[i] {
			at := g.cur.NewXor(idx[r], i32c(int64(flip)))
			out[i][r] = g.fromStorable(g.load(sts[i], g.smemPtr(sts[i], bases[i], at, need)), vals[i][r].Type())
		}
	}
	return out
}

// scanRegions lays out one region of the shared scratch buffer per operand (vals, in
// registers) for numel elements: their storable types, their offsets (16-byte aligned)
// and the bytes they need together.
func scanRegions(vals [][]value.Value, numel int) (sts []types.Type, bases []int, need int) {
	sts, bases = make([]types.Type, len(vals)), make([]int, len(vals))
	for i := range vals {
		sts[i] = storableType(vals[i][0].Type())
		bases[i] = need
		need += (numel*byteSize(sts[i]) + 15) &^ 15
	}
	return sts, bases, need
}

// scanShared computes a prefix scan through shared memory: the operands are written out
// row-major, each thread scans whole lines along the axis (lines dealt round robin), and
// the results are read back.
func (g *gen) scanShared(op *tileir.Op, l *linLayout, axis int, reverse bool) error {
	e := g.enc[op.Operands[0]]
	size, stride := l.shape[axis], 1
	for _, d := range l.shape[axis+1:] {
		stride *= d
	}
	total := numel(l.shape)
	lines := total / size
	idx := g.indexValues(g.linearIndex(l, nil, nil))
	// one shared region per operand
	n := len(op.Operands)
	ins := make([][]value.Value, n)
	for i, v := range op.Operands {
		ins[i] = g.in(v, e)
	}
	sts, bases, need := scanRegions(ins, total)
	at := func(i int, pos value.Value) value.Value { return g.smemPtr(sts[i], bases[i], pos, need) }
	g.smemBarrier()
	for i := range ins {
		for r, v := range ins[i] {
			g.Store(g.toStorable(v), at(i, idx[r]))
		}
	}
	g.barrier()
	// for line := tid; line < lines; line += threads
	nt := int64(g.opts.NumWarps * g.t.WarpSize)
	pre, lineHead, lineBody, kHead, kBody, kExit, done := g.cur, g.f.NewBlock(""), g.f.NewBlock(""), g.f.NewBlock(""), g.f.NewBlock(""), g.f.NewBlock(""), g.f.NewBlock("")
	pre.NewBr(lineHead)
	line := lineHead.NewPhi(ir.NewIncoming(g.tid, pre))
	lineHead.NewCondBr(lineHead.NewICmp(enum.IPredSLT, line, i32c(int64(lines))), lineBody, done)
	g.cur = lineBody
	outer := g.cur.NewUDiv(line, i32c(int64(stride)))
	inner := g.cur.NewURem(line, i32c(int64(stride)))
	start := g.cur.NewAdd(g.cur.NewMul(outer, i32c(int64(size*stride))), inner)
	g.cur.NewBr(kHead)
	k := kHead.NewPhi(ir.NewIncoming(i32c(0), lineBody))
	accs := make([]*ir.InstPhi, n)
	for i := range accs {
		accs[i] = kHead.NewPhi(ir.NewIncoming(constant.NewUndef(ins[i][0].Type()), lineBody))
	}
	kHead.NewCondBr(kHead.NewICmp(enum.IPredSLT, k, i32c(int64(size))), kBody, kExit)
	g.cur = kBody
	var kk value.Value = k
	if reverse {
		kk = g.cur.NewSub(i32c(int64(size-1)), k)
	}
	pos := g.cur.NewAdd(start, g.cur.NewMul(kk, i32c(int64(stride))))
	xs, prev := make([]value.Value, n), make([]value.Value, n)
	for i := range xs {
		xs[i] = g.fromStorable(g.load(sts[i], at(i, pos)), ins[i][0].Type())
		prev[i] = accs[i]
	}
	comb, err := g.combine(op, prev, xs)
	if err != nil {
		return err
	}
	first := g.cur.NewICmp(enum.IPredEQ, k, i32c(0))
	for i := range comb {
		comb[i] = g.cur.NewSelect(first, xs[i], comb[i])
		g.Store(g.toStorable(comb[i]), at(i, pos))
	}
	next := g.cur.NewAdd(k, i32c(1))
	g.cur.NewBr(kHead)
	k.Incs = append(k.Incs, ir.NewIncoming(next, g.cur))
	for i := range accs {
		accs[i].Incs = append(accs[i].Incs, ir.NewIncoming(comb[i], g.cur))
	}
	nextLine := kExit.NewAdd(line, i32c(nt))
	kExit.NewBr(lineHead)
	line.Incs = append(line.Incs, ir.NewIncoming(nextLine, kExit))
	g.cur = done
	g.barrier()
	for i, res := range op.Results {
		out := make([]value.Value, len(idx))
		for r := range out {
			out[r] = g.fromStorable(g.load(sts[i], at(i, idx[r])), ins[i][0].Type())
		}
		g.vals[res] = g.convert(out, l, g.layoutOf(res))
	}
	return nil
}
