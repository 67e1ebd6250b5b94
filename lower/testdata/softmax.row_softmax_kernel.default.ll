target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@global_smem = external addrspace(3) global [0 x i8], align 16

define ptx_kernel void @row_softmax_kernel(float addrspace(1)* %0, float addrspace(1)* %1, i32 %2, i32 %3, i32 %4, i32 %5, i8 addrspace(1)* %6, i8 addrspace(1)* %7) "nvvm.reqntid"="128" !dbg !4 {
8:
	%9 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%10 = and i32 %9, 31
	%11 = lshr i32 %9, 5
	%12 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !7
	%13 = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x(), !dbg !8
	%14 = and i32 %10, 31, !dbg !9
	%15 = and i32 %11, 3, !dbg !9
	%16 = shl i32 %15, 5, !dbg !9
	%17 = or i32 %14, %16, !dbg !9
	%18 = or i32 %17, 128, !dbg !9
	%19 = or i32 %17, 256, !dbg !9
	%20 = or i32 %17, 384, !dbg !9
	%21 = or i32 %17, 512, !dbg !9
	%22 = or i32 %17, 640, !dbg !9
	%23 = or i32 %17, 768, !dbg !9
	%24 = or i32 %17, 896, !dbg !9
	%25 = icmp slt i32 %17, %5, !dbg !10
	%26 = icmp slt i32 %18, %5, !dbg !10
	%27 = icmp slt i32 %19, %5, !dbg !10
	%28 = icmp slt i32 %20, %5, !dbg !10
	%29 = icmp slt i32 %21, %5, !dbg !10
	%30 = icmp slt i32 %22, %5, !dbg !10
	%31 = icmp slt i32 %23, %5, !dbg !10
	%32 = icmp slt i32 %24, %5, !dbg !10
	%33 = mul i32 %9, 4, !dbg !31
	%34 = mul i32 %12, %2, !dbg !11
	%35 = sext i32 %34 to i64, !dbg !12
	%36 = getelementptr float, float addrspace(1)* %1, i64 %35, !dbg !12
	%37 = sext i32 %17 to i64, !dbg !13
	%38 = getelementptr float, float addrspace(1)* %36, i64 %37, !dbg !13
	%39 = sext i32 %18 to i64, !dbg !13
	%40 = getelementptr float, float addrspace(1)* %36, i64 %39, !dbg !13
	%41 = sext i32 %19 to i64, !dbg !13
	%42 = getelementptr float, float addrspace(1)* %36, i64 %41, !dbg !13
	%43 = sext i32 %20 to i64, !dbg !13
	%44 = getelementptr float, float addrspace(1)* %36, i64 %43, !dbg !13
	%45 = sext i32 %21 to i64, !dbg !13
	%46 = getelementptr float, float addrspace(1)* %36, i64 %45, !dbg !13
	%47 = sext i32 %22 to i64, !dbg !13
	%48 = getelementptr float, float addrspace(1)* %36, i64 %47, !dbg !13
	%49 = sext i32 %23 to i64, !dbg !13
	%50 = getelementptr float, float addrspace(1)* %36, i64 %49, !dbg !13
	%51 = sext i32 %24 to i64, !dbg !13
	%52 = getelementptr float, float addrspace(1)* %36, i64 %51, !dbg !13
	%53 = icmp slt i32 %12, %4, !dbg !31
	%54 = ptrtoint i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to i32, !dbg !31
	%55 = mul i32 0, u0x1000, !dbg !31
	%56 = add i32 %54, %55, !dbg !31
	%57 = add i32 %56, 0, !dbg !31
	%58 = add i32 %57, %33, !dbg !31
	%59 = add i32 %58, 0, !dbg !31
	%60 = select i1 %25, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %59, float addrspace(1)* %38, i32 %60, i1 %53), !dbg !31
	%61 = add i32 %58, 512, !dbg !31
	%62 = select i1 %26, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %61, float addrspace(1)* %40, i32 %62, i1 %53), !dbg !31
	%63 = add i32 %58, 1024, !dbg !31
	%64 = select i1 %27, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %63, float addrspace(1)* %42, i32 %64, i1 %53), !dbg !31
	%65 = add i32 %58, 1536, !dbg !31
	%66 = select i1 %28, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %65, float addrspace(1)* %44, i32 %66, i1 %53), !dbg !31
	%67 = add i32 %58, 2048, !dbg !31
	%68 = select i1 %29, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %67, float addrspace(1)* %46, i32 %68, i1 %53), !dbg !31
	%69 = add i32 %58, 2560, !dbg !31
	%70 = select i1 %30, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %69, float addrspace(1)* %48, i32 %70, i1 %53), !dbg !31
	%71 = add i32 %58, 3072, !dbg !31
	%72 = select i1 %31, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %71, float addrspace(1)* %50, i32 %72, i1 %53), !dbg !31
	%73 = add i32 %58, 3584, !dbg !31
	%74 = select i1 %32, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %73, float addrspace(1)* %52, i32 %74, i1 %53), !dbg !31
	call void asm sideeffect "cp.async.commit_group;", "~{memory}"(), !dbg !31
	%75 = mul i32 %13, 1, !dbg !31
	%76 = add i32 %12, %75, !dbg !31
	%77 = mul i32 %76, %2, !dbg !11
	%78 = sext i32 %77 to i64, !dbg !12
	%79 = getelementptr float, float addrspace(1)* %1, i64 %78, !dbg !12
	%80 = sext i32 %17 to i64, !dbg !13
	%81 = getelementptr float, float addrspace(1)* %79, i64 %80, !dbg !13
	%82 = sext i32 %18 to i64, !dbg !13
	%83 = getelementptr float, float addrspace(1)* %79, i64 %82, !dbg !13
	%84 = sext i32 %19 to i64, !dbg !13
	%85 = getelementptr float, float addrspace(1)* %79, i64 %84, !dbg !13
	%86 = sext i32 %20 to i64, !dbg !13
	%87 = getelementptr float, float addrspace(1)* %79, i64 %86, !dbg !13
	%88 = sext i32 %21 to i64, !dbg !13
	%89 = getelementptr float, float addrspace(1)* %79, i64 %88, !dbg !13
	%90 = sext i32 %22 to i64, !dbg !13
	%91 = getelementptr float, float addrspace(1)* %79, i64 %90, !dbg !13
	%92 = sext i32 %23 to i64, !dbg !13
	%93 = getelementptr float, float addrspace(1)* %79, i64 %92, !dbg !13
	%94 = sext i32 %24 to i64, !dbg !13
	%95 = getelementptr float, float addrspace(1)* %79, i64 %94, !dbg !13
	%96 = icmp slt i32 %76, %4, !dbg !31
	%97 = ptrtoint i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to i32, !dbg !31
	%98 = mul i32 1, u0x1000, !dbg !31
	%99 = add i32 %97, %98, !dbg !31
	%100 = add i32 %99, 0, !dbg !31
	%101 = add i32 %100, %33, !dbg !31
	%102 = add i32 %101, 0, !dbg !31
	%103 = select i1 %25, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %102, float addrspace(1)* %81, i32 %103, i1 %96), !dbg !31
	%104 = add i32 %101, 512, !dbg !31
	%105 = select i1 %26, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %104, float addrspace(1)* %83, i32 %105, i1 %96), !dbg !31
	%106 = add i32 %101, 1024, !dbg !31
	%107 = select i1 %27, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %106, float addrspace(1)* %85, i32 %107, i1 %96), !dbg !31
	%108 = add i32 %101, 1536, !dbg !31
	%109 = select i1 %28, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %108, float addrspace(1)* %87, i32 %109, i1 %96), !dbg !31
	%110 = add i32 %101, 2048, !dbg !31
	%111 = select i1 %29, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %110, float addrspace(1)* %89, i32 %111, i1 %96), !dbg !31
	%112 = add i32 %101, 2560, !dbg !31
	%113 = select i1 %30, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %112, float addrspace(1)* %91, i32 %113, i1 %96), !dbg !31
	%114 = add i32 %101, 3072, !dbg !31
	%115 = select i1 %31, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %114, float addrspace(1)* %93, i32 %115, i1 %96), !dbg !31
	%116 = add i32 %101, 3584, !dbg !31
	%117 = select i1 %32, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %116, float addrspace(1)* %95, i32 %117, i1 %96), !dbg !31
	call void asm sideeffect "cp.async.commit_group;", "~{memory}"(), !dbg !31
	%118 = mul i32 %13, 2, !dbg !31
	%119 = add i32 %12, %118, !dbg !31
	%120 = mul i32 %119, %2, !dbg !11
	%121 = sext i32 %120 to i64, !dbg !12
	%122 = getelementptr float, float addrspace(1)* %1, i64 %121, !dbg !12
	%123 = sext i32 %17 to i64, !dbg !13
	%124 = getelementptr float, float addrspace(1)* %122, i64 %123, !dbg !13
	%125 = sext i32 %18 to i64, !dbg !13
	%126 = getelementptr float, float addrspace(1)* %122, i64 %125, !dbg !13
	%127 = sext i32 %19 to i64, !dbg !13
	%128 = getelementptr float, float addrspace(1)* %122, i64 %127, !dbg !13
	%129 = sext i32 %20 to i64, !dbg !13
	%130 = getelementptr float, float addrspace(1)* %122, i64 %129, !dbg !13
	%131 = sext i32 %21 to i64, !dbg !13
	%132 = getelementptr float, float addrspace(1)* %122, i64 %131, !dbg !13
	%133 = sext i32 %22 to i64, !dbg !13
	%134 = getelementptr float, float addrspace(1)* %122, i64 %133, !dbg !13
	%135 = sext i32 %23 to i64, !dbg !13
	%136 = getelementptr float, float addrspace(1)* %122, i64 %135, !dbg !13
	%137 = sext i32 %24 to i64, !dbg !13
	%138 = getelementptr float, float addrspace(1)* %122, i64 %137, !dbg !13
	%139 = icmp slt i32 %119, %4, !dbg !31
	%140 = ptrtoint i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to i32, !dbg !31
	%141 = mul i32 2, u0x1000, !dbg !31
	%142 = add i32 %140, %141, !dbg !31
	%143 = add i32 %142, 0, !dbg !31
	%144 = add i32 %143, %33, !dbg !31
	%145 = add i32 %144, 0, !dbg !31
	%146 = select i1 %25, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %145, float addrspace(1)* %124, i32 %146, i1 %139), !dbg !31
	%147 = add i32 %144, 512, !dbg !31
	%148 = select i1 %26, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %147, float addrspace(1)* %126, i32 %148, i1 %139), !dbg !31
	%149 = add i32 %144, 1024, !dbg !31
	%150 = select i1 %27, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %149, float addrspace(1)* %128, i32 %150, i1 %139), !dbg !31
	%151 = add i32 %144, 1536, !dbg !31
	%152 = select i1 %28, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %151, float addrspace(1)* %130, i32 %152, i1 %139), !dbg !31
	%153 = add i32 %144, 2048, !dbg !31
	%154 = select i1 %29, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %153, float addrspace(1)* %132, i32 %154, i1 %139), !dbg !31
	%155 = add i32 %144, 2560, !dbg !31
	%156 = select i1 %30, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %155, float addrspace(1)* %134, i32 %156, i1 %139), !dbg !31
	%157 = add i32 %144, 3072, !dbg !31
	%158 = select i1 %31, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %157, float addrspace(1)* %136, i32 %158, i1 %139), !dbg !31
	%159 = add i32 %144, 3584, !dbg !31
	%160 = select i1 %32, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %159, float addrspace(1)* %138, i32 %160, i1 %139), !dbg !31
	call void asm sideeffect "cp.async.commit_group;", "~{memory}"(), !dbg !31
	br label %161, !dbg !31

