package tileir

import (
	"slices"
	"strconv"
	"strings"
)

// PrintOptions control the printer. The zero value prints what Triton's TTIR dump prints,
// less the locations.
type PrintOptions struct {
	// Debuginfo appends loc(...) to every op, function and argument, as
	// mlir-print-debuginfo does (inline rather than through #loc aliases).
	Debuginfo bool
	// IgnoreHints numbers every value (%0, %arg1) instead of naming it after its Hint.
	IgnoreHints bool
}

// String prints the module with default options.
func (m *Module) String() string { return m.Print(PrintOptions{}) }

// Print prints the module in TTIR's textual form.
func (m *Module) Print(opts PrintOptions) string {
	p := &printer{opts: opts}
	p.b.WriteString("module")
	if len(m.Attrs) > 0 {
		p.b.WriteString(" attributes ")
		p.b.WriteString(dictString(m.Attrs))
	}
	p.b.WriteString(" {\n")
	p.indent = 1
	for _, f := range m.Funcs {
		p.fn(f)
	}
	p.b.WriteString("}")
	p.loc(m.Loc)
	p.b.WriteString("\n")
	return p.b.String()
}

// String prints the function alone (as it appears inside a module, unindented).
func (f *Func) String() string {
	p := &printer{}
	p.fn(f)
	return p.b.String()
}

// String prints op with its regions, for debugging; values defined outside op print as %?.
func (op *Op) String() string {
	p := &printer{names: map[*Value]string{}}
	scope, c := &nameScope{used: map[string]bool{}}, counters{}
	p.nameOp(op, scope, &c)
	for _, r := range op.Regions {
		p.nameRegion(r, scope, c)
	}
	p.op(op)
	return strings.TrimSuffix(p.b.String(), "\n")
}

type printer struct {
	b      strings.Builder
	opts   PrintOptions
	names  map[*Value]string
	indent int
}

// counters are the SSA numbering state MLIR carries from a region into its nested regions.
type counters struct{ value, arg, conflict int }

// nameScope is the set of names taken in a region and the regions around it.
type nameScope struct {
	used   map[string]bool
	parent *nameScope
}

func (s *nameScope) taken(n string) bool {
	for ; s != nil; s = s.parent {
		if s.used[n] {
			return true
		}
	}
	return false
}

// unique returns name, or name_N with the next free conflict number, and records it.
func (s *nameScope) unique(name string, c *counters) string {
	if s.taken(name) {
		for {
			probe := name + "_" + strconv.Itoa(c.conflict)
			c.conflict++
			if !s.taken(probe) {
				name = probe
				break
			}
		}
	}
	s.used[name] = true
	return name
}

// nameRegion numbers a region the way MLIR's SSANameState does: every block argument and op
// result of the region first, then each nested region starting from the counters as they
// stand after the whole region, so sibling regions reuse the same numbers.
func (p *printer) nameRegion(r *Region, parent *nameScope, c counters) {
	scope := &nameScope{used: map[string]bool{}, parent: parent}
	for _, b := range r.Blocks {
		for _, a := range b.Args {
			if h := p.hint(a); h != "" {
				p.names[a] = "%" + scope.unique(h, &c)
			} else {
				p.names[a] = "%arg" + strconv.Itoa(c.arg)
			}
			c.arg++ // named arguments take a number too, as in MLIR
		}
		for _, op := range b.Ops {
			p.nameOp(op, scope, &c)
		}
	}
	for _, b := range r.Blocks {
		for _, op := range b.Ops {
			for _, sub := range op.Regions {
				p.nameRegion(sub, scope, c)
			}
		}
	}
}

func (p *printer) hint(v *Value) string {
	if p.opts.IgnoreHints || v.Hint == "" {
		return ""
	}
	return sanitize(v.Hint)
}

// sanitize makes a hint a valid SSA name as MLIR does: characters other than letters,
// digits and _ $ . - become '_', and a leading digit gets a '_' before it.
func sanitize(h string) string {
	b := []byte(h)
	for i, c := range b {
		if !isIdentChar(c) {
			b[i] = '_'
		}
	}
	if isDigit(b[0]) {
		return "_" + string(b)
	}
	return string(b)
}

// nameOp names op's results. A result's Hint wins; then the op's own hints (constants,
// tt.split); otherwise the results are numbered. Several results are one group
// (%4:2, used as %4#1) unless every result has its own name; the first result's Hint
// names a group.
func (p *printer) nameOp(op *Op, scope *nameScope, c *counters) {
	n := len(op.Results)
	if n == 0 {
		return
	}
	names := make([]string, n)
	for i, v := range op.Results {
		names[i] = p.hint(v)
	}
	if slices.Contains(names, "") && (n == 1 || names[0] == "") {
		if d := op.Def(); d != nil && d.hints != nil {
			names = d.hints(op)
		}
	}
	if !slices.Contains(names, "") {
		for i, v := range op.Results {
			p.names[v] = "%" + scope.unique(names[i], c)
		}
		return
	}
	base := names[0]
	if base == "" {
		base = strconv.Itoa(c.value)
		c.value++
	} else {
		base = scope.unique(base, c)
	}
	if n == 1 {
		p.names[op.Results[0]] = "%" + base
		return
	}
	for i, v := range op.Results {
		p.names[v] = "%" + base + "#" + strconv.Itoa(i)
	}
}

