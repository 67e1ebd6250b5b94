package launch

import (
	"fmt"
	"strings"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/pyeval"
)

// Kernels that PyTorch Inductor writes (torch/_inductor/codegen/triton.py) carry their
// specialization in the decorator above @triton.jit:
//
//	@triton_heuristics.pointwise(size_hints=..., triton_meta={'signature': ...,
//	    'constants': ..., 'configs': [...]}, inductor_meta=..., ...)
//
// The signature and the tt.divisibility / tt.equal_to hints come from triton_meta; the
// block sizes Inductor tunes at run time are those of the first config that Inductor's
// heuristic for the kernel kind would try (torch/_inductor/runtime/triton_heuristics.py).

// inductorKinds are the triton_heuristics decorators whose configs gotriton models.
var inductorKinds = map[string]bool{"pointwise": true, "reduction": true, "persistent_reduction": true}

// inductorDecorator is the kernel's @triton_heuristics.KIND(...) call and KIND, or nil.
func inductorDecorator(decorators []ast.Expr) (*ast.Call, string) {
	for _, d := range decorators {
		c, ok := d.(*ast.Call)
		if !ok {
			continue
		}
		a, ok := c.Func.(*ast.Attribute)
		if !ok || !inductorKinds[a.Attr] {
			continue
		}
		switch v := a.Value.(type) {
		case *ast.Name:
			ok = v.ID == "triton_heuristics"
		case *ast.Attribute:
			ok = v.Attr == "triton_heuristics"
		default:
			ok = false
		}
		if ok {
			return c, a.Attr
		}
	}
	return nil, ""
}

// inductor specializes a kernel that Inductor generated from its decorator. It reports
// false when the kernel has no such decorator.
func (in *inferrer) inductor(kr *Kernel) bool {
	k := kr.Kernel
	call, kind := inductorDecorator(k.Def.DecoratorList)
	if call == nil {
		return false
	}
	site := fmt.Sprintf("%s:%d", in.f.Path, call.Pos.Lineno)
	fail := func(format string, args ...any) bool {
		kr.Unknown = append(kr.Unknown, fmt.Sprintf("the Inductor kernel '%s': %s; decorated at %s; pass -s", k.Name, fmt.Sprintf(format, args...), site))
		return true
	}
	kw := map[string]ast.Expr{}
	for _, a := range call.Keywords {
		kw[a.Arg] = a.Value
	}
	meta, ok := kw["triton_meta"].(*ast.Dict)
	if !ok {
		if meta, ok = kw["meta"].(*ast.Dict); !ok {
			return fail("triton_meta is not a dict display")
		}
	}
	metaItem := func(name string) ast.Expr {
		for i, key := range meta.Keys {
			if c, ok := key.(*ast.Constant); ok && c.Value == name {
				return meta.Values[i]
			}
		}
		return nil
	}
	types := map[string]string{}
	if e := metaItem("signature"); e != nil {
		sig, ok := in.literal(e).(*pyeval.Dict)
		if !ok {
			return fail("triton_meta['signature'] is not a dict")
		}
		for i, key := range sig.Keys {
			name := pyeval.ToStr(key)
			if n, isInt := key.(pyeval.Int); isInt { // up to PyTorch 2.4: keyed by index
				if idx, _ := n.Int64(); int(idx) < len(k.Params) {
					name = k.Params[idx].Name
				}
			}
			types[name] = pyeval.ToStr(sig.Vals[i])
		}
	} else {
		return fail("triton_meta has no 'signature'")
	}
	constants := &pyeval.Dict{}
	if e := metaItem("constants"); e != nil {
		if d, ok := in.literal(e).(*pyeval.Dict); ok {
			constants = d
		}
	}
	divisible, equalToOne, err := in.inductorHints(metaItem("configs"))
	if err != "" {
		return fail("%s", err)
	}
	blocks, numWarps, numStages, err := inductorFirstConfig(kind, in.literal(kw["size_hints"]), reductionHint(kw["reduction_hint"]), in.literal(kw["inductor_meta"]))
	if err != "" {
		return fail("%s", err)
	}
	spec := Spec{Config: -1, Site: site, NumWarps: numWarps, NumStages: numStages}
	for i, p := range k.Params {
		var v pyeval.Value
		if c := constants.Get(pyeval.Str(p.Name)); c != nil {
			v = c
		} else if c, ok := in.opts.Constants[p.Name]; ok {
			v = c
		}
		ty := types[p.Name]
		switch {
		case v != nil:
			entry, why := constEntry(v)
			if why != "" {
				return fail("%s %s", p.Name, why)
			}
			spec.Signature = append(spec.Signature, entry)
		case p.Constexpr || ty == "constexpr":
			b, ok := blocks[p.Name]
			if !ok {
				if p.Default == nil {
					return fail("the constexpr %s has no value in triton_meta, and it is not a block size of Inductor's %s configs", p.Name, kind)
				}
				dv, err := in.script.Eval(p.Default, nil)
				if err != nil {
					return fail("the default of %s: %v", p.Name, err)
				}
				entry, why := constEntry(dv)
				if why != "" {
					return fail("%s %s", p.Name, why)
				}
				spec.Signature = append(spec.Signature, entry)
				continue
			}
			spec.Signature = append(spec.Signature, fmt.Sprint(b))
		case ty == "":
			return fail("triton_meta['signature'] has no type for %s", p.Name)
		case equalToOne[i] && !strings.HasPrefix(ty, "*"):
			spec.Signature = append(spec.Signature, ty+":1")
		case divisible[i]:
			spec.Signature = append(spec.Signature, ty+":16")
		default:
			spec.Signature = append(spec.Signature, ty)
		}
	}
	kr.add(spec)
	return true
}

