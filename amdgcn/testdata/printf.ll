; printf("work-item %u of %u\n", tid, n) from every work-item through HIP's buffered
; printf (clang's -mprintf-kind=buffered): the frame's bytes are reserved with a
; compare-and-swap on the printf buffer's header (hidden_printf_buffer, at byte 72 of the
; implicit kernel arguments), then the control dword (size << 2 | 2), the low 64 bits of
; the format's MD5 and the two arguments zero-extended to 8 bytes are stored. The
; llvm.printf.fmts entry makes llc declare hidden_printf_buffer and list the format in
; amdhsa.printf.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @printf_kernel(i32 inreg %n, ptr addrspace(1) inreg %global_scratch, ptr addrspace(1) inreg %profile_scratch) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %implicit = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %slot = getelementptr i8, ptr addrspace(4) %implicit, i64 72
  %buf = load ptr addrspace(1), ptr addrspace(4) %slot, align 8
  %sizep = getelementptr i32, ptr addrspace(1) %buf, i64 1
  %size = load i32, ptr addrspace(1) %sizep, align 4
  %first = load atomic i32, ptr addrspace(1) %buf syncscope("agent") monotonic, align 4
  br label %reserve

reserve:
  %off = phi i32 [ %first, %entry ], [ %seen, %claim ]
  %end = add i32 %off, 36
  %full = icmp ugt i32 %end, %size
  br i1 %full, label %done, label %claim

claim:
  %next = add i32 %off, 28
  %pair = cmpxchg ptr addrspace(1) %buf, i32 %off, i32 %next syncscope("agent") monotonic monotonic
  %seen = extractvalue { i32, i1 } %pair, 0
  %won = extractvalue { i32, i1 } %pair, 1
  br i1 %won, label %write, label %reserve

write:
  %at32 = add i32 %off, 8
  %at = zext i32 %at32 to i64
  %frame = getelementptr i8, ptr addrspace(1) %buf, i64 %at
  store i32 114, ptr addrspace(1) %frame, align 4
  %hashp = getelementptr i8, ptr addrspace(1) %frame, i64 4
  store i64 -6418656065463152171, ptr addrspace(1) %hashp, align 4
  %a0p = getelementptr i8, ptr addrspace(1) %frame, i64 12
  %a0 = zext i32 %tid to i64
  store i64 %a0, ptr addrspace(1) %a0p, align 4
  %a1p = getelementptr i8, ptr addrspace(1) %frame, i64 20
  %a1 = zext i32 %n to i64
  store i64 %a1, ptr addrspace(1) %a1p, align 4
  br label %done

done:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()

attributes #0 = { "amdgpu-flat-work-group-size"="1,64" }

!llvm.printf.fmts = !{!0}
!0 = !{!"0:0:a6ec5a50e2a991d5,work-item %u of %u\0A"}
