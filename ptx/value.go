package ptx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// get returns the operands of v, one per leaf. Integer, f32 and f64
// constants come back as immediates; f16 and i1 constants, globals and
// constant expressions are materialized into registers, once per kernel, in
// the prologue.
func (e *fnEmitter) get(v value.Value) ([]string, error) {
	if in := e.infoOf(v); in != nil && in.defined {
		return in.ops, nil
	}
	switch v := v.(type) {
	case *ir.Global:
		if r, ok := e.globals[v]; ok {
			return e.one(r), nil
		}
		rc, err := e.lay.classOf(v.Typ)
		if err != nil {
			return nil, err
		}
		d := e.newReg(rc)
		e.inPrologue(func() { e.emit("mov.u"+strconv.Itoa(rc.bits()), d, symbol(v.Name())) })
		if e.globals == nil {
			e.globals = map[*ir.Global]string{}
		}
		e.globals[v] = d
		return e.one(d), nil
	case constant.Expression:
		if ops, ok := e.constOps[v]; ok {
			return ops, nil
		}
		var ops []string
		var err error
		e.inPrologue(func() { ops, err = e.constant(v) })
		if err != nil {
			return nil, err
		}
		if e.constOps == nil {
			e.constOps = map[constant.Constant][]string{}
		}
		e.constOps[v] = ops
		return ops, nil
	case constant.Constant:
		return e.constant(v)
	}
	if ops, ok, err := e.materialize(v); ok || err != nil {
		return ops, err
	}
	return nil, fmt.Errorf("value %s is used before its definition", v.Ident())
}

// getOne returns the single operand of a scalar value.
func (e *fnEmitter) getOne(v value.Value) (string, error) {
	ops, err := e.get(v)
	if err != nil {
		return "", err
	}
	if len(ops) != 1 {
		return "", fmt.Errorf("%s: expected a scalar", v.Ident())
	}
	return ops[0], nil
}

// regs is get with every immediate moved into a register.
func (e *fnEmitter) regs(v value.Value) ([]string, error) {
	ops, err := e.get(v)
	if err != nil {
		return nil, err
	}
	rcs, err := e.classesOf(v.Type())
	if err != nil {
		return nil, err
	}
	out := e.opSlice(len(ops))
	for i, op := range ops {
		out[i] = e.inReg(op, rcs[i])
	}
	return out, nil
}

// immKey identifies an immediate moved into a register of a class.
type immKey struct {
	rc  regClass
	imm string
}

// inReg moves an immediate into a register of class rc, once per kernel in
// the prologue.
func (e *fnEmitter) inReg(op string, rc regClass) string {
	if isReg(op) {
		return op
	}
	k := immKey{rc, op}
	if r, ok := e.immRegs[k]; ok {
		return r
	}
	d := e.newReg(rc)
	e.inPrologue(func() { e.emit("mov."+rc.movType(), d, op) })
	if e.immRegs == nil {
		e.immRegs = map[immKey]string{}
	}
	e.immRegs[k] = d
	return d
}

func isReg(op string) bool { return strings.HasPrefix(op, "%") }

