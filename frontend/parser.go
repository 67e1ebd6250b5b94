// Package frontend parses Python 3.12 source into the CPython-shaped syntax tree of package
// ast: a byte-based tokenizer (INDENT/DEDENT, PEP 701 f-strings) and a hand-written
// recursive-descent parser for the whole grammar. Positions and error messages follow
// CPython 3.12.
package frontend

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/diag"
)

// maxDepth bounds expression nesting, as CPython's parser stack limit does.
const maxDepth = 3000

type parser struct {
	file   string
	src    []byte
	srcStr string // src as one string: names are substrings of it rather than copies
	toks   []token
	pos    int // index of the next token
	far    int // furthest token examined: where "invalid syntax" is reported
	tokErr *diag.Error
	depth  int
	nodes  nodeSlabs
	// args and kws are scratch for the call argument lists being parsed (nested calls
	// stack theirs on top); exprs hands out the finished lists, sized exactly.
	args  []ast.Expr
	kws   []*ast.Keyword
	exprs []ast.Expr
	stmts []ast.Stmt // scratch for the blocks being parsed
}

// exprList returns a copy of list, carved from a shared chunk (with its capacity capped,
// so that an append to it reallocates), or nil when list is empty.
func (p *parser) exprList(list []ast.Expr) []ast.Expr {
	n := len(list)
	if n == 0 {
		return nil
	}
	if n > len(p.exprs) {
		if n > 64 {
			return append([]ast.Expr(nil), list...)
		}
		p.exprs = make([]ast.Expr, 256)
	}
	out := p.exprs[:n:n]
	p.exprs = p.exprs[n:]
	copy(out, list)
	return out
}

// nodeSlabs allocate the most frequent nodes in chunks rather than one by one.
type nodeSlabs struct {
	names      slab[ast.Name]
	constants  slab[ast.Constant]
	attributes slab[ast.Attribute]
	calls      slab[ast.Call]
	subscripts slab[ast.Subscript]
	binOps     slab[ast.BinOp]
	keywords   slab[ast.Keyword]
	assigns    slab[ast.Assign]
	exprStmts  slab[ast.ExprStmt]
}

// slab hands out values of one type from chunks of slabSize.
type slab[T any] []T

const slabSize = 64

// new returns a pointer to a copy of v.
func (s *slab[T]) new(v T) *T {
	if len(*s) == cap(*s) {
		*s = make([]T, 0, slabSize)
	}
	*s = append(*s, v)
	return &(*s)[len(*s)-1]
}

// bailout carries a syntax error up to ParseFile (or to a backtracking point).
type bailout struct{ err *diag.Error }

// ParseFile parses a Python source file. Errors are *diag.Error with CPython's messages and
// positions.
func ParseFile(filename string, src []byte) (mod *ast.Module, err error) {
	src, derr := prepare(filename, src)
	if derr != nil {
		return nil, derr
	}
	toks, terr := tokenize(filename, src)
	p := &parser{file: filename, src: src, srcStr: string(src), toks: toks, tokErr: terr}
	defer func() {
		defer releaseTokens(toks)
		if r := recover(); r != nil {
			if b, ok := r.(bailout); ok {
				mod, err = nil, b.err
				return
			}
			mod, err = nil, p.failure(r)
		}
	}()
	return p.module(), nil
}

// failure turns a panic of the parser (a gotriton bug, not a syntax error) into an error
// positioned at the token being parsed, naming it.
func (p *parser) failure(r any) *diag.Error {
	if len(p.toks) == 0 {
		return diag.New(p.file, p.src, diag.Span{Line: 1}, "the parser failed before the first token (a gotriton bug, please report it): %v", r)
	}
	t := &p.toks[min(p.pos, len(p.toks)-1)]
	what := "here"
	if text := strings.TrimSpace(p.srcStr[t.start:t.end]); text != "" {
		what = "on `" + text + "`"
	}
	return diag.New(p.file, p.src, diag.Span{Line: int(t.line), Col: int(t.col)}, "the parser failed %s (a gotriton bug, please report it): %v", what, r)
}

