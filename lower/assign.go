package lower

import (
	"slices"

	"github.com/gotriton/gotriton/tileir"
)

// assignLayouts gives every tensor value of the kernel an encoding, as Triton's
// ConvertTritonToTritonGPU, Coalesce and RemoveLayoutConversions passes do together:
// memory accesses are anchored to coalesced blocked layouts and dots to mma layouts;
// anchors spread their encoding to the values computed from and into them (first come,
// first served); anything left gets the default blocked layout. Where two encodings meet,
// the lowering converts (through shared memory unless the threads already agree).
func assignLayouts(g *gen) {
	a := &assigner{g: g, users: map[*tileir.Value][]*tileir.Op{}}
	var anchors []*tileir.Value
	g.tf.Walk(func(op *tileir.Op) bool {
		for _, v := range op.Operands {
			a.users[v] = append(a.users[v], op)
		}
		for _, v := range a.anchor(op) {
			anchors = append(anchors, v)
		}
		return true
	})
	g.users = a.users
	// a loop-carried anchor fixes its whole loop-carried group (init, region argument,
	// yield, result) before anything spreads, so that no conversion runs per iteration
	for _, v := range anchors {
		for _, w := range a.loopGroup(v) {
			if a.set(w, a.g.enc[v]) {
				anchors = append(anchors, w)
			}
		}
	}
	for _, v := range anchors {
		a.spread(v)
	}
	g.tf.Walk(func(op *tileir.Op) bool {
		for _, r := range op.Regions {
			for _, b := range r.Blocks {
				for _, v := range b.Args {
					a.fallback(v)
				}
			}
		}
		for _, v := range op.Results {
			a.fallback(v)
		}
		return true
	})
}

type assigner struct {
	g     *gen
	users map[*tileir.Value][]*tileir.Op
	// linkBuf is linked's result buffer.
	linkBuf []*tileir.Value
}

func isTensor(v *tileir.Value) bool { _, ok := v.Type.(*tileir.TensorType); return ok }

// appendShape appends t's shape to buf.
func appendShape(buf []int, t tileir.Type) []int {
	for _, d := range tileir.ShapeOf(t) {
		buf = append(buf, int(d))
	}
	return buf
}

func shapeInts(t tileir.Type) []int {
	s := tileir.ShapeOf(t)
	out := make([]int, len(s))
	for i, d := range s {
		out[i] = int(d)
	}
	return out
}

func (a *assigner) defaultEnc(v *tileir.Value) encoding {
	shape := shapeInts(v.Type)
	ones := make([]int, len(shape))
	for i := range ones {
		ones[i] = 1
	}
	return newBlocked(shape, ones, defaultOrder(len(shape)), a.g.opts.NumWarps, a.g.t.WarpSize)
}

func (a *assigner) fallback(v *tileir.Value) {
	if isTensor(v) && a.g.enc[v] == nil {
		a.g.enc[v] = a.defaultEnc(v)
		a.spread(v)
	}
}

// set gives v encoding e unless it has one; it reports whether it did.
func (a *assigner) set(v *tileir.Value, e encoding) bool {
	if !isTensor(v) || e == nil || a.g.enc[v] != nil {
		return false
	}
	if r, ok := v.Type.(*tileir.TensorType); ok && !fits(e, len(r.Shape())) {
		return false
	}
	a.g.enc[v] = e
	return true
}

// fits reports whether e describes tensors of the given rank.
func fits(e encoding, rank int) bool { return encRank(e) == rank }

func encRank(e encoding) int {
	switch e := e.(type) {
	case *blocked:
		return len(e.spt)
	case *sliceEnc:
		return encRank(e.parent) - 1
	case *mmaEnc:
		return len(e.Warps)
	case *dotOpEnc:
		return encRank(e.parent)
	}
	return 2
}

