package ptx

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// constraintClasses maps NVPTX inline asm constraint letters to register
// classes: b predicate, c and h 16-bit, r 32-bit, l 64-bit, f float, d double.
var constraintClasses = map[byte]regClass{
	'b': rcPred, 'c': rcB16, 'h': rcB16, 'r': rcB32, 'l': rcB64, 'f': rcF32, 'd': rcF64,
}

// asmKind is what one inline asm constraint asks for.
type asmKind uint8

const (
	asmSkip asmKind = iota // empty, or a clobber ("~{memory}")
	asmOut                 // an output register ("=r", "=&r")
	asmIn                  // an input register ("r")
	asmTied                // an input tied to output n ("0")
	asmImm                 // an immediate ("n", "i")
)

// asmConstraint is one parsed inline asm constraint. An unsupported output
// or input constraint has bad set; the error is reported when a call
// reaches it, so that errors come in the order of the constraints.
type asmConstraint struct {
	kind asmKind
	rc   regClass
	tied int
	bad  bool
	text string // as written, trimmed, for errors
}

// parseCache keeps what parse functions made of strings, across Compile
// calls (the results are never modified), up to maxParsed strings.
type parseCache struct {
	m sync.Map
	n atomic.Int32
}

const maxParsed = 4096

var constraintCache, templateCache parseCache

// parsed returns parse(s), from c when s was parsed before.
func parsed[T any](c *parseCache, s string, parse func(string) T) T {
	if v, ok := c.m.Load(s); ok {
		return v.(T)
	}
	v := parse(s)
	if c.n.Load() < maxParsed {
		if _, loaded := c.m.LoadOrStore(s, v); !loaded {
			c.n.Add(1)
		}
	}
	return v
}

// parseConstraints splits an inline asm constraint string.
func parseConstraints(s string) []asmConstraint {
	var out []asmConstraint
	for _, c := range strings.Split(s, ",") {
		c = strings.TrimSpace(c)
		k := asmConstraint{text: c}
		switch {
		case c == "" || strings.HasPrefix(c, "~"):
			k.kind = asmSkip
		case strings.HasPrefix(c, "="):
			letter := strings.TrimLeft(c, "=&")
			k.kind = asmOut
			k.bad = len(letter) != 1
			if !k.bad {
				k.rc, k.bad = constraintClass(letter[0])
			}
		default:
			if n, ok := atoi(c); ok {
				k.kind, k.tied = asmTied, n
				break
			}
			if c == "n" || c == "i" {
				k.kind = asmImm
				break
			}
			k.kind = asmIn
			k.bad = len(c) != 1
			if !k.bad {
				k.rc, k.bad = constraintClass(c[0])
			}
		}
		out = append(out, k)
	}
	return out
}

// constraintClass returns the register class of a constraint letter, and
// true when the letter has none.
func constraintClass(letter byte) (regClass, bool) {
	rc, ok := constraintClasses[letter]
	return rc, !ok
}

