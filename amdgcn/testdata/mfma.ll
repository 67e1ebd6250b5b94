; c = a * b for one 32x32 tile with K = 8, on one wavefront with v_mfma_f32_32x32x8f16.
; Lane l holds a[l%32][4*(l/32) .. +3] and b[4*(l/32) .. +3][l%32] (fp16) and gets 16 fp32
; results of c, stored here in lane order (row-major by lane, 16 floats each).
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @mfma_kernel(ptr addrspace(1) inreg %a, ptr addrspace(1) inreg %b, ptr addrspace(1) inreg %c, ptr addrspace(1) inreg %global_scratch, ptr addrspace(1) inreg %profile_scratch) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %lane = zext i32 %tid to i64
  %pa = getelementptr <4 x half>, ptr addrspace(1) %a, i64 %lane
  %pb = getelementptr <4 x half>, ptr addrspace(1) %b, i64 %lane
  %va = load <4 x half>, ptr addrspace(1) %pa, align 8
  %vb = load <4 x half>, ptr addrspace(1) %pb, align 8
  %acc = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half> %va, <4 x half> %vb, <16 x float> zeroinitializer, i32 0, i32 0, i32 0)
  %pc = getelementptr <16 x float>, ptr addrspace(1) %c, i64 %lane
  store <16 x float> %acc, ptr addrspace(1) %pc, align 64
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half>, <4 x half>, <16 x float>, i32 immarg, i32 immarg, i32 immarg)

attributes #0 = { "amdgpu-flat-work-group-size"="1,64" "amdgpu-waves-per-eu"="1, 1" "uniform-work-group-size"="true" "denormal-fp-math-f32"="ieee" }