// literal evaluates a decorator argument in the module's globals, or returns nil.
func (in *inferrer) literal(e ast.Expr) pyeval.Value {
	if e == nil {
		return nil
	}
	v, err := in.f.Module.Eval(e, nil)
	if err != nil {
		return nil
	}
	return v
}

// inductorHints reads triton_meta['configs'][0]: the indices of the arguments divisible
// by 16 and of those equal to 1, in each of its forms: AttrsDescriptor(divisible_by_16=...,
// equal_to_1=...) (PyTorch 2.5), AttrsDescriptor.from_dict({'arg_properties': {...}})
// (2.6), and {(index,): [['tt.divisibility', 16]], ...} (2.7 and later).
func (in *inferrer) inductorHints(configs ast.Expr) (map[int]bool, map[int]bool, string) {
	divisible, one := map[int]bool{}, map[int]bool{}
	if configs == nil {
		return divisible, one, ""
	}
	list, ok := configs.(*ast.List)
	if !ok || len(list.Elts) == 0 {
		return divisible, one, ""
	}
	first := list.Elts[0]
	mark := func(set map[int]bool, v pyeval.Value) string {
		var items []pyeval.Value
		switch v := v.(type) {
		case pyeval.Tuple:
			items = v
		case *pyeval.List:
			items = v.Elems
		case *pyeval.Set:
			items = v.Elems
		case nil:
			return ""
		default:
			return "an argument index list is " + pyeval.Repr(v)
		}
		for _, it := range items {
			if t, ok := it.(pyeval.Tuple); ok && len(t) == 1 { // (index,)
				it = t[0]
			}
			n, ok := it.(pyeval.Int)
			if !ok {
				return "an argument index is " + pyeval.Repr(it)
			}
			i, _ := n.Int64()
			set[int(i)] = true
		}
		return ""
	}
	if c, ok := first.(*ast.Call); ok {
		switch f := c.Func.(type) {
		case *ast.Name: // AttrsDescriptor(divisible_by_16=(...), equal_to_1=(...))
			if f.ID != "AttrsDescriptor" {
				break
			}
			for _, a := range c.Keywords {
				switch a.Arg {
				case "divisible_by_16":
					if err := mark(divisible, in.literal(a.Value)); err != "" {
						return nil, nil, err
					}
				case "equal_to_1":
					if err := mark(one, in.literal(a.Value)); err != "" {
						return nil, nil, err
					}
				}
			}
			return divisible, one, ""
		case *ast.Attribute: // AttrsDescriptor.from_dict({'arg_properties': {...}})
			if f.Attr != "from_dict" || len(c.Args) != 1 {
				break
			}
			d, ok := in.literal(c.Args[0]).(*pyeval.Dict)
			if !ok {
				return nil, nil, "the AttrsDescriptor of triton_meta['configs'] is not a dict"
			}
			props, _ := d.Get(pyeval.Str("arg_properties")).(*pyeval.Dict)
			if props == nil {
				return nil, nil, "the AttrsDescriptor of triton_meta['configs'] has no 'arg_properties'"
			}
			if err := mark(divisible, props.Get(pyeval.Str("tt.divisibility"))); err != "" {
				return nil, nil, err
			}
			if err := mark(one, props.Get(pyeval.Str("tt.equal_to"))); err != "" {
				return nil, nil, err
			}
			return divisible, one, ""
		}
		return nil, nil, fmt.Sprintf("triton_meta['configs'] holds `%s`, which gotriton does not read", in.f.Module.Text(c.Position()))
	}
	d, ok := in.literal(first).(*pyeval.Dict)
	if !ok {
		return nil, nil, "triton_meta['configs'][0] is not a dict"
	}
	for i, key := range d.Keys {
		attrs, ok := d.Vals[i].(*pyeval.List)
		if !ok {
			return nil, nil, "the attributes of argument " + pyeval.Repr(key) + " are " + pyeval.Repr(d.Vals[i])
		}
		for _, a := range attrs.Elems {
			pair, _ := a.(*pyeval.List)
			if pair == nil || len(pair.Elems) != 2 {
				continue
			}
			name, value := pyeval.ToStr(pair.Elems[0]), pair.Elems[1]
			switch {
			case name == "tt.divisibility" && pyeval.Equal(value, pyeval.NewInt(16)):
				if err := mark(divisible, pyeval.Tuple{key}); err != "" {
					return nil, nil, err
				}
			case name == "tt.equal_to" && pyeval.Equal(value, pyeval.NewInt(1)):
				if err := mark(one, pyeval.Tuple{key}); err != "" {
					return nil, nil, err
				}
			}
		}
	}
	return divisible, one, ""
}

