package cpu

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/tileir"
)

func init() {
	register(compilePrint, "tt.print")
	register(compileAssert, "tt.assert")
	register(compileAssume, "llvm.intr.assume")
	register(compileInlineAsm, "tt.elementwise_inline_asm")
}

// compilePrint prints one line per element in the format of Triton 3.6's GPU printf
// (PrintOpToLLVM.cpp): "pid (x, y, z) idx (i, j)<prefix>[(operand n) ]<value>". Each index
// is padded to ceil(log10(dim)) characters, floats print as %f, integers as %i or %u by
// signedness, pointers as %p, and hex=True as 0x followed by the value's bits, zero-padded
// to the type's width. A scalar prints as "idx ()"; a print without operands is one
// "pid (x, y, z)<prefix>" line. Elements print in row-major order, operand by operand, and
// each program instance's lines are written together.
func compilePrint(fc *fnc, op *tileir.Op) (step, error) {
	prefix, _ := op.Attr("prefix").(tileir.StringAttr)
	hex := op.Attr("hex") == tileir.BoolAttr(true)
	signed, _ := op.Attr("isSigned").(tileir.I32ArrayAttr)
	args := fc.uses(op.Operands)
	type operand struct {
		shape, widths []int
		format        func(t *tile, k int) string
	}
	info := make([]operand, len(args))
	for i, v := range op.Operands {
		o := operand{shape: shapeOf(v.Type)}
		for _, d := range o.shape {
			o.widths = append(o.widths, int(math.Ceil(math.Log10(float64(d)))))
		}
		o.format = printFormat(v.Type, hex, i < len(signed) && signed[i] != 0)
		info[i] = o
	}
	return func(fr *frame) error {
		var b strings.Builder
		pid := fr.inst.pid
		if len(args) == 0 {
			fmt.Fprintf(&b, "pid (%d, %d, %d)%s\n", pid[0], pid[1], pid[2], string(prefix))
		}
		for i, a := range args {
			t, o := &fr.v[a], &info[i]
			for k := range max(len(t.i), len(t.f)) {
				fmt.Fprintf(&b, "pid (%d, %d, %d) idx (", pid[0], pid[1], pid[2])
				for d, x := range unflatten(k, o.shape) {
					if d > 0 {
						b.WriteString(", ")
					}
					fmt.Fprintf(&b, "%*d", o.widths[d], x)
				}
				b.WriteString(")" + string(prefix))
				if len(args) > 1 {
					fmt.Fprintf(&b, "(operand %d) ", i)
				}
				b.WriteString(o.format(t, k))
				b.WriteByte('\n')
			}
		}
		d := fr.inst.l.k.dev
		d.outMu.Lock()
		defer d.outMu.Unlock()
		_, err := d.out.Write([]byte(b.String()))
		return err
	}, nil
}

// printFormat returns how device_print writes one element of a value of type t, as C's
// printf does with the format Triton picks.
func printFormat(t tileir.Type, hex, signed bool) func(t *tile, k int) string {
	if _, ok := tileir.ElemType(t).(*tileir.PtrType); ok {
		return func(t *tile, k int) string { return fmt.Sprintf("0x%x", uint64(t.i[k])) }
	}
	s := tileir.ScalarOf(t)
	switch {
	case hex && s.IsFloat():
		return func(t *tile, k int) string { return fmt.Sprintf("0x%0*x", s.Bits()/4, floatBits(t.f[k], s)) }
	case hex:
		return func(t *tile, k int) string { return fmt.Sprintf("0x%0*x", s.Bits()/4, zext(t.i[k], max(s.Bits(), 1))) }
	case s.IsFloat():
		return func(t *tile, k int) string { return driver.CFloat(t.f[k], "", 'f') }
	case signed:
		return func(t *tile, k int) string { return strconv.FormatInt(t.i[k], 10) }
	}
	return func(t *tile, k int) string { return strconv.FormatUint(zext(t.i[k], s.Bits()), 10) }
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
	switch string(asm) {
	case "mov.u32 $0, %smid;": // tl.extra.cuda.smid: every program runs on "SM" 0
		out := fc.use(op.Results[0])
		return func(fr *frame) error { clear(fr.v[out].i); return nil }, nil
	case "mov.u64 $0, %globaltimer;": // tl.extra.cuda.globaltimer: nanoseconds of the host clock
		out := fc.use(op.Results[0])
		return func(fr *frame) error {
			fr.v[out].i[0] = time.Now().UnixNano()
			return nil
		}, nil
	}
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
