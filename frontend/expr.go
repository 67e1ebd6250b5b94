package frontend

import (
	"github.com/gotriton/gotriton/ast"
)

// starExpressions: star_expression (',' star_expression)* [','], a Tuple when there is a
// comma.
func (p *parser) starExpressions() ast.Expr {
	start := p.pos
	e := p.starExpression()
	if !p.isOp(opComma) {
		return e
	}
	elts := []ast.Expr{e}
	for p.eatOp(opComma) && startsExpr(p.peek()) {
		elts = append(elts, p.starExpression())
	}
	return &ast.Tuple{Elts: elts, Pos: p.posFrom(start)}
}

// startsExpr reports whether t can begin an expression.
func startsExpr(t *token) bool {
	switch t.kind {
	case tkName:
		switch t.op {
		case opNone, kwTrue, kwFalse, kwNone, kwNot, kwLambda, kwAwait, kwYield:
			return true
		}
	case tkNumber, tkString, tkFStart:
		return true
	case tkOp:
		switch t.op {
		case opLpar, opLsqb, opLbrace, opMinus, opPlus, opTilde, opStar, opEllipsis:
			return true
		}
	}
	return false
}

// starExpression: '*' bitwise_or | expression.
func (p *parser) starExpression() ast.Expr { return p.starredOr(p.expression) }

// starNamedExpression: '*' bitwise_or | named_expression.
func (p *parser) starNamedExpression() ast.Expr { return p.starredOr(p.namedExpression) }

// starredOr parses '*' bitwise_or, or else what plain parses.
func (p *parser) starredOr(plain func() ast.Expr) ast.Expr {
	if !p.isOp(opStar) {
		return plain()
	}
	start := p.pos
	p.next()
	v := p.bitwiseOr()
	return &ast.Starred{Value: v, Pos: p.posFrom(start)}
}

// namedExpression: NAME ':=' expression | expression !':='.
func (p *parser) namedExpression() ast.Expr {
	start := p.pos
	if t := p.peek(); isIdent(t) {
		if n := p.peekAt(1); n.kind == tkOp && n.op == opColonEq {
			p.next()
			target := &ast.Name{ID: p.text(t), Ctx: ast.Store, Pos: p.posFrom(start)}
			p.next()
			v := p.expression()
			return &ast.NamedExpr{Target: target, Value: v, Pos: p.posFrom(start)}
		}
	}
	e := p.expression()
	if p.isOp(opColonEq) {
		p.errorNode(e, "cannot use assignment expressions with %s", exprName(e))
	}
	return e
}

func (p *parser) expression() ast.Expr {
	if p.isKw(kwLambda) {
		return p.lambda()
	}
	start := p.pos
	e := p.disjunction()
	if !p.isKw(kwIf) {
		return e
	}
	p.next()
	test := p.disjunction()
	if !p.isKw(kwElse) {
		if !p.isOp(opColon) {
			p.errorNode(e, "expected 'else' after 'if' expression")
		}
		p.syntaxError()
	}
	p.next()
	orelse := p.expression()
	return &ast.IfExp{Test: test, Body: e, Orelse: orelse, Pos: p.posFrom(start)}
}

func (p *parser) yieldExpr() ast.Expr {
	start := p.pos
	p.next()
	if p.isKw(kwFrom) {
		p.next()
		v := p.expression()
		return &ast.YieldFrom{Value: v, Pos: p.posFrom(start)}
	}
	var v ast.Expr
	if startsExpr(p.peek()) {
		v = p.starExpressions()
	}
	return &ast.Yield{Value: v, Pos: p.posFrom(start)}
}

func (p *parser) lambda() ast.Expr {
	start := p.pos
	p.next()
	args := p.params(true, opColon)
	p.expectOp(opColon)
	body := p.expression()
	return &ast.Lambda{Args: args, Body: body, Pos: p.posFrom(start)}
}

func (p *parser) disjunction() ast.Expr { return p.boolOp(kwOr) }

// boolOp parses a chain of "or" (or "and") operands into one BoolOp.
func (p *parser) boolOp(kw op) ast.Expr {
	start := p.pos
	operand := func() ast.Expr {
		if kw == kwOr {
			return p.boolOp(kwAnd)
		}
		return p.inversion()
	}
	e := operand()
	if !p.isKw(kw) {
		return e
	}
	vals := []ast.Expr{e}
	for p.isKw(kw) {
		p.next()
		vals = append(vals, operand())
	}
	o := ast.Or
	if kw == kwAnd {
		o = ast.And
	}
	return &ast.BoolOp{Op: o, Values: vals, Pos: p.posFrom(start)}
}

