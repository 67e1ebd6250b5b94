package tileir

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseError is a syntax error with its position in the parsed text.
type ParseError struct {
	File      string
	Line, Col int // 1-based
	Msg       string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Parse reads a module in the printed TTIR form (the output of Module.Print, or of Triton's
// own TTIR dump for the ops in the catalogue; other ops parse in MLIR's generic form).
// A bare sequence of tt.func definitions without "module {" is accepted too.
// file names the input in error messages.
func Parse(file, src string) (m *Module, err error) {
	ps := &parser{file: file, src: src}
	defer func() {
		if r := recover(); r != nil {
			pp, ok := r.(*parsePanic)
			if !ok {
				panic(r)
			}
			m, err = nil, ps.errorAt(pp)
		}
	}()
	m = &Module{}
	ps.aliasDefs()
	if ps.tryWord("module") {
		if ps.tryWord("attributes") {
			m.Attrs = ps.attrDict()
		}
		ps.expect("{")
		for !ps.try("}") {
			if ps.eof() {
				ps.fail("the module is not closed with \"}\"")
			}
			m.Funcs = append(m.Funcs, ps.fn())
		}
		ps.optLoc(func(l Loc) { m.Loc = l })
	} else {
		for !ps.eof() && ps.peek() != '#' {
			m.Funcs = append(m.Funcs, ps.fn())
		}
	}
	ps.aliasDefs()
	if !ps.eof() {
		ps.fail("unexpected text after the module")
	}
	for _, set := range ps.pending {
		set()
	}
	return m, nil
}

type parser struct {
	file   string
	src    string
	pos    int
	scopes []map[string]*Value
	// aliases are the #loc definitions; pending sets locations once all are known, since
	// Triton prints most of them after the module.
	aliases map[string]*locExpr
	pending []func()
}

func (ps *parser) fail(format string, args ...any) { ps.failAt(ps.pos, format, args...) }

// failAt reports an error at byte offset pos. Parse turns it into a *ParseError; line and
// column are only computed then, since tentative parses fail and recover often.
func (ps *parser) failAt(pos int, format string, args ...any) {
	panic(&parsePanic{pos: pos, msg: fmt.Sprintf(format, args...)})
}

type parsePanic struct {
	pos int
	msg string
}

func (ps *parser) errorAt(pp *parsePanic) *ParseError {
	line, col := 1, 1
	for i := 0; i < pp.pos && i < len(ps.src); i++ {
		if ps.src[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &ParseError{File: ps.file, Line: line, Col: col, Msg: pp.msg}
}

// ws skips white space and // comments.
func (ps *parser) ws() {
	for ps.pos < len(ps.src) {
		c := ps.src[ps.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			ps.pos++
		case strings.HasPrefix(ps.src[ps.pos:], "//"):
			for ps.pos < len(ps.src) && ps.src[ps.pos] != '\n' {
				ps.pos++
			}
		default:
			return
		}
	}
}

func (ps *parser) eof() bool {
	ps.ws()
	return ps.pos >= len(ps.src)
}

func (ps *parser) peek() byte {
	ps.ws()
	if ps.pos >= len(ps.src) {
		return 0
	}
	return ps.src[ps.pos]
}

func (ps *parser) peekStr(s string) bool {
	ps.ws()
	return strings.HasPrefix(ps.src[ps.pos:], s)
}

// try consumes punctuation s if it comes next.
func (ps *parser) try(s string) bool {
	if ps.peekStr(s) {
		ps.pos += len(s)
		return true
	}
	return false
}

func (ps *parser) expect(s string) {
	if !ps.try(s) {
		ps.fail("expected %q", s)
	}
}

func isIdentChar(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_' || c == '.' || c == '$' || c == '-'
}

// tryWord consumes keyword w if it comes next as a whole word.
func (ps *parser) tryWord(w string) bool {
	if ps.peekStr(w) {
		end := ps.pos + len(w)
		if end == len(ps.src) || !isIdentChar(ps.src[end]) {
			ps.pos = end
			return true
		}
	}
	return false
}

func (ps *parser) expectWord(w string) {
	if !ps.tryWord(w) {
		ps.fail("expected %q", w)
	}
}

// ident reads a bare identifier (letters, digits, _ . $ -), not starting with a digit.
func (ps *parser) ident() string {
	ps.ws()
	start := ps.pos
	for ps.pos < len(ps.src) && isIdentChar(ps.src[ps.pos]) {
		ps.pos++
	}
	if ps.pos == start || isDigit(ps.src[start]) {
		ps.pos = start
		ps.fail("expected an identifier")
	}
	return ps.src[start:ps.pos]
}

// number reads an integer or float literal and returns its text.
func (ps *parser) number() string {
	ps.ws()
	start := ps.pos
	if ps.pos < len(ps.src) && (ps.src[ps.pos] == '-' || ps.src[ps.pos] == '+') {
		ps.pos++
	}
	if strings.HasPrefix(ps.src[ps.pos:], "0x") {
		ps.pos += 2
	}
	for ps.pos < len(ps.src) {
		c := ps.src[ps.pos]
		if isDigit(c) || c == '.' || isLetter(c) && strings.ContainsRune("abcdefABCDEF", rune(c)) ||
			(c == '+' || c == '-') && (ps.src[ps.pos-1] == 'e' || ps.src[ps.pos-1] == 'E') {
			ps.pos++
			continue
		}
		break
	}
	if ps.pos == start {
		ps.fail("expected a number")
	}
	return ps.src[start:ps.pos]
}

func (ps *parser) int() int64 {
	s := ps.number()
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		ps.fail("bad integer %q", s)
	}
	return v
}

func (ps *parser) str() string {
	ps.ws()
	if ps.peek() != '"' {
		ps.fail("expected a string")
	}
	ps.pos++
	var b strings.Builder
	for ps.pos < len(ps.src) && ps.src[ps.pos] != '"' {
		c := ps.src[ps.pos]
		if c == '\\' && ps.pos+1 < len(ps.src) {
			if ps.src[ps.pos+1] == '\\' {
				b.WriteByte('\\')
				ps.pos += 2
				continue
			}
			v, err := strconv.ParseUint(ps.src[ps.pos+1:min(ps.pos+3, len(ps.src))], 16, 8)
			if err != nil {
				ps.fail("bad escape in string")
			}
			b.WriteByte(byte(v))
			ps.pos += 3
			continue
		}
		b.WriteByte(c)
		ps.pos++
	}
	ps.expect(`"`)
	return b.String()
}

// ---- types ----

func (ps *parser) typ() Type {
	ps.ws()
	switch {
	case ps.try("!tt.ptr"):
		return ps.ptrBody()
	case ps.try("!tt.tensordesc"):
		return ps.descBody()
	case ps.tryWord("tensor"):
		ps.expect("<")
		var shape []int64
		for isDigit(ps.peek()) {
			start := ps.pos
			for ps.pos < len(ps.src) && isDigit(ps.src[ps.pos]) {
				ps.pos++
			}
			d, _ := strconv.ParseInt(ps.src[start:ps.pos], 10, 64)
			shape = append(shape, d)
			if ps.pos >= len(ps.src) || ps.src[ps.pos] != 'x' {
				ps.fail("expected 'x' in a tensor shape")
			}
			ps.pos++
		}
		elem := ps.typ()
		ps.expect(">")
		return Tensor(shape, elem)
	}
	start := ps.pos
	name := ps.ident()
	for s := I1; s <= F8E4M3B11FNUZ; s++ {
		if scalarNames[s] == name {
			return s
		}
	}
	ps.failAt(start, "unknown type %q", name)
	return nil
}

// ptrBody parses <elem[, addrspace]>, the body of !tt.ptr (also its stripped form).
func (ps *parser) ptrBody() *PtrType {
	ps.expect("<")
	elem := ps.typ()
	as := int64(1)
	if ps.try(",") {
		as = ps.int()
	}
	ps.expect(">")
	return PtrIn(elem, int(as))
}

func (ps *parser) descBody() *TensorDescType {
	ps.expect("<")
	t, ok := ps.typ().(*TensorType)
	if !ok {
		ps.fail("a tensor descriptor needs a tensor type")
	}
	ps.expect(">")
	return TensorDesc(t)
}

func (ps *parser) typeList() []Type {
	ts := []Type{ps.typ()}
	for ps.try(",") {
		ts = append(ts, ps.typ())
	}
	return ts
}

// functionalType parses (a, b) -> r or (a) -> (r1, r2).
func (ps *parser) functionalType() (in, out []Type) {
	in = ps.parenTypes()
	ps.expect("->")
	if ps.peek() == '(' {
		return in, ps.parenTypes()
	}
	return in, []Type{ps.typ()}
}

func (ps *parser) parenTypes() []Type {
	ps.expect("(")
	if ps.try(")") {
		return nil
	}
	ts := ps.typeList()
	ps.expect(")")
	return ts
}

// ---- attributes ----

// attrDict parses {a = v, b}.
func (ps *parser) attrDict() []NamedAttr {
	var attrs []NamedAttr
	ps.expect("{")
	if ps.try("}") {
		return nil
	}
	for {
		var name string
		if ps.peek() == '"' {
			name = ps.str()
		} else {
			name = ps.ident()
		}
		var v Attr = UnitAttr{}
		if ps.try("=") {
			v = ps.attrValue()
		}
		attrs = setAttr(attrs, name, v)
		if !ps.try(",") {
			break
		}
	}
	ps.expect("}")
	return attrs
}

func (ps *parser) optAttrDict() []NamedAttr {
	if ps.peek() == '{' {
		return ps.attrDict()
	}
	return nil
}

// attrValue parses one attribute value.
func (ps *parser) attrValue() Attr {
	switch c := ps.peek(); {
	case c == '"':
		return StringAttr(ps.str())
	case c == '@':
		ps.pos++
		return SymbolRefAttr(ps.ident())
	case c == '[':
		ps.pos++
		var arr ArrayAttr
		if !ps.try("]") {
			for {
				arr = append(arr, ps.attrValue())
				if !ps.try(",") {
					break
				}
			}
			ps.expect("]")
		}
		return arr
	case c == '{':
		return DictAttr(ps.attrDict())
	case c == '-' || c == '+' || isDigit(c):
		lit := ps.number()
		t := Scalar(I64)
		if ps.try(":") {
			s, ok := ps.typ().(Scalar)
			if !ok {
				ps.fail("a number needs a scalar type")
			}
			t = s
		} else if strings.ContainsAny(lit, ".eE") && !strings.HasPrefix(lit, "0x") {
			t = F64
		}
		return ps.scalarAttr(lit, t)
	case ps.peekStr("array<"):
		ps.pos += len("array<")
		ps.expectWord("i32")
		var arr I32ArrayAttr = I32ArrayAttr{}
		if ps.try(":") {
			for {
				arr = append(arr, int32(ps.int()))
				if !ps.try(",") {
					break
				}
			}
		}
		ps.expect(">")
		return arr
	case ps.peekStr("dense<"):
		ps.pos += len("dense<")
		ps.ws()
		start := ps.pos
		for ps.pos < len(ps.src) && ps.src[ps.pos] != '>' {
			ps.pos++
		}
		lit := strings.TrimSpace(ps.src[start:ps.pos])
		ps.expect(">")
		ps.expect(":")
		t, ok := ps.typ().(*TensorType)
		if !ok {
			ps.fail("dense needs a tensor type")
		}
		s, ok := t.Elem().(Scalar)
		if !ok {
			ps.fail("dense needs scalar elements")
		}
		return DenseAttr{Splat: ps.literalAttr(lit, s), T: t}
	case ps.tryWord("true"):
		return BoolAttr(true)
	case ps.tryWord("false"):
		return BoolAttr(false)
	case ps.tryWord("unit"):
		return UnitAttr{}
	}
	start := ps.pos
	if t, ok := ps.tryType(); ok {
		return TypeAttr{t}
	}
	ps.pos = start
	return EnumAttr(ps.ident())
}

// tryType parses a type if one comes next.
func (ps *parser) tryType() (t Type, ok bool) {
	start := ps.pos
	defer func() {
		if r := recover(); r != nil {
			if _, isPE := r.(*parsePanic); !isPE {
				panic(r)
			}
			ps.pos, t, ok = start, nil, false
		}
	}()
	return ps.typ(), true
}

// literalAttr converts a literal (a number, true or false) to an attribute of type t.
func (ps *parser) literalAttr(lit string, t Scalar) Attr {
	switch lit {
	case "true":
		return IntAttr{1, I1}
	case "false":
		return IntAttr{0, I1}
	}
	return ps.scalarAttr(lit, t)
}

func (ps *parser) scalarAttr(lit string, t Scalar) Attr {
	if t.IsInt() {
		v, err := strconv.ParseInt(lit, 0, 64)
		if err != nil {
			ps.fail("bad integer %q", lit)
		}
		return IntAttr{v, t}
	}
	if strings.HasPrefix(lit, "0x") {
		bits, err := strconv.ParseUint(lit[2:], 16, 64)
		if err != nil {
			ps.fail("bad hex float %q", lit)
		}
		return FloatAttr{floatFromBits(bits, t), t}
	}
	v, err := strconv.ParseFloat(lit, 64)
	if err != nil && !math.IsInf(v, 0) {
		ps.fail("bad float %q", lit)
	}
	return FloatAttr{RoundFloat(v, t), t}
}

// locExpr is a parsed MLIR location: a file position, an alias (#loc3), or a wrapper
// around inner locations (a name "x"(inner), callsite(callee at caller), fused[...]).
type locExpr struct {
	loc   Loc
	known bool
	alias string
	inner []*locExpr
}

// optLoc parses a trailing loc(...) if present and has set called with its resolved
// position once the whole text is read.
func (ps *parser) optLoc(set func(Loc)) {
	if !ps.tryWord("loc") {
		return
	}
	ps.expect("(")
	e := ps.locBody()
	ps.expect(")")
	if set != nil {
		ps.pending = append(ps.pending, func() { set(ps.resolve(e, 0)) })
	}
}

func (ps *parser) locBody() *locExpr {
	switch {
	case ps.try("#"):
		return &locExpr{alias: "#" + ps.ident()}
	case ps.tryWord("unknown"):
		return &locExpr{}
	case ps.tryWord("callsite"):
		ps.expect("(")
		callee := ps.locBody()
		ps.expectWord("at")
		caller := ps.locBody()
		ps.expect(")")
		return &locExpr{inner: []*locExpr{callee, caller}}
	case ps.tryWord("fused"):
		if ps.try("<") {
			ps.attrValue()
			ps.expect(">")
		}
		e := &locExpr{}
		ps.expect("[")
		for !ps.try("]") {
			e.inner = append(e.inner, ps.locBody())
			ps.try(",")
		}
		return e
	}
	name := ps.str()
	switch {
	case ps.try(":"):
		l := Loc{File: name, Line: int(ps.int())}
		ps.expect(":")
		l.Col = int(ps.int())
		if ps.tryWord("to") { // a range: keep its start
			for ps.try(":") || isDigit(ps.peek()) {
				if isDigit(ps.peek()) {
					ps.int()
				}
			}
		}
		return &locExpr{loc: l, known: true}
	case ps.try("("):
		e := &locExpr{inner: []*locExpr{ps.locBody()}}
		ps.expect(")")
		return e
	}
	return &locExpr{}
}

// resolve returns the first file position found in e, following aliases.
func (ps *parser) resolve(e *locExpr, depth int) Loc {
	if e == nil || depth > 64 {
		return Loc{}
	}
	if e.known {
		return e.loc
	}
	if e.alias != "" {
		return ps.resolve(ps.aliases[e.alias], depth+1)
	}
	for _, in := range e.inner {
		if l := ps.resolve(in, depth+1); l != (Loc{}) {
			return l
		}
	}
	return Loc{}
}

// aliasDefs parses #name = loc(...) definitions.
func (ps *parser) aliasDefs() {
	for ps.peek() == '#' {
		ps.pos++
		name := "#" + ps.ident()
		ps.expect("=")
		ps.expectWord("loc")
		ps.expect("(")
		if ps.aliases == nil {
			ps.aliases = map[string]*locExpr{}
		}
		ps.aliases[name] = ps.locBody()
		ps.expect(")")
	}
}

// hintOf turns a printed value name into a Hint: numbered names (%3, %arg2) get none, so
// that they are numbered again.
func hintOf(name string) string {
	n := strings.TrimPrefix(name, "%")
	digits := strings.TrimPrefix(n, "arg")
	if digits != "" && strings.Trim(digits, "0123456789") == "" {
		return ""
	}
	return n
}

// ---- values and structure ----

func (ps *parser) push() { ps.scopes = append(ps.scopes, map[string]*Value{}) }
func (ps *parser) pop()  { ps.scopes = ps.scopes[:len(ps.scopes)-1] }

func (ps *parser) define(name string, v *Value) {
	if !strings.Contains(name, "#") {
		v.Hint = hintOf(name)
	}
	top := ps.scopes[len(ps.scopes)-1]
	if _, dup := top[name]; dup {
		ps.fail("value %s is defined twice", name)
	}
	top[name] = v
}

// valueName reads %name (without #i).
func (ps *parser) valueName() string {
	ps.expect("%")
	start := ps.pos
	for ps.pos < len(ps.src) && isIdentChar(ps.src[ps.pos]) {
		ps.pos++
	}
	if ps.pos == start {
		ps.fail("expected a value name")
	}
	return "%" + ps.src[start:ps.pos]
}

// operand reads a use: %name or %name#i.
func (ps *parser) operand() *Value {
	ps.ws()
	start := ps.pos
	name := ps.valueName()
	if ps.pos < len(ps.src) && ps.src[ps.pos] == '#' {
		ps.pos++
		start := ps.pos
		for ps.pos < len(ps.src) && isDigit(ps.src[ps.pos]) {
			ps.pos++
		}
		name += "#" + ps.src[start:ps.pos]
	}
	for i := len(ps.scopes) - 1; i >= 0; i-- {
		if v, ok := ps.scopes[i][name]; ok {
			return v
		}
	}
	ps.failAt(start, "use of undefined value %s", name)
	return nil
}

// operands reads "%a, %b, ..." as long as a value follows each comma.
func (ps *parser) operands() []*Value {
	var vs []*Value
	if ps.peek() != '%' || ps.atResultList() {
		return nil
	}
	vs = append(vs, ps.operand())
	for ps.commaThen('%') {
		vs = append(vs, ps.operand())
	}
	return vs
}

// atResultList reports whether the text ahead is the next op's "%a, %b:2 =" rather than
// operands (an op such as gpu.barrier or scf.yield may end with no operands).
func (ps *parser) atResultList() (yes bool) {
	save := ps.pos
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*parsePanic); !ok {
				panic(r)
			}
			yes = false
		}
		ps.pos = save
	}()
	for {
		ps.valueName()
		if ps.pos < len(ps.src) && (ps.src[ps.pos] == ':' || ps.src[ps.pos] == '#') {
			ps.pos++
			ps.int()
		}
		if !ps.commaThen('%') {
			break
		}
	}
	return ps.try("=")
}

