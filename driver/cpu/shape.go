package cpu

import (
	"fmt"
	"slices"

	"github.com/gotriton/gotriton/tileir"
)

// Shape ops move elements without changing them. Shapes are static, so each op's element
// mapping is computed once, at compile time, as a gather index: out[i] = in[idx[i]].

func init() {
	register(compileSplat, "tt.splat")
	register(compileBroadcast, "tt.broadcast")
	register(compileTrans, "tt.trans")
	register(compileSameOrder, "tt.expand_dims", "tt.reshape")
	register(compileJoin, "tt.join")
	register(compileSplit, "tt.split")
	register(compileCat, "tt.cat")
	register(compileMakeRange, "tt.make_range")
	register(compileProgramID, "tt.get_program_id")
	register(compileNumPrograms, "tt.get_num_programs")
	register(compileHistogram, "tt.histogram")
	register(compileGather, "tt.gather")
	register(compileUnsplat, "tt.unsplat")
}

// gather returns a step that sets out[i] = src[idx[i]] for integer or float tiles.
func gather(src, out int, idx []int) step {
	return func(fr *frame) error {
		s, o := &fr.v[src], &fr.v[out]
		if o.f != nil {
			for i, j := range idx {
				o.f[i] = s.f[j]
			}
			return nil
		}
		for i, j := range idx {
			o.i[i] = s.i[j]
		}
		return nil
	}
}

// gatherIndex builds idx for an output of shape out from a source index function.
func gatherIndex(out []int, src func(idx []int) int) []int {
	n := 1
	for _, d := range out {
		n *= d
	}
	res := make([]int, n)
	for i := range res {
		res[i] = src(unflatten(i, out))
	}
	return res
}

// flatten is the inverse of unflatten.
func flatten(idx, shape []int) int {
	f := 0
	for d, k := range idx {
		f = f*shape[d] + k
	}
	return f
}

// compileSplat fills the result with the scalar. A splat of a pointer that only
// tt.addptr uses as its base is fused into the addptr (see compileAddPtr) and not filled.
func compileSplat(fc *fnc, op *tileir.Op) (step, error) {
	src, out := fc.use(op.Operands[0]), fc.use(op.Results[0])
	if fc.onlyUsedAs(op.Results[0], "tt.addptr", 0) {
		return nil, nil
	}
	return func(fr *frame) error {
		s, o := &fr.v[src], &fr.v[out]
		if o.f != nil {
			fill := s.f[0]
			for i := range o.f {
				o.f[i] = fill
			}
			return nil
		}
		fill := s.i[0]
		for i := range o.i {
			o.i[i] = fill
		}
		return nil
	}, nil
}

func compileBroadcast(fc *fnc, op *tileir.Op) (step, error) {
	in, out := shapeOf(op.Operands[0].Type), shapeOf(op.Results[0].Type)
	if len(in) != len(out) {
		return nil, fmt.Errorf("rank %d to rank %d", len(in), len(out))
	}
	idx := gatherIndex(out, func(o []int) int {
		s := slices.Clone(o)
		for d := range s {
			if in[d] == 1 {
				s[d] = 0
			}
		}
		return flatten(s, in)
	})
	return gather(fc.use(op.Operands[0]), fc.use(op.Results[0]), idx), nil
}

func compileTrans(fc *fnc, op *tileir.Op) (step, error) {
	in, out := shapeOf(op.Operands[0].Type), shapeOf(op.Results[0].Type)
	order, _ := op.Attr("order").(tileir.I32ArrayAttr)
	if len(order) != len(in) {
		return nil, fmt.Errorf("order %v for rank %d", order, len(in))
	}
	idx := gatherIndex(out, func(o []int) int {
		s := make([]int, len(in))
		for d, k := range o {
			s[order[d]] = k
		}
		return flatten(s, in)
	})
	return gather(fc.use(op.Operands[0]), fc.use(op.Results[0]), idx), nil
}

// compileSameOrder: expand_dims and reshape keep the row-major element order (a reshape
// that allows reordering may keep it too).
func compileSameOrder(fc *fnc, op *tileir.Op) (step, error) {
	src, out := fc.use(op.Operands[0]), fc.use(op.Results[0])
	return func(fr *frame) error {
		fr.v[out].copyFrom(&fr.v[src])
		return nil
	}, nil
}

// compileJoin stacks two tensors along a new minor dimension of size 2.
func compileJoin(fc *fnc, op *tileir.Op) (step, error) {
	a, b, out := fc.use(op.Operands[0]), fc.use(op.Operands[1]), fc.use(op.Results[0])
	return func(fr *frame) error {
		x, y, o := &fr.v[a], &fr.v[b], &fr.v[out]
		for i := range x.f {
			o.f[2*i], o.f[2*i+1] = x.f[i], y.f[i]
		}
		for i := range x.i {
			o.i[2*i], o.i[2*i+1] = x.i[i], y.i[i]
		}
		return nil
	}, nil
}

