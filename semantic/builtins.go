package semantic

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/tileir"
)

// The registry of tl.* builtins. Each def gives the Python signature Triton 3.6 declares and
// the implementation: the type rule of semantic.py / core.py / standard.py, and the IR.

func init() {
	// Types and markers usable as values (annotations, isinstance, constructors).
	for _, n := range []string{"tl.constexpr", "tl.tensor", "tl.tensor_descriptor", "tl.tensor_descriptor_base", "tl.dtype", "tl.tuple"} {
		name := n
		def(name, "*args", func(c *callCtx) Value {
			if name == "tl.constexpr" && len(c.rest) == 1 {
				if _, ok := c.rest[0].v.(*Tensor); !ok {
					return c.rest[0].v
				}
			}
			if name == "tl.tuple" && len(c.rest) == 1 {
				if t, ok := c.rest[0].v.(Tuple); ok {
					return t
				}
			}
			c.g.fail(c.call, "%s cannot be called in a kernel", name)
			return nil
		})
	}
	def("tl.pointer_type", "element_ty, address_space=1, const=False", func(c *callCtx) Value {
		return DTypeVal{&PtrType{Elem: c.dtype("element_ty"), AddrSpace: int(c.constInt("address_space")), Const: c.constBool("const")}}
	})
	def("tl.range", "arg1, arg2=None, step=None, num_stages=None, loop_unroll_factor=None, disallow_acc_multi_buffer=False, flatten=False, warp_specialize=False, disable_licm=False", loopOnly)
	def("tl.static_range", "arg1, arg2=None, step=None", loopOnly)
	def("tl.condition", "arg1, disable_licm=False", func(c *callCtx) Value {
		return WhileCond{Cond: c.arg("arg1"), DisableLicm: c.constBool("disable_licm")}
	})

	// Programming model.
	def("tl.program_id", "axis", func(c *callCtx) Value {
		return &Tensor{V: c.g.b.GetProgramID(c.programAxis()), T: Int32}
	})
	def("tl.num_programs", "axis", func(c *callCtx) Value {
		return &Tensor{V: c.g.b.GetNumPrograms(c.programAxis()), T: Int32}
	})

	// Creation.
	def("tl.arange", "start, end", func(c *callCtx) Value {
		start, end := c.constInt("start"), c.constInt("end")
		if start>>32 != 0 && start >= 0 || end>>32 != 0 && end >= 0 || start < -(1<<31) || end < -(1<<31) {
			c.g.fail(c.call, "arange must fit in int32")
		}
		if end <= start {
			c.g.fail(c.call, "arange's end argument must be greater than the start argument")
		}
		if n := end - start; n&(n-1) != 0 {
			c.g.fail(c.call, "arange's range must be a power of 2, got %d", n)
		}
		t := &BlockType{Elem: Int32, Shape: []int64{end - start}}
		return &Tensor{V: c.g.b.MakeRange(int32(start), int32(end)), T: t}
	})
	def("tl.full", "shape, value, dtype", func(c *callCtx) Value {
		return c.g.full(c, c.shape("shape"), c.arg("value"), c.dtype("dtype"))
	})
	def("tl.zeros", "shape, dtype", func(c *callCtx) Value {
		return c.g.full(c, c.shape("shape"), constInt(0), c.dtype("dtype"))
	})
	def("tl.zeros_like", "input", func(c *callCtx) Value {
		x := c.tensor("input")
		return c.g.full(c, shapeOf(x.T), constInt(0), scalarOf(x.T))
	})
	def("tl.full_like", "input, value, dtype=None", func(c *callCtx) Value {
		x := c.tensor("input")
		d := scalarOf(x.T)
		if c.given("dtype") {
			d = c.dtype("dtype")
		}
		return c.g.full(c, shapeOf(x.T), c.arg("value"), d)
	})
	def("tl.cast", "input, dtype, fp_downcast_rounding=None, bitcast=False", func(c *callCtx) Value { return cast(c, "input") })
	def("tensor.to", "self, dtype, fp_downcast_rounding=None, bitcast=False", func(c *callCtx) Value { return cast(c, "self") })

	// Memory.
	def("tl.load", "pointer, mask=None, other=None, boundary_check=(), padding_option='', cache_modifier='', eviction_policy='', volatile=False", loadImpl)
	def("tl.store", "pointer, value, mask=None, boundary_check=(), cache_modifier='', eviction_policy=''", storeImpl)
	def("tl.make_block_ptr", "base, shape, strides, offsets, block_shape, order", makeBlockPtr)
	def("tl.advance", "base, offsets", func(c *callCtx) Value {
		p := c.tensor("base")
		return &Tensor{V: c.g.b.Advance(p.V, c.g.i32Values(c, "offsets")), T: p.T}
	})
	def("tl.make_tensor_descriptor", "base, shape, strides, block_shape, padding_option='zero'", makeTensorDesc)
	def("desc.load", "self, offsets", func(c *callCtx) Value {
		d := c.desc("self")
		return &Tensor{V: c.g.b.DescriptorLoad(d.V, c.g.descOffsets(c, d), tileir.MemOpts{}), T: d.T.Block}
	})
	def("desc.store", "self, offsets, value", func(c *callCtx) Value {
		d := c.desc("self")
		v := c.tensor("value")
		if !slices.Equal(shapeOf(v.T), d.T.Block.Shape) {
			c.fail("value", "descriptor store of a value of shape %s into a block of shape %s", shapeString(shapeOf(v.T)), shapeString(d.T.Block.Shape))
		}
		v = c.g.cast(v, d.T.Block.Elem)
		c.g.b.DescriptorStore(d.V, v.V, c.g.descOffsets(c, d))
		return constNone
	})
	alias("tl.load_tensor_descriptor", "desc.load")
	alias("tl.store_tensor_descriptor", "desc.store")

	// Atomics.
	for _, k := range []string{"add", "max", "min", "and", "or", "xor", "xchg"} {
		kind := k
		def("tl.atomic_"+kind, "pointer, val, mask=None, sem=None, scope=None", func(c *callCtx) Value { return atomicRMW(c, kind) })
	}
	def("tl.atomic_cas", "pointer, cmp, val, sem=None, scope=None", func(c *callCtx) Value {
		p, cmpv, val := c.tensor("pointer"), c.tensor("cmp"), c.tensor("val")
		elem := pointee(p.T)
		if b := dtypeOf(elem).Bits(); b != 16 && b != 32 && b != 64 {
			c.fail("pointer", "atomic_cas only supports elements with width {16, 32, 64}")
		}
		cmpv, val = c.g.cast(cmpv, elem), c.g.cast(val, elem)
		return &Tensor{V: c.g.b.AtomicCAS(p.V, cmpv.V, val.V, c.sem(), c.scope()), T: val.T}
	})

	// Linear algebra, reductions and scans.
	def("tl.dot", "input, other, acc=None, input_precision=None, allow_tf32=None, max_num_imprecise_acc=None, out_dtype=tl.float32", dotImpl)
	def("tl.sum", "input, axis=None, keep_dims=False, dtype=None", func(c *callCtx) Value {
		x := c.tensor("input")
		if c.given("dtype") {
			x = c.g.cast(x, c.dtype("dtype"))
		} else if d := dtypeOf(x.T); d.IsInt() && d.Bits() < 32 {
			x = c.g.cast(x, intDType(32, !d.IsUnsigned()))
		}
		return c.g.reduce(c, []*Tensor{x}, c.arg("axis"), c.constBool("keep_dims"), simpleCombine("addf", "addi"))
	})
	def("tl.xor_sum", "input, axis=None, keep_dims=False", func(c *callCtx) Value {
		x := c.tensor("input")
		if !dtypeOf(x.T).IsInt() {
			c.fail("input", "xor_sum only supported for integers")
		}
		return c.g.reduce(c, []*Tensor{x}, c.arg("axis"), c.constBool("keep_dims"), simpleCombine("", "xori"))
	})
	def("tl.reduce_or", "input, axis, keep_dims=False", func(c *callCtx) Value {
		x := c.tensor("input")
		if !dtypeOf(x.T).IsInt() {
			c.fail("input", "reduce_or only supported for integers")
		}
		return c.g.reduce(c, []*Tensor{x}, c.arg("axis"), c.constBool("keep_dims"), simpleCombine("", "ori"))
	})
	for name, op := range map[string]ast.Operator{"add": ast.Add, "sub": ast.Sub, "mul": ast.Mult} {
		// the operator's op, with its integer overflow check under debug unless
		// sanitize_overflow=False (checkOverflow)
		def("tl."+name, "x, y, sanitize_overflow=True", func(c *callCtx) Value {
			saved := c.g.noOverflowCheck
			c.g.noOverflowCheck = !c.constBool("sanitize_overflow")
			defer func() { c.g.noOverflowCheck = saved }()
			return c.g.binary(c.call, op, c.arg("x"), c.arg("y"), c.node("x"), c.node("y"))
		})
	}
	for _, mm := range []string{"max", "min"} {
		isMax := mm == "max"
		def("tl."+mm, "input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False", func(c *callCtx) Value {
			x := promoteBF16(c, c.tensor("input"))
			if c.constBool("return_indices") {
				return c.g.argReduce(c, x, isMax, c.constBool("return_indices_tie_break_left"), true)
			}
			if d := dtypeOf(x.T); d.Bits() < 32 {
				if d.IsFloat() {
					x = c.g.cast(x, FP32)
				} else {
					x = c.g.cast(x, Int32)
				}
			}
			return c.g.reduce(c, []*Tensor{x}, c.arg("axis"), c.constBool("keep_dims"), minMaxCombine(isMax))
		})
		def("tl.arg"+mm, "input, axis, tie_break_left=True, keep_dims=False", func(c *callCtx) Value {
			x := promoteBF16(c, c.tensor("input"))
			return c.g.argReduce(c, x, isMax, c.constBool("tie_break_left"), false)
		})
	}
	def("tl.reduce", "input, axis, combine_fn, keep_dims=False", func(c *callCtx) Value {
		ins, single := c.tensors("input")
		r := c.g.reduce(c, ins, c.arg("axis"), c.constBool("keep_dims"), c.g.jitCombine(c))
		// reduce returns a lone result bare; a tuple input of one gets a tuple back.
		if t, ok := r.(*Tensor); ok && !single {
			return Tuple{t}
		}
		return r
	})
	def("tl.cumsum", "input, axis=0, reverse=False, dtype=None", func(c *callCtx) Value {
		x := promoteBF16(c, c.tensor("input"))
		if c.given("dtype") {
			x = c.g.cast(x, c.dtype("dtype"))
		} else if d := dtypeOf(x.T); d.IsInt() && d.Bits() < 32 {
			x = c.g.cast(x, intDType(32, !d.IsUnsigned()))
		}
		return c.g.scan(c, []*Tensor{x}, simpleCombine("addf", "addi"))[0]
	})
	def("tl.cumprod", "input, axis=0, reverse=False", func(c *callCtx) Value {
		return c.g.scan(c, []*Tensor{promoteBF16(c, c.tensor("input"))}, simpleCombine("mulf", "muli"))[0]
	})
	def("tl.associative_scan", "input, axis, combine_fn, reverse=False", func(c *callCtx) Value {
		ins, single := c.tensors("input")
		r := c.g.scan(c, ins, c.g.jitCombine(c))
		if single {
			return r[0]
		}
		out := Tuple{}
		for _, t := range r {
			out = append(out, t)
		}
		return out
	})

	// Elementwise.
	def("tl.where", "condition, x, y", func(c *callCtx) Value {
		cond := c.tensor("condition")
		x, y := c.operand("x"), c.operand("y")
		return c.g.whereOp(c.call, cond, x, y)
	})
	for _, mm := range []string{"maximum", "minimum"} {
		isMax := mm == "maximum"
		def("tl."+mm, "x, y, propagate_nan=0", func(c *callCtx) Value {
			a, b := c.g.binaryTypeCheck(c.call, c.operand("x"), c.operand("y"), false, false, true, false)
			return c.g.minMax(c.call, a, b, isMax, c.constInt("propagate_nan") != 0)
		})
	}
	def("tl.clamp", "x, min, max, propagate_nan=0", func(c *callCtx) Value {
		lo, hi := c.g.binaryTypeCheck(c.call, c.operand("min"), c.operand("max"), false, false, true, false)
		x, lo2 := c.g.binaryTypeCheck(c.call, c.operand("x"), operand{lo, c.node("min")}, false, false, true, false)
		x, hi2 := c.g.binaryTypeCheck(c.call, operand{x, c.node("x")}, operand{hi, c.node("max")}, false, false, true, false)
		if !dtypeOf(x.T).IsFloat() {
			c.fail("x", "Unexpected dtype %s. Only floating point clamp is supported", scalarOf(x.T))
		}
		nan := "none"
		if c.constInt("propagate_nan") != 0 {
			nan = "all"
		}
		return &Tensor{V: c.g.b.ClampF(x.V, lo2.V, hi2.V, nan), T: x.T}
	})
	for _, fn := range []string{"exp", "exp2", "log", "log2", "cos", "sin", "sqrt", "rsqrt", "floor", "ceil", "erf"} {
		name := fn
		def("tl."+name, "x", func(c *callCtx) Value {
			x := c.floatArg("x")
			return &Tensor{V: c.g.b.Math(name, x.V), T: x.T}
		})
	}
	def("tl.sqrt_rn", "x", func(c *callCtx) Value {
		x := c.floatArg("x")
		return &Tensor{V: c.g.b.Unary("tt.precise_sqrt", x.V), T: x.T}
	})
	def("tl.abs", "x", func(c *callCtx) Value {
		x := c.tensor("x")
		d := dtypeOf(x.T)
		switch {
		case d.IsFP8():
			mask := c.g.constant(c.call, pyeval.NewInt(0x7f), Int8)
			bits := c.g.bitcast(c.call, x, Int8)
			a, b := c.g.bitwiseTypeCheck(c.call, operand{bits, c.call}, operand{mask, c.call})
			return c.g.bitcast(c.call, c.g.arith(a, b, "", "andi"), d)
		case d.IsFloat():
			return &Tensor{V: c.g.b.Math("absf", x.V), T: x.T}
		case d.IsSigned():
			return &Tensor{V: c.g.b.Math("absi", x.V), T: x.T}
		case d.IsUnsigned():
			return x
		}
		c.fail("x", "Unexpected dtype %s", scalarOf(x.T))
		return nil
	})
	def("tl.fma", "x, y, z", func(c *callCtx) Value {
		x, y := c.g.binaryTypeCheck(c.call, c.operand("x"), c.operand("y"), false, false, true, false)
		z, x2 := c.g.binaryTypeCheck(c.call, c.operand("z"), operand{x, c.node("x")}, false, false, true, false)
		z, y2 := c.g.binaryTypeCheck(c.call, operand{z, c.node("z")}, operand{y, c.node("y")}, false, false, true, false)
		return &Tensor{V: c.g.b.Math("fma", x2.V, y2.V, z.V), T: z.T}
	})
	def("tl.fdiv", "x, y, ieee_rounding=False", func(c *callCtx) Value {
		x, y := c.g.binaryTypeCheck(c.call, c.operand("x"), c.operand("y"), false, false, false, true)
		if !dtypeOf(x.T).IsFloat() || !dtypeOf(y.T).IsFloat() {
			c.g.fail(c.call, "both operands of fdiv must have floating scalar type")
		}
		return c.g.arith(x, y, "divf", "")
	})
	def("tl.div_rn", "x, y", func(c *callCtx) Value {
		x, y := c.g.binaryTypeCheck(c.call, c.operand("x"), c.operand("y"), false, false, true, false)
		return &Tensor{V: c.g.b.Binary("tt.precise_divf", x.V, y.V), T: x.T}
	})
	def("tl.umulhi", "x, y", func(c *callCtx) Value {
		x, y := c.g.binaryTypeCheck(c.call, c.operand("x"), c.operand("y"), false, false, true, false)
		return &Tensor{V: c.g.b.Binary("tt.mulhiui", x.V, y.V), T: x.T}
	})
	def("tl.cdiv", "x, div", func(c *callCtx) Value {
		x, div := c.arg("x"), c.arg("div")
		if isNumber(x) && isNumber(div) {
			one := c.g.binary(c.call, ast.Sub, div, constInt(1), c.node("div"), c.call)
			sum := c.g.binary(c.call, ast.Add, x, one, c.node("x"), c.call)
			return c.g.binary(c.call, ast.FloorDiv, sum, div, c.call, c.node("div"))
		}
		one := c.g.binary(c.call, ast.Sub, div, constInt(1), c.node("div"), c.node("div"))
		sum := c.g.binary(c.call, ast.Add, x, one, c.node("x"), c.node("div"))
		return c.g.binary(c.call, ast.FloorDiv, sum, div, c.call, c.node("div"))
	})
	def("tl.sigmoid", "x", func(c *callCtx) Value {
		x := c.arg("x")
		neg := c.g.unary(&ast.UnaryOp{Op: ast.USub, Pos: c.call.Pos}, x)
		e := &Tensor{V: nil}
		nt := c.g.toTensor(c.node("x"), neg)
		if !dtypeOf(nt.T).IsFloat() {
			c.fail("x", "sigmoid expects a floating-point tensor, got %s", nt.T)
		}
		e = &Tensor{V: c.g.b.Math("exp", nt.V), T: nt.T}
		den := c.g.binary(c.call, ast.Add, constInt(1), e, c.call, c.call)
		return c.g.binary(c.call, ast.Div, constInt(1), den, c.call, c.call)
	})
	def("tl.softmax", "x, dim=None, keep_dims=False, ieee_rounding=False", softmaxImpl)

	// Shapes.
	def("tl.reshape", "input, *shape, can_reorder=False", reshapeImpl)
	alias("tl.view", "tl.reshape")
	def("tl.ravel", "x, can_reorder=False", func(c *callCtx) Value {
		x := c.tensor("x")
		return c.g.reshapeTo(c, x, []int64{numel(x.T)}, c.constBool("can_reorder"))
	})
	def("tl.trans", "input, *dims", func(c *callCtx) Value {
		x := c.tensor("input")
		dims := c.dims()
		if len(dims) == 0 { // swap the last two dimensions
			n := int64(len(shapeOf(x.T)))
			if n < 2 {
				c.fail("input", "tl.trans invoked with a 0- or 1-dimensional tensor")
			}
			for d := range n - 2 {
				dims = append(dims, d)
			}
			dims = append(dims, n-1, n-2)
		}
		return c.g.permute(c, x, dims)
	})
	def("tl.permute", "input, *dims", func(c *callCtx) Value {
		return c.g.permute(c, c.tensor("input"), c.dims())
	})
	def("tl.expand_dims", "input, axis", func(c *callCtx) Value {
		x := c.tensor("input")
		axes := c.intList("axis")
		rank := len(shapeOf(x.T)) + len(axes)
		for i := range axes {
			if axes[i] < 0 {
				axes[i] += int64(rank)
			}
			if axes[i] < 0 || axes[i] >= int64(rank) {
				c.fail("axis", "invalid axis %d for a result of rank %d", axes[i], rank)
			}
		}
		sortInts(axes)
		for _, a := range axes {
			x = c.g.expandDims(x, int(a))
		}
		return x
	})
	def("tl.broadcast_to", "input, *shape", func(c *callCtx) Value {
		return c.g.broadcastTo(c.call, c.tensor("input"), c.dims())
	})
	def("tl.broadcast", "input, other", func(c *callCtx) Value {
		a, b := c.g.broadcastPair(c.call, c.tensor("input"), c.tensor("other"))
		return Tuple{a, b}
	})
	def("tl.join", "a, b", func(c *callCtx) Value {
		a, b := c.g.broadcastPair(c.call, c.tensor("a"), c.tensor("b"))
		if !sameType(scalarOf(a.T), scalarOf(b.T)) {
			c.g.fail(c.call, "join() operands must have the same dtype, got %s and %s", scalarOf(a.T), scalarOf(b.T))
		}
		scalar := len(shapeOf(a.T)) == 0
		if scalar {
			a, b = c.g.expandDims(a, 0), c.g.expandDims(b, 0)
		}
		nt := &BlockType{Elem: scalarOf(a.T), Shape: append(append([]int64{}, shapeOf(a.T)...), 2)}
		r := &Tensor{V: c.g.b.Join(a.V, b.V), T: nt}
		if scalar {
			r = c.g.reshapeTo(c, r, []int64{2}, false)
		}
		return r
	})
	def("tl.split", "a", func(c *callCtx) Value {
		x := c.tensor("a")
		s := shapeOf(x.T)
		if len(s) == 0 || s[len(s)-1] != 2 {
			c.fail("a", "split() needs a tensor whose last dimension is 2, got %s", x.T)
		}
		if len(s) == 1 {
			x = c.g.expandDims(x, 0)
			s = shapeOf(x.T)
		}
		l, r := c.g.b.Split(x.V)
		t := blockOf(scalarOf(x.T), s[:len(s)-1])
		lt, rt := &Tensor{V: l, T: t}, &Tensor{V: r, T: t}
		if len(shapeOf(c.tensor("a").T)) == 1 {
			lt, rt = c.g.unsplat(lt), c.g.unsplat(rt)
		}
		return Tuple{lt, rt}
	})
	def("tl.cat", "input, other, can_reorder=False", func(c *callCtx) Value {
		x, y := c.tensor("input"), c.tensor("other")
		if !c.constBool("can_reorder") {
			c.fail("can_reorder", "current implementation of `cat` always may reorder elements")
		}
		if len(shapeOf(x.T)) != 1 || !sameType(x.T, y.T) {
			c.g.fail(c.call, "cat() needs two 1-D tensors of the same type, got %s and %s", x.T, y.T)
		}
		return &Tensor{V: c.g.b.Cat(x.V, y.V), T: blockOf(scalarOf(x.T), []int64{2 * shapeOf(x.T)[0]})}
	})
	def("tl.interleave", "a, b", func(c *callCtx) Value {
		j := registry["tl.join"].impl(c).(*Tensor)
		s := shapeOf(j.T)
		if len(s) == 1 { // two scalars: join already gave a tensor of 2
			return j
		}
		ns := append(append([]int64{}, s[:len(s)-2]...), s[len(s)-2]*2)
		return c.g.reshapeTo(c, j, ns, false)
	})

	def("triton.next_power_of_2", "n", func(c *callCtx) Value {
		// triton.next_power_of_2's bit trick, on Python ints (0 gives 0)
		n := c.constInt("n") - 1
		for sh := 1; sh <= 32; sh *= 2 {
			n |= n >> sh
		}
		return constInt(n + 1)
	})
	def("tl.histogram", "input, num_bins, mask=None", func(c *callCtx) Value {
		x := c.tensor("input")
		if len(shapeOf(x.T)) != 1 {
			c.fail("input", "histogram only supports 1D input")
		}
		if !dtypeOf(x.T).IsInt() {
			c.fail("input", "histogram only supports integer input")
		}
		bins := c.constInt("num_bins")
		if bins <= 0 || bins&(bins-1) != 0 {
			c.fail("num_bins", "Shape element %d must be a power of 2", bins)
		}
		var mask *tileir.Value
		if m := c.optTensor("mask"); m != nil {
			m = c.g.broadcastTo(c.node("mask"), m, shapeOf(x.T))
			if dtypeOf(m.T) != Int1 {
				c.fail("mask", "Mask must have boolean scalar type")
			}
			mask = m.V
		}
		return &Tensor{V: c.g.b.Histogram(x.V, bins, mask), T: blockOf(Int32, []int64{bins})}
	})
	def("tl.gather", "src, index, axis", func(c *callCtx) Value {
		src, idx := c.tensor("src"), c.tensor("index")
		if !dtypeOf(idx.T).IsInt() {
			c.fail("index", "index must be an integer tensor")
		}
		ss, is := shapeOf(src.T), shapeOf(idx.T)
		rank := int64(len(ss))
		if len(is) != len(ss) {
			c.g.fail(c.call, "source and index tensors must have the same rank")
		}
		axis := c.constInt("axis")
		if axis < -rank || axis >= rank {
			c.fail("axis", "gather axis %d must be < source rank (%d)", axis, rank)
		}
		if axis < 0 {
			axis += rank
		}
		for d := range ss {
			if int64(d) != axis && is[d] != ss[d] {
				c.g.fail(c.call, "index dim %d must match the corresponding source dim", axis)
			}
		}
		return &Tensor{V: c.g.b.Gather(src.V, idx.V, int(axis)), T: blockOf(scalarOf(src.T), is)}
	})
	def("tl.map_elementwise", "scalar_fn, *args, pack=1", mapElementwise)
	def("tensor.item", "self", func(c *callCtx) Value {
		x := c.tensor("self")
		if numel(x.T) != 1 {
			c.fail("self", "can only unsplat single-element tensors")
		}
		return c.g.unsplat(x)
	})

	// Hints and synchronization.
	def("tl.multiple_of", "input, values", func(c *callCtx) Value {
		return c.hint("tt.divisibility", max(1, len(shapeOf(c.tensor("input").T))))
	})
	def("tl.max_contiguous", "input, values", func(c *callCtx) Value {
		return c.hint("tt.contiguity", len(shapeOf(c.tensor("input").T)))
	})
	def("tl.max_constancy", "input, values", func(c *callCtx) Value {
		return c.hint("tt.constancy", len(shapeOf(c.tensor("input").T)))
	})
	def("tl.assume", "cond", func(c *callCtx) Value {
		cond := c.tensor("cond")
		if dtypeOf(cond.T) != Int1 {
			c.fail("cond", "tl.assume expects a boolean condition, got %s", cond.T)
		}
		c.g.b.Assume(cond.V)
		return constNone
	})
	def("tl.debug_barrier", "", func(c *callCtx) Value {
		c.g.b.Barrier()
		return constNone
	})

	// Debugging and static checks.
	def("tl.static_assert", "cond, msg=''", func(c *callCtx) Value {
		cv, ok := toPy(c.arg("cond"))
		if !ok {
			c.fail("cond", "static_assert requires a constexpr condition, got %s", describe(c.arg("cond")))
		}
		if t, _ := pyeval.Truth(cv); !t {
			msg := pyeval.ToStr(c.constant("msg"))
			if msg == "" {
				msg = "static_assert failed"
			}
			c.g.fail(c.call, "Static assertion failed: %s", msg)
		}
		return constNone
	})
	def("tl.static_print", "*values, sep=' ', end='\\n', file=None, flush=False", func(c *callCtx) Value {
		c.g.staticPrint(c.call, c.rest)
		return constNone
	})
	def("tl.device_assert", "cond, msg='', mask=None", func(c *callCtx) Value {
		c.g.deviceAssert(c.node("cond"), c.arg("cond"), c.constStr("msg"), c.optTensor("mask"))
		return constNone
	})
	def("tl.device_print", "prefix, *args, hex=False", func(c *callCtx) Value {
		prefix := c.constStr("prefix")
		var vals []*tileir.Value
		var signed []bool
		for _, a := range c.rest {
			t := c.g.toTensor(a.node, a.v)
			vals = append(vals, t.V)
			signed = append(signed, dtypeOf(t.T).IsSigned() && dtypeOf(t.T) != Int1) // int1 is unsigned in Triton
		}
		if !strings.HasSuffix(prefix, " ") && len(vals) > 0 {
			prefix += " "
		}
		if !strings.HasSuffix(prefix, ": ") && len(vals) > 0 {
			prefix = prefix[:len(prefix)-1] + ": "
		}
		if len(prefix) > 2 && !strings.HasPrefix(prefix, " ") {
			prefix = " " + prefix
		}
		c.g.b.Print(prefix, c.constBool("hex"), vals, signed)
		return constNone
	})
	alias("tl.print", "tl.device_print")

	// Target extras.
	def("cuda.gdc_wait", "", func(c *callCtx) Value {
		c.pdl("gdc_wait")
		c.g.b.InlineAsm("griddepcontrol.wait; // dummy $0", "=r", false, 1, []tileir.Type{tileir.I32})
		return constNone
	})
	def("cuda.gdc_launch_dependents", "", func(c *callCtx) Value {
		c.pdl("gdc_launch_dependents")
		c.g.b.InlineAsm("griddepcontrol.launch_dependents; // dummy $0", "=r", false, 1, []tileir.Type{tileir.I32})
		return constNone
	})
	def("cuda.smid", "", func(c *callCtx) Value {
		return &Tensor{V: c.g.b.InlineAsm(smidAsm, "=r", true, 1, []tileir.Type{tileir.I32})[0], T: Int32}
	})
	def("cuda.globaltimer", "", func(c *callCtx) Value {
		return &Tensor{V: c.g.b.InlineAsm(globaltimerAsm, "=l", false, 1, []tileir.Type{tileir.I64})[0], T: Int64}
	})
	def("cuda.num_warps", "", func(c *callCtx) Value { return constInt(int64(c.g.opts.NumWarps)) })
	def("cuda.num_threads", "", func(c *callCtx) Value { return constInt(int64(c.g.opts.NumWarps) * 32) })
	registerTargetInfo()
	def("tl.inline_asm_elementwise", "asm, constraints, args, dtype, is_pure, pack", inlineAsmImpl)
	registerLibdevice()
	registerMethods()
}

