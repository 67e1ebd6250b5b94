package semantic

import (
	"strings"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/pyeval"
)

// builtin is one entry of the registry: a tl.* function (or a tensor/descriptor method)
// with its parameter list and its implementation, which applies the type rule and builds
// the IR.
type builtin struct {
	name   string // registry key: "tl.arange", "tensor.to", "libdevice.asin"
	params []param
	impl   func(c *callCtx) Value
}

// param is a builtin parameter. A nil def means required; variadic collects the rest of
// the positional arguments (*args).
type param struct {
	name     string
	def      Value
	variadic bool
	kwOnly   bool
}

// registry maps every builtin's key to its entry.
var registry = map[string]*builtin{}

// def registers a builtin. spec lists its parameters as Python would write them:
// "pointer, mask=None, other=None, *, cache_modifier=”", with "*args" for varargs.
func def(name, spec string, impl func(c *callCtx) Value) {
	b := &builtin{name: name, impl: impl}
	kwOnly := false
	for _, f := range splitSpec(spec) {
		switch {
		case f == "*":
			kwOnly = true
		case strings.HasPrefix(f, "*"):
			b.params = append(b.params, param{name: f[1:], variadic: true})
			kwOnly = true
		default:
			n, d, hasDef := strings.Cut(f, "=")
			p := param{name: strings.TrimSpace(n), kwOnly: kwOnly}
			if hasDef {
				p.def = parseDefault(strings.TrimSpace(d))
			}
			b.params = append(b.params, p)
		}
	}
	if _, dup := registry[name]; dup {
		panic("semantic: builtin registered twice: " + name)
	}
	registry[name] = b
}

// alias registers another key for an existing builtin.
func alias(name, target string) { registry[name] = registry[target] }