// commaThen consumes a comma if c follows it.
func (ps *parser) commaThen(c byte) bool {
	save := ps.pos
	if ps.try(",") && ps.peek() == c {
		return true
	}
	ps.pos = save
	return false
}

// checkTypes fails unless the printed types match the operands' types.
func (ps *parser) checkTypes(vs []*Value, ts []Type) {
	if len(vs) != len(ts) {
		ps.fail("%d operands but %d types", len(vs), len(ts))
	}
	for i, v := range vs {
		if v.Type != ts[i] {
			ps.fail("operand %d has type %s, not %s", i, v.Type, ts[i])
		}
	}
}

func (ps *parser) fn() *Func {
	f := &Func{}
	ps.expectWord("tt.func")
	if ps.peek() != '@' {
		f.Visibility = ps.ident()
	}
	ps.expect("@")
	f.Name = ps.ident()
	f.Body = newRegion(nil)
	entry := f.Body.Entry()
	ps.push()
	defer ps.pop()
	ps.expect("(")
	for i := 0; !ps.try(")"); i++ {
		if i > 0 {
			ps.expect(",")
		}
		name := ps.valueName()
		ps.expect(":")
		a := entry.AddArg(ps.typ())
		ps.define(name, a)
		if attrs := ps.optAttrDict(); attrs != nil {
			for len(f.ArgAttrs) < i {
				f.ArgAttrs = append(f.ArgAttrs, nil)
			}
			f.ArgAttrs = append(f.ArgAttrs, attrs)
		}
		if ps.peekStr("loc") {
			for len(f.ArgLocs) <= i {
				f.ArgLocs = append(f.ArgLocs, Loc{})
			}
			ps.optLoc(func(l Loc) { f.ArgLocs[i] = l })
		}
	}
	if ps.try("->") {
		if ps.peek() == '(' {
			f.Results = ps.parenTypes()
		} else {
			f.Results = []Type{ps.typ()}
		}
	}
	if ps.tryWord("attributes") {
		f.Attrs = ps.attrDict()
	}
	ps.regionBody(f.Body, false)
	ps.optLoc(func(l Loc) { f.Loc = l })
	return f
}

