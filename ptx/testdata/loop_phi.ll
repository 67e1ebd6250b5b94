; A loop with phis: each thread sums x[pid*K + k] for k < K and also runs a
; Fibonacci pair (a, b) <- (b, a + b) and a pair swap (s, t) <- (t, s), which
; need parallel-copy semantics at the back edge. The exit block has its own
; phi, so the conditional back edge needs an edge block for its copies.
target datalayout = "e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @row_sum(float addrspace(1)* %x, float addrspace(1)* %out, i32 %K, i8 addrspace(1)* %scratch0, i8 addrspace(1)* %scratch1) {
entry:
  %pid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %pid, %K
  %empty = icmp sle i32 %K, 0
  br i1 %empty, label %done, label %loop

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %acc = phi float [ 0.000000e+00, %entry ], [ %acc.next, %loop ]
  %a = phi i32 [ 0, %entry ], [ %b, %loop ]
  %b = phi i32 [ 1, %entry ], [ %ab, %loop ]
  %s = phi i32 [ 7, %entry ], [ %t, %loop ]
  %t = phi i32 [ 9, %entry ], [ %s, %loop ]
  %idx = add i32 %base, %k
  %idx64 = sext i32 %idx to i64
  %p = getelementptr inbounds float, float addrspace(1)* %x, i64 %idx64
  %v = load float, float addrspace(1)* %p, align 4
  %acc.next = fadd float %acc, %v
  %ab = add i32 %a, %b
  %k.next = add nuw nsw i32 %k, 1
  %more = icmp slt i32 %k.next, %K
  br i1 %more, label %loop, label %done

done:
  %sum = phi float [ 0.000000e+00, %entry ], [ %acc.next, %loop ]
  %fib = phi i32 [ 0, %entry ], [ %a, %loop ]
  %sw = phi i32 [ 0, %entry ], [ %s, %loop ]
  %fibf = sitofp i32 %fib to float
  %swf = uitofp i32 %sw to float
  %r0 = fadd float %sum, %fibf
  %r1 = fadd float %r0, %swf
  %pid64 = zext i32 %pid to i64
  %q = getelementptr float, float addrspace(1)* %out, i64 %pid64
  store float %r1, float addrspace(1)* %q, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

!nvvm.annotations = !{!0, !1}
!0 = !{void (float addrspace(1)*, float addrspace(1)*, i32, i8 addrspace(1)*, i8 addrspace(1)*)* @row_sum, !"kernel", i32 1}
!1 = !{void (float addrspace(1)*, float addrspace(1)*, i32, i8 addrspace(1)*, i8 addrspace(1)*)* @row_sum, !"maxntidx", i32 128, !"maxnreg", i32 64}