// reductionHint is the name of a reduction_hint=ReductionHint.NAME argument, or "".
func reductionHint(e ast.Expr) string {
	if a, ok := e.(*ast.Attribute); ok {
		return a.Attr
	}
	return ""
}

// sizeHint is one dimension of size_hints: its prefix ("x", "y", "z", "r0_", ...) and
// numel.
type sizeHint struct {
	prefix string
	numel  int
}

// sizeHints reads size_hints: a dict {'x': 4096, 'r0_': 64} (PyTorch 2.6 and later) or a
// list [4096, 64] whose last entry is the reduction's for the reduction kinds.
func sizeHints(v pyeval.Value, reduction bool) ([]sizeHint, string) {
	var out []sizeHint
	switch v := v.(type) {
	case *pyeval.Dict:
		for i, key := range v.Keys {
			n, ok := v.Vals[i].(pyeval.Int)
			if !ok {
				return nil, "size_hints has " + pyeval.Repr(v.Vals[i])
			}
			i64, _ := n.Int64()
			out = append(out, sizeHint{pyeval.ToStr(key), int(i64)})
		}
	case *pyeval.List, pyeval.Tuple:
		var items []pyeval.Value
		if l, ok := v.(*pyeval.List); ok {
			items = l.Elems
		} else {
			items = v.(pyeval.Tuple)
		}
		names := []string{"x", "y", "z"}
		for i, it := range items {
			n, ok := it.(pyeval.Int)
			if !ok {
				return nil, "size_hints has " + pyeval.Repr(it)
			}
			i64, _ := n.Int64()
			prefix := "x"
			if reduction && i == len(items)-1 {
				prefix = "r"
			} else if i < len(names) {
				prefix = names[i]
			}
			out = append(out, sizeHint{prefix, int(i64)})
		}
	default:
		return nil, "size_hints is not known offline"
	}
	return out, ""
}

// blockName is the constexpr a size_hints prefix tunes: XBLOCK for "x", R0_BLOCK for
// "r0_", RBLOCK for the list form's "r".
func blockName(prefix string) string {
	return strings.ToUpper(prefix) + "BLOCK"
}

