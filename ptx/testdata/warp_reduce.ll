; A warp-shuffle sum reduction (Triton's tl.sum within a warp), then lane 0
; of each warp writes its partial sum through a predicated branch.
target datalayout = "e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @warp_sum(float addrspace(1)* %x, float addrspace(1)* %out, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %blk = shl i32 %pid, 7
  %i = or i32 %blk, %tid
  %i64 = zext i32 %i to i64
  %p = getelementptr float, float addrspace(1)* %x, i64 %i64
  %v0 = load float, float addrspace(1)* %p, align 4
  %t16 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v0, i32 16, i32 31)
  %v1 = fadd float %v0, %t16
  %t8 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v1, i32 8, i32 31)
  %v2 = fadd float %v1, %t8
  %t4 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v2, i32 4, i32 31)
  %v3 = fadd float %v2, %t4
  %t2 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v3, i32 2, i32 31)
  %v4 = fadd float %v3, %t2
  %b1 = bitcast float %v4 to i32
  %t1 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %b1, i32 1, i32 31)
  %f1 = bitcast i32 %t1 to float
  %v5 = fadd float %v4, %f1
  %lane = and i32 %tid, 31
  %warp = lshr i32 %tid, 5
  %first = icmp eq i32 %lane, 0
  br i1 %first, label %write, label %exit

write:
  %w = shl i32 %pid, 2
  %o = add i32 %w, %warp
  %o64 = zext i32 %o to i64
  %q = getelementptr float, float addrspace(1)* %out, i64 %o64
  store float %v5, float addrspace(1)* %q, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)

attributes #0 = { "nvvm.reqntid"="128" }
