package tileir

import (
	"slices"
	"strconv"
	"strings"
)

// syntax is how one op prints and parses after its name (and "%r = " prefix). Ops share
// syntaxes; each mirrors one of the assembly formats Triton and MLIR declare.
type syntax struct {
	print func(p *printer, op *Op)
	// parse reads the rest of the op into op, creating nres results.
	parse func(ps *parser, op *Op, nres int)
}

// resultRule says how a simple syntax derives its result type from the printed type.
type resultRule uint8

const (
	resNone resultRule = iota // no result
	resSame                   // the printed type
	resBool                   // i1 of the printed type's shape (comparisons)
)

// trailAttr is an attribute printed after the operands: ", keyword = value", or ", value"
// when keyword is empty.
type trailAttr struct{ attr, keyword string }

func (ps *parser) mergeAttrs(op *Op) {
	for _, a := range ps.optAttrDict() {
		op.SetAttr(a.Name, a.Value)
	}
}

// leadAndOperands prints the leading enum attributes, then the operands, of a simple or
// functional op.
func (p *printer) leadAndOperands(op *Op, lead []string) {
	sep := " "
	for _, l := range lead {
		p.w(sep + op.Attr(l).String())
		sep = ", "
	}
	for _, v := range op.Operands {
		p.w(sep + p.name(v))
		sep = ", "
	}
}

// leadAndOperands parses [lead enums,] operands of a simple or functional op.
func (ps *parser) leadAndOperands(op *Op, lead []string) {
	for i, l := range lead {
		if i > 0 {
			ps.expect(",")
		}
		op.SetAttr(l, EnumAttr(ps.ident()))
	}
	if len(lead) == 0 || ps.commaThen('%') {
		op.Operands = ps.operands()
	}
}

// simple: [lead enums,] operands [, trail] attr-dict : type. The type is operand 0's, or the
// result's when there are no operands.
func simple(res resultRule, lead []string, trail ...trailAttr) syntax {
	elide := append([]string(nil), lead...)
	for _, t := range trail {
		elide = append(elide, t.attr)
	}
	return syntax{
		print: func(p *printer, op *Op) {
			p.leadAndOperands(op, lead)
			for _, t := range trail {
				p.w(", ")
				if t.keyword != "" {
					p.w(t.keyword + " = ")
				}
				p.w(op.Attr(t.attr).String())
			}
			p.attrDict(op, elide...)
			if len(op.Operands) > 0 {
				p.w(" : " + op.Operands[0].Type.String())
			} else if len(op.Results) > 0 {
				p.w(" : " + op.Results[0].Type.String())
			}
		},
		parse: func(ps *parser, op *Op, nres int) {
			ps.leadAndOperands(op, lead)
			for _, t := range trail {
				ps.expect(",")
				if t.keyword != "" {
					ps.expectWord(t.keyword)
					ps.expect("=")
				}
				op.SetAttr(t.attr, ps.attrValue())
			}
			ps.mergeAttrs(op)
			if res == resNone && len(op.Operands) == 0 {
				return
			}
			ps.expect(":")
			t := ps.typ()
			if len(op.Operands) > 0 {
				ps.checkTypes(op.Operands[:1], []Type{t})
			}
			switch res {
			case resSame:
				op.addResults(t)
			case resBool:
				op.addResults(WithElem(t, I1))
			}
		},
	}
}

// variadic: attr-dict? operands attr-dict? (: types)? for terminators and llvm.intr.assume.
func variadic(attrsFirst bool) syntax {
	return syntax{
		print: func(p *printer, op *Op) {
			if attrsFirst {
				p.attrDict(op)
			}
			if len(op.Operands) > 0 {
				p.w(" ")
				p.vals(op.Operands)
			}
			if !attrsFirst {
				p.attrDict(op)
			}
			if len(op.Operands) > 0 {
				p.w(" : " + typeList(valueTypes(op.Operands)))
			}
		},
		parse: func(ps *parser, op *Op, nres int) {
			if attrsFirst {
				ps.mergeAttrs(op)
			}
			op.Operands = ps.operands()
			if !attrsFirst {
				ps.mergeAttrs(op)
			}
			if len(op.Operands) > 0 {
				ps.expect(":")
				ps.checkTypes(op.Operands, ps.typeList())
			}
		},
	}
}