// prepare strips a UTF-8 BOM, rejects null bytes and invalid UTF-8, and turns CRLF and CR
// line endings into LF, as CPython does before tokenizing.
func prepare(file string, src []byte) ([]byte, *diag.Error) {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	locate := func(off int) diag.Span {
		line := 1 + bytes.Count(src[:off], []byte("\n"))
		return diag.Span{Line: line, Col: off - (bytes.LastIndexByte(src[:off], '\n') + 1)}
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return nil, diag.New(file, src, locate(i), "source code cannot contain null bytes")
	}
	if !utf8.Valid(src) {
		i := 0
		for i < len(src) {
			r, w := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && w == 1 {
				break
			}
			i += w
		}
		reason := "invalid start byte"
		if c := src[i]; c >= 0xC2 && c <= 0xF4 {
			reason = "invalid continuation byte"
			if need := map[bool]int{true: 2, false: 3}[c < 0xE0] + map[bool]int{true: 1, false: 0}[c >= 0xF0]; i+need > len(src) {
				reason = "unexpected end of data"
			}
		}
		return nil, diag.New(file, src, locate(i), "(unicode error) 'utf-8' codec can't decode byte 0x%02x in position %d: %s", src[i], i, reason)
	}
	if bytes.IndexByte(src, '\r') >= 0 {
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
		src = bytes.ReplaceAll(src, []byte("\r"), []byte("\n"))
	}
	return src, nil
}

// ---- token access ----

func (p *parser) peek() *token {
	if p.pos > p.far {
		p.far = p.pos
	}
	t := &p.toks[p.pos]
	if t.kind == tkError {
		panic(bailout{p.tokErr})
	}
	return t
}

// peekAt looks k tokens ahead (without reporting a tokenizer error there).
func (p *parser) peekAt(k int) *token {
	i := min(p.pos+k, len(p.toks)-1)
	if i > p.far {
		p.far = i
	}
	return &p.toks[i]
}

func (p *parser) next() *token {
	t := p.peek()
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return t
}

func (p *parser) isOp(o op) bool {
	t := p.peek()
	return t.kind == tkOp && t.op == o
}

func (p *parser) isKw(o op) bool {
	t := p.peek()
	return t.kind == tkName && t.op == o
}

func (p *parser) eatOp(o op) bool {
	if p.isOp(o) {
		p.next()
		return true
	}
	return false
}

func (p *parser) expectOp(o op) {
	if !p.eatOp(o) {
		p.syntaxError()
	}
}

// isIdent reports whether t is a NAME that is not a keyword.
func isIdent(t *token) bool { return t.kind == tkName && t.op == opNone }

func (p *parser) text(t *token) string { return p.srcStr[t.start:t.end] }

// isSoft reports whether t is the soft keyword w.
func (p *parser) isSoft(t *token, w string) bool {
	return isIdent(t) && p.srcStr[t.start:t.end] == w
}

func (p *parser) expectName() string {
	t := p.peek()
	if !isIdent(t) {
		p.syntaxError()
	}
	p.next()
	return p.text(t)
}

// lastEnd is the end of the last consumed token that is not NEWLINE, INDENT or DEDENT.
func (p *parser) lastEnd() (int, int) {
	i := p.pos - 1
	for i > 0 && (p.toks[i].kind == tkNewline || p.toks[i].kind == tkIndent || p.toks[i].kind == tkDedent) {
		i--
	}
	t := &p.toks[max(i, 0)]
	return int(t.endLine), int(t.endCol)
}

// posFrom spans from token index start to the last consumed token.
func (p *parser) posFrom(start int) ast.Pos {
	t := &p.toks[start]
	el, ec := p.lastEnd()
	return ast.Pos{Lineno: t.line, ColOffset: t.col, EndLineno: int32(el), EndColOffset: int32(ec)}
}

// ---- errors ----

func (p *parser) errorAt(line, col int, format string, args ...any) {
	panic(bailout{diag.New(p.file, p.src, diag.Span{Line: line, Col: col}, format, args...)})
}

func (p *parser) errorTok(t *token, format string, args ...any) {
	p.errorAt(int(t.line), int(t.col), format, args...)
}

func (p *parser) errorNode(n ast.Node, format string, args ...any) {
	pos := n.Position()
	panic(bailout{diag.New(p.file, p.src, diag.Span{Line: int(pos.Lineno), Col: int(pos.ColOffset), EndLine: int(pos.EndLineno), EndCol: int(pos.EndColOffset)}, format, args...)})
}

// syntaxError reports CPython's generic error: a tokenizer error anywhere in the file wins,
// else "invalid syntax" (or an indentation error) at the furthest token examined.
func (p *parser) syntaxError() {
	if p.tokErr != nil {
		panic(bailout{p.tokErr})
	}
	t := &p.toks[p.far]
	switch t.kind {
	case tkIndent:
		p.errorTok(t, "unexpected indent")
	case tkDedent:
		p.errorTok(t, "unexpected unindent")
	}
	p.errorTok(t, "invalid syntax")
}