// The inline assembly of tl.extra.cuda.smid and globaltimer, as Triton 3.6 writes it (the
// CPU interpreter recognizes both).
const (
	smidAsm        = "mov.u32 $0, %smid;"
	globaltimerAsm = "mov.u64 $0, %globaltimer;"
)

// pdl fails a call of tl.extra.cuda's programmatic dependent launch function name on a
// target that is not NVIDIA's: its PTX (griddepcontrol) exists only there. (Triton hands
// the PTX to LLVM's AMDGPU backend, which rejects it.)
func (c *callCtx) pdl(name string) {
	if t := c.target(); !t.IsNVIDIA() {
		c.g.fail(c.call, "tl.extra.cuda.%s is NVIDIA-only (programmatic dependent launch, PTX griddepcontrol); it is not available on %s", name, t)
	}
}

// loopOnly is the implementation of range iterators called outside a for statement.
func loopOnly(c *callCtx) Value {
	c.g.fail(c.call, "%s() can only be used as the iterator of a for loop", c.b.name)
	return nil
}

func (c *callCtx) programAxis() int {
	a := c.constInt("axis")
	if a < 0 || a > 2 {
		c.fail("axis", "program_id axis must be 0, 1, or 2 but got %d", a)
	}
	return int(a)
}

// full is semantic.full: a scalar of dtype splat to shape.
func (g *gen) full(c *callCtx, shape []int64, value Value, d Type) *Tensor {
	dt, ok := d.(DType)
	if !ok {
		c.g.fail(c.call, "full() dtype must be a scalar dtype, got %s", d)
	}
	var s *Tensor
	switch v := value.(type) {
	case *Tensor:
		if numel(v.T) != 1 {
			g.fail(c.node("value"), "only accepts size-1 tensor")
		}
		s = g.cast(v, dt)
	case Const:
		s = g.constant(c.node("value"), v.V, dt)
	default:
		g.fail(c.node("value"), "full() value must be a number or a scalar tensor, got %s", describe(value))
	}
	return g.splat(s, shape)
}

