; Shared-memory accesses of 8- and 16-bit elements as lower emits them for
; layout conversions: <8 x half> and <16 x i8> (align 16) go through
; ld/st.shared.v4.b32, <4 x i8> (align 4) through one b32, <2 x i8>
; (align 2) through one b16, and the words are unpacked with mov.b32 and
; shifts. An under-aligned <8 x half> falls back to one access per element.
target datalayout = "e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@global_smem = external addrspace(3) global [0 x i8], align 16

define ptx_kernel void @packed(<8 x half> addrspace(1)* %h, <16 x i8> addrspace(1)* %b, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) #0 {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %ph = getelementptr <8 x half>, <8 x half> addrspace(1)* %h, i64 %tid64
  %vh = load <8 x half>, <8 x half> addrspace(1)* %ph, align 16
  %sh = bitcast [0 x i8] addrspace(3)* @global_smem to <8 x half> addrspace(3)*
  %psh = getelementptr <8 x half>, <8 x half> addrspace(3)* %sh, i32 %tid
  store <8 x half> %vh, <8 x half> addrspace(3)* %psh, align 16
  %pb = getelementptr <16 x i8>, <16 x i8> addrspace(1)* %b, i64 %tid64
  %vb = load <16 x i8>, <16 x i8> addrspace(1)* %pb, align 16
  %sb = bitcast [0 x i8] addrspace(3)* @global_smem to <16 x i8> addrspace(3)*
  %psb = getelementptr <16 x i8>, <16 x i8> addrspace(3)* %sb, i32 %tid
  store <16 x i8> %vb, <16 x i8> addrspace(3)* %psb, align 16
  call void @llvm.nvvm.barrier0()
  %wh = load <8 x half>, <8 x half> addrspace(3)* %psh, align 16
  %h0 = extractelement <8 x half> %wh, i32 0
  %h7 = extractelement <8 x half> %wh, i32 7
  %hs = fadd half %h0, %h7
  %wh2 = insertelement <8 x half> %wh, half %hs, i32 3
  store <8 x half> %wh2, <8 x half> addrspace(1)* %ph, align 16
  %s4 = bitcast [0 x i8] addrspace(3)* @global_smem to <4 x i8> addrspace(3)*
  %ps4 = getelementptr <4 x i8>, <4 x i8> addrspace(3)* %s4, i32 %tid
  %w4 = load <4 x i8>, <4 x i8> addrspace(3)* %ps4, align 4
  %s2 = bitcast [0 x i8] addrspace(3)* @global_smem to <2 x i8> addrspace(3)*
  %ps2 = getelementptr <2 x i8>, <2 x i8> addrspace(3)* %s2, i32 %tid
  %w2 = load <2 x i8>, <2 x i8> addrspace(3)* %ps2, align 2
  %b0 = extractelement <4 x i8> %w4, i32 2
  %b1 = extractelement <2 x i8> %w2, i32 1
  %bs = add i8 %b0, %b1
  %w4b = insertelement <4 x i8> %w4, i8 %bs, i32 0
  store <4 x i8> %w4b, <4 x i8> addrspace(3)* %ps4, align 4
  %wb = load <16 x i8>, <16 x i8> addrspace(3)* %psb, align 16
  store <16 x i8> %wb, <16 x i8> addrspace(1)* %pb, align 16
  %pu = getelementptr <8 x half>, <8 x half> addrspace(3)* %sh, i32 1
  %wu = load <8 x half>, <8 x half> addrspace(3)* %pu, align 4
  store <8 x half> %wu, <8 x half> addrspace(1)* %ph, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

attributes #0 = { "nvvm.reqntid"="128" }
