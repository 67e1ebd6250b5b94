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
	if g.directSource(op) != nil {
		return nil // the dot reads the load's stage transposed
	}
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

// lowerInlineAsm emits the user's inline asm once per packed_element registers, as
// Triton does: operands and results narrower than 32 bits go packed_element at a time
// (at most 32 bits) in one vector register, wider ones one register per element; a thread
// with fewer registers than a multiple of packed_element pads them with undef.
func lowerInlineAsm(g *gen, op *tileir.Op) error {
	pack := int(max(op.IntAttr("packed_element"), 1))
	text, _ := op.Attr("asm_string").(tileir.StringAttr)
	cons, _ := op.Attr("constraints").(tileir.StringAttr)
	var rts []types.Type // one per register the asm returns
	elemTypes := make([]types.Type, len(op.Results))
	for i, r := range op.Results {
		t, err := g.llType(r.Type)
		if err != nil {
			return g.errorf(op, "%v", err)
		}
		elemTypes[i] = t
		per := asmElemsPerReg(t, pack)
		for range pack / per {
			rts = append(rts, g.asmRegType(t, per))
		}
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
	for r := 0; r < n; r += pack {
		elem := func(vals []value.Value, k int) value.Value {
			if len(vals) == 1 {
				return vals[0] // a scalar operand
			}
			if k < len(vals) {
				return vals[k]
			}
			return g.undef(vals[0].Type())
		}
		var args []value.Value
		for i := range ins {
			t := ins[i][0].Type()
			per := asmElemsPerReg(t, pack)
			for j := 0; j < pack; j += per {
				if per == 1 {
					args = append(args, elem(ins[i], r+j))
					continue
				}
				var v value.Value = g.undef(g.vecType(per, t))
				for k := range per {
					v = g.insertElement(v, elem(ins[i], r+j+k), i32c(int64(k)))
				}
				args = append(args, v)
			}
		}
		call := g.Asm(ret, strings.ReplaceAll(string(text), "\n", "\n\t"), string(cons), args...)
		reg := 0
		for i, t := range elemTypes {
			per := asmElemsPerReg(t, pack)
			for j := 0; j < pack; j += per {
				var v value.Value = call
				if len(rts) > 1 {
					v = g.Extract(call, reg)
				}
				reg++
				for k := range per {
					if r+j+k >= n {
						break
					}
					if per == 1 {
						outs[i] = append(outs[i], v)
					} else {
						outs[i] = append(outs[i], g.extractElement(v, i32c(int64(k))))
					}
				}
			}
		}
	}
	for i, r := range op.Results {
		g.vals[r] = outs[i]
	}
	return nil
}

// asmElemsPerReg is how many elements of type t one inline asm register holds when
// pack elements go to each call: as many as fit in 32 bits, at most pack.
func asmElemsPerReg(t types.Type, pack int) int {
	bits := 64
	switch t := t.(type) {
	case *types.IntType:
		bits = int(t.BitSize)
	case *types.FloatType:
		bits = byteSize(t) * 8
	}
	return min(max(32/bits, 1), pack)
}

// asmRegType is the type of an inline asm register holding per elements of type t.
func (g *gen) asmRegType(t types.Type, per int) types.Type {
	if per == 1 {
		return t
	}
	return g.vecType(per, t)
}
