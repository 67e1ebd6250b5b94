package lower

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/tileir"
)

func init() {
	lowerings["tt.load"] = lowerLoad
	lowerings["tt.store"] = lowerStore
	lowerings["tt.atomic_rmw"] = lowerAtomic
	lowerings["tt.atomic_cas"] = lowerAtomic
}

// access describes one global-memory op after layout: its registers grouped into vectors.
type access struct {
	vec              int        // elements per vector access
	elem             types.Type // register type of one element
	mem              types.Type // in-memory type of one element
	bits             int        // bits per element in memory
	wordBits, nWords int
}

func (a access) constraint() string {
	return map[int]string{64: "l", 32: "r", 16: "h", 8: "c"}[a.wordBits]
}

func (a access) wordType() types.Type { return intType(a.wordBits) }

// intType returns iN, llir's shared type for the common widths.
func intType(bits int) types.Type {
	switch bits {
	case 1:
		return types.I1
	case 8:
		return types.I8
	case 16:
		return types.I16
	case 32:
		return types.I32
	case 64:
		return types.I64
	case 128:
		return types.I128
	}
	return types.NewInt(uint64(bits))
}

// vecWidth returns how many consecutive registers of layout l one access may cover:
// registers that step by one element along a dimension, within the pointer's contiguity
// and alignment, the mask's constancy and 128 bits.
func (g *gen) vecWidth(ptr, mask *tileir.Value, l *linLayout, bits int) int {
	if !isTensor(ptr) || len(l.reg) == 0 {
		return 1
	}
	d := -1
	for i, c := range l.reg[0] {
		if c == 1 {
			d = i
		}
	}
	if d < 0 {
		return 1
	}
	run := 1
	for k, b := range l.reg {
		unit := make([]int, len(b))
		unit[d] = 1 << k
		if coordKey(b) != coordKey(unit) {
			break
		}
		run *= 2
	}
	info := g.axes.get(ptr)
	eb := int64(max(bits/8, 1))
	vec := min(int64(run), info.contig[d], max(info.div[d]/eb, 1), int64(max(128/bits, 1)))
	if mask != nil && isTensor(mask) {
		vec = min(vec, g.axes.get(mask).constancy[d])
	}
	p := 1
	for int64(p*2) <= vec {
		p *= 2
	}
	return p
}

func (g *gen) newAccess(op *tileir.Op, vec int) (access, error) {
	pt := tileir.ElemType(op.Operands[0].Type).(*tileir.PtrType)
	et, err := g.llType(tileir.WithElem(op.Operands[0].Type, pt.Elem()))
	if err != nil {
		return access{}, err
	}
	return g.accessOf(et, vec), nil
}

// accessOf describes vector accesses of vec elements of register type et.
func (g *gen) accessOf(et types.Type, vec int) access {
	a := access{vec: vec, elem: et, mem: storableType(et)}
	a.bits = byteSize(a.mem) * 8
	total := vec * a.bits
	a.wordBits = min(total, max(32, a.bits))
	a.nWords = total / a.wordBits
	return a
}

// cacheSuffix returns the ld/st qualifiers of the op's cache attributes.
func cacheSuffix(op *tileir.Op) string {
	s := ""
	if op.Attr("isVolatile") == tileir.BoolAttr(true) {
		s = ".volatile"
	}
	s += ".global"
	if c := op.EnumAttr("cache"); c != "" && c != "none" {
		s += "." + c
	}
	return s
}

func vecSuffix(n int) string {
	if n > 1 {
		return fmt.Sprintf(".v%d", n)
	}
	return ""
}

// pack turns a vector's elements into its memory words.
func (g *gen) pack(a access, elems []value.Value) []value.Value {
	per := a.wordBits / a.bits
	words := make([]value.Value, a.nWords)
	for w := range words {
		part := elems[w*per : (w+1)*per]
		if per == 1 {
			words[w] = g.bitCast(g.toStorable(part[0]), a.wordType())
			if a.mem.Equal(a.wordType()) {
				words[w] = g.toStorable(part[0])
			}
			continue
		}
		vt := g.vecType(per, a.mem)
		var v value.Value = g.undef(vt)
		for i, e := range part {
			v = g.insertElement(v, g.toStorable(e), i32c(int64(i)))
		}
		words[w] = g.bitCast(v, a.wordType())
	}
	return words
}

// unpack splits memory words into elements.
func (g *gen) unpack(a access, words []value.Value) []value.Value {
	per := a.wordBits / a.bits
	var out []value.Value
	for _, w := range words {
		if per == 1 {
			v := w
			if !a.mem.Equal(a.wordType()) {
				v = g.bitCast(w, a.mem)
			}
			out = append(out, g.fromStorable(v, a.elem))
			continue
		}
		vec := g.bitCast(w, g.vecType(per, a.mem))
		for i := range per {
			out = append(out, g.fromStorable(g.extractElement(vec, i32c(int64(i))), a.elem))
		}
	}
	return out
}

