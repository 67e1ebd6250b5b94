package frontend

import "github.com/gotriton/gotriton/ast"

// patterns parses a case pattern: an open sequence (a, b) or one pattern.
func (p *parser) patterns() ast.Pattern {
	start := p.pos
	pat := p.maybeStarPattern()
	if !p.isOp(opComma) {
		if _, ok := pat.(*ast.MatchStar); ok {
			p.syntaxError()
		}
		return pat
	}
	pats := []ast.Pattern{pat}
	for p.eatOp(opComma) && !p.isOp(opColon) && !p.isKw(kwIf) {
		pats = append(pats, p.maybeStarPattern())
	}
	return &ast.MatchSequence{Patterns: pats, Pos: p.posFrom(start)}
}

func (p *parser) maybeStarPattern() ast.Pattern {
	if !p.isOp(opStar) {
		return p.pattern()
	}
	start := p.pos
	p.next()
	name := p.expectName()
	if name == "_" {
		name = ""
	}
	return &ast.MatchStar{Name: name, Pos: p.posFrom(start)}
}

// pattern: or_pattern ['as' NAME].
func (p *parser) pattern() ast.Pattern {
	start := p.pos
	pat := p.orPattern()
	if !p.isKw(kwAs) {
		return pat
	}
	p.next()
	t := p.peek()
	name := p.expectName()
	if name == "_" {
		p.errorTok(t, "cannot use '_' as a target")
	}
	return &ast.MatchAs{Pattern: pat, Name: name, Pos: p.posFrom(start)}
}

func (p *parser) orPattern() ast.Pattern {
	start := p.pos
	pat := p.closedPattern()
	if !p.isOp(opVbar) {
		return pat
	}
	pats := []ast.Pattern{pat}
	for p.eatOp(opVbar) {
		pats = append(pats, p.closedPattern())
	}
	return &ast.MatchOr{Patterns: pats, Pos: p.posFrom(start)}
}

func (p *parser) closedPattern() ast.Pattern {
	p.enter()
	defer p.leave()
	start := p.pos
	t := p.peek()
	switch t.kind {
	case tkNumber, tkString, tkFStart:
		v := p.literalExpr()
		return &ast.MatchValue{Value: v, Pos: v.Position()}
	case tkName:
		switch t.op {
		case kwNone, kwTrue, kwFalse:
			p.next()
			var v any
			if t.op != kwNone {
				v = t.op == kwTrue
			}
			return &ast.MatchSingleton{Value: v, Pos: p.posFrom(start)}
		case opNone:
			return p.namePattern()
		}
	case tkOp:
		switch t.op {
		case opMinus:
			v := p.literalExpr()
			return &ast.MatchValue{Value: v, Pos: v.Position()}
		case opLpar:
			p.next()
			if p.eatOp(opRpar) {
				return &ast.MatchSequence{Pos: p.posFrom(start)}
			}
			pat := p.maybeStarPattern()
			if p.isOp(opComma) {
				pats := []ast.Pattern{pat}
				for p.eatOp(opComma) && !p.isOp(opRpar) {
					pats = append(pats, p.maybeStarPattern())
				}
				p.expectOp(opRpar)
				return &ast.MatchSequence{Patterns: pats, Pos: p.posFrom(start)}
			}
			p.expectOp(opRpar)
			if _, ok := pat.(*ast.MatchStar); ok {
				p.syntaxError()
			}
			return pat
		case opLsqb:
			p.next()
			var pats []ast.Pattern
			for !p.isOp(opRsqb) {
				pats = append(pats, p.maybeStarPattern())
				if !p.eatOp(opComma) {
					break
				}
			}
			p.expectOp(opRsqb)
			return &ast.MatchSequence{Patterns: pats, Pos: p.posFrom(start)}
		case opLbrace:
			return p.mappingPattern()
		}
	}
	p.syntaxError()
	return nil
}