// try runs f and reports whether it parsed without error; on error the position is
// restored. A tokenizer error is not caught: it ends the parse, as in CPython.
func (p *parser) try(f func()) (ok bool) {
	save, nargs, nkws, nstmts := p.pos, len(p.args), len(p.kws), len(p.stmts)
	defer func() {
		if r := recover(); r != nil {
			if b, isB := r.(bailout); !isB || b.err == p.tokErr {
				panic(r)
			}
			p.pos = save
			p.args, p.kws, p.stmts = p.args[:nargs], p.kws[:nkws], p.stmts[:nstmts]
			ok = false
		}
	}()
	f()
	return true
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		t := p.peek()
		p.errorTok(t, "too many nested expressions: Python source too complex to parse")
	}
}

func (p *parser) leave() { p.depth-- }

// ---- statements ----

func (p *parser) module() *ast.Module {
	var body []ast.Stmt
	for p.peek().kind != tkEnd {
		body = p.statement(body)
	}
	return &ast.Module{Body: body}
}

// statement parses one line's statements (or one compound statement) and appends them.
func (p *parser) statement(body []ast.Stmt) []ast.Stmt {
	t := p.peek()
	switch t.kind {
	case tkName:
		switch t.op {
		case kwDef:
			return append(body, p.funcDef(p.pos, nil))
		case kwClass:
			return append(body, p.classDef(nil))
		case kwIf:
			return append(body, p.ifStmt())
		case kwWhile:
			return append(body, p.whileStmt())
		case kwFor:
			return append(body, p.forStmt(p.pos))
		case kwWith:
			return append(body, p.withStmt(p.pos))
		case kwTry:
			return append(body, p.tryStmt())
		case kwAsync:
			start := p.pos
			switch n := p.peekAt(1); {
			case n.op == kwDef && n.kind == tkName:
				p.next()
				return append(body, p.funcDef(start, nil))
			case n.op == kwFor && n.kind == tkName:
				p.next()
				return append(body, p.forStmt(start))
			case n.op == kwWith && n.kind == tkName:
				p.next()
				return append(body, p.withStmt(start))
			}
		case opNone:
			if p.isSoft(t, "match") {
				if s := p.matchStmt(); s != nil {
					return append(body, s)
				}
			}
		}
	case tkOp:
		if t.op == opAt {
			return append(body, p.decorated())
		}
	case tkIndent, tkDedent:
		p.syntaxError()
	}
	return p.simpleStmts(body)
}

func (p *parser) simpleStmts(body []ast.Stmt) []ast.Stmt {
	for {
		body = append(body, p.simpleStmt())
		if p.eatOp(opSemi) {
			if p.peek().kind == tkNewline {
				p.next()
				return body
			}
			continue
		}
		if p.peek().kind == tkNewline {
			p.next()
			return body
		}
		p.syntaxError()
	}
}

func (p *parser) simpleStmt() ast.Stmt {
	t := p.peek()
	start := p.pos
	if t.kind == tkName {
		switch t.op {
		case kwPass:
			p.next()
			return &ast.Pass{Pos: p.posFrom(start)}
		case kwBreak:
			p.next()
			return &ast.Break{Pos: p.posFrom(start)}
		case kwContinue:
			p.next()
			return &ast.Continue{Pos: p.posFrom(start)}
		case kwReturn:
			p.next()
			var v ast.Expr
			if !p.atStmtEnd() {
				v = p.starExpressions()
			}
			return &ast.Return{Value: v, Pos: p.posFrom(start)}
		case kwRaise:
			p.next()
			s := &ast.Raise{}
			if !p.atStmtEnd() {
				s.Exc = p.expression()
				if p.isKw(kwFrom) {
					p.next()
					s.Cause = p.expression()
				}
			}
			s.Pos = p.posFrom(start)
			return s
		case kwGlobal, kwNonlocal:
			p.next()
			names := []string{p.expectName()}
			for p.eatOp(opComma) {
				names = append(names, p.expectName())
			}
			if t.op == kwGlobal {
				return &ast.Global{Names: names, Pos: p.posFrom(start)}
			}
			return &ast.Nonlocal{Names: names, Pos: p.posFrom(start)}
		case kwDel:
			return p.delStmt()
		case kwAssert:
			p.next()
			s := &ast.Assert{Test: p.expression()}
			if p.eatOp(opComma) {
				s.Msg = p.expression()
			}
			s.Pos = p.posFrom(start)
			return s
		case kwImport:
			return p.importStmt()
		case kwFrom:
			return p.fromImport()
		case opNone:
			if n := p.peekAt(1); p.isSoft(t, "type") && isIdent(n) {
				return p.typeAlias()
			}
		}
	}
	return p.exprStmt()
}

