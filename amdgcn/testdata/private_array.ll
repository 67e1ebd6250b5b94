; out[tid] = table[idx[tid] & 15] for a per-work-item table of 16 ints in private memory
; (addrspace 5), indexed dynamically, so that the kernel needs scratch.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @lookup_kernel(ptr addrspace(1) inreg %idx, ptr addrspace(1) inreg %out, ptr addrspace(1) inreg %global_scratch, ptr addrspace(1) inreg %profile_scratch) #0 {
entry:
  %table = alloca [16 x i32], align 4, addrspace(5)
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %fill

fill:
  %k = phi i32 [ 0, %entry ], [ %k1, %fill ]
  %slot = getelementptr [16 x i32], ptr addrspace(5) %table, i32 0, i32 %k
  %val = mul i32 %k, %tid
  store volatile i32 %val, ptr addrspace(5) %slot, align 4
  %k1 = add i32 %k, 1
  %more = icmp ult i32 %k1, 16
  br i1 %more, label %fill, label %read

read:
  %t = zext i32 %tid to i64
  %pi = getelementptr i32, ptr addrspace(1) %idx, i64 %t
  %j = load i32, ptr addrspace(1) %pi, align 4
  %jm = and i32 %j, 15
  %src = getelementptr [16 x i32], ptr addrspace(5) %table, i32 0, i32 %jm
  %v = load volatile i32, ptr addrspace(5) %src, align 4
  %po = getelementptr i32, ptr addrspace(1) %out, i64 %t
  store i32 %v, ptr addrspace(1) %po, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()

attributes #0 = { "amdgpu-flat-work-group-size"="1,64" "amdgpu-waves-per-eu"="0, 0" "uniform-work-group-size"="true" "denormal-fp-math-f32"="ieee" }
