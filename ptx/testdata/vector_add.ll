; Vector add as Triton 3.6 lowers it for num_warps=4, BLOCK_SIZE=1024:
; 128-bit predicated loads and stores through inline PTX, two scratch
; pointers at the end of the parameter list, .reqntid 128.
source_filename = "vector_add"
target datalayout = "e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @add_kernel(float addrspace(1)* align 16 %0, float addrspace(1)* align 16 %1, float addrspace(1)* align 16 %2, i32 %3, i8 addrspace(1)* %4, i8 addrspace(1)* %5) #0 !dbg !5 {
  %7 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !8
  %8 = shl i32 %7, 10, !dbg !9
  %9 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %10 = shl i32 %9, 2, !dbg !10
  %11 = and i32 %10, 508, !dbg !10
  %12 = or i32 %11, %8, !dbg !11
  %13 = or i32 %12, 512, !dbg !11
  %14 = icmp slt i32 %12, %3, !dbg !12
  %15 = icmp slt i32 %13, %3, !dbg !12
  %16 = sext i32 %12 to i64, !dbg !13
  %17 = getelementptr float, float addrspace(1)* %0, i64 %16, !dbg !13
  %18 = sext i32 %13 to i64, !dbg !13
  %19 = getelementptr float, float addrspace(1)* %0, i64 %18, !dbg !13
  %20 = call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, $4;\0A\09mov.u32 $1, $5;\0A\09mov.u32 $2, $6;\0A\09mov.u32 $3, $7;\0A\09@$9 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $8 + 0 ];", "=r,=r,=r,=r,r,r,r,r,l,b"(i32 0, i32 0, i32 0, i32 0, float addrspace(1)* %17, i1 %14) #1, !dbg !14
  %21 = extractvalue { i32, i32, i32, i32 } %20, 0, !dbg !14
  %22 = extractvalue { i32, i32, i32, i32 } %20, 1, !dbg !14
  %23 = extractvalue { i32, i32, i32, i32 } %20, 2, !dbg !14
  %24 = extractvalue { i32, i32, i32, i32 } %20, 3, !dbg !14
  %25 = call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, $4;\0A\09mov.u32 $1, $5;\0A\09mov.u32 $2, $6;\0A\09mov.u32 $3, $7;\0A\09@$9 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $8 + 0 ];", "=r,=r,=r,=r,r,r,r,r,l,b"(i32 0, i32 0, i32 0, i32 0, float addrspace(1)* %19, i1 %15) #1, !dbg !14
  %26 = extractvalue { i32, i32, i32, i32 } %25, 0, !dbg !14
  %27 = extractvalue { i32, i32, i32, i32 } %25, 1, !dbg !14
  %28 = extractvalue { i32, i32, i32, i32 } %25, 2, !dbg !14
  %29 = extractvalue { i32, i32, i32, i32 } %25, 3, !dbg !14
  %30 = getelementptr float, float addrspace(1)* %1, i64 %16, !dbg !15
  %31 = getelementptr float, float addrspace(1)* %1, i64 %18, !dbg !15
  %32 = call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, $4;\0A\09mov.u32 $1, $5;\0A\09mov.u32 $2, $6;\0A\09mov.u32 $3, $7;\0A\09@$9 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $8 + 0 ];", "=r,=r,=r,=r,r,r,r,r,l,b"(i32 0, i32 0, i32 0, i32 0, float addrspace(1)* %30, i1 %14) #1, !dbg !16
  %33 = extractvalue { i32, i32, i32, i32 } %32, 0, !dbg !16
  %34 = extractvalue { i32, i32, i32, i32 } %32, 1, !dbg !16
  %35 = extractvalue { i32, i32, i32, i32 } %32, 2, !dbg !16
  %36 = extractvalue { i32, i32, i32, i32 } %32, 3, !dbg !16
  %37 = call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, $4;\0A\09mov.u32 $1, $5;\0A\09mov.u32 $2, $6;\0A\09mov.u32 $3, $7;\0A\09@$9 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $8 + 0 ];", "=r,=r,=r,=r,r,r,r,r,l,b"(i32 0, i32 0, i32 0, i32 0, float addrspace(1)* %31, i1 %15) #1, !dbg !16
  %38 = extractvalue { i32, i32, i32, i32 } %37, 0, !dbg !16
  %39 = extractvalue { i32, i32, i32, i32 } %37, 1, !dbg !16
  %40 = extractvalue { i32, i32, i32, i32 } %37, 2, !dbg !16
  %41 = extractvalue { i32, i32, i32, i32 } %37, 3, !dbg !16
  %42 = bitcast i32 %21 to float, !dbg !14
  %43 = bitcast i32 %22 to float, !dbg !14
  %44 = bitcast i32 %23 to float, !dbg !14
  %45 = bitcast i32 %24 to float, !dbg !14
  %46 = bitcast i32 %26 to float, !dbg !14
  %47 = bitcast i32 %27 to float, !dbg !14
  %48 = bitcast i32 %28 to float, !dbg !14
  %49 = bitcast i32 %29 to float, !dbg !14
  %50 = bitcast i32 %33 to float, !dbg !16
  %51 = bitcast i32 %34 to float, !dbg !16
  %52 = bitcast i32 %35 to float, !dbg !16
  %53 = bitcast i32 %36 to float, !dbg !16
  %54 = bitcast i32 %38 to float, !dbg !16
  %55 = bitcast i32 %39 to float, !dbg !16
  %56 = bitcast i32 %40 to float, !dbg !16
  %57 = bitcast i32 %41 to float, !dbg !16
  %58 = fadd float %42, %50, !dbg !17
  %59 = fadd float %43, %51, !dbg !17
  %60 = fadd float %44, %52, !dbg !17
  %61 = fadd float %45, %53, !dbg !17
  %62 = fadd float %46, %54, !dbg !17
  %63 = fadd float %47, %55, !dbg !17
  %64 = fadd float %48, %56, !dbg !17
  %65 = fadd float %49, %57, !dbg !17
  %66 = getelementptr float, float addrspace(1)* %2, i64 %16, !dbg !18
  %67 = getelementptr float, float addrspace(1)* %2, i64 %18, !dbg !18
  %68 = bitcast float %58 to i32, !dbg !19
  %69 = bitcast float %59 to i32, !dbg !19
  %70 = bitcast float %60 to i32, !dbg !19
  %71 = bitcast float %61 to i32, !dbg !19
  call void asm sideeffect "@$5 st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l,b"(i32 %68, i32 %69, i32 %70, i32 %71, float addrspace(1)* %66, i1 %14) #1, !dbg !19
  %72 = bitcast float %62 to i32, !dbg !19
  %73 = bitcast float %63 to i32, !dbg !19
  %74 = bitcast float %64 to i32, !dbg !19
  %75 = bitcast float %65 to i32, !dbg !19
  call void asm sideeffect "@$5 st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l,b"(i32 %72, i32 %73, i32 %74, i32 %75, float addrspace(1)* %67, i1 %15) #1, !dbg !19
  ret void, !dbg !20
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

