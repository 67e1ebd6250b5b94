package nvidia

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/tileir"
)

// constraint is the inline-asm register constraint of a word of bits bits.
func constraint(bits int) string {
	return map[int]string{64: "l", 32: "r", 16: "h", 8: "c"}[bits]
}

func vecSuffix(n int) string {
	if n > 1 {
		return fmt.Sprintf(".v%d", n)
	}
	return ""
}

// qualifiers are the state space, cache operator and eviction priorities of a global
// access: an eviction policy is the L1 priority and, through a cache policy operand
// (cachePolicy), the L2 one, as Triton spells them.
func qualifiers(a isa.Access) string {
	s := ""
	if a.Volatile {
		s = ".volatile"
	}
	s += ".global"
	if a.Cache != "" {
		s += "." + a.Cache
	}
	if a.Evict != "" {
		s += ".L1::" + a.Evict + ".L2::cache_hint"
	}
	return s
}

// cachePolicy makes the L2 cache policy (a 64-bit register) of an access's eviction
// policy with createpolicy, once per access as Triton 3.6 does on sm_80 and later (every
// NVIDIA target here); nil when the access has none.
func (n *ISA) cachePolicy(a isa.Access) value.Value {
	if a.Evict == "" {
		return nil
	}
	return n.b.Asm(types.I64, "createpolicy.fractional.L2::"+a.Evict+".b64 $0, 1.0;", "=l")
}

// policyOperand adds the cache policy operand (if any) to an access's constraints and
// arguments, and returns its text in the instruction ("" without one).
func policyOperand(policy value.Value, cons *[]string, args *[]value.Value) string {
	if policy == nil {
		return ""
	}
	text := fmt.Sprintf(", $%d", len(*cons))
	*cons = append(*cons, "l")
	*args = append(*args, policy)
	return text
}

// LoadGlobal emits Triton's predicated vector load: the outputs start as other (or
// zero), and ld.global runs only where pred holds.
func (n *ISA) LoadGlobal(a isa.Access, ptr, pred value.Value, other []value.Value) []value.Value {
	policy := n.cachePolicy(a)
	var text strings.Builder
	words := a.Words
	c := constraint(a.WordBits)
	cons := make([]string, 0, 2*words+2)
	args := make([]value.Value, 0, words+2)
	movBits := max(a.WordBits, 16)
	for w := range words {
		cons = append(cons, "="+c)
		if other != nil {
			fmt.Fprintf(&text, "mov.u%d $%d, $%d;\n\t", movBits, w, words+w)
		} else {
			fmt.Fprintf(&text, "mov.u%d $%d, 0x0;\n\t", movBits, w)
		}
	}
	if other != nil {
		for w := range words {
			cons = append(cons, c)
			args = append(args, other[w])
		}
	}
	addr := len(cons)
	cons = append(cons, "l")
	args = append(args, ptr)
	pol := policyOperand(policy, &cons, &args)
	if pred != nil {
		fmt.Fprintf(&text, "@$%d ", len(cons))
		cons = append(cons, "b")
		args = append(args, pred)
	}
	outs := make([]string, words)
	for w := range outs {
		outs[w] = fmt.Sprintf("$%d", w)
	}
	fmt.Fprintf(&text, "ld%s%s.b%d { %s }, [ $%d + 0 ]%s;", qualifiers(a), vecSuffix(words), a.WordBits, strings.Join(outs, ", "), addr, pol)
	wt := isa.IntType(a.WordBits)
	ret := wt
	if words > 1 {
		fields := make([]types.Type, words)
		for i := range fields {
			fields[i] = wt
		}
		ret = types.NewStruct(fields...)
	}
	call := n.b.Asm(ret, text.String(), strings.Join(cons, ","), args...)
	if words == 1 {
		return []value.Value{call}
	}
	out := make([]value.Value, words)
	for w := range out {
		out[w] = n.b.Extract(call, w)
	}
	return out
}

