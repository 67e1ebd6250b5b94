package semantic

import (
	_ "embed"
	"sync"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
)

// tensorMembers are the tl functions that tensors also have as methods (x.sum(...) is
// tl.sum(x, ...)), as core.py's _tensor_member_fn declares them.
var tensorMembers = []string{
	"abs", "advance", "argmax", "argmin", "associative_scan", "atomic_add", "atomic_and", "atomic_cas",
	"atomic_max", "atomic_min", "atomic_or", "atomic_xchg", "atomic_xor", "broadcast_to", "cast", "cdiv",
	"ceil", "cos", "cumprod", "cumsum", "erf", "exp", "exp2", "expand_dims", "fdiv", "floor", "join",
	"log", "log2", "max", "min", "permute", "ravel", "reduce", "reshape", "rsqrt", "sigmoid", "sin",
	"softmax", "split", "sqrt", "sqrt_rn", "store", "sum", "trans", "view", "xor_sum", "load",
	"histogram", "gather", "reduce_or",
}

func registerMethods() {
	def("tl.to_tensor", "x", func(c *callCtx) Value { return c.tensor("x") })
	// x.flip(dim): the prelude's flip, bound to x
	def("tensor.flip", "self, dim=None", func(c *callCtx) Value {
		args := []argv{{c.arg("self"), c.call}, {c.arg("dim"), c.call}}
		return c.g.inline(c.call, preludeFunc("flip"), args, nil)
	})
}

// method returns the bound method name of a tensor, or nil.
func method(recv Value, prefix, name string) Value {
	if b := lookupBuiltin(prefix + name); b != nil {
		return BuiltinRef{B: b, Recv: recv}
	}
	for _, m := range tensorMembers {
		if m == name && prefix == "tensor." {
			return BuiltinRef{B: lookupBuiltin("tl." + name), Recv: recv}
		}
	}
	return nil
}

// tensorAttr evaluates x.attr for a tensor.
func (g *gen) tensorAttr(e *ast.Attribute, x *Tensor) Value {
	switch e.Attr {
	case "dtype":
		return DTypeVal{scalarOf(x.T)}
	case "type":
		return DTypeVal{x.T}
	case "shape":
		out := Tuple{}
		for _, d := range shapeOf(x.T) {
			out = append(out, constInt(d))
		}
		return out
	case "numel":
		return constInt(numel(x.T))
	case "ndim":
		return constInt(int64(len(shapeOf(x.T))))
	case "T":
		if len(shapeOf(x.T)) != 2 {
			g.fail(e, ".T needs a 2-D tensor, got %s", x.T)
		}
		return g.permute(&callCtx{g: g, call: nil}, x, []int64{1, 0})
	}
	if m := method(x, "tensor.", e.Attr); m != nil {
		return m
	}
	g.fail(e, "'tensor' object has no attribute '%s'", e.Attr)
	return nil
}

// descAttr evaluates d.attr for a tensor descriptor.
func (g *gen) descAttr(e *ast.Attribute, d *Desc) Value {
	switch e.Attr {
	case "block_shape":
		out := Tuple{}
		for _, s := range d.T.Block.Shape {
			out = append(out, constInt(s))
		}
		return out
	case "dtype":
		return DTypeVal{d.T.Block.Elem}
	case "block_type":
		return DTypeVal{d.T.Block}
	case "type":
		return DTypeVal{d.T}
	case "shape":
		out := Tuple{}
		for _, s := range d.Shape {
			out = append(out, s)
		}
		return out
	case "strides":
		out := Tuple{}
		for _, s := range d.Strides {
			out = append(out, s)
		}
		return out
	}
	if m := method(d, "desc.", e.Attr); m != nil {
		return m
	}
	g.fail(e, "'tensor_descriptor' object has no attribute '%s'", e.Attr)
	return nil
}

// typeClassName is the Python class of Triton's object for t, as an AttributeError names it.
func typeClassName(t Type) string {
	switch t.(type) {
	case *PtrType:
		return "pointer_type"
	case *BlockType:
		return "block_type"
	case *DescType:
		return "tensor_descriptor_type"
	}
	return "dtype"
}

