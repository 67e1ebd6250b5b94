package lower

import (
	"math/bits"
	"slices"

	"github.com/gotriton/gotriton/tileir"
)

// axisInfo is what Triton's AxisInfo analysis knows about an integer or pointer value, per
// dimension: contiguity (runs of consecutive values, +1 per element), divisibility (the
// largest power of two dividing the first value of each run; in bytes for pointers) and
// constancy (runs of equal values). A scalar has one dimension of extent 1.
type axisInfo struct {
	contig, div, constancy []int64
	cst                    *int64 // the value, when it is a known splat constant
	buf                    [6]int64
}

// newInfo returns an info of rank n, its three slices in one allocation with it up to
// rank 2.
func newInfo(n int) *axisInfo {
	a := &axisInfo{}
	var buf []int64
	if 3*n <= len(a.buf) {
		buf = a.buf[: 3*n : 3*n]
	} else {
		buf = make([]int64, 3*n)
	}
	a.contig, a.div, a.constancy = buf[:n:n], buf[n:2*n:2*n], buf[2*n:]
	return a
}

// scalarShape is the shape of a scalar, shared (read only).
var scalarShape = []int64{1}

// maxDiv is Triton's kMaxDivisor: the divisibility of 0 and the saturation bound.
const maxDiv = 1 << 62

