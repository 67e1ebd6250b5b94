; Floating multiply-add contraction (Options.FPFusion, Triton's enable_fp_fusion):
; fp_fusion.ptx is the PTX without it, fp_fusion.fused.ptx with it.
target datalayout = "e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; x * 1.5 + 1.0, Triton's test_enable_fp_fusion.
define ptx_kernel void @mul_add(float addrspace(1)* %p) {
  %x = load float, float addrspace(1)* %p, align 4
  %m = fmul float %x, 1.5
  %s = fadd float %m, 1.0
  store float %s, float addrspace(1)* %p, align 4
  ret void
}

; A product with another use is fused and stays for that use.
define ptx_kernel void @multi_use(float addrspace(1)* %p, float %a, float %b, float %c) {
  %m = fmul float %a, %b
  %s = fadd float %c, %m
  store float %s, float addrspace(1)* %p, align 4
  %q = getelementptr float, float addrspace(1)* %p, i32 1
  store float %m, float addrspace(1)* %q, align 4
  ret void
}

; Six adds of one product: all fused.
define ptx_kernel void @many_uses(float addrspace(1)* %p, float %a, float %b, float %c) {
  %m = fmul float %a, %b
  %s1 = fadd float %m, %c
  %s2 = fadd float %m, %s1
  %s3 = fadd float %m, %s2
  %s4 = fadd float %m, %s3
  %s5 = fadd float %m, %s4
  %s6 = fadd float %m, %s5
  store float %s6, float addrspace(1)* %p, align 4
  ret void
}

; m - c, b - m2, m3 - 1.0 and 1.0 - m4 (the negation folds into the constants).
define ptx_kernel void @subs(float addrspace(1)* %p, float %a, float %b, float %c) {
  %m = fmul float %a, %b
  %s = fsub float %m, %c
  store float %s, float addrspace(1)* %p, align 4
  %m2 = fmul float %a, %c
  %s2 = fsub float %b, %m2
  %q2 = getelementptr float, float addrspace(1)* %p, i32 1
  store float %s2, float addrspace(1)* %q2, align 4
  %m3 = fmul float %b, 1.5
  %s3 = fsub float %m3, 1.0
  %q3 = getelementptr float, float addrspace(1)* %p, i32 2
  store float %s3, float addrspace(1)* %q3, align 4
  %m4 = fmul float 1.5, %c
  %s4 = fsub float 1.0, %m4
  %q4 = getelementptr float, float addrspace(1)* %p, i32 3
  store float %s4, float addrspace(1)* %q4, align 4
  ret void
}

; Other float types: f64, f16 (constants in registers), and vectors leaf by leaf.
define ptx_kernel void @types(double addrspace(1)* %pd, half addrspace(1)* %ph, <2 x float> addrspace(1)* %pv, double %a, double %b, half %h) {
  %md = fmul double %a, %b
  %sd = fsub double %md, 2.0
  store double %sd, double addrspace(1)* %pd, align 8
  %mh = fmul half %h, 0xH3E00
  %sh = fsub half 0xH3C00, %mh
  store half %sh, half addrspace(1)* %ph, align 2
  %v = load <2 x float>, <2 x float> addrspace(1)* %pv, align 8
  %mv = fmul <2 x float> %v, %v
  %sv = fadd <2 x float> %mv, <float 1.0, float 2.0>
  store <2 x float> %sv, <2 x float> addrspace(1)* %pv, align 8
  ret void
}

; <2 x half>, leaf by leaf (llc writes packed f16x2 instructions instead).
define ptx_kernel void @half2(<2 x half> addrspace(1)* %p) {
  %w = load <2 x half>, <2 x half> addrspace(1)* %p, align 4
  %m = fmul <2 x half> %w, %w
  %s = fadd <2 x half> %m, %w
  store <2 x half> %s, <2 x half> addrspace(1)* %p, align 4
  ret void
}

; A product from another block, or behind an fpext, is not fused. (llc's speculative
; execution would hoist the fadd into the first block, and fuse it, if %then branched
; to %done: gotriton does not speculate.)
define ptx_kernel void @not_fused(float addrspace(1)* %p, float %a, float %b, float %c, half %h, i1 %k) {
  %m = fmul float %a, %b
  %mh = fmul half %h, %h
  %e = fpext half %mh to float
  %se = fadd float %e, %c
  store float %se, float addrspace(1)* %p, align 4
  br i1 %k, label %then, label %done
then:
  %s = fadd float %m, %c
  %q = getelementptr float, float addrspace(1)* %p, i32 1
  store float %s, float addrspace(1)* %q, align 4
  ret void
done:
  ret void
}

; Two products: the one with fewer uses is fused, the first on a tie; the block is
; visited last to first, so the second fadd fuses %m first and then %m ties with %n.
define ptx_kernel void @two_products(float addrspace(1)* %p, float %a, float %b, float %c, float %d, float %k) {
  %m = fmul float %a, %b
  %n = fmul float %c, %d
  %s1 = fadd float %m, %n
  %s2 = fadd float %m, %k
  store float %s1, float addrspace(1)* %p, align 4
  %q = getelementptr float, float addrspace(1)* %p, i32 1
  store float %s2, float addrspace(1)* %q, align 4
  %m2 = fmul float %a, %c
  %n2 = fmul float %b, %d
  %s3 = fsub float %m2, %n2
  %q3 = getelementptr float, float addrspace(1)* %p, i32 2
  store float %s3, float addrspace(1)* %q3, align 4
  %q4 = getelementptr float, float addrspace(1)* %p, i32 3
  store float %m2, float addrspace(1)* %q4, align 4
  %m3 = fmul float %c, %k
  %s5 = fadd float %m3, %m3
  %q5 = getelementptr float, float addrspace(1)* %p, i32 4
  store float %s5, float addrspace(1)* %q5, align 4
  ret void
}

; Negated products: fneg folds into the fma's operands.
define ptx_kernel void @negated(float addrspace(1)* %p, float %a, float %b, float %c, float %d) {
  %m = fmul float %a, %b
  %nm = fneg float %m
  %s = fsub float %nm, %c
  store float %s, float addrspace(1)* %p, align 4
  %m2 = fmul float %c, %a
  %nm2 = fneg float %m2
  %s2 = fadd float %nm2, %b
  %q2 = getelementptr float, float addrspace(1)* %p, i32 1
  store float %s2, float addrspace(1)* %q2, align 4
  %m3 = fmul float %b, %d
  %nm3 = fneg float %m3
  %s3 = fsub float %a, %nm3
  %q3 = getelementptr float, float addrspace(1)* %p, i32 2
  store float %s3, float addrspace(1)* %q3, align 4
  %m4 = fmul float %c, %d
  %nm4 = fneg float %m4
  %m5 = fmul float %a, %d
  %s4 = fsub float %nm4, %m5
  %q4 = getelementptr float, float addrspace(1)* %p, i32 3
  store float %s4, float addrspace(1)* %q4, align 4
  %m6 = fmul float %a, %c
  %nm6 = fneg float %m6
  %m7 = fmul float %b, %d
  %s6 = fadd float %nm6, %m7
  %q6 = getelementptr float, float addrspace(1)* %p, i32 4
  store float %s6, float addrspace(1)* %q6, align 4
  %m8 = fmul float %a, %a
  %nm8 = fneg float %m8
  %m9 = fmul float %b, %b
  %nm9 = fneg float %m9
  %s8 = fsub float %nm8, %nm9
  %q8 = getelementptr float, float addrspace(1)* %p, i32 5
  store float %s8, float addrspace(1)* %q8, align 4
  ret void
}

; Chains, and what is never contracted: llvm.fma, and mul.rn from a rounding intrinsic
; (libdevice's __nv_fmul_rn).
define ptx_kernel void @chains(float addrspace(1)* %p, float %a, float %b, float %c) {
  %m = fmul float %a, %b
  %s = fadd float %m, %c
  %t = fmul float %s, %c
  %u = fadd float %t, %a
  store float %u, float addrspace(1)* %p, align 4
  %f = call float @llvm.fma.f32(float %a, float %c, float %b)
  %v = fadd float %f, %c
  %q = getelementptr float, float addrspace(1)* %p, i32 1
  store float %v, float addrspace(1)* %q, align 4
  %r = call float @llvm.nvvm.mul.rn.f(float %a, float %c)
  %w = fadd float %r, %b
  %q2 = getelementptr float, float addrspace(1)* %p, i32 2
  store float %w, float addrspace(1)* %q2, align 4
  %r2 = call float @llvm.nvvm.add.rn.f(float %w, float %a)
  %q3 = getelementptr float, float addrspace(1)* %p, i32 3
  store float %r2, float addrspace(1)* %q3, align 4
  ret void
}

declare float @llvm.fma.f32(float, float, float)
declare float @llvm.nvvm.mul.rn.f(float, float)
declare float @llvm.nvvm.add.rn.f(float, float)
