; out[i] = x[i] + y[i] for i < n, four elements per work-item, as Triton's AMD backend
; would lower a BLOCK_SIZE=1024 vector add with num_warps=4 (256 work-items). The kernel
; parameters are the user's, then Triton 3.6's global-scratch and profile-scratch pointers.
; "amdgpu-no-implicitarg-ptr" (which Triton's O3 pipeline infers) leaves the hidden
; kernel arguments out of the kernarg segment; the other kernels here keep them.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @add_kernel(ptr addrspace(1) inreg %x, ptr addrspace(1) inreg %y, ptr addrspace(1) inreg %out, i32 inreg %n, ptr addrspace(1) inreg %global_scratch, ptr addrspace(1) inreg %profile_scratch) #0 {
entry:
  %pid = call i32 @llvm.amdgcn.workgroup.id.x()
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %block = shl i32 %pid, 10
  %lane4 = shl i32 %tid, 2
  %first = add i32 %block, %lane4
  %splat0 = insertelement <4 x i32> poison, i32 %first, i64 0
  %splat = shufflevector <4 x i32> %splat0, <4 x i32> poison, <4 x i32> zeroinitializer
  %offs = add <4 x i32> %splat, <i32 0, i32 1, i32 2, i32 3>
  %nsplat0 = insertelement <4 x i32> poison, i32 %n, i64 0
  %nsplat = shufflevector <4 x i32> %nsplat0, <4 x i32> poison, <4 x i32> zeroinitializer
  %mask = icmp slt <4 x i32> %offs, %nsplat
  %idx = sext i32 %first to i64
  %px = getelementptr float, ptr addrspace(1) %x, i64 %idx
  %py = getelementptr float, ptr addrspace(1) %y, i64 %idx
  %po = getelementptr float, ptr addrspace(1) %out, i64 %idx
  %a = call <4 x float> @llvm.masked.load.v4f32.p1(ptr addrspace(1) %px, i32 16, <4 x i1> %mask, <4 x float> zeroinitializer)
  %b = call <4 x float> @llvm.masked.load.v4f32.p1(ptr addrspace(1) %py, i32 16, <4 x i1> %mask, <4 x float> zeroinitializer)
  %sum = fadd <4 x float> %a, %b
  call void @llvm.masked.store.v4f32.p1(<4 x float> %sum, ptr addrspace(1) %po, i32 16, <4 x i1> %mask)
  ret void
}

declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workitem.id.x()
declare <4 x float> @llvm.masked.load.v4f32.p1(ptr addrspace(1), i32 immarg, <4 x i1>, <4 x float>)
declare void @llvm.masked.store.v4f32.p1(<4 x float>, ptr addrspace(1), i32 immarg, <4 x i1>)

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" "amdgpu-no-implicitarg-ptr" "amdgpu-waves-per-eu"="0, 0" "uniform-work-group-size"="true" "denormal-fp-math-f32"="ieee" }
