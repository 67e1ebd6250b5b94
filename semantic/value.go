package semantic

import (
	"strings"
	"sync"

	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/tileir"
)

// Value is what a kernel expression evaluates to while generating code: a runtime Tensor
// (scalar or block), a compile-time Const, a dtype, a tuple, a tensor descriptor, or
// something callable.
type Value interface{ valueKind() string }

// Tensor is a runtime value: a scalar (0-d) or a block, with its Triton type.
type Tensor struct {
	V *tileir.Value
	T Type
}

// Const is a constexpr: a Python value known at compile time.
type Const struct{ V pyeval.Value }

// DTypeVal is a type used as a value (tl.float16, tl.pointer_type(tl.int8), x.dtype).
type DTypeVal struct{ T Type }

// Tuple is a tl.tuple: a fixed sequence of values of any kind.
type Tuple []Value

// Desc is a tensor descriptor: its handle, global shape (i32) and strides (i64).
type Desc struct {
	V       *tileir.Value
	T       *DescType
	Shape   []*Tensor
	Strides []*Tensor
}

// JITRef is a @triton.jit function used as a value.
type JITRef struct{ J *pyeval.JITFunction }

// PyRef is a name inside a modelled module (triton.language, libdevice, math) that has
// not been resolved to a builtin yet: tl, tl.math, triton.language.extra.cuda.
type PyRef struct{ Path string }

// BuiltinRef is a builtin function; Recv is the bound receiver for method forms
// (x.to, desc.load), nil otherwise.
type BuiltinRef struct {
	B    *builtin
	Recv Value
}

// HostFn is a plain Python function (not jit) called at compile time, e.g. a helper that
// computes a constexpr.
type HostFn struct{ F pyeval.Value }

// WhileCond is tl.condition(cond, disable_licm): a while loop's condition with loop
// attributes; only a while statement's test may use it.
type WhileCond struct {
	Cond        Value
	DisableLicm bool
}

// Slice is a subscript slice (only ':' and None-axis indexing are meaningful on tensors).
type Slice struct{ Lo, Hi, Step Value }

func (*Tensor) valueKind() string    { return "tensor" }
func (Const) valueKind() string      { return "constexpr" }
func (DTypeVal) valueKind() string   { return "dtype" }
func (Tuple) valueKind() string      { return "tuple" }
func (*Desc) valueKind() string      { return "tensor_descriptor" }
func (JITRef) valueKind() string     { return "JITFunction" }
func (PyRef) valueKind() string      { return "module" }
func (BuiltinRef) valueKind() string { return "builtin" }
func (HostFn) valueKind() string     { return "function" }
func (Slice) valueKind() string      { return "slice" }
func (WhileCond) valueKind() string  { return "condition" }

var (
	constNone  = Const{pyeval.None}
	constTrue  = Const{pyeval.Bool(true)}
	constFalse = Const{pyeval.Bool(false)}
)

func constInt(n int64) Const { return Const{pyeval.NewInt(n)} }

func isNone(v Value) bool {
	c, ok := v.(Const)
	return v == nil || ok && c.V == pyeval.None
}

// describe names a value for messages: "constexpr[128]", "<[128], fp32>", "tuple".
func describe(v Value) string {
	switch v := v.(type) {
	case *Tensor:
		return v.T.String()
	case Const:
		return "constexpr[" + pyeval.Repr(v.V) + "]"
	case DTypeVal:
		return v.T.String()
	case Tuple:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = describe(e)
		}
		return "tuple(" + strings.Join(parts, ", ") + ")"
	case *Desc:
		return v.T.String()
	case JITRef:
		return "JITFunction(" + v.J.Fn.Name + ")"
	case BuiltinRef:
		return "builtin " + v.B.name
	case PyRef:
		return v.Path
	}
	if v == nil {
		return "None"
	}
	return v.valueKind()
}

// fromPy converts a value of the evaluated module (a global, a default, a constexpr helper
// result) into a kernel value.
func fromPy(v pyeval.Value) Value {
	switch v := v.(type) {
	case pyeval.Tuple:
		out := make(Tuple, len(v))
		for i, e := range v {
			out[i] = fromPy(e)
		}
		return out
	case *pyeval.List:
		out := make(Tuple, len(v.Elems))
		for i, e := range v.Elems {
			out[i] = fromPy(e)
		}
		return out
	case *pyeval.JITFunction:
		return JITRef{v}
	case *pyeval.Function, *pyeval.Builtin:
		return HostFn{v}
	case pyeval.Ref:
		return resolveRef(v.Path)
	}
	return Const{v}
}

// toPy converts a compile-time kernel value back to a Python value (for host helpers and
// constexpr arithmetic); ok is false for runtime values.
func toPy(v Value) (pyeval.Value, bool) {
	switch v := v.(type) {
	case Const:
		return v.V, true
	case Tuple:
		out := make(pyeval.Tuple, len(v))
		for i, e := range v {
			p, ok := toPy(e)
			if !ok {
				return nil, false
			}
			out[i] = p
		}
		return out, true
	case DTypeVal:
		return pyeval.Ref{Path: "triton.language." + dtypeAttrName(v.T)}, true
	case JITRef:
		return v.J, true
	case HostFn:
		return v.F, true
	}
	return nil, false
}

