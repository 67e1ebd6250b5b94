package lower

import (
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

// lowerScan computes a prefix scan through shared memory: the operands are written out
// row-major, each thread scans whole lines along the axis (lines dealt round robin), and
// the results are read back. It is simple rather than fast (Triton scans in registers and
// shuffles); none of our kernels scans.
func lowerScan(g *gen, op *tileir.Op) error {
	axis := int(op.IntAttr("axis"))
	reverse := op.Attr("reverse") == tileir.BoolAttr(true)
	in0 := op.Operands[0]
	e := g.enc[in0]
	l := g.layoutOf(in0)
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
	sts := make([]types.Type, n)
	bases := make([]int, n)
	need := 0
	for i, v := range op.Operands {
		ins[i] = g.in(v, e)
		sts[i] = storableType(ins[i][0].Type())
		bases[i] = need
		need += (total*byteSize(sts[i]) + 15) &^ 15
	}
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