// operands returns the registers of op's optional operand i in encoding e, or nil.
func (g *gen) optional(op *tileir.Op, i int, e encoding) []value.Value {
	if i >= len(op.Operands) {
		return nil
	}
	return g.in(op.Operands[i], e)
}

func lowerLoad(g *gen, op *tileir.Op) error {
	if _, ok := tileir.ElemType(op.Operands[0].Type).(*tileir.PtrType).Elem().(*tileir.TensorType); ok {
		return lowerBlockLoad(g, op)
	}
	res := op.Results[0]
	e := g.enc[res]
	ptrs, masks, others := g.in(op.Operands[0], e), g.optional(op, 1, e), g.optional(op, 2, e)
	var l *linLayout
	if e != nil {
		l = g.layoutOf(res)
	}
	var mask *tileir.Value
	if len(op.Operands) > 1 {
		mask = op.Operands[1]
	}
	a, err := g.newAccess(op, 1)
	if err != nil {
		return g.errorf(op, "%v", err)
	}
	if l != nil {
		a, _ = g.newAccess(op, g.vecWidth(op.Operands[0], mask, l, a.bits))
	}
	out := make([]value.Value, len(ptrs))
	for r := 0; r < len(ptrs); r += a.vec {
		var otherWords []value.Value
		if others != nil {
			otherWords = g.pack(a, others[r:r+a.vec])
		}
		var pred value.Value
		if masks != nil {
			pred = masks[r]
		}
		words := g.loadWords(a, ptrs[r], pred, otherWords, cacheSuffix(op))
		copy(out[r:], g.unpack(a, words))
	}
	g.vals[res] = out
	return nil
}

// loadWords emits Triton's predicated vector load: the outputs start as other (or zero),
// and the load runs only where pred holds.
func (g *gen) loadWords(a access, ptr, pred value.Value, other []value.Value, qual string) []value.Value {
	var text strings.Builder
	n := a.nWords
	cons := make([]string, 0, 2*n+2)
	args := make([]value.Value, 0, n+2)
	movBits := max(a.wordBits, 16)
	for w := range n {
		cons = append(cons, "="+a.constraint())
		if other != nil {
			fmt.Fprintf(&text, "mov.u%d $%d, $%d;\n\t", movBits, w, n+w)
		} else {
			fmt.Fprintf(&text, "mov.u%d $%d, 0x0;\n\t", movBits, w)
		}
	}
	if other != nil {
		for w := range n {
			cons = append(cons, a.constraint())
			args = append(args, other[w])
		}
	}
	addr := len(cons)
	cons = append(cons, "l")
	args = append(args, ptr)
	if pred != nil {
		fmt.Fprintf(&text, "@$%d ", len(cons))
		cons = append(cons, "b")
		args = append(args, pred)
	}
	outs := make([]string, n)
	for w := range outs {
		outs[w] = fmt.Sprintf("$%d", w)
	}
	fmt.Fprintf(&text, "ld%s%s.b%d { %s }, [ $%d + 0 ];", qual, vecSuffix(n), a.wordBits, strings.Join(outs, ", "), addr)
	var ret types.Type = a.wordType()
	if n > 1 {
		fields := make([]types.Type, n)
		for i := range fields {
			fields[i] = a.wordType()
		}
		ret = types.NewStruct(fields...)
	}
	call := g.asm(ret, text.String(), strings.Join(cons, ","), args...)
	if n == 1 {
		return []value.Value{call}
	}
	words := make([]value.Value, n)
	for w := range words {
		words[w] = g.extract(call, w)
	}
	return words
}

// owner returns the predicate of the threads that own the elements of layout l: lanes
// and warps that merely hold copies (a zero basis) stay quiet. For a scalar (l == nil)
// only thread 0 owns it. It returns nil when every thread owns its elements.
func (g *gen) owner(l *linLayout) value.Value {
	if l == nil {
		return g.cur.NewICmp(enum.IPredEQ, g.tid, i32c(0))
	}
	zeroMask := func(bases [][]int) int64 {
		m := int64(0)
		for b, v := range bases {
			if isZero(v) {
				m |= 1 << b
			}
		}
		return m
	}
	var pred value.Value
	for _, p := range []struct {
		id   value.Value
		mask int64
	}{{g.lane, zeroMask(l.lane)}, {g.warp, zeroMask(l.warp)}} {
		if p.mask == 0 {
			continue
		}
		c := g.cur.NewICmp(enum.IPredEQ, g.cur.NewAnd(p.id, i32c(p.mask)), i32c(0))
		if pred == nil {
			pred = c
		} else {
			pred = g.cur.NewAnd(pred, c)
		}
	}
	return pred
}