// literalExpr parses a literal of a value pattern or mapping key: a signed number, a
// complex number (real +/- imaginary), or strings.
func (p *parser) literalExpr() ast.Expr {
	start := p.pos
	t := p.peek()
	if t.kind == tkString || t.kind == tkFStart {
		e := p.strings()
		if _, ok := e.(*ast.JoinedStr); ok {
			p.errorNode(e, "patterns may only match literals and attribute lookups")
		}
		return e
	}
	var e ast.Expr
	if p.eatOp(opMinus) {
		n := p.peek()
		if n.kind != tkNumber {
			p.syntaxError()
		}
		p.next()
		c := &ast.Constant{Value: p.number(n), Pos: p.posFrom(start + 1)}
		e = &ast.UnaryOp{Op: ast.USub, Operand: c, Pos: p.posFrom(start)}
	} else {
		if t.kind != tkNumber {
			p.syntaxError()
		}
		p.next()
		e = &ast.Constant{Value: p.number(t), Pos: p.posFrom(start)}
	}
	if o := p.peek(); o.kind == tkOp && (o.op == opPlus || o.op == opMinus) {
		p.next()
		it := p.peek()
		if it.kind != tkNumber {
			p.syntaxError()
		}
		is := p.pos
		p.next()
		v := p.number(it)
		if _, ok := v.(complex128); !ok {
			p.errorAt(int(it.line), int(it.col), "imaginary number required in complex literal")
		}
		r := &ast.Constant{Value: v, Pos: p.posFrom(is)}
		bo := ast.Add
		if o.op == opMinus {
			bo = ast.Sub
		}
		e = &ast.BinOp{Left: e, Op: bo, Right: r, Pos: p.posFrom(start)}
	}
	return e
}

// dottedExpr parses NAME ('.' NAME)* as a Name or Attribute chain.
func (p *parser) dottedExpr() ast.Expr {
	start := p.pos
	var e ast.Expr = &ast.Name{ID: p.expectName()}
	e.(*ast.Name).Pos = p.posFrom(start)
	for p.eatOp(opDot) {
		attr := p.expectName()
		e = &ast.Attribute{Value: e, Attr: attr, Pos: p.posFrom(start)}
	}
	return e
}

// namePattern parses capture, wildcard, value and class patterns.
func (p *parser) namePattern() ast.Pattern {
	start := p.pos
	e := p.dottedExpr()
	if p.isOp(opLpar) {
		return p.classPattern(start, e)
	}
	if n, ok := e.(*ast.Name); ok {
		if n.ID == "_" {
			return &ast.MatchAs{Pos: n.Pos}
		}
		if p.isOp(opEqual) {
			p.syntaxError()
		}
		return &ast.MatchAs{Name: n.ID, Pos: n.Pos}
	}
	return &ast.MatchValue{Value: e, Pos: p.posFrom(start)}
}

func (p *parser) classPattern(start int, cls ast.Expr) ast.Pattern {
	p.next() // (
	m := &ast.MatchClass{Cls: cls}
	for !p.isOp(opRpar) {
		t := p.peek()
		if isIdent(t) && p.peekAt(1).kind == tkOp && p.peekAt(1).op == opEqual {
			p.next()
			p.next()
			m.KwdAttrs = append(m.KwdAttrs, p.text(t))
			m.KwdPatterns = append(m.KwdPatterns, p.pattern())
		} else {
			pat := p.pattern()
			if len(m.KwdAttrs) > 0 {
				p.errorNode(pat, "positional patterns follow keyword patterns")
			}
			m.Patterns = append(m.Patterns, pat)
		}
		if !p.eatOp(opComma) {
			break
		}
	}
	p.expectOp(opRpar)
	m.Pos = p.posFrom(start)
	return m
}

func (p *parser) mappingPattern() ast.Pattern {
	start := p.pos
	p.next() // {
	m := &ast.MatchMapping{}
	for !p.isOp(opRbrace) {
		if p.eatOp(opDoubleStar) {
			m.Rest = p.expectName()
			p.eatOp(opComma)
			break
		}
		var key ast.Expr
		switch t := p.peek(); {
		case t.kind == tkName && (t.op == kwNone || t.op == kwTrue || t.op == kwFalse):
			key = p.atom()
		case isIdent(t):
			key = p.dottedExpr()
			if _, ok := key.(*ast.Name); ok {
				p.syntaxError()
			}
		default:
			key = p.literalExpr()
		}
		p.expectOp(opColon)
		m.Keys = append(m.Keys, key)
		m.Patterns = append(m.Patterns, p.pattern())
		if !p.eatOp(opComma) {
			break
		}
	}
	p.expectOp(opRbrace)
	m.Pos = p.posFrom(start)
	return m
}
