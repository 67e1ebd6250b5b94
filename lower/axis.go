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
}

const maxDiv = 1 << 30

func highestPow2(v int64) int64 {
	if v == 0 {
		return maxDiv
	}
	return min(int64(1)<<bits.TrailingZeros64(uint64(v)), maxDiv)
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
	return []int64{1}
}

func uniform(t tileir.Type, c, d, k int64) *axisInfo {
	s := shapeOrScalar(t)
	a := &axisInfo{contig: make([]int64, len(s)), div: make([]int64, len(s)), constancy: make([]int64, len(s))}
	for i, n := range s {
		a.contig[i], a.div[i], a.constancy[i] = min(c, n), d, min(k, n)
	}
	return a
}

// pessimistic is the info of a value nothing is known about.
func pessimistic(t tileir.Type) *axisInfo { return uniform(t, 1, 1, 1) }

func constInfo(t tileir.Type, v int64) *axisInfo {
	a := uniform(t, 1, highestPow2(v), 1<<62)
	a.cst = &v
	return a
}

// axisAnalysis computes axisInfo for every integer and pointer value of f, in program order
// (loop-carried values are pessimistic, as a first version of Triton's fixpoint).
type axisAnalysis struct {
	info map[*tileir.Value]*axisInfo
}

func analyzeAxes(f *tileir.Func) *axisAnalysis {
	a := &axisAnalysis{info: map[*tileir.Value]*axisInfo{}}
	for i, arg := range f.Args() {
		info := pessimistic(arg.Type)
		if i < len(f.ArgAttrs) {
			for _, na := range f.ArgAttrs[i] {
				if ia, ok := na.Value.(tileir.IntAttr); ok && na.Name == "tt.divisibility" {
					info.div[0] = ia.V
				}
			}
		}
		a.info[arg] = info
	}
	// Loop-carried values start from their init and meet their yield; a few passes reach
	// the fixpoint for the loops of real kernels.
	for pass := 0; pass < 4; pass++ {
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

// meet is what is known of a value that may be either x or y.
func meet(x, y *axisInfo) *axisInfo {
	if len(x.div) != len(y.div) {
		return pessimistic(nil)
	}
	m := &axisInfo{contig: make([]int64, len(x.div)), div: make([]int64, len(x.div)), constancy: make([]int64, len(x.div))}
	for d := range m.div {
		m.contig[d], m.div[d], m.constancy[d] = gcd(x.contig[d], y.contig[d]), gcd(x.div[d], y.div[d]), gcd(x.constancy[d], y.constancy[d])
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
	for name, dst := range map[string][]int64{"tt.divisibility": info.div, "tt.contiguity": info.contig, "tt.constancy": info.constancy} {
		switch v := op.Attr(name).(type) {
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

func (a *axisAnalysis) visit(op *tileir.Op, r *tileir.Value) *axisInfo {
	t := r.Type
	if !tileir.IsIntLike(t) && !tileir.IsPtrLike(t) {
		return pessimistic(t)
	}
	in := func(i int) *axisInfo { return a.get(op.Operands[i]) }
	rank := len(shapeOrScalar(t))
	out := pessimistic(t)
	each := func(f func(d int)) *axisInfo {
		for d := range rank {
			f(d)
		}
		return out
	}
	switch op.Name {
	case "arith.constant":
		switch v := op.Attr("value").(type) {
		case tileir.IntAttr:
			return constInfo(t, v.V)
		case tileir.DenseAttr:
			if s, ok := v.Splat.(tileir.IntAttr); ok {
				return constInfo(t, s.V)
			}
		}
	case "tt.make_range":
		start := op.IntAttr("start")
		out.contig[0] = op.IntAttr("end") - start
		out.div[0] = highestPow2(start)
	case "tt.splat":
		x := in(0)
		o := uniform(t, 1, x.div[0], 1<<62)
		o.cst = x.cst
		return o
	case "tt.broadcast":
		x, src := in(0), shapeOrScalar(op.Operands[0].Type)
		return each(func(d int) {
			out.contig[d], out.div[d], out.constancy[d] = x.contig[d], x.div[d], x.constancy[d]
			if src[d] == 1 && shapeOrScalar(t)[d] != 1 {
				out.contig[d], out.constancy[d] = 1, shapeOrScalar(t)[d]
			}
		})
	case "tt.expand_dims":
		x, dim := in(0), int(op.IntAttr("axis"))
		ins := func(v []int64, n int64) []int64 {
			return append(append(append([]int64{}, v[:dim]...), n), v[dim:]...)
		}
		if len(shapeOrScalar(op.Operands[0].Type)) == rank {
			return out // a scalar operand (not possible for valid IR)
		}
		return &axisInfo{contig: ins(x.contig, 1), div: ins(x.div, x.div[0]), constancy: ins(x.constancy, 1), cst: x.cst}
	case "arith.extsi", "arith.extui", "arith.trunci", "tt.int_to_ptr", "tt.ptr_to_int", "tt.bitcast":
		return in(0)
	case "arith.addi", "tt.addptr", "arith.subi":
		x, y := in(0), in(1)
		scale := int64(1)
		if op.Name == "tt.addptr" {
			scale = elemBytes(t)
		}
		each(func(d int) {
			out.contig[d] = max(gcd(x.contig[d], y.constancy[d]), 0)
			if op.Name != "arith.subi" {
				out.contig[d] = max(out.contig[d], gcd(x.constancy[d], y.contig[d]))
			}
			out.div[d] = gcd(x.div[d], y.div[d]*scale)
			out.constancy[d] = gcd(x.constancy[d], y.constancy[d])
		})
		if x.cst != nil && y.cst != nil && op.Name != "tt.addptr" {
			v := *x.cst + *y.cst
			if op.Name == "arith.subi" {
				v = *x.cst - *y.cst
			}
			out.cst = &v
		}
	case "arith.muli":
		x, y := in(0), in(1)
		each(func(d int) {
			out.div[d] = min(x.div[d]*y.div[d], maxDiv)
			out.constancy[d] = gcd(x.constancy[d], y.constancy[d])
			if y.cst != nil && *y.cst == 1 {
				out.contig[d] = x.contig[d]
			}
			if x.cst != nil && *x.cst == 1 {
				out.contig[d] = y.contig[d]
			}
		})
		if x.cst != nil && y.cst != nil {
			v := *x.cst * *y.cst
			out.cst = &v
		}
	case "arith.divsi", "arith.divui":
		x, y := in(0), in(1)
		each(func(d int) {
			out.constancy[d] = gcd(x.constancy[d], y.constancy[d])
			if y.cst != nil && *y.cst > 0 {
				// runs of contiguous values aligned to the divisor divide to equal values
				out.constancy[d] = max(out.constancy[d], gcd(x.contig[d], gcd(x.div[d], *y.cst)))
				if x.div[d] >= *y.cst && x.div[d]%*y.cst == 0 {
					out.div[d] = x.div[d] / *y.cst
				}
			}
		})
	case "arith.remsi", "arith.remui":
		x, y := in(0), in(1)
		each(func(d int) {
			out.constancy[d] = gcd(x.constancy[d], y.constancy[d])
			if y.cst != nil && *y.cst > 0 {
				out.contig[d] = gcd(x.contig[d], highestPow2(*y.cst))
				out.div[d] = gcd(x.div[d], highestPow2(*y.cst))
			}
		})
	case "arith.andi", "arith.ori", "arith.xori", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui",
		"arith.shli", "arith.shrsi", "arith.shrui":
		x, y := in(0), in(1)
		each(func(d int) { out.constancy[d] = gcd(x.constancy[d], y.constancy[d]) })
	case "arith.cmpi":
		x, y := in(0), in(1)
		each(func(d int) {
			out.constancy[d] = gcd(x.constancy[d], y.constancy[d])
			pred := op.EnumAttr("predicate")
			if y.constancy[d] > 1 && (pred == "slt" || pred == "ult" || pred == "sge" || pred == "uge") {
				// x < c over a contiguous run aligned to a common divisor of x and c is constant
				out.constancy[d] = max(out.constancy[d], min(gcd(x.contig[d], gcd(x.div[d], y.div[d])), y.constancy[d]))
			}
		})
	case "arith.select":
		c, x, y := in(0), in(1), in(2)
		each(func(d int) {
			out.constancy[d] = gcd(c.constancy[d], gcd(x.constancy[d], y.constancy[d]))
			out.contig[d] = gcd(c.constancy[d], min(x.contig[d], y.contig[d]))
			out.div[d] = gcd(x.div[d], y.div[d])
		})
	case "tt.get_num_programs":
		return pessimistic(t)
	}
	return out
}