// region parses {...} into a new region of op. Entry block arguments come either from
// args (already created, e.g. by scf.for's header, with their names) or from a ^bb0 header.
func (ps *parser) region(op *Op, args []string, types []Type, implicitTerm string) *Region {
	r := newRegion(op, types...)
	ps.push()
	defer ps.pop()
	for i, n := range args {
		ps.define(n, r.Entry().Args[i])
	}
	ps.regionBody(r, true)
	if implicitTerm != "" {
		if t := r.Entry().Terminator(); t == nil || !t.Has(Terminator) {
			r.Entry().Insert(len(r.Entry().Ops), &Op{Name: implicitTerm, Loc: op.Loc})
		}
	}
	return r
}

// regionBody parses { [^bb0(args):] ops } into r's blocks.
func (ps *parser) regionBody(r *Region, allowHeader bool) {
	ps.expect("{")
	blk := r.Entry()
	first := true
	for !ps.try("}") {
		if ps.peek() == '^' {
			if !allowHeader && first {
				ps.fail("unexpected block label")
			}
			ps.pos++
			ps.ident()
			if !first || len(blk.Ops) > 0 {
				blk = &Block{region: r}
				r.Blocks = append(r.Blocks, blk)
			}
			if ps.try("(") {
				for i := 0; !ps.try(")"); i++ {
					if i > 0 {
						ps.expect(",")
					}
					name := ps.valueName()
					ps.expect(":")
					ps.define(name, blk.AddArg(ps.typ()))
					ps.optLoc(nil)
				}
			}
			ps.expect(":")
			first = false
			continue
		}
		first = false
		blk.Insert(len(blk.Ops), ps.op())
	}
}