// dtypeAttr evaluates t.attr for a type: element_ty, primitive_bitwidth, and the is_*
// predicates (as zero-argument methods).
func (g *gen) dtypeAttr(e *ast.Attribute, v DTypeVal) Value {
	t := v.T
	switch e.Attr {
	case "element_ty":
		switch t := t.(type) {
		case *PtrType:
			return DTypeVal{t.Elem}
		case *BlockType:
			return DTypeVal{t.Elem}
		}
		g.fail(e, "'%s' object has no attribute 'element_ty'", typeClassName(t))
	case "scalar":
		return DTypeVal{scalarOf(t)}
	case "primitive_bitwidth":
		return constInt(int64(dtypeOf(t).Bits()))
	case "int_bitwidth":
		return constInt(int64(dtypeOf(t).Bits()))
	case "fp_mantissa_width":
		return constInt(int64(dtypeOf(t).mantissa()))
	case "name":
		return Const{pyeval.Str(t.String())}
	case "shape":
		out := Tuple{}
		for _, d := range shapeOf(t) {
			out = append(out, constInt(d))
		}
		return out
	case "address_space":
		if p, ok := t.(*PtrType); ok {
			return constInt(int64(p.AddrSpace))
		}
	}
	if pred, ok := dtypePredicates[e.Attr]; ok {
		return BuiltinRef{B: &builtin{name: "dtype." + e.Attr, impl: func(c *callCtx) Value {
			return Const{pyeval.Bool(pred(t))}
		}}}
	}
	g.fail(e, "'%s' object has no attribute '%s'", typeClassName(t), e.Attr)
	return nil
}

var dtypePredicates = map[string]func(Type) bool{
	"is_floating":          func(t Type) bool { return dtypeOf(t).IsFloat() },
	"is_int":               func(t Type) bool { return dtypeOf(t).IsInt() },
	"is_int_signed":        func(t Type) bool { return dtypeOf(t).IsSigned() },
	"is_int_unsigned":      func(t Type) bool { return dtypeOf(t).IsUnsigned() },
	"is_bool":              func(t Type) bool { return dtypeOf(t) == Int1 },
	"is_fp8":               func(t Type) bool { return dtypeOf(t).IsFP8() },
	"is_fp16":              func(t Type) bool { return dtypeOf(t) == FP16 },
	"is_bf16":              func(t Type) bool { return dtypeOf(t) == BF16 },
	"is_fp32":              func(t Type) bool { return dtypeOf(t) == FP32 },
	"is_fp64":              func(t Type) bool { return dtypeOf(t) == FP64 },
	"is_fp8e4nv":           func(t Type) bool { return dtypeOf(t) == FP8E4NV },
	"is_fp8e5":             func(t Type) bool { return dtypeOf(t) == FP8E5 },
	"is_ptr":               func(t Type) bool { _, ok := t.(*PtrType); return ok },
	"is_block":             func(t Type) bool { _, ok := t.(*BlockType); return ok },
	"is_standard_floating": func(t Type) bool { return dtypeOf(t).IsStandardFloat() },
}

// tensorIndex is x[...] on a tensor: None inserts a unit dimension at its position in the
// index (a scalar becomes a block by splat), ':' leaves the tensor as it is. As in Triton 3.6
// the number of ':' is not checked against the rank.
func (g *gen) tensorIndex(e *ast.Subscript, x *Tensor, idx Value) Value {
	items, ok := idx.(Tuple)
	if !ok {
		items = Tuple{idx}
	}
	for dim, it := range items {
		switch it := it.(type) {
		case Slice:
			if !isNone(it.Lo) || !isNone(it.Hi) || !isNone(it.Step) {
				g.fail(e.Slice, "unsupported tensor index: only None and ':' are supported")
			}
		case Const:
			if it.V != pyeval.None {
				g.fail(e.Slice, "unsupported tensor index: %s", describe(it))
			}
			if rank := len(shapeOf(x.T)); dim > rank {
				g.fail(e.Slice, "None at index position %d needs a tensor of rank %d or more, got rank %d", dim, dim, rank)
			}
			x = g.expandDims(x, dim)
		default:
			g.fail(e.Slice, "unsupported tensor index: %s", describe(it))
		}
	}
	return x
}

//go:embed prelude.py
var preludeSrc []byte

var prelude struct {
	once sync.Once
	mod  *pyeval.Module
	err  error
}

// preludeFunc returns the prelude's jit function called name, or nil.
func preludeFunc(name string) *pyeval.JITFunction {
	prelude.once.Do(func() {
		f, err := frontend.LoadSource("<triton.language prelude>", preludeSrc, pyeval.Options{})
		prelude.mod, prelude.err = nil, err
		if err == nil {
			prelude.mod = f.Module
		}
	})
	if prelude.mod == nil {
		return nil
	}
	v, _ := prelude.mod.Lookup(name)
	j, _ := v.(*pyeval.JITFunction)
	return j
}

// preludeNames are the tl names implemented by the prelude.
var preludeNames = map[string]bool{
	"philox": true, "philox_impl": true, "randint4x": true, "randint": true, "uint_to_uniform_float": true,
	"rand": true, "rand4x": true, "pair_uniform_to_normal": true, "randn": true, "randn4x": true, "swizzle2d": true,
	"sort": true, "topk": true, "bitonic_merge": true, "flip": true,
}