// constant returns the operands of a constant.
func (e *fnEmitter) constant(k constant.Constant) ([]string, error) {
	switch k := k.(type) {
	case *constant.Int:
		if k.Typ.BitSize == 1 {
			imm := "0"
			if k.X.Sign() != 0 {
				imm = "-1"
			}
			return e.one(e.inReg(imm, rcPred)), nil
		}
		return e.one(intImm(k.X)), nil
	case *constant.Float:
		bits, err := floatBits(k)
		if err != nil {
			return nil, err
		}
		rc, _ := e.lay.classOf(k.Typ)
		if rc == rcF16 {
			return e.one(e.inReg(e.floatImm(rc, bits), rc)), nil
		}
		return e.one(e.floatImm(rc, bits)), nil
	case *constant.Null:
		return e.one("0"), nil
	case *constant.Undef, *constant.Poison, *constant.ZeroInitializer:
		rcs, err := e.lay.classesOf(k.Type())
		if err != nil {
			return nil, err
		}
		out := make([]string, len(rcs))
		for i, rc := range rcs {
			out[i] = e.zero(rc)
		}
		return out, nil
	case *constant.Vector:
		return e.constants(k.Elems)
	case *constant.Array:
		return e.constants(k.Elems)
	case *constant.Struct:
		return e.constants(k.Fields)
	case *constant.ExprGetElementPtr:
		idx := make([]value.Value, len(k.Indices))
		for i, x := range k.Indices {
			if ix, ok := x.(*constant.Index); ok {
				x = ix.Constant
			}
			idx[i] = x
		}
		return e.gep(k.ElemType, k.Src, idx, k.Typ)
	case *constant.ExprBitCast:
		return e.cast("bitcast", k.From, k.To)
	case *constant.ExprAddrSpaceCast:
		return e.cast("addrspacecast", k.From, k.To)
	case *constant.ExprPtrToInt:
		return e.cast("ptrtoint", k.From, k.To)
	case *constant.ExprIntToPtr:
		return e.cast("inttoptr", k.From, k.To)
	}
	return nil, fmt.Errorf("constant %s is not supported", k.Ident())
}

func (e *fnEmitter) constants(ks []constant.Constant) ([]string, error) {
	var out []string
	for _, k := range ks {
		ops, err := e.get(k)
		if err != nil {
			return nil, err
		}
		out = append(out, ops...)
	}
	return out, nil
}

// zero returns a zero operand of class rc (undef and poison read as zero).
func (e *fnEmitter) zero(rc regClass) string {
	switch rc {
	case rcPred:
		return e.inReg("0", rc)
	case rcF16:
		return e.inReg("0x0000", rc)
	case rcF32, rcF64:
		return floatImm(rc, 0)
	}
	return "0"
}

// leafCount is the number of leaves of the aggregate type t.
func leafCount(t types.Type) int {
	switch t := t.(type) {
	case *types.VectorType:
		return int(t.Len) * leafCount(t.ElemType)
	case *types.ArrayType:
		return int(t.Len) * leafCount(t.ElemType)
	case *types.StructType:
		n := 0
		for _, f := range t.Fields {
			n += leafCount(f)
		}
		return n
	}
	return 1
}

// aggIndex returns the first leaf and the leaf count of the member of
// aggregate t selected by indices.
func aggIndex(t types.Type, indices []uint64) (int, int, error) {
	start := 0
	for _, ix := range indices {
		switch tt := t.(type) {
		case *types.StructType:
			if ix >= uint64(len(tt.Fields)) {
				return 0, 0, fmt.Errorf("index %d out of range", ix)
			}
			for _, f := range tt.Fields[:ix] {
				start += leafCount(f)
			}
			t = tt.Fields[ix]
		case *types.ArrayType:
			start += int(ix) * leafCount(tt.ElemType)
			t = tt.ElemType
		case *types.VectorType:
			start += int(ix) * leafCount(tt.ElemType)
			t = tt.ElemType
		default:
			return 0, 0, fmt.Errorf("cannot index into %s", t)
		}
	}
	return start, leafCount(t), nil
}

// constIndex returns the value of an integer constant index.
func constIndex(v value.Value) (int64, bool) {
	if c, ok := v.(*constant.Int); ok && c.X.IsInt64() {
		return c.X.Int64(), true
	}
	return 0, false
}

// immInt parses an integer immediate.
func immInt(op string) (int64, bool) {
	if op == "" || op[0] != '-' && (op[0] < '0' || op[0] > '9') || strings.HasPrefix(op, "0f") || strings.HasPrefix(op, "0d") || strings.HasPrefix(op, "0x") {
		return 0, false
	}
	n, err := strconv.ParseInt(op, 10, 64)
	return n, err == nil
}