// anchor fixes the encodings that memory accesses and dots want.
func (a *assigner) anchor(op *tileir.Op) []*tileir.Value {
	switch op.Name {
	case "tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas":
		ptr := op.Operands[0]
		if pt, ok := ptr.Type.(*tileir.PtrType); ok && op.Name != "tt.atomic_rmw" && op.Name != "tt.atomic_cas" {
			if _, block := pt.Elem().(*tileir.TensorType); block { // a block pointer
				v := op.Operands[min(1, len(op.Operands)-1)]
				if op.Name == "tt.load" {
					v = op.Results[0]
				}
				if a.set(v, a.blockEnc(v)) {
					return []*tileir.Value{v}
				}
				return nil
			}
		}
		if !isTensor(ptr) {
			return nil
		}
		e := a.coalesced(op)
		var set []*tileir.Value
		for _, v := range a.linked(op) {
			if a.set(v, e) {
				set = append(set, v)
			}
		}
		return set
	case "tt.descriptor_load", "tt.descriptor_store":
		v := op.Operands[min(1, len(op.Operands)-1)]
		if op.Name == "tt.descriptor_load" {
			v = op.Results[0]
		}
		if a.set(v, a.blockEnc(v)) {
			return []*tileir.Value{v}
		}
	case "tt.dot":
		r := op.Results[0]
		if a.set(r, a.g.dotEncoding(op)) {
			a.set(op.Operands[2], a.g.enc[r])
			return []*tileir.Value{r}
		}
	}
	return nil
}

// coalesced picks the blocked layout of a memory access as Triton's Coalesce pass does:
// dimensions ordered by the pointer's contiguity, and as many contiguous elements per
// thread as alignment and 128-bit accesses allow.
func (a *assigner) coalesced(op *tileir.Op) encoding {
	ptr := op.Operands[0]
	shape := shapeInts(ptr.Type)
	info := a.g.axes.get(ptr)
	order := defaultOrder(len(shape))
	slices.SortStableFunc(order, func(x, y int) int { return int(info.contig[y] - info.contig[x]) })
	eb := elemBytes(ptr.Type)
	align := max(min(info.contig[order[0]], info.div[order[0]]/eb), 1)
	per := min(int(align), max(16/int(eb), 1))
	numel := 1
	for _, d := range shape {
		numel *= d
	}
	per = min(per, max(numel/(a.g.opts.NumWarps*a.g.t.WarpSize), 1), shape[order[0]])
	spt := make([]int, len(shape))
	for i := range spt {
		spt[i] = 1
	}
	spt[order[0]] = per
	return newBlocked(shape, spt, order, a.g.opts.NumWarps, a.g.t.WarpSize)
}

// blockEnc is the layout of a descriptor block: 16 bytes per thread along the last
// dimension.
func (a *assigner) blockEnc(v *tileir.Value) encoding {
	shape := shapeInts(v.Type)
	spt := make([]int, len(shape))
	for i := range spt {
		spt[i] = 1
	}
	last := len(shape) - 1
	bytes := max(tileir.ScalarOf(v.Type).Bits()/8, 1)
	spt[last] = min(max(16/bytes, 1), shape[last], max(numel(shape)/(a.g.opts.NumWarps*a.g.t.WarpSize), 1))
	return newBlocked(shape, spt, defaultOrder(len(shape)), a.g.opts.NumWarps, a.g.t.WarpSize)
}

// sameEnc lists ops whose tensor operands and results share one encoding.
func sameEnc(op *tileir.Op) bool {
	switch op.Name {
	case "tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas", "tt.broadcast":
		return true
	}
	return op.Has(tileir.Elementwise)
}

// linked returns the operands and results of a sameEnc op that share its encoding. A
// store's value is left out: it keeps its producer's layout and the store converts it,
// which is cheaper than converting the producer's operands (f32 accumulators before a
// truncation, say).
// The list is a's scratch buffer, valid until the next call.
func (a *assigner) linked(op *tileir.Op) []*tileir.Value {
	vs := append(append(a.linkBuf[:0], op.Operands...), op.Results...)
	a.linkBuf = vs
	if op.Name == "tt.store" {
		vs = slices.Delete(vs, 1, 2)
	}
	return vs
}

// tied returns the values that must share v's encoding because they are the same
// loop-carried or branch-merged value: scf results, region arguments, yields and inits.
func tied(op *tileir.Op, i int, asResult bool) []*tileir.Value {
	var out []*tileir.Value
	switch op.Name {
	case "scf.for":
		body := op.Regions[0].Entry()
		out = append(out, op.Results[i], body.Args[i+1], op.Operands[3+i], body.Terminator().Operands[i])
	case "scf.if":
		out = append(out, op.Results[i])
		for _, r := range op.Regions {
			if len(r.Blocks) > 0 && r.Entry().Terminator() != nil {
				out = append(out, r.Entry().Terminator().Operands[i])
			}
		}
	case "scf.while":
		before, after := op.Regions[0].Entry(), op.Regions[1].Entry()
		if asResult { // i indexes the after-args / results / condition's forwarded values
			out = append(out, op.Results[i], after.Args[i], before.Terminator().Operands[i+1])
		} else { // i indexes the inits / before-args / after's yield
			out = append(out, op.Operands[i], before.Args[i], after.Terminator().Operands[i])
		}
	}
	return out
}