// atStmtEnd reports whether the simple statement ends here.
func (p *parser) atStmtEnd() bool {
	t := p.peek()
	return t.kind == tkNewline || t.kind == tkOp && t.op == opSemi
}

// assignValue parses the right-hand side of an assignment: yield_expr | star_expressions.
func (p *parser) assignValue() ast.Expr {
	if p.isKw(kwYield) {
		return p.yieldExpr()
	}
	return p.starExpressions()
}

var augOps = map[op]ast.Operator{
	opPlusEq: ast.Add, opMinusEq: ast.Sub, opStarEq: ast.Mult, opAtEq: ast.MatMult,
	opSlashEq: ast.Div, opPercentEq: ast.Mod, opAmperEq: ast.BitAnd, opVbarEq: ast.BitOr,
	opCircumflexEq: ast.BitXor, opLeftShiftEq: ast.LShift, opRightShiftEq: ast.RShift,
	opDoubleStarEq: ast.Pow, opDoubleSlashEq: ast.FloorDiv,
}

// exprStmt parses an expression statement or an (annotated, augmented) assignment.
func (p *parser) exprStmt() ast.Stmt {
	start := p.pos
	parenthesized := p.isOp(opLpar)
	first := p.assignValue()
	t := p.peek()
	if t.kind != tkOp {
		return p.nodes.exprStmts.new(ast.ExprStmt{Value: first, Pos: p.posFrom(start)})
	}
	switch t.op {
	case opColon:
		switch e := first.(type) {
		case *ast.Name, *ast.Attribute, *ast.Subscript:
		case *ast.Tuple:
			p.errorNode(e, "only single target (not tuple) can be annotated")
		case *ast.List:
			p.errorNode(e, "only single target (not list) can be annotated")
		default:
			p.errorNode(e, "illegal target for annotation")
		}
		p.next()
		p.setCtx(first, ast.Store)
		s := &ast.AnnAssign{Target: first, Annotation: p.expression()}
		if _, ok := first.(*ast.Name); ok && !parenthesized {
			s.Simple = 1
		}
		if p.eatOp(opEqual) {
			s.Value = p.assignValue()
		}
		s.Pos = p.posFrom(start)
		return s
	case opEqual:
		base := len(p.args) // the targets and the value grow on the argument stack
		p.args = append(p.args, first)
		for p.eatOp(opEqual) {
			v := p.assignValue()
			p.args = append(p.args, v)
		}
		exprs := p.exprList(p.args[base:])
		p.args = p.args[:base]
		targets := exprs[: len(exprs)-1 : len(exprs)-1]
		for _, tg := range targets {
			if len(targets) == 1 {
				p.checkSingleAssign(tg, parenthesized)
			}
			if y, ok := tg.(*ast.Yield); ok {
				p.errorNode(y, "assignment to yield expression not possible")
			}
			p.setCtx(tg, ast.Store)
		}
		return p.nodes.assigns.new(ast.Assign{Targets: targets, Value: exprs[len(exprs)-1], Pos: p.posFrom(start)})
	}
	if aug, ok := augOps[t.op]; ok {
		switch first.(type) {
		case *ast.Name, *ast.Attribute, *ast.Subscript:
		default:
			p.errorNode(first, "'%s' is an illegal expression for augmented assignment", exprName(first))
		}
		p.next()
		p.setCtx(first, ast.Store)
		return &ast.AugAssign{Target: first, Op: aug, Value: p.assignValue(), Pos: p.posFrom(start)}
	}
	return p.nodes.exprStmts.new(ast.ExprStmt{Value: first, Pos: p.posFrom(start)})
}