func (p *parser) inversion() ast.Expr {
	if !p.isKw(kwNot) {
		return p.comparison()
	}
	start := p.pos
	p.next()
	p.enter()
	v := p.inversion()
	p.leave()
	return &ast.UnaryOp{Op: ast.Not, Operand: v, Pos: p.posFrom(start)}
}

// cmpOp returns the comparison operator of an operator token, if it is one.
func cmpOp(o op) (ast.CmpOp, bool) {
	switch o {
	case opEqEqual:
		return ast.Eq, true
	case opNotEqual:
		return ast.NotEq, true
	case opLess:
		return ast.Lt, true
	case opLessEqual:
		return ast.LtE, true
	case opGreater:
		return ast.Gt, true
	case opGreaterEqual:
		return ast.GtE, true
	}
	return 0, false
}

func (p *parser) comparison() ast.Expr {
	start := p.pos
	e := p.bitwiseOr()
	var ops []ast.CmpOp
	var cmps []ast.Expr
	for {
		t := p.peek()
		var o ast.CmpOp
		switch {
		case t.kind == tkOp:
			c, ok := cmpOp(t.op)
			if !ok {
				goto done
			}
			o = c
			p.next()
		case t.kind == tkName && t.op == kwIn:
			o = ast.In
			p.next()
		case t.kind == tkName && t.op == kwNot && p.peekAt(1).op == kwIn:
			o = ast.NotIn
			p.next()
			p.next()
		case t.kind == tkName && t.op == kwIs:
			o = ast.Is
			p.next()
			if p.isKw(kwNot) {
				o = ast.IsNot
				p.next()
			}
		default:
			goto done
		}
		ops = append(ops, o)
		cmps = append(cmps, p.bitwiseOr())
	}
done:
	if ops == nil {
		return e
	}
	return &ast.Compare{Left: e, Ops: ops, Comparators: cmps, Pos: p.posFrom(start)}
}

// binOp returns the precedence level (0 = '|', lowest) and operator of a binary operator
// token, or level -1.
func binOp(o op) (int, ast.Operator) {
	switch o {
	case opVbar:
		return 0, ast.BitOr
	case opCircumflex:
		return 1, ast.BitXor
	case opAmper:
		return 2, ast.BitAnd
	case opLeftShift:
		return 3, ast.LShift
	case opRightShift:
		return 3, ast.RShift
	case opPlus:
		return 4, ast.Add
	case opMinus:
		return 4, ast.Sub
	case opStar:
		return 5, ast.Mult
	case opSlash:
		return 5, ast.Div
	case opDoubleSlash:
		return 5, ast.FloorDiv
	case opPercent:
		return 5, ast.Mod
	case opAt:
		return 5, ast.MatMult
	}
	return -1, 0
}

func (p *parser) bitwiseOr() ast.Expr { return p.binary(0) }

// binary parses binary operations of precedence level minLevel and higher (precedence
// climbing); operators of one level associate to the left.
func (p *parser) binary(minLevel int) ast.Expr {
	start := p.pos
	left := p.factor()
	for {
		t := p.peek()
		if t.kind != tkOp {
			return left
		}
		l, o := binOp(t.op)
		if l < minLevel {
			return left
		}
		p.next()
		right := p.binary(l + 1)
		left = p.nodes.binOps.new(ast.BinOp{Left: left, Op: o, Right: right, Pos: p.posFrom(start)})
	}
}

// unaryOp returns the unary operator of an operator token, if it is one.
func unaryOp(o op) (ast.UnaryOperator, bool) {
	switch o {
	case opPlus:
		return ast.UAdd, true
	case opMinus:
		return ast.USub, true
	case opTilde:
		return ast.Invert, true
	}
	return 0, false
}

func (p *parser) factor() ast.Expr {
	t := p.peek()
	if t.kind == tkOp {
		if o, ok := unaryOp(t.op); ok {
			start := p.pos
			p.next()
			p.enter()
			v := p.factor()
			p.leave()
			return &ast.UnaryOp{Op: o, Operand: v, Pos: p.posFrom(start)}
		}
	}
	return p.power()
}