161:
	%162 = phi i32 [ %12, %8 ], [ %395, %165 ], !dbg !31
	%163 = phi i32 [ 0, %8 ], [ %394, %165 ], !dbg !31
	%164 = icmp slt i32 %162, %4, !dbg !31
	br i1 %164, label %165, label %396, !dbg !31

165:
	call void asm sideeffect "cp.async.wait_group 2;", "~{memory}"(), !dbg !31
	%166 = mul i32 %163, u0x1000, !dbg !14
	%167 = add i32 %166, 0, !dbg !14
	%168 = getelementptr i8, i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*), i32 %167, !dbg !14
	%169 = getelementptr i8, i8 addrspace(3)* %168, i32 %33, !dbg !14
	%170 = getelementptr i8, i8 addrspace(3)* %169, i32 0, !dbg !14
	%171 = load float, i8 addrspace(3)* %170, align 4, !dbg !14
	%172 = select i1 %25, float %171, float 0xFFF0000000000000, !dbg !14
	%173 = getelementptr i8, i8 addrspace(3)* %169, i32 512, !dbg !14
	%174 = load float, i8 addrspace(3)* %173, align 4, !dbg !14
	%175 = select i1 %26, float %174, float 0xFFF0000000000000, !dbg !14
	%176 = getelementptr i8, i8 addrspace(3)* %169, i32 1024, !dbg !14
	%177 = load float, i8 addrspace(3)* %176, align 4, !dbg !14
	%178 = select i1 %27, float %177, float 0xFFF0000000000000, !dbg !14
	%179 = getelementptr i8, i8 addrspace(3)* %169, i32 1536, !dbg !14
	%180 = load float, i8 addrspace(3)* %179, align 4, !dbg !14
	%181 = select i1 %28, float %180, float 0xFFF0000000000000, !dbg !14
	%182 = getelementptr i8, i8 addrspace(3)* %169, i32 2048, !dbg !14
	%183 = load float, i8 addrspace(3)* %182, align 4, !dbg !14
	%184 = select i1 %29, float %183, float 0xFFF0000000000000, !dbg !14
	%185 = getelementptr i8, i8 addrspace(3)* %169, i32 2560, !dbg !14
	%186 = load float, i8 addrspace(3)* %185, align 4, !dbg !14
	%187 = select i1 %30, float %186, float 0xFFF0000000000000, !dbg !14
	%188 = getelementptr i8, i8 addrspace(3)* %169, i32 3072, !dbg !14
	%189 = load float, i8 addrspace(3)* %188, align 4, !dbg !14
	%190 = select i1 %31, float %189, float 0xFFF0000000000000, !dbg !14
	%191 = getelementptr i8, i8 addrspace(3)* %169, i32 3584, !dbg !14
	%192 = load float, i8 addrspace(3)* %191, align 4, !dbg !14
	%193 = select i1 %32, float %192, float 0xFFF0000000000000, !dbg !14
	%194 = call float @llvm.maxnum.f32(float %172, float %175), !dbg !17
	%195 = call float @llvm.maxnum.f32(float %194, float %178), !dbg !17
	%196 = call float @llvm.maxnum.f32(float %195, float %181), !dbg !17
	%197 = call float @llvm.maxnum.f32(float %196, float %184), !dbg !17
	%198 = call float @llvm.maxnum.f32(float %197, float %187), !dbg !17
	%199 = call float @llvm.maxnum.f32(float %198, float %190), !dbg !17
	%200 = call float @llvm.maxnum.f32(float %199, float %193), !dbg !17
	%201 = bitcast float %200 to i32, !dbg !19
	%202 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %201, i32 1, i32 31), !dbg !19
	%203 = bitcast i32 %202 to float, !dbg !19
	%204 = call float @llvm.maxnum.f32(float %200, float %203), !dbg !17
	%205 = bitcast float %204 to i32, !dbg !19
	%206 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %205, i32 2, i32 31), !dbg !19
	%207 = bitcast i32 %206 to float, !dbg !19
	%208 = call float @llvm.maxnum.f32(float %204, float %207), !dbg !17
	%209 = bitcast float %208 to i32, !dbg !19
	%210 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %209, i32 4, i32 31), !dbg !19
	%211 = bitcast i32 %210 to float, !dbg !19
	%212 = call float @llvm.maxnum.f32(float %208, float %211), !dbg !17
	%213 = bitcast float %212 to i32, !dbg !19
	%214 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %213, i32 8, i32 31), !dbg !19
	%215 = bitcast i32 %214 to float, !dbg !19
	%216 = call float @llvm.maxnum.f32(float %212, float %215), !dbg !17
	%217 = bitcast float %216 to i32, !dbg !19
	%218 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %217, i32 16, i32 31), !dbg !19
	%219 = bitcast i32 %218 to float, !dbg !19
	%220 = call float @llvm.maxnum.f32(float %216, float %219), !dbg !17
	%221 = lshr i32 %11, 0, !dbg !19
	%222 = and i32 %221, 1, !dbg !19
	%223 = lshr i32 %11, 1, !dbg !19
	%224 = and i32 %223, 1, !dbg !19
	%225 = shl i32 %224, 1, !dbg !19
	%226 = or i32 %222, %225, !dbg !19
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !19
	%227 = mul i32 %226, 1, !dbg !19
	%228 = add i32 %227, 0, !dbg !19
	%229 = bitcast i8 addrspace(3)* getelementptr (i8, i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*), i32 12288) to float addrspace(3)*, !dbg !19
	%230 = getelementptr float, float addrspace(3)* %229, i32 %228, !dbg !19
	store float %220, float addrspace(3)* %230, !dbg !19
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !19
	%231 = bitcast i8 addrspace(3)* getelementptr (i8, i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*), i32 12288) to float addrspace(3)*, !dbg !19
	%232 = getelementptr float, float addrspace(3)* %231, i32 0, !dbg !19
	%233 = bitcast float addrspace(3)* %232 to <4 x float> addrspace(3)*, !dbg !19
	%234 = load <4 x float>, <4 x float> addrspace(3)* %233, align 16, !dbg !19
	%235 = extractelement <4 x float> %234, i32 0, !dbg !19
	%236 = extractelement <4 x float> %234, i32 1, !dbg !19
	%237 = extractelement <4 x float> %234, i32 2, !dbg !19
	%238 = extractelement <4 x float> %234, i32 3, !dbg !19
	%239 = call float @llvm.maxnum.f32(float %235, float %236), !dbg !17
	%240 = call float @llvm.maxnum.f32(float %239, float %237), !dbg !17
	%241 = call float @llvm.maxnum.f32(float %240, float %238), !dbg !17
	%242 = fsub float %172, %241, !dbg !20
	%243 = fsub float %175, %241, !dbg !20
	%244 = fsub float %178, %241, !dbg !20
	%245 = fsub float %181, %241, !dbg !20
	%246 = fsub float %184, %241, !dbg !20
	%247 = fsub float %187, %241, !dbg !20
	%248 = fsub float %190, %241, !dbg !20
	%249 = fsub float %193, %241, !dbg !20
	%250 = fmul float %242, 0x3FF7154760000000, !dbg !21
	%251 = call float @llvm.nvvm.ex2.approx.f(float %250), !dbg !21
	%252 = fmul float %243, 0x3FF7154760000000, !dbg !21
	%253 = call float @llvm.nvvm.ex2.approx.f(float %252), !dbg !21
	%254 = fmul float %244, 0x3FF7154760000000, !dbg !21
	%255 = call float @llvm.nvvm.ex2.approx.f(float %254), !dbg !21
	%256 = fmul float %245, 0x3FF7154760000000, !dbg !21
	%257 = call float @llvm.nvvm.ex2.approx.f(float %256), !dbg !21
	%258 = fmul float %246, 0x3FF7154760000000, !dbg !21
	%259 = call float @llvm.nvvm.ex2.approx.f(float %258), !dbg !21
	%260 = fmul float %247, 0x3FF7154760000000, !dbg !21
	%261 = call float @llvm.nvvm.ex2.approx.f(float %260), !dbg !21
	%262 = fmul float %248, 0x3FF7154760000000, !dbg !21
	%263 = call float @llvm.nvvm.ex2.approx.f(float %262), !dbg !21
	%264 = fmul float %249, 0x3FF7154760000000, !dbg !21
	%265 = call float @llvm.nvvm.ex2.approx.f(float %264), !dbg !21
	%266 = fadd float %251, %253, !dbg !23
	%267 = fadd float %266, %255, !dbg !23
	%268 = fadd float %267, %257, !dbg !23
	%269 = fadd float %268, %259, !dbg !23
	%270 = fadd float %269, %261, !dbg !23
	%271 = fadd float %270, %263, !dbg !23
	%272 = fadd float %271, %265, !dbg !23
	%273 = bitcast float %272 to i32, !dbg !25
	%274 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %273, i32 1, i32 31), !dbg !25
	%275 = bitcast i32 %274 to float, !dbg !25
	%276 = fadd float %272, %275, !dbg !23
	%277 = bitcast float %276 to i32, !dbg !25
	%278 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %277, i32 2, i32 31), !dbg !25
	%279 = bitcast i32 %278 to float, !dbg !25
	%280 = fadd float %276, %279, !dbg !23
	%281 = bitcast float %280 to i32, !dbg !25
	%282 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %281, i32 4, i32 31), !dbg !25
	%283 = bitcast i32 %282 to float, !dbg !25
	%284 = fadd float %280, %283, !dbg !23
	%285 = bitcast float %284 to i32, !dbg !25
	%286 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %285, i32 8, i32 31), !dbg !25
	%287 = bitcast i32 %286 to float, !dbg !25
	%288 = fadd float %284, %287, !dbg !23
	%289 = bitcast float %288 to i32, !dbg !25
	%290 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %289, i32 16, i32 31), !dbg !25
	%291 = bitcast i32 %290 to float, !dbg !25
	%292 = fadd float %288, %291, !dbg !23
	%293 = lshr i32 %11, 0, !dbg !25
	%294 = and i32 %293, 1, !dbg !25
	%295 = lshr i32 %11, 1, !dbg !25
	%296 = and i32 %295, 1, !dbg !25
	%297 = shl i32 %296, 1, !dbg !25
	%298 = or i32 %294, %297, !dbg !25
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !25
	%299 = mul i32 %298, 1, !dbg !25
	%300 = add i32 %299, 0, !dbg !25
	%301 = bitcast i8 addrspace(3)* getelementptr (i8, i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*), i32 12288) to float addrspace(3)*, !dbg !25
	%302 = getelementptr float, float addrspace(3)* %301, i32 %300, !dbg !25
	store float %292, float addrspace(3)* %302, !dbg !25
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !25
	%303 = bitcast i8 addrspace(3)* getelementptr (i8, i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*), i32 12288) to float addrspace(3)*, !dbg !25
	%304 = getelementptr float, float addrspace(3)* %303, i32 0, !dbg !25
	%305 = bitcast float addrspace(3)* %304 to <4 x float> addrspace(3)*, !dbg !25
	%306 = load <4 x float>, <4 x float> addrspace(3)* %305, align 16, !dbg !25
	%307 = extractelement <4 x float> %306, i32 0, !dbg !25
	%308 = extractelement <4 x float> %306, i32 1, !dbg !25
	%309 = extractelement <4 x float> %306, i32 2, !dbg !25
	%310 = extractelement <4 x float> %306, i32 3, !dbg !25
	%311 = fadd float %307, %308, !dbg !23
	%312 = fadd float %311, %309, !dbg !23
	%313 = fadd float %312, %310, !dbg !23
	%314 = mul i32 %162, %3, !dbg !26
	%315 = sext i32 %314 to i64, !dbg !27
	%316 = getelementptr float, float addrspace(1)* %0, i64 %315, !dbg !27
	%317 = sext i32 %17 to i64, !dbg !28
	%318 = getelementptr float, float addrspace(1)* %316, i64 %317, !dbg !28
	%319 = sext i32 %18 to i64, !dbg !28
	%320 = getelementptr float, float addrspace(1)* %316, i64 %319, !dbg !28
	%321 = sext i32 %19 to i64, !dbg !28
	%322 = getelementptr float, float addrspace(1)* %316, i64 %321, !dbg !28
	%323 = sext i32 %20 to i64, !dbg !28
	%324 = getelementptr float, float addrspace(1)* %316, i64 %323, !dbg !28
	%325 = sext i32 %21 to i64, !dbg !28
	%326 = getelementptr float, float addrspace(1)* %316, i64 %325, !dbg !28
	%327 = sext i32 %22 to i64, !dbg !28
	%328 = getelementptr float, float addrspace(1)* %316, i64 %327, !dbg !28
	%329 = sext i32 %23 to i64, !dbg !28
	%330 = getelementptr float, float addrspace(1)* %316, i64 %329, !dbg !28
	%331 = sext i32 %24 to i64, !dbg !28
	%332 = getelementptr float, float addrspace(1)* %316, i64 %331, !dbg !28
	%333 = call float @llvm.nvvm.div.full(float %251, float %313), !dbg !29
	%334 = call float @llvm.nvvm.div.full(float %253, float %313), !dbg !29
	%335 = call float @llvm.nvvm.div.full(float %255, float %313), !dbg !29
	%336 = call float @llvm.nvvm.div.full(float %257, float %313), !dbg !29
	%337 = call float @llvm.nvvm.div.full(float %259, float %313), !dbg !29
	%338 = call float @llvm.nvvm.div.full(float %261, float %313), !dbg !29
	%339 = call float @llvm.nvvm.div.full(float %263, float %313), !dbg !29
	%340 = call float @llvm.nvvm.div.full(float %265, float %313), !dbg !29
	%341 = bitcast float %333 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %341, float addrspace(1)* %318, i1 %25), !dbg !30
	%342 = bitcast float %334 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %342, float addrspace(1)* %320, i1 %26), !dbg !30
	%343 = bitcast float %335 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %343, float addrspace(1)* %322, i1 %27), !dbg !30
	%344 = bitcast float %336 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %344, float addrspace(1)* %324, i1 %28), !dbg !30
	%345 = bitcast float %337 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %345, float addrspace(1)* %326, i1 %29), !dbg !30
	%346 = bitcast float %338 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %346, float addrspace(1)* %328, i1 %30), !dbg !30
	%347 = bitcast float %339 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %347, float addrspace(1)* %330, i1 %31), !dbg !30
	%348 = bitcast float %340 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %348, float addrspace(1)* %332, i1 %32), !dbg !30
	%349 = mul i32 %13, 3, !dbg !31
	%350 = add i32 %162, %349, !dbg !31
	%351 = mul i32 %350, %2, !dbg !11
	%352 = sext i32 %351 to i64, !dbg !12
	%353 = getelementptr float, float addrspace(1)* %1, i64 %352, !dbg !12
	%354 = sext i32 %17 to i64, !dbg !13
	%355 = getelementptr float, float addrspace(1)* %353, i64 %354, !dbg !13
	%356 = sext i32 %18 to i64, !dbg !13
	%357 = getelementptr float, float addrspace(1)* %353, i64 %356, !dbg !13
	%358 = sext i32 %19 to i64, !dbg !13
	%359 = getelementptr float, float addrspace(1)* %353, i64 %358, !dbg !13
	%360 = sext i32 %20 to i64, !dbg !13
	%361 = getelementptr float, float addrspace(1)* %353, i64 %360, !dbg !13
	%362 = sext i32 %21 to i64, !dbg !13
	%363 = getelementptr float, float addrspace(1)* %353, i64 %362, !dbg !13
	%364 = sext i32 %22 to i64, !dbg !13
	%365 = getelementptr float, float addrspace(1)* %353, i64 %364, !dbg !13
	%366 = sext i32 %23 to i64, !dbg !13
	%367 = getelementptr float, float addrspace(1)* %353, i64 %366, !dbg !13
	%368 = sext i32 %24 to i64, !dbg !13
	%369 = getelementptr float, float addrspace(1)* %353, i64 %368, !dbg !13
	%370 = icmp slt i32 %350, %4, !dbg !31
	%371 = ptrtoint i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to i32, !dbg !31
	%372 = mul i32 %163, u0x1000, !dbg !31
	%373 = add i32 %371, %372, !dbg !31
	%374 = add i32 %373, 0, !dbg !31
	%375 = add i32 %374, %33, !dbg !31
	%376 = add i32 %375, 0, !dbg !31
	%377 = select i1 %25, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %376, float addrspace(1)* %355, i32 %377, i1 %370), !dbg !31
	%378 = add i32 %375, 512, !dbg !31
	%379 = select i1 %26, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %378, float addrspace(1)* %357, i32 %379, i1 %370), !dbg !31
	%380 = add i32 %375, 1024, !dbg !31
	%381 = select i1 %27, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %380, float addrspace(1)* %359, i32 %381, i1 %370), !dbg !31
	%382 = add i32 %375, 1536, !dbg !31
	%383 = select i1 %28, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %382, float addrspace(1)* %361, i32 %383, i1 %370), !dbg !31
	%384 = add i32 %375, 2048, !dbg !31
	%385 = select i1 %29, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %384, float addrspace(1)* %363, i32 %385, i1 %370), !dbg !31
	%386 = add i32 %375, 2560, !dbg !31
	%387 = select i1 %30, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %386, float addrspace(1)* %365, i32 %387, i1 %370), !dbg !31
	%388 = add i32 %375, 3072, !dbg !31
	%389 = select i1 %31, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %388, float addrspace(1)* %367, i32 %389, i1 %370), !dbg !31
	%390 = add i32 %375, 3584, !dbg !31
	%391 = select i1 %32, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %390, float addrspace(1)* %369, i32 %391, i1 %370), !dbg !31
	call void asm sideeffect "cp.async.commit_group;", "~{memory}"(), !dbg !31
	%392 = add i32 %163, 1, !dbg !31
	%393 = icmp eq i32 %392, 3, !dbg !31
	%394 = select i1 %393, i32 0, i32 %392, !dbg !31
	%395 = add i32 %162, %13, !dbg !31
	br label %161, !dbg !31