// checkSingleAssign reports CPython's "cannot assign to X here. Maybe you meant '=='
// instead of '='?" for a single assignment whose last target element is an expression.
func (p *parser) checkSingleAssign(tg ast.Expr, parenthesized bool) {
	last := tg
	if t, ok := tg.(*ast.Tuple); ok && !parenthesized && len(t.Elts) > 0 {
		last = t.Elts[len(t.Elts)-1]
	}
	switch e := last.(type) {
	case *ast.Name, *ast.Attribute, *ast.Subscript, *ast.Starred, *ast.List, *ast.Tuple, *ast.GeneratorExp,
		*ast.Compare, *ast.BoolOp, *ast.Lambda, *ast.IfExp, *ast.NamedExpr, *ast.Yield, *ast.YieldFrom:
	case *ast.UnaryOp:
		if e.Op != ast.Not {
			p.errorNode(e, "cannot assign to %s here. Maybe you meant '==' instead of '='?", exprName(e))
		}
	case *ast.Constant:
		if e.Value != nil && e.Value != true && e.Value != false {
			p.errorNode(e, "cannot assign to %s here. Maybe you meant '==' instead of '='?", exprName(e))
		}
	default:
		p.errorNode(e, "cannot assign to %s here. Maybe you meant '==' instead of '='?", exprName(e))
	}
}

// exprName is CPython's description of an expression in error messages.
func exprName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Attribute:
		return "attribute"
	case *ast.Subscript:
		return "subscript"
	case *ast.Starred:
		return "starred"
	case *ast.Name:
		return "name"
	case *ast.List:
		return "list"
	case *ast.Tuple:
		return "tuple"
	case *ast.Lambda:
		return "lambda"
	case *ast.Call:
		return "function call"
	case *ast.BoolOp, *ast.BinOp, *ast.UnaryOp:
		return "expression"
	case *ast.GeneratorExp:
		return "generator expression"
	case *ast.Yield, *ast.YieldFrom:
		return "yield expression"
	case *ast.Await:
		return "await expression"
	case *ast.ListComp:
		return "list comprehension"
	case *ast.SetComp:
		return "set comprehension"
	case *ast.DictComp:
		return "dict comprehension"
	case *ast.Dict:
		return "dict literal"
	case *ast.Set:
		return "set display"
	case *ast.JoinedStr, *ast.FormattedValue:
		return "f-string expression"
	case *ast.Constant:
		switch e.Value {
		case nil:
			return "None"
		case true:
			return "True"
		case false:
			return "False"
		case ast.Ellipsis:
			return "ellipsis"
		}
		return "literal"
	case *ast.Compare:
		return "comparison"
	case *ast.IfExp:
		return "conditional expression"
	case *ast.NamedExpr:
		return "named expression"
	}
	return "expression"
}

// setCtx marks an assignment or deletion target, checking that it is one.
func (p *parser) setCtx(e ast.Expr, ctx ast.ExprContext) {
	switch e := e.(type) {
	case *ast.Name:
		e.Ctx = ctx
	case *ast.Attribute:
		e.Ctx = ctx
	case *ast.Subscript:
		e.Ctx = ctx
	case *ast.Starred:
		if ctx == ast.Del {
			p.errorNode(e, "cannot delete starred")
		}
		e.Ctx = ctx
		p.setCtx(e.Value, ctx)
	case *ast.Tuple:
		e.Ctx = ctx
		for _, x := range e.Elts {
			p.setCtx(x, ctx)
		}
	case *ast.List:
		e.Ctx = ctx
		for _, x := range e.Elts {
			p.setCtx(x, ctx)
		}
	default:
		if ctx == ast.Del {
			p.errorNode(e, "cannot delete %s", exprName(e))
		}
		p.errorNode(e, "cannot assign to %s", exprName(e))
	}
}

func (p *parser) delStmt() ast.Stmt {
	start := p.pos
	p.next()
	var targets []ast.Expr
	for {
		targets = append(targets, p.primary())
		if !p.eatOp(opComma) || p.atStmtEnd() {
			break
		}
	}
	if !p.atStmtEnd() {
		// CPython re-reads the whole thing as expressions to name the bad target.
		p.pos = start + 1
		p.setCtx(p.starExpressions(), ast.Del)
		p.syntaxError()
	}
	for _, t := range targets {
		p.setCtx(t, ast.Del)
	}
	return &ast.Delete{Targets: targets, Pos: p.posFrom(start)}
}

// dottedName parses NAME ('.' NAME)*.
func (p *parser) dottedName() string {
	name := p.expectName()
	for p.isOp(opDot) {
		p.next()
		name += "." + p.expectName()
	}
	return name
}

// alias parses one imported name, read by name, and its optional "as NAME".
func (p *parser) alias(name func() string) *ast.Alias {
	start := p.pos
	a := &ast.Alias{Name: name()}
	if p.isKw(kwAs) {
		p.next()
		a.Asname = p.expectName()
	}
	a.Pos = p.posFrom(start)
	return a
}

