// Package amd is the AMD instruction set of lowering (package lower through package isa):
// LLVM's AMDGPU target (amdgcn-amd-amdhsa, wave64 CDNA: gfx90a, gfx942, gfx950) with the
// llvm.amdgcn intrinsics, following Triton 3.6's third_party/amd conventions: ids,
// barriers, masked global accesses (a branch around the access, as Triton's MaskedLoadOp
// and MaskedStoreOp lower), shared memory, ds_bpermute shuffles, atomics (atomic.go), the
// fp8 conversions (fp8.go), the MFMA instructions of dots on gfx90a and gfx942 (mfma.go)
// and HIP's buffered printf (print.go).
package amd

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/target"
)

// Arch is the AMD family: every HIP target.
var Arch = isa.Arch{Name: "AMD", Supports: func(t target.Target) bool { return t.Backend == target.HIP }, New: New}

// ISA lowers one kernel for an AMD target.
type ISA struct {
	b        isa.Builder
	t        target.Target
	numWarps int
	nonKDim  int         // matrix_instr_nonkdim: the MFMA instructions' M and N, 0 to choose
	tid      value.Value // the workitem id, once ThreadID has read it
	clamping bool        // whether the entry sets MODE.fp16_ovfl (setClamping)
}

// New makes the ISA of one kernel.
func New(b isa.Builder, t target.Target, opts isa.Options) isa.ISA {
	return &ISA{b: b, t: t, numWarps: opts.NumWarps, nonKDim: opts.MatrixInstrNonKDim}
}

// dataLayout is AMDGPU's data layout, as LLVM 22 gives it for amdgcn-amd-amdhsa.
const dataLayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"

// InitModule sets AMDGPU's data layout and the HSA triple.
func (a *ISA) InitModule(m *ir.Module) {
	m.DataLayout = dataLayout
	m.TargetTriple = "amdgcn-amd-amdhsa"
}

// DefineKernel makes f an amdgpu_kernel with the attributes Triton 3.6's AMD backend
// gives its kernels (compiler.py, make_llir): a flat work-group size of 1 to the block
// size, uniform work groups, no waves-per-EU bound and IEEE f32 denormals.
func (a *ISA) DefineKernel(f *ir.Func) {
	f.CallingConv = enum.CallingConvAMDGPUKernel
	f.FuncAttrs = append(f.FuncAttrs,
		ir.AttrPair{Key: "amdgpu-flat-work-group-size", Value: fmt.Sprintf("1,%d", a.numWarps*a.t.WarpSize)},
		ir.AttrPair{Key: "amdgpu-waves-per-eu", Value: "0, 0"},
		ir.AttrPair{Key: "denormal-fp-math-f32", Value: "ieee"},
		ir.AttrPair{Key: "uniform-work-group-size", Value: "true"})
}

// ThreadID reads llvm.amdgcn.workitem.id.x.
func (a *ISA) ThreadID() value.Value {
	a.tid = a.b.Call("llvm.amdgcn.workitem.id.x", types.I32)
	return a.tid
}

var axes = []string{"x", "y", "z"}

// ProgramID reads llvm.amdgcn.workgroup.id along axis.
func (a *ISA) ProgramID(axis int) value.Value {
	return a.b.Call("llvm.amdgcn.workgroup.id."+axes[axis], types.I32)
}

// NumPrograms reads the grid's block count along axis from the implicit kernel
// arguments of code object version 5 (hidden_block_count_x, _y, _z at bytes 0, 4, 8),
// as the device library's __ockl_get_num_groups does.
func (a *ISA) NumPrograms(axis int) value.Value {
	cp := types.NewPointer(types.I8)
	cp.AddrSpace = 4
	args := a.b.Call("llvm.amdgcn.implicitarg.ptr", cp)
	cur := a.b.Block()
	p := cur.NewGetElementPtr(types.I8, args, isa.I32(int64(4*axis)))
	ip := types.NewPointer(types.I32)
	ip.AddrSpace = 4
	ld := cur.NewLoad(types.I32, a.b.BitCast(p, ip))
	ld.Align = 4
	return ld
}

// Barrier is what gpu.barrier becomes on AMDGPU: a workgroup release fence, s_barrier,
// and a workgroup acquire fence.
func (a *ISA) Barrier() {
	a.b.Block().NewFence(enum.AtomicOrderingRelease).SyncScope = "workgroup"
	a.b.Call("llvm.amdgcn.s.barrier", types.Void)
	a.b.Block().NewFence(enum.AtomicOrderingAcquire).SyncScope = "workgroup"
}

// IsBarrier reports whether inst is s_barrier or the acquire fence that ends Barrier
// (which emits no other acquire fence), so that a barrier is found where it ends.
func (a *ISA) IsBarrier(inst ir.Instruction) bool {
	switch inst := inst.(type) {
	case *ir.InstCall:
		f, ok := inst.Callee.(*ir.Func)
		return ok && f.GlobalName == "llvm.amdgcn.s.barrier"
	case *ir.InstFence:
		return inst.Ordering == enum.AtomicOrderingAcquire && inst.SyncScope == "workgroup"
	}
	return false
}

// ReadsSpecialRegister reports whether call reads a workitem or workgroup id.
func (a *ISA) ReadsSpecialRegister(call *ir.InstCall) bool {
	f, ok := call.Callee.(*ir.Func)
	if !ok {
		return false
	}
	switch f.GlobalName {
	case "llvm.amdgcn.workitem.id.x", "llvm.amdgcn.workgroup.id.x", "llvm.amdgcn.workgroup.id.y", "llvm.amdgcn.workgroup.id.z":
		return true
	}
	return false
}

// AsmTouchesShared: the only inline asm is the user's, which may do anything.
func (a *ISA) AsmTouchesShared(string) bool { return true }

// ShuffleXor is ds_bpermute from lane (id ^ mask): the instruction takes the source
// lane's byte address and ignores the bits above the wave.
func (a *ISA) ShuffleXor(x value.Value, mask int) value.Value {
	cur := a.b.Block()
	addr := cur.NewShl(cur.NewXor(a.tid, isa.I32(int64(mask))), isa.I32(2))
	return a.b.Call("llvm.amdgcn.ds.bpermute", types.I32, addr, x)
}

// MulHiU has no instruction of its own here: LLVM selects v_mul_hi_u32 for the widened
// product.
func (a *ISA) MulHiU(x, y value.Value) (value.Value, bool) { return nil, false }

// DivF32 leaves f32 division to LLVM's fdiv, as lower has always emitted it for AMD.
func (a *ISA) DivF32(x, y value.Value) (value.Value, bool) { return nil, false }

// Exp2Approx is v_exp_f32, which flushes subnormals whatever ftz says (Triton's HIP
// backend has no enable_reflect_ftz).
func (a *ISA) Exp2Approx(x value.Value, ftz bool) value.Value {
	return a.b.Call("llvm.amdgcn.exp2.f32", types.Float, x)
}

// RcpApprox is v_rcp_f32 (1 ulp).
func (a *ISA) RcpApprox(x value.Value) value.Value {
	return a.b.Call("llvm.amdgcn.rcp.f32", types.Float, x)
}

// TMA: AMD has none.
func (a *ISA) TMA() isa.TMA { return nil }

// zero is the zero of an integer or vector type.
func zero(t types.Type) constant.Constant {
	if it, ok := t.(*types.IntType); ok {
		return constant.NewInt(it, 0)
	}
	return constant.NewZeroInitializer(t)
}