// castSyntax: %x attr-dict : from to into.
var castSyntax = syntax{
	print: func(p *printer, op *Op) {
		p.w(" " + p.name(op.Operands[0]))
		p.attrDict(op)
		p.w(" : " + op.Operands[0].Type.String() + " to " + op.Results[0].Type.String())
	},
	parse: func(ps *parser, op *Op, nres int) {
		op.Operands = []*Value{ps.operand()}
		ps.mergeAttrs(op)
		ps.expect(":")
		ps.checkTypes(op.Operands, []Type{ps.typ()})
		ps.expectWord("to")
		op.addResults(ps.typ())
	},
}

// arrow: operands [unit keywords] attr-dict [, trail = v] : type(operand 0) -> type(result),
// every result having the printed result type (tt.split has two).
func arrow(units []string, trail *trailAttr) syntax {
	elide := append([]string(nil), units...)
	if trail != nil {
		elide = append(elide, trail.attr)
	}
	return syntax{
		print: func(p *printer, op *Op) {
			p.w(" ")
			p.vals(op.Operands)
			for _, u := range units {
				if op.Attr(u) != nil {
					p.w(" " + u)
				}
			}
			p.attrDict(op, elide...)
			if trail != nil && op.Attr(trail.attr) != nil {
				p.w(", " + trail.keyword + " = " + op.Attr(trail.attr).String())
			}
			p.w(" : " + op.Operands[0].Type.String() + " -> " + op.Results[0].Type.String())
		},
		parse: func(ps *parser, op *Op, nres int) {
			op.Operands = ps.operands()
			for _, u := range units {
				if ps.tryWord(u) {
					op.SetAttr(u, UnitAttr{})
				}
			}
			ps.mergeAttrs(op)
			if trail != nil && ps.try(",") {
				ps.expectWord(trail.keyword)
				ps.expect("=")
				op.SetAttr(trail.attr, EnumAttr(ps.ident()))
			}
			ps.expect(":")
			if len(op.Operands) == 0 {
				ps.fail("%s needs an operand", op.Name)
			}
			ps.checkTypes(op.Operands[:1], []Type{ps.typ()})
			ps.expect("->")
			t := ps.typ()
			for range max(nres, 1) {
				op.addResults(t)
			}
		},
	}
}

