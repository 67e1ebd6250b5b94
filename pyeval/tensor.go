package pyeval

import (
	"fmt"
	"strings"

	"github.com/gotriton/gotriton/ast"
)

// Tensor is a torch tensor tracked abstractly in script mode: its dtype (torch's name,
// e.g. "float16"), its shape and strides where the code makes them known (Int, else
// Unknown), and whether its data pointer is 16-byte aligned (every allocation by torch
// is).
type Tensor struct {
	DType   string
	Shape   []Value
	Strides []Value
	Aligned bool
	Addr    int64 // the abstract allocator's address of the storage
	// backward is set on the outputs of a torch.autograd.Function.
	backward *gradFn
}

func (*Tensor) TypeName() string { return "Tensor" }
func (t *Tensor) String() string { return "<tensor " + t.describe() + ">" }

// describe is the tensor's abstract identity: dtype, shape, strides, alignment.
func (t *Tensor) describe() string {
	return fmt.Sprintf("%s%s%s:%v", t.DType, Repr(Tuple(t.Shape)), Repr(Tuple(t.Strides)), t.Aligned)
}

// dtypeBytes is the element size of torch dtypes.
var dtypeBytes = map[string]int64{
	"bool": 1, "int8": 1, "uint8": 1, "int16": 2, "uint16": 2, "int32": 4, "uint32": 4, "int64": 8, "uint64": 8,
	"float16": 2, "bfloat16": 2, "float32": 4, "float64": 8,
	"float8_e4m3fn": 1, "float8_e5m2": 1, "float8_e4m3fnuz": 1, "float8_e5m2fnuz": 1, "float8_e8m0fnu": 1,
}

// torchDTypeAliases maps torch's alternative dtype names to the canonical ones.
var torchDTypeAliases = map[string]string{
	"half": "float16", "float": "float32", "double": "float64", "int": "int32", "long": "int64", "short": "int16",
	"bfloat16": "bfloat16", "cfloat": "complex64",
}

// TorchDType returns the canonical torch dtype name a value names (torch.float16,
// torch.half, tl.float16), or "".
func TorchDType(v Value) string {
	r, ok := v.(Ref)
	if !ok {
		return ""
	}
	name, found := strings.CutPrefix(r.Path, "torch.")
	if !found {
		if name, found = strings.CutPrefix(r.Path, "triton.language."); !found {
			return ""
		}
	}
	if a, ok := torchDTypeAliases[name]; ok {
		name = a
	}
	if _, ok := dtypeBytes[name]; ok {
		return name
	}
	return ""
}

func (ev *evaluator) allocate(dtype string, shape []Value) *Tensor {
	t := &Tensor{DType: dtype, Shape: shape, Strides: contiguousStrides(shape), Aligned: true, Addr: ev.mod.script.nextAddr}
	ev.mod.script.nextAddr += 1 << 24
	return t
}

// contiguousStrides are the row-major strides of shape.
func contiguousStrides(shape []Value) []Value {
	out := make([]Value, len(shape))
	var acc Value = NewInt(1)
	for i := len(shape) - 1; i >= 0; i-- {
		out[i] = acc
		next, err := BinOp("*", acc, shape[i])
		if err != nil {
			next = unknownf("stride")
		}
		acc = next
	}
	return out
}

// shapeArgs reads a shape given as ints, a tuple/list, a torch.Size or size=.
func shapeArgs(args []Value, kwargs *Dict) []Value {
	if s := kwargs.Get(Str("size")); s != nil {
		args = []Value{s}
	}
	if len(args) == 1 {
		switch a := args[0].(type) {
		case Tuple:
			return append([]Value{}, a...)
		case *List:
			return append([]Value{}, a.Elems...)
		}
	}
	return append([]Value{}, args...)
}

func dtypeArg(kwargs *Dict, def string) string {
	if d := TorchDType(kwargs.Get(Str("dtype"))); d != "" {
		return d
	}
	return def
}

func numel(shape []Value) Value {
	var n Value = NewInt(1)
	for _, d := range shape {
		n, _ = BinOp("*", n, d)
	}
	return n
}