func numel(t Type) int64 {
	if b, ok := t.(*BlockType); ok {
		return b.Numel()
	}
	return 1
}

// cast implements tl.cast and tensor.to, whose tensor is parameter input.
func cast(c *callCtx, input string) Value {
	x := c.tensor(input)
	d := c.dtype("dtype")
	if c.constBool("bitcast") {
		return c.g.bitcast(c.call, x, d)
	}
	if rm := c.constStr("fp_downcast_rounding"); rm != "" {
		if rm != "rtne" && rm != "rtz" {
			c.fail("fp_downcast_rounding", "Invalid rounding mode: %s. Supported rounding modes are 'rtne' and 'rtz'.", rm)
		}
		sd, dd := dtypeOf(x.T), dtypeOf(d)
		if !sd.IsFloat() || !dd.IsFloat() || dd.Bits() >= sd.Bits() {
			c.fail("fp_downcast_rounding", "fp_downcast_rounding should be set only for truncating fp conversions. Source scalar type is %s and destination type is %s", sd, dd)
		}
		if rm == "rtz" {
			res := withElem(x.T, dd)
			return &Tensor{V: c.g.b.FpToFp(x.V, res.IR(), "rtz"), T: res}
		}
	}
	return c.g.cast(x, d)
}

// pointee is the element type a pointer (or block of pointers) points to.
func pointee(t Type) Type {
	if p, ok := scalarOf(t).(*PtrType); ok {
		return p.Elem
	}
	return nil
}

