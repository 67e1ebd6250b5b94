package ptx

import (
	"fmt"
	"math/bits"
	"strconv"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// inst selects PTX for one non-phi instruction.
func (e *fnEmitter) inst(inst ir.Instruction) error {
	switch i := inst.(type) {
	case *ir.InstAdd:
		if e.deferred(i) {
			return nil
		}
		return e.binary(i, "add", i.X, i.Y, nil)
	case *ir.InstSub:
		return e.binary(i, "sub", i.X, i.Y, nil)
	case *ir.InstMul:
		return e.binary(i, "mul", i.X, i.Y, nil)
	case *ir.InstUDiv:
		return e.binary(i, "udiv", i.X, i.Y, nil)
	case *ir.InstSDiv:
		return e.binary(i, "sdiv", i.X, i.Y, nil)
	case *ir.InstURem:
		return e.binary(i, "urem", i.X, i.Y, nil)
	case *ir.InstSRem:
		return e.binary(i, "srem", i.X, i.Y, nil)
	case *ir.InstShl:
		return e.binary(i, "shl", i.X, i.Y, nil)
	case *ir.InstLShr:
		return e.binary(i, "lshr", i.X, i.Y, nil)
	case *ir.InstAShr:
		return e.binary(i, "ashr", i.X, i.Y, nil)
	case *ir.InstAnd:
		return e.binary(i, "and", i.X, i.Y, nil)
	case *ir.InstOr:
		return e.binary(i, "or", i.X, i.Y, nil)
	case *ir.InstXor:
		return e.binary(i, "xor", i.X, i.Y, nil)
	case *ir.InstFAdd:
		if f := e.fusedOf(i); f != nil {
			return e.fma(i, f)
		}
		return e.binary(i, "fadd", i.X, i.Y, i.FastMathFlags)
	case *ir.InstFSub:
		if f := e.fusedOf(i); f != nil {
			return e.fma(i, f)
		}
		return e.binary(i, "fsub", i.X, i.Y, i.FastMathFlags)
	case *ir.InstFMul:
		if e.absorbedInst(i) {
			return nil
		}
		return e.binary(i, "fmul", i.X, i.Y, i.FastMathFlags)
	case *ir.InstFDiv:
		return e.binary(i, "fdiv", i.X, i.Y, i.FastMathFlags)
	case *ir.InstFNeg:
		if e.absorbedInst(i) {
			return nil
		}
		return e.fneg(i)
	case *ir.InstICmp:
		return e.icmp(i)
	case *ir.InstFCmp:
		return e.fcmp(i)
	case *ir.InstSelect:
		return e.sel(i)
	case *ir.InstFreeze:
		return e.alias(i, i.X)
	case *ir.InstTrunc:
		return e.def(i)(e.cast("trunc", i.From, i.To))
	case *ir.InstZExt:
		if e.deferred(i) {
			return nil
		}
		return e.def(i)(e.cast("zext", i.From, i.To))
	case *ir.InstSExt:
		if e.deferred(i) {
			return nil
		}
		return e.def(i)(e.cast("sext", i.From, i.To))
	case *ir.InstFPTrunc:
		return e.def(i)(e.cast("fptrunc", i.From, i.To))
	case *ir.InstFPExt:
		return e.def(i)(e.cast("fpext", i.From, i.To))
	case *ir.InstFPToUI:
		return e.def(i)(e.cast("fptoui", i.From, i.To))
	case *ir.InstFPToSI:
		return e.def(i)(e.cast("fptosi", i.From, i.To))
	case *ir.InstUIToFP:
		return e.def(i)(e.cast("uitofp", i.From, i.To))
	case *ir.InstSIToFP:
		return e.def(i)(e.cast("sitofp", i.From, i.To))
	case *ir.InstPtrToInt:
		return e.def(i)(e.cast("ptrtoint", i.From, i.To))
	case *ir.InstIntToPtr:
		return e.def(i)(e.cast("inttoptr", i.From, i.To))
	case *ir.InstBitCast:
		if from := e.infoOf(i.From); from != nil && from.folded { // a pointer cast of a folded address
			in := e.infoOf(i)
			in.folded, in.addr = true, from.addr
			return nil
		}
		return e.def(i)(e.cast("bitcast", i.From, i.To))
	case *ir.InstAddrSpaceCast:
		return e.def(i)(e.cast("addrspacecast", i.From, i.To))
	case *ir.InstGetElementPtr:
		return e.getElementPtr(i)
	case *ir.InstLoad:
		return e.load(i)
	case *ir.InstStore:
		return e.store(i)
	case *ir.InstAtomicRMW:
		return e.atomicRMW(i)
	case *ir.InstCmpXchg:
		return e.cmpXchg(i)
	case *ir.InstFence:
		return e.fence(i)
	case *ir.InstCall:
		return e.call(i)
	case *ir.InstAlloca:
		return e.alloca(i)
	case *ir.InstExtractValue:
		return e.extract(i, i.X, i.Indices)
	case *ir.InstInsertValue:
		return e.insert(i, i.X, i.Elem, i.Indices)
	case *ir.InstExtractElement:
		k, ok := constIndex(i.Index)
		if !ok {
			return fmt.Errorf("extractelement needs a constant index")
		}
		return e.extract(i, i.X, []uint64{uint64(k)})
	case *ir.InstInsertElement:
		k, ok := constIndex(i.Index)
		if !ok {
			return fmt.Errorf("insertelement needs a constant index")
		}
		return e.insert(i, i.X, i.Elem, []uint64{uint64(k)})
	case *ir.InstShuffleVector:
		return e.shuffle(i)
	}
	return fmt.Errorf("instruction is not supported")
}

// def returns a function that records the operands of v.
func (e *fnEmitter) def(v value.Value) func([]string, error) error {
	return func(ops []string, err error) error {
		if err == nil {
			e.set(v, ops)
		}
		return err
	}
}

// alias makes v share the operands of x.
func (e *fnEmitter) alias(v, x value.Value) error {
	return e.def(v)(e.get(x))
}

// leafOps returns the operands and leaf types of v.
func (e *fnEmitter) leafOps(v value.Value) ([]string, []types.Type, error) {
	ops, err := e.get(v)
	return ops, e.leaves(v.Type()), err
}

// intOp is an integer binary operation: its PTX opcode and the type kind of
// its suffix (s, u or b). exact marks operations that need an i8 operand
// sign- or zero-extended within its 16-bit register first.
type intOp struct {
	op    string
	kind  byte
	exact bool
}

var intBinOps = map[string]intOp{
	"add": {"add", 's', false}, "sub": {"sub", 's', false}, "mul": {"mul.lo", 's', false},
	"sdiv": {"div", 's', true}, "udiv": {"div", 'u', true},
	"srem": {"rem", 's', true}, "urem": {"rem", 'u', true},
	"and": {"and", 'b', false}, "or": {"or", 'b', false}, "xor": {"xor", 'b', false},
	"shl": {"shl", 'b', false}, "lshr": {"shr", 'u', true}, "ashr": {"shr", 's', true},
}

// predBinOps are the i1 forms of the binary operations that have one.
var predBinOps = map[string]string{
	"and": "and.pred", "or": "or.pred", "xor": "xor.pred", "add": "xor.pred", "sub": "xor.pred", "mul": "and.pred",
}

// floatBinOps maps LLVM float operations to PTX opcodes.
var floatBinOps = map[string]string{"fadd": "add", "fsub": "sub", "fmul": "mul", "fdiv": "div"}

var floatNames = map[regClass]string{rcF16: "f16", rcF32: "f32", rcF64: "f64"}

// hasFlag reports whether fmf allows the given relaxation.
func hasFlag(fmf []enum.FastMathFlag, want enum.FastMathFlag) bool {
	for _, f := range fmf {
		if f == want || f == enum.FastMathFlagFast {
			return true
		}
	}
	return false
}

// binary selects an arithmetic or bitwise instruction, leaf by leaf.
func (e *fnEmitter) binary(v value.Value, name string, x, y value.Value, fmf []enum.FastMathFlag) error {
	m, ok := v.(*ir.InstFMul)
	inPlace := ok && e.overwritesOperand(m)
	return e.leafwise(v, x, y, func(_ int, a, b string, t types.Type, rc regClass) (string, error) {
		d := a
		if !inPlace || !isReg(a) {
			d = e.newReg(rc)
		}
		switch {
		case rc == rcPred:
			op, ok := predBinOps[name]
			if !ok {
				return d, fmt.Errorf("%s on i1 is not supported", name)
			}
			e.emit(op, d, a, b)
		case rc.isFloat():
			op, ok := floatBinOps[name]
			if !ok {
				return d, fmt.Errorf("%s on %s is not supported", name, t)
			}
			mode := ""
			switch {
			case op == "div" && rc == rcF16:
				return d, fmt.Errorf("fdiv on half is not supported; extend to float")
			case op == "div" && rc == rcF32 && hasFlag(fmf, enum.FastMathFlagAFn):
				mode = ".full"
			case op == "div" || !e.c.opts.FPFusion && !hasFlag(fmf, enum.FastMathFlagContract):
				mode = ".rn" // round to nearest, and no contraction into fma by ptxas
			}
			e.emitOp(op, mode, ".", floatNames[rc], "", d, a, b)
		default:
			spec, ok := intBinOps[name]
			if !ok {
				return d, fmt.Errorf("%s on %s is not supported", name, t)
			}
			nbits := intBits(t)
			if spec.exact {
				a = e.extend8(a, nbits, spec.kind == 's')
			}
			if spec.op == "shl" || spec.op == "shr" {
				b = e.shiftAmount(b, rc, nbits)
			} else if spec.exact {
				b = e.extend8(b, nbits, spec.kind == 's')
			}
			e.emitOp(spec.op, ".", typeName(spec.kind, rc.bits()), "", "", d, a, b)
		}
		return d, nil
	})
}

// leafwise defines v leaf by leaf. x gives the leaves and their types and
// y, unless nil, a second operand per leaf (fetched after x); leaf gets the
// leaf's index, operands, type and register class and returns the result
// operand of that leaf.
func (e *fnEmitter) leafwise(v, x, y value.Value, leaf func(k int, a, b string, t types.Type, rc regClass) (string, error)) error {
	xs, ts, err := e.leafOps(x)
	if err != nil {
		return err
	}
	var ys []string
	if y != nil {
		if ys, err = e.get(y); err != nil {
			return err
		}
	}
	out := e.opSlice(len(xs))
	for k, t := range ts {
		rc, err := e.lay.classOf(t)
		if err != nil {
			return err
		}
		var b string
		if y != nil {
			b = ys[k]
		}
		if out[k], err = leaf(k, xs[k], b, t, rc); err != nil {
			return err
		}
	}
	e.set(v, out)
	return nil
}

// extend8 widens an i8 operand to its full 16-bit register so that
// division, remainder, right shifts and comparisons see the true value.
func (e *fnEmitter) extend8(op string, nbits int, signed bool) string {
	if nbits != 8 {
		return op
	}
	if n, ok := immInt(op); ok {
		if signed {
			return strconv.Itoa(int(int8(n)))
		}
		return strconv.Itoa(int(uint8(n)))
	}
	d := e.newReg(rcB16)
	if signed {
		e.emit("cvt.s16.s8", d, op)
	} else {
		e.emit("and.b16", d, op, "255")
	}
	return d
}

// shiftAmount converts a shift amount to the .u32 operand PTX wants.
func (e *fnEmitter) shiftAmount(op string, rc regClass, nbits int) string {
	if !isReg(op) || rc == rcB32 {
		return op
	}
	d := e.newReg(rcB32)
	src := "u" + strconv.Itoa(rc.bits())
	if nbits == 8 {
		src = "u8"
	}
	e.emit("cvt.u32."+src, d, op)
	return d
}

func (e *fnEmitter) fneg(i *ir.InstFNeg) error {
	return e.leafwise(i, i.X, nil, func(_ int, a, _ string, _ types.Type, rc regClass) (string, error) {
		d := e.newReg(rc)
		e.emit("neg."+floatNames[rc], d, e.inReg(a, rc))
		return d, nil
	})
}

// cmpOp is an integer comparison: the setp condition and the type kind.
type cmpOp struct {
	cond string
	kind byte
}

var icmpOps = map[enum.IPred]cmpOp{
	enum.IPredEQ: {"eq", 's'}, enum.IPredNE: {"ne", 's'},
	enum.IPredSLT: {"lt", 's'}, enum.IPredSLE: {"le", 's'}, enum.IPredSGT: {"gt", 's'}, enum.IPredSGE: {"ge", 's'},
	enum.IPredULT: {"lt", 'u'}, enum.IPredULE: {"le", 'u'}, enum.IPredUGT: {"gt", 'u'}, enum.IPredUGE: {"ge", 'u'},
}

// fcmpOps maps LLVM float predicates to setp conditions; the unordered
// forms end in "u".
var fcmpOps = map[enum.FPred]string{
	enum.FPredOEQ: "eq", enum.FPredOGT: "gt", enum.FPredOGE: "ge", enum.FPredOLT: "lt", enum.FPredOLE: "le",
	enum.FPredONE: "ne", enum.FPredORD: "num", enum.FPredUEQ: "equ", enum.FPredUGT: "gtu", enum.FPredUGE: "geu",
	enum.FPredULT: "ltu", enum.FPredULE: "leu", enum.FPredUNE: "neu", enum.FPredUNO: "nan",
}

func (e *fnEmitter) icmp(i *ir.InstICmp) error {
	op, ok := icmpOps[i.Pred]
	if !ok {
		return fmt.Errorf("icmp %s is not supported", i.Pred)
	}
	return e.compare(i, i.X, i.Y, func(d, a, b string, t types.Type, rc regClass) error {
		if rc == rcPred {
			switch i.Pred {
			case enum.IPredNE:
				e.emit("xor.pred", d, a, b)
			case enum.IPredEQ:
				t := e.newReg(rcPred)
				e.emit("xor.pred", t, a, b)
				e.emit("not.pred", d, t)
			default:
				return fmt.Errorf("icmp %s on i1 is not supported", i.Pred)
			}
			return nil
		}
		kind := op.kind
		if _, ok := t.(*types.PointerType); ok {
			kind = 'u'
		}
		a = e.extend8(a, intBits(t), kind == 's')
		b = e.extend8(b, intBits(t), kind == 's')
		e.emit("setp."+op.cond+"."+string(rune(kind))+strconv.Itoa(rc.bits()), d, a, b)
		return nil
	})
}

func (e *fnEmitter) fcmp(i *ir.InstFCmp) error {
	return e.compare(i, i.X, i.Y, func(d, a, b string, t types.Type, rc regClass) error {
		switch i.Pred {
		case enum.FPredTrue:
			e.emit("mov.pred", d, "-1")
		case enum.FPredFalse:
			e.emit("mov.pred", d, "0")
		default:
			e.emit("setp."+fcmpOps[i.Pred]+"."+floatNames[rc], d, a, b)
		}
		return nil
	})
}

// compare runs one setp per leaf.
func (e *fnEmitter) compare(v value.Value, x, y value.Value, leaf func(d, a, b string, t types.Type, rc regClass) error) error {
	return e.leafwise(v, x, y, func(_ int, a, b string, t types.Type, rc regClass) (string, error) {
		d := e.newReg(rcPred)
		return d, leaf(d, a, b, t, rc)
	})
}

func (e *fnEmitter) sel(i *ir.InstSelect) error {
	cs, err := e.get(i.Cond)
	if err != nil {
		return err
	}
	return e.leafwise(i, i.ValueTrue, i.ValueFalse, func(k int, a, b string, _ types.Type, rc regClass) (string, error) {
		c := cs[0]
		if len(cs) > 1 {
			c = cs[k]
		}
		d := e.newReg(rc)
		if rc == rcPred { // d = c&a | !c&b
			t1, t2, nc := e.newReg(rcPred), e.newReg(rcPred), e.newReg(rcPred)
			e.emit("and.pred", t1, c, a)
			e.emit("not.pred", nc, c)
			e.emit("and.pred", t2, nc, b)
			e.emit("or.pred", d, t1, t2)
			return d, nil
		}
		e.emit("selp."+rc.movType(), d, a, b, c)
		return d, nil
	})
}

// cast selects a conversion; bitcasts are repacked as a whole, the others
// run leaf by leaf.
func (e *fnEmitter) cast(kind string, from value.Value, to types.Type) ([]string, error) {
	xs, ts, err := e.leafOps(from)
	if err != nil {
		return nil, err
	}
	dts := e.leaves(to)
	if kind == "bitcast" {
		return e.repack(xs, ts, dts)
	}
	if len(dts) != len(ts) {
		return nil, fmt.Errorf("%s from %s to %s changes the element count", kind, from.Type(), to)
	}
	out := e.opSlice(len(xs))
	for k := range ts {
		if out[k], err = e.castLeaf(kind, xs[k], ts[k], dts[k]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// castLeaf converts one scalar.
func (e *fnEmitter) castLeaf(kind, x string, st, dt types.Type) (string, error) {
	sc, err := e.lay.classOf(st)
	if err != nil {
		return "", err
	}
	dc, err := e.lay.classOf(dt)
	if err != nil {
		return "", err
	}
	sb, db := intBits(st), intBits(dt)
	cvt := func(op string, src string) string {
		d := e.newReg(dc)
		e.emit(op, d, src)
		return d
	}
	switch kind {
	case "zext", "sext", "trunc":
		switch {
		case sb == 1:
			one := "1"
			if kind == "sext" {
				one = "-1"
			}
			d := e.newReg(dc)
			e.emit("selp.b"+strconv.Itoa(dc.bits()), d, one, "0", x)
			return d, nil
		case db == 1:
			t := e.newReg(sc)
			e.emit("and.b"+strconv.Itoa(sc.bits()), t, x, "1")
			d := e.newReg(rcPred)
			e.emit("setp.ne.b"+strconv.Itoa(sc.bits()), d, t, "0")
			return d, nil
		case sc == dc && (kind == "trunc" || sb == db):
			return x, nil
		case sc == dc: // i8 to i16
			return e.extend8(x, 8, kind == "sext"), nil
		}
		k := 'u'
		if kind == "sext" {
			k = 's'
		}
		src := sc.bits()
		if sb == 8 {
			src = 8
		}
		return cvt(fmt.Sprintf("cvt.%c%d.%c%d", k, dc.bits(), k, src), e.inReg(x, sc)), nil
	case "fptrunc":
		return cvt("cvt.rn."+floatNames[dc]+"."+floatNames[sc], x), nil
	case "fpext":
		return cvt("cvt."+floatNames[dc]+"."+floatNames[sc], x), nil
	case "fptosi", "fptoui":
		if db == 1 {
			return "", fmt.Errorf("%s to i1 is not supported", kind)
		}
		return cvt(fmt.Sprintf("cvt.rzi.%c%d.%s", kind[4], dc.bits(), floatNames[sc]), x), nil
	case "sitofp", "uitofp":
		k := kind[0]
		switch sb {
		case 1:
			t := e.newReg(rcB32)
			one := "1"
			if k == 's' {
				one = "-1"
			}
			e.emit("selp.b32", t, one, "0", x)
			x, sc, k = t, rcB32, 's'
		case 8:
			x = e.extend8(x, 8, k == 's')
		}
		return cvt(fmt.Sprintf("cvt.rn.%s.%c%d", floatNames[dc], k, sc.bits()), e.inReg(x, sc)), nil
	case "ptrtoint", "inttoptr":
		if sc == dc {
			return x, nil
		}
		if sc == rcPred || dc == rcPred || sc == rcB16 || dc == rcB16 {
			return "", fmt.Errorf("%s between %s and %s is not supported", kind, st, dt)
		}
		return cvt("cvt.u"+strconv.Itoa(dc.bits())+".u"+strconv.Itoa(sc.bits()), e.inReg(x, sc)), nil
	case "addrspacecast":
		return e.addrSpaceCast(x, st.(*types.PointerType), dt.(*types.PointerType))
	}
	return "", fmt.Errorf("conversion %s is not supported", kind)
}

// addrSpaceCast converts between the generic and a specific address space
// with cvta, widening or narrowing 32-bit pointers as needed.
func (e *fnEmitter) addrSpaceCast(x string, st, dt *types.PointerType) (string, error) {
	if st.AddrSpace == dt.AddrSpace {
		return x, nil
	}
	if st.AddrSpace != 0 && dt.AddrSpace != 0 {
		g, err := e.addrSpaceCast(x, st, &types.PointerType{ElemType: st.ElemType})
		if err != nil {
			return "", err
		}
		return e.addrSpaceCast(g, &types.PointerType{ElemType: st.ElemType}, dt)
	}
	space, ok := spaceName[st.AddrSpace+dt.AddrSpace]
	if !ok || space == "" {
		return "", fmt.Errorf("address space %d is not supported", st.AddrSpace+dt.AddrSpace)
	}
	x = e.inReg(x, rcB64)
	if e.lay.pointerBits(st.AddrSpace) == 32 {
		w := e.newReg(rcB64)
		e.emit("cvt.u64.u32", w, x)
		x = w
	}
	d := e.newReg(rcB64)
	if dt.AddrSpace == 0 {
		e.emit("cvta"+space+".u64", d, x)
		return d, nil
	}
	e.emit("cvta.to"+space+".u64", d, x)
	if e.lay.pointerBits(dt.AddrSpace) == 32 {
		n := e.newReg(rcB32)
		e.emit("cvt.u32.u64", n, d)
		d = n
	}
	return d, nil
}

// leafBits is the width of a scalar leaf in bits.
func (e *fnEmitter) leafBits(t types.Type) int {
	if b := intBits(t); b != 0 {
		return b
	}
	rc, err := e.lay.classOf(t)
	if err != nil {
		return 0
	}
	return rc.bits()
}

// repack reinterprets the bits of the leaves xs (types ts) as leaves of
// types dts: same-class leaves are shared, same-width leaves are moved,
// and narrower leaves are packed into (or unpacked from) wider ones with
// mov.bN and a vector operand.
func (e *fnEmitter) repack(xs []string, ts, dts []types.Type) ([]string, error) {
	sb, db := e.leafBits(ts[0]), e.leafBits(dts[0])
	ok := sb*len(ts) == db*len(dts) && sb >= 8 && db >= 8
	for _, t := range ts {
		ok = ok && e.leafBits(t) == sb
	}
	for _, t := range dts {
		ok = ok && e.leafBits(t) == db
	}
	switch {
	case !ok:
		return nil, fmt.Errorf("bitcast from %d x %s to %d x %s is not supported", len(ts), ts[0], len(dts), dts[0])
	case sb == 8 && db > 8 || db == 8 && sb > 8:
		return e.repackBytes(xs, ts, dts)
	}
	// pack is the class used inside a vector operand of mov.bN: the
	// class itself when it is declared .bN, else the untyped class.
	pack := func(t types.Type) regClass {
		rc, _ := e.lay.classOf(t)
		if regClassInfo[rc].decl == ".b16" {
			return rc
		}
		return bitsClass(rc.bits())
	}
	// move converts operand x to class rc of the same width.
	move := func(x string, from, to regClass) string {
		if from == to {
			return x
		}
		d := e.newReg(to)
		e.emit(movB(to.bits()), d, x)
		return d
	}
	out := e.opSlice(len(dts))
	switch {
	case sb == db:
		for k := range xs {
			sc, _ := e.lay.classOf(ts[k])
			dc, _ := e.lay.classOf(dts[k])
			out[k] = move(xs[k], sc, dc)
		}
	case db > sb:
		n := db / sb
		for k := range dts {
			parts := e.partsOf(n)
			for j := range parts {
				sc, _ := e.lay.classOf(ts[k*n+j])
				parts[j] = move(e.inReg(xs[k*n+j], sc), sc, pack(ts[k*n+j]))
			}
			w := e.newReg(bitsClass(db))
			e.emit(movB(db), w, e.joinOps("{", parts, "}"))
			dc, _ := e.lay.classOf(dts[k])
			out[k] = move(w, bitsClass(db), dc)
		}
	default:
		n := sb / db
		for k := range xs {
			sc, _ := e.lay.classOf(ts[k])
			w := move(e.inReg(xs[k], sc), sc, bitsClass(sb))
			parts := e.partsOf(n)
			for j := range parts {
				parts[j] = e.newReg(pack(dts[k*n+j]))
			}
			e.emit(movB(sb), e.joinOps("{", parts, "}"), w)
			for j, p := range parts {
				dc, _ := e.lay.classOf(dts[k*n+j])
				out[k*n+j] = move(p, pack(dts[k*n+j]), dc)
			}
		}
	}
	return out, nil
}

// partsOf returns e.parts resized to n, scratch of repack.
func (e *fnEmitter) partsOf(n int) []string {
	if cap(e.parts) < n {
		e.parts = make([]string, n)
	}
	e.parts = e.parts[:n]
	return e.parts
}

// typeName is the PTX type kind followed by bits ("s32").
func typeName(kind byte, bits int) string {
	switch kind {
	case 's':
		switch bits {
		case 16:
			return "s16"
		case 32:
			return "s32"
		case 64:
			return "s64"
		}
	case 'u':
		switch bits {
		case 16:
			return "u16"
		case 32:
			return "u32"
		case 64:
			return "u64"
		}
	case 'b':
		switch bits {
		case 16:
			return "b16"
		case 32:
			return "b32"
		case 64:
			return "b64"
		}
	}
	return string(rune(kind)) + strconv.Itoa(bits)
}

// movB is the opcode "mov.bN".
func movB(bits int) string {
	switch bits {
	case 16:
		return "mov.b16"
	case 32:
		return "mov.b32"
	case 64:
		return "mov.b64"
	}
	return "mov.b" + strconv.Itoa(bits)
}

// repackBytes converts between i8 leaves and wider leaves (i32 to
// <4 x i8>, <8 x i8> to i64, ...): bytes are cut out with shifts and put
// in with bfi, in a working register of at least 32 bits.
func (e *fnEmitter) repackBytes(xs []string, ts, dts []types.Type) ([]string, error) {
	if e.leafBits(ts[0]) == 8 { // pack
		db := e.leafBits(dts[0])
		n, w := db/8, max(db, 32)
		out := make([]string, len(dts))
		for k := range dts {
			var acc string
			for j := 0; j < n; j++ {
				b := e.newReg(bitsClass(w))
				e.emit("cvt.u"+strconv.Itoa(w)+".u16", b, e.inReg(xs[k*n+j], rcB16))
				if j == 0 {
					acc = b
					continue
				}
				d := e.newReg(bitsClass(w))
				e.emit("bfi.b"+strconv.Itoa(w), d, b, acc, strconv.Itoa(8*j), "8")
				acc = d
			}
			if w != db {
				d := e.newReg(bitsClass(db))
				e.emit("cvt.u"+strconv.Itoa(db)+".u"+strconv.Itoa(w), d, acc)
				acc = d
			}
			dc, err := e.lay.classOf(dts[k])
			if err != nil {
				return nil, err
			}
			if dc != bitsClass(db) {
				d := e.newReg(dc)
				e.emit("mov.b"+strconv.Itoa(db), d, acc)
				acc = d
			}
			out[k] = acc
		}
		return out, nil
	}
	sb := e.leafBits(ts[0]) // unpack
	n, w := sb/8, max(sb, 32)
	var out []string
	for k, t := range ts {
		sc, err := e.lay.classOf(t)
		if err != nil {
			return nil, err
		}
		x := e.inReg(xs[k], sc)
		if sc != bitsClass(sb) {
			d := e.newReg(bitsClass(sb))
			e.emit("mov.b"+strconv.Itoa(sb), d, x)
			x = d
		}
		if w != sb {
			d := e.newReg(bitsClass(w))
			e.emit("cvt.u"+strconv.Itoa(w)+".u"+strconv.Itoa(sb), d, x)
			x = d
		}
		for j := 0; j < n; j++ {
			part := x
			if j > 0 {
				part = e.newReg(bitsClass(w))
				e.emit("shr.u"+strconv.Itoa(w), part, x, strconv.Itoa(8*j))
			}
			d := e.newReg(rcB16)
			e.emit("cvt.u16.u"+strconv.Itoa(w), d, part)
			out = append(out, d)
		}
	}
	return out, nil
}

// gep computes an address: base + sum(index * stride) + constant offset.
func (e *fnEmitter) gep(elem types.Type, src value.Value, indices []value.Value, res types.Type) ([]string, error) {
	a, pbits, err := e.gepAddr(elem, src, indices, res)
	if err != nil {
		return nil, err
	}
	return e.one(e.offsetReg(a, pbits)), nil
}

// getElementPtr leaves a gep folded (see fold.go) when every use of it takes
// a register plus an offset, and computes it otherwise.
func (e *fnEmitter) getElementPtr(i *ir.InstGetElementPtr) error {
	a, pbits, err := e.gepAddr(i.ElemType, i.Src, i.Indices, i.Typ)
	if err != nil {
		return err
	}
	if in := e.infoOf(i); a.off != 0 && fitsOffset(a.off) && in.uses.other == 0 {
		in.folded, in.addr = true, a
		return nil
	}
	e.set(i, e.one(e.offsetReg(a, pbits)))
	return nil
}

// gepAddr computes the register part of a gep's address, base +
// sum(index * stride), and returns it with the constant byte offset and the
// pointer width. Within a block, index*stride and base+index*stride are
// computed once for each index, stride and base.
func (e *fnEmitter) gepAddr(elem types.Type, src value.Value, indices []value.Value, res types.Type) (addr, int, error) {
	pt, ok := src.Type().(*types.PointerType)
	if !ok || leafCount(res) != 1 {
		return addr{}, 0, fmt.Errorf("vector getelementptr is not supported")
	}
	pbits := e.lay.pointerBits(pt.AddrSpace)
	prc := bitsClass(pbits)
	a, err := e.address(src, pbits)
	if err != nil {
		return addr{}, 0, err
	}
	base, off := a.reg, a.off
	t := elem
	for n, ix := range indices {
		var stride int64
		if n == 0 {
			stride, _, err = e.lay.sizeAlign(elem)
		} else {
			switch tt := t.(type) {
			case *types.StructType:
				k, ok := constIndex(ix)
				if !ok {
					return addr{}, 0, fmt.Errorf("struct index must be constant")
				}
				fo, err := e.lay.fieldOffset(tt, int(k))
				if err != nil {
					return addr{}, 0, err
				}
				off += fo
				t = tt.Fields[k]
				continue
			case *types.ArrayType:
				t = tt.ElemType
			case *types.VectorType:
				t = tt.ElemType
			default:
				return addr{}, 0, fmt.Errorf("cannot index into %s", t)
			}
			stride, _, err = e.lay.sizeAlign(t)
		}
		if err != nil {
			return addr{}, 0, err
		}
		ix, c := peelConstant(ix, pbits)
		off += c * stride
		if k, ok := constIndex(ix); ok {
			off += k * stride
			continue
		}
		key := scaledKey{base, ix, stride}
		if d, ok := e.scaled[key]; ok {
			base = d
			continue
		}
		termKey := scaledKey{"", ix, stride}
		term, ok := e.scaled[termKey]
		if !ok {
			if term, err = e.scaledIndex(ix, stride, pbits); err != nil {
				return addr{}, 0, err
			}
			e.scaled[termKey] = term
		}
		d := e.newReg(prc)
		e.emit("add.s"+strconv.Itoa(pbits), d, base, term)
		e.scaled[key] = d
		base = d
	}
	if !fitsOffset(off) {
		return addr{e.offsetReg(addr{base, off}, pbits), 0}, pbits, nil
	}
	return addr{base, off}, pbits, nil
}

// scaledIndex returns index*stride as a pointer-width integer. Indices are
// signed, as in LLVM.
func (e *fnEmitter) scaledIndex(ix value.Value, stride int64, pbits int) (string, error) {
	wide := "mul.wide.s32"
	switch ext := ix.(type) { // fold an i32 -> i64 extension into mul.wide
	case *ir.InstSExt:
		if intBits(ext.From.Type()) == 32 && pbits == 64 && stride != 1 {
			ix = ext.From
		}
	case *ir.InstZExt:
		if intBits(ext.From.Type()) == 32 && pbits == 64 && stride != 1 {
			ix, wide = ext.From, "mul.wide.u32"
		}
	}
	x, err := e.getOne(ix)
	if err != nil {
		return "", err
	}
	ib := intBits(ix.Type())
	prc := bitsClass(pbits)
	if ib == 32 && pbits == 64 && stride != 1 {
		d := e.newReg(prc)
		e.emit(wide, d, x, strconv.FormatInt(stride, 10))
		return d, nil
	}
	if ib != pbits {
		w := e.newReg(prc)
		src := ib
		if ib == 8 {
			x = e.extend8(x, 8, true)
			src = 16
		}
		e.emit("cvt.s"+strconv.Itoa(pbits)+".s"+strconv.Itoa(src), w, x)
		x = w
	}
	switch {
	case stride == 1:
		return x, nil
	case stride > 0 && stride&(stride-1) == 0:
		d := e.newReg(prc)
		e.emit("shl.b"+strconv.Itoa(pbits), d, x, strconv.Itoa(bits.TrailingZeros64(uint64(stride))))
		return d, nil
	}
	d := e.newReg(prc)
	e.emit("mul.lo.s"+strconv.Itoa(pbits), d, x, strconv.FormatInt(stride, 10))
	return d, nil
}
