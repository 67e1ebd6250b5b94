; Launch-bound directives, from function attributes (as gotriton's lowering writes them:
; nvvm.reqntid always, nvvm.maxnreg under Triton's maxnreg option) and from
; !nvvm.annotations. Each goes after the .entry's parameters, before its body, in llc-22's
; order: .reqntid, .maxntid, .minnctapersm, .maxnreg.
source_filename = "launch_bounds"
target datalayout = "e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @maxnreg_kernel(i32 addrspace(1)* %0, i8 addrspace(1)* %1, i8 addrspace(1)* %2) "nvvm.reqntid"="128" "nvvm.maxnreg"="42" {
  store i32 0, i32 addrspace(1)* %0
  ret void
}

define ptx_kernel void @all_bounds(i32 addrspace(1)* %0) #0 {
  store i32 1, i32 addrspace(1)* %0
  ret void
}

define void @annotated(i32 addrspace(1)* %0) {
  store i32 2, i32 addrspace(1)* %0
  ret void
}

define ptx_kernel void @unbounded(i32 addrspace(1)* %0) {
  store i32 3, i32 addrspace(1)* %0
  ret void
}

attributes #0 = { "nvvm.maxntid"="256" "nvvm.minctasm"="2" "nvvm.maxnreg"="64" }

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*)* @annotated, !"kernel", i32 1, !"reqntidx", i32 64, !"maxnreg", i32 32}