func cacheMod(c *callCtx, name string, allowed ...string) string {
	s := c.constStr(name)
	if s == "" {
		return ""
	}
	for _, a := range allowed {
		if s == a {
			return strings.TrimPrefix(s, ".")
		}
	}
	c.fail(name, "Cache modifier %s not supported", s)
	return ""
}

func evictPolicy(c *callCtx) string {
	switch s := c.constStr("eviction_policy"); s {
	case "", "evict_last", "evict_first":
		return s
	default:
		c.fail("eviction_policy", "Eviction policy %s not supported", s)
	}
	return ""
}

func loadImpl(c *callCtx) Value {
	g := c.g
	p := c.tensor("pointer")
	opts := tileir.MemOpts{Cache: cacheMod(c, "cache_modifier", ".ca", ".cg", ".cv"), Evict: evictPolicy(c), Volatile: c.constBool("volatile")}
	pad := c.constStr("padding_option")
	if pt, ok := p.T.(*PtrType); ok {
		if bt, ok := pt.Elem.(*BlockType); ok {
			if c.given("mask") || c.given("other") {
				g.fail(c.call, "`mask` and `other` arguments cannot be specified for loading block pointers")
			}
			opts.BoundaryCheck = c.boundaryCheck(len(bt.Shape))
			switch pad {
			case "":
			case "zero":
				opts.Padding = 1
			case "nan":
				if dtypeOf(bt.Elem).IsInt() {
					c.fail("padding_option", "Padding option `nan` is not supported for integer block pointers")
				}
				opts.Padding = 2
			default:
				c.fail("padding_option", "Padding option %s not supported", pad)
			}
			return &Tensor{V: g.b.Load(p.V, nil, nil, opts), T: bt}
		}
	}
	if !isPtr(p.T) {
		c.fail("pointer", "Unsupported ptr type %s in `tl.load`", typeRepr(p.T))
	}
	mask, other := c.optTensor("mask"), c.optTensor("other")
	if mask == nil && other != nil {
		c.fail("other", "`other` cannot be provided without `mask`")
	}
	if pad != "" || len(c.intListOr("boundary_check")) > 0 {
		g.fail(c.call, "`padding_option` or `boundary_check` argument is not supported for loading a tensor ofpointers or loading a scalar. Because the compiler does not know the boundary; please use block pointers (defined by `make_block_ptr`) instead")
	}
	if _, blk := p.T.(*BlockType); !blk {
		if mask != nil && shapeOf(mask.T) != nil {
			c.fail("mask", "Mask argument cannot be block type if pointer argument is not a block")
		}
		if other != nil && shapeOf(other.T) != nil {
			c.fail("other", "Other argument cannot be block type if pointer argument is not a block")
		}
	} else {
		if mask != nil {
			p, mask = g.broadcastPair(c.node("mask"), p, mask)
		}
		if other != nil {
			p, other = g.broadcastPair(c.node("other"), p, other)
		}
	}
	elem := pointee(p.T)
	isBool := sameType(elem, Int1)
	if isBool {
		elem = Int8
		p = g.cast(p, &PtrType{Elem: Int8, AddrSpace: scalarOf(p.T).(*PtrType).AddrSpace})
	}
	var ov, mv *tileir.Value
	if other != nil {
		ov = g.cast(other, elem).V
	}
	if mask != nil {
		mv = mask.V
	}
	r := &Tensor{V: g.b.Load(p.V, mv, ov, opts), T: withElem(p.T, elem)}
	if isBool {
		r = g.cast(r, Int1)
	}
	return r
}

func storeImpl(c *callCtx) Value {
	g := c.g
	p := c.tensor("pointer")
	val := c.tensor("value")
	opts := tileir.MemOpts{Cache: cacheMod(c, "cache_modifier", ".wb", ".cg", ".cs", ".wt"), Evict: evictPolicy(c)}
	if pt, ok := scalarOf(p.T).(*PtrType); ok && pt.Const {
		c.fail("pointer", "Cannot store to a constant pointer")
	}
	if pt, ok := p.T.(*PtrType); ok {
		if bt, ok := pt.Elem.(*BlockType); ok {
			if c.given("mask") {
				c.fail("mask", "`mask` and `other` arguments cannot be specified for loading block pointers")
			}
			if _, blk := val.T.(*BlockType); !blk {
				val = g.broadcastTo(c.node("value"), val, bt.Shape)
			}
			if !slices.Equal(shapeOf(val.T), bt.Shape) {
				c.fail("value", "Block shape(%s) and value shape(%s) mismatch", shapeString(bt.Shape), shapeString(shapeOf(val.T)))
			}
			opts.BoundaryCheck = c.boundaryCheck(len(bt.Shape))
			val = g.cast(val, bt.Elem)
			g.b.Store(p.V, val.V, nil, opts)
			return constNone
		}
	}
	if !isPtr(p.T) {
		c.fail("pointer", "Unsupported ptr type %s in `tl.store`", typeRepr(p.T))
	}
	if len(c.intListOr("boundary_check")) > 0 {
		c.fail("boundary_check", "`boundary_check` argument is not supported for storing a tensor of pointers or storing a scalar. Because the compiler does not know the boundary; please use block pointers (defined by `make_block_ptr`) instead")
	}
	mask := c.optTensor("mask")
	if _, blk := p.T.(*BlockType); !blk {
		if shapeOf(val.T) != nil {
			c.fail("value", "Value argument cannot be block type if pointer argument is not a block")
		}
		if mask != nil && shapeOf(mask.T) != nil {
			c.fail("mask", "Mask argument cannot be block type if pointer argument is not a block")
		}
	} else {
		before := shapeOf(p.T)
		p, val = g.broadcastPair(c.node("value"), p, val)
		if mask != nil {
			p, mask = g.broadcastPair(c.node("mask"), p, mask)
			p, val = g.broadcastPair(c.node("value"), p, val)
		}
		if !slices.Equal(before, shapeOf(p.T)) {
			c.fail("pointer", "Expected pointer argument to have shape %s but got %s", shapeString(shapeOf(p.T)), shapeString(before))
		}
	}
	elem := pointee(p.T)
	if sameType(elem, Int1) {
		elem = Int8
		p = g.cast(p, &PtrType{Elem: Int8, AddrSpace: scalarOf(p.T).(*PtrType).AddrSpace})
	}
	val = g.cast(val, elem)
	var mv *tileir.Value
	if mask != nil {
		if dtypeOf(mask.T) != Int1 {
			c.fail("mask", "Mask must have boolean scalar type")
		}
		mv = mask.V
	}
	g.b.Store(p.V, val.V, mv, opts)
	return constNone
}

// intListOr reads an optional list of constexpr ints (boundary_check).
func (c *callCtx) intListOr(name string) []int64 {
	if !c.given(name) {
		return nil
	}
	if t, ok := c.arg(name).(Tuple); ok && len(t) == 0 {
		return nil
	}
	return c.intList(name)
}

func (c *callCtx) boundaryCheck(rank int) []int32 {
	dims := c.intListOr("boundary_check")
	seen := map[int64]bool{}
	var out []int32
	for _, d := range dims {
		if d < 0 || d >= int64(rank) {
			c.fail("boundary_check", "boundary_check dimension %d is out of range for a block of rank %d", d, rank)
		}
		if seen[d] {
			c.fail("boundary_check", "Duplicate dimension in `boundary_check`")
		}
		seen[d] = true
		out = append(out, int32(d))
	}
	sortInt32s(out)
	return out
}