func (p *parser) importStmt() ast.Stmt {
	start := p.pos
	p.next()
	var names []*ast.Alias
	for {
		names = append(names, p.alias(p.dottedName))
		if !p.eatOp(opComma) {
			break
		}
	}
	return &ast.Import{Names: names, Pos: p.posFrom(start)}
}

func (p *parser) fromImport() ast.Stmt {
	start := p.pos
	p.next()
	s := &ast.ImportFrom{}
	for {
		if p.eatOp(opDot) {
			s.Level++
		} else if p.eatOp(opEllipsis) {
			s.Level += 3
		} else {
			break
		}
	}
	if !p.isKw(kwImport) || s.Level == 0 {
		s.Module = p.dottedName()
	}
	if !p.isKw(kwImport) {
		p.syntaxError()
	}
	p.next()
	if p.isOp(opStar) {
		as := p.pos
		p.next()
		s.Names = []*ast.Alias{{Name: "*", Pos: p.posFrom(as)}}
		s.Pos = p.posFrom(start)
		return s
	}
	paren := p.eatOp(opLpar)
	for {
		s.Names = append(s.Names, p.alias(p.expectName))
		if !p.eatOp(opComma) {
			break
		}
		if paren && p.isOp(opRpar) {
			break
		}
		if !paren && p.atStmtEnd() {
			p.errorTok(p.peek(), "trailing comma not allowed without surrounding parentheses")
		}
	}
	if paren {
		p.expectOp(opRpar)
	}
	s.Pos = p.posFrom(start)
	return s
}

func (p *parser) typeAlias() ast.Stmt {
	start := p.pos
	p.next()
	nt := p.pos
	name := &ast.Name{ID: p.expectName(), Ctx: ast.Store}
	name.Pos = p.posFrom(nt)
	var tps []ast.TypeParam
	if p.isOp(opLsqb) {
		tps = p.typeParams()
	}
	p.expectOp(opEqual)
	v := p.expression()
	return &ast.TypeAlias{Name: name, TypeParams: tps, Value: v, Pos: p.posFrom(start)}
}

func (p *parser) typeParams() []ast.TypeParam {
	p.next() // [
	var tps []ast.TypeParam
	for !p.isOp(opRsqb) {
		start := p.pos
		switch {
		case p.eatOp(opStar):
			name := p.expectName()
			if p.isOp(opColon) {
				p.errorTok(p.peek(), "cannot use bound with TypeVarTuple")
			}
			tps = append(tps, &ast.TypeVarTuple{Name: name, Pos: p.posFrom(start)})
		case p.eatOp(opDoubleStar):
			name := p.expectName()
			if p.isOp(opColon) {
				p.errorTok(p.peek(), "cannot use bound with ParamSpec")
			}
			tps = append(tps, &ast.ParamSpec{Name: name, Pos: p.posFrom(start)})
		default:
			tv := &ast.TypeVar{Name: p.expectName()}
			if p.eatOp(opColon) {
				tv.Bound = p.expression()
			}
			tv.Pos = p.posFrom(start)
			tps = append(tps, tv)
		}
		if !p.eatOp(opComma) {
			break
		}
	}
	if len(tps) == 0 {
		p.syntaxError()
	}
	p.expectOp(opRsqb)
	return tps
}

// colon consumes the ':' of a compound statement header. forced is CPython's &&':'
// (always "expected ':'"); otherwise that message is given only before a newline.
func (p *parser) colon(forced bool) {
	if p.eatOp(opColon) {
		return
	}
	if t := p.peek(); forced || t.kind == tkNewline {
		p.errorTok(t, "expected ':'")
	}
	p.syntaxError()
}

// block parses the body after a header's ':'; what and line name the header in
// "expected an indented block after ... on line N".
func (p *parser) block(what string, line int) []ast.Stmt {
	if p.peek().kind != tkNewline {
		return p.simpleStmts(nil)
	}
	p.next()
	if t := p.peek(); t.kind != tkIndent {
		p.errorTok(t, "expected an indented block after %s on line %d", what, line)
	}
	p.next()
	// The statements grow on the statement stack (nested blocks stack theirs above and
	// take them off again) and are copied out sized exactly.
	base := len(p.stmts)
	for p.peek().kind != tkDedent {
		p.stmts = p.statement(p.stmts)
	}
	p.next()
	body := append(make([]ast.Stmt, 0, len(p.stmts)-base), p.stmts[base:]...)
	clear(p.stmts[base:])
	p.stmts = p.stmts[:base]
	return body
}

