package ptx

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// constraintClasses maps NVPTX inline asm constraint letters to register
// classes: b predicate, c and h 16-bit, r 32-bit, l 64-bit, f float, d double.
var constraintClasses = map[byte]regClass{
	'b': rcPred, 'c': rcB16, 'h': rcB16, 'r': rcB32, 'l': rcB64, 'f': rcF32, 'd': rcF64,
}

// inlineAsm substitutes operands into an inline PTX template. Outputs ("=r")
// are fresh registers; inputs are moved into registers of the constraint's
// class (repacking a vector into one register when the widths match); an
// input constraint "N" ties the input to output N; "n" and "i" take
// immediates; clobbers ("~{memory}") are ignored.
func (e *fnEmitter) inlineAsm(i *ir.InstCall, asm *ir.InlineAsm) error {
	var outs []string           // output operands
	var outTypes [][]types.Type // LLVM leaf types read back from each output
	var ins []string
	resLeaves := e.leaves(i.Typ)
	if types.Equal(i.Typ, types.Void) {
		resLeaves = nil
	}
	arg := 0
	var result []string
	for _, c := range strings.Split(asm.Constraint, ",") {
		c = strings.TrimSpace(c)
		switch {
		case c == "" || strings.HasPrefix(c, "~"):
			continue
		case strings.HasPrefix(c, "="):
			letter := strings.TrimLeft(c, "=&")
			rc, ok := constraintClasses[letter[0]]
			if !ok || len(letter) != 1 {
				return fmt.Errorf("inline asm output constraint %q is not supported", c)
			}
			if len(outs) >= len(resLeaves) {
				return fmt.Errorf("inline asm has more outputs than its result type %s", i.Typ)
			}
			r := e.newReg(rc)
			outs = append(outs, r)
			outTypes = append(outTypes, []types.Type{resLeaves[len(outs)-1]})
		default:
			if arg >= len(i.Args) {
				return fmt.Errorf("inline asm constraint %q has no argument", c)
			}
			a := i.Args[arg]
			arg++
			if n, ok := atoi(c); ok { // tied to output n
				if n >= len(outs) {
					return fmt.Errorf("inline asm constraint %q ties to a missing output", c)
				}
				op, err := e.asmInput(a, classOfReg(outs[n]))
				if err != nil {
					return err
				}
				e.emit("mov."+classOfReg(outs[n]).movType(), outs[n], op)
				ins = append(ins, outs[n])
				continue
			}
			if c == "n" || c == "i" {
				op, err := e.getOne(a)
				if err != nil || isReg(op) {
					return fmt.Errorf("inline asm constraint %q needs a constant", c)
				}
				ins = append(ins, op)
				continue
			}
			rc, ok := constraintClasses[c[0]]
			if !ok || len(c) != 1 {
				return fmt.Errorf("inline asm input constraint %q is not supported", c)
			}
			op, err := e.asmInput(a, rc)
			if err != nil {
				return err
			}
			ins = append(ins, op)
		}
	}
	if len(outs) != len(resLeaves) {
		if len(outs) != 1 || types.Equal(i.Typ, types.Void) {
			return fmt.Errorf("inline asm has %d outputs for result type %s", len(outs), i.Typ)
		}
		outTypes[0] = resLeaves // one register holding a whole vector
	}
	text, err := substitute(asm.Asm, append(append([]string(nil), outs...), ins...))
	if err != nil {
		return err
	}
	e.w.WriteString("\t// begin inline asm\n")
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			e.w.WriteString("\t" + line + "\n")
		}
	}
	e.w.WriteString("\t// end inline asm\n")
	for k, o := range outs {
		rc := classOfReg(o)
		if len(outTypes[k]) == 1 {
			if tc, err := e.lay.classOf(outTypes[k][0]); err == nil && tc == rc {
				result = append(result, o)
				continue
			}
		}
		ops, err := e.repack([]string{o}, []types.Type{classType(rc)}, outTypes[k])
		if err != nil {
			return err
		}
		result = append(result, ops...)
	}
	if result != nil {
		e.vals[i] = result
	}
	return nil
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

// classOfReg returns the class of a register from its name.
func classOfReg(r string) regClass {
	best, n := regClass(0), 0
	for rc := regClass(0); rc < numRegClasses; rc++ {
		p := regClassInfo[rc].prefix
		if strings.HasPrefix(r, p) && len(p) > n {
			if _, ok := atoi(r[len(p):]); ok {
				best, n = rc, len(p)
			}
		}
	}
	return best
}

// substitute replaces $N and ${N} / ${N:modifier} in an LLVM inline asm
// template with operand N, and $$ with $.
func substitute(tmpl string, ops []string) (string, error) {
	var b strings.Builder
	for k := 0; k < len(tmpl); k++ {
		ch := tmpl[k]
		if ch != '$' {
			b.WriteByte(ch)
			continue
		}
		k++
		if k >= len(tmpl) {
			return "", fmt.Errorf("inline asm template ends with '$'")
		}
		var num string
		switch {
		case tmpl[k] == '$':
			b.WriteByte('$')
			continue
		case tmpl[k] == '{':
			end := strings.IndexByte(tmpl[k:], '}')
			if end < 0 {
				return "", fmt.Errorf("inline asm template has an unclosed ${")
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
		n, ok := atoi(num)
		if !ok || n >= len(ops) {
			return "", fmt.Errorf("inline asm template refers to operand $%s of %d", num, len(ops))
		}
		b.WriteString(ops[n])
	}
	return b.String(), nil
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