func sortInts(s []int64) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func sortInt32s(s []int32) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// irInts converts shape/stride/offset lists to IR values: constexprs become i64 (or i32)
// constants, tensors are widened to i64 when required.
func (g *gen) irInts(c *callCtx, name string, i64 bool) []*tileir.Value {
	v := c.arg(name)
	elems, ok := v.(Tuple)
	if !ok {
		elems = Tuple{v}
	}
	var out []*tileir.Value
	for _, e := range elems {
		switch e := e.(type) {
		case Const:
			d := Int32
			if i64 {
				d = Int64
			}
			if _, isInt := e.V.(pyeval.Bool); isInt {
				d = Int1
			}
			out = append(out, g.constant(c.node(name), e.V, d).V)
		case *Tensor:
			dt := dtypeOf(e.T)
			if numel(e.T) != 1 || !dt.IsInt() {
				c.fail(name, "Expected an integer scalar in shape/strides/offsets, got %s", e.T)
			}
			switch {
			case i64 && dt != Int64:
				out = append(out, g.b.IntCast(e.V, tileir.I64, !dt.IsSigned() || dt == Int1))
			case !i64 && dt == Int64:
				c.fail(name, "Block pointers only support 32 bit `offsets/block_shape`, add a `.to(tl.int32)` or use regular indexing for 64 bit support")
			default:
				out = append(out, e.V)
			}
		default:
			c.fail(name, "Unsupported element type in shape/strides/offsets: %s", describe(e))
		}
	}
	return out
}

func (g *gen) i32Values(c *callCtx, name string) []*tileir.Value { return g.irInts(c, name, false) }

func makeBlockPtr(c *callCtx) Value {
	g := c.g
	shape, strides, offsets := g.irInts(c, "shape", true), g.irInts(c, "strides", true), g.irInts(c, "offsets", false)
	base := c.tensor("base")
	pt, ok := base.T.(*PtrType)
	if !ok {
		c.fail("base", "Expected `base` to be a pointer type (but not a block pointer type or others)")
	}
	if _, blk := pt.Elem.(*BlockType); blk {
		c.fail("base", "Expected `base` to be a pointer type (but not a block pointer type or others)")
	}
	if sameType(pt.Elem, Int1) {
		base = g.cast(base, &PtrType{Elem: Int8, AddrSpace: pt.AddrSpace})
		pt = base.T.(*PtrType)
	}
	block := c.intList("block_shape")
	order := c.intList("order")
	sorted := append([]int64(nil), order...)
	sortInts(sorted)
	for i, o := range sorted {
		if o != int64(i) {
			c.fail("order", "Expected a permutation of (0, 1, ..., len(order)-1) in order")
		}
	}
	for _, l := range []int{len(shape), len(strides), len(offsets), len(order)} {
		if l != len(block) {
			g.fail(c.call, "Expected shape/strides/offsets/block_shape to have the same length")
		}
	}
	ord := make([]int32, len(order))
	for i, o := range order {
		ord[i] = int32(o)
	}
	rt := &PtrType{Elem: &BlockType{Elem: pt.Elem, Shape: block}, AddrSpace: pt.AddrSpace}
	return &Tensor{V: g.b.MakeTensorPtr(base.V, shape, strides, offsets, block, ord), T: rt}
}

func makeTensorDesc(c *callCtx) Value {
	g := c.g
	base := c.tensor("base")
	pt, ok := base.T.(*PtrType)
	if !ok {
		c.fail("base", "make_tensor_descriptor base must be a pointer, got %s", base.T)
	}
	shapeV, _ := c.arg("shape").(Tuple)
	stridesV, _ := c.arg("strides").(Tuple)
	block := c.intList("block_shape")
	nd := len(shapeV)
	if nd < 1 || nd > 5 {
		c.fail("shape", "Expected 1 <= ndim <= 5 but got %d dimensions", nd)
	}
	if len(stridesV) != nd {
		c.fail("strides", "Expected %d strides but got %d", nd, len(stridesV))
	}
	if len(block) != nd {
		c.fail("block_shape", "Expected block_shape to have %d dimensions but got %d", nd, len(block))
	}
	elemSize := int64(dtypeOf(pt.Elem).Bits() / 8)
	if block[nd-1]*elemSize < 16 {
		c.fail("block_shape", "Descriptor block shape must have at least 16 bytes in the last dimension, but got %d * %d = %d bytes", block[nd-1], elemSize, block[nd-1]*elemSize)
	}
	if last, ok := stridesV[nd-1].(Const); !ok || pyeval.Repr(last.V) != "1" {
		c.fail("strides", "Tensor descriptor last dim must be 1 but got %s", describe(stridesV[nd-1]))
	}
	d := &Desc{T: &DescType{Block: &BlockType{Elem: pt.Elem, Shape: block}}}
	var shapeIR, strideIR []*tileir.Value
	for _, s := range shapeV {
		t := g.makeScalar(c, "shape", s, Int32)
		d.Shape = append(d.Shape, t)
		shapeIR = append(shapeIR, t.V)
	}
	for _, s := range stridesV {
		t := g.makeScalar(c, "strides", s, Int64)
		d.Strides = append(d.Strides, t)
		strideIR = append(strideIR, t.V)
	}
	pad := c.constStr("padding_option")
	switch pad {
	case "zero", "":
	case "nan":
		if dtypeOf(pt.Elem).IsInt() {
			c.fail("padding_option", "Padding option `nan` is not supported for integer blocks")
		}
	default:
		c.fail("padding_option", "Padding option %s not supported", pad)
	}
	d.V = g.b.MakeTensorDesc(base.V, shapeIR, strideIR, block, pad == "nan")
	return d
}

// makeScalar is semantic.make_scalar: a constexpr constant or a cast size-1 tensor.
func (g *gen) makeScalar(c *callCtx, name string, v Value, d DType) *Tensor {
	switch v := v.(type) {
	case Const:
		return g.constant(c.node(name), v.V, d)
	case *Tensor:
		if numel(v.T) != 1 {
			c.fail(name, "only accepts size-1 tensor")
		}
		return g.cast(v, d)
	}
	c.fail(name, "expected an integer, got %s", describe(v))
	return nil
}

func (c *callCtx) desc(name string) *Desc {
	d, ok := c.arg(name).(*Desc)
	if !ok {
		c.fail(name, "expected a tensor descriptor, got %s", describe(c.arg(name)))
	}
	return d
}

func (g *gen) descOffsets(c *callCtx, d *Desc) []*tileir.Value {
	offs := g.i32Values(c, "offsets")
	if len(offs) != len(d.T.Block.Shape) {
		c.fail("offsets", "expected %d offsets, but got %d", len(d.T.Block.Shape), len(offs))
	}
	return offs
}

func (c *callCtx) sem() string {
	switch s := c.constStr("sem"); s {
	case "":
		return "acq_rel"
	case "acquire", "release", "acq_rel", "relaxed":
		return s
	default:
		c.fail("sem", "Memory semantic %s not supported", s)
	}
	return ""
}

func (c *callCtx) scope() string {
	switch s := c.constStr("scope"); s {
	case "", "gpu":
		return "gpu"
	case "cta":
		return "cta"
	case "sys":
		return "sys"
	default:
		c.fail("scope", "Memory semantic %s not supported", s)
	}
	return ""
}

func atomicRMW(c *callCtx, kind string) Value {
	g := c.g
	p := c.tensor("pointer")
	if !isPtr(p.T) {
		c.fail("pointer", "Pointer argument of store instruction is %s", typeRepr(p.T))
	}
	if scalarOf(p.T).(*PtrType).Const {
		c.fail("pointer", "Cannot store to a constant pointer")
	}
	elem := pointee(p.T)
	ed := dtypeOf(elem)
	if (ed == FP16 || ed == BF16) && kind != "add" {
		c.fail("pointer", "atomic_%s does not support %s", kind, map[DType]string{FP16: "fp16", BF16: "bf16"}[ed])
	}
	if ed == Int16 || ed == UInt16 || ed.Bits() < 16 {
		c.fail("pointer", "atomic_%s does not support %s", kind, ed)
	}
	val := c.tensor("val")
	mask := c.optTensor("mask")
	if shape := shapeOf(p.T); shape != nil {
		if mask != nil {
			mask = g.broadcastTo(c.node("mask"), mask, shape)
		}
		val = g.broadcastTo(c.node("val"), val, shape)
	}
	val = g.cast(val, elem)
	if mask == nil {
		mask = g.splat(g.constant(c.call, pyeval.Bool(true), Int1), shapeOf(p.T))
	}
	sem, scope := c.sem(), c.scope()
	d := dtypeOf(val.T)
	op := map[string]string{"add": "add", "and": "and", "or": "or", "xor": "xor", "xchg": "exch", "max": "max", "min": "min"}[kind]
	switch {
	case kind == "add" && d.IsFloat():
		op = "fadd"
	case (kind == "max" || kind == "min") && d.IsUnsigned():
		op = "u" + kind
	case (kind == "max" || kind == "min") && d.IsFloat():
		if d != FP32 && d != FP64 {
			c.fail("val", "atomic_%s not supported for dtype %s", kind, d)
		}
		return g.atomicFloatMinMax(c, p, val, mask, kind == "max", sem, scope)
	}
	return &Tensor{V: g.b.AtomicRMW(op, p.V, val.V, mask.V, sem, scope), T: val.T}
}