// inductorFirstConfig is the first config the heuristic of kind tries: block sizes by
// name (both RBLOCK and R0_BLOCK spellings for a reduction), num_warps and num_stages.
func inductorFirstConfig(kind string, hintsValue pyeval.Value, hint string, meta pyeval.Value) (map[string]int, int, int, string) {
	reduction := kind != "pointwise"
	hints, err := sizeHints(hintsValue, reduction)
	if err != "" {
		return nil, 0, 0, err
	}
	if d, ok := meta.(*pyeval.Dict); ok && noXDim(d) && len(hints) > 0 {
		hints[0].numel = 1
	}
	if !reduction {
		return pointwiseFirstConfig(hints)
	}
	var x, r sizeHint
	for _, h := range hints {
		if strings.HasPrefix(h.prefix, "r") {
			r = h
		} else {
			x = h
		}
	}
	if r.prefix == "" || x.prefix == "" || len(hints) != 2 {
		return nil, 0, 0, fmt.Sprintf("gotriton models Inductor's %s configs for one x and one reduction dimension, not %v", kind, hints)
	}
	var xblock, rblock int
	switch {
	case kind == "persistent_reduction":
		// Configs for XBLOCK in 1, 8, 32, 128 (those that fit); INNER (rnumel >= 256) keeps
		// the first, OUTER the last, OUTER_TINY makes one of its own.
		cands := []int{}
		for _, xb := range []int{1, 8, 32, 128} {
			if xb == 1 || (r.numel*xb <= 4096 && xb <= x.numel) {
				cands = append(cands, xb)
			}
		}
		xblock, rblock = cands[0], r.numel
		switch hint {
		case "OUTER":
			xblock = cands[len(cands)-1]
		case "OUTER_TINY":
			xblock = 1
			if r.numel <= 256 {
				xblock = 2 * (256 / r.numel)
			}
		}
	case hint == "OUTER":
		xblock, rblock = 64, 8
	case hint == "OUTER_TINY":
		xblock, rblock = 1, min(r.numel, 2048)
		if r.numel <= 256 {
			xblock = 2 * (256 / r.numel)
		}
	default: // the contiguous config comes first
		xblock, rblock = 1, 2048
		if 256 <= r.numel && r.numel < 2048 {
			rblock = r.numel
		}
	}
	xblock, rblock, warps := reductionConfig(x.numel, r.numel, xblock, rblock)
	blocks := map[string]int{blockName(x.prefix): xblock}
	if kind != "persistent_reduction" { // a persistent reduction's R block is in the body
		blocks[blockName(r.prefix)] = rblock
	}
	return blocks, warps, 1, ""
}

// reductionConfig is triton_config_reduction: the block clamped to the sizes, grown
// back towards the original product, and num_warps from the block's size.
func reductionConfig(xnumel, rnumel, x, r int) (int, int, int) {
	target := x * r
	if xnumel*rnumel < target {
		target /= 8
	}
	x, r = min(x, xnumel), min(r, rnumel)
	for x < xnumel && x*r < target {
		x *= 2
	}
	for r < rnumel && x*r < target {
		r *= 2
	}
	return x, r, nextPowerOfTwo(min(max(x*r/128, 2), 8))
}

// pointwiseFirstConfig is pointwise's first config: XBLOCK = max(256, min(numel // 128,
// 1024)) for one dimension, 32 x 32 for two, 16 x 16 x 16 for three, then triton_config's
// adjustment to the sizes.
func pointwiseFirstConfig(hints []sizeHint) (map[string]int, int, int, string) {
	var block []int
	switch len(hints) {
	case 1:
		block = []int{max(256, min(hints[0].numel/128, 1024))}
	case 2:
		block = []int{32, 32}
	case 3:
		block = []int{16, 16, 16}
	default:
		return nil, 0, 0, fmt.Sprintf("pointwise with %d dimensions", len(hints))
	}
	product := func(v []int) int {
		p := 1
		for _, n := range v {
			p *= n
		}
		return p
	}
	numels := make([]int, len(hints))
	for i, h := range hints {
		numels[i] = h.numel
	}
	target := product(block)
	if product(numels) < target {
		target /= 8
	}
	for i := range block {
		block[i] = min(block[i], numels[i])
	}
	// maxGridSize: a grid of at most 2^31-1 programs in x and 65535 in y and z.
	maxGrid := []int{1<<31 - 1, 65535, 65535}
	for i := range block {
		for block[i] < numels[i] && (block[i]*maxGrid[i] < numels[i] || product(block) < target) {
			block[i] *= 2
		}
	}
	warps := nextPowerOfTwo(min(max(product(block)/128, 1), 8))
	if product(block) >= 128 {
		warps = max(warps, 4)
	}
	blocks := map[string]int{}
	for i, h := range hints {
		blocks[blockName(h.prefix)] = block[i]
	}
	return blocks, warps, 1, ""
}

func nextPowerOfTwo(n int) int {
	p := 1
	for p < n {
		p *= 2
	}
	return p
}

// noXDim reports whether inductor_meta says the kernel has no x dimension.
func noXDim(meta *pyeval.Dict) bool {
	v := meta.Get(pyeval.Str("no_x_dim"))
	if v == nil {
		return false
	}
	t, ok := pyeval.Truth(v)
	return ok && t
}