// dtypeAttrName is the tl attribute that names a type (float16 for fp16).
func dtypeAttrName(t Type) string {
	if d, ok := t.(DType); ok {
		if name, ok := canonicalDTypeNames[d]; ok {
			return name
		}
	}
	return t.String()
}

// canonicalDTypeNames maps each dtype to its own tl name (dtypeByName also has aliases
// such as tl.int and tl.float, which must not come out of a map iteration).
var canonicalDTypeNames = func() map[DType]string {
	m := map[DType]string{}
	for _, name := range strings.Fields("void int1 int8 int16 int32 int64 uint8 uint16 uint32 uint64 float8e4nv float8e5 float8e4b15 float8e4b8 float8e5b16 float16 bfloat16 float32 float64") {
		m[dtypeByName[name]] = name
	}
	return m
}()

// attrRefs caches resolveAttrRef's answers (they depend on the names alone), up to
// maxAttrRefs of them.
var attrRefs struct {
	sync.RWMutex
	m map[[2]string]Value
}

const maxAttrRefs = 4096

// resolveAttrRef is resolveRef(path + "." + attr), remembered.
func resolveAttrRef(path, attr string) Value {
	key := [2]string{path, attr}
	attrRefs.RLock()
	v, ok := attrRefs.m[key]
	attrRefs.RUnlock()
	if ok {
		return v
	}
	v = resolveRef(path + "." + attr)
	attrRefs.Lock()
	if attrRefs.m == nil {
		attrRefs.m = map[[2]string]Value{}
	}
	if len(attrRefs.m) < maxAttrRefs {
		attrRefs.m[key] = v
	}
	attrRefs.Unlock()
	return v
}

// resolveRef turns a qualified triton name into a dtype, a builtin or a module reference.
func resolveRef(path string) Value {
	key := canonicalName(path)
	if d, ok := dtypeByName[strings.TrimPrefix(key, "tl.")]; ok && strings.HasPrefix(key, "tl.") {
		return DTypeVal{d}
	}
	if key == "tl.pi32_t" { // triton.language defines pi32_t = pointer_type(int32)
		return DTypeVal{&PtrType{Elem: Int32, AddrSpace: 1}}
	}
	if b := lookupBuiltin(key); b != nil {
		return BuiltinRef{B: b}
	}
	if name, ok := strings.CutPrefix(key, "tl."); ok && preludeNames[name] {
		if j := preludeFunc(name); j != nil {
			return JITRef{j}
		}
	}
	if v, ok := tlConstants[strings.TrimPrefix(path, "triton.language.core.")]; ok {
		return constInt(v)
	}
	if v, ok := tlConstants[strings.TrimPrefix(path, "triton.language.")]; ok {
		return constInt(v)
	}
	return PyRef{path}
}

// tlConstants are the integer constants of triton.language: the enum tl.PropagateNan with
// MLIR's values (NONE = 0, ALL = 0xFFFF) and the largest number of elements of a tensor.
var tlConstants = map[string]int64{"PropagateNan.NONE": 0, "PropagateNan.ALL": 0xFFFF, "TRITON_MAX_TENSOR_NUMEL": 1 << 20}

// canonicalName maps a qualified name to its registry key: triton.language.core.arange and
// triton.language.arange are "tl.arange"; triton.language.math.exp2 is "tl.exp2"; the
// libdevice modules are "libdevice.*"; tl.extra.cuda's PDL calls are "cuda.*";
// triton.language.target_info's functions are "target_info.*".
func canonicalName(path string) string {
	p := path
	for _, pre := range []string{"triton.language.extra.cuda.libdevice.", "triton.language.extra.libdevice.",
		"triton.language.extra.hip.libdevice.", "triton.language.libdevice."} {
		if rest, ok := strings.CutPrefix(p, pre); ok {
			return "libdevice." + rest
		}
	}
	if rest, ok := strings.CutPrefix(p, "triton.language.target_info."); ok {
		return "target_info." + rest
	}
	for _, pre := range []string{"triton.language.extra.cuda.gdc.", "triton.language.extra.cuda."} {
		if rest, ok := strings.CutPrefix(p, pre); ok && !strings.Contains(rest, ".") {
			return "cuda." + rest
		}
	}
	for _, pre := range []string{"triton.language.core.", "triton.language.math.", "triton.language.standard.",
		"triton.language.random.", "triton.language."} {
		if rest, ok := strings.CutPrefix(p, pre); ok && !strings.Contains(rest, ".") {
			return "tl." + rest
		}
	}
	switch p {
	case "triton.cdiv":
		return "tl.cdiv"
	case "builtins.min", "min":
		return "py.min"
	case "builtins.max", "max":
		return "py.max"
	}
	return p
}