// inlineAsm substitutes operands into an inline PTX template. Outputs ("=r")
// are fresh registers; inputs are moved into registers of the constraint's
// class (repacking a vector into one register when the widths match); an
// input constraint "N" ties the input to output N; "n" and "i" take
// immediates; clobbers ("~{memory}") are ignored. Constraint strings and
// templates are parsed once (parseCache).
func (e *fnEmitter) inlineAsm(i *ir.InstCall, asm *ir.InlineAsm) error {
	cons, ok := e.c.asmConstraints[asm.Constraint]
	if !ok {
		cons = parsed(&constraintCache, asm.Constraint, parseConstraints)
		e.c.asmConstraints[asm.Constraint] = cons
	}
	tmpl, ok := e.c.asmTemplates[asm.Asm]
	if !ok {
		tmpl = parsed(&templateCache, asm.Asm, parseTemplate)
		e.c.asmTemplates[asm.Asm] = tmpl
	}
	_, void := i.Typ.(*types.VoidType)
	var resLeaves []types.Type
	if !void {
		resLeaves = e.leaves(i.Typ)
	}
	outs, outRCs, ins := e.asmOuts[:0], e.asmOutRCs[:0], e.asmIns[:0]
	arg := 0
	for _, c := range cons {
		switch c.kind {
		case asmSkip:
			continue
		case asmOut:
			if c.bad {
				return fmt.Errorf("inline asm output constraint %q is not supported", c.text)
			}
			if len(outs) >= len(resLeaves) {
				return fmt.Errorf("inline asm has more outputs than its result type %s", i.Typ)
			}
			outs = append(outs, e.newReg(c.rc))
			outRCs = append(outRCs, c.rc)
			continue
		}
		if arg >= len(i.Args) {
			return fmt.Errorf("inline asm constraint %q has no argument", c.text)
		}
		a := i.Args[arg]
		arg++
		switch c.kind {
		case asmTied:
			if c.tied >= len(outs) {
				return fmt.Errorf("inline asm constraint %q ties to a missing output", c.text)
			}
			rc := outRCs[c.tied]
			op, err := e.asmInput(a, rc)
			if err != nil {
				return err
			}
			if e.diesHere(a, e.cur) {
				// the output takes over the input's register: no copy, as LLVM's
				// coalescing of tied operands (wgmma chains its accumulators so)
				outs[c.tied] = op
			} else {
				e.emit("mov."+rc.movType(), outs[c.tied], op)
			}
			ins = append(ins, outs[c.tied])
		case asmImm:
			op, err := e.getOne(a)
			if err != nil || isReg(op) {
				return fmt.Errorf("inline asm constraint %q needs a constant", c.text)
			}
			ins = append(ins, op)
		default:
			if c.bad {
				return fmt.Errorf("inline asm input constraint %q is not supported", c.text)
			}
			op, err := e.asmInput(a, c.rc)
			if err != nil {
				return err
			}
			ins = append(ins, op)
		}
	}
	e.asmOuts, e.asmOutRCs, e.asmIns = outs, outRCs, ins
	whole := false // one output register holds the whole result vector
	if len(outs) != len(resLeaves) {
		if len(outs) != 1 || void {
			return fmt.Errorf("inline asm has %d outputs for result type %s", len(outs), i.Typ)
		}
		whole = true
	}
	ops := append(append(e.asmOps[:0], outs...), ins...)
	e.asmOps = ops
	if err := tmpl.check(len(ops)); err != nil {
		return err
	}
	e.w.WriteString("\t// begin inline asm\n")
	tmpl.write(e.w, ops)
	e.w.WriteString("\t// end inline asm\n")
	if len(outs) == 0 {
		return nil
	}
	result := e.opSlice(len(resLeaves))[:0]
	for k, o := range outs {
		rc := outRCs[k]
		want := resLeaves[k : k+1]
		if whole {
			want = resLeaves
		}
		if len(want) == 1 {
			if tc, err := e.lay.classOf(want[0]); err == nil && tc == rc {
				result = append(result, o)
				continue
			}
			if b := intBits(want[0]); b > 1 && b < rc.bits() && rc != rcPred {
				// A narrower integer result ("=r" for an i8) is the register's low bits.
				d, err := e.castLeaf("trunc", o, classType(rc), want[0])
				if err != nil {
					return err
				}
				result = append(result, d)
				continue
			}
		}
		ops, err := e.repack([]string{o}, []types.Type{classType(rc)}, want)
		if err != nil {
			return err
		}
		result = append(result, ops...)
	}
	e.set(i, result)
	return nil
}

// diesHere reports whether a, the input of a tied inline asm operand in block b (or the
// first operand of an fmul, see overwritesOperand), is a phi dead after its use there
// (phiDiesAt), the only extractvalue of its struct field, or an fmul, used by this
// operand alone: its register holds no other value, and nothing reads it later.
func (e *fnEmitter) diesHere(a value.Value, b *ir.Block) bool {
	switch a := a.(type) {
	case *ir.InstPhi:
		return e.infoOf(a).uses.other == 1 || e.phiDiesAt(a, b)
	case *ir.InstExtractValue:
		return e.infoOf(a).uses.other == 1 && len(a.Indices) == 1 && e.fieldUses[fieldKey{a.X, a.Indices[0]}] == 1
	case *ir.InstFMul:
		return e.infoOf(a).uses.other == 1 // binary gives an fmul registers of its own
	}
	return false
}

// noteTiedInputs marks the fmuls that call i, an inline asm, takes as tied operands
// (overwritesOperand).
func (e *fnEmitter) noteTiedInputs(i *ir.InstCall) {
	asm, ok := i.Callee.(*ir.InlineAsm)
	if !ok {
		return
	}
	arg := 0
	for _, c := range parsed(&constraintCache, asm.Constraint, parseConstraints) {
		if c.kind == asmSkip || c.kind == asmOut {
			continue
		}
		if arg >= len(i.Args) {
			return // inlineAsm reports it
		}
		if m, ok := i.Args[arg].(*ir.InstFMul); ok && c.kind == asmTied {
			if in := e.infoOf(m); in != nil {
				in.tied = true
			}
		}
		arg++
	}
}

