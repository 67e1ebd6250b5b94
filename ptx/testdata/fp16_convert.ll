; fp16 and bf16 conversions. Two halves arrive packed in one 32-bit word
; (as Triton's inline-asm loads return them), are unpacked with a bitcast,
; extended to float, scaled, and written back as half, and as bf16 through
; cvt.rn.bf16.f32 in inline asm (llir/llvm v0.3.6 has no bfloat type, so
; bf16 values are i16 bit patterns). bf16 -> f32 is a shift.
target datalayout = "e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @half_scale(i32 addrspace(1)* %x, half addrspace(1)* %y, i16 addrspace(1)* %z, float addrspace(1)* %w, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) #0 {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %px = getelementptr i32, i32 addrspace(1)* %x, i64 %tid64
  %mask = icmp ult i32 %tid, 100
  %packed = call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09@$2 ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l,b"(i32 addrspace(1)* %px, i1 %mask)
  %h2 = bitcast i32 %packed to <2 x half>
  %h0 = extractelement <2 x half> %h2, i32 0
  %h1 = extractelement <2 x half> %h2, i32 1
  %hs = fadd half %h0, %h1
  %hm = fmul half %hs, 0xH3800
  %f = fpext half %hm to float
  %g = fmul float %f, 2.500000e-01
  %gh = fptrunc float %g to half
  %idx = shl nuw i64 %tid64, 1
  %py = getelementptr half, half addrspace(1)* %y, i64 %idx
  store half %gh, half addrspace(1)* %py, align 2
  %pair = insertelement <2 x half> %h2, half %gh, i32 1
  %py2 = bitcast half addrspace(1)* %py to <2 x half> addrspace(1)*
  %py3 = getelementptr <2 x half>, <2 x half> addrspace(1)* %py2, i64 1
  store <2 x half> %pair, <2 x half> addrspace(1)* %py3, align 4
  %bf = call i16 asm "cvt.rn.bf16.f32 $0, $1;", "=h,f"(float %g)
  %pz = getelementptr i16, i16 addrspace(1)* %z, i64 %tid64
  store i16 %bf, i16 addrspace(1)* %pz, align 2
  %bfw = zext i16 %bf to i32
  %bfs = shl i32 %bfw, 16
  %back = bitcast i32 %bfs to float
  %d = fpext float %back to double
  %d2 = fadd double %d, 1.000000e+00
  %r = fptrunc double %d2 to float
  %pw = getelementptr float, float addrspace(1)* %w, i64 %tid64
  store float %r, float addrspace(1)* %pw, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "nvvm.reqntid"="128" }