func (p *parser) power() ast.Expr {
	start := p.pos
	var e ast.Expr
	if p.isKw(kwAwait) {
		p.next()
		v := p.primary()
		e = &ast.Await{Value: v, Pos: p.posFrom(start)}
	} else {
		e = p.primary()
	}
	if !p.isOp(opDoubleStar) {
		return e
	}
	p.next()
	p.enter()
	r := p.factor()
	p.leave()
	return &ast.BinOp{Left: e, Op: ast.Pow, Right: r, Pos: p.posFrom(start)}
}

// primary parses an atom followed by attribute, call and subscript trailers.
func (p *parser) primary() ast.Expr {
	start := p.pos
	e := p.atom()
	for {
		t := p.peek()
		if t.kind != tkOp {
			return e
		}
		switch t.op {
		case opDot:
			p.next()
			name := p.expectName()
			e = p.nodes.attributes.new(ast.Attribute{Value: e, Attr: name, Pos: p.posFrom(start)})
		case opLpar:
			args, kws, gen := p.arguments()
			if gen != nil {
				args = []ast.Expr{gen}
			}
			e = p.nodes.calls.new(ast.Call{Func: e, Args: args, Keywords: kws, Pos: p.posFrom(start)})
		case opLsqb:
			p.next()
			s := p.slices()
			p.closeOrComma(opRsqb, -1)
			e = p.nodes.subscripts.new(ast.Subscript{Value: e, Slice: s, Pos: p.posFrom(start)})
		default:
			return e
		}
	}
}

// closeOrComma expects the closing bracket o; when something else follows an element
// that started at token elem (-1 when unknown), it reports CPython's "Perhaps you forgot
// a comma?" if the rest parses as an expression.
func (p *parser) closeOrComma(o op, elem int) {
	if p.eatOp(o) {
		return
	}
	if elem >= 0 && startsExpr(p.peek()) {
		first := &p.toks[elem]
		soft := p.isSoft(first, "match") || p.isSoft(first, "case") || p.isSoft(first, "type") || p.isSoft(first, "_")
		nameStr := isIdent(first) && (p.toks[elem+1].kind == tkString || p.toks[elem+1].kind == tkFStart)
		far := p.far
		if !soft && !nameStr && p.try(func() { p.expression() }) {
			p.errorAt(int(first.line), int(first.col), "invalid syntax. Perhaps you forgot a comma?")
		}
		p.far = far
	}
	p.syntaxError()
}

// slices parses the inside of a subscription.
func (p *parser) slices() ast.Expr {
	start := p.pos
	e := p.slice()
	if _, star := e.(*ast.Starred); !star && !p.isOp(opComma) {
		return e
	}
	base := len(p.args) // the elements grow on the argument stack
	p.args = append(p.args, e)
	for p.eatOp(opComma) && !p.isOp(opRsqb) {
		v := p.slice()
		p.args = append(p.args, v)
	}
	elts := p.exprList(p.args[base:])
	p.args = p.args[:base]
	return &ast.Tuple{Elts: elts, Pos: p.posFrom(start)}
}

func (p *parser) slice() ast.Expr {
	start := p.pos
	if p.isOp(opStar) {
		return p.starExpression()
	}
	var lower ast.Expr
	if !p.isOp(opColon) {
		lower = p.namedExpression()
		if !p.isOp(opColon) {
			return lower
		}
	}
	p.next()
	s := &ast.Slice{Lower: lower}
	if !p.isOp(opColon) && !p.isOp(opComma) && !p.isOp(opRsqb) {
		s.Upper = p.expression()
	}
	if p.eatOp(opColon) && !p.isOp(opComma) && !p.isOp(opRsqb) {
		s.Step = p.expression()
	}
	s.Pos = p.posFrom(start)
	return s
}