func (ev *evaluator) tensorAttr(t *Tensor, name string, pos ast.Pos) (Value, error) {
	method := func(f func(args []Value, kwargs *Dict) (Value, error)) (Value, error) {
		return &Builtin{"Tensor." + name, func(_ *evaluator, args []Value, kwargs *Dict) (Value, error) { return f(args, kwargs) }}, nil
	}
	dimIndex := func(v Value) (int, bool) {
		i, err := index(v, len(t.Shape))
		return i, err == nil
	}
	sameAs := func(dtype string) *Tensor {
		cp := *t
		cp.DType = dtype
		cp.backward = nil
		return &cp
	}
	switch name {
	case "shape":
		return Tuple(append([]Value{}, t.Shape...)), nil
	case "dtype":
		return Ref{"torch." + t.DType}, nil
	case "device":
		return cudaDevice, nil
	case "is_cuda":
		return Bool(true), nil
	case "ndim":
		return NewInt(int64(len(t.Shape))), nil
	case "T", "mT":
		cp := *t
		cp.Shape, cp.Strides = reversed(t.Shape), reversed(t.Strides)
		if name == "mT" && len(t.Shape) >= 2 {
			cp.Shape, cp.Strides = swapped(t.Shape, len(t.Shape)-2, len(t.Shape)-1), swapped(t.Strides, len(t.Strides)-2, len(t.Strides)-1)
		}
		cp.backward = nil
		return &cp, nil
	case "grad":
		return unknownf("%s.grad", "tensor"), nil
	case "size", "stride":
		of := t.Shape
		if name == "stride" {
			of = t.Strides
		}
		return method(func(args []Value, _ *Dict) (Value, error) {
			if len(args) == 0 {
				return Tuple(append([]Value{}, of...)), nil
			}
			if i, ok := dimIndex(args[0]); ok {
				return of[i], nil
			}
			return nil, &Error{"IndexError", "Dimension out of range"}
		})
	case "numel", "nelement":
		return method(func([]Value, *Dict) (Value, error) { return numel(t.Shape), nil })
	case "dim":
		return method(func([]Value, *Dict) (Value, error) { return NewInt(int64(len(t.Shape))), nil })
	case "element_size":
		return method(func([]Value, *Dict) (Value, error) { return NewInt(dtypeBytes[t.DType]), nil })
	case "data_ptr":
		return method(func([]Value, *Dict) (Value, error) {
			if t.Aligned {
				return NewInt(t.Addr), nil
			}
			return unknownf("data_ptr() of a tensor view"), nil
		})
	case "is_contiguous":
		return method(func([]Value, *Dict) (Value, error) {
			return Bool(Equal(Tuple(t.Strides), Tuple(contiguousStrides(t.Shape)))), nil
		})
	case "half", "float", "bfloat16", "double", "int", "long", "bool", "short":
		return method(func([]Value, *Dict) (Value, error) {
			d := name
			if a, ok := torchDTypeAliases[name]; ok {
				d = a
			}
			return sameAs(d), nil
		})
	case "to", "type":
		return method(func(args []Value, kwargs *Dict) (Value, error) {
			d := dtypeArg(kwargs, t.DType)
			for _, a := range args {
				if x := TorchDType(a); x != "" {
					d = x
				}
			}
			return sameAs(d), nil
		})
	case "contiguous", "clone", "detach", "cpu", "cuda", "requires_grad_", "normal_", "uniform_", "zero_", "fill_",
		"copy_", "exponential_", "random_", "abs", "exp", "sqrt", "relu", "sigmoid", "neg", "abs_", "cumsum", "softmax":
		return method(func(args []Value, kwargs *Dict) (Value, error) {
			if name == "contiguous" || name == "clone" {
				cp := *t
				cp.Strides = contiguousStrides(t.Shape)
				cp.backward = nil
				if !Equal(Tuple(t.Strides), Tuple(cp.Strides)) || name == "clone" {
					n := ev.allocate(t.DType, t.Shape)
					return n, nil
				}
				return &cp, nil
			}
			if strings.HasSuffix(name, "_") {
				return t, nil
			}
			return sameAs(t.DType), nil
		})
	case "view", "reshape", "flatten", "expand", "unsqueeze", "squeeze", "permute", "transpose", "t":
		return method(func(args []Value, kwargs *Dict) (Value, error) {
			if len(args) == 1 && name == "view" {
				if d := TorchDType(args[0]); d != "" { // a reinterpretation of the bytes
					if dtypeBytes[d] != dtypeBytes[t.DType] {
						return unknownf("view(%s) of a %s tensor", d, t.DType), nil
					}
					return sameAs(d), nil
				}
			}
			return t.reshape(name, args, kwargs), nil
		})
	case "new_empty", "new_zeros", "new_ones", "new_full":
		return method(func(args []Value, kwargs *Dict) (Value, error) {
			if name == "new_full" && len(args) > 1 {
				args = args[:1]
			}
			return ev.allocate(dtypeArg(kwargs, t.DType), shapeArgs(args, kwargs)), nil
		})
	case "random": // triton.tools.mxfp.MXFP4Tensor(...).random()
		return method(func([]Value, *Dict) (Value, error) { return t, nil })
	case "to_packed_tensor": // two fp4 values per byte along dim
		return method(func(args []Value, kwargs *Dict) (Value, error) {
			i, ok := dimIndex(kw(args, kwargs, 0, "dim"))
			if !ok {
				return unknownf("to_packed_tensor of dimension %s", Repr(kw(args, kwargs, 0, "dim"))), nil
			}
			shape := append([]Value{}, t.Shape...)
			shape[i], _ = BinOp("//", shape[i], NewInt(2))
			return ev.allocate("uint8", shape), nil
		})
	case "backward":
		return method(func(args []Value, kwargs *Dict) (Value, error) {
			if t.backward == nil {
				return None, nil
			}
			_, err := ev.call(t.backward.fn, append([]Value{t.backward.ctx}, args...), nil, pos)
			return None, err
		})
	case "item", "tolist", "sum", "max", "min", "mean", "all", "any", "nonzero":
		return method(func([]Value, *Dict) (Value, error) { return unknownf("tensor.%s() needs the data", name), nil })
	}
	return unknownf("tensor.%s", name), nil
}