func (p *parser) decorated() ast.Stmt {
	var decos []ast.Expr
	for p.eatOp(opAt) {
		decos = append(decos, p.namedExpression())
		if p.peek().kind != tkNewline {
			p.syntaxError()
		}
		p.next()
	}
	t := p.peek()
	switch {
	case t.kind == tkName && t.op == kwDef:
		return p.funcDef(p.pos, decos)
	case t.kind == tkName && t.op == kwClass:
		return p.classDef(decos)
	case t.kind == tkName && t.op == kwAsync && p.peekAt(1).op == kwDef:
		start := p.pos
		p.next()
		return p.funcDef(start, decos)
	}
	p.syntaxError()
	return nil
}

func (p *parser) funcDef(start int, decos []ast.Expr) ast.Stmt {
	async := p.toks[start].op == kwAsync
	defTok := p.next()
	name := p.expectName()
	var tps []ast.TypeParam
	if p.isOp(opLsqb) {
		tps = p.typeParams()
	}
	if !p.eatOp(opLpar) {
		p.errorTok(p.peek(), "expected '('")
	}
	args := p.params(false, opRpar)
	p.expectOp(opRpar)
	var returns ast.Expr
	if p.eatOp(opRarrow) {
		returns = p.expression()
	}
	p.colon(true)
	body := p.block("function definition", int(defTok.line))
	pos := p.posFrom(start)
	if async {
		return &ast.AsyncFunctionDef{Name: name, Args: args, Body: body, DecoratorList: decos, Returns: returns, TypeParams: tps, Pos: pos}
	}
	return &ast.FunctionDef{Name: name, Args: args, Body: body, DecoratorList: decos, Returns: returns, TypeParams: tps, Pos: pos}
}

func (p *parser) classDef(decos []ast.Expr) ast.Stmt {
	start := p.pos
	line := int(p.next().line)
	s := &ast.ClassDef{Name: p.expectName(), DecoratorList: decos}
	if p.isOp(opLsqb) {
		s.TypeParams = p.typeParams()
	}
	if p.isOp(opLpar) {
		s.Bases, s.Keywords, _ = p.arguments()
	}
	p.colon(false)
	s.Body = p.block("class definition", line)
	s.Pos = p.posFrom(start)
	return s
}

func (p *parser) ifStmt() ast.Stmt {
	start := p.pos
	t := p.next()
	what := "'if' statement"
	if t.op == kwElif {
		what = "'elif' statement"
	}
	s := &ast.If{Test: p.namedExpression()}
	p.colon(false)
	s.Body = p.block(what, int(t.line))
	switch {
	case p.isKw(kwElif):
		s.Orelse = []ast.Stmt{p.ifStmt()}
	case p.isKw(kwElse):
		s.Orelse = p.elseBlock()
	}
	s.Pos = p.posFrom(start)
	return s
}

func (p *parser) elseBlock() []ast.Stmt {
	line := int(p.next().line)
	p.colon(true)
	return p.block("'else' statement", line)
}

func (p *parser) whileStmt() ast.Stmt {
	start := p.pos
	line := int(p.next().line)
	s := &ast.While{Test: p.namedExpression()}
	p.colon(false)
	s.Body = p.block("'while' statement", line)
	if p.isKw(kwElse) {
		s.Orelse = p.elseBlock()
	}
	s.Pos = p.posFrom(start)
	return s
}

func (p *parser) forStmt(start int) ast.Stmt {
	line := int(p.next().line)
	target := p.starTargets()
	if !p.isKw(kwIn) {
		p.syntaxError()
	}
	p.next()
	iter := p.starExpressions()
	p.colon(false)
	body := p.block("'for' statement", line)
	var orelse []ast.Stmt
	if p.isKw(kwElse) {
		orelse = p.elseBlock()
	}
	pos := p.posFrom(start)
	if p.toks[start].op == kwAsync {
		return &ast.AsyncFor{Target: target, Iter: iter, Body: body, Orelse: orelse, Pos: pos}
	}
	return &ast.For{Target: target, Iter: iter, Body: body, Orelse: orelse, Pos: pos}
}

