// Package ptx turns an LLVM IR module, as built with github.com/llir/llvm
// (v0.3.6, typed pointers), into PTX text for sm_80, sm_86, sm_87, sm_89,
// sm_90 and sm_90a. It is gotriton's own NVIDIA backend and needs no LLVM
// at run time: PTX registers are virtual and ptxas allocates them, so
// instruction selection straight from SSA is enough.
//
//	m, _ := asm.ParseFile("kernel.ll") // or a module built by lower
//	text, err := ptx.Compile(m, ptx.Options{Arch: "sm_90a"})
//
// Output is deterministic: blocks in reverse postorder, registers numbered
// in emission order, one .entry per kernel, .version 8.4 by default
// (Options.PTXVersion changes it; ptxas from CUDA 12.4 and 13 accepts 8.4).
//
// # Accepted LLVM IR
//
// The contract with the lower package is the subset below; anything else is
// an error that names the function and the instruction (or intrinsic), and
// Compile never panics.
//
// Module. Every defined function must be a kernel: calling convention
// ptx_kernel, or !nvvm.annotations !{fn, !"kernel", i32 1}. Device
// functions must be inlined by lower. Launch bounds come from string
// attributes "nvvm.reqntid"="128[,y,z]", "nvvm.maxntid", "nvvm.maxnreg",
// "nvvm.minctasm" (directly or in an attribute group) or from the
// annotations reqntid{x,y,z}, maxntid{x,y,z}, maxnreg, minctasm; they become
// .reqntid, .maxntid, .maxnreg and .minnctapersm. The data layout's
// "pN:size" entries set pointer widths: Triton's "p3:32" makes shared
// pointers 32-bit (registers %r); other pointers are 64-bit. Kernels return
// void.
//
// Globals. Address space 3 (shared): external or sized without initializer
// ("@global_smem = external addrspace(3) global [0 x i8], align 16" becomes
// ".extern .shared .align 16 .b8 global_smem[];"), or with an undef
// initializer. Address spaces 1 (global) and 4 (constant) may carry integer,
// float, array, vector, struct, string or zero initializers.
//
// Parameters: iN (N = 1, 8, 16, 32, 64), half, float, double and pointers.
// Address space 1 pointers are declared ".param .u64 .ptr .global .align A"
// with A from the parameter's align attribute (1 when absent), as LLVM does.
// A generic pointer with byval(T) and "nvvm.grid_constant" (Triton's
// 128-byte CUtensorMap) is passed by value: ".param .align A .b8
// k_param_N[sizeof T]", A from the align attribute (else T's alignment); its
// value, a generic pointer to that read-only array, is taken once in the
// prologue with mov.b64 and cvta.param.u64 (PTX ISA 7.7 or later), and loads
// through it are generic loads. Byval without "nvvm.grid_constant", which
// would need a writable copy, is an error.
//
// Types and registers. i1 lives in %p (.pred); i8 and i16 in %rs (.b16;
// an i8 keeps garbage in the high byte, and division, remainder, right
// shifts and comparisons extend it first); half in %h (.b16); i32 and
// 32-bit pointers in %r (.b32); float in %f; i64 and 64-bit pointers in %rd;
// double in %fd. There is no bfloat type in llir/llvm v0.3.6: bf16 values
// are i16 bit patterns, converted with inline asm (cvt.rn.bf16.f32,
// cvt.rn.bf16x2.f32) or integer shifts. Vectors, arrays and structs are
// held as one register per scalar leaf; extractvalue, insertvalue,
// extractelement and insertelement with constant indices, and shufflevector
// with a constant mask, only rename leaves.
//
// Constants: integers, half/float/double (0xH3C00 half constants are moved
// into a register, as PTX has no f16 immediates), null, undef, poison and
// zeroinitializer (read as zero), constant vectors/arrays/structs, globals,
// and the constant expressions getelementptr, bitcast, addrspacecast,
// ptrtoint and inttoptr.
//
// Instructions, elementwise on vectors:
//   - add sub mul sdiv udiv srem urem shl lshr ashr and or xor (i1: and, or,
//     xor, add, sub, mul as predicate logic);
//   - fadd fsub fmul as add.rn/sub.rn/mul.rn (plain add/sub/mul, which ptxas
//     may fuse into fma, only with the contract or fast flag); with
//     Options.FPFusion (Triton's enable_fp_fusion) an fadd or fsub of an fmul
//     of its block becomes fma.rn, as LLVM's NVPTX backend contracts them
//     (contract.go), and the rest are plain add/sub/mul; fdiv as div.rn
//     (div.full.f32 with afn or fast; not on half); fneg;
//   - icmp (all predicates; i1 only eq/ne), fcmp (all predicates), select;
//   - trunc zext sext fptrunc fpext fptoui fptosi uitofp sitofp ptrtoint
//     inttoptr addrspacecast (cvta between generic and global/shared/const/
//     local), bitcast (same width: a move; between vectors and scalars of
//     16/32/64-bit leaves: mov.bN packing and unpacking; between i8 vectors
//     and wider leaves: shifts and bfi), freeze;
//   - getelementptr with scalar pointer result (constant indices fold into
//     an offset; an index that is a sext/zext from i32 uses mul.wide);
//   - load and store in address spaces 0, 1, 3, 4, 5: scalars, and vectors
//     or structs of one element type as one ld/st .v2/.v4 when the alignment
//     covers the whole access (at most 16 bytes); 8- and 16-bit elements
//     filling 2, 4, 8 or 16 aligned bytes are packed into b16/b32 words
//     (<8 x half> and <16 x i8> as ld/st .v4.b32); else one access per
//     leaf; volatile; atomic load/store with an ordering and a sync scope;
//   - atomicrmw xchg add and or xor max min umax umin fadd, cmpxchg, fence,
//     with orderings (monotonic=relaxed, acquire, release, acq_rel; seq_cst
//     adds fence.sc) and sync scopes ("" system, "device", "block",
//     "cluster");
//   - phi (moves at the ends of predecessors, as a parallel copy; an edge
//     from a conditional branch or switch gets its own block for them), br,
//     conditional br, switch, ret void, unreachable (trap);
//   - call of an intrinsic below, or of inline asm.
//
// Intrinsics: llvm.nvvm.read.ptx.sreg.* (any special register, by name),
// llvm.nvvm.barrier0, barrier.cta.sync.aligned.all, barrier.sync,
// bar.warp.sync, membar.{cta,gl,sys}, shfl.sync.{bfly,idx,up,down}.{i32,f32},
// vote.{ballot,all,any,uni}.sync, ex2/lg2/sin/cos/rsqrt/sqrt approx (with
// .ftz), sqrt.rn, rcp.rn, rcp.approx.ftz, div.approx, div.rn, fma.rn,
// {add,mul}.{rn,rz,rm,rp} (.ftz on f32; never contracted),
// fmax/fmin (.ftz, .nan), saturate, floor/ceil/trunc, mulhi.{i,ui,ll,ull},
// prmt; and llvm.fma, fmuladd, sqrt, fabs, minnum, maxnum, minimum, maximum,
// copysign, floor, ceil, trunc, rint, nearbyint, roundeven, smax, smin,
// umax, umin, abs, ctpop, ctlz, bitreverse, fshl/fshr (i32). lifetime,
// assume, dbg.* and noalias scope declarations produce no code.
//
// Inline asm ("call asm sideeffect ..."): constraints =r =l =h =c =f =d =b
// (with & allowed) for outputs, r l h c f d b for inputs, n and i for
// immediates, "N" to tie an input to output N, and ~{...} clobbers. The
// result is one output or a struct of outputs; an output or input whose
// LLVM type differs from the constraint's class of the same width (float
// through "r", <2 x half> through "r") is moved or repacked. The template's
// $N, ${N} and ${N:mod} are replaced by operands and $$ by $; the text is
// copied between "// begin inline asm" and "// end inline asm".
//
// Debug info is optional. Instructions with a !dbg DILocation get
// ".loc FILE LINE COL" lines, and every source file gets a ".file" line
// (directory joined to a relative file name).
//
// Check is a structural check of PTX text (balanced braces, declared
// registers, defined branch targets) used on every golden file; ptxas is
// the real judge (testdata/check-ptxas.sh runs it on the GPU machine).
package ptx