func reversed(vs []Value) []Value {
	out := make([]Value, len(vs))
	for i, v := range vs {
		out[len(vs)-1-i] = v
	}
	return out
}

func swapped(vs []Value, i, j int) []Value {
	out := append([]Value{}, vs...)
	out[i], out[j] = out[j], out[i]
	return out
}

// reshape implements the view-changing methods.
func (t *Tensor) reshape(name string, args []Value, kwargs *Dict) *Tensor {
	cp := *t
	cp.backward = nil
	contiguous := Equal(Tuple(t.Strides), Tuple(contiguousStrides(t.Shape)))
	ints := func() ([]int, bool) {
		out := make([]int, 0, len(args))
		for _, a := range shapeArgs(args, &Dict{}) {
			i, err := index(a, len(t.Shape))
			if err != nil {
				return nil, false
			}
			out = append(out, i)
		}
		return out, true
	}
	switch name {
	case "view", "reshape":
		shape := shapeArgs(args, kwargs)
		known := NewInt(1)
		hole := -1
		for i, d := range shape {
			if n, ok := d.(Int); ok && n.V.Sign() < 0 {
				hole = i
				continue
			}
			if p, err := BinOp("*", known, d); err == nil {
				if pi, ok := p.(Int); ok {
					known = pi
					continue
				}
			}
			known = Int{}
		}
		if hole >= 0 {
			if known.V != nil && known.V.Sign() != 0 {
				shape[hole], _ = BinOp("//", numel(t.Shape), known)
			} else {
				shape[hole] = unknownf("the -1 dimension of a reshape")
			}
		}
		cp.Shape, cp.Strides = shape, contiguousStrides(shape)
		if !contiguous {
			cp.Aligned = true // a reshape of a non-contiguous tensor copies
		}
	case "permute":
		perm, ok := ints()
		if !ok || len(perm) != len(t.Shape) {
			return unknownShape(t)
		}
		cp.Shape, cp.Strides = make([]Value, len(perm)), make([]Value, len(perm))
		for i, p := range perm {
			cp.Shape[i], cp.Strides[i] = t.Shape[p], t.Strides[p]
		}
	case "transpose", "t":
		dims, ok := ints()
		if name == "t" {
			dims, ok = []int{0, len(t.Shape) - 1}, len(t.Shape) >= 1
		}
		if !ok || len(dims) != 2 {
			return unknownShape(t)
		}
		cp.Shape, cp.Strides = swapped(t.Shape, dims[0], dims[1]), swapped(t.Strides, dims[0], dims[1])
	case "flatten":
		cp.Shape = []Value{numel(t.Shape)}
		cp.Strides = []Value{NewInt(1)}
	default:
		return unknownShape(t)
	}
	return &cp
}

func unknownShape(t *Tensor) *Tensor {
	cp := *t
	cp.backward = nil
	cp.Shape, cp.Strides = nil, nil
	return &cp
}