// overwritesOperand reports whether fmul m writes its result into the registers of its
// first operand: m is used once, as a tied inline asm operand, and the operand dies at m.
// A loop's accumulator scaled before wgmma adds to it (attention's acc * alpha) so stays
// in the registers of the loop's phi: the wgmma's tied outputs are the phi's registers,
// and the back edge copies nothing out of an accumulator still in flight.
func (e *fnEmitter) overwritesOperand(m *ir.InstFMul) bool {
	in := e.infoOf(m)
	return in.tied && in.uses.other == 1 && m.X != m.Y && e.diesHere(m.X, e.cur)
}

// asmInput returns a register of class rc holding the bits of a.
func (e *fnEmitter) asmInput(a value.Value, rc regClass) (string, error) {
	ops, err := e.get(a)
	if err != nil {
		return "", err
	}
	ts := e.leaves(a.Type())
	if len(ts) == 1 {
		if src, err := e.lay.classOf(ts[0]); err == nil && src == rc {
			return e.inReg(ops[0], rc), nil
		}
	}
	if rc == rcPred {
		return "", fmt.Errorf("inline asm operand %s of type %s does not fit a predicate", a.Ident(), a.Type())
	}
	if len(ts) == 1 {
		if b := intBits(ts[0]); b > 1 && b < rc.bits() {
			// A narrower integer operand ("r" for an i8) goes zero-extended.
			d, err := e.castLeaf("zext", ops[0], ts[0], classType(rc))
			if err != nil {
				return "", err
			}
			return e.inReg(d, rc), nil
		}
	}
	out, err := e.repack(ops, ts, []types.Type{classType(rc)})
	if err != nil {
		return "", fmt.Errorf("inline asm operand %s of type %s does not fit constraint class %s: %v", a.Ident(), a.Type(), regClassInfo[rc].decl, err)
	}
	return e.inReg(out[0], rc), nil
}

// classType is an LLVM type whose register class is rc.
func classType(rc regClass) types.Type {
	switch rc {
	case rcPred:
		return types.I1
	case rcB16:
		return types.I16
	case rcF16:
		return types.Half
	case rcB32:
		return types.I32
	case rcF32:
		return types.Float
	case rcF64:
		return types.Double
	}
	return types.I64
}

// asmTemplate is a parsed inline asm template: its non-empty lines, trimmed,
// as literal text and operand references.
type asmTemplate struct {
	lines [][]asmPart
	refs  []asmRef // every operand reference, in order
	maxOp int      // the largest operand number referred to; -1 for none
	badOp bool     // some reference is not a number
	err   error    // a malformed template ("$" at the end, an unclosed "${")
}

// asmPart is literal text, or operand op when op >= 0.
type asmPart struct {
	text string
	op   int
}

// asmRef is a reference as written ("1" for "$1" and "${1:x}") and its
// operand number, -1 when it is not a number.
type asmRef struct {
	num string
	n   int
}

// parseTemplate parses an LLVM inline asm template: $N, ${N} and
// ${N:modifier} refer to operand N, and $$ is $.
func parseTemplate(tmpl string) *asmTemplate {
	t := &asmTemplate{maxOp: -1}
	var parts []asmPart
	lit := 0 // start of the pending literal text
	flush := func(end int) {
		if end > lit {
			parts = append(parts, asmPart{tmpl[lit:end], -1})
		}
	}
	for k := 0; k < len(tmpl); k++ {
		if tmpl[k] != '$' {
			continue
		}
		flush(k)
		k++
		if k >= len(tmpl) {
			t.err = fmt.Errorf("inline asm template ends with '$'")
			break
		}
		var num string
		switch {
		case tmpl[k] == '$':
			lit = k // the second '$' starts the next literal
			continue
		case tmpl[k] == '{':
			end := strings.IndexByte(tmpl[k:], '}')
			if end < 0 {
				t.err = fmt.Errorf("inline asm template has an unclosed ${")
				break
			}
			num, _, _ = strings.Cut(tmpl[k+1:k+end], ":")
			k += end
		default:
			j := k
			for j < len(tmpl) && tmpl[j] >= '0' && tmpl[j] <= '9' {
				j++
			}
			num = tmpl[k:j]
			k = j - 1
		}
		if t.err != nil {
			break
		}
		n, ok := atoi(num)
		if !ok {
			n = -1
		}
		t.refs = append(t.refs, asmRef{num, n})
		t.maxOp, t.badOp = max(t.maxOp, n), t.badOp || n < 0
		parts = append(parts, asmPart{op: max(n, 0)})
		lit = k + 1
	}
	if t.err == nil {
		flush(len(tmpl))
	}
	t.lines = splitLines(parts)
	return t
}

