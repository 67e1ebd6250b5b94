package simt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The PTX that lower writes as inline assembly is parsed into statements over a small
// register file: the asm operands $0..$n-1 and the registers the template declares.

// pArg is one operand of a PTX statement.
type pArg struct {
	kind  pArgKind
	reg   int   // pReg: the register's index
	imm   int64 // pImm; pMem: the offset
	elems []pArg
	// pMem: base is the address register; elems, for a tensor copy's [map, {coords}],
	// the coordinates.
	base int
	name string // a label (bra)
}

type pArgKind uint8

const (
	pReg pArgKind = iota
	pImm
	pVec
	pMem
	pLabel
)

// pStmt is one PTX instruction: a guard, the opcode split at dots, the operands.
type pStmt struct {
	guard    int // register index, -1 when unguarded
	negGuard bool
	opcode   []string
	args     []pArg
	text     string
}

// pProgram is a parsed inline asm template.
type pProgram struct {
	stmts  []pStmt
	labels map[string]int // label -> statement index
	// regs are the widths of the registers: operands first, then declared ones.
	regs  []int
	names map[string]int
}

// parsePTX parses an asm template whose operands have the given widths in bits.
func parsePTX(text string, operandBits []int) (*pProgram, error) {
	p := &pProgram{labels: map[string]int{}, regs: append([]int(nil), operandBits...), names: map[string]int{}}
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		for _, st := range strings.Split(line, ";") {
			st = strings.TrimSpace(st)
			if st == "" || st == "{" || st == "}" {
				continue
			}
			if strings.HasSuffix(st, ":") && !strings.ContainsAny(st, " \t") {
				p.labels[strings.TrimSuffix(st, ":")] = len(p.stmts)
				continue
			}
			if err := p.statement(st); err != nil {
				return nil, fmt.Errorf("PTX %q: %v", st, err)
			}
		}
	}
	for _, s := range p.stmts {
		for _, a := range s.args {
			if a.kind == pLabel {
				if _, ok := p.labels[a.name]; !ok {
					return nil, fmt.Errorf("PTX %q: no label %s", s.text, a.name)
				}
			}
		}
	}
	return p, nil
}

var regWidths = map[string]int{".pred": 1, ".b8": 8, ".u8": 8, ".s8": 8, ".b16": 16, ".u16": 16, ".s16": 16, ".f16": 16,
	".b32": 32, ".u32": 32, ".s32": 32, ".f32": 32, ".b64": 64, ".u64": 64, ".s64": 64, ".f64": 64}

func (p *pProgram) statement(st string) error {
	if strings.HasPrefix(st, ".reg") {
		f := strings.Fields(st)
		if len(f) != 3 {
			return fmt.Errorf("register declaration")
		}
		w, ok := regWidths[f[1]]
		if !ok {
			return fmt.Errorf("register type %s", f[1])
		}
		name, count, ranged := strings.Cut(f[2], "<")
		if !ranged {
			p.names[name] = len(p.regs)
			p.regs = append(p.regs, w)
			return nil
		}
		n, err := strconv.Atoi(strings.TrimSuffix(count, ">")) // .reg .b8 tmp<4>: tmp0 … tmp3
		if err != nil || n <= 0 || !strings.HasSuffix(count, ">") {
			return fmt.Errorf("register declaration")
		}
		for i := range n {
			p.names[name+strconv.Itoa(i)] = len(p.regs)
			p.regs = append(p.regs, w)
		}
		return nil
	}
	s := pStmt{guard: -1, text: st}
	if strings.HasPrefix(st, "@") {
		sp := strings.IndexAny(st, " \t")
		if sp < 0 {
			return fmt.Errorf("guard without instruction")
		}
		g := st[1:sp]
		if strings.HasPrefix(g, "!") {
			s.negGuard, g = true, g[1:]
		}
		r, err := p.register(g)
		if err != nil {
			return err
		}
		s.guard = r
		st = strings.TrimSpace(st[sp:])
	}
	opcode, rest, _ := strings.Cut(st, " ")
	s.opcode = strings.Split(opcode, ".")
	for _, a := range splitTop(rest) {
		arg, err := p.arg(a, s.opcode[0] == "bra")
		if err != nil {
			return err
		}
		s.args = append(s.args, arg)
	}
	p.stmts = append(p.stmts, s)
	return nil
}

// splitTop splits at commas outside braces and brackets.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

func (p *pProgram) register(name string) (int, error) {
	if strings.HasPrefix(name, "$") {
		n, err := strconv.Atoi(name[1:])
		if err != nil || n < 0 || n >= len(p.regs) {
			return 0, fmt.Errorf("operand %s", name)
		}
		return n, nil
	}
	if r, ok := p.names[name]; ok {
		return r, nil
	}
	return 0, fmt.Errorf("undeclared register %s", name)
}

func (p *pProgram) arg(a string, label bool) (pArg, error) {
	switch {
	case strings.HasPrefix(a, "{"):
		var v pArg
		v.kind = pVec
		for _, e := range splitTop(strings.TrimSuffix(strings.TrimPrefix(a, "{"), "}")) {
			x, err := p.arg(e, false)
			if err != nil {
				return pArg{}, err
			}
			v.elems = append(v.elems, x)
		}
		return v, nil
	case strings.HasPrefix(a, "["):
		in := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(a, "["), "]"))
		m := pArg{kind: pMem}
		if parts := splitTop(in); len(parts) == 2 { // [tensor map, {coordinates}]
			in = parts[0]
			c, err := p.arg(parts[1], false)
			if err != nil {
				return pArg{}, err
			}
			m.elems = c.elems
		}
		base, off, _ := strings.Cut(in, "+")
		r, err := p.register(strings.TrimSpace(base))
		if err != nil {
			return pArg{}, err
		}
		m.base = r
		if off = strings.TrimSpace(off); off != "" {
			if m.imm, err = strconv.ParseInt(off, 0, 64); err != nil {
				return pArg{}, fmt.Errorf("address offset %s", off)
			}
		}
		return m, nil
	case label:
		return pArg{kind: pLabel, name: a}, nil
	}
	if v, err := strconv.ParseInt(a, 0, 64); err == nil {
		return pArg{kind: pImm, imm: v}, nil
	}
	if v, err := strconv.ParseFloat(a, 64); err == nil && strings.Contains(a, ".") {
		return pArg{kind: pImm, imm: int64(math.Float64bits(v))}, nil // a double literal: its bits
	}
	r, err := p.register(a)
	if err != nil {
		return pArg{}, err
	}
	return pArg{kind: pReg, reg: r}, nil
}