// index is t[key]: the element type stays; the shape is known for integer indexing of
// the first dimensions and full slices.
func (t *Tensor) index(key Value) Value {
	keys, ok := key.(Tuple)
	if !ok {
		keys = Tuple{key}
	}
	cp := *t
	cp.backward = nil
	cp.Shape, cp.Strides = nil, nil
	for i, k := range keys {
		if i >= len(t.Shape) {
			return unknownShape(t)
		}
		switch k := k.(type) {
		case Int:
			if k.V.Sign() != 0 {
				cp.Aligned = false
			}
		case sliceValue:
			if !k.full() {
				return unknownShape(t)
			}
			cp.Shape, cp.Strides = append(cp.Shape, t.Shape[i]), append(cp.Strides, t.Strides[i])
		default:
			return unknownShape(t)
		}
	}
	cp.Shape = append(cp.Shape, t.Shape[len(keys):]...)
	cp.Strides = append(cp.Strides, t.Strides[len(keys):]...)
	return &cp
}

// sliceValue is a slice object (x[:, 0]) in script mode.
type sliceValue struct{ lo, hi, step Value }

func (sliceValue) TypeName() string { return "slice" }
func (s sliceValue) full() bool     { return s.lo == None && s.hi == None && s.step == None }

// tensorBinOp applies an arithmetic or comparison operator with a tensor operand.
func tensorBinOp(op string, a, b Value) (Value, bool) {
	ta, aok := a.(*Tensor)
	tb, bok := b.(*Tensor)
	if !aok && !bok {
		return nil, false
	}
	if op == "@" {
		if !aok || !bok {
			return unknownf("a matrix product with a %s", map[bool]string{true: b.TypeName(), false: a.TypeName()}[aok]), true
		}
		if len(ta.Shape) == 2 && len(tb.Shape) == 2 {
			shape := []Value{ta.Shape[0], tb.Shape[1]}
			return &Tensor{DType: ta.DType, Shape: shape, Strides: contiguousStrides(shape), Aligned: true}, true
		}
		return &Tensor{DType: ta.DType, Aligned: true}, true
	}
	var out *Tensor
	switch {
	case aok && bok:
		out = &Tensor{DType: promoteDTypes(ta.DType, tb.DType), Shape: broadcast(ta.Shape, tb.Shape)}
	case aok:
		out = &Tensor{DType: scalarPromote(ta.DType, b), Shape: ta.Shape}
	default:
		out = &Tensor{DType: scalarPromote(tb.DType, a), Shape: tb.Shape}
	}
	switch op {
	case "<", "<=", ">", ">=", "==", "!=":
		out.DType = "bool"
	case "/":
		if !isFloatDType(out.DType) {
			out.DType = "float32"
		}
	}
	out.Strides = contiguousStrides(out.Shape)
	out.Aligned = true
	return out, true
}

func isFloatDType(d string) bool { return strings.HasPrefix(d, "float") || d == "bfloat16" }

var dtypeRank = map[string]int{"bool": 0, "uint8": 1, "int8": 1, "int16": 2, "int32": 3, "int64": 4,
	"float8_e4m3fn": 5, "float8_e5m2": 5, "bfloat16": 6, "float16": 6, "float32": 7, "float64": 8}

func promoteDTypes(a, b string) string {
	if dtypeRank[b] > dtypeRank[a] {
		return b
	}
	return a
}

// scalarPromote is torch's rule for a tensor and a Python number: the tensor's dtype,
// unless a float meets an integer tensor (float32).
func scalarPromote(d string, scalar Value) string {
	if _, isFloat := scalar.(Float); isFloat && !isFloatDType(d) {
		return "float32"
	}
	return d
}

func broadcast(a, b []Value) []Value {
	if a == nil || b == nil {
		return nil
	}
	n := max(len(a), len(b))
	out := make([]Value, n)
	for i := range n {
		var x, y Value = NewInt(1), NewInt(1)
		if j := i - (n - len(a)); j >= 0 {
			x = a[j]
		}
		if j := i - (n - len(b)); j >= 0 {
			y = b[j]
		}
		if Equal(x, NewInt(1)) {
			out[i] = y
		} else {
			out[i] = x
		}
	}
	return out
}

// TensorDesc is a host tensor descriptor (triton.tools.tensor_descriptor.TensorDescriptor).
type TensorDesc struct {
	Base       *Tensor
	Shape      Value
	Strides    Value
	BlockShape Value
}