func splitSpec(spec string) []string {
	parts, _ := splitTopLevel(spec)
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func parseDefault(s string) Value {
	switch s {
	case "()", "[]":
		return Tuple{}
	}
	if v, ok := parseConstLiteral(s); ok {
		return v
	}
	panic("semantic: bad builtin default " + s)
}

// lookupBuiltin returns the builtin registered under key, or nil.
func lookupBuiltin(key string) *builtin { return registry[key] }

// callCtx is one call of a builtin: its bound arguments and the expressions they came from,
// indexed like b.params (a nil value where a parameter is unbound, a nil node where it was
// defaulted).
type callCtx struct {
	g     *gen
	call  *ast.Call
	b     *builtin
	bound []argv
	rest  []argv // varargs
}

func newCallCtx(g *gen, call *ast.Call, b *builtin) *callCtx {
	if n := len(b.params); n <= len(callCtxArgs{}.args) { // most builtins: one allocation
		x := &callCtxArgs{callCtx: callCtx{g: g, call: call, b: b}}
		x.bound = x.args[:n:n]
		return &x.callCtx
	}
	return &callCtx{g: g, call: call, b: b, bound: make([]argv, len(b.params))}
}

// callCtxArgs is a callCtx with room for the arguments of a builtin of up to 8 parameters.
type callCtxArgs struct {
	callCtx
	args [8]argv
}

// callBuiltin runs the builtin registered under key on arguments given by parameter name,
// for builtins implemented by others; errors point at call.
func (g *gen) callBuiltin(call *ast.Call, key string, args map[string]Value) Value {
	b := registry[key]
	c := newCallCtx(g, call, b)
	for name, v := range args {
		c.bound[b.index(name)].v = v
	}
	return b.impl(c)
}

// bind matches a call's arguments to a builtin's parameters, as Python would.
func (g *gen) bind(call *ast.Call, b *builtin, args []argv, kws []kwv) *callCtx {
	c := newCallCtx(g, call, b)
	pos := 0
	for i, p := range b.params {
		if p.variadic {
			c.rest = args[pos:]
			pos = len(args)
			break
		}
		if p.kwOnly || pos >= len(args) {
			break
		}
		c.bound[i] = args[pos]
		pos++
	}
	if pos < len(args) {
		g.fail(args[pos].node, "%s() takes %d positional arguments but %d were given", b.display(), positionalCount(b), len(args))
	}
	for _, k := range kws {
		i := b.index(k.name)
		if i < 0 || b.params[i].variadic {
			msg := b.display() + "() got an unexpected keyword argument '" + k.name + "'"
			if s := nearestParam(b, k.name); s != "" {
				msg += "; did you mean '" + s + "'?"
			}
			g.fail(k.node, "%s", msg)
		}
		if c.bound[i].v != nil {
			g.fail(k.node, "%s() got multiple values for argument '%s'", b.display(), k.name)
		}
		c.bound[i] = argv{k.v, k.node}
	}
	for i, p := range b.params {
		if c.bound[i].v != nil || p.variadic {
			continue
		}
		if p.def == nil {
			g.fail(call, "%s() missing 1 required positional argument: '%s'", b.display(), p.name)
		}
		c.bound[i].v = p.def
	}
	return c
}

func positionalCount(b *builtin) int {
	n := 0
	for _, p := range b.params {
		if !p.kwOnly && !p.variadic {
			n++
		}
	}
	return n
}

func nearestParam(b *builtin, name string) string {
	best, bestD := "", max(2, len(name)/3)+1
	for _, p := range b.params {
		if d := editDistance(name, p.name); d < bestD && !p.variadic {
			best, bestD = p.name, d
		}
	}
	return best
}

// index returns the position of parameter name, or -1.
func (b *builtin) index(name string) int {
	for i := range b.params {
		if b.params[i].name == name {
			return i
		}
	}
	return -1
}

// display is the builtin's name as a user writes it: tl.arange, libdevice.asin, tensor.to.
func (b *builtin) display() string { return b.name }

// arg returns the bound value of parameter name (nil when unbound).
func (c *callCtx) arg(name string) Value {
	if c.b == nil {
		return nil
	}
	if i := c.b.index(name); i >= 0 {
		return c.bound[i].v
	}
	return nil
}

// node returns the expression of argument name, or the call when it was defaulted.
func (c *callCtx) node(name string) ast.Node {
	if c.b != nil {
		if i := c.b.index(name); i >= 0 && c.bound[i].node != nil {
			return c.bound[i].node
		}
	}
	return c.call
}

// fail reports an error at argument name.
func (c *callCtx) fail(name string, format string, args ...any) {
	c.g.fail(c.node(name), format, args...)
}

// given reports whether argument name was passed (and is not None).
func (c *callCtx) given(name string) bool { return !isNone(c.arg(name)) }

// tensor returns argument name as a tensor (Python numbers become constants).
func (c *callCtx) tensor(name string) *Tensor {
	v := c.arg(name)
	switch t := v.(type) {
	case *Tensor:
		return t
	case Const:
		if isNumber(v) {
			return c.g.toTensor(c.node(name), v)
		}
	}
	c.fail(name, "%s() argument '%s' must be a tensor, got %s", c.b.display(), name, describe(v))
	return nil
}

// optTensor is tensor, or nil when the argument is None.
func (c *callCtx) optTensor(name string) *Tensor {
	if !c.given(name) {
		return nil
	}
	return c.tensor(name)
}

// operand returns argument name as a binary-operator operand (a tensor or Python number).
func (c *callCtx) operand(name string) operand {
	v := c.arg(name)
	if _, ok := v.(*Tensor); !ok && !isNumber(v) {
		c.fail(name, "%s() argument '%s' must be a tensor or a number, got %s", c.b.display(), name, describe(v))
	}
	return operand{v, c.node(name)}
}

// constant returns argument name as a compile-time Python value.
func (c *callCtx) constant(name string) pyeval.Value {
	p, ok := toPy(c.arg(name))
	if !ok {
		c.fail(name, "%s() argument '%s' must be a constexpr, got %s", c.b.display(), name, describe(c.arg(name)))
	}
	return p
}

// constInt returns argument name as a constexpr int.
func (c *callCtx) constInt(name string) int64 { return c.intOf(name, c.arg(name)) }

// intOf requires v (argument name's value) to be a constexpr int.
func (c *callCtx) intOf(name string, v Value) int64 { return c.g.constIntOf(c.node(name), v, name) }

// constIntOf requires a constexpr integer (or bool).
func (g *gen) constIntOf(n ast.Node, v Value, what string) int64 {
	cv, ok := v.(Const)
	if !ok {
		g.fail(n, "'%s' must be a constexpr int, got %s", what, describe(v))
	}
	switch x := cv.V.(type) {
	case pyeval.Int:
		i, ok := x.Int64()
		if !ok {
			g.fail(n, "'%s' is out of range: %s", what, pyeval.Repr(x))
		}
		return i
	case pyeval.Bool:
		if x {
			return 1
		}
		return 0
	}
	g.fail(n, "'%s' must be a constexpr int, got %s", what, describe(v))
	return 0
}

// constBool returns argument name as a constexpr truth value.
func (c *callCtx) constBool(name string) bool {
	t, known := pyeval.Truth(c.constant(name))
	if !known {
		c.fail(name, "'%s' must be known at compile time", name)
	}
	return t
}

// constStr returns argument name as a constexpr string ("" for None).
func (c *callCtx) constStr(name string) string {
	if !c.given(name) {
		return ""
	}
	s, ok := c.constant(name).(pyeval.Str)
	if !ok {
		c.fail(name, "%s() argument '%s' must be a constexpr string, got %s", c.b.display(), name, describe(c.arg(name)))
	}
	return string(s)
}

// intList returns argument name as a list of constexpr ints (a single int is a list of one).
func (c *callCtx) intList(name string) []int64 {
	v := c.arg(name)
	t, ok := v.(Tuple)
	if !ok {
		return []int64{c.constInt(name)}
	}
	out := make([]int64, len(t))
	for i, e := range t {
		out[i] = c.intOf(name, e)
	}
	return out
}

// shape returns argument name as a block shape: constexpr ints, each a power of two that
// fits in int32.
func (c *callCtx) shape(name string) []int64 {
	s := c.intList(name)
	for _, d := range s {
		if d <= 0 || d&(d-1) != 0 {
			c.fail(name, "Shape element %d must be a power of 2", d)
		}
	}
	return s
}

// dtype returns argument name as a type (tl.float16, x.dtype, tl.pointer_type(...)).
func (c *callCtx) dtype(name string) Type {
	d, ok := c.arg(name).(DTypeVal)
	if !ok {
		c.fail(name, "%s() argument '%s' must be a dtype, got %s", c.b.display(), name, describe(c.arg(name)))
	}
	return d.T
}

// LanguageName says what a public name of a Triton language module (module
// "triton.language", name "arange") is to gotriton's kernels: a builtin, a dtype, a type
// used in annotations and isinstance, a jit function of gotriton's prelude, a constant or a
// namespace; or, where kernels cannot use it, the error they get (what is then "").
func LanguageName(module, name string) (what, errMsg string) {
	if module == "triton.language" && name == "const" {
		return "parameter annotation only (`p: tl.const` gives Triton's `*k` signature entry: a const_pointer, stores to it refused)", ""
	}
	switch v := resolveRef(module + "." + name).(type) {
	case DTypeVal:
		return "dtype", ""
	case BuiltinRef:
		switch v.B.name {
		case "tl.constexpr", "tl.tensor", "tl.tensor_descriptor", "tl.tensor_descriptor_base", "tl.dtype", "tl.tuple":
			return "type (annotations, isinstance, tl.constexpr(v))", ""
		case "tl.pointer_type":
			return "type constructor (tl.pointer_type(dtype)) and isinstance class", ""
		}
		return "builtin", ""
	case JITRef:
		return "jit function (gotriton's prelude, in the Triton language, inlined)", ""
	case Const:
		return "constant " + pyeval.Repr(v.V), ""
	case PyRef:
		if knownModule(v.Path) {
			return "module or namespace", ""
		}
	}
	return "", unknownNameMessage(module, name)
}