// StoreGlobal emits Triton's predicated vector store, st.global.
func (n *ISA) StoreGlobal(a isa.Access, ptr, pred value.Value, words []value.Value) {
	policy := n.cachePolicy(a)
	c := constraint(a.WordBits)
	cons := make([]string, 0, len(words)+2)
	ins := make([]string, len(words))
	for w := range words {
		cons = append(cons, c)
		ins[w] = fmt.Sprintf("$%d", w)
	}
	args := append(make([]value.Value, 0, len(words)+2), words...)
	addr := len(cons)
	cons = append(cons, "l")
	args = append(args, ptr)
	pol := policyOperand(policy, &cons, &args)
	text := ""
	if pred != nil {
		text = fmt.Sprintf("@$%d ", len(cons))
		cons = append(cons, "b")
		args = append(args, pred)
	}
	a.Volatile = false // st.volatile is not what tl.store(volatile=…) means
	text += fmt.Sprintf("st%s%s.b%d [ $%d + 0 ], { %s }%s;", qualifiers(a), vecSuffix(len(words)), a.WordBits, addr, strings.Join(ins, ", "), pol)
	n.b.Asm(types.Void, text, strings.Join(cons, ","), args...)
}

// StoreShared stores v at a shared pointer where pred holds, as Triton's st.shared.
func (n *ISA) StoreShared(ptr, v, pred value.Value) {
	bits := bitSize(v.Type())
	w := v
	if _, ok := v.Type().(*types.FloatType); ok {
		w = n.b.BitCast(v, types.NewInt(uint64(bits)))
	}
	n.b.Asm(types.Void, fmt.Sprintf("@$2 st.shared.b%d [ $0 + 0 ], $1;", bits), "r,"+constraint(bits)+",b", ptr, w, pred)
}

// bitSize is the size of an integer or float type in bits.
func bitSize(t types.Type) int {
	switch t := t.(type) {
	case *types.IntType:
		return int(t.BitSize)
	case *types.FloatType:
		switch t.Kind {
		case types.FloatKindHalf:
			return 16
		case types.FloatKindFloat:
			return 32
		}
	}
	return 64
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
	case kind == "cas" && b >= 16:
		// CAS compares and swaps bits: floats go through the integer CAS of their width.
		return fmt.Sprintf(".b%d", b), nil
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

// CheckAtomic reports whether atom has the operation and type of op.
func (n *ISA) CheckAtomic(op isa.Atomic) error {
	if _, ok := atomOps[op.Kind]; !ok {
		return fmt.Errorf("atomic %q not supported", op.Kind)
	}
	_, err := atomicType(op.Kind, op.Elem)
	return err
}

// Atomic emits a predicated atom.global (the result is zero where pred fails).
func (n *ISA) Atomic(op isa.Atomic, ptr, pred value.Value, operands []value.Value) value.Value {
	ts, _ := atomicType(op.Kind, op.Elem)
	c := constraint(op.WordBits)
	cons := []string{"=" + c, "l"}
	args := []value.Value{ptr}
	ops := ""
	for i, x := range operands {
		cons = append(cons, c)
		args = append(args, x)
		ops += fmt.Sprintf(", $%d", 2+i)
	}
	text := fmt.Sprintf("mov.u%d $0, 0x0;\n\t", max(op.WordBits, 16))
	if pred != nil {
		text += fmt.Sprintf("@$%d ", len(cons))
		cons = append(cons, "b")
		args = append(args, pred)
	}
	text += atomText(op.Kind, suffix(op.Sem), suffix(op.Scope), ts) + fmt.Sprintf(" $0, [ $1 + 0 ]%s;", ops)
	return n.b.Asm(isa.IntType(op.WordBits), text, strings.Join(cons, ","), args...)
}

// suffix is ".s", or "" for "".
func suffix(s string) string {
	if s == "" {
		return ""
	}
	return "." + s
}