func (*TensorDesc) TypeName() string { return "TensorDescriptor" }

func (d *TensorDesc) attr(name string) Value {
	switch name {
	case "base":
		return d.Base
	case "shape":
		return d.Shape
	case "strides":
		return d.Strides
	case "block_shape":
		return d.BlockShape
	}
	return unknownf("TensorDescriptor.%s", name)
}

func (d *TensorDesc) set(name string, v Value) {
	switch name {
	case "block_shape":
		d.BlockShape = v
	case "shape":
		d.Shape = v
	case "strides":
		d.Strides = v
	}
}

// Device is a torch.device; devices compare by value, as torch's do. Every tensor is on
// cuda:0.
type Device struct {
	Type  string
	Index int // -1: no index (torch.device("cpu"))
}

func (Device) TypeName() string { return "device" }
func (d Device) String() string {
	if d.Index < 0 {
		return d.Type
	}
	return fmt.Sprintf("%s:%d", d.Type, d.Index)
}

func (d Device) attr(name string) Value {
	switch name {
	case "type":
		return Str(d.Type)
	case "index":
		if d.Index < 0 {
			return None
		}
		return NewInt(int64(d.Index))
	}
	return unknownf("device.%s", name)
}

var cudaDevice = Device{"cuda", 0}

// newDevice implements torch.device("cuda"), torch.device("cuda:1"), torch.device("cpu").
func newDevice(args []Value) Value {
	if len(args) == 0 {
		return cudaDevice
	}
	if d, ok := args[0].(Device); ok {
		return d
	}
	name := ToStr(args[0])
	typ, idx, hasIdx := strings.Cut(name, ":")
	d := Device{Type: typ, Index: -1}
	if typ == "cuda" {
		d.Index = 0
	}
	if hasIdx {
		fmt.Sscan(idx, &d.Index)
	}
	if len(args) > 1 {
		if i, ok := args[1].(Int); ok {
			n, _ := i.Int64()
			d.Index = int(n)
		}
	}
	return d
}

// scriptFunctions model the torch and triton host calls that scripts make, in script
// mode only.
var scriptFunctions = map[string]*Builtin{}