396:
	call void asm sideeffect "cp.async.wait_group 0;", "~{memory}"(), !dbg !31
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !31
	ret void, !dbg !32
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

declare float @llvm.maxnum.f32(float %0, float %1)

declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 %0, i32 %1, i32 %2, i32 %3)

declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 %0)

declare float @llvm.nvvm.ex2.approx.f(float %0)

declare float @llvm.nvvm.div.full(float %0, float %1)

!llvm.dbg.cu = !{!1}
!llvm.module.flags = !{!5}

!0 = !DIFile(filename: "softmax.py", directory: "conformance/kernels")
!1 = distinct !DICompileUnit(language: DW_LANG_C, file: !0, producer: "gotriton", isOptimized: true, emissionKind: LineTablesOnly)
!2 = !{}
!3 = !DISubroutineType(cc: DW_CC_normal, types: !2)
!4 = distinct !DISubprogram(name: "row_softmax_kernel", linkageName: "row_softmax_kernel", scope: !0, file: !0, line: 15, type: !3, scopeLine: 15, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !1)
!5 = !{i32 2, !"Debug Info Version", i32 3}
!6 = !DILocation(scope: !4)
!7 = !DILocation(line: 17, column: 30, scope: !4)
!8 = !DILocation(line: 18, column: 31, scope: !4)
!9 = !DILocation(line: 19, column: 24, scope: !4)
!10 = !DILocation(line: 20, column: 20, scope: !4)
!11 = !DILocation(line: 22, column: 34, scope: !4)
!12 = !DILocation(line: 22, column: 28, scope: !4)
!13 = !DILocation(line: 24, column: 33, scope: !4)
!14 = !DILocation(line: 24, column: 23, scope: !4)
!15 = !DIFile(filename: "standard.py", directory: "/opt/torch/.venv/lib/python3.12/site-packages/triton/language")
!16 = !DILexicalBlockFile(scope: !4, file: !15, discriminator: 0)
!17 = !DILocation(line: 170, column: 27, scope: !16)
!18 = !DILexicalBlockFile(scope: !4, file: !15, discriminator: 0)
!19 = !DILocation(line: 191, column: 40, scope: !18)
!20 = !DILocation(line: 25, column: 25, scope: !4)
!21 = !DILocation(line: 26, column: 21, scope: !4)
!22 = !DILexicalBlockFile(scope: !4, file: !15, discriminator: 0)
!23 = !DILocation(line: 263, column: 15, scope: !22)
!24 = !DILexicalBlockFile(scope: !4, file: !15, discriminator: 0)
!25 = !DILocation(line: 293, column: 36, scope: !24)
!26 = !DILocation(line: 28, column: 34, scope: !4)
!27 = !DILocation(line: 28, column: 28, scope: !4)
!28 = !DILocation(line: 30, column: 27, scope: !4)
!29 = !DILocation(line: 30, column: 39, scope: !4)
!30 = !DILocation(line: 30, column: 33, scope: !4)
!31 = !DILocation(line: 21, column: 55, scope: !4)
!32 = !DILocation(line: 21, column: 4, scope: !4)