func (p *parser) atom() ast.Expr {
	t := p.peek()
	start := p.pos
	switch t.kind {
	case tkName:
		var v any
		switch t.op {
		case opNone:
			p.next()
			return p.nodes.names.new(ast.Name{ID: p.text(t), Pos: p.posFrom(start)})
		case kwTrue:
			v = true
		case kwFalse:
			v = false
		case kwNone:
		default:
			p.syntaxError()
		}
		p.next()
		return p.nodes.constants.new(ast.Constant{Value: v, Pos: p.posFrom(start)})
	case tkNumber:
		p.next()
		return p.nodes.constants.new(ast.Constant{Value: p.number(t), Pos: p.posFrom(start)})
	case tkString, tkFStart:
		return p.strings()
	case tkOp:
		switch t.op {
		case opLpar:
			return p.parenAtom()
		case opLsqb:
			return p.listAtom()
		case opLbrace:
			return p.braceAtom()
		case opEllipsis:
			p.next()
			return &ast.Constant{Value: ast.Ellipsis, Pos: p.posFrom(start)}
		}
	}
	p.syntaxError()
	return nil
}

func (p *parser) isFor() bool {
	t := p.peek()
	return t.kind == tkName && (t.op == kwFor || t.op == kwAsync && p.peekAt(1).op == kwFor)
}

func (p *parser) parenAtom() ast.Expr {
	start := p.pos
	p.next()
	p.enter()
	defer p.leave()
	if p.eatOp(opRpar) {
		return &ast.Tuple{Pos: p.posFrom(start)}
	}
	if p.isKw(kwYield) {
		e := p.yieldExpr()
		p.expectOp(opRpar)
		return e
	}
	elem := p.pos
	e := p.starNamedExpression()
	if p.isFor() {
		return &ast.GeneratorExp{Elt: e, Generators: p.comprehension(e, opRpar), Pos: p.posFrom(start)}
	}
	if p.isOp(opComma) {
		return &ast.Tuple{Elts: p.elements(e, elem, opRpar), Pos: p.posFrom(start)}
	}
	p.closeOrComma(opRpar, elem)
	if s, ok := e.(*ast.Starred); ok {
		p.errorNode(s, "cannot use starred expression here")
	}
	return e
}

func (p *parser) noStarInComprehension(e ast.Expr) {
	if s, ok := e.(*ast.Starred); ok {
		p.errorNode(s, "iterable unpacking cannot be used in comprehension")
	}
}

func (p *parser) listAtom() ast.Expr {
	start := p.pos
	p.next()
	p.enter()
	defer p.leave()
	if p.eatOp(opRsqb) {
		return &ast.List{Pos: p.posFrom(start)}
	}
	elem := p.pos
	e := p.starNamedExpression()
	if p.isFor() {
		return &ast.ListComp{Elt: e, Generators: p.comprehension(e, opRsqb), Pos: p.posFrom(start)}
	}
	return &ast.List{Elts: p.elements(e, elem, opRsqb), Pos: p.posFrom(start)}
}

func (p *parser) braceAtom() ast.Expr {
	start := p.pos
	p.next()
	p.enter()
	defer p.leave()
	if p.eatOp(opRbrace) {
		return &ast.Dict{Pos: p.posFrom(start)}
	}
	elem := p.pos
	if p.isOp(opDoubleStar) {
		return p.dictRest(start, nil, nil)
	}
	e := p.starNamedExpression()
	if p.isOp(opColon) {
		if _, ok := e.(*ast.Starred); ok {
			p.syntaxError()
		}
		p.next()
		v := p.expression()
		if p.isFor() {
			gens := p.forIfClauses()
			p.closeOrComma(opRbrace, -1)
			return &ast.DictComp{Key: e, Value: v, Generators: gens, Pos: p.posFrom(start)}
		}
		if !p.isOp(opComma) {
			p.closeOrComma(opRbrace, elem)
			return &ast.Dict{Keys: []ast.Expr{e}, Values: []ast.Expr{v}, Pos: p.posFrom(start)}
		}
		p.next()
		return p.dictRest(start, []ast.Expr{e}, []ast.Expr{v})
	}
	if p.isFor() {
		return &ast.SetComp{Elt: e, Generators: p.comprehension(e, opRbrace), Pos: p.posFrom(start)}
	}
	return &ast.Set{Elts: p.elements(e, elem, opRbrace), Pos: p.posFrom(start)}
}

// elements parses the rest of a tuple, list or set display whose first element e began at
// token first, through the closing bracket.
func (p *parser) elements(e ast.Expr, first int, closing op) []ast.Expr {
	base := len(p.args) // the elements grow on the argument stack
	p.args = append(p.args, e)
	last := first
	for p.eatOp(opComma) && !p.isOp(closing) {
		last = p.pos
		v := p.starNamedExpression()
		p.args = append(p.args, v)
	}
	elts := p.exprList(p.args[base:])
	p.args = p.args[:base]
	p.closeOrComma(closing, last)
	return elts
}

