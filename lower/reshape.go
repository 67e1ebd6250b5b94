package lower

import (
	"slices"
	"strings"

	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

func init() {
	lowerings["tt.trans"] = lowerTrans
	lowerings["tt.reshape"] = lowerReshape
	lowerings["tt.join"] = lowerJoin
	lowerings["tt.split"] = lowerSplit
	lowerings["tt.cat"] = lowerCat
	lowerings["tt.elementwise_inline_asm"] = lowerInlineAsm
}

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// offset adds a constant to every index.
func (g *gen) offset(x index, k int) index {
	if x.offs != nil {
		x.offs = slices.Clone(x.offs)
		for r := range x.offs {
			x.offs[r] += k
		}
		return x
	}
	out := index{at: make([]value.Value, len(x.at))}
	for i, v := range x.at {
		out.at[i] = g.cur.NewAdd(v, i32c(int64(k)))
	}
	return out
}

// scaled multiplies every index by k and adds j: element j of a trailing dimension of k.
func (g *gen) scaled(x index, k, j int) index {
	if x.offs != nil {
		out := index{base: g.cur.NewMul(x.base, i32c(int64(k))), offs: make([]int, len(x.offs)), align: x.align * k}
		for r, o := range x.offs {
			out.offs[r] = o*k + j
		}
		return out
	}
	out := index{at: make([]value.Value, len(x.at))}
	for i, v := range x.at {
		out.at[i] = g.cur.NewAdd(g.cur.NewMul(v, i32c(int64(k))), i32c(int64(j)))
	}
	return out
}

// lowerTrans permutes dimensions through shared memory: the operand is written at its
// row-major index in the result's dimension order.
func lowerTrans(g *gen, op *tileir.Op) error {
	src, res := op.Operands[0], op.Results[0]
	perm, _ := op.Attr("order").(tileir.I32ArrayAttr)
	order := make([]int, len(perm))
	for i, p := range perm {
		order[i] = int(p)
	}
	sl, rl := g.layoutOf(src), g.layoutOf(res)
	g.vals[res] = g.exchange(g.vals[src], g.linearIndex(sl, order, shapeInts(res.Type)), g.linearIndex(rl, nil, nil), numel(rl.shape))
	return nil
}

// lowerReshape keeps the row-major order of the elements.
func lowerReshape(g *gen, op *tileir.Op) error {
	src, res := op.Operands[0], op.Results[0]
	sl, rl := g.layoutOf(src), g.layoutOf(res)
	g.vals[res] = g.exchange(g.vals[src], g.linearIndex(sl, nil, nil), g.linearIndex(rl, nil, nil), numel(rl.shape))
	return nil
}

// lowerJoin stacks two tensors along a new minor dimension of size 2.
func lowerJoin(g *gen, op *tileir.Op) error {
	a, b, res := op.Operands[0], op.Operands[1], op.Results[0]
	al := g.layoutOf(a)
	bv := g.in(b, g.enc[a])
	idx := g.linearIndex(al, nil, nil)
	rl := g.layoutOf(res)
	out := g.exchangeMany([][]value.Value{g.vals[a], bv}, []index{g.scaled(idx, 2, 0), g.scaled(idx, 2, 1)},
		[]index{g.linearIndex(rl, nil, nil)}, numel(rl.shape), nil)
	g.vals[res] = out[0]
	return nil
}

// lowerSplit takes a tensor apart along its minor dimension of size 2.
func lowerSplit(g *gen, op *tileir.Op) error {
	src := op.Operands[0]
	sl := g.layoutOf(src)
	var reads []index
	for _, r := range op.Results {
		idx := g.linearIndex(g.layoutOf(r), nil, nil)
		reads = append(reads, g.scaled(idx, 2, r.Index()))
	}
	out := g.exchangeMany([][]value.Value{g.vals[src]}, []index{g.linearIndex(sl, nil, nil)}, reads, numel(sl.shape), nil)
	for i, r := range op.Results {
		g.vals[r] = out[i]
	}
	return nil
}

// lowerCat concatenates along dimension 0.
func lowerCat(g *gen, op *tileir.Op) error {
	a, b, res := op.Operands[0], op.Operands[1], op.Results[0]
	al, rl := g.layoutOf(a), g.layoutOf(res)
	bv := g.in(b, g.enc[a])
	idx := g.linearIndex(al, nil, nil)
	out := g.exchangeMany([][]value.Value{g.vals[a], bv}, []index{idx, g.offset(idx, numel(al.shape))},
		[]index{g.linearIndex(rl, nil, nil)}, numel(rl.shape), nil)
	g.vals[res] = out[0]
	return nil
}

// lowerInlineAsm emits the user's inline asm once per register (packed_element 1).
func lowerInlineAsm(g *gen, op *tileir.Op) error {
	if pe := op.IntAttr("packed_element"); pe > 1 {
		return g.errorf(op, "packed_element = %d not supported yet", pe)
	}
	text, _ := op.Attr("asm_string").(tileir.StringAttr)
	cons, _ := op.Attr("constraints").(tileir.StringAttr)
	var rts []types.Type
	for _, r := range op.Results {
		t, err := g.llType(r.Type)
		if err != nil {
			return g.errorf(op, "%v", err)
		}
		rts = append(rts, t)
	}
	var ret types.Type = types.NewStruct(rts...)
	if len(rts) == 1 {
		ret = rts[0]
	}
	var e encoding
	n := 1
	if len(op.Results) > 0 && isTensor(op.Results[0]) {
		e, n = g.enc[op.Results[0]], g.regs(op.Results[0])
	}
	ins := make([][]value.Value, len(op.Operands))
	for i, o := range op.Operands {
		ins[i] = g.in(o, e)
	}
	outs := make([][]value.Value, len(op.Results))
	for r := range n {
		args := make([]value.Value, len(ins))
		for i := range ins {
			args[i] = ins[i][min(r, len(ins[i])-1)]
		}
		call := g.Asm(ret, strings.ReplaceAll(string(text), "\n", "\n\t"), string(cons), args...)
		for i := range op.Results {
			if len(rts) == 1 {
				outs[i] = append(outs[i], call)
			} else {
				outs[i] = append(outs[i], g.Extract(call, i))
			}
		}
	}
	for i, r := range op.Results {
		g.vals[r] = outs[i]
	}
	return nil
}
