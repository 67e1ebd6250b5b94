package cpu

import (
	"fmt"

	"github.com/gotriton/gotriton/tileir"
)

func init() {
	register(compileReduce, "tt.reduce")
	register(compileScan, "tt.scan")
	register(compileDot, "tt.dot")
	register(compileMapElementwise, "tt.map_elementwise")
}

// compileMapElementwise runs the region once per pack consecutive elements: argument
// i*pack+j is element g*pack+j of source i, and return r*pack+j is that element of result r.
func compileMapElementwise(fc *fnc, op *tileir.Op) (step, error) {
	pack := int(op.IntAttr("pack"))
	n := 1
	for _, d := range shapeOf(op.Operands[0].Type) {
		n *= d
	}
	if pack < 1 || n%pack != 0 {
		return nil, fmt.Errorf("pack %d does not divide %d elements", pack, n)
	}
	args, steps, term, err := fc.region(op.Regions[0])
	if err != nil {
		return nil, err
	}
	srcs, res, rets := fc.uses(op.Operands), fc.uses(op.Results), fc.uses(term.Operands)
	return func(fr *frame) error {
		for g := 0; g < n; g += pack {
			for i, s := range srcs {
				for j := range pack {
					setElem(&fr.v[args[i*pack+j]], 0, &fr.v[s], g+j)
				}
			}
			if err := runSteps(steps, fr); err != nil {
				return err
			}
			for r, o := range res {
				for j := range pack {
					setElem(&fr.v[o], g+j, &fr.v[rets[r*pack+j]], 0)
				}
			}
		}
		return nil
	}, nil
}

// combiner merges element k of the sources into the accumulators (slots of the results
// or of the scan outputs, at index at).
type combiner struct {
	// fast is set when the region is one arith op on (lhs, rhs): the common sum, max, min.
	fastI func(a, b int64) int64
	fastF func(a, b float64) float64
	foldF foldKernel // fastF as a loop, for the common ops and types
	// otherwise the region runs on scalar slots.
	args  []int
	steps []step
	rets  []int
}

// newCombiner compiles a reduce or scan combine region for n sources.
func newCombiner(fc *fnc, r *tileir.Region, n int) (*combiner, error) {
	args, steps, term, err := fc.region(r)
	if err != nil {
		return nil, err
	}
	c := &combiner{args: args, steps: steps, rets: fc.uses(term.Operands)}
	blk := r.Entry()
	if n != 1 || len(blk.Ops) != 2 || len(term.Operands) != 1 || term.Operands[0].Def() != blk.Ops[0] {
		return c, nil
	}
	op := blk.Ops[0]
	if len(op.Operands) != 2 || op.Operands[0] != blk.Args[0] || op.Operands[1] != blk.Args[1] {
		return c, nil
	}
	s := tileir.ScalarOf(op.Results[0].Type)
	if f, ok := intBinary[op.Name]; ok {
		wrap, w := wrapper(s), s.Bits()
		c.fastI = func(a, b int64) int64 { return wrap(f(a, b, w)) }
	}
	if f, ok := floatBinary[op.Name]; ok {
		round := rounder(s)
		c.fastF = func(a, b float64) float64 { return round(f(a, b)) }
		c.foldF = foldKernelsByType[s][op.Name]
	}
	return c, nil
}

// combine sets acc[j][at] = combine(acc[j][at], src[j][k]) for each source j.
func (c *combiner) combine(fr *frame, acc []*tile, at int, src []*tile, k int) error {
	switch {
	case c.fastF != nil:
		acc[0].f[at] = c.fastF(acc[0].f[at], src[0].f[k])
		return nil
	case c.fastI != nil:
		acc[0].i[at] = c.fastI(acc[0].i[at], src[0].i[k])
		return nil
	}
	n := len(src)
	for j := range n {
		setElem(&fr.v[c.args[j]], 0, acc[j], at)
		setElem(&fr.v[c.args[n+j]], 0, src[j], k)
	}
	if err := runSteps(c.steps, fr); err != nil {
		return err
	}
	for j := range n {
		setElem(acc[j], at, &fr.v[c.rets[j]], 0)
	}
	return nil
}