// comprehension parses the for and if clauses after the element e of a generator, list or
// set comprehension, through the closing bracket.
func (p *parser) comprehension(e ast.Expr, closing op) []*ast.Comprehension {
	p.noStarInComprehension(e)
	gens := p.forIfClauses()
	p.closeOrComma(closing, -1)
	return gens
}

// dictRest parses the remaining key: value and **mapping items of a dict display.
func (p *parser) dictRest(start int, keys, vals []ast.Expr) ast.Expr {
	elem := p.pos
	for !p.isOp(opRbrace) {
		elem = p.pos
		if p.eatOp(opDoubleStar) {
			keys = append(keys, nil)
			vals = append(vals, p.bitwiseOr())
			if p.isFor() {
				p.errorTok(&p.toks[elem], "dict unpacking cannot be used in dict comprehension")
			}
		} else {
			k := p.expression()
			p.expectOp(opColon)
			keys = append(keys, k)
			vals = append(vals, p.expression())
		}
		if !p.eatOp(opComma) {
			break
		}
	}
	p.closeOrComma(opRbrace, elem)
	return &ast.Dict{Keys: keys, Values: vals, Pos: p.posFrom(start)}
}

func (p *parser) forIfClauses() []*ast.Comprehension {
	var gens []*ast.Comprehension
	for p.isFor() {
		c := &ast.Comprehension{}
		if p.isKw(kwAsync) {
			p.next()
			c.IsAsync = 1
		}
		p.next()
		c.Target = p.starTargets()
		if !p.isKw(kwIn) {
			p.syntaxError()
		}
		p.next()
		c.Iter = p.disjunction()
		for p.isKw(kwIf) {
			p.next()
			c.Ifs = append(c.Ifs, p.disjunction())
		}
		gens = append(gens, c)
	}
	return gens
}

// starTargets parses assignment targets (for loops, comprehensions): a Tuple on commas.
func (p *parser) starTargets() ast.Expr {
	start := p.pos
	e := p.starTarget()
	if !p.isOp(opComma) {
		return e
	}
	elts := []ast.Expr{e}
	for p.eatOp(opComma) {
		if t := p.peek(); !(isIdent(t) || t.kind == tkOp && (t.op == opLpar || t.op == opLsqb || t.op == opStar)) {
			break
		}
		elts = append(elts, p.starTarget())
	}
	return &ast.Tuple{Elts: elts, Ctx: ast.Store, Pos: p.posFrom(start)}
}

func (p *parser) starTarget() ast.Expr {
	start := p.pos
	if p.eatOp(opStar) {
		if p.isOp(opStar) {
			p.syntaxError()
		}
		v := p.starTarget()
		return &ast.Starred{Value: v, Ctx: ast.Store, Pos: p.posFrom(start)}
	}
	e := p.primary()
	p.setCtx(e, ast.Store)
	return e
}

