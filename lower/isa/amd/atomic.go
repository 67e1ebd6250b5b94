package amd

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/tileir"
)

// rmwOps maps tt.atomic_rmw kinds to LLVM's atomicrmw operations.
var rmwOps = map[string]enum.AtomicOp{"and": enum.AtomicOpAnd, "or": enum.AtomicOpOr, "xor": enum.AtomicOpXor,
	"add": enum.AtomicOpAdd, "fadd": enum.AtomicOpFAdd, "max": enum.AtomicOpMax, "min": enum.AtomicOpMin,
	"umax": enum.AtomicOpUMax, "umin": enum.AtomicOpUMin, "exch": enum.AtomicOpXChg}

// orderings maps Triton's memory semantics to LLVM's orderings; absent is acq_rel, as
// Triton's default.
var orderings = map[string]enum.AtomicOrdering{"relaxed": enum.AtomicOrderingMonotonic, "acquire": enum.AtomicOrderingAcquire,
	"release": enum.AtomicOrderingRelease, "acq_rel": enum.AtomicOrderingAcquireRelease, "": enum.AtomicOrderingAcquireRelease}

// scopes maps Triton's scopes to AMDGPU's sync scopes (gpu is the agent, sys the
// default system scope); absent is gpu.
var scopes = map[string]string{"cta": "workgroup", "gpu": "agent", "sys": "", "": "agent"}

// floatType is the LLVM type of a float element of an atomic fadd.
func floatType(s tileir.Scalar) (types.Type, bool) {
	switch s {
	case tileir.F16:
		return types.Half, true
	case tileir.F32:
		return types.Float, true
	case tileir.F64:
		return types.Double, true
	}
	return nil, false
}

// CheckAtomic takes the operations LLVM's atomicrmw and cmpxchg have: on 32- and 64-bit
// integers, fadd on f16, f32 and f64, and cas on any 16-, 32- or 64-bit element, which
// compares and swaps its bits as an integer (as Triton's AMD backend does; LLVM widens a
// 16-bit cmpxchg to a loop of 32-bit ones).
func (a *ISA) CheckAtomic(op isa.Atomic) error {
	switch _, ok := rmwOps[op.Kind]; {
	case op.Kind == "cas":
		if b := op.Elem.Bits(); b != 16 && b != 32 && b != 64 {
			return fmt.Errorf("atomic %s on %s not supported", op.Kind, op.Elem)
		}
		return nil
	case !ok:
		return fmt.Errorf("atomic %q not supported", op.Kind)
	case op.Kind == "fadd":
		if _, ok := floatType(op.Elem); !ok {
			return fmt.Errorf("atomic %s on %s not supported", op.Kind, op.Elem)
		}
		return nil
	}
	if !op.Elem.IsInt() || op.Elem.Bits() < 32 {
		return fmt.Errorf("atomic %s on %s not supported", op.Kind, op.Elem)
	}
	return nil
}

// Atomic emits atomicrmw (cmpxchg for cas) with the op's ordering and scope, in a block
// of its own when pred is given; the old value is zero where pred fails.
func (a *ISA) Atomic(op isa.Atomic, ptr, pred value.Value, operands []value.Value) value.Value {
	word := types.NewInt(uint64(op.WordBits))
	elem := types.Type(word)
	if op.Kind == "fadd" {
		elem, _ = floatType(op.Elem)
	}
	p := a.b.BitCast(ptr, pointerTo(elem, 1))
	ord, scope := orderings[op.Sem], scopes[op.Scope]
	var old value.Value
	emit := func() {
		cur := a.b.Block()
		if op.Kind == "cas" {
			fail := ord // a failed cmpxchg only loads: no release in its ordering
			switch ord {
			case enum.AtomicOrderingRelease:
				fail = enum.AtomicOrderingMonotonic
			case enum.AtomicOrderingAcquireRelease:
				fail = enum.AtomicOrderingAcquire
			}
			x := cur.NewCmpXchg(p, operands[0], operands[1], ord, fail)
			x.SyncScope = scope
			old = a.b.Extract(x, 0)
			return
		}
		x := operands[0]
		if elem != types.Type(word) {
			x = a.b.BitCast(x, elem)
		}
		rmw := cur.NewAtomicRMW(rmwOps[op.Kind], p, x, ord)
		rmw.SyncScope = scope
		old = rmw
		if elem != types.Type(word) {
			old = a.b.BitCast(rmw, word)
		}
	}
	if pred == nil {
		emit()
		return old
	}
	from, then := a.predicated(pred, emit)
	return a.b.Block().NewPhi(ir.NewIncoming(old, then), ir.NewIncoming(zero(word), from))
}