func (p *parser) withStmt(start int) ast.Stmt {
	line := int(p.next().line)
	var items []*ast.WithItem
	if !p.isOp(opLpar) || !p.try(func() {
		p.next()
		items = p.withItems(true)
		p.expectOp(opRpar)
		if !p.isOp(opColon) {
			p.syntaxError()
		}
	}) {
		items = p.withItems(false)
	}
	p.colon(false)
	body := p.block("'with' statement", line)
	pos := p.posFrom(start)
	if p.toks[start].op == kwAsync {
		return &ast.AsyncWith{Items: items, Body: body, Pos: pos}
	}
	return &ast.With{Items: items, Body: body, Pos: pos}
}

func (p *parser) withItems(paren bool) []*ast.WithItem {
	var items []*ast.WithItem
	for {
		it := &ast.WithItem{ContextExpr: p.expression()}
		if p.isKw(kwAs) {
			p.next()
			it.OptionalVars = p.starTarget()
			if t := p.peek(); t.kind != tkOp || t.op != opComma && t.op != opColon && t.op != opRpar {
				p.syntaxError()
			}
		}
		items = append(items, it)
		if !p.eatOp(opComma) || paren && p.isOp(opRpar) {
			break
		}
	}
	return items
}

func (p *parser) tryStmt() ast.Stmt {
	start := p.pos
	line := int(p.next().line)
	p.colon(true)
	body := p.block("'try' statement", line)
	var handlers []*ast.ExceptHandler
	star := -1
	for p.isKw(kwExcept) {
		hs := p.pos
		et := p.next()
		isStar := 0
		if p.eatOp(opStar) {
			isStar = 1
		}
		if star >= 0 && star != isStar {
			p.errorTok(et, "cannot have both 'except' and 'except*' on the same 'try'")
		}
		star = isStar
		h := &ast.ExceptHandler{}
		if !p.isOp(opColon) {
			h.Type = p.expression()
			if p.isOp(opComma) {
				p.errorNode(h.Type, "multiple exception types must be parenthesized")
			}
			if p.isKw(kwAs) {
				p.next()
				h.Name = p.expectName()
			}
		} else if isStar == 1 {
			p.errorTok(p.peek(), "expected one or more exception types")
		}
		p.colon(false)
		what := "'except' statement"
		if isStar == 1 {
			what = "'except*' statement"
		}
		h.Body = p.block(what, int(et.line))
		h.Pos = p.posFrom(hs)
		handlers = append(handlers, h)
	}
	var orelse, final []ast.Stmt
	if len(handlers) > 0 && p.isKw(kwElse) {
		orelse = p.elseBlock()
	}
	if p.isKw(kwFinally) {
		fl := int(p.next().line)
		p.colon(true)
		final = p.block("'finally' statement", fl)
	}
	if len(handlers) == 0 && final == nil {
		p.errorTok(p.peek(), "expected 'except' or 'finally' block")
	}
	pos := p.posFrom(start)
	if star == 1 {
		return &ast.TryStar{Body: body, Handlers: handlers, Orelse: orelse, Finalbody: final, Pos: pos}
	}
	return &ast.Try{Body: body, Handlers: handlers, Orelse: orelse, Finalbody: final, Pos: pos}
}

// matchStmt parses a match statement, or returns nil (position unchanged) when "match"
// starts some other statement.
func (p *parser) matchStmt() ast.Stmt {
	start := p.pos
	var subject ast.Expr
	if !p.try(func() {
		p.next()
		ss := p.pos
		subject = p.starNamedExpression()
		if p.isOp(opComma) {
			elts := []ast.Expr{subject}
			for p.eatOp(opComma) && !p.isOp(opColon) {
				elts = append(elts, p.starNamedExpression())
			}
			subject = &ast.Tuple{Elts: elts, Pos: p.posFrom(ss)}
		}
		if !p.isOp(opColon) {
			p.syntaxError()
		}
	}) {
		return nil
	}
	line := int(p.toks[start].line)
	p.colon(false)
	if p.peek().kind != tkNewline {
		p.syntaxError()
	}
	p.next()
	if t := p.peek(); t.kind != tkIndent {
		p.errorTok(t, "expected an indented block after 'match' statement on line %d", line)
	}
	p.next()
	s := &ast.Match{Subject: subject}
	for p.peek().kind != tkDedent {
		t := p.peek()
		if !p.isSoft(t, "case") {
			p.syntaxError()
		}
		p.next()
		c := &ast.MatchCase{Pattern: p.patterns()}
		if p.isKw(kwIf) {
			p.next()
			c.Guard = p.namedExpression()
		}
		p.colon(false)
		c.Body = p.block("'case' statement", int(t.line))
		s.Cases = append(s.Cases, c)
	}
	p.next()
	s.Pos = p.posFrom(start)
	return s
}
