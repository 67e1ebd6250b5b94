package lower

import (
	"strings"

	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

func init() {
	lowerings["tt.get_program_id"] = func(g *gen, op *tileir.Op) error { return g.gridQuery(op, g.isa.ProgramID) }
	lowerings["tt.get_num_programs"] = func(g *gen, op *tileir.Op) error { return g.gridQuery(op, g.isa.NumPrograms) }
	lowerings["tt.make_range"] = lowerMakeRange
	lowerings["tt.splat"] = func(g *gen, op *tileir.Op) error {
		g.setUniform(op.Results[0], g.vals[op.Operands[0]][0])
		return nil
	}
	// tt.unsplat reads the element of a one-element tensor: every thread holds a copy.
	lowerings["tt.unsplat"] = func(g *gen, op *tileir.Op) error {
		g.vals[op.Results[0]] = []value.Value{g.vals[op.Operands[0]][0]}
		return nil
	}
	lowerings["tt.broadcast"] = func(g *gen, op *tileir.Op) error {
		src := tileir.ShapeOf(op.Operands[0].Type)
		return g.gather(op, g.enc[op.Results[0]], func(dst, c []int) []int {
			dst = append(dst, c...)
			for d := range dst {
				if src[d] == 1 {
					dst[d] = 0
				}
			}
			return dst
		})
	}
	lowerings["tt.expand_dims"] = func(g *gen, op *tileir.Op) error {
		axis := int(op.IntAttr("axis"))
		return g.gather(op, &sliceEnc{dim: axis, parent: g.enc[op.Results[0]]}, func(dst, c []int) []int {
			return append(append(dst, c[:axis]...), c[axis+1:]...)
		})
	}
	lowerings["tt.addptr"] = func(g *gen, op *tileir.Op) error {
		pt, err := g.llType(op.Results[0].Type)
		if err != nil {
			return g.errorf(op, "%v", err)
		}
		elem := pt.(*types.PointerType).ElemType
		var narrow, wide value.Value // the last offset widened, reused for a splat's repeats
		gep := func(a []value.Value) (value.Value, error) {
			off := a[1]
			if off.Type().(*types.IntType).BitSize < 64 {
				if off != narrow {
					narrow, wide = off, g.sext(off, types.I64)
				}
				off = wide
			}
			return g.gep(elem, a[0], off), nil
		}
		if need := g.ptrRegsNeeded(op.Results[0]); need != nil {
			return g.addPtrSome(op, elem, need)
		}
		return g.elementwise(op, gep)
	}
	lowerings["llvm.intr.assume"] = func(*gen, *tileir.Op) error { return nil }
	lowerings["tt.return"] = func(g *gen, op *tileir.Op) error {
		if len(op.Operands) > 0 {
			return g.errorf(op, "kernels return no values")
		}
		g.cur.NewRet(nil)
		return nil
	}
	lowerings["gpu.barrier"] = func(g *gen, op *tileir.Op) error { g.barrier(); return nil }
}

// gridQuery reads the program id or the number of programs (read) along the op's axis.
func (g *gen) gridQuery(op *tileir.Op, read func(axis int) value.Value) error {
	axis := int(op.IntAttr("axis"))
	if a := op.EnumAttr("axis"); a != "" {
		axis = strings.Index("xyz", a)
	}
	if axis < 0 || axis > 2 {
		return g.errorf(op, "axis %s: want x, y or z", op.Attr("axis"))
	}
	g.vals[op.Results[0]] = []value.Value{read(axis)}
	return nil
}

func lowerMakeRange(g *gen, op *tileir.Op) error {
	l := g.layoutOf(op.Results[0])
	thread := g.threadCoords(l)
	start := op.IntAttr("start")
	out := make([]value.Value, l.numRegs())
	for r := range out {
		c := g.coordOf(l, thread, r, 0)
		if start != 0 {
			c = g.cur.NewAdd(c, i32c(start))
		}
		out[r] = c
	}
	g.vals[op.Results[0]] = out
	return nil
}

// gather builds the result of a shape-changing op whose elements each thread already
// holds: result register r takes the operand register (operand in encoding srcEnc) at
// coordinate srcCoord(coordinate of r), which srcCoord appends to dst (empty).
func (g *gen) gather(op *tileir.Op, srcEnc encoding, srcCoord func(dst, c []int) []int) error {
	res := op.Results[0]
	src := g.in(op.Operands[0], srcEnc)
	var shape [maxCachedRank]int
	idx := g.layouts.layout(srcEnc, appendShape(shape[:0], op.Operands[0].Type)).regIndex()
	l := g.layoutOf(res)
	out := g.values(l.numRegs())
	var buf []int
	for r := range out {
		buf = srcCoord(buf[:0], l.regCoord(r))
		i, ok := idx.of(buf)
		if !ok {
			return g.errorf(op, "layouts %s and %s do not line up", srcEnc, g.enc[res])
		}
		out[r] = src[i]
	}
	g.vals[res] = out
	return nil
}

// ptrRegsNeeded returns which registers of the pointer tensor v (a tt.addptr result or
// a pointer carried by an scf.for) anything reads, nil for all: tt.load and tt.store read
// only the first register of each vector access, tt.addptr and the loop's phis read the
// registers their results need. Skipping the others leaves out only instructions that
// dead code elimination would delete, and keeps the order of the rest.
func (g *gen) ptrRegsNeeded(v *tileir.Value) []bool {
	if g.vals[v] != nil {
		return nil // remat recomputes v in another encoding
	}
	if g.ptrNeeds == nil {
		g.ptrNeeds = g.analyzePtrNeeds()
	}
	need := g.ptrNeeds[v]
	for _, b := range need {
		if !b {
			return need
		}
	}
	return nil
}

// analyzePtrNeeds computes ptrRegsNeeded for every candidate value, by a fixed point over
// the uses (a loop-carried pointer feeds its own next value).
func (g *gen) analyzePtrNeeds() map[*tileir.Value][]bool {
	needs := map[*tileir.Value][]bool{}
	forOf := map[*tileir.Op]*tileir.Op{} // an scf.for's yield → the loop
	var order []*tileir.Value
	isPtrTensor := func(v *tileir.Value) bool {
		if !isTensor(v) || g.enc[v] == nil {
			return false
		}
		pt, ok := tileir.ElemType(v.Type).(*tileir.PtrType)
		if !ok {
			return false
		}
		_, blk := pt.Elem().(*tileir.TensorType)
		return !blk
	}
	g.tf.Walk(func(op *tileir.Op) bool {
		switch op.Name {
		case "tt.addptr":
			if v := op.Results[0]; isPtrTensor(v) {
				needs[v] = make([]bool, g.regs(v))
				order = append(order, v)
			}
		case "scf.for":
			body := op.Regions[0].Entry()
			forOf[body.Terminator()] = op
			for i, a := range body.Args[1:] {
				if isPtrTensor(a) {
					m := make([]bool, g.regs(a))
					needs[a] = m
					needs[op.Results[i]] = m // the results are the phis too
					if r := op.Results[i]; g.enc[r] == nil || g.layouts.encID(g.enc[r]) != g.layouts.encID(g.enc[a]) {
						for k := range m {
							m[k] = true // bound in a's encoding (bind): keep it simple
						}
					}
					order = append(order, a, op.Results[i])
				}
			}
		}
		return true
	})
	all := func(m []bool) bool {
		changed := false
		for r := range m {
			if !m[r] {
				m[r], changed = true, true
			}
		}
		return changed
	}
	or := func(dst, src []bool) bool {
		if src == nil || len(src) != len(dst) {
			return all(dst)
		}
		changed := false
		for r := range dst {
			if src[r] && !dst[r] {
				dst[r], changed = true, true
			}
		}
		return changed
	}
	// target returns the needs of t if it takes v's registers as they are, else nil
	target := func(v, t *tileir.Value, enc *tileir.Value) []bool {
		m, ok := needs[t]
		if !ok || g.layouts.encID(g.enc[enc]) != g.layouts.encID(g.enc[v]) {
			return nil
		}
		return m
	}
	// the loads, stores and other uses once; then the edges to a fixed point
	type edge struct{ dst, src []bool }
	var edges []edge
	for _, v := range order {
		m := needs[v]
		home := g.layouts.encID(g.enc[v])
		for _, u := range g.users[v] {
			switch {
			case u.Name == "tt.load" || u.Name == "tt.store":
				ok := true
				for i, o := range u.Operands {
					if o == v && i != 0 {
						ok = false
					}
				}
				var mask *tileir.Value
				var l *linLayout
				if u.Name == "tt.load" {
					e := g.enc[u.Results[0]]
					if e == nil || g.layouts.encID(e) != home {
						ok = false
					} else {
						l = g.layoutOf(u.Results[0])
					}
					if len(u.Operands) > 1 {
						mask = u.Operands[1]
					}
				} else {
					if len(u.Operands) > 2 {
						mask = u.Operands[2]
					}
					l = g.layoutOf(v)
				}
				if !ok {
					all(m)
					continue
				}
				a, err := g.newAccess(u, 1)
				if err != nil {
					all(m)
					continue
				}
				vec := g.vecWidth(v, mask, l, a.bits)
				for r := 0; r < len(m); r += vec {
					m[r] = true
				}
			case u.Name == "tt.addptr" && u.Operands[0] == v && u.Operands[1] != v:
				res := u.Results[0]
				edges = append(edges, edge{m, target(v, res, res)})
			case u.Name == "scf.yield" && forOf[u] != nil:
				f := forOf[u]
				args := f.Regions[0].Entry().Args[1:]
				for i, o := range u.Operands {
					if o == v {
						edges = append(edges, edge{m, target(v, args[i], args[i])})
					}
				}
			case u.Name == "scf.for":
				args := u.Regions[0].Entry().Args[1:]
				for i, o := range u.Operands {
					if o != v {
						continue
					}
					if i < 3 {
						all(m)
					} else {
						edges = append(edges, edge{m, target(v, args[i-3], args[i-3])})
					}
				}
			default:
				all(m)
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, e := range edges {
			changed = or(e.dst, e.src) || changed
		}
	}
	return needs
}

// addPtrSome lowers tt.addptr for the registers need marks only, emitting exactly the
// instructions elementwise would for them, in the same order: a register with the same
// operands as the one before shares its pointer, and a narrow offset is widened once
// for a run of registers with the same offset. The other registers stay nil.
func (g *gen) addPtrSome(op *tileir.Op, elem types.Type, need []bool) error {
	res := op.Results[0]
	e := g.enc[res]
	n := len(need)
	ptrs, offs := g.in(op.Operands[0], e), g.in(op.Operands[1], e)
	out := g.values(n)
	var ptr, off, cur value.Value // the operands of the last register, and its pointer
	var narrow, wide value.Value  // the last offset met, and it widened (nil until needed)
	for r := range n {
		p, o := ptrs[min(r, len(ptrs)-1)], offs[min(r, len(offs)-1)]
		if r == 0 || p != ptr || o != off {
			ptr, off, cur = p, o, nil
			if o.Type().(*types.IntType).BitSize < 64 && o != narrow {
				narrow, wide = o, nil
			}
		}
		if !need[r] {
			continue
		}
		if cur == nil {
			x := off
			if x.Type().(*types.IntType).BitSize < 64 {
				if wide == nil {
					wide = g.sext(x, types.I64)
				}
				x = wide
			}
			cur = g.gep(elem, ptr, x)
		}
		out[r] = cur
	}
	g.vals[res] = out
	return nil
}