// loopGroup returns the values tied to v when v is a region argument of a loop.
func (a *assigner) loopGroup(v *tileir.Value) []*tileir.Value {
	blk := v.Block()
	if blk == nil || blk.Region() == nil || blk.Region().Op() == nil {
		return nil
	}
	op := blk.Region().Op()
	switch {
	case op.Name == "scf.for" && v.Index() > 0:
		return tied(op, v.Index()-1, true)
	case op.Name == "scf.while" && blk == op.Regions[0].Entry():
		return tied(op, v.Index(), false)
	}
	return nil
}

// spread propagates v's encoding to its neighbours, depth first.
func (a *assigner) spread(v *tileir.Value) {
	e := a.g.enc[v]
	var next []*tileir.Value
	try := func(w *tileir.Value, we encoding) {
		if a.set(w, we) {
			next = append(next, w)
		}
	}
	// the producer
	if op := v.Def(); op != nil {
		switch {
		case sameEnc(op):
			for _, w := range a.linked(op) {
				try(w, e)
			}
		case op.Name == "tt.expand_dims":
			try(op.Operands[0], &sliceEnc{dim: int(op.IntAttr("axis")), parent: e})
		case op.Name == "tt.reduce":
			if s, ok := e.(*sliceEnc); ok && s.dim == int(op.IntAttr("axis")) {
				for _, w := range op.Operands {
					try(w, s.parent)
				}
			}
		case op.Name == "scf.for" || op.Name == "scf.if" || op.Name == "scf.while":
			for _, w := range tied(op, v.Index(), true) {
				try(w, e)
			}
		}
	} else if blk := v.Block(); blk != nil && blk.Region() != nil && blk.Region().Op() != nil {
		op := blk.Region().Op()
		switch {
		case op.Name == "scf.for" && v.Index() > 0:
			for _, w := range tied(op, v.Index()-1, true) {
				try(w, e)
			}
		case op.Name == "scf.while" && blk == op.Regions[0].Entry():
			for _, w := range tied(op, v.Index(), false) {
				try(w, e)
			}
		case op.Name == "scf.while":
			for _, w := range tied(op, v.Index(), true) {
				try(w, e)
			}
		}
	}
	// the users
	for _, op := range a.users[v] {
		switch {
		case sameEnc(op) && slices.Contains(a.linked(op), v):
			for _, w := range a.linked(op) {
				try(w, e)
			}
		case op.Name == "tt.expand_dims":
			if s, ok := e.(*sliceEnc); ok && s.dim == int(op.IntAttr("axis")) {
				try(op.Results[0], s.parent)
			}
		case op.Name == "tt.reduce":
			for _, r := range op.Results {
				try(r, &sliceEnc{dim: int(op.IntAttr("axis")), parent: e})
			}
		case op.Name == "scf.yield":
			parent := op.ParentOp()
			if i := slices.Index(op.Operands, v); i >= 0 && parent != nil {
				if parent.Name == "scf.while" {
					for _, w := range tied(parent, i, false) {
						try(w, e)
					}
				} else {
					for _, w := range tied(parent, i, true) {
						try(w, e)
					}
				}
			}
		case op.Name == "scf.condition":
			if i := slices.Index(op.Operands, v); i > 0 {
				for _, w := range tied(op.ParentOp(), i-1, true) {
					try(w, e)
				}
			}
		case op.Name == "scf.for":
			if i := slices.Index(op.Operands, v); i >= 3 {
				for _, w := range tied(op, i-3, true) {
					try(w, e)
				}
			}
		case op.Name == "scf.while":
			if i := slices.Index(op.Operands, v); i >= 0 {
				for _, w := range tied(op, i, false) {
					try(w, e)
				}
			}
		}
	}
	for _, w := range next {
		a.spread(w)
	}
}
