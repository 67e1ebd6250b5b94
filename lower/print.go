package lower

import (
	"fmt"
	"math"
	"strings"

	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

func init() {
	lowerings["tt.print"] = lowerPrint
}

// lowerPrint lowers tl.device_print as Triton 3.6 does (PrintOpToLLVM.cpp): every thread
// prints each element it holds, one vprintf per element, as
// "pid (x, y, z) idx (i, j)<prefix>[(operand n) ]<value>\n", where each index is padded to
// ceil(log10(dim)) digits; a print without operands is one "pid (x, y, z)<prefix>" line.
// Floats print with %f, integers with %i or %u by their signedness (%lli/%llu for 64
// bits), pointers with %p, and hex=True as 0x and the value's bits zero-padded to the
// type's width. Elements a layout replicates over threads print once per thread holding
// them, as in Triton.
func lowerPrint(g *gen, op *tileir.Op) error {
	prefix := ""
	if p, ok := op.Attr("prefix").(tileir.StringAttr); ok {
		prefix = strings.ReplaceAll(string(p), "%", "%%")
	}
	hex := op.Attr("hex") == tileir.BoolAttr(true)
	signed, _ := op.Attr("isSigned").(tileir.I32ArrayAttr)
	pid := make([]value.Value, 3)
	for i := range pid {
		pid[i] = g.isa.ProgramID(i)
	}
	if len(op.Operands) == 0 {
		if err := g.isa.Printf("pid (%u, %u, %u)"+prefix+"\n", pid); err != nil {
			return g.errorf(op, "%v", err)
		}
		return nil
	}
	for i, v := range op.Operands {
		format, err := printFormat(v.Type, hex, i < len(signed) && signed[i] != 0)
		if err != nil {
			return g.errorf(op, "%v", err)
		}
		shape := shapeInts(v.Type)
		var head strings.Builder
		head.WriteString("pid (%u, %u, %u) idx (")
		for d, n := range shape {
			if d > 0 {
				head.WriteString(", ")
			}
			if w := int(math.Ceil(math.Log10(float64(n)))); w > 0 {
				fmt.Fprintf(&head, "%%%du", w)
			} else {
				head.WriteString("%u")
			}
		}
		head.WriteString(")" + prefix)
		if len(op.Operands) > 1 {
			fmt.Fprintf(&head, "(operand %d) ", i)
		}
		line := head.String() + format + "\n"
		vals := g.vals[v]
		var l *linLayout
		var thread []value.Value
		if len(shape) > 0 {
			l = g.layoutOf(v)
			thread = g.threadCoords(l)
		}
		for r, x := range vals {
			args := append([]value.Value{}, pid...)
			for d := range shape {
				args = append(args, g.coordOf(l, thread, r, d))
			}
			a, err := g.printArg(x, tileir.ScalarOf(v.Type), hex, i < len(signed) && signed[i] != 0)
			if err != nil {
				return g.errorf(op, "%v", err)
			}
			args = append(args, a)
			if err := g.isa.Printf(line, args); err != nil {
				return g.errorf(op, "%v", err)
			}
		}
	}
	return nil
}

// printFormat is the printf conversion of a device_print operand's elements.
func printFormat(t tileir.Type, hex, signed bool) (string, error) {
	if _, ok := tileir.ElemType(t).(*tileir.PtrType); ok {
		return "%p", nil
	}
	s := tileir.ScalarOf(t)
	bits := s.Bits()
	switch {
	case hex:
		ll := ""
		if bits > 32 {
			ll = "ll"
		}
		return fmt.Sprintf("0x%%0%d%sx", bits/4, ll), nil
	case s.IsFloat():
		return "%f", nil
	case !s.IsInt():
		return "", fmt.Errorf("device_print of %s is not supported", s)
	case bits > 32 && signed:
		return "%lli", nil
	case bits > 32:
		return "%llu", nil
	case signed:
		return "%i", nil
	}
	return "%u", nil
}

// printArg converts an element of type s to what vprintf reads for its conversion: floats
// as double (hex: their bits), integers narrower than 32 bits widened to i32, pointers as
// their address.
func (g *gen) printArg(x value.Value, s tileir.Scalar, hex, signed bool) (value.Value, error) {
	if _, ok := x.Type().(*types.PointerType); ok {
		return g.cur.NewPtrToInt(x, types.I64), nil
	}
	if s.IsFloat() && !hex {
		var err error
		if s != tileir.F16 && s != tileir.F32 && s != tileir.F64 {
			if x, err = g.floatCast(x, s, tileir.F32, ""); err != nil {
				return nil, err
			}
		}
		if s == tileir.F64 {
			return x, nil
		}
		return g.cur.NewFPExt(x, types.Double), nil
	}
	if _, ok := x.Type().(*types.FloatType); ok {
		x = g.BitCast(x, types.NewInt(uint64(s.Bits())))
	}
	switch {
	case s.Bits() >= 32:
		return x, nil
	case signed && !hex:
		return g.sext(x, types.I32), nil
	}
	return g.cur.NewZExt(x, types.I32), nil
}
