// Package lower turns a tile IR kernel (package tileir, Triton 3.6's TTIR) into an LLVM IR
// module for one GPU target (package target), built with github.com/llir/llvm v0.3.6
// (typed pointers). It does the work of Triton's TTIR → TTGIR → LLVM IR passes:
//
//   - Axis analysis (axis.go): contiguity, divisibility and constancy of every integer and
//     pointer value, from tt.divisibility argument attributes, tl.multiple_of /
//     tl.max_contiguous hints and the arithmetic, with a fixpoint over loop-carried values.
//     The rules are those of Triton 3.6's lib/Analysis/AxisInfo.cpp, visitor by visitor
//     (a contiguous operand of a product or of expand_dims counts as divisible by 1), so
//     vector widths never exceed the ones Triton picks for the same specialization
//     (TestVectorWidths); descriptor accesses are also bounded by the divisibility of the
//     base and the outer strides.
//   - Layout assignment (assign.go): memory accesses are anchored to coalesced blocked
//     layouts (dimensions ordered by contiguity, up to 128 bits per thread, as Triton's
//     Coalesce pass), dots to mma.sync layouts (or blocked for the FMA path); anchors
//     spread their layout through elementwise ops, broadcasts, expand_dims (slice
//     layouts), reductions and loop-carried values. Where two layouts meet, cheap values
//     (index arithmetic, splats, ranges) are recomputed in the wanted layout, others are
//     converted through shared memory (convert.go).
//   - Layouts (layout.go) are Triton's blocked, slice, nvidia_mma (v2) and dot_op
//     encodings; each gives a linear layout (Triton's LinearLayout) for a shape: the
//     coordinate held by register r of lane l in warp w is the XOR of basis vectors. All
//     lowering code works on linear layouts.
//   - Lowering (one file per family, table-driven by op name in lowerings): elementwise
//     arith and math, loads and stores as vector accesses of up to 128 bits, reductions
//     (within a thread, butterfly shuffles across lanes, shared memory across warps),
//     scf.for/if/while as blocks with phis, tt.dot (2-D, or batched 3-D) on the matrix
//     instructions of the nvidia_mma layout (tiles wrapped over blocks smaller than
//     one; operands of 16 bits staged through shared memory with padded rows where the
//     ISA loads fragments from there, ldmatrix.go; fp8 dots with a max_num_imprecise_acc
//     summed in partial accumulators where Triton's Hopper lowering does, isa.MMAPlan)
//     or FMA; on sm_90a, where Triton 3.6 takes MMA v3, wgmma (wgmma.go): B, and A unless
//     it comes from registers, stored in the swizzled NVMMA shared layouts, read through
//     matrix descriptors by warpgroups, the instructions between one fence (emitted
//     with the first, after every register copy their operands need) and one commit
//     and wait, a zero accumulator not read (scale-d 0), and no empty group committed
//     (ptx.Check finds all three); a dot whose accumulator a loop only carries stays
//     in flight into the next iteration (its operands double-buffered), so that the
//     loads of one iteration overlap the previous one's instructions; atomics issued
//     by the threads that own each element (atomic_cas on floats as the bit CAS of their
//     width); trans, reshape, join, split, cat and gather through shared memory;
//     histograms with shared-memory atomicrmw (histogram.go); inline asm with packed
//     elements and map_elementwise bodies inlined per pack registers; in-kernel tensor
//     descriptors as masked n-D accesses; a math library of our own (mathlib.go), since
//     libdevice cannot be shipped.
//
// # Instruction sets
//
// What is spelled differently per GPU family sits behind one interface, isa.ISA (package
// lower/isa), with one package per family: lower/isa/nvidia and lower/isa/amd (wave64
// AMDGPU: llvm.amdgcn ids, s_barrier, masked accesses as branches, ds_bpermute,
// atomicrmw/cmpxchg, fp8 conversions in software and, on CDNA3, by its FNUZ
// instructions (fp8.go), MFMA (mfma.go); no printf yet, see its package doc). isas.go lists the families;
// Lower picks the one whose Supports accepts the target and makes its ISA for the
// kernel, which emits through gen (gen is the isa.Builder). The ISA gives the module's
// triple and data layout and the kernel's calling convention and attributes, the thread
// and program ids, the barrier (and what counts as one, for the barrier elision of
// barrier and smemBarrier), global loads and stores with predicates and other values,
// predicated shared stores, atomics, the 32-bit butterfly shuffle, mulhi, exp2 and the
// fp8 conversions, the matrix instruction of a dot with its geometry (PlanMMA: isa.MMALayout
// gives the tile, the fragments as linear-layout bases and the warps; MMA), printf, and
// optionally ldmatrix (isa.MatrixLoader) and TMA (isa.TMA). The shared code holds no
// test of the target's family; it asks target.Target only for its warp size.
//
// # The LLVM IR produced (NVIDIA)
//
// One ptx_kernel function with the user's non-constexpr parameters, then two
// i8 addrspace(1)* scratch pointers (global and profile scratch), "nvvm.reqntid" =
// 32 × num_warps; Triton's data layout and the nvptx64-nvidia-cuda triple; an external
// @global_smem [0 x i8] addrspace(3) (align 16) when shared memory is used
// (Metadata.SharedBytes); a DICompileUnit, DISubprogram and a DILocation on every
// instruction that comes from a located op (DILexicalBlockFile scopes for other files).
// Instructions: integer and float arithmetic, icmp/fcmp/select, casts, getelementptr,
// load/store to address space 3, phi/br/ret, extract/insert value and element, bitcasts
// between vectors and scalars; intrinsics llvm.nvvm.read.ptx.sreg.{tid,ctaid,nctaid}.*,
// llvm.nvvm.barrier.cta.sync.aligned.all, llvm.nvvm.shfl.sync.bfly.i32,
// llvm.nvvm.ex2.approx{,.ftz}.f, llvm.nvvm.mulhi.{ui,ull}, llvm.{fma,fmuladd,sqrt,fabs,floor,
// ceil,trunc,rint,roundeven,copysign,maxnum,minnum,maximum,minimum}; and side-effecting
// inline asm for ld.global/st.global (predicated, vectors up to 128 bits; with an
// eviction policy, its L1 priority and a createpolicy of its L2 one), st.shared,
// atom.global, mma.sync, ldmatrix and cvt for fp8; dead instructions are removed at the
// end (dce.go). This is the subset package ptx accepts, and
// llc-22 (-march=nvptx64 -mcpu=sm_90) accepts every module the tests produce.
//
// # Host tensor descriptors
//
// A !tt.tensordesc kernel parameter (a descriptor built on the host, Triton's
// TensorDescriptor) follows Triton 3.6's ABI on targets with TMA (sm_90 and later): a
// 128-byte CUtensorMap passed by value (.param .align 64 .b8 [128]), followed by the
// rank i32 shape and rank i64 stride (in elements) parameters, and descriptor loads and
// stores are TMA copies (tma.go). The launcher encodes the map as Metadata.TensorMaps
// says (Triton's tensordesc_meta; driver/cuda.EncodeTensorMap): with zero fill, no
// interleave, and either over the block the descriptor type names without swizzle, or,
// where every load through it feeds a warpgroup dot from a pipeline's stage, over one
// slab of the block, swizzled as the dot's shared layout; TMA's rules apply
// (16-byte-aligned base and row strides). On sm_80, which has no TMA, the parameter is a
// .u64 holding the tensor's global base address and the accesses are masked n-D
// accesses.
//
// A tl.make_tensor_descriptor on a TMA target builds its tensor map where it is made, as
// Triton 3.6 does (tma.go): 128 bytes of each program's global scratch memory per
// descriptor (Metadata.GlobalScratchSize, 128-aligned), written with tensormap.replace
// through shared memory and fenced for the tensor-map proxy; its loads and stores are
// then TMA copies like a host descriptor's, with padding_option="nan" as the map's NaN
// fill. Descriptors TMA cannot copy (boxes over 256 elements a side, rows of other than
// a multiple of 16 bytes), and all of them on sm_80, are masked n-D accesses.
//
// # Software pipelining
//
// On ISAs with warpgroup dots and asynchronous copies (sm_90a), an scf.for of num_stages
// of at least 2 (its tt.num_stages, else the kernel's) whose loads feed warpgroup dots
// is pipelined as Triton's pipeliner does with cp.async (pipeline.go): a ring of
// num_stages stages in shared memory, the loads' pointer slice run again for the
// iteration num_stages-1 ahead, cp.async.wait_group num_stages-2 at the top of every
// iteration. Loads through host descriptors are pipelined too, as TMA copies completing
// on one mbarrier per stage: straight into the dot's shared layout through a swizzled
// tensor map where they feed a warpgroup dot (directly or transposed), else into
// row-major boxes read back into registers where the load was. A loop whose ring does
// not fit in shared memory, or whose loads' vectors are under 4 bytes, stays
// synchronous. Outside the loop's runs the scratch buffer reuses the ring's space; a dot
// operand defined outside the loop is stored into shared memory once per run of it.
//
// A loop with its own num_stages (tl.range(..., num_stages=)) also pipelines its other
// pointer loads of vectors of 4 to 16 bytes, as Triton's pipeliner does (on sm_80 too):
// each thread copies its own vectors of the load's registers into a ring of
// num_stages-1 stages and reads them back where the load was, applying the load's
// other where its mask fails. No barrier is needed, since each thread reads only what
// it copied (staged loads).
//
// A layout conversion through shared memory (convert.go) pads the buffer's rows by 0, 4,
// 8 or 16 bytes, whichever a model of the bank conflicts of both sides' vector accesses
// rates best: an mma accumulator written into rows of a multiple of 128 bytes otherwise
// puts its eight rows a warp on one bank.
//
// Not yet: tt.assert, calls of non-inlined functions, pipelining of loads that feed
// mma.sync (sm_80) without the loop's own num_stages (they are staged through
// registers then), and on AMD.
package lower