// setElem copies element j of src into element i of dst.
func setElem(dst *tile, i int, src *tile, j int) {
	if dst.f != nil {
		dst.f[i] = src.f[j]
	} else {
		dst.i[i] = src.i[j]
	}
}

// axisSplit returns the sizes before, along and after axis.
func axisSplit(shape []int, axis int) (outer, n, inner int) {
	outer, inner = 1, 1
	for d, s := range shape {
		switch {
		case d < axis:
			outer *= s
		case d > axis:
			inner *= s
		}
	}
	return outer, shape[axis], inner
}

func tiles(fr *frame, slots []int) []*tile {
	out := make([]*tile, len(slots))
	for i, s := range slots {
		out[i] = &fr.v[s]
	}
	return out
}

// axisOp is what reduce and scan compile alike: the sizes before, along and
// after the axis, the source and result slots, and the combine region.
type axisOp struct {
	outer, size, inner int
	srcs, res          []int
	c                  *combiner
}

func compileAxisOp(fc *fnc, op *tileir.Op) (axisOp, error) {
	axis := int(op.IntAttr("axis"))
	shape := shapeOf(op.Operands[0].Type)
	if axis < 0 || axis >= len(shape) {
		return axisOp{}, fmt.Errorf("axis %d of a rank-%d tensor", axis, len(shape))
	}
	var a axisOp
	a.outer, a.size, a.inner = axisSplit(shape, axis)
	a.srcs, a.res = fc.uses(op.Operands), fc.uses(op.Results)
	var err error
	a.c, err = newCombiner(fc, op.Regions[0], len(op.Operands))
	return a, err
}