func andPred(g *gen, a, b value.Value) value.Value {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return g.cur.NewAnd(a, b)
}

func lowerStore(g *gen, op *tileir.Op) error {
	if _, ok := tileir.ElemType(op.Operands[0].Type).(*tileir.PtrType).Elem().(*tileir.TensorType); ok {
		return lowerBlockStore(g, op)
	}
	ptr := op.Operands[0]
	e := g.enc[ptr]
	ptrs, vals, masks := g.in(ptr, e), g.in(op.Operands[1], e), g.optional(op, 2, e)
	var l *linLayout
	var mask *tileir.Value
	if len(op.Operands) > 2 {
		mask = op.Operands[2]
	}
	if e != nil {
		l = g.layoutOf(ptr)
	}
	a, err := g.newAccess(op, 1)
	if err != nil {
		return g.errorf(op, "%v", err)
	}
	if l != nil {
		a, _ = g.newAccess(op, g.vecWidth(ptr, mask, l, a.bits))
	}
	own := g.owner(l)
	for r := 0; r < len(ptrs); r += a.vec {
		var m value.Value
		if masks != nil {
			m = masks[r]
		}
		g.storeWords(a, ptrs[r], andPred(g, own, m), g.pack(a, vals[r:r+a.vec]), strings.TrimPrefix(cacheSuffix(op), ".volatile"))
	}
	return nil
}

// storeWords emits Triton's predicated vector store.
func (g *gen) storeWords(a access, ptr, pred value.Value, words []value.Value, qual string) {
	cons := make([]string, 0, len(words)+2)
	ins := make([]string, len(words))
	for w := range words {
		cons = append(cons, a.constraint())
		ins[w] = fmt.Sprintf("$%d", w)
	}
	args := append(make([]value.Value, 0, len(words)+2), words...)
	addr := len(cons)
	cons = append(cons, "l")
	args = append(args, ptr)
	text := ""
	if pred != nil {
		text = fmt.Sprintf("@$%d ", len(cons))
		cons = append(cons, "b")
		args = append(args, pred)
	}
	text += fmt.Sprintf("st%s%s.b%d [ $%d + 0 ], { %s };", qual, vecSuffix(len(words)), a.wordBits, addr, strings.Join(ins, ", "))
	g.asm(types.Void, text, strings.Join(cons, ","), args...)
}

// atomOps maps tt.atomic_rmw kinds to PTX atom operations (the type suffix tells signed,
// unsigned and float apart).
var atomOps = map[string]string{"and": "and", "or": "or", "xor": "xor", "add": "add", "fadd": "add", "max": "max",
	"min": "min", "umax": "max", "umin": "min", "exch": "exch", "cas": "cas"}

// atomicType returns PTX's type suffix of an atomic op on elements of type s.
func atomicType(kind string, s tileir.Scalar) (string, error) {
	b := s.Bits()
	switch {
	case kind == "fadd" && s == tileir.F16:
		return ".noftz.f16", nil
	case kind == "fadd" && s == tileir.BF16:
		return ".noftz.bf16", nil
	case kind == "fadd" && (s == tileir.F32 || s == tileir.F64):
		return fmt.Sprintf(".f%d", b), nil
	case !s.IsInt() || b < 32:
		return "", fmt.Errorf("atomic %s on %s not supported", kind, s)
	case kind == "max" || kind == "min":
		return fmt.Sprintf(".s%d", b), nil
	case kind == "add" || kind == "umax" || kind == "umin":
		return fmt.Sprintf(".u%d", b), nil
	}
	return fmt.Sprintf(".b%d", b), nil
}

// atomText is the atom instruction as Triton 3.6 spells it: the memory semantics and
// scope it was given (relaxed/acquire/release/acq_rel; cta/gpu/sys) printed always, with
// no fence around it. Its CAS puts the semantics first (atom.global.acq_rel.gpu.cas.b32),
// its read-modify-writes the scope first (atom.global.gpu.acq_rel.exch.b32); PTX takes
// either order. sem and scope are ".acq_rel", ".gpu" and so on, or "" when absent.
func atomText(kind, sem, scope, ts string) string {
	if kind == "cas" {
		return "atom.global" + sem + scope + ".cas" + ts
	}
	return "atom.global" + scope + sem + "." + atomOps[kind] + ts
}

