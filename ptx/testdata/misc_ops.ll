; Breadth: i1/i8/float parameters, a constant global table read through a
; constant-expression getelementptr, select, switch with phis on its edges,
; i8 arithmetic, fcmp, math intrinsics, atomics, a struct field address, a
; split (under-aligned) vector load, vector arithmetic, bitcast packing and
; unpacking, and inline asm with a tied operand and an immediate.
target datalayout = "e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%pair = type { i32, float }

@table = internal addrspace(1) constant [4 x i32] [i32 3, i32 1, i32 4, i32 1], align 4

define ptx_kernel void @misc(float addrspace(1)* %out, i32 addrspace(1)* %cnt, %pair addrspace(1)* %pairs, <2 x i32> addrspace(1)* %v2, i1 %flag, i8 %small, float %scale, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %sel = and i32 %tid, 3
  %t = load i32, i32 addrspace(1)* getelementptr inbounds ([4 x i32], [4 x i32] addrspace(1)* @table, i64 0, i64 2), align 4
  %k = select i1 %flag, i32 %t, i32 %sel
  switch i32 %k, label %other [
    i32 0, label %zero
    i32 4, label %join
  ]

zero:
  br label %join

other:
  %h = udiv i8 %small, 3
  %hs = sdiv i8 %h, -2
  %hc = icmp ugt i8 %hs, 100
  %hf = sitofp i8 %hs to float
  %hz = select i1 %hc, float %hf, float 0.000000e+00
  br label %join

join:
  %x = phi float [ 1.000000e+00, %zero ], [ %hz, %other ], [ %scale, %entry ]
  %n = phi i32 [ 0, %zero ], [ 1, %other ], [ 2, %entry ]
  %y = call float @llvm.fma.f32(float %x, float %scale, float 5.000000e-01)
  %e = call float @llvm.nvvm.ex2.approx.f(float %y)
  %r = call float @llvm.nvvm.rsqrt.approx.f(float %e)
  %c = call float @llvm.copysign.f32(float %r, float %x)
  %isnan = fcmp uno float %c, %c
  %lt = fcmp olt float %c, %y
  %either = or i1 %isnan, %lt
  %m = select i1 %either, float %y, float %c
  %mi = fptosi float %m to i32
  %mx = call i32 @llvm.smax.i32(i32 %mi, i32 %n)
  %hi = call i32 @llvm.nvvm.mulhi.ui(i32 %mx, i32 -1640531535)
  %rot = call i32 @llvm.fshl.i32(i32 %hi, i32 %hi, i32 13)
  %wide = zext i32 %rot to i64
  %pop = call i64 @llvm.ctpop.i64(i64 %wide)
  %popf = uitofp i64 %pop to float
  %old = atomicrmw fadd float addrspace(1)* %out, float %popf syncscope("device") monotonic
  %cnt1 = atomicrmw add i32 addrspace(1)* %cnt, i32 1 acq_rel
  %cas = cmpxchg i32 addrspace(1)* %cnt, i32 %cnt1, i32 0 seq_cst seq_cst
  %casok = extractvalue { i32, i1 } %cas, 1
  fence syncscope("block") acq_rel
  %tid64 = zext i32 %tid to i64
  %pf = getelementptr %pair, %pair addrspace(1)* %pairs, i64 %tid64, i32 1
  %pv = load float, float addrspace(1)* %pf, align 4
  %pv2 = fadd contract float %pv, %old
  %pvv = insertelement <2 x float> undef, float %pv2, i32 0
  %pvv2 = insertelement <2 x float> %pvv, float %m, i32 1
  %pw = getelementptr <2 x i32>, <2 x i32> addrspace(1)* %v2, i64 %tid64
  %w = load <2 x i32>, <2 x i32> addrspace(1)* %pw, align 4
  %w64 = bitcast <2 x i32> %w to i64
  %wf = bitcast i64 %w64 to <2 x float>
  %sum = fadd <2 x float> %wf, %pvv2
  %pick = select i1 %casok, <2 x float> %sum, <2 x float> %wf
  %tied = call i32 asm "add.u32 $0, $0, $1;", "=r,n,0"(i32 7, i32 %mx)
  %tf = bitcast i32 %tied to float
  %s0f = extractelement <2 x float> %pick, i32 0
  %s1f = extractelement <2 x float> %pick, i32 1
  %s01 = fadd float %s0f, %s1f
  %res = fadd float %s01, %tf
  %po = getelementptr float, float addrspace(1)* %out, i64 %tid64
  store float %res, float addrspace(1)* %po, align 4
  store <2 x i32> %w, <2 x i32> addrspace(1)* %pw, align 8
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @llvm.fma.f32(float, float, float)
declare float @llvm.nvvm.ex2.approx.f(float)
declare float @llvm.nvvm.rsqrt.approx.f(float)
declare float @llvm.copysign.f32(float, float)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.nvvm.mulhi.ui(i32, i32)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i64 @llvm.ctpop.i64(i64)

attributes #0 = { "nvvm.reqntid"="256" }
