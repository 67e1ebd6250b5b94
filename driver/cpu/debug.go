package cpu

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gotriton/gotriton/tileir"
)

func init() {
	register(compilePrint, "tt.print")
	register(compileAssert, "tt.assert")
	register(compileAssume, "llvm.intr.assume")
	register(compileInlineAsm, "tt.elementwise_inline_asm")
}

// compilePrint prints one line per element, as Triton's device_print does:
// "pid (x, y, z) idx (i, j) prefix value".
func compilePrint(fc *fnc, op *tileir.Op) (step, error) {
	prefix, _ := op.Attr("prefix").(tileir.StringAttr)
	hex := op.Attr("hex") == tileir.BoolAttr(true)
	signed, _ := op.Attr("isSigned").(tileir.I32ArrayAttr)
	args := fc.uses(op.Operands)
	type operand struct {
		shape    []int
		s        tileir.Scalar
		unsigned bool
	}
	info := make([]operand, len(args))
	for i, v := range op.Operands {
		info[i] = operand{shape: shapeOf(v.Type), s: tileir.ScalarOf(v.Type), unsigned: i < len(signed) && signed[i] == 0}
	}
	format := func(t *tile, k int, o operand) string {
		switch {
		case t.f != nil && hex:
			return fmt.Sprintf("0x%x", floatBits(t.f[k], o.s))
		case t.f != nil:
			return strconv.FormatFloat(t.f[k], 'g', -1, 64)
		case hex:
			return fmt.Sprintf("0x%x", zext(t.i[k], max(o.s.Bits(), 1)))
		case o.unsigned:
			return strconv.FormatUint(zext(t.i[k], o.s.Bits()), 10)
		}
		return strconv.FormatInt(t.i[k], 10)
	}
	return func(fr *frame) error {
		var b strings.Builder
		pid := fr.inst.pid
		if len(args) == 0 {
			fmt.Fprintf(&b, "pid (%d, %d, %d) %s\n", pid[0], pid[1], pid[2], prefix)
		}
		for i, a := range args {
			t := &fr.v[a]
			for k := range max(len(t.i), len(t.f)) {
				fmt.Fprintf(&b, "pid (%d, %d, %d) ", pid[0], pid[1], pid[2])
				if len(info[i].shape) > 0 {
					idx := strings.Trim(fmt.Sprint(unflatten(k, info[i].shape)), "[]")
					fmt.Fprintf(&b, "idx (%s) ", strings.ReplaceAll(idx, " ", ", "))
				}
				fmt.Fprintf(&b, "%s%s\n", prefix, format(t, k, info[i]))
			}
		}
		d := fr.inst.l.k.dev
		d.outMu.Lock()
		defer d.outMu.Unlock()
		_, err := d.out.Write([]byte(b.String()))
		return err
	}, nil
}

func compileAssert(fc *fnc, op *tileir.Op) (step, error) {
	msg, _ := op.Attr("message").(tileir.StringAttr)
	cond := fc.use(op.Operands[0])
	return func(fr *frame) error {
		for i, c := range fr.v[cond].i {
			if c == 0 {
				return fr.fail(op, i, "device_assert failed: %s", string(msg))
			}
		}
		return nil
	}, nil
}

// compileAssume checks tl.assume's condition: a false assumption is undefined behaviour on
// the GPU, so it is an error here.
func compileAssume(fc *fnc, op *tileir.Op) (step, error) {
	cond := fc.use(op.Operands[0])
	return func(fr *frame) error {
		for i, c := range fr.v[cond].i {
			if c == 0 {
				return fr.fail(op, i, "assumption is false")
			}
		}
		return nil
	}, nil
}

// compileInlineAsm runs the inline PTX that has a meaning on the CPU: griddepcontrol
// (programmatic dependent launch) is a no-op, since launches run one after another.
func compileInlineAsm(fc *fnc, op *tileir.Op) (step, error) {
	asm, _ := op.Attr("asm_string").(tileir.StringAttr)
	if !strings.HasPrefix(strings.TrimSpace(string(asm)), "griddepcontrol.") {
		return nil, fmt.Errorf("inline assembly %q cannot run on the CPU", asm)
	}
	outs := fc.uses(op.Results)
	return func(fr *frame) error {
		for _, o := range outs {
			clear(fr.v[o].i)
			clear(fr.v[o].f)
		}
		return nil
	}, nil
}
