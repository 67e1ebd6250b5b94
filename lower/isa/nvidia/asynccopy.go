package nvidia

import (
	"fmt"

	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
)

// AsyncCopy emits cp.async as Triton's AsyncCopyGlobalToLocal does: .cg (L2 only) for
// 16 bytes, .ca below, with a source size of 0 (zero fill) where mask is false.
func (n *ISA) AsyncCopy(dst, src value.Value, bytes int, mask, pred value.Value) {
	cache := "ca"
	if bytes == 16 {
		cache = "cg"
	}
	text := fmt.Sprintf("cp.async.%s.shared.global [$0], [$1], %d", cache, bytes)
	cons := "r,l"
	args := []value.Value{dst, src}
	if mask != nil {
		b := n.b.Block()
		text += ", $2"
		cons += ",r"
		args = append(args, b.NewSelect(mask, isa.I32(int64(bytes)), isa.I32(0)))
	}
	if pred != nil {
		text = fmt.Sprintf("@$%d ", len(args)) + text
		cons += ",b"
		args = append(args, pred)
	}
	n.b.Asm(types.Void, text+";", cons, args...)
}

// AsyncCommit emits cp.async.commit_group.
func (n *ISA) AsyncCommit() { n.b.Asm(types.Void, "cp.async.commit_group;", "~{memory}") }

// AsyncWait emits cp.async.wait_group pending.
func (n *ISA) AsyncWait(pending int) {
	n.b.Asm(types.Void, fmt.Sprintf("cp.async.wait_group %d;", pending), "~{memory}")
}
