package lower

import (
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

func init() {
	lowerings["tt.map_elementwise"] = lowerMapElementwise
	lowerings["tt.map_elementwise.return"] = func(*gen, *tileir.Op) error { return nil }
}

// lowerMapElementwise inlines the body of tt.map_elementwise once per pack registers of
// the result, as Triton does: the body takes pack elements of each operand (operand by
// operand) and returns pack elements of each result; a thread whose register count is not
// a multiple of pack fills the last call with undef.
func lowerMapElementwise(g *gen, op *tileir.Op) error {
	pack := int(max(op.IntAttr("pack"), 1))
	body := op.Regions[0].Entry()
	res := op.Results[0]
	var e encoding
	n := 1
	if isTensor(res) {
		e, n = g.enc[res], g.regs(res)
	}
	ins := make([][]value.Value, len(op.Operands))
	for i, o := range op.Operands {
		ins[i] = g.in(o, e)
	}
	outs := make([][]value.Value, len(op.Results))
	for r := 0; r < n; r += pack {
		args := make([]value.Value, 0, len(ins)*pack)
		for _, vals := range ins {
			for j := range pack {
				switch {
				case len(vals) == 1:
					args = append(args, vals[0])
				case r+j < len(vals):
					args = append(args, vals[r+j])
				default:
					args = append(args, g.undef(vals[0].Type()))
				}
			}
		}
		ys, err := g.scalarRegion(body, args)
		if err != nil {
			return err
		}
		for i := range outs {
			for j := range pack {
				if r+j < n {
					outs[i] = append(outs[i], ys[i*pack+j])
				}
			}
		}
	}
	for i, r := range op.Results {
		g.vals[r] = outs[i]
	}
	return nil
}
