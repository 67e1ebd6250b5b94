; Shared memory as Triton uses it: the external @global_smem array with
; 32-bit shared pointers (p3:32), a store, a CTA barrier, a 128-bit vector
; load of a neighbour's data, an address for inline asm as an i32
; ("r" constraint, as ldmatrix and cp.async take it), and a generic pointer
; through addrspacecast.
target datalayout = "e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@global_smem = external addrspace(3) global [0 x i8], align 16

define ptx_kernel void @smem_rotate(<4 x float> addrspace(1)* %x, <4 x float> addrspace(1)* %y, i32 addrspace(1)* %z, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) #0 {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %px = getelementptr <4 x float>, <4 x float> addrspace(1)* %x, i64 %tid64
  %v = load <4 x float>, <4 x float> addrspace(1)* %px, align 16
  %smem = bitcast [0 x i8] addrspace(3)* @global_smem to <4 x float> addrspace(3)*
  %ps = getelementptr <4 x float>, <4 x float> addrspace(3)* %smem, i32 %tid
  store <4 x float> %v, <4 x float> addrspace(3)* %ps, align 16
  call void @llvm.nvvm.barrier0()
  %n = add i32 %tid, 1
  %nm = and i32 %n, 127
  %pn = getelementptr <4 x float>, <4 x float> addrspace(3)* %smem, i32 %nm
  %w = load <4 x float>, <4 x float> addrspace(3)* %pn, align 16
  %e0 = extractelement <4 x float> %w, i32 0
  %e3 = extractelement <4 x float> %w, i32 3
  %s = fadd float %e0, %e3
  %w2 = insertelement <4 x float> %w, float %s, i32 1
  %w3 = shufflevector <4 x float> %w2, <4 x float> undef, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  %py = getelementptr <4 x float>, <4 x float> addrspace(1)* %y, i64 %tid64
  store <4 x float> %w3, <4 x float> addrspace(1)* %py, align 16
  %addr = ptrtoint <4 x float> addrspace(3)* %pn to i32
  %word = call i32 asm sideeffect "ld.shared.b32 $0, [$1+4];", "=r,r"(i32 %addr)
  %gen = addrspacecast <4 x float> addrspace(3)* %ps to <4 x float>*
  %gi = bitcast <4 x float>* %gen to i32*
  %gw = load i32, i32* %gi, align 4
  %sum = add i32 %word, %gw
  %pz = getelementptr i32, i32 addrspace(1)* %z, i64 %tid64
  store i32 %sum, i32 addrspace(1)* %pz, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

attributes #0 = { "nvvm.reqntid"="128" }
