// Package isa is the boundary between gotriton's target-neutral lowering (package lower)
// and the instruction sets it emits LLVM IR for, as wazero's backend.Machine is for its
// backends and Triton's TargetInfoBase is for third_party/nvidia and third_party/amd.
//
// Package lower does everything that does not depend on the instruction set: axis
// analysis, layouts, elementwise arithmetic, reductions, scans, control flow, layout
// conversions and the use of shared memory. Whatever is spelled differently per GPU
// family (special registers, barriers, global memory accesses, cross-lane exchanges, the
// matrix instructions, atomics, a few math instructions, printf and the kernel ABI) it
// asks of an ISA, one package per family under lower/isa (lower/isa/nvidia,
// lower/isa/amd). An ISA is made per kernel from its Arch; it emits through the Builder
// that lower gives it. The family packages import this one and not lower; lower imports
// them only to list their Arch values (lower/isas.go), so adding a family adds a package
// and one entry there. Capabilities only some families have are optional interfaces
// (MatrixLoader) or may be absent (ISA.TMA returns nil).
package isa

import (
	"sync/atomic"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// Arch is one instruction-set family that lower can target.
type Arch struct {
	// Name names the family in messages ("NVIDIA").
	Name string
	// Supports reports whether the family covers target t.
	Supports func(t target.Target) bool
	// New makes the ISA of one kernel for target t with the options opts; it emits
	// through b.
	New func(b Builder, t target.Target, opts Options) ISA
}

// Options are the compile options of a kernel that an ISA reads.
type Options struct {
	// NumWarps is the number of warps per block.
	NumWarps int
	// MatrixInstrNonKDim is Triton's HIP option matrix_instr_nonkdim: the M and N of the
	// MFMA instruction every tl.dot takes (16 or 32); 0 lets the ISA choose. NVIDIA has
	// no such option.
	MatrixInstrNonKDim int
	// DisableMMAv3 is Triton's DISABLE_MMA_V3: NVIDIA's sm_90a dots take mma.sync
	// instead of wgmma.
	DisableMMAv3 bool
}

// Builder is what an ISA emits through: the shared lowering's module, its current block,
// and its caches of declarations and inline asm.
type Builder interface {
	// Module is the module being built.
	Module() *ir.Module
	// Block is the basic block that instructions go to now.
	Block() *ir.Block
	// NewBlock adds a basic block to the kernel; SetBlock makes b the current block.
	NewBlock() *ir.Block
	SetBlock(b *ir.Block)
	// Call calls the external function name (an intrinsic), declared once per module
	// with the types of args.
	Call(name string, ret types.Type, args ...value.Value) *ir.InstCall
	// Declare returns the declaration of an external function, made once per module.
	Declare(name string, ret types.Type, params ...types.Type) *ir.Func
	// Asm emits a call of side-effecting inline asm; calls of the same text,
	// constraints and types share one InlineAsm value.
	Asm(ret types.Type, text, constraints string, args ...value.Value) *ir.InstCall
	// Extract emits extractvalue agg, i.
	Extract(agg value.Value, i int) *ir.InstExtractValue
	// BitCast emits bitcast v to t.
	BitCast(v value.Value, t types.Type) *ir.InstBitCast
	// Store emits store src, dst.
	Store(src, dst value.Value) *ir.InstStore
	// EntryAlloca allocates a t (aligned to align bytes) at the start of the kernel's
	// entry block.
	EntryAlloca(t types.Type, align int) *ir.InstAlloca
}

// ISA is the instruction-set-specific half of lowering one kernel.
type ISA interface {
	// InitModule sets the module's data layout and target triple.
	InitModule(m *ir.Module)
	// DefineKernel gives the kernel function its calling convention and the attributes
	// that bound its block size.
	DefineKernel(f *ir.Func)

	// ThreadID reads the thread's index in the block (x only: blocks are 1-D). lower
	// calls it once, at the kernel's entry.
	ThreadID() value.Value
	// ProgramID and NumPrograms read the block's index in the grid along axis (0, 1,
	// 2) and the grid's size along it.
	ProgramID(axis int) value.Value
	NumPrograms(axis int) value.Value

	// Barrier synchronizes the block, ordering every memory access before it against
	// every one after it, in all threads.
	Barrier()
	// IsBarrier reports whether inst is what Barrier emits.
	IsBarrier(inst ir.Instruction) bool
	// ReadsSpecialRegister reports whether call only reads a special register (an id),
	// touching no memory.
	ReadsSpecialRegister(call *ir.InstCall) bool
	// AsmTouchesShared reports whether inline asm text may access shared memory.
	AsmTouchesShared(text string) bool

	// LoadGlobal loads a.Words words of a.WordBits bits from the global pointer ptr
	// where pred holds (nil: always); where it does not, the words are other's (nil:
	// zero).
	LoadGlobal(a Access, ptr, pred value.Value, other []value.Value) []value.Value
	// StoreGlobal stores words (a.Words of a.WordBits bits) at the global pointer ptr
	// where pred holds (nil: always).
	StoreGlobal(a Access, ptr, pred value.Value, words []value.Value)
	// StoreShared stores v, an integer or float of 8 to 64 bits, at the shared pointer
	// ptr where pred holds.
	StoreShared(ptr, v, pred value.Value)
	// CheckAtomic returns an error when the ISA lacks atomic op (which is op.Kind on
	// elements of op.Elem).
	CheckAtomic(op Atomic) error
	// Atomic performs op at the global pointer ptr where pred holds (nil: always), with
	// operands (one word of op.WordBits each: the value, or for "cas" the expected value
	// then the new one), and returns the word that was there (zero where pred fails).
	Atomic(op Atomic, ptr, pred value.Value, operands []value.Value) value.Value

	// ShuffleXor returns the i32 x of the lane whose index differs from this lane's by
	// mask (a butterfly exchange across the warp).
	ShuffleXor(x value.Value, mask int) value.Value

	// MulHiU returns the high half of the unsigned product of a and b, or false when
	// the ISA has no instruction for their width.
	MulHiU(a, b value.Value) (value.Value, bool)
	// DivF32 is the f32 quotient x/y of Triton's arith.divf (Python's / and tl.fdiv),
	// or false where the ISA divides as LLVM's fdiv does.
	DivF32(x, y value.Value) (value.Value, bool)
	// Exp2Approx is 2^x for an f32 x, approximated as Triton's exp2 and exp are; ftz
	// flushes subnormal inputs and results to zero, as libdevice's exp2f does under
	// enable_reflect_ftz.
	Exp2Approx(x value.Value, ftz bool) value.Value
	// RcpApprox is 1/x for an f32 x to within 1 ulp (PTX's rcp.approx.ftz.f32, AMD's
	// v_rcp_f32), for the math library's terms whose error the result divides down.
	RcpApprox(x value.Value) value.Value
	// FP8ToF16 widens x, the bits (i8) of an fp8 value of type from, to half; false
	// (with nothing emitted) when the ISA does not convert from.
	FP8ToF16(x value.Value, from tileir.Scalar) (value.Value, bool)
	// F32ToFP8 narrows the float f to the bits (i8) of fp8 type to, rounding to
	// nearest and saturating to the finite range; false when the ISA does not convert
	// to it.
	F32ToFP8(f value.Value, to tileir.Scalar) (value.Value, bool)

	// PlanMMA returns the matrix instruction that computes dot d (each batch element of
	// a batched one), with its geometry and the warps' tiling of the result, or false
	// when d takes the FMA path.
	PlanMMA(d Dot) (MMAPlan, bool)
	// MMA emits one matrix instruction of plan p: D = A·B + C on one tile. a and b are the
	// tile's packed operand registers (of type p.OperandReg, KWidth elements each) in the
	// order of p.Layout.A's and B's registers; c and the result are the tile's
	// accumulators in the order of p.Layout.C's registers (16-bit ones packed in pairs in
	// 32-bit registers, the first in the low half).
	MMA(p MMAPlan, a, b, c []value.Value) []value.Value

	// Printf prints format with args from every thread that runs it, with C's printf
	// conventions (floats as double, integers narrower than 32 bits widened), or
	// returns why it cannot.
	Printf(format string, args []value.Value) error
	// AssertFail emits what a thread does when a device assert fails for it, in the
	// current block (which the caller then ends): report message, raised at file:line,
	// and stop the kernel, or return why it cannot.
	AssertFail(message, file string, line int) error

	// TMA returns the ISA's tensor memory accelerator, nil when the target has none.
	TMA() TMA
}

// Dot is a tt.dot as the matrix instructions see it: A·B with A M×K (element type A) and
// B K×N (element type B), into C (M×N, element type C), Batched when it is one of a 3-D
// dot's batch; InputPrecision is the op's ("tf32", "tf32x3", "ieee", or "" for ieee) and
// MaxNumImpreciseAcc its maxNumImpreciseAcc (0 when absent). ChainHead says that the
// result feeds operand A of another dot through ops of the dot's own region, and
// ChainTail that operand A is computed from another dot's result there (Triton's
// isChainDotHead and isChainDotTail, as in attention's two dots). AFromLoad says that
// operand A is loaded from memory (through layout conversions and transposes; Triton's
// comesFromLoadOrBlockArg), so that an ISA that reads A from shared memory stages it
// there rather than taking it from registers.
type Dot struct {
	A, B, C              tileir.Scalar
	M, N, K              int64
	Batched              bool
	InputPrecision       string
	MaxNumImpreciseAcc   int64
	ChainHead, ChainTail bool
	AFromLoad            bool
}

// MMAPlan is the matrix instruction of a dot: operands A and B are converted to
// Operand[0] and Operand[1] (f32 stands for tf32) and packed KWidth consecutive K elements to a register of type
// OperandReg (bitcast from the vector of them where the types differ); one instruction
// covers K of the dot's K; the accumulators are of type Acc, into which the lowering
// converts the dot's accumulator (and back) where its type differs. Instr is the ISA's
// own spelling, Layout the instruction's geometry. PartialK, when not 0, splits the
// accumulation as Triton's Hopper (wgmma) lowering does for fp8 dots with a
// max_num_imprecise_acc: the products of each PartialK consecutive elements of K (the last
// run possibly shorter) are summed into fresh accumulators, starting at zero, which are then
// added to the dot's accumulators with one fadd each.
//
// WarpGroup marks a plan for the ISA's WarpGroupMMA: the instruction is issued by
// warpgroups of four warps (Layout.M is one warp's 16 rows of the group's 64; the first
// two warp bits step along M) and reads B, and A unless ARegs, from shared memory.
type MMAPlan struct {
	Operand    [2]tileir.Scalar
	Acc        tileir.Scalar
	K, KWidth  int
	OperandReg types.Type
	PartialK   int
	Instr      string
	Layout     MMALayout
	WarpGroup  bool
	ARegs      bool
}

// MMALayout is the geometry of a dot's matrix instructions, as the linear layouts of
// Triton's nvidia_mma and amd_mfma encodings and of their dot operands give it: one
// instruction computes an M×N tile of the result from an M×K tile of A and a K×N tile of
// B (K is the plan's), held in every warp as A, B and C say. Warps tile the result
// Warps[i] times along M and N (a batched dot: along the batch, M and N), the warp index
// stepping along N first when WarpsNFirst, else along M first, then along the batch;
// the tiles repeat over N, then M, then the batch, to cover the dot. Encoding is the
// result's layout in TTGIR's notation, with %s for its warpsPerCTA.
type MMALayout struct {
	Encoding    string
	M, N        int
	A, B, C     Fragment
	Warps       []int
	WarpsNFirst bool
}

// Fragment says which element of one instruction's tile each register of each lane
// holds, as linear-layout bases: register r of lane l holds the element at the XOR of
// Reg[i] over the set bits i of r and Lane[i] over the set bits i of l. Coordinates are
// (row, column) of the tile: A's M×K, B's K×N, C's M×N.
type Fragment struct {
	Reg, Lane [][2]int
}

// MatrixLoader is implemented by ISAs that load mma operand fragments from shared
// memory with one row address per lane (NVIDIA's ldmatrix): the shared lowering stages a
// 16-bit operand row-major there, rows padded, and loads its fragments with it.
type MatrixLoader interface {
	// MatrixRowPad is the padding, in 16-bit elements, after every staged row.
	MatrixRowPad() int
	// MatrixRow returns the row and column, relative to the fragment's origin, of the
	// row whose address lane gives, for operand opIdx (0: A as [M][K], 1: B as [K][N]).
	MatrixRow(opIdx, lane int) (row, col int)
	// LoadMatrix loads four (x4) or two 8×8 matrices of 16-bit elements, transposed
	// when trans, from the lane's row address p, and returns the lane's registers.
	LoadMatrix(p value.Value, x4, trans bool) []value.Value
}

// WarpGroupMMA is implemented by ISAs whose matrix instructions (of plans with
// WarpGroup set) are issued by warpgroups and read their operands from shared memory,
// laid out as SharedOperand says (NVIDIA's wgmma, sm_90a). They run asynchronously:
// MMAFence comes before the first of a sequence, MMACommit after the last, and until
// an MMAWait returns, nothing else may read or write their accumulators or the shared
// operands.
type WarpGroupMMA interface {
	// SharedOperand is the layout in shared memory of operand opIdx (0: A, 1: B) of plan
	// p, of mn rows or columns (A's M, B's N) and k elements of K; mnContiguous asks
	// for consecutive M (or N) elements to be adjacent, where the plan's types allow it.
	SharedOperand(p MMAPlan, opIdx, mn, k int, mnContiguous bool) SharedOperand
	// FenceAsyncShared orders this thread's shared stores before later reads of the
	// matrix instructions.
	FenceAsyncShared()
	// Descriptor returns the operand's matrix descriptor for its instruction tile at
	// the shared address addr (i32; the tile's element (0, 0) of the instruction).
	Descriptor(s SharedOperand, addr value.Value) value.Value
	// AdvanceDescriptor returns descriptor d moved bytes further in shared memory.
	AdvanceDescriptor(d value.Value, bytes int) value.Value
	// MMAFence starts a sequence of instructions.
	MMAFence()
	// WarpGroupMMA issues one instruction of plan p into the accumulators c (as MMA's),
	// added to them unless useC is false, and returns the accumulators it will write.
	WarpGroupMMA(p MMAPlan, a, b WarpGroupOperand, c []value.Value, useC bool) []value.Value
	// MMACommit ends a sequence.
	MMACommit()
	// MMAWait waits until at most pending ended sequences are still in flight, and
	// returns acc (the accumulators of the sequence) as they then are (pending 0: as the
	// instructions wrote them).
	MMAWait(acc []value.Value, pending int) []value.Value
}

// AsyncCopier is implemented by ISAs whose threads copy global memory to shared memory
// asynchronously (NVIDIA's cp.async, sm_80 and later). A thread's copies form groups,
// each closed by AsyncCommit; AsyncWait waits for this thread's groups, and a barrier
// then makes every thread's copies visible to the block.
type AsyncCopier interface {
	// AsyncCopy copies bytes bytes (4, 8 or 16) from the global pointer src to the shared
	// address dst (i32, aligned to bytes) where pred holds (nil: always); where mask is
	// false (nil: never), it writes zeros instead of reading src.
	AsyncCopy(dst, src value.Value, bytes int, mask, pred value.Value)
	// AsyncCommit closes the group of the copies this thread issued since the last one
	// (an empty group when there were none).
	AsyncCommit()
	// AsyncWait waits until at most pending of this thread's groups are incomplete.
	AsyncWait(pending int)
}

// WarpGroupOperand is an operand of one WarpGroupMMA instruction: its packed registers
// (A, with MMAPlan.ARegs) or its descriptor and the layout it describes.
type WarpGroupOperand struct {
	Regs   []value.Value
	Desc   value.Value
	Layout SharedOperand
}

// SharedOperand is the layout of a matrix instruction's operand in shared memory (an
// NVMMA shared encoding of Triton's): MN × K elements of ElemBytes bytes, contiguous
// along K or, when MNMajor, along MN, in rows of Swizzle bytes (32, 64 or 128) whose
// 16-byte chunks are permuted by the row's position among 8 (Swizzle/16 of them):
// consecutive rows form the operand's slab of Swizzle bytes of the contiguous
// dimension, and slabs follow each other. Tiles start at a multiple of 1024 bytes.
type SharedOperand struct {
	MN, K     int
	ElemBytes int
	Swizzle   int
	MNMajor   bool
}

// Bytes is the size of the operand.
func (s SharedOperand) Bytes() int { return s.MN * s.K * s.ElemBytes }

// Offset is the byte offset from the tile's start of element (mn, k): an XOR of
// offsets of the coordinates' bits, as every power-of-two layout is.
func (s SharedOperand) Offset(mn, k int) int {
	row, c, rows := mn, k, s.MN // rows along the strided dimension, c along the contiguous one
	if s.MNMajor {
		row, c, rows = k, mn, s.K
	}
	cb := c * s.ElemBytes
	x := cb/s.Swizzle*rows*s.Swizzle + row*s.Swizzle + cb%s.Swizzle
	return x ^ (x>>7&(s.Swizzle/16-1))<<4
}

// TMA is a tensor memory accelerator (NVIDIA sm_90 and later): a host tensor
// descriptor is a parameter of its own kind, and descriptor loads and stores are bulk
// copies between global memory and the shared scratch buffer, which holds the block
// row-major. Loads complete through an mbarrier at the start of shared memory.
type TMA interface {
	// DescriptorParam is the kernel parameter of a host tensor descriptor.
	DescriptorParam() *ir.Param
	// ScratchStart is where the shared scratch buffer starts, after the mbarrier; it is
	// also the alignment of shared memory.
	ScratchStart() int
	// InitBarrier has one thread initialize the mbarrier at bar for the whole block,
	// then synchronizes the block.
	InitBarrier(tid, bar value.Value)
	// Load copies the box of bytes bytes at coords (innermost first) of descriptor desc
	// to the shared address box, and returns when every thread may read it.
	Load(tid, bar, box, desc value.Value, coords []value.Value, bytes int)
	// FenceShared orders this thread's shared stores before later copies.
	FenceShared()
	// Store copies the box at the shared address box to descriptor desc at coords,
	// and returns when the copy has read shared memory.
	Store(tid, desc, box value.Value, coords []value.Value)

	// The mbarriers of a software pipeline, 8 bytes apart, each expecting one arrival
	// per phase: thread 0 arms a stage's barrier (Expect) and issues its copies
	// (LoadAsync); every thread waits for the phase (WaitPhase).

	// InitStageBarriers has thread tid 0 initialize n mbarriers from bars, then
	// synchronizes the block.
	InitStageBarriers(tid, bars value.Value, n int)
	// InvalStageBarriers synchronizes the block, then has thread 0 invalidate them.
	InvalStageBarriers(tid, bars value.Value, n int)
	// Expect arrives on bar, where pred holds, expecting bytes bytes of copies.
	Expect(pred, bar value.Value, bytes int)
	// LoadAsync copies the box at coords of descriptor desc to the shared address box,
	// where pred holds, completing on bar.
	LoadAsync(pred, bar, box, desc value.Value, coords []value.Value)
	// WaitPhase waits until bar's phase of parity phase (i32, 0 or 1) has completed.
	WaitPhase(bar, phase value.Value)

	// BuildMap writes the tensor map m to the global address gmap (MapBytes bytes,
	// MapBytes-aligned), staging it in the MapBytes bytes of shared memory at smem, and
	// makes it visible to the block's copies through gmap (a generic address); the block
	// then synchronizes.
	BuildMap(tid, smem, gmap value.Value, m TensorMapSpec)
}

// MapBytes is the size and alignment of a TMA tensor map (a CUtensorMap).
const MapBytes = 128

// TensorMapSpec is a tensor map that a kernel builds (tl.make_tensor_descriptor); every
// list is innermost dimension first.
type TensorMapSpec struct {
	// Base is the tensor's global address.
	Base value.Value
	// Dims are the tensor's sizes in elements (i32); Strides the byte strides (i64) of
	// dimensions 1 and up (dimension 0 is contiguous).
	Dims, Strides []value.Value
	// Box is the tile one copy moves, in elements.
	Box []int
	// Elem is the element type.
	Elem tileir.Scalar
	// Swizzle is the span in bytes of the shared-memory swizzle (0: none; 32, 64, 128).
	Swizzle int
	// NaNFill makes the elements of a box outside the tensor NaN, not zero.
	NaNFill bool
}

// Access is one vector access of global memory: Words words of WordBits bits each
// (8 to 64), Triton's cache modifier ("" for none, else "ca", "cg", "cs", "cv", "wb" or
// "wt"), its eviction policy ("" for normal, "evict_first" or "evict_last") and whether
// the load is volatile.
type Access struct {
	WordBits, Words int
	Cache, Evict    string
	Volatile        bool
}

// Atomic is one tt.atomic_rmw or tt.atomic_cas: Kind is the operation ("add", "fadd",
// "max", "umax", "exch", … or "cas"), Elem the element type (WordBits in memory), and Sem
// ("relaxed", "acquire", "release", "acq_rel") and Scope ("cta", "gpu", "sys") as the op
// gives them, "" when absent.
type Atomic struct {
	Kind       string
	Elem       tileir.Scalar
	WordBits   int
	Sem, Scope string
}

// i32s holds the small i32 constants, made on first use and shared (read-only) by every
// module: llir/llvm constants are plain values, and most indices are small.
var i32s [1 << 14]atomic.Pointer[constant.Int]

// I32 returns the i32 constant v.
func I32(v int64) *constant.Int {
	if v < 0 || v >= int64(len(i32s)) {
		return constant.NewInt(types.I32, v)
	}
	if k := i32s[v].Load(); k != nil {
		return k
	}
	k := constant.NewInt(types.I32, v)
	i32s[v].Store(k)
	return k
}

// IntType returns iN, llir's shared type for the common widths.
func IntType(bits int) types.Type {
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
