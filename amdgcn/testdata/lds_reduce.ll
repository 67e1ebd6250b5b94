; out[pid] = the sum of x[pid*256 .. pid*256+255]: each wavefront (64 lanes) reduces its
; values with ds_bpermute butterflies, lane 0 of each of the 4 wavefronts writes its sum to
; LDS, and after s_barrier work-item 0 adds the four partial sums.
target triple = "amdgcn-amd-amdhsa"

@partials = internal addrspace(3) global [4 x float] poison, align 16

define amdgpu_kernel void @sum_kernel(ptr addrspace(1) inreg %x, ptr addrspace(1) inreg %out, ptr addrspace(1) inreg %global_scratch, ptr addrspace(1) inreg %profile_scratch) #0 {
entry:
  %pid = call i32 @llvm.amdgcn.workgroup.id.x()
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %base = shl i32 %pid, 8
  %i = add i32 %base, %tid
  %idx = zext i32 %i to i64
  %px = getelementptr float, ptr addrspace(1) %x, i64 %idx
  %v = load float, ptr addrspace(1) %px, align 4
  %lane = and i32 %tid, 63
  %s1 = call float @xor_shuffle_add(float %v, i32 %lane, i32 32)
  %s2 = call float @xor_shuffle_add(float %s1, i32 %lane, i32 16)
  %s3 = call float @xor_shuffle_add(float %s2, i32 %lane, i32 8)
  %s4 = call float @xor_shuffle_add(float %s3, i32 %lane, i32 4)
  %s5 = call float @xor_shuffle_add(float %s4, i32 %lane, i32 2)
  %s6 = call float @xor_shuffle_add(float %s5, i32 %lane, i32 1)
  %wave = lshr i32 %tid, 6
  %first = icmp eq i32 %lane, 0
  br i1 %first, label %write, label %sync

write:
  %slot = getelementptr [4 x float], ptr addrspace(3) @partials, i32 0, i32 %wave
  store float %s6, ptr addrspace(3) %slot, align 4
  br label %sync

sync:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %leader = icmp eq i32 %tid, 0
  br i1 %leader, label %final, label %done

final:
  %all = load <4 x float>, ptr addrspace(3) @partials, align 16
  %p0 = extractelement <4 x float> %all, i64 0
  %p1 = extractelement <4 x float> %all, i64 1
  %p2 = extractelement <4 x float> %all, i64 2
  %p3 = extractelement <4 x float> %all, i64 3
  %t01 = fadd float %p0, %p1
  %t23 = fadd float %p2, %p3
  %t = fadd float %t01, %t23
  %pidx = zext i32 %pid to i64
  %po = getelementptr float, ptr addrspace(1) %out, i64 %pidx
  store float %t, ptr addrspace(1) %po, align 4
  br label %done

done:
  ret void
}

; xor_shuffle_add returns v plus v of lane (lane xor mask), read with ds_bpermute, which
; takes the source lane's byte address (lane * 4).
define internal float @xor_shuffle_add(float %v, i32 %lane, i32 %mask) alwaysinline {
  %src = xor i32 %lane, %mask
  %addr = shl i32 %src, 2
  %bits = bitcast float %v to i32
  %got = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %bits)
  %other = bitcast i32 %got to float
  %sum = fadd float %v, %other
  ret float %sum
}

declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
declare void @llvm.amdgcn.s.barrier()

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" "amdgpu-waves-per-eu"="0, 0" "uniform-work-group-size"="true" "denormal-fp-math-f32"="ieee" }