// arguments parses a call's parenthesized arguments. gen is set when the only argument
// is an unparenthesized generator expression (its range then includes the parentheses).
func (p *parser) arguments() (args []ast.Expr, kws []*ast.Keyword, gen ast.Expr) {
	open := p.pos
	p.next()
	p.enter()
	defer p.leave()
	argBase, kwBase := len(p.args), len(p.kws)
	defer func() { p.args, p.kws = p.args[:argBase], p.kws[:kwBase] }()
	var sawKw, sawDoubleStar bool
	elem := -1
	for !p.isOp(opRpar) {
		elem = p.pos
		t := p.peek()
		switch {
		case t.kind == tkOp && t.op == opStar:
			p.next()
			v := p.expression()
			s := &ast.Starred{Value: v, Pos: p.posFrom(elem)}
			if sawDoubleStar {
				p.errorNode(s, "iterable argument unpacking follows keyword argument unpacking")
			}
			p.args = append(p.args, s)
		case t.kind == tkOp && t.op == opDoubleStar:
			p.next()
			v := p.expression()
			p.kws = append(p.kws, &ast.Keyword{Value: v, Pos: p.posFrom(elem)})
			sawDoubleStar = true
		case isIdent(t) && p.peekAt(1).kind == tkOp && p.peekAt(1).op == opEqual:
			p.next()
			p.next()
			v := p.expression()
			p.kws = append(p.kws, p.nodes.keywords.new(ast.Keyword{Arg: p.text(t), Value: v, Pos: p.posFrom(elem)}))
			sawKw = true
		default:
			e := p.namedExpression()
			if p.isFor() {
				p.noStarInComprehension(e)
				gens := p.forIfClauses()
				if len(p.args) > argBase || len(p.kws) > kwBase || !p.isOp(opRpar) {
					p.errorNode(e, "Generator expression must be parenthesized")
				}
				p.next()
				return nil, nil, &ast.GeneratorExp{Elt: e, Generators: gens, Pos: p.posFrom(open)}
			}
			if p.isOp(opEqual) {
				p.errorNode(e, "expression cannot contain assignment, perhaps you meant \"==\"?")
			}
			// CPython reports these at the last token it read.
			if sawDoubleStar {
				p.errorTok(p.peek(), "positional argument follows keyword argument unpacking")
			}
			if sawKw {
				p.errorTok(p.peek(), "positional argument follows keyword argument")
			}
			p.args = append(p.args, e)
		}
		if !p.eatOp(opComma) {
			break
		}
		elem = -1
	}
	p.closeOrComma(opRpar, elem)
	if len(p.kws) > kwBase {
		kws = append(make([]*ast.Keyword, 0, len(p.kws)-kwBase), p.kws[kwBase:]...)
	}
	return p.exprList(p.args[argBase:]), kws, nil
}

// params parses a def's (lambda's, when lambda is set) parameter list up to closer.
func (p *parser) params(lambda bool, closer op) *ast.Arguments {
	a := &ast.Arguments{}
	const (
		positional = iota
		keywordOnly
		afterKwarg
	)
	state := positional
	sawSlash, sawDefault, bareStar := false, false, false
	for !p.isOp(closer) {
		t := p.peek()
		if state == afterKwarg {
			p.errorTok(t, "arguments cannot follow var-keyword argument")
		}
		switch {
		case t.kind == tkOp && t.op == opSlash:
			switch {
			case sawSlash:
				p.errorTok(t, "/ may appear only once")
			case state == keywordOnly:
				p.errorTok(t, "/ must be ahead of *")
			case len(a.Args) == 0:
				p.errorTok(t, "at least one argument must precede /")
			}
			p.next()
			a.Posonlyargs, a.Args = a.Args, nil
			sawSlash = true
		case t.kind == tkOp && t.op == opStar:
			if state == keywordOnly {
				p.errorTok(t, "* argument may appear only once")
			}
			p.next()
			state = keywordOnly
			if p.isOp(opComma) || p.isOp(closer) {
				bareStar = true
				if p.isOp(closer) {
					p.errorTok(t, "named arguments must follow bare *")
				}
			} else {
				a.Vararg = p.param(lambda, true)
				if p.isOp(opEqual) {
					p.errorTok(p.peek(), "var-positional argument cannot have default value")
				}
			}
		case t.kind == tkOp && t.op == opDoubleStar:
			p.next()
			a.Kwarg = p.param(lambda, false)
			if p.isOp(opEqual) {
				p.errorTok(p.peek(), "var-keyword argument cannot have default value")
			}
			state = afterKwarg
		default:
			arg := p.param(lambda, false)
			var def ast.Expr
			if p.eatOp(opEqual) {
				def = p.expression()
			}
			if state == keywordOnly {
				a.Kwonlyargs = append(a.Kwonlyargs, arg)
				a.KwDefaults = append(a.KwDefaults, def)
				break
			}
			if def != nil {
				a.Defaults = append(a.Defaults, def)
				sawDefault = true
			} else if sawDefault {
				p.errorNode(arg, "parameter without a default follows parameter with a default")
			}
			a.Args = append(a.Args, arg)
		}
		if !p.eatOp(opComma) {
			break
		}
	}
	if bareStar && len(a.Kwonlyargs) == 0 {
		p.errorTok(p.peek(), "named arguments must follow bare *")
	}
	return a
}

func (p *parser) param(lambda, star bool) *ast.Arg {
	start := p.pos
	a := &ast.Arg{Arg: p.expectName()}
	if !lambda && p.eatOp(opColon) {
		if star {
			a.Annotation = p.starExpression()
		} else {
			a.Annotation = p.expression()
		}
	}
	a.Pos = p.posFrom(start)
	return a
}