// atomicFloatMinMax implements float atomic max/min with integer atomics, as Triton does:
// signed max (min) where the value is non-negative, unsigned min (max) where it is negative.
func (g *gen) atomicFloatMinMax(c *callCtx, p, val, mask *Tensor, isMax bool, sem, scope string) *Tensor {
	d := dtypeOf(val.T)
	it, ut := Int32, UInt32
	if d == FP64 {
		it, ut = Int64, UInt64
	}
	iv := g.bitcast(c.call, val, it)
	ip := g.bitcast(c.call, p, &PtrType{Elem: it, AddrSpace: 1})
	uv := g.bitcast(c.call, val, ut)
	up := g.bitcast(c.call, p, &PtrType{Elem: ut, AddrSpace: 1})
	shift := g.binary(c.call, ast.RShift, g.bitcast(c.call, val, ut), constInt(int64(d.Bits()-1)), c.call, c.call).(*Tensor)
	neg := g.cast(shift, Int1)
	pos := g.unary(&ast.UnaryOp{Op: ast.Not, Pos: c.call.Pos}, neg).(*Tensor)
	posOp, negOp := "max", "umin"
	if !isMax {
		posOp, negOp = "min", "umax"
	}
	pm := g.binary(c.call, ast.BitAnd, mask, pos, c.call, c.call).(*Tensor)
	posRet := &Tensor{V: g.b.AtomicRMW(posOp, ip.V, iv.V, pm.V, sem, scope), T: iv.T}
	nm := g.binary(c.call, ast.BitAnd, mask, neg, c.call, c.call).(*Tensor)
	negRet := &Tensor{V: g.b.AtomicRMW(negOp, up.V, uv.V, nm.V, sem, scope), T: uv.T}
	r := g.whereOp(c.call, pos, operand{posRet, c.call}, operand{negRet, c.call})
	return g.bitcast(c.call, r, d)
}

// whereOp is semantic.where.
func (g *gen) whereOp(n ast.Node, cond *Tensor, x, y operand) *Tensor {
	cond = g.cast(cond, Int1)
	a, b := g.binaryTypeCheck(n, x, y, true, true, true, false)
	if _, ok := cond.T.(*BlockType); ok {
		cond, a = g.broadcastPair(n, cond, a)
		a, b = g.broadcastPair(n, a, b)
	} else {
		cond, _ = g.broadcastPair(n, cond, a)
	}
	return &Tensor{V: g.b.Select(cond.V, a.V, b.V), T: a.T}
}

// minMax is tl.maximum / tl.minimum on operands already brought to one type; n is the
// call, for errors.
func (g *gen) minMax(n ast.Node, a, b *Tensor, isMax, propagateNaN bool) *Tensor {
	d := dtypeOf(a.T)
	var name string
	switch {
	case d.IsFloat() && propagateNaN:
		name = map[bool]string{true: "arith.maximumf", false: "arith.minimumf"}[isMax]
	case d.IsFloat():
		name = map[bool]string{true: "arith.maxnumf", false: "arith.minnumf"}[isMax]
	case d.IsSigned():
		name = map[bool]string{true: "arith.maxsi", false: "arith.minsi"}[isMax]
	case d.IsUnsigned():
		name = map[bool]string{true: "arith.maxui", false: "arith.minui"}[isMax]
	default:
		g.fail(n, "Unexpected dtype %s", scalarOf(a.T))
	}
	return &Tensor{V: g.b.Binary(name, a.V, b.V), T: a.T}
}

func (c *callCtx) floatArg(name string) *Tensor {
	x := c.tensor(name)
	if !dtypeOf(x.T).IsFloat() {
		c.fail(name, "Expected dtype ['fp16', 'bf16', 'fp32', 'fp64'] but got %s", dtypeOf(x.T))
	}
	return x
}

func promoteBF16(c *callCtx, x *Tensor) *Tensor {
	if dtypeOf(x.T) == BF16 {
		return c.g.cast(x, FP32)
	}
	return x
}

// dotImpl is core.dot: operands of rank 4 and more have their batch dimensions folded
// into one, for a 3-D dot, and the result unfolded.
func dotImpl(c *callCtx) Value {
	a, b := c.tensor("input"), c.tensor("other")
	as, bs := shapeOf(a.T), shapeOf(b.T)
	if len(as) < 4 || len(as) != len(bs) {
		return dot3(c)
	}
	if !slices.Equal(as[:len(as)-2], bs[:len(bs)-2]) {
		c.g.fail(c.call, "input and other must have equal batch shapes")
	}
	if as[len(as)-1] != bs[len(bs)-2] {
		c.g.fail(c.call, "input and other must have equal reduction dimensions")
	}
	cs := append(slices.Clone(as[:len(as)-1]), bs[len(bs)-1])
	batch := int64(1)
	for _, d := range cs[:len(cs)-2] {
		batch *= d
	}
	fold := func(name string, x *Tensor) {
		s := shapeOf(x.T)
		c.bound[c.b.index(name)].v = c.g.reshapeTo(c, x, []int64{batch, s[len(s)-2], s[len(s)-1]}, false)
	}
	fold("input", a)
	fold("other", b)
	if acc := c.optTensor("acc"); acc != nil {
		if !slices.Equal(shapeOf(acc.T), cs) {
			c.fail("acc", "accumulator shape is incompatible")
		}
		fold("acc", acc)
	}
	return c.g.reshapeTo(c, dot3(c).(*Tensor), cs, false)
}

// dot3 is semantic.dot, on 2-D or 3-D (batched) operands.
func dot3(c *callCtx) Value {
	g := c.g
	a, b := c.tensor("input"), c.tensor("other")
	as, bs := shapeOf(a.T), shapeOf(b.T)
	ad, bd := dtypeOf(a.T), dtypeOf(b.T)
	if as == nil || bs == nil {
		g.fail(c.call, "dot operands must be blocks, got %s and %s", a.T, b.T)
	}
	if !(ad.IsFP8() && bd.IsFP8()) {
		for _, side := range []struct {
			name string
			d    DType
		}{{"input", ad}, {"other", bd}} {
			switch side.d {
			case Int8, UInt8, FP16, BF16, FP32, FP64:
			default:
				c.fail(side.name, "Unsupported %s dtype %s", map[string]string{"input": "lhs", "other": "rhs"}[side.name], side.d)
			}
		}
		if ad != bd {
			g.fail(c.call, "Both operands must be same dtype. Got %s and %s", ad, bd)
		}
	}
	if ad == FP8E4B15 || bd == FP8E4B15 {
		a, b = g.cast(a, FP16), g.cast(b, FP16)
		ad, bd = FP16, FP16
	}
	if len(as) != len(bs) || len(as) != 2 && len(as) != 3 {
		g.fail(c.call, "Both inputs must be either 2D or 3D; (lhs: %s vs rhs: %s)", shapeString(as), shapeString(bs))
	}
	if as[len(as)-1] != bs[len(bs)-2] {
		g.fail(c.call, "First input shape (%s) and second input shape %s are not compatible for matmul (second index of first shape (%d) must be equal to first index of second shape (%d)", shapeString(as), shapeString(bs), as[len(as)-1], bs[len(bs)-2])
	}
	m, n, k := as[len(as)-2], bs[len(bs)-1], as[len(as)-1]
	minK := int64(16)
	if ad.Bits() == 8 {
		minK = 32
	}
	// Triton's NVIDIA min_dot_size: small M and N still use tensor cores, padded
	if m < 1 || n < 1 || k < minK {
		g.fail(c.call, "Input shapes should have M >= 1, N >= 1 and K >= %d", minK)
	}
	// core.dot: tf32 by default where the target allows it (and allow_tf32 does not say
	// no), else ieee; an input_precision the target does not list is an error.
	allowed := c.target().DotInputPrecisions()
	precision := "ieee"
	if slices.Contains(allowed, "tf32") && (!c.given("allow_tf32") || c.given("input_precision") || c.constBool("allow_tf32")) {
		precision = "tf32"
	}
	if c.given("input_precision") {
		given := c.constStr("input_precision")
		precision = strings.ToLower(given)
		if !slices.Contains(allowed, precision) {
			c.fail("input_precision", "input_precision must be one of ('%s'). Got %s", strings.Join(allowed, "', '"), given)
		}
	}
	outDtype := dtypeOf(c.dtype("out_dtype"))
	var ret DType
	switch {
	case ad.IsInt():
		if ad != Int8 {
			c.fail("input", "only int8 supported!")
		}
		ret = Int32
	case outDtype == BF16:
		c.fail("out_dtype", "out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/float16 and cast with `.to(tl.bfloat16)`")
	case ad == FP32 || ad == BF16:
		ret = FP32
	case ad == FP64:
		ret = FP64
	default:
		ret = outDtype
	}
	rt := dotResultType(as, m, n, ret)
	acc := c.accumulator(rt, "dot", func(elem Type) bool {
		return sameType(elem, outDtype) || ret != outDtype && sameType(elem, ret)
	})
	maxImprecise := int64(0)
	if c.given("max_num_imprecise_acc") {
		maxImprecise = c.constInt("max_num_imprecise_acc")
		if ad.IsFP8() && bd.IsFP8() && maxImprecise > k {
			c.fail("max_num_imprecise_acc", "max_num_imprecise_acc (%d) must be <= K (%d)", maxImprecise, k)
		}
		if !(ad.IsFP8() && bd.IsFP8()) {
			maxImprecise = 0
		}
	} else if ad.IsFP8() && bd.IsFP8() {
		maxImprecise = 1 << 30
	}
	return &Tensor{V: g.b.Dot(a.V, b.V, acc.V, precision, int(maxImprecise)), T: rt}
}

// dotResultType is the type of a dot, or of a batched dot when lhs has shape [B, M, K]:
// [B,] m x n of elem.
func dotResultType(lhs []int64, m, n int64, elem Type) *BlockType {
	shape := []int64{m, n}
	if len(lhs) == 3 {
		shape = []int64{lhs[0], m, n}
	}
	return &BlockType{Elem: elem, Shape: shape}
}

// accumulator returns the acc argument of a dot (op names it in the error), which must
// have the shape of the result type rt and an element type that accepts allows, or a zero
// tile of type rt when acc is None.
func (c *callCtx) accumulator(rt *BlockType, op string, accepts func(elem Type) bool) *Tensor {
	if !c.given("acc") {
		return c.g.splat(c.g.constant(c.call, pyeval.NewInt(0), dtypeOf(rt)), rt.Shape)
	}
	acc := c.tensor("acc")
	if !slices.Equal(shapeOf(acc.T), rt.Shape) || !accepts(scalarOf(acc.T)) {
		c.fail("acc", "accumulator of type %s does not match the %s result %s", acc.T, op, rt)
	}
	return acc
}

// tensors reads argument name as one tensor or a tuple of tensors.
func (c *callCtx) tensors(name string) ([]*Tensor, bool) {
	if t, ok := c.arg(name).(Tuple); ok {
		var out []*Tensor
		for _, e := range t {
			x, ok := e.(*Tensor)
			if !ok {
				c.fail(name, "expected tensors, got %s", describe(e))
			}
			out = append(out, x)
		}
		return out, false
	}
	return []*Tensor{c.tensor(name)}, true
}