// constantSyntax: attr-dict value, where the value carries its type (true, 1 : i32,
// 1.000000e+00 : f32, dense<0> : tensor<4xi32>).
var constantSyntax = syntax{
	print: func(p *printer, op *Op) {
		p.attrDict(op, "value")
		p.w(" " + op.Attr("value").String())
	},
	parse: func(ps *parser, op *Op, nres int) {
		ps.mergeAttrs(op)
		v := ps.attrValue()
		if b, ok := v.(BoolAttr); ok {
			v = IntAttr{boolInt(bool(b)), I1}
		}
		t := attrType(v)
		if t == nil {
			ps.fail("arith.constant needs a typed value")
		}
		op.SetAttr("value", v)
		op.addResults(t)
	},
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// attrType returns the type of a constant's value attribute, or nil.
func attrType(a Attr) Type {
	switch a := a.(type) {
	case IntAttr:
		return a.T
	case FloatAttr:
		return a.T
	case DenseAttr:
		return a.T
	}
	return nil
}

// constantHints names constants as MLIR does: %true, %false, %c42_i32, %cst.
func constantHints(op *Op) []string {
	if a, ok := op.Attr("value").(IntAttr); ok {
		if a.T == I1 {
			return []string{strconv.FormatBool(a.V != 0)}
		}
		return []string{"c" + strconv.FormatInt(a.V, 10) + "_" + a.T.String()}
	}
	return []string{"cst"}
}

// selectSyntax: %c, %a, %b : [cond type,] type.
var selectSyntax = syntax{
	print: func(p *printer, op *Op) {
		p.w(" ")
		p.vals(op.Operands)
		p.attrDict(op)
		p.w(" : ")
		if _, ok := op.Operands[0].Type.(*TensorType); ok {
			p.w(op.Operands[0].Type.String() + ", ")
		}
		p.w(op.Results[0].Type.String())
	},
	parse: func(ps *parser, op *Op, nres int) {
		op.Operands = ps.operands()
		ps.mergeAttrs(op)
		ps.expect(":")
		t := ps.typ()
		if ps.try(",") {
			t = ps.typ()
		}
		op.addResults(t)
	},
}

// mem: tt.load / tt.store. operands oilist(cacheModifier = c | evictionPolicy = e)
// attr-dict : type(ptr); a load's result is the pointee type.
func mem(load bool) syntax {
	return syntax{
		print: func(p *printer, op *Op) {
			p.w(" ")
			p.vals(op.Operands)
			p.cacheEvict(op)
			p.attrDict(op, "cache", "evict")
			p.w(" : " + op.Operands[0].Type.String())
		},
		parse: func(ps *parser, op *Op, nres int) {
			op.Operands = ps.operands()
			ps.cacheEvict(op)
			ps.mergeAttrs(op)
			ps.expect(":")
			t := ps.typ()
			if len(op.Operands) == 0 {
				ps.fail("%s needs a pointer", op.Name)
			}
			ps.checkTypes(op.Operands[:1], []Type{t})
			if load {
				op.addResults(pointeeType(t))
			}
		},
	}
}

func (p *printer) cacheEvict(op *Op) {
	if c := op.Attr("cache"); c != nil {
		p.w(" cacheModifier = " + c.String())
	}
	if e := op.Attr("evict"); e != nil {
		p.w(" evictionPolicy = " + e.String())
	}
}

func (ps *parser) cacheEvict(op *Op) {
	for {
		switch {
		case ps.tryWord("cacheModifier"):
			ps.expect("=")
			op.SetAttr("cache", EnumAttr(ps.ident()))
		case ps.tryWord("evictionPolicy"):
			ps.expect("=")
			op.SetAttr("evict", EnumAttr(ps.ident()))
		default:
			return
		}
	}
}

// pointeeType is what loading through t gives: the pointee of a pointer (a tensor for a
// block pointer), or a tensor of pointees for a tensor of pointers.
func pointeeType(t Type) Type {
	switch t := t.(type) {
	case *PtrType:
		return t.elem
	case *TensorType:
		if p, ok := t.elem.(*PtrType); ok {
			return Tensor(t.shape, p.elem)
		}
	}
	return t
}

// descLoadSyntax: %desc[%i, ...] oilist(...) attr-dict : desc type -> result.
var descLoadSyntax = syntax{
	print: func(p *printer, op *Op) {
		p.w(" " + p.name(op.Operands[0]) + "[")
		p.vals(op.Operands[1:])
		p.w("]")
		p.cacheEvict(op)
		p.attrDict(op, "cache", "evict")
		p.w(" : " + op.Operands[0].Type.String() + " -> " + op.Results[0].Type.String())
	},
	parse: func(ps *parser, op *Op, nres int) {
		op.Operands = []*Value{ps.operand()}
		ps.expect("[")
		op.Operands = append(op.Operands, ps.operands()...)
		ps.expect("]")
		ps.cacheEvict(op)
		ps.mergeAttrs(op)
		ps.expect(":")
		ps.checkTypes(op.Operands[:1], []Type{ps.typ()})
		ps.expect("->")
		op.addResults(ps.typ())
	},
}

// descStoreSyntax: %desc[%i, ...], %src attr-dict : desc type, src type. Operands are
// desc, src, indices.
var descStoreSyntax = syntax{
	print: func(p *printer, op *Op) {
		p.w(" " + p.name(op.Operands[0]) + "[")
		p.vals(op.Operands[2:])
		p.w("], " + p.name(op.Operands[1]))
		p.attrDict(op)
		p.w(" : " + op.Operands[0].Type.String() + ", " + op.Operands[1].Type.String())
	},
	parse: func(ps *parser, op *Op, nres int) {
		desc := ps.operand()
		ps.expect("[")
		idx := ps.operands()
		ps.expect("]")
		ps.expect(",")
		op.Operands = append([]*Value{desc, ps.operand()}, idx...)
		ps.mergeAttrs(op)
		ps.expect(":")
		ps.checkTypes(op.Operands[:2], ps.typeList())
	},
}

// functionalTail parses the end of a functional-form op, attr-dict : (operand types) ->
// result types: it checks the operand types and adds the results.
func (ps *parser) functionalTail(op *Op) {
	ps.mergeAttrs(op)
	ps.expect(":")
	in, out := ps.functionalType()
	ps.checkTypes(op.Operands, in)
	op.addResults(out...)
}

// functional: [lead enums,] operands attr-dict : (operand types) -> result types.
func functional(lead ...string) syntax {
	return syntax{
		print: func(p *printer, op *Op) {
			p.leadAndOperands(op, lead)
			p.attrDict(op, lead...)
			p.w(" : " + functionalType(valueTypes(op.Operands), valueTypes(op.Results)))
		},
		parse: func(ps *parser, op *Op, nres int) {
			ps.leadAndOperands(op, lead)
			ps.functionalTail(op)
		},
	}
}

// callSyntax: @callee(operands) attr-dict : (types) -> results.
var callSyntax = syntax{
	print: func(p *printer, op *Op) {
		p.w(" " + op.Attr("callee").String() + "(")
		p.vals(op.Operands)
		p.w(")")
		p.attrDict(op, "callee")
		p.w(" : " + functionalType(valueTypes(op.Operands), valueTypes(op.Results)))
	},
	parse: func(ps *parser, op *Op, nres int) {
		ps.expect("@")
		op.SetAttr("callee", SymbolRefAttr(ps.ident()))
		ps.expect("(")
		op.Operands = ps.operands()
		ps.expect(")")
		ps.functionalTail(op)
	},
}

// dotSyntax: %a, %b, %c[, inputPrecision = p] attr-dict : A * B -> D.
var dotSyntax = syntax{
	print: func(p *printer, op *Op) {
		p.w(" ")
		p.vals(op.Operands)
		if ip := op.Attr("inputPrecision"); ip != nil {
			p.w(", inputPrecision = " + ip.String())
		}
		p.attrDict(op, "inputPrecision")
		p.w(" : " + op.Operands[0].Type.String() + " * " + op.Operands[1].Type.String() + " -> " + op.Results[0].Type.String())
	},
	parse: func(ps *parser, op *Op, nres int) {
		op.Operands = ps.operands()
		if ps.try(",") {
			ps.expectWord("inputPrecision")
			ps.expect("=")
			op.SetAttr("inputPrecision", EnumAttr(ps.ident()))
		}
		ps.mergeAttrs(op)
		ps.expect(":")
		a := ps.typ()
		ps.expect("*")
		b := ps.typ()
		if len(op.Operands) != 3 {
			ps.fail("tt.dot needs three operands")
		}
		ps.checkTypes(op.Operands[:2], []Type{a, b})
		ps.expect("->")
		op.addResults(ps.typ())
	},
}

// stripped prints a dialect type without its "!tt.ptr" / "!tt.tensordesc" prefix, as ODS
// prints a type whose class the op's format already knows.
func stripped(t Type) string {
	s := t.String()
	return s[strings.IndexByte(s, '<'):]
}

// bracketed: %base, [group], [group]... attr-dict : types, for make_tensor_ptr (3 groups),
// advance (1) and make_tensor_descriptor (2, which also prints the base type). Each group
// holds the same number of operands.
func bracketed(groups int, descriptor bool) syntax {
	return syntax{
		print: func(p *printer, op *Op) {
			p.w(" " + p.name(op.Operands[0]))
			n := (len(op.Operands) - 1) / groups
			for g := range groups {
				p.w(", [")
				p.vals(op.Operands[1+g*n : 1+(g+1)*n])
				p.w("]")
			}
			p.attrDict(op)
			p.w(" : ")
			if descriptor {
				p.w(stripped(op.Operands[0].Type) + ", ")
			}
			p.w(stripped(op.Results[0].Type))
		},
		parse: func(ps *parser, op *Op, nres int) {
			op.Operands = []*Value{ps.operand()}
			for range groups {
				ps.expect(",")
				ps.expect("[")
				op.Operands = append(op.Operands, ps.operands()...)
				ps.expect("]")
			}
			ps.mergeAttrs(op)
			ps.expect(":")
			if descriptor {
				ps.checkTypes(op.Operands[:1], []Type{ps.strippedType(false)})
				ps.expect(",")
			}
			op.addResults(ps.strippedType(descriptor))
		},
	}
}

// strippedType parses a pointer (or, with desc, a descriptor) type with or without prefix.
func (ps *parser) strippedType(desc bool) Type {
	if ps.peek() != '<' {
		return ps.typ()
	}
	if desc {
		return ps.descBody()
	}
	return ps.ptrBody()
}

// printOpSyntax: "prefix" attr-dict (: operands : types)?
var printOpSyntax = syntax{
	print: func(p *printer, op *Op) {
		p.w(" " + op.Attr("prefix").String())
		p.attrDict(op, "prefix")
		if len(op.Operands) > 0 {
			p.w(" : ")
			p.vals(op.Operands)
			p.w(" : " + typeList(valueTypes(op.Operands)))
		}
	},
	parse: func(ps *parser, op *Op, nres int) {
		op.SetAttr("prefix", StringAttr(ps.str()))
		ps.mergeAttrs(op)
		if ps.try(":") {
			op.Operands = ps.operands()
			ps.expect(":")
			ps.checkTypes(op.Operands, ps.typeList())
		}
	},
}

// inlineAsmSyntax: "asm" attr-dict (operands : types)? -> result types.
var inlineAsmSyntax = syntax{
	print: func(p *printer, op *Op) {
		p.w(" " + op.Attr("asm_string").String())
		p.attrDict(op, "asm_string")
		if len(op.Operands) > 0 {
			p.w(" ")
			p.vals(op.Operands)
			p.w(" : " + typeList(valueTypes(op.Operands)))
		}
		p.w(" -> " + typeList(valueTypes(op.Results)))
	},
	parse: func(ps *parser, op *Op, nres int) {
		op.SetAttr("asm_string", StringAttr(ps.str()))
		ps.mergeAttrs(op)
		op.Operands = ps.operands()
		if len(op.Operands) > 0 {
			ps.expect(":")
			ps.checkTypes(op.Operands, ps.typeList())
		}
		ps.expect("->")
		op.addResults(ps.typeList()...)
	},
}

// genericSyntax is MLIR's generic form, "name"(operands) <{props}> ({regions}) attr-dict
// : (types) -> results. tt.reduce and tt.scan print this way, and so does any op outside the
// catalogue. The printer writes the quoted name before it.
var genericSyntax = syntax{printGeneric, parseGeneric}

func printGeneric(p *printer, op *Op) {
	props := op.props
	if d := op.Def(); d != nil {
		props = d.props
	}
	p.w("(")
	p.vals(op.Operands)
	p.w(")")
	var inherent []NamedAttr
	for _, a := range op.Attrs {
		if slices.Contains(props, a.Name) {
			inherent = append(inherent, a)
		}
	}
	if len(inherent) > 0 {
		p.w(" <" + dictString(inherent) + ">")
	}
	if len(op.Regions) > 0 {
		p.w(" (")
		for i, r := range op.Regions {
			if i > 0 {
				p.w(", ")
			}
			p.region(r, true, true)
		}
		p.w(")")
	}
	p.attrDict(op, props...)
	p.w(" : " + functionalType(valueTypes(op.Operands), valueTypes(op.Results)))
}

func parseGeneric(ps *parser, op *Op, nres int) {
	ps.expect("(")
	op.Operands = ps.operands()
	ps.expect(")")
	if ps.try("<") {
		for _, a := range ps.attrDict() {
			op.SetAttr(a.Name, a.Value)
			op.props = append(op.props, a.Name)
		}
		ps.expect(">")
	}
	if opDefs[op.Name] != nil {
		op.props = nil
	}
	if ps.try("(") {
		for {
			op.Regions = append(op.Regions, ps.region(op, nil, nil, ""))
			if !ps.try(",") {
				break
			}
		}
		ps.expect(")")
	}
	ps.functionalTail(op)
}

// initBindings parses "%name = %init, ...)" after the "(": the region arguments of scf.for
// and scf.while with their initial values. It appends the inits to op's operands and
// returns the names.
func (ps *parser) initBindings(op *Op) []string {
	var names []string
	for i := 0; !ps.try(")"); i++ {
		if i > 0 {
			ps.expect(",")
		}
		names = append(names, ps.valueName())
		ps.expect("=")
		op.Operands = append(op.Operands, ps.operand())
	}
	return names
}

// forSyntax: %iv = %lb to %ub step %s [iter_args(%a = %init, ...) -> (types)] : T {body}.
var forSyntax = syntax{
	print: func(p *printer, op *Op) {
		body := op.Regions[0].Entry()
		p.w(" " + p.name(body.Args[0]) + " = " + p.name(op.Operands[0]) + " to " + p.name(op.Operands[1]) +
			" step " + p.name(op.Operands[2]))
		inits := op.Operands[3:]
		if len(inits) > 0 {
			p.w(" iter_args(")
			for i, v := range inits {
				if i > 0 {
					p.w(", ")
				}
				p.w(p.name(body.Args[i+1]) + " = " + p.name(v))
			}
			p.w(") -> (" + typeList(valueTypes(op.Results)) + ")")
		}
		p.w("  : " + body.Args[0].Type.String() + " ")
		p.region(op.Regions[0], false, len(inits) > 0)
		p.attrDict(op)
	},
	parse: func(ps *parser, op *Op, nres int) {
		names := []string{ps.valueName()}
		ps.expect("=")
		lb := ps.operand()
		ps.expectWord("to")
		ub := ps.operand()
		ps.expectWord("step")
		op.Operands = []*Value{lb, ub, ps.operand()}
		var types []Type
		if ps.tryWord("iter_args") {
			ps.expect("(")
			names = append(names, ps.initBindings(op)...)
			ps.expect("->")
			types = ps.parenTypes()
			ps.checkTypes(op.Operands[3:], types)
		}
		ps.expect(":")
		iv := ps.typ()
		op.Regions = []*Region{ps.region(op, names, append([]Type{iv}, types...), "scf.yield")}
		ps.mergeAttrs(op)
		op.addResults(types...)
	},
}

// ifSyntax: %cond [-> (types)] {then} [else {else}] attr-dict.
var ifSyntax = syntax{
	print: func(p *printer, op *Op) {
		p.w(" " + p.name(op.Operands[0]))
		hasResults := len(op.Results) > 0
		if hasResults {
			p.w(" -> (" + typeList(valueTypes(op.Results)) + ")")
		}
		p.w(" ")
		p.region(op.Regions[0], false, hasResults)
		if len(op.Regions[1].Blocks) > 0 {
			p.w(" else ")
			p.region(op.Regions[1], false, hasResults)
		}
		p.attrDict(op)
	},
	parse: func(ps *parser, op *Op, nres int) {
		op.Operands = []*Value{ps.operand()}
		var types []Type
		if ps.try("->") {
			types = ps.parenTypes()
		}
		op.Regions = []*Region{ps.region(op, nil, nil, "scf.yield"), {op: op}}
		if ps.tryWord("else") {
			op.Regions[1] = ps.region(op, nil, nil, "scf.yield")
		}
		ps.mergeAttrs(op)
		op.addResults(types...)
	},
}

// whileSyntax: [(%a = %init, ...)] : (types) -> (types) {before} do {^bb0(...): after}
// [attributes {...}].
var whileSyntax = syntax{
	print: func(p *printer, op *Op) {
		before := op.Regions[0].Entry()
		if len(op.Operands) > 0 {
			p.w(" (")
			for i, v := range op.Operands {
				if i > 0 {
					p.w(", ")
				}
				p.w(p.name(before.Args[i]) + " = " + p.name(v))
			}
			p.w(")")
		}
		p.w(" : " + functionalType(valueTypes(op.Operands), valueTypes(op.Results)) + " ")
		p.region(op.Regions[0], false, true)
		p.w(" do ")
		p.region(op.Regions[1], true, true)
		if len(op.Attrs) > 0 {
			p.w(" attributes " + dictString(op.Attrs))
		}
	},
	parse: func(ps *parser, op *Op, nres int) {
		var names []string
		if ps.try("(") {
			names = ps.initBindings(op)
		}
		ps.expect(":")
		in, out := ps.functionalType()
		ps.checkTypes(op.Operands, in)
		op.Regions = []*Region{ps.region(op, names, in, "")}
		ps.expectWord("do")
		op.Regions = append(op.Regions, ps.region(op, nil, nil, ""))
		if ps.tryWord("attributes") {
			op.Attrs = ps.attrDict()
		}
		op.addResults(out...)
	},
}

// conditionSyntax: (%cond) attr-dict [%args : types].
var conditionSyntax = syntax{
	print: func(p *printer, op *Op) {
		p.w("(" + p.name(op.Operands[0]) + ")")
		p.attrDict(op)
		if len(op.Operands) > 1 {
			p.w(" ")
			p.vals(op.Operands[1:])
			p.w(" : " + typeList(valueTypes(op.Operands[1:])))
		}
	},
	parse: func(ps *parser, op *Op, nres int) {
		ps.expect("(")
		op.Operands = []*Value{ps.operand()}
		ps.expect(")")
		ps.mergeAttrs(op)
		if rest := ps.operands(); len(rest) > 0 {
			ps.expect(":")
			ps.checkTypes(rest, ps.typeList())
			op.Operands = append(op.Operands, rest...)
		}
	},
}

// gatherSyntax: %src[%indices] attr-dict : (types) -> result.
var gatherSyntax = syntax{
	print: func(p *printer, op *Op) {
		p.w(" ")
		p.vals(op.Operands[:1])
		p.w("[")
		p.vals(op.Operands[1:])
		p.w("]")
		p.attrDict(op)
		p.w(" : " + functionalType(valueTypes(op.Operands), valueTypes(op.Results)))
	},
	parse: func(ps *parser, op *Op, nres int) {
		op.Operands = []*Value{ps.operand()}
		ps.expect("[")
		op.Operands = append(op.Operands, ps.operand())
		ps.expect("]")
		ps.functionalTail(op)
	},
}

// unsplatSyntax: %src attr-dict : type(src); the result is the element type.
var unsplatSyntax = syntax{
	print: func(p *printer, op *Op) {
		p.w(" ")
		p.vals(op.Operands)
		p.attrDict(op)
		p.w(" : " + op.Operands[0].Type.String())
	},
	parse: func(ps *parser, op *Op, nres int) {
		op.Operands = []*Value{ps.operand()}
		ps.mergeAttrs(op)
		ps.expect(":")
		t := ps.typ()
		ps.checkTypes(op.Operands, []Type{t})
		op.addResults(ElemType(t))
	},
}