func compileSplit(fc *fnc, op *tileir.Op) (step, error) {
	n := int(op.Results[0].Type.(*tileir.TensorType).NumElements())
	even, odd := make([]int, n), make([]int, n)
	for i := range n {
		even[i], odd[i] = 2*i, 2*i+1
	}
	src := fc.use(op.Operands[0])
	lhs, rhs := gather(src, fc.use(op.Results[0]), even), gather(src, fc.use(op.Results[1]), odd)
	return func(fr *frame) error {
		if err := lhs(fr); err != nil {
			return err
		}
		return rhs(fr)
	}, nil
}

// compileCat concatenates along dimension 0, which in row-major order is appending.
func compileCat(fc *fnc, op *tileir.Op) (step, error) {
	a, b, out := fc.use(op.Operands[0]), fc.use(op.Operands[1]), fc.use(op.Results[0])
	return func(fr *frame) error {
		x, y, o := &fr.v[a], &fr.v[b], &fr.v[out]
		copy(o.f[copy(o.f, x.f):], y.f)
		copy(o.i[copy(o.i, x.i):], y.i)
		return nil
	}, nil
}

func compileMakeRange(fc *fnc, op *tileir.Op) (step, error) {
	start, out := op.IntAttr("start"), fc.use(op.Results[0])
	wrap := wrapper(tileir.ScalarOf(op.Results[0].Type))
	fc.fn.inits = append(fc.fn.inits, func(fr *frame) { // a constant, filled once per frame
		for i := range fr.v[out].i {
			fr.v[out].i[i] = wrap(start + int64(i))
		}
	})
	return nil, nil
}

// axisOf reads a program axis attribute (x, y, z or 0, 1, 2).
func axisOf(op *tileir.Op) (int, error) {
	switch a := op.Attr("axis").(type) {
	case tileir.EnumAttr:
		if i := slices.Index([]string{"x", "y", "z"}, string(a)); i >= 0 {
			return i, nil
		}
	case tileir.IntAttr:
		if a.V >= 0 && a.V < 3 {
			return int(a.V), nil
		}
	}
	return 0, fmt.Errorf("bad axis %v", op.Attr("axis"))
}

func compileProgramID(fc *fnc, op *tileir.Op) (step, error) {
	axis, err := axisOf(op)
	return mapI(fc, op, func(fr *frame, _ int) int64 { return int64(fr.inst.pid[axis]) }), err
}

func compileNumPrograms(fc *fnc, op *tileir.Op) (step, error) {
	axis, err := axisOf(op)
	return mapI(fc, op, func(fr *frame, _ int) int64 { return int64(fr.inst.l.grid[axis]) }), err
}

func compileHistogram(fc *fnc, op *tileir.Op) (step, error) {
	src, mask, out := fc.use(op.Operands[0]), optSlot(fc, op, 1), fc.use(op.Results[0])
	return func(fr *frame) error {
		o := fr.v[out].i
		clear(o)
		for i, v := range fr.v[src].i {
			if !masked(fr, mask, i) && v >= 0 && v < int64(len(o)) {
				o[v]++
			}
		}
		return nil
	}, nil
}

// compileGather: out[i] = src[i with dimension axis replaced by idx[i]]. An index outside
// the source's dimension stops the kernel (on a GPU it reads an unspecified element).
func compileGather(fc *fnc, op *tileir.Op) (step, error) {
	srcShape, outShape := shapeOf(op.Operands[0].Type), shapeOf(op.Results[0].Type)
	axis := int(op.IntAttr("axis"))
	stride := 1
	for _, d := range srcShape[axis+1:] {
		stride *= d
	}
	// base[i] is the source position of out[i] with the axis coordinate set to 0.
	base := gatherIndex(outShape, func(o []int) int {
		s := slices.Clone(o)
		s[axis] = 0
		return flatten(s, srcShape)
	})
	src, idx, out := fc.use(op.Operands[0]), fc.use(op.Operands[1]), fc.use(op.Results[0])
	n := int64(srcShape[axis])
	return func(fr *frame) error {
		s, ix, o := &fr.v[src], fr.v[idx].i, &fr.v[out]
		for i, b := range base {
			k := ix[i]
			if k < 0 || k >= n {
				return fr.fail(op, i, "gather index %d is out of range [0, %d) along axis %d", k, n, axis)
			}
			j := b + int(k)*stride
			if o.f != nil {
				o.f[i] = s.f[j]
			} else {
				o.i[i] = s.i[j]
			}
		}
		return nil
	}, nil
}

// compileUnsplat reads the one element of a single-element tensor.
func compileUnsplat(fc *fnc, op *tileir.Op) (step, error) {
	src, out := fc.use(op.Operands[0]), fc.use(op.Results[0])
	return func(fr *frame) error {
		fr.v[out].copyFrom(&fr.v[src])
		return nil
	}, nil
}