// combineFn builds a combine region body from scalar operands.
type combineFn func(g *gen, lhs, rhs []*Tensor) []*Tensor

func simpleCombine(floatOp, intOp string) combineFn {
	return func(g *gen, l, r []*Tensor) []*Tensor { return []*Tensor{g.arith(l[0], r[0], floatOp, intOp)} }
}

func minMaxCombine(isMax bool) combineFn {
	return func(g *gen, l, r []*Tensor) []*Tensor {
		return []*Tensor{g.minMax(nil, l[0], r[0], isMax, false)}
	}
}

// jitCombine calls the combine_fn jit function of tl.reduce / tl.associative_scan.
func (g *gen) jitCombine(c *callCtx) combineFn {
	fn, ok := c.arg("combine_fn").(JITRef)
	if !ok {
		c.fail("combine_fn", "combine_fn must be a @triton.jit function, got %s", describe(c.arg("combine_fn")))
	}
	return func(g *gen, l, r []*Tensor) []*Tensor {
		var args []argv
		for _, t := range append(append([]*Tensor{}, l...), r...) {
			args = append(args, argv{t, c.call})
		}
		res := g.inline(c.call, fn.J, args, nil)
		var out []*Tensor
		vals := []Value{res}
		if t, ok := res.(Tuple); ok {
			vals = t
		}
		for _, v := range vals {
			t := g.toTensor(c.node("combine_fn"), v)
			out = append(out, t)
		}
		if len(out) != len(l) {
			c.fail("combine_fn", "combine_fn returns %d values for %d inputs", len(out), len(l))
		}
		for i := range out {
			if !sameType(out[i].T, l[i].T) {
				out[i] = g.cast(out[i], l[i].T)
			}
		}
		return out
	}
}

// combiner adapts a combineFn to the builder's region callback.
func (g *gen) combiner(ins []*Tensor, f combineFn) tileir.Combiner {
	return func(b *tileir.Builder, lhs, rhs []*tileir.Value) []*tileir.Value {
		var l, r []*Tensor
		for i, in := range ins {
			l = append(l, &Tensor{V: lhs[i], T: scalarOf(in.T)})
			r = append(r, &Tensor{V: rhs[i], T: scalarOf(in.T)})
		}
		var out []*tileir.Value
		g.withScope(g.scope, b.Block(), func() {
			for _, t := range f(g, l, r) {
				out = append(out, t.V)
			}
		})
		b.SetInsertionPointToEnd(b.Block())
		return out
	}
}

// reduce is semantic.reduction (with core.reduce's keep_dims and axis=None handling).
func (g *gen) reduce(c *callCtx, ins []*Tensor, axisV Value, keepDims bool, f combineFn) Value {
	shape := shapeOf(ins[0].T)
	if shape == nil {
		c.fail("input", "cannot reduce a scalar")
	}
	var axis int
	if isNone(axisV) {
		for i, t := range ins {
			ins[i] = g.reshapeTo(c, t, []int64{numel(t.T)}, true)
		}
		axis = 0
	} else {
		axis = int(c.intOf("axis", axisV))
		if axis < 0 {
			axis += len(shape)
		}
		if axis < 0 || axis >= len(shape) {
			c.fail("axis", "reduction axis must be < inputs rank (%d)", len(shape))
		}
	}
	for _, t := range ins {
		if !slices.Equal(shapeOf(t.T), shapeOf(ins[0].T)) {
			c.fail("input", "all reduction inputs must have the same shape")
		}
	}
	vals := make([]*tileir.Value, len(ins))
	for i, t := range ins {
		vals[i] = t.V
	}
	rshape := append(append([]int64{}, shapeOf(ins[0].T)[:axis]...), shapeOf(ins[0].T)[axis+1:]...)
	res := g.b.Reduce(vals, axis, g.combiner(ins, f))
	out := Tuple{}
	for i, r := range res {
		t := &Tensor{V: r, T: blockOf(scalarOf(ins[i].T), rshape)}
		if keepDims {
			if isNone(axisV) {
				for range shape {
					t = g.expandDims(t, 0)
				}
			} else {
				t = g.expandDims(t, axis)
			}
		}
		out = append(out, t)
	}
	if len(out) == 1 {
		return out[0]
	}
	return out
}

// argReduce is core._reduce_with_indices with the argmax/argmin combine functions.
func (g *gen) argReduce(c *callCtx, x *Tensor, isMax, tieLeft, both bool) Value {
	axis := c.arg("axis")
	n := int64(0)
	shape := shapeOf(x.T)
	if shape == nil {
		c.fail("input", "cannot reduce a scalar")
	}
	if isNone(axis) {
		n = numel(x.T)
	} else {
		a := c.intOf("axis", axis)
		if a < 0 {
			a += int64(len(shape))
		}
		n = shape[a]
	}
	idx := &Tensor{V: g.b.MakeRange(0, int32(n)), T: &BlockType{Elem: Int32, Shape: []int64{n}}}
	if !isNone(axis) {
		a := int(c.intOf("axis", axis))
		if a < 0 {
			a += len(shape)
		}
		for i := 0; i < len(shape); i++ {
			if i != a {
				idx = g.expandDims(idx, i)
			}
		}
		idx = g.broadcastTo(c.call, idx, shape)
	}
	combine := func(g *gen, l, r []*Tensor) []*Tensor {
		// standard.py's _argmax_combine / _argmin_combine: the tie test first, then
		// "value1 > value2 or tie" (the "or False" of the fast tie break folds away).
		v1, i1, v2, i2 := l[0], l[1], r[0], r[1]
		var tie *Tensor
		if tieLeft {
			eq := g.compare(c.call, ast.Eq, v1, v2).(*Tensor)
			lt := g.compare(c.call, ast.Lt, i1, i2).(*Tensor)
			tie = g.logical(c.call, eq, lt, "andi")
		}
		var better *Tensor
		if isMax {
			better = g.compare(c.call, ast.Gt, v1, v2).(*Tensor)
		} else {
			better = g.compare(c.call, ast.Lt, v1, v2).(*Tensor)
		}
		if tie != nil {
			better = g.logical(c.call, better, tie, "ori")
		}
		return []*Tensor{g.whereOp(c.call, better, operand{v1, c.call}, operand{v2, c.call}), g.whereOp(c.call, better, operand{i1, c.call}, operand{i2, c.call})}
	}
	r := g.reduce(c, []*Tensor{x, idx}, axis, c.constBool("keep_dims"), combine).(Tuple)
	if both {
		return r
	}
	return r[1]
}

// scan is semantic.associative_scan.
func (g *gen) scan(c *callCtx, ins []*Tensor, f combineFn) []*Tensor {
	shape := shapeOf(ins[0].T)
	axis := int(c.constInt("axis"))
	if axis < -len(shape) || axis >= len(shape) {
		c.fail("axis", "scan axis %d must be < inputs rank (%d)", axis, len(shape))
	}
	if axis < 0 {
		axis += len(shape)
	}
	vals := make([]*tileir.Value, len(ins))
	for i, t := range ins {
		vals[i] = t.V
	}
	res := g.b.Scan(vals, axis, c.constBool("reverse"), g.combiner(ins, f))
	out := make([]*Tensor, len(res))
	for i, r := range res {
		out[i] = &Tensor{V: r, T: ins[i].T}
	}
	return out
}

func softmaxImpl(c *callCtx) Value {
	g := c.g
	x := c.tensor("x")
	dim := c.arg("dim")
	if isNone(dim) {
		dim = constInt(0)
	}
	keep := c.constBool("keep_dims")
	mx := g.callBuiltin(c.call, "tl.max", map[string]Value{"input": x, "axis": dim, "return_indices": constFalse, "return_indices_tie_break_left": constTrue, "keep_dims": Const{pyeval.Bool(keep)}})
	z := g.binary(c.call, ast.Sub, x, mx, c.call, c.call).(*Tensor)
	num := &Tensor{V: g.b.Math("exp", z.V), T: z.T}
	den := g.callBuiltin(c.call, "tl.sum", map[string]Value{"input": num, "axis": dim, "keep_dims": Const{pyeval.Bool(keep)}, "dtype": constNone})
	a, b := g.binaryTypeCheck(c.call, operand{num, c.call}, operand{den, c.call}, false, false, false, true)
	return g.arith(a, b, "divf", "")
}

// dims reads a shape or dims given either as varargs or as a single tuple argument.
func (c *callCtx) dims() []int64 {
	vals := make([]Value, 0, len(c.rest))
	for _, a := range c.rest {
		vals = append(vals, a.v)
	}
	if len(vals) == 1 {
		if t, ok := vals[0].(Tuple); ok {
			vals = t
		}
	}
	out := make([]int64, len(vals))
	for i, v := range vals {
		out[i] = c.g.constIntOf(c.call, v, "dims")
	}
	return out
}

func reshapeImpl(c *callCtx) Value {
	x := c.tensor("input")
	shape := c.dims()
	return c.g.reshapeTo(c, x, shape, c.constBool("can_reorder"))
}

// reshapeTo is semantic.reshape.
func (g *gen) reshapeTo(c *callCtx, x *Tensor, shape []int64, reorder bool) *Tensor {
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	if n != numel(x.T) {
		g.fail(c.call, "reshape() cannot change total number of elements in tensor")
	}
	if _, ok := x.T.(*BlockType); !ok {
		return g.splat(x, shape)
	}
	if len(shape) == 0 {
		return g.unsplat(x)
	}
	return &Tensor{V: g.b.Reshape(x.V, shape, reorder), T: &BlockType{Elem: scalarOf(x.T), Shape: shape}}
}

// unsplat turns a one-element block into a scalar (tt.unsplat).
func (g *gen) unsplat(x *Tensor) *Tensor {
	if _, ok := x.T.(*BlockType); !ok {
		return x
	}
	return &Tensor{V: g.b.Unsplat(x.V), T: scalarOf(x.T)}
}