// splitLines cuts template parts into lines at newlines and trims white
// space off both ends of every line, dropping empty lines. Operands are
// never empty and hold no white space, so this trims the substituted text
// as well.
func splitLines(parts []asmPart) [][]asmPart {
	var lines [][]asmPart
	var line []asmPart
	end := func() {
		for len(line) > 0 && line[0].op < 0 {
			if line[0].text = strings.TrimLeftFunc(line[0].text, unicode.IsSpace); line[0].text != "" {
				break
			}
			line = line[1:]
		}
		for n := len(line); n > 0 && line[n-1].op < 0; n = len(line) {
			if line[n-1].text = strings.TrimRightFunc(line[n-1].text, unicode.IsSpace); line[n-1].text != "" {
				break
			}
			line = line[:n-1]
		}
		if len(line) > 0 {
			lines = append(lines, line)
		}
		line = nil
	}
	for _, p := range parts {
		for p.op < 0 {
			before, after, found := strings.Cut(p.text, "\n")
			line = append(line, asmPart{before, -1})
			if !found {
				break
			}
			end()
			p.text = after
		}
		if p.op >= 0 {
			line = append(line, p)
		}
	}
	end()
	return lines
}

// check reports a malformed template, or a reference to an operand beyond
// the n there are.
func (t *asmTemplate) check(n int) error {
	if t.maxOp >= n || t.badOp {
		for _, r := range t.refs {
			if r.n < 0 || r.n >= n {
				return fmt.Errorf("inline asm template refers to operand $%s of %d", r.num, n)
			}
		}
	}
	return t.err
}

// write writes the template's lines with the operands ops substituted, each
// line indented by a tab.
func (t *asmTemplate) write(w *textBuf, ops []string) {
	for _, line := range t.lines {
		w.WriteByte('\t')
		for _, p := range line {
			if p.op >= 0 {
				w.WriteString(ops[p.op])
			} else {
				w.WriteString(p.text)
			}
		}
		w.WriteByte('\n')
	}
}

// atoi parses a non-negative decimal number.
func atoi(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for _, ch := range []byte(s) {
		if ch < '0' || ch > '9' {
			return 0, false
		}
		n = n*10 + int(ch-'0')
	}
	return n, true
}

// phiUse is where a phi is defined and the blocks of its uses (a phi's use is in the
// incoming block), one entry per use.
type phiUse struct {
	def  *ir.Block
	uses []*ir.Block
}

// phiDiesAt reports whether phi p, used once in block b, is dead after that use: no
// other use is in b or in a block that b reaches without passing through p's block,
// which redefines it. A loop-carried value (wgmma's accumulators) dies so at its use in
// the loop even though the code after the loop reads the phi too.
func (e *fnEmitter) phiDiesAt(p *ir.InstPhi, b *ir.Block) bool {
	if e.phiUses == nil {
		e.phiUses = map[*ir.InstPhi]phiUse{}
		for _, blk := range e.f.Blocks {
			for _, inst := range blk.Insts {
				if phi, ok := inst.(*ir.InstPhi); ok {
					u := e.phiUses[phi]
					u.def = blk
					e.phiUses[phi] = u
					for _, inc := range phi.Incs {
						q, ok := inc.X.(*ir.InstPhi)
						if pred, isBlock := inc.Pred.(*ir.Block); ok && isBlock {
							e.notePhiUse(q, pred)
						}
					}
					continue
				}
				eachOperand(inst, func(op value.Value, _ bool) {
					if q, ok := op.(*ir.InstPhi); ok {
						e.notePhiUse(q, blk)
					}
				})
			}
			if u, ok := blk.Term.(value.User); ok {
				for _, op := range u.Operands() {
					if q, ok := (*op).(*ir.InstPhi); ok {
						e.notePhiUse(q, blk)
					}
				}
			}
		}
	}
	pu := e.phiUses[p]
	// the blocks b reaches without entering pu.def
	reached := map[*ir.Block]bool{}
	work := []*ir.Block{b}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range x.Term.Succs() {
			if s != pu.def && !reached[s] {
				reached[s] = true
				work = append(work, s)
			}
		}
	}
	inB := 0
	for _, u := range pu.uses {
		if u == b {
			inB++
		} else if reached[u] {
			return false
		}
	}
	return inB == 1 && !reached[b]
}

// notePhiUse records a use of phi p in block b.
func (e *fnEmitter) notePhiUse(p *ir.InstPhi, b *ir.Block) {
	u := e.phiUses[p]
	u.uses = append(u.uses, b)
	e.phiUses[p] = u
}