// lowerAtomic lowers tt.atomic_rmw and tt.atomic_cas to predicated atom.global, one
// element at a time, issued only by the threads that own each element. When copies of
// the result live in other threads, the owners hand it over through shared memory.
func lowerAtomic(g *gen, op *tileir.Op) error {
	res := op.Results[0]
	e := g.enc[res]
	s := tileir.ScalarOf(res.Type)
	kind, nIn, maskIdx := op.EnumAttr("atomic_rmw_op"), 1, 2
	if op.Name == "tt.atomic_cas" {
		kind, nIn, maskIdx = "cas", 2, 3
	}
	sem := map[string]string{"relaxed": ".relaxed", "acquire": ".acquire", "release": ".release", "acq_rel": ".acq_rel"}[op.EnumAttr("sem")]
	scope := map[string]string{"gpu": ".gpu", "cta": ".cta", "sys": ".sys"}[op.EnumAttr("scope")]
	if s := op.EnumAttr("sem"); sem == "" && s != "" {
		return g.errorf(op, "atomic memory semantics %q not supported", s)
	}
	if s := op.EnumAttr("scope"); scope == "" && s != "" {
		return g.errorf(op, "atomic scope %q not supported", s)
	}
	if _, ok := atomOps[kind]; !ok {
		return g.errorf(op, "atomic %q not supported", kind)
	}
	ts, err := atomicType(kind, s)
	if err != nil {
		return g.errorf(op, "%v", err)
	}
	ptrs := g.in(op.Operands[0], e)
	ins := make([][]value.Value, nIn)
	for i := range ins {
		ins[i] = g.in(op.Operands[1+i], e)
	}
	masks := g.optional(op, maskIdx, e)
	var l *linLayout
	if e != nil {
		l = g.layoutOf(res)
	}
	own := g.owner(l)
	a, err := g.newAccess(op, 1)
	if err != nil {
		return g.errorf(op, "%v", err)
	}
	if own != nil {
		// The owners act for every thread that holds a copy of the element: the block
		// first synchronizes, so that no thread's earlier access (in program order) of the
		// location is still to come when the atomic is performed. Without it, thread 0's
		// atomic_xchg(written, 1) in a lock-protected "if tl.load(written) == 0" can land
		// before another warp's load of written: the warps then take different branches
		// and pair up different bar.syncs (the racecheck hazards in layer_norm_bwd_dx).
		g.barrier()
	}
	out := make([]value.Value, len(ptrs))
	for r := range ptrs {
		var m value.Value
		if masks != nil {
			m = masks[r]
		}
		pred := andPred(g, own, m)
		cons := []string{"=" + a.constraint(), "l"}
		args := []value.Value{ptrs[r]}
		ops := ""
		for i := range ins {
			cons = append(cons, a.constraint())
			args = append(args, g.pack(a, ins[i][r:r+1])[0])
			ops += fmt.Sprintf(", $%d", 2+i)
		}
		text := fmt.Sprintf("mov.u%d $0, 0x0;\n\t", max(a.wordBits, 16))
		if pred != nil {
			text += fmt.Sprintf("@$%d ", len(cons))
			cons = append(cons, "b")
			args = append(args, pred)
		}
		text += atomText(kind, sem, scope, ts) + fmt.Sprintf(" $0, [ $1 + 0 ]%s;", ops)
		w := g.asm(a.wordType(), text, strings.Join(cons, ","), args...)
		out[r] = g.unpack(a, []value.Value{w})[0]
	}
	if own != nil && g.used(res) {
		// Only the owners hold the result; when it is used, every copy is handed over.
		// Triton skips this exchange (atomicNeedsSharedMemory) when nothing uses it.
		out = g.shareFromOwners(out, l)
	}
	g.vals[res] = out
	return nil
}

// shareFromOwners gives every thread the value its element's owner computed, through
// shared memory (for scalars, thread 0's).
func (g *gen) shareFromOwners(vals []value.Value, l *linLayout) []value.Value {
	if l == nil {
		zero := index{at: []value.Value{i32c(0)}}
		return g.exchangeMany([][]value.Value{vals}, []index{zero}, []index{zero}, 1, g.owner(nil))[0]
	}
	idx := g.linearIndex(l, nil, nil)
	return g.exchangeMany([][]value.Value{vals}, []index{idx}, []index{idx}, numel(l.shape), g.owner(l))[0]
}

// storeShared stores v at a shared pointer where pred holds, as Triton's st.shared.
func (g *gen) storeShared(ptr, v, pred value.Value) {
	bits := byteSize(v.Type()) * 8
	cons := map[int]string{64: "l", 32: "r", 16: "h", 8: "c"}[bits]
	w := v
	if _, ok := v.Type().(*types.FloatType); ok {
		w = g.bitCast(v, types.NewInt(uint64(bits)))
	}
	g.asm(types.Void, fmt.Sprintf("@$2 st.shared.b%d [ $0 + 0 ], $1;", bits), "r,"+cons+",b", ptr, w, pred)
}