attributes #0 = { nounwind "nvvm.reqntid"="128" }
attributes #1 = { nounwind }
attributes #2 = { nounwind readnone }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "gotriton", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly, enums: !2)
!1 = !DIFile(filename: "vector_add.py", directory: "/work/kernels")
!2 = !{}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 4, !"nvvm-reflect-ftz", i32 1}
!5 = distinct !DISubprogram(name: "add_kernel", linkageName: "add_kernel", scope: !1, file: !1, line: 28, type: !6, scopeLine: 28, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(cc: DW_CC_normal, types: !2)
!8 = !DILocation(line: 37, column: 24, scope: !5)
!9 = !DILocation(line: 42, column: 24, scope: !5)
!10 = !DILocation(line: 43, column: 41, scope: !5)
!11 = !DILocation(line: 43, column: 28, scope: !5)
!12 = !DILocation(line: 45, column: 21, scope: !5)
!13 = !DILocation(line: 48, column: 24, scope: !5)
!14 = !DILocation(line: 48, column: 16, scope: !5)
!15 = !DILocation(line: 49, column: 24, scope: !5)
!16 = !DILocation(line: 49, column: 16, scope: !5)
!17 = !DILocation(line: 50, column: 17, scope: !5)
!18 = !DILocation(line: 52, column: 26, scope: !5)
!19 = !DILocation(line: 52, column: 35, scope: !5)
!20 = !DILocation(line: 52, column: 4, scope: !5)