func init() {
	def := func(f func(ev *evaluator, args []Value, kwargs *Dict) (Value, error), paths ...string) {
		for _, p := range paths {
			scriptFunctions[p] = &Builtin{p, f}
		}
	}
	alloc := func(defDType string) func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		return func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
			return ev.allocate(dtypeArg(kwargs, defDType), shapeArgs(args, kwargs)), nil
		}
	}
	def(alloc("float32"), "torch.randn", "torch.rand", "torch.empty", "torch.zeros", "torch.ones")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		// torch.randint(low, high, size) / torch.randint(high, size)
		var size []Value
		if len(args) > 0 {
			size = shapeArgs(args[len(args)-1:], kwargs)
		}
		return ev.allocate(dtypeArg(kwargs, "int64"), size), nil
	}, "torch.randint")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		if len(args) < 2 {
			return unknownf("torch.full without a fill value"), nil
		}
		d := "float32"
		switch args[1].(type) {
		case Int:
			d = "int64"
		case Bool:
			d = "bool"
		}
		return ev.allocate(dtypeArg(kwargs, d), shapeArgs(args[:1], &Dict{})), nil
	}, "torch.full")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		if len(args) == 0 {
			return unknownf("empty_like()"), nil
		}
		t, ok := args[0].(*Tensor)
		if !ok {
			return unknownf("empty_like of %s", args[0].TypeName()), nil
		}
		n := ev.allocate(dtypeArg(kwargs, t.DType), t.Shape)
		n.Strides = t.Strides // preserve_format keeps a dense tensor's strides
		return n, nil
	}, "torch.empty_like", "torch.zeros_like", "torch.ones_like", "torch.randn_like", "torch.rand_like", "torch.full_like")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		shape, _ := shapeArgs(args[:min(1, len(args))], &Dict{}), 0
		strides := shapeArgs(args[min(1, len(args)):min(2, len(args))], &Dict{})
		t := ev.allocate(dtypeArg(kwargs, "float32"), shape)
		if len(strides) == len(shape) {
			t.Strides = strides
		}
		return t, nil
	}, "torch.empty_strided")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		if len(args) == 0 {
			return unknownf("torch.tensor()"), nil
		}
		d, shape := "int64", []Value{}
		switch data := args[0].(type) {
		case *List, Tuple:
			items, _ := iterate(data)
			shape = []Value{NewInt(int64(len(items)))}
			for _, it := range items {
				switch it.(type) {
				case Float:
					d = "float32"
				case Bool:
					if d == "int64" {
						d = "bool"
					}
				}
			}
		case Float:
			d = "float32"
		case Bool:
			d = "bool"
		}
		return ev.allocate(dtypeArg(kwargs, d), shape), nil
	}, "torch.tensor")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		var lo, hi Value = NewInt(0), nil
		switch len(args) {
		case 1:
			hi = args[0]
		case 0:
			return unknownf("torch.arange()"), nil
		default:
			lo, hi = args[0], args[1]
		}
		n, _ := BinOp("-", hi, lo)
		d := "int64"
		for _, a := range args {
			if _, ok := a.(Float); ok {
				d = "float32"
			}
		}
		return ev.allocate(dtypeArg(kwargs, d), []Value{n}), nil
	}, "torch.arange")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		if len(args) == 2 {
			if v, ok := tensorBinOp("@", args[0], args[1]); ok {
				return v, nil
			}
		}
		return unknownf("torch.matmul"), nil
	}, "torch.matmul", "torch.mm")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		if len(args) > 0 {
			if t, ok := args[0].(*Tensor); ok {
				return ev.allocate(t.DType, t.Shape), nil
			}
		}
		return unknownf("a torch result"), nil
	}, "torch.softmax", "torch.exp", "torch.sigmoid", "torch.relu", "torch.abs", "torch.asin", "torch.tril", "torch.triu",
		"torch.nn.functional.softmax", "torch.nn.functional.relu", "torch.nn.functional.gelu", "torch.nn.functional.layer_norm",
		"torch.nn.functional.dropout", "torch.sin", "torch.cos", "torch.sqrt", "torch.tanh", "torch.where", "torch.clone")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) { return None, nil },
		"torch.manual_seed", "torch.cuda.synchronize", "torch.cuda.set_device", "triton.set_allocator",
		"torch.cuda.empty_cache", "torch.set_default_device", "torch.random.manual_seed")
	for _, op := range []string{"permute", "transpose", "reshape", "flatten", "unsqueeze", "squeeze"} {
		// torch.OP(x, ...) is x.OP(...).
		def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
			if len(args) > 0 {
				if t, ok := args[0].(*Tensor); ok {
					return t.reshape(op, args[1:], kwargs), nil
				}
			}
			return unknownf("torch.%s of a value that is not a tensor", op), nil
		}, "torch."+op)
	}
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) { return newDevice(args), nil }, "torch.device")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) { return cudaDevice, nil },
		"triton.runtime.driver.active.get_active_torch_device")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) { return NewInt(0), nil },
		"torch.cuda.current_device", "triton.runtime.driver.active.get_current_device")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		props := deviceProperties(ev)
		return &Object{Class: "_CudaDeviceProperties", Attrs: map[string]Value{
			"multi_processor_count": props.Get(Str("multiprocessor_count")),
			"name":                  Str("NVIDIA H200"),
			"major":                 deviceCapability(ev.mod.Target)[0],
			"minor":                 deviceCapability(ev.mod.Target)[1],
		}}, nil
	}, "torch.cuda.get_device_properties")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) { return deviceProperties(ev), nil },
		"triton.runtime.driver.active.utils.get_device_properties")
	// Timers call the timed function once (that is what reaches the launches).
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		if len(args) > 0 {
			if _, err := ev.call(args[0], nil, nil, ast.Pos{}); err != nil {
				return nil, err
			}
		}
		return unknownf("a benchmark time"), nil
	}, "triton.testing.do_bench", "triton.testing.do_bench_cudagraph")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		return &Object{Class: "Benchmark", Attrs: dictAttrs(kwargs)}, nil
	}, "triton.testing.Benchmark")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		benchmarks := kw(args, kwargs, 0, "benchmarks")
		return &Builtin{"perf_report", func(_ *evaluator, fargs []Value, _ *Dict) (Value, error) {
			if len(fargs) != 1 {
				return unknownf("perf_report applied to %d arguments", len(fargs)), nil
			}
			return &scriptObject{Kind: "Mark", Attrs: map[string]Value{"fn": fargs[0], "benchmarks": benchmarks}}, nil
		}}, nil
	}, "triton.testing.perf_report")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		return &scriptObject{Kind: "ArgumentParser", Attrs: map[string]Value{}}, nil
	}, "argparse.ArgumentParser")
	// triton._internal_testing's questions about the target.
	capability := func(ev *evaluator) int { return ev.mod.Target.Capability }
	predicates := map[string]func(ev *evaluator) bool{
		"is_interpreter":     func(*evaluator) bool { return false },
		"is_xpu":             func(*evaluator) bool { return false },
		"is_cuda":            func(ev *evaluator) bool { return ev.mod.Target.IsNVIDIA() },
		"is_hip":             func(ev *evaluator) bool { return !ev.mod.Target.IsNVIDIA() },
		"is_ampere_or_newer": func(ev *evaluator) bool { return ev.mod.Target.IsNVIDIA() && capability(ev) >= 80 },
		"is_hopper_or_newer": func(ev *evaluator) bool { return ev.mod.Target.IsNVIDIA() && capability(ev) >= 90 },
		"is_hopper":          func(ev *evaluator) bool { return ev.mod.Target.IsNVIDIA() && capability(ev)/10 == 9 },
		"is_blackwell":       func(ev *evaluator) bool { return ev.mod.Target.IsNVIDIA() && capability(ev)/10 == 10 },
		"is_sm12x":           func(ev *evaluator) bool { return ev.mod.Target.IsNVIDIA() && capability(ev)/10 == 12 },
		"supports_tma":       func(ev *evaluator) bool { return ev.mod.Target.IsNVIDIA() && capability(ev) >= 90 },
		"supports_ws":        func(ev *evaluator) bool { return ev.mod.Target.IsNVIDIA() && capability(ev) >= 90 },
		"is_hip_cdna2":       func(ev *evaluator) bool { return ev.mod.Target.Arch == "gfx90a" },
		"is_hip_cdna3":       func(ev *evaluator) bool { return ev.mod.Target.Arch == "gfx942" },
		"is_hip_cdna4":       func(ev *evaluator) bool { return ev.mod.Target.Arch == "gfx950" },
		"is_hip_cdna": func(ev *evaluator) bool {
			a := ev.mod.Target.Arch
			return a == "gfx90a" || a == "gfx942" || a == "gfx950"
		},
		"is_hip_gfx11":   func(ev *evaluator) bool { return strings.Contains(ev.mod.Target.Arch, "gfx11") },
		"is_hip_gfx12":   func(ev *evaluator) bool { return strings.Contains(ev.mod.Target.Arch, "gfx12") },
		"is_hip_gfx1250": func(ev *evaluator) bool { return strings.Contains(ev.mod.Target.Arch, "gfx1250") },
	}
	for name, pred := range predicates {
		def(func(ev *evaluator, _ []Value, _ *Dict) (Value, error) { return Bool(pred(ev)), nil }, "triton._internal_testing."+name)
	}
	// triton.tools.mxfp: fp4 values (one per uint8 until packed) and e8m0 scales.
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		return ev.allocate("uint8", shapeArgs(args, kwargs)), nil
	}, "triton.tools.mxfp.MXFP4Tensor")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		shape := shapeArgs(nil, kwargs)
		if len(args) > 0 {
			if t, ok := args[0].(*Tensor); ok {
				shape = t.Shape
			}
		}
		return &Object{Class: "MXScaleTensor", Attrs: map[string]Value{"data": ev.allocate("uint8", shape)}}, nil
	}, "triton.tools.mxfp.MXScaleTensor")
	// Wrappers that leave the kernel as it is.
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		if len(args) == 1 {
			return args[0], nil
		}
		return unknownf("wrap_triton of %d arguments", len(args)), nil
	}, "torch.library.wrap_triton", "torch._library.wrap_triton", "torch._library.triton.wrap_triton")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		return &Builtin{"decorator", func(_ *evaluator, fargs []Value, _ *Dict) (Value, error) {
			if len(fargs) == 1 {
				return fargs[0], nil
			}
			return unknownf("decorator of %d arguments", len(fargs)), nil
		}}, nil
	}, "torch.library.triton_op", "torch.library.custom_op", "pytest.fixture", "torch.compile",
		"functools.lru_cache", "functools.cache", "contextlib.contextmanager")
	def(func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		var lists [][]Value
		for _, a := range args {
			items, err := iterate(a)
			if err != nil {
				return unknownf("itertools.product over %s", a.TypeName()), nil
			}
			lists = append(lists, items)
		}
		out := []Value{Tuple{}}
		for _, l := range lists {
			var next []Value
			for _, prefix := range out {
				for _, it := range l {
					next = append(next, append(append(Tuple{}, prefix.(Tuple)...), it))
				}
			}
			out = next
		}
		return &List{out}, nil
	}, "itertools.product")

	fn := func(name string, f func(ev *evaluator, args []Value, kwargs *Dict) (Value, error)) {
		scriptBuiltins[name] = &Builtin{name, f}
	}
	fn("getattr", func(ev *evaluator, args []Value, _ *Dict) (Value, error) {
		if len(args) < 2 {
			return nil, typeError("getattr expected at least 2 arguments, got %d", len(args))
		}
		name, ok := args[1].(Str)
		if !ok {
			return nil, typeError("attribute name must be string")
		}
		v, err := ev.attr(args[0], string(name), ast.Pos{})
		if err != nil && len(args) > 2 {
			return args[2], nil
		}
		return v, err
	})
	fn("staticmethod", func(_ *evaluator, args []Value, _ *Dict) (Value, error) { return staticMethod{args[0]}, nil })
	fn("classmethod", func(_ *evaluator, args []Value, _ *Dict) (Value, error) { return staticMethod{args[0]}, nil })
	fn("slice", func(_ *evaluator, args []Value, _ *Dict) (Value, error) {
		s := sliceValue{None, None, None}
		switch len(args) {
		case 1:
			s.hi = args[0]
		case 2:
			s.lo, s.hi = args[0], args[1]
		case 3:
			s.lo, s.hi, s.step = args[0], args[1], args[2]
		}
		return s, nil
	})
}