func (p *printer) fn(f *Func) {
	p.names = map[*Value]string{}
	p.nameRegion(f.Body, nil, counters{})
	p.line()
	p.b.WriteString("tt.func ")
	if f.Visibility != "" {
		p.b.WriteString(f.Visibility + " ")
	}
	p.b.WriteString("@" + f.Name + "(")
	for i, a := range f.Args() {
		if i > 0 {
			p.b.WriteString(", ")
		}
		p.b.WriteString(p.names[a] + ": " + a.Type.String())
		if i < len(f.ArgAttrs) && len(f.ArgAttrs[i]) > 0 {
			p.b.WriteString(" " + dictString(f.ArgAttrs[i]))
		}
		if i < len(f.ArgLocs) {
			p.loc(f.ArgLocs[i])
		}
	}
	p.b.WriteString(")")
	if len(f.Results) == 1 {
		p.b.WriteString(" -> " + f.Results[0].String())
	} else if len(f.Results) > 1 {
		p.b.WriteString(" -> (" + typeList(f.Results) + ")")
	}
	if len(f.Attrs) > 0 {
		p.b.WriteString(" attributes " + dictString(f.Attrs))
	}
	p.b.WriteString(" ")
	p.region(f.Body, false, true)
	p.loc(f.Loc)
	p.b.WriteString("\n")
}

func (p *printer) line() {
	for range p.indent {
		p.b.WriteString("  ")
	}
}

func (p *printer) loc(l Loc) {
	if p.opts.Debuginfo {
		p.b.WriteString(" " + l.String())
	}
}

// region prints {\n ops }. entryArgs prints the entry block's ^bb0(...) header;
// terminators=false leaves out a trailing implicit terminator.
func (p *printer) region(r *Region, entryArgs, terminators bool) {
	p.b.WriteString("{\n")
	p.indent++
	for bi, blk := range r.Blocks {
		if bi > 0 || (entryArgs && len(blk.Args) > 0) {
			p.indent--
			p.line()
			p.b.WriteString("^bb" + strconv.Itoa(bi))
			if len(blk.Args) > 0 {
				p.b.WriteString("(")
				for i, a := range blk.Args {
					if i > 0 {
						p.b.WriteString(", ")
					}
					p.b.WriteString(p.names[a] + ": " + a.Type.String())
				}
				p.b.WriteString(")")
			}
			p.b.WriteString(":\n")
			p.indent++
		}
		for i, op := range blk.Ops {
			if !terminators && i == len(blk.Ops)-1 && op.Has(Terminator) && len(op.Operands) == 0 && len(op.Attrs) == 0 {
				continue
			}
			p.op(op)
		}
	}
	p.indent--
	p.line()
	p.b.WriteString("}")
}

func (p *printer) op(op *Op) {
	p.line()
	if n := len(op.Results); n > 0 {
		first := p.names[op.Results[0]]
		if strings.Contains(first, "#") {
			p.b.WriteString(first[:strings.IndexByte(first, '#')] + ":" + strconv.Itoa(n))
		} else {
			for i, v := range op.Results {
				if i > 0 {
					p.b.WriteString(", ")
				}
				p.b.WriteString(p.name(v))
			}
		}
		p.b.WriteString(" = ")
	}
	if d := op.Def(); d != nil && !d.generic {
		p.b.WriteString(op.Name)
		d.syntax.print(p, op)
	} else {
		p.b.WriteString(quote(op.Name))
		printGeneric(p, op)
	}
	p.loc(op.Loc)
	p.b.WriteString("\n")
}

// name returns v's printed name; values not numbered by this printer show as %?.
func (p *printer) name(v *Value) string {
	if n, ok := p.names[v]; ok {
		return n
	}
	return "%?"
}

func (p *printer) w(s string) { p.b.WriteString(s) }

// vals writes values separated by ", ".
func (p *printer) vals(vs []*Value) {
	for i, v := range vs {
		if i > 0 {
			p.b.WriteString(", ")
		}
		p.b.WriteString(p.name(v))
	}
}

// attrDict writes " {...}" with op's attributes except those named in elide, if any remain.
func (p *printer) attrDict(op *Op, elide ...string) {
	var rest []NamedAttr
	for _, a := range op.Attrs {
		if !slices.Contains(elide, a.Name) {
			rest = append(rest, a)
		}
	}
	if len(rest) > 0 {
		p.b.WriteString(" " + dictString(rest))
	}
}

func typeList(ts []Type) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return strings.Join(parts, ", ")
}

func valueTypes(vs []*Value) []Type {
	ts := make([]Type, len(vs))
	for i, v := range vs {
		ts[i] = v.Type
	}
	return ts
}

// functionalType prints (a, b) -> r or (a) -> (r1, r2).
func functionalType(in, out []Type) string {
	s := "(" + typeList(in) + ") -> "
	if len(out) == 1 {
		return s + out[0].String()
	}
	return s + "(" + typeList(out) + ")"
}