func highestPow2(v int64) int64 {
	if v == 0 {
		return maxDiv
	}
	return int64(1) << bits.TrailingZeros64(uint64(v))
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func shapeOrScalar(t tileir.Type) []int64 {
	if s := tileir.ShapeOf(t); s != nil {
		return s
	}
	return scalarShape[:1:1]
}

func uniform(t tileir.Type, c, d, k int64) *axisInfo {
	s := shapeOrScalar(t)
	n := len(s)
	a := newInfo(n)
	for i, n := range s {
		a.contig[i], a.div[i], a.constancy[i] = min(c, n), d, min(k, n)
	}
	return a
}

// pessimistic is the info of a value nothing is known about.
func pessimistic(t tileir.Type) *axisInfo { return uniform(t, 1, 1, 1) }

// constInfo is the info of a constant: scalars have constancy 1, splats their shape.
func constInfo(t tileir.Type, v int64) *axisInfo {
	a := uniform(t, 1, highestPow2(v), maxDiv)
	a.cst = &v
	return a
}

// axisAnalysis computes axisInfo for every value of f, in program order, iterating
// loop-carried values to a fixpoint as Triton's dataflow solver does.
type axisAnalysis struct {
	info map[*tileir.Value]*axisInfo
}

func analyzeAxes(f *tileir.Func) *axisAnalysis {
	a := &axisAnalysis{info: map[*tileir.Value]*axisInfo{}}
	for i, arg := range f.Args() {
		info := pessimistic(arg.Type)
		if i < len(f.ArgAttrs) {
			for _, na := range f.ArgAttrs[i] {
				ia, ok := na.Value.(tileir.IntAttr)
				switch {
				case !ok:
				case na.Name == "tt.divisibility":
					info.div[0] = ia.V
				case na.Name == "tt.contiguity":
					info.contig[0] = ia.V
				case na.Name == "tt.constancy":
					info.constancy[0] = ia.V
				}
			}
		}
		a.info[arg] = info
	}
	// Loop-carried values start from their init and meet their yield until nothing
	// changes (gcds only shrink, so this ends; the bound is a safety net, after which
	// loop-carried values are pessimistic).
	const maxPasses = 64
	for pass := 0; ; pass++ {
		if pass == maxPasses {
			a.pessimizeLoops(f)
			break
		}
		changed := false
		f.Walk(func(op *tileir.Op) bool {
			if op.Name == "scf.for" {
				body := op.Regions[0].Entry()
				iv := body.Args[0]
				info := pessimistic(iv.Type) // the induction variable steps from lb by step
				info.div[0] = gcd(a.get(op.Operands[0]).div[0], a.get(op.Operands[2]).div[0])
				a.info[iv] = info
				for i, arg := range body.Args[1:] {
					next := a.get(op.Operands[3+i])
					if pass > 0 {
						next = meet(next, a.get(body.Terminator().Operands[i]))
					}
					if old, ok := a.info[arg]; !ok || !old.same(next) {
						changed = true
					}
					a.info[arg] = next
				}
			}
			for _, r := range op.Results {
				var info *axisInfo
				if op.Name == "scf.for" {
					info = a.get(op.Regions[0].Entry().Args[1+r.Index()])
				} else {
					info = a.visit(op, r)
					hint(op, info)
				}
				a.info[r] = info
			}
			return true
		})
		if !changed {
			break
		}
	}
	return a
}

// pessimizeLoops drops what is known of every loop-carried value and what follows from
// it (the fixpoint was not reached).
func (a *axisAnalysis) pessimizeLoops(f *tileir.Func) {
	f.Walk(func(op *tileir.Op) bool {
		if op.Name == "scf.for" {
			for _, arg := range op.Regions[0].Entry().Args {
				a.info[arg] = pessimistic(arg.Type)
			}
		}
		for _, r := range op.Results {
			if op.Name == "scf.for" {
				a.info[r] = pessimistic(r.Type)
			} else {
				info := a.visit(op, r)
				hint(op, info)
				a.info[r] = info
			}
		}
		return true
	})
}

// meet is what is known of a value that may be either x or y.
func meet(x, y *axisInfo) *axisInfo {
	if len(x.div) != len(y.div) {
		return pessimistic(nil)
	}
	m := newInfo(len(x.div))
	for d := range m.div {
		m.contig[d], m.div[d], m.constancy[d] = gcd(x.contig[d], y.contig[d]), divFromContig(x, y, d), gcd(x.constancy[d], y.constancy[d])
	}
	if x.cst != nil && y.cst != nil && *x.cst == *y.cst {
		m.cst = x.cst
	}
	return m
}

func (x *axisInfo) same(y *axisInfo) bool {
	return slices.Equal(x.contig, y.contig) && slices.Equal(x.div, y.div) && slices.Equal(x.constancy, y.constancy)
}

// get returns the info of v (pessimistic when unknown).
func (a *axisAnalysis) get(v *tileir.Value) *axisInfo {
	if i, ok := a.info[v]; ok {
		return i
	}
	return pessimistic(v.Type)
}

// hint applies tt.divisibility / tt.contiguity / tt.constancy attributes (tl.multiple_of,
// tl.max_contiguous, tl.max_constancy).
func hint(op *tileir.Op, info *axisInfo) {
	for _, h := range [...]struct {
		name string
		dst  []int64
	}{{"tt.divisibility", info.div}, {"tt.contiguity", info.contig}, {"tt.constancy", info.constancy}} {
		dst := h.dst
		switch v := op.Attr(h.name).(type) {
		case tileir.IntAttr:
			dst[0] = v.V
		case tileir.DenseAttr:
			if s, ok := v.Splat.(tileir.IntAttr); ok {
				for i := range dst {
					dst[i] = s.V
				}
			}
		}
	}
}

func elemBytes(t tileir.Type) int64 {
	if p, ok := tileir.ElemType(t).(*tileir.PtrType); ok {
		if s, ok := p.Elem().(tileir.Scalar); ok {
			return int64(max(s.Bits()/8, 1))
		}
		return 8
	}
	return 1
}

// isContiguousDim and isConstantDim report whether info covers all n elements of a
// dimension with one run (Triton's AxisInfoVisitor helpers).
func isContiguousDim(x *axisInfo, n int64, d int) bool { return x.contig[d] == n }
func isConstantDim(x *axisInfo, n int64, d int) bool   { return x.constancy[d] == n }

// visit computes the info of result r of op with the rules of Triton 3.6's AxisInfo
// visitors (lib/Analysis/AxisInfo.cpp), one case per visitor; ops without a visitor are
// pessimistic.
func (a *axisAnalysis) visit(op *tileir.Op, r *tileir.Value) *axisInfo {
	t := r.Type
	in := func(i int) *axisInfo { return a.get(op.Operands[i]) }
	shape := shapeOrScalar(t)
	rank := len(shape)
	tensor := tileir.ShapeOf(t) != nil
	switch op.Name {
	case "arith.constant":
		switch v := op.Attr("value").(type) {
		case tileir.IntAttr:
			return constInfo(t, v.V)
		case tileir.BoolAttr:
			return constInfo(t, map[bool]int64{false: 0, true: 1}[bool(v)])
		case tileir.DenseAttr:
			switch s := v.Splat.(type) {
			case tileir.IntAttr:
				return constInfo(t, s.V)
			case tileir.BoolAttr:
				return constInfo(t, map[bool]int64{false: 0, true: 1}[bool(s)])
			}
		}
		return pessimistic(t)
	case "tt.make_range":
		start := op.IntAttr("start")
		return &axisInfo{contig: []int64{op.IntAttr("end") - start}, div: []int64{highestPow2(start)}, constancy: []int64{1}}
	case "arith.extsi", "arith.extui", "arith.trunci", "tt.bitcast":
		return in(0)
	case "tt.splat":
		o := uniform(t, 1, in(0).div[0], maxDiv)
		o.cst = in(0).cst
		return o
	case "tt.broadcast":
		x, src := in(0), shapeOrScalar(op.Operands[0].Type)
		o := pessimistic(t)
		for d := range rank {
			o.contig[d], o.div[d], o.constancy[d] = x.contig[d], x.div[d], x.constancy[d]
			if src[d] == 1 {
				o.contig[d], o.constancy[d] = 1, shape[d]
			}
		}
		o.cst = x.cst
		return o
	case "tt.expand_dims":
		x, dim := in(0), int(op.IntAttr("axis"))
		// The new dimension's divisibility is the gcd over the operand's dimensions, where
		// a contiguous dimension counts as 1 ([2^n, 2^n+1, ...] is not a multiple of 2^n).
		nd := int64(1)
		if x.cst != nil {
			nd = highestPow2(*x.cst)
		} else {
			nd = 0
			for d := range x.div {
				dd := x.div[d]
				if x.contig[d] > 1 {
					dd = 1
				}
				nd = gcd(nd, dd)
			}
		}
		ins := func(v []int64, n int64) []int64 {
			return slices.Insert(slices.Clone(v), dim, n)
		}
		return &axisInfo{contig: ins(x.contig, 1), div: ins(x.div, nd), constancy: ins(x.constancy, 1), cst: x.cst}
	case "tt.trans":
		x := in(0)
		o := pessimistic(t)
		for d, s := range op.Attr("order").(tileir.I32ArrayAttr) {
			o.contig[d], o.div[d], o.constancy[d] = x.contig[s], x.div[s], x.constancy[s]
		}
		o.cst = x.cst
		return o
	case "tt.load":
		o, p := pessimistic(t), in(0)
		if len(p.constancy) != rank || len(op.Operands) > 1 && len(in(1).constancy) != rank {
			return o // a block pointer
		}
		for d := range rank {
			o.constancy[d] = p.constancy[d]
			if len(op.Operands) > 1 {
				o.constancy[d] = gcd(p.constancy[d], in(1).constancy[d])
			}
		}
		return o
	case "arith.cmpi":
		if !tensor {
			return pessimistic(t)
		}
		return a.cmp(op, in(0), in(1), shape)
	case "arith.select":
		return selectInfo(op, in(0), in(1), in(2), shape)
	case "arith.maxsi", "arith.maxui", "arith.minsi", "arith.minui":
		x, y := in(0), in(1)
		if x.cst != nil && y.cst != nil {
			v := max(*x.cst, *y.cst)
			if op.Name == "arith.minsi" || op.Name == "arith.minui" {
				v = min(*x.cst, *y.cst)
			}
			return foldedInfo(t, v)
		}
		o := pessimistic(t)
		for d := range rank {
			o.constancy[d] = gcd(x.constancy[d], y.constancy[d])
			o.div[d] = divFromContig(x, y, d)
			o.contig[d] = gcd(x.contig[d], y.contig[d])
		}
		return o
	case "tt.addptr", "arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui",
		"arith.remsi", "arith.remui", "arith.andi", "arith.ori", "arith.xori", "arith.shli",
		"arith.shrsi", "arith.shrui":
		return binary(op, in(0), in(1), t)
	}
	return pessimistic(t)
}

// foldedInfo is the info of a binary op whose value is the constant v: constant over the
// whole tensor (Triton gives a scalar constancy 1).
func foldedInfo(t tileir.Type, v int64) *axisInfo {
	shape := shapeOrScalar(t)
	o := pessimistic(t)
	for d := range shape {
		o.div[d] = highestPow2(v)
		if tileir.ShapeOf(t) != nil {
			o.constancy[d] = shape[d]
		}
	}
	o.cst = &v
	return o
}

// multiplyDivisor is x*y, saturated at maxDiv.
func multiplyDivisor(x, y int64) int64 {
	if x > maxDiv/y {
		return maxDiv
	}
	return x * y
}

// divFromContig is the divisibility of a value that is either x or y (Triton's
// getDivisibilityFromContiguity): where the contiguities differ, runs may start inside
// the other operand's runs, so the contiguities bound it too.
func divFromContig(x, y *axisInfo, d int) int64 {
	if x.contig[d] == y.contig[d] || x.contig[d] == maxDiv || y.contig[d] == maxDiv {
		return gcd(x.div[d], y.div[d])
	}
	return gcd(gcd(x.div[d], y.div[d]), gcd(x.contig[d], y.contig[d]))
}

// binary applies Triton's BinaryOpVisitorImpl and its subclasses (add/sub/addptr, mul,
// div, rem, logical ops, shifts).
func binary(op *tileir.Op, x, y *axisInfo, t tileir.Type) *axisInfo {
	shape := shapeOrScalar(t)
	tensor := tileir.ShapeOf(t) != nil
	isC := func(i *axisInfo, v int64) bool { return i.cst != nil && *i.cst == v }
	elem := int64(1)
	if op.Name == "tt.addptr" {
		elem = elemBytes(t)
	}
	// The constant value, when both (or, for mul, one) operands are known.
	var cst *int64
	set := func(v int64) { cst = &v }
	if x.cst != nil && y.cst != nil {
		xv, yv := *x.cst, *y.cst
		switch op.Name {
		case "arith.addi":
			set(xv + yv)
		case "arith.subi":
			set(xv - yv)
		case "tt.addptr":
			set(xv + yv*elem)
		case "arith.muli":
			set(xv * yv)
		case "arith.divsi", "arith.divui":
			if yv != 0 {
				set(xv / yv)
			}
		case "arith.remsi", "arith.remui":
			if yv != 0 {
				set(xv % yv)
			}
		case "arith.andi":
			set(xv & yv)
		case "arith.ori":
			set(xv | yv)
		case "arith.xori":
			set(xv ^ yv)
		case "arith.shli":
			if yv >= 0 && yv < 64 {
				set(xv << yv)
			}
		case "arith.shrsi", "arith.shrui":
			if yv >= 0 && yv < 64 {
				set(xv >> yv)
			}
		}
	} else if op.Name == "arith.muli" && (isC(x, 0) || isC(y, 0)) {
		set(0)
	} else if (op.Name == "arith.remsi" || op.Name == "arith.remui") && isC(y, 1) {
		set(0)
	}
	if cst != nil {
		return foldedInfo(t, *cst)
	}
	o := pessimistic(t)
	for d := range shape {
		n := shape[d]
		o.constancy[d] = gcd(x.constancy[d], y.constancy[d])
		switch op.Name {
		case "arith.addi", "tt.addptr":
			o.contig[d] = max(gcd(x.constancy[d], y.contig[d]), gcd(x.contig[d], y.constancy[d]))
			o.div[d] = gcd(x.div[d], multiplyDivisor(y.div[d], elem))
		case "arith.subi":
			o.contig[d] = gcd(x.contig[d], y.constancy[d])
			o.div[d] = gcd(x.div[d], y.div[d])
		case "arith.muli":
			if isC(y, 1) {
				o.contig[d] = x.contig[d]
			}
			if isC(x, 1) {
				o.contig[d] = max(o.contig[d], y.contig[d])
			}
			xd, yd := x.div[d], y.div[d]
			if x.contig[d] > 1 && !isC(y, 1) {
				xd = 1 // [2^n, 2^n+1, ...] is not a multiple of 2^n
			}
			if y.contig[d] > 1 && !isC(x, 1) {
				yd = 1
			}
			o.div[d] = multiplyDivisor(xd, yd)
		case "arith.divsi", "arith.divui":
			if isC(y, 1) {
				o.contig[d] = x.contig[d]
			}
			if tensor && isContiguousDim(x, n, d) && isConstantDim(y, n, d) {
				o.constancy[d] = max(o.constancy[d], gcd(x.contig[d], gcd(x.div[d], y.div[d])))
			}
			switch {
			case isC(x, 0), isC(y, 1):
				o.div[d] = x.div[d]
			case y.cst != nil && *y.cst != 0 && abs(*y.cst)&(abs(*y.cst)-1) == 0 && x.contig[d] == 1:
				o.div[d] = max(1, x.div[d]/abs(*y.cst))
			}
		case "arith.remsi", "arith.remui":
			if tensor && isContiguousDim(x, n, d) && isConstantDim(y, n, d) {
				o.contig[d] = gcd(x.contig[d], gcd(x.div[d], y.div[d]))
			}
			if y.constancy[d] > 1 {
				o.div[d] = gcd(x.div[d], y.div[d])
			}
			if tensor && isC(y, 1) {
				o.constancy[d] = n
			}
		case "arith.shli":
			if isC(y, 0) {
				o.contig[d] = x.contig[d]
			}
			shift := int64(0)
			if y.cst != nil {
				shift = *y.cst
			}
			xd := x.div[d]
			if x.contig[d] > 1 && shift != 0 {
				xd = 1
			}
			o.div[d] = maxDiv
			if shift >= 0 && shift < 62 {
				o.div[d] = multiplyDivisor(xd, 1<<shift)
			}
		case "arith.shrsi", "arith.shrui":
			if isC(y, 0) {
				o.contig[d] = x.contig[d]
			}
			if y.cst != nil {
				shift, xd := *y.cst, x.div[d]
				if x.contig[d] > 1 && shift != 0 {
					xd = 1
				}
				if shift >= 0 && shift < 63 {
					o.div[d] = max(1, xd/(1<<shift))
				}
			}
		}
	}
	return o
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// cmp is Triton's CmpOpAxisInfoVisitor for a tensor comparison: only constancy is known,
// widened where a contiguous run is compared with a constant that no run straddles.
func (a *axisAnalysis) cmp(op *tileir.Op, x, y *axisInfo, shape []int64) *axisInfo {
	o := pessimistic(op.Results[0].Type)
	pred := op.EnumAttr("predicate")
	gt, ge := pred == "sgt" || pred == "ugt", pred == "sge" || pred == "uge"
	lt, le := pred == "slt" || pred == "ult", pred == "sle" || pred == "ule"
	if x.cst != nil && y.cst != nil {
		v := int64(0)
		if compare(pred, *x.cst, *y.cst) {
			v = 1
		}
		copy(o.constancy, shape)
		o.cst = &v
		return o
	}
	for d := range shape {
		k := gcd(x.constancy[d], y.constancy[d])
		if (gt || le) && isConstantDim(x, shape[d], d) {
			k = max(k, gcd(y.contig[d], gcd(x.div[d], y.div[d])))
		} else if (lt || ge) && isConstantDim(y, shape[d], d) {
			k = max(k, gcd(x.contig[d], gcd(x.div[d], y.div[d])))
		}
		o.constancy[d] = k
	}
	return o
}

func compare(pred string, x, y int64) bool {
	switch pred {
	case "eq":
		return x == y
	case "ne":
		return x != y
	case "slt":
		return x < y
	case "sle":
		return x <= y
	case "sgt":
		return x > y
	case "sge":
		return x >= y
	case "ult":
		return uint64(x) < uint64(y)
	case "ule":
		return uint64(x) <= uint64(y)
	case "ugt":
		return uint64(x) > uint64(y)
	case "uge":
		return uint64(x) >= uint64(y)
	}
	return false
}

// selectInfo is Triton's SelectOpAxisInfoVisitor.
func selectInfo(op *tileir.Op, c, x, y *axisInfo, shape []int64) *axisInfo {
	if c.cst != nil {
		if *c.cst == 0 {
			return y
		}
		return x
	}
	o := pessimistic(op.Results[0].Type)
	scalarCond := tileir.ShapeOf(op.Operands[0].Type) == nil
	for d := range shape {
		o.constancy[d] = gcd(x.constancy[d], y.constancy[d])
		o.contig[d] = gcd(x.contig[d], y.contig[d])
		if !scalarCond {
			o.constancy[d] = gcd(o.constancy[d], c.constancy[d])
			o.contig[d] = gcd(o.contig[d], c.constancy[d])
		}
		o.div[d] = divFromContig(x, y, d)
	}
	if x.cst != nil && y.cst != nil && *x.cst == *y.cst {
		o.cst = x.cst
		if tileir.ShapeOf(op.Results[0].Type) != nil {
			copy(o.constancy, shape)
		} else {
			o.constancy[0] = 1
		}
	}
	return o
}