// scriptBuiltins are Python builtins that only script mode needs.
var scriptBuiltins = map[string]Value{}

func dictAttrs(d *Dict) map[string]Value {
	out := make(map[string]Value, len(d.Keys))
	for i, k := range d.Keys {
		out[ToStr(k)] = d.Vals[i]
	}
	return out
}

// deviceProperties is what triton's driver reports for the target GPU (an H200 for
// sm_90, the default).
func deviceProperties(ev *evaluator) *Dict {
	d := &Dict{}
	sms, smem := int64(132), int64(232448)
	if ev.mod.Target.IsNVIDIA() && ev.mod.Target.Capability < 90 {
		sms, smem = 108, 166912
	}
	for _, kv := range []struct {
		k string
		v int64
	}{{"max_shared_mem", smem}, {"max_num_regs", 65536}, {"multiprocessor_count", sms}, {"warpSize", int64(ev.mod.Target.WarpSize)},
		{"sm_clock_rate", 1980000}, {"mem_clock_rate", 2619000}, {"mem_bus_width", 6144}, {"max_threads_per_sm", 2048}} {
		d.Set(Str(kv.k), NewInt(kv.v))
	}
	return d
}

// newTensorDesc implements TensorDescriptor(base, shape, strides, block_shape) and
// TensorDescriptor.from_tensor(base, block_shape).
func newTensorDesc(args []Value, kwargs *Dict, fromTensor bool) (Value, error) {
	base, ok := kw(args, kwargs, 0, "tensor").(*Tensor)
	if !ok {
		if base, ok = kwargs.Get(Str("base")).(*Tensor); !ok {
			return unknownf("TensorDescriptor of a non-tensor"), nil
		}
	}
	if fromTensor {
		return &TensorDesc{Base: base, Shape: Tuple(base.Shape), Strides: Tuple(base.Strides), BlockShape: orDefault(kw(args, kwargs, 1, "block_shape"), None)}, nil
	}
	return &TensorDesc{Base: base, Shape: orDefault(kw(args, kwargs, 1, "shape"), None), Strides: orDefault(kw(args, kwargs, 2, "strides"), None),
		BlockShape: orDefault(kw(args, kwargs, 3, "block_shape"), None)}, nil
}

func init() {
	for _, p := range []string{"triton.tools.tensor_descriptor.TensorDescriptor", "triton.tools.experimental_descriptor.TensorDescriptor"} {
		scriptFunctions[p] = &Builtin{p, func(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
			return newTensorDesc(args, kwargs, false)
		}}
		scriptFunctions[p+".from_tensor"] = &Builtin{p, func(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
			return newTensorDesc(args, kwargs, true)
		}}
	}
}