// op parses one operation with its result names and trailing location.
func (ps *parser) op() *Op {
	var names []string
	count := 0
	if ps.peek() == '%' {
		for {
			n := ps.valueName()
			c := 1
			if ps.pos < len(ps.src) && ps.src[ps.pos] == ':' {
				ps.pos++
				c = int(ps.int())
			}
			names = append(names, n)
			count += c
			if !ps.try(",") {
				break
			}
		}
		ps.expect("=")
	}
	op := &Op{}
	ps.ws()
	start := ps.pos
	if ps.peek() == '"' {
		op.Name = ps.str()
		parseGeneric(ps, op, count)
	} else {
		op.Name = ps.ident()
		d := opDefs[op.Name]
		if d == nil {
			ps.failAt(start, "unknown op %s (write it in the generic form)", op.Name)
		}
		d.syntax.parse(ps, op, count)
	}
	if len(op.Results) != count {
		ps.failAt(start, "%s has %d results but %d names", op.Name, len(op.Results), count)
	}
	ps.optLoc(func(l Loc) { op.Loc = l })
	switch {
	case len(names) == 1 && count > 1:
		for i, v := range op.Results {
			ps.define(names[0]+"#"+strconv.Itoa(i), v)
		}
		op.Results[0].Hint = hintOf(names[0])
	case len(names) == count:
		for i, v := range op.Results {
			ps.define(names[i], v)
		}
	case count > 0:
		ps.fail("result groups other than %%name:N are not supported")
	}
	return op
}
