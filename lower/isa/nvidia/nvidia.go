// Package nvidia is the NVIDIA instruction set of lowering (package lower through package
// isa): the NVPTX target of LLVM, the llvm.nvvm intrinsics, and Triton 3.6's inline PTX
// for what the intrinsics do not cover.
package nvidia

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/target"
)

// Arch is the NVIDIA family: every CUDA target.
var Arch = isa.Arch{Name: "NVIDIA", Supports: target.Target.IsNVIDIA, New: New}

// ISA lowers one kernel for an NVIDIA target.
type ISA struct {
	b        isa.Builder
	t        target.Target
	numWarps int
	noWGMMA  bool // isa.Options.DisableMMAv3
	// fence: the next wgmma.mma_async opens with wgmma.fence (MMAFence).
	fence bool
	// tmaWaits numbers the wait loops' labels of TMA loads.
	tmaWaits int
	// formats holds device_print's format strings.
	formats map[string]*ir.Global
}

// New makes the ISA of one kernel.
func New(b isa.Builder, t target.Target, opts isa.Options) isa.ISA {
	return &ISA{b: b, t: t, numWarps: opts.NumWarps, noWGMMA: opts.DisableMMAv3}
}

// dataLayout is NVPTX's 64-bit data layout, as Triton 3.6 writes it.
const dataLayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

// InitModule sets NVPTX's data layout and triple.
func (n *ISA) InitModule(m *ir.Module) {
	m.DataLayout = dataLayout
	m.TargetTriple = "nvptx64-nvidia-cuda"
}

// DefineKernel makes f a ptx_kernel with nvvm.reqntid = 32 × num_warps.
func (n *ISA) DefineKernel(f *ir.Func) {
	f.CallingConv = enum.CallingConvPTXKernel
	f.FuncAttrs = append(f.FuncAttrs, ir.AttrPair{Key: "nvvm.reqntid", Value: fmt.Sprint(n.numWarps * n.t.WarpSize)})
}

// sregPrefix starts the names of the intrinsics that read special registers.
const sregPrefix = "llvm.nvvm.read.ptx.sreg."

// ThreadID reads %tid.x.
func (n *ISA) ThreadID() value.Value { return n.b.Call(sregPrefix+"tid.x", types.I32) }

// ProgramID reads %ctaid along axis.
func (n *ISA) ProgramID(axis int) value.Value { return n.sreg("ctaid", axis) }

// NumPrograms reads %nctaid along axis.
func (n *ISA) NumPrograms(axis int) value.Value { return n.sreg("nctaid", axis) }

func (n *ISA) sreg(reg string, axis int) value.Value {
	return n.b.Call(sregPrefix+reg+"."+[]string{"x", "y", "z"}[axis], types.I32)
}

// barrierIntrinsic is bar.sync 0.
const barrierIntrinsic = "llvm.nvvm.barrier.cta.sync.aligned.all"

// Barrier emits bar.sync 0.
func (n *ISA) Barrier() { n.b.Call(barrierIntrinsic, types.Void, isa.I32(0)) }

// IsBarrier reports whether inst is a call of bar.sync.
func (n *ISA) IsBarrier(inst ir.Instruction) bool {
	c, ok := inst.(*ir.InstCall)
	if !ok {
		return false
	}
	f, ok := c.Callee.(*ir.Func)
	return ok && f.GlobalName == barrierIntrinsic // not Name(), which parses the name as a number first
}

// ReadsSpecialRegister reports whether call reads a special register (%tid, %ctaid …).
func (n *ISA) ReadsSpecialRegister(call *ir.InstCall) bool {
	f, ok := call.Callee.(*ir.Func)
	return ok && strings.HasPrefix(f.Name(), sregPrefix)
}

// AsmTouchesShared reports whether PTX text names the shared state space or is a wgmma,
// which reads its operands there.
func (n *ISA) AsmTouchesShared(text string) bool {
	return strings.Contains(text, "shared") || strings.Contains(text, "wgmma.mma_async")
}