func (g *gen) permute(c *callCtx, x *Tensor, dims []int64) *Tensor {
	shape := shapeOf(x.T)
	if len(shape) != len(dims) {
		g.fail(c.call, "permute dims must have the same length as input shape")
	}
	sorted := append([]int64(nil), dims...)
	sortInts(sorted)
	for i, d := range sorted {
		if d != int64(i) {
			g.fail(c.call, "permute dims must be a permutation of 0, 1, ..., n-1, but were %v", dims)
		}
	}
	order := make([]int32, len(dims))
	ns := make([]int64, len(dims))
	for i, d := range dims {
		order[i] = int32(d)
		ns[i] = shape[d]
	}
	return &Tensor{V: g.b.Trans(x.V, order...), T: &BlockType{Elem: scalarOf(x.T), Shape: ns}}
}

// hint attaches a tt.divisibility / tt.contiguity / tt.constancy attribute to the op that
// defines the input.
func (c *callCtx) hint(name string, rank int) Value {
	x := c.tensor("input")
	vals := c.intList("values")
	if len(vals) != rank {
		c.fail("values", "Shape of input to %s does not match the length of values", strings.TrimPrefix(c.b.name, "tl."))
	}
	if op := x.V.Def(); op != nil {
		arr := make([]int32, len(vals))
		for i, v := range vals {
			arr[i] = int32(v)
		}
		op.SetAttr(name, tileir.DenseAttr{Splat: tileir.IntAttr{V: int64(arr[0]), T: tileir.I32}, T: tileir.Tensor([]int64{int64(len(arr))}, tileir.I32)})
		for _, a := range arr[1:] {
			if a != arr[0] {
				c.fail("values", "gotriton supports only equal values in %s for now", c.b.name)
			}
		}
	}
	return x
}

// deviceAssert is tl.device_assert (and the assert statement); Triton drops it unless the
// kernel is compiled with debug.
func (g *gen) deviceAssert(n ast.Node, cond Value, msg string, mask *Tensor) {
	if c, ok := toPy(cond); ok {
		if t, _ := pyeval.Truth(c); !t && g.opts.Debug {
			g.fail(n, "Assertion failed: %s", msg)
		}
		return
	}
	if !g.opts.Debug {
		return
	}
	t := g.toTensor(n, cond)
	if mask != nil {
		notMask := g.unary(&ast.UnaryOp{Op: ast.Not, Pos: posOf(n)}, mask).(*Tensor)
		t = g.binary(n, ast.BitOr, t, notMask, n, n).(*Tensor)
	}
	g.b.Assert(t.V, msg)
}

func posOf(n ast.Node) ast.Pos {
	if n == nil {
		return ast.Pos{}
	}
	return n.Position()
}

// staticPrint records tl.static_print output (compile-time values).
func (g *gen) staticPrint(n ast.Node, args []argv) {
	parts := make([]string, len(args))
	for i, a := range args {
		if c, ok := toPy(a.v); ok {
			parts[i] = pyeval.ToStr(c)
		} else {
			parts[i] = describe(a.v)
		}
	}
	g.prints = append(g.prints, strings.Join(parts, " "))
}

func inlineAsmImpl(c *callCtx) Value {
	g := c.g
	var args []*Tensor
	argList, _ := c.arg("args").(Tuple)
	for _, a := range argList {
		args = append(args, g.toTensor(c.node("args"), a))
	}
	var shape []int64
	for i := range args {
		for j := range args {
			if i != j {
				args[i], _ = g.broadcastPair(c.call, args[i], args[j])
			}
		}
		shape = shapeOf(args[i].T)
	}
	var dts []Type
	if t, ok := c.arg("dtype").(Tuple); ok {
		for _, d := range t {
			dv, ok := d.(DTypeVal)
			if !ok {
				c.fail("dtype", "dtype must be a dtype or a tuple of dtypes")
			}
			dts = append(dts, dv.T)
		}
	} else {
		dts = []Type{c.dtype("dtype")}
	}
	var results []tileir.Type
	for _, d := range dts {
		results = append(results, blockOf(d, shape).IR())
	}
	vals := make([]*tileir.Value, len(args))
	for i, a := range args {
		vals[i] = a.V
	}
	res := g.b.InlineAsm(c.constStr("asm"), c.constStr("constraints"), c.constBool("is_pure"), int(c.constInt("pack")), results, vals...)
	if len(res) == 1 {
		return &Tensor{V: res[0], T: blockOf(dts[0], shape)}
	}
	out := Tuple{}
	for i, r := range res {
		out = append(out, &Tensor{V: r, T: blockOf(dts[i], shape)})
	}
	return out
}

//go:embed libdevice.txt
var libdeviceTable string

// registerLibdevice registers libdevice.* from the embedded table: each function dispatches
// on its argument dtypes to a __nv_* symbol, emitted as tt.extern_elementwise.
func registerLibdevice() {
	for _, line := range strings.Split(libdeviceTable, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		name, pure := fields[0], len(fields) < 3
		type overload struct {
			args   []DType
			symbol string
			ret    DType
		}
		var ovs []overload
		for _, e := range strings.Split(fields[1], ";") {
			parts := strings.Split(e, ">")
			var o overload
			for _, a := range strings.Split(parts[0], ",") {
				o.args = append(o.args, dtypeFromCanonical(a))
			}
			o.symbol, o.ret = parts[1], dtypeFromCanonical(parts[2])
			ovs = append(ovs, o)
		}
		var params []string
		for i := range ovs[0].args {
			params = append(params, fmt.Sprintf("arg%d", i))
		}
		def("libdevice."+name, strings.Join(params, ", "), func(c *callCtx) Value {
			g := c.g
			var args []*Tensor
			var types []DType
			allScalar := true
			for _, p := range params {
				t := c.tensor(p)
				args = append(args, t)
				types = append(types, dtypeOf(t.T))
				if shapeOf(t.T) != nil {
					allScalar = false
				}
			}
			var match *overload
			for i := range ovs {
				if slices.Equal(ovs[i].args, types) {
					match = &ovs[i]
				}
			}
			if match == nil {
				var want []string
				for _, o := range ovs {
					want = append(want, dtypeTuple(o.args))
				}
				g.fail(c.call, "input arg type does not match.Expect one of %s, got %s", strings.Join(want, ", "), dtypeTuple(types))
			}
			broad := args[0]
			for _, a := range args {
				_, broad = g.binaryTypeCheck(c.call, operand{a, c.call}, operand{broad, c.call}, false, false, false, false)
			}
			vals := make([]*tileir.Value, len(args))
			for i, a := range args {
				a, _ = g.binaryTypeCheck(c.call, operand{a, c.call}, operand{broad, c.call}, false, false, false, false)
				vals[i] = a.V
			}
			var rt Type = match.ret
			if !allScalar {
				rt = withElem(broad.T, match.ret)
			}
			return &Tensor{V: g.b.ExternElementwise("", "", match.symbol, pure, rt.IR(), vals...), T: rt}
		})
	}
	for _, alt := range []string{"asin", "acos", "atan", "sinh", "cosh", "tanh", "exp", "log", "sqrt", "pow", "erf", "isnan", "isinf"} {
		_ = alt
	}
}

func dtypeFromCanonical(s string) DType {
	if d, ok := dtypeByName[s]; ok {
		return d
	}
	if d, ok := sigDTypes[strings.Replace(s, "int", "i", 1)]; ok {
		return d
	}
	return sigDTypes[s]
}

func dtypeTuple(ds []DType) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// mapElementwise is tl.map_elementwise: the jit function scalar_fn inlined into the region
// of a tt.map_elementwise over the broadcast arguments, pack elements per call.
func mapElementwise(c *callCtx) Value {
	g := c.g
	fn, ok := c.arg("scalar_fn").(JITRef)
	if !ok {
		c.fail("scalar_fn", "map_elementwise() needs a @triton.jit function, got %s", describe(c.arg("scalar_fn")))
	}
	pack := c.constInt("pack")
	if pack < 1 {
		c.fail("pack", "pack must be >= 1, got %d", pack)
	}
	if len(c.rest) == 0 {
		g.fail(c.call, "map_elementwise must have at least 1 input tensor")
	}
	ins := make([]*Tensor, len(c.rest))
	for i, a := range c.rest {
		ins[i] = g.toTensor(a.node, a.v)
	}
	for i := range ins {
		for j := range ins {
			if i != j {
				ins[i], _ = g.broadcastPair(c.call, ins[i], ins[j])
			}
		}
	}
	shape := shapeOf(ins[0].T)
	if shape == nil {
		g.fail(c.call, "map_elementwise needs tensor inputs, got scalars")
	}
	vals := make([]*tileir.Value, len(ins))
	for i, t := range ins {
		vals[i] = t.V
	}
	var retTypes []Type
	res := g.b.MapElementwise(vals, int(pack), func(b *tileir.Builder, args []*tileir.Value) []*tileir.Value {
		var out []*tileir.Value
		g.withScope(g.scope, b.Block(), func() {
			var scalars []argv
			for i, a := range args {
				scalars = append(scalars, argv{&Tensor{V: a, T: scalarOf(ins[i/int(pack)].T)}, c.call})
			}
			r := g.inline(c.call, fn.J, scalars, nil)
			rs := []Value{r}
			if t, ok := r.(Tuple); ok {
				rs = t
			}
			if len(rs)%int(pack) != 0 {
				c.fail("scalar_fn", "map_elementwise: %d results are not a multiple of pack=%d", len(rs), pack)
			}
			for i, v := range rs {
				t := g.toTensor(c.node("scalar_fn"), v)
				if shapeOf(t.T) != nil {
					c.fail("scalar_fn", "map_elementwise: the function must return scalars, got %s", t.T)
				}
				if i%int(pack) == 0 {
					retTypes = append(retTypes, t.T)
				} else if !sameType(t.T, retTypes[len(retTypes)-1]) {
					c.fail("scalar_fn", "type mismatch in unpacked results")
				}
				out = append(out, t.V)
			}
		})
		return out
	})
	outs := Tuple{}
	for i, r := range res {
		outs = append(outs, &Tensor{V: r, T: blockOf(retTypes[i], shape)})
	}
	if len(outs) == 1 {
		return outs[0]
	}
	return outs
}
