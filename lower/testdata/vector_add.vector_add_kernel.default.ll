target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @vector_add_kernel(float addrspace(1)* %0, float addrspace(1)* %1, float addrspace(1)* %2, i32 %3, i8 addrspace(1)* %4, i8 addrspace(1)* %5) "nvvm.reqntid"="128" !dbg !4 {
6:
	%7 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%8 = and i32 %7, 31
	%9 = lshr i32 %7, 5
	%10 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !7
	%11 = mul i32 %10, 1024, !dbg !8
	%12 = and i32 %8, 31, !dbg !9
	%13 = shl i32 %12, 2, !dbg !9
	%14 = and i32 %9, 3, !dbg !9
	%15 = shl i32 %14, 7, !dbg !9
	%16 = or i32 %13, %15, !dbg !9
	%17 = or i32 %16, 512, !dbg !9
	%18 = add i32 %11, %16, !dbg !10
	%19 = add i32 %11, %17, !dbg !10
	%20 = icmp slt i32 %18, %3, !dbg !11
	%21 = icmp slt i32 %19, %3, !dbg !11
	%22 = sext i32 %18 to i64, !dbg !12
	%23 = getelementptr float, float addrspace(1)* %0, i64 %22, !dbg !12
	%24 = sext i32 %19 to i64, !dbg !12
	%25 = getelementptr float, float addrspace(1)* %0, i64 %24, !dbg !12
	%26 = call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, 0x0;\0A\09mov.u32 $1, 0x0;\0A\09mov.u32 $2, 0x0;\0A\09mov.u32 $3, 0x0;\0A\09@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b"(float addrspace(1)* %23, i1 %20), !dbg !13
	%27 = extractvalue { i32, i32, i32, i32 } %26, 0, !dbg !13
	%28 = extractvalue { i32, i32, i32, i32 } %26, 1, !dbg !13
	%29 = extractvalue { i32, i32, i32, i32 } %26, 2, !dbg !13
	%30 = extractvalue { i32, i32, i32, i32 } %26, 3, !dbg !13
	%31 = bitcast i32 %27 to float, !dbg !13
	%32 = bitcast i32 %28 to float, !dbg !13
	%33 = bitcast i32 %29 to float, !dbg !13
	%34 = bitcast i32 %30 to float, !dbg !13
	%35 = call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, 0x0;\0A\09mov.u32 $1, 0x0;\0A\09mov.u32 $2, 0x0;\0A\09mov.u32 $3, 0x0;\0A\09@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b"(float addrspace(1)* %25, i1 %21), !dbg !13
	%36 = extractvalue { i32, i32, i32, i32 } %35, 0, !dbg !13
	%37 = extractvalue { i32, i32, i32, i32 } %35, 1, !dbg !13
	%38 = extractvalue { i32, i32, i32, i32 } %35, 2, !dbg !13
	%39 = extractvalue { i32, i32, i32, i32 } %35, 3, !dbg !13
	%40 = bitcast i32 %36 to float, !dbg !13
	%41 = bitcast i32 %37 to float, !dbg !13
	%42 = bitcast i32 %38 to float, !dbg !13
	%43 = bitcast i32 %39 to float, !dbg !13
	%44 = sext i32 %18 to i64, !dbg !14
	%45 = getelementptr float, float addrspace(1)* %1, i64 %44, !dbg !14
	%46 = sext i32 %19 to i64, !dbg !14
	%47 = getelementptr float, float addrspace(1)* %1, i64 %46, !dbg !14
	%48 = call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, 0x0;\0A\09mov.u32 $1, 0x0;\0A\09mov.u32 $2, 0x0;\0A\09mov.u32 $3, 0x0;\0A\09@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b"(float addrspace(1)* %45, i1 %20), !dbg !15
	%49 = extractvalue { i32, i32, i32, i32 } %48, 0, !dbg !15
	%50 = extractvalue { i32, i32, i32, i32 } %48, 1, !dbg !15
	%51 = extractvalue { i32, i32, i32, i32 } %48, 2, !dbg !15
	%52 = extractvalue { i32, i32, i32, i32 } %48, 3, !dbg !15
	%53 = bitcast i32 %49 to float, !dbg !15
	%54 = bitcast i32 %50 to float, !dbg !15
	%55 = bitcast i32 %51 to float, !dbg !15
	%56 = bitcast i32 %52 to float, !dbg !15
	%57 = call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, 0x0;\0A\09mov.u32 $1, 0x0;\0A\09mov.u32 $2, 0x0;\0A\09mov.u32 $3, 0x0;\0A\09@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b"(float addrspace(1)* %47, i1 %21), !dbg !15
	%58 = extractvalue { i32, i32, i32, i32 } %57, 0, !dbg !15
	%59 = extractvalue { i32, i32, i32, i32 } %57, 1, !dbg !15
	%60 = extractvalue { i32, i32, i32, i32 } %57, 2, !dbg !15
	%61 = extractvalue { i32, i32, i32, i32 } %57, 3, !dbg !15
	%62 = bitcast i32 %58 to float, !dbg !15
	%63 = bitcast i32 %59 to float, !dbg !15
	%64 = bitcast i32 %60 to float, !dbg !15
	%65 = bitcast i32 %61 to float, !dbg !15
	%66 = sext i32 %18 to i64, !dbg !16
	%67 = getelementptr float, float addrspace(1)* %2, i64 %66, !dbg !16
	%68 = sext i32 %19 to i64, !dbg !16
	%69 = getelementptr float, float addrspace(1)* %2, i64 %68, !dbg !16
	%70 = fadd float %31, %53, !dbg !17
	%71 = fadd float %32, %54, !dbg !17
	%72 = fadd float %33, %55, !dbg !17
	%73 = fadd float %34, %56, !dbg !17
	%74 = fadd float %40, %62, !dbg !17
	%75 = fadd float %41, %63, !dbg !17
	%76 = fadd float %42, %64, !dbg !17
	%77 = fadd float %43, %65, !dbg !17
	%78 = bitcast float %70 to i32, !dbg !18
	%79 = bitcast float %71 to i32, !dbg !18
	%80 = bitcast float %72 to i32, !dbg !18
	%81 = bitcast float %73 to i32, !dbg !18
	call void asm sideeffect "@$5 st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l,b"(i32 %78, i32 %79, i32 %80, i32 %81, float addrspace(1)* %67, i1 %20), !dbg !18
	%82 = bitcast float %74 to i32, !dbg !18
	%83 = bitcast float %75 to i32, !dbg !18
	%84 = bitcast float %76 to i32, !dbg !18
	%85 = bitcast float %77 to i32, !dbg !18
	call void asm sideeffect "@$5 st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l,b"(i32 %82, i32 %83, i32 %84, i32 %85, float addrspace(1)* %69, i1 %21), !dbg !18
	ret void, !dbg !19
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

!llvm.dbg.cu = !{!1}
!llvm.module.flags = !{!5}

!0 = !DIFile(filename: "vector_add.py", directory: "conformance/kernels")
!1 = distinct !DICompileUnit(language: DW_LANG_C, file: !0, producer: "gotriton", isOptimized: true, emissionKind: LineTablesOnly)
!2 = !{}
!3 = !DISubroutineType(cc: DW_CC_normal, types: !2)
!4 = distinct !DISubprogram(name: "vector_add_kernel", linkageName: "vector_add_kernel", scope: !0, file: !0, line: 13, type: !3, scopeLine: 13, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !1)
!5 = !{i32 2, !"Debug Info Version", i32 3}
!6 = !DILocation(scope: !4)
!7 = !DILocation(line: 14, column: 26, scope: !4)
!8 = !DILocation(line: 15, column: 20, scope: !4)
!9 = !DILocation(line: 16, column: 31, scope: !4)
!10 = !DILocation(line: 16, column: 18, scope: !4)
!11 = !DILocation(line: 17, column: 22, scope: !4)
!12 = !DILocation(line: 18, column: 28, scope: !4)
!13 = !DILocation(line: 18, column: 18, scope: !4)
!14 = !DILocation(line: 19, column: 28, scope: !4)
!15 = !DILocation(line: 19, column: 18, scope: !4)
!16 = !DILocation(line: 20, column: 23, scope: !4)
!17 = !DILocation(line: 20, column: 34, scope: !4)
!18 = !DILocation(line: 20, column: 28, scope: !4)
!19 = !DILocation(line: 20, column: 4, scope: !4)