func compileReduce(fc *fnc, op *tileir.Op) (step, error) {
	n := len(op.Operands)
	a, err := compileAxisOp(fc, op)
	if err != nil {
		return nil, err
	}
	outer, size, inner, srcs, res, c := a.outer, a.size, a.inner, a.srcs, a.res, a.c
	if c.fastF != nil || c.fastI != nil { // one source combined by one arith op
		f, g, fold := c.fastF, c.fastI, c.foldF
		return func(fr *frame) error {
			s, a := &fr.v[srcs[0]], &fr.v[res[0]]
			for o := range outer {
				for in := range inner {
					at, k0 := o*inner+in, o*size*inner+in
					if fold != nil {
						x := s.f[k0 : k0+(size-1)*inner+1]
						acc := x[0]
						if len(x) > inner {
							acc = fold(acc, x[inner:], inner)
						}
						a.f[at] = acc
						continue
					}
					if f != nil {
						acc, x := s.f[k0], s.f[k0:k0+(size-1)*inner+1]
						for k := inner; k < len(x); k += inner {
							acc = f(acc, x[k])
						}
						a.f[at] = acc
						continue
					}
					acc, x := s.i[k0], s.i[k0:k0+(size-1)*inner+1]
					for k := inner; k < len(x); k += inner {
						acc = g(acc, x[k])
					}
					a.i[at] = acc
				}
			}
			return nil
		}, nil
	}
	return func(fr *frame) error {
		src, acc := tiles(fr, srcs), tiles(fr, res)
		for o := range outer {
			for in := range inner {
				at := o*inner + in
				for j := range n {
					setElem(acc[j], at, src[j], o*size*inner+in)
				}
				for k := 1; k < size; k++ {
					if err := c.combine(fr, acc, at, src, (o*size+k)*inner+in); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}, nil
}

func compileScan(fc *fnc, op *tileir.Op) (step, error) {
	n := len(op.Operands)
	a, err := compileAxisOp(fc, op)
	if err != nil {
		return nil, err
	}
	outer, size, inner, srcs, res, c := a.outer, a.size, a.inner, a.srcs, a.res, a.c
	reverse := op.Attr("reverse") == tileir.BoolAttr(true)
	return func(fr *frame) error {
		src, out := tiles(fr, srcs), tiles(fr, res)
		for o := range outer {
			for in := range inner {
				pos := func(k int) int {
					if reverse {
						k = size - 1 - k
					}
					return (o*size+k)*inner + in
				}
				for j := range n {
					setElem(out[j], pos(0), src[j], pos(0))
				}
				for k := 1; k < size; k++ {
					for j := range n {
						setElem(out[j], pos(k), out[j], pos(k-1))
					}
					if err := c.combine(fr, out, pos(k), src, pos(k)); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}, nil
}

// compileDot: d = a·b + c over the last two dimensions (leading ones are a batch). Float
// products are summed in float64 over the whole K extent and added to c in one rounding
// to the result type; fp32 inputs with inputPrecision = tf32 are first rounded to tf32.
func compileDot(fc *fnc, op *tileir.Op) (step, error) {
	as, bs, cs := shapeOf(op.Operands[0].Type), shapeOf(op.Operands[1].Type), shapeOf(op.Results[0].Type)
	r := len(as)
	if r < 2 || len(bs) != r || len(cs) != r || as[r-1] != bs[r-2] || cs[r-2] != as[r-2] || cs[r-1] != bs[r-1] {
		return nil, fmt.Errorf("shapes %v x %v -> %v", as, bs, cs)
	}
	m, k, n := as[r-2], as[r-1], bs[r-1]
	batch := 1
	for _, d := range as[:r-2] {
		batch *= d
	}
	a, b, c, out := fc.use(op.Operands[0]), fc.use(op.Operands[1]), fc.use(op.Operands[2]), fc.use(op.Results[0])
	rs := tileir.ScalarOf(op.Results[0].Type)
	if !rs.IsFloat() {
		wrap := wrapper(rs)
		return func(fr *frame) error {
			x, y, z, o := fr.v[a].i, fr.v[b].i, fr.v[c].i, fr.v[out].i
			for bt := range batch {
				for i := range m {
					for j := range n {
						sum := z[(bt*m+i)*n+j]
						for kk := range k {
							sum += x[(bt*m+i)*k+kk] * y[(bt*k+kk)*n+j]
						}
						o[(bt*m+i)*n+j] = wrap(sum)
					}
				}
			}
			return nil
		}, nil
	}
	round := rounder(rs)
	// tf32x3 emulates full fp32 precision, so only tf32 rounds.
	tf32 := op.EnumAttr("inputPrecision") == "tf32" && tileir.ScalarOf(op.Operands[0].Type) == tileir.F32
	return func(fr *frame) error {
		x, y, z, o := fr.v[a].f, fr.v[b].f, fr.v[c].f, fr.v[out].f
		if tf32 {
			x, y = roundAll(x, fmtTF32), roundAll(y, fmtTF32)
		}
		row := make([]float64, n)
		for bt := range batch {
			for i := range m {
				clear(row)
				xr := x[(bt*m+i)*k : (bt*m+i+1)*k]
				kk := 0
				// Four rows of b per pass over row: the same additions in the same order
				// as one row at a time, with a quarter of the loads and stores of row.
				for ; kk+4 <= k; kk += 4 {
					a0, a1, a2, a3 := xr[kk], xr[kk+1], xr[kk+2], xr[kk+3]
					y0 := y[(bt*k+kk)*n : (bt*k+kk+1)*n]
					y1 := y[(bt*k+kk+1)*n : (bt*k+kk+2)*n][:len(y0)]
					y2 := y[(bt*k+kk+2)*n : (bt*k+kk+3)*n][:len(y0)]
					y3 := y[(bt*k+kk+3)*n : (bt*k+kk+4)*n][:len(y0)]
					r := row[:len(y0)]
					for j, v := range y0 {
						r[j] = r[j] + a0*v + a1*y1[j] + a2*y2[j] + a3*y3[j]
					}
				}
				for ; kk < k; kk++ {
					aik := xr[kk]
					yr := y[(bt*k+kk)*n : (bt*k+kk+1)*n]
					for j, v := range yr {
						row[j] += aik * v
					}
				}
				base := (bt*m + i) * n
				for j, v := range row {
					o[base+j] = round(z[base+j] + v)
				}
			}
		}
		return nil
	}, nil
}

// roundAll returns a copy of xs rounded to f.
func roundAll(xs []float64, f *format) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = f.round(x)
	}
	return out
}
