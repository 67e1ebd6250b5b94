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
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !31
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
	%162 = phi i32 [ %12, %8 ], [ %579, %165 ], !dbg !31
	%163 = phi i32 [ 0, %8 ], [ %578, %165 ], !dbg !31
	%164 = icmp slt i32 %162, %4, !dbg !31
	br i1 %164, label %165, label %580, !dbg !31

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
	%231 = add i32 0, 0, !dbg !19
	%232 = bitcast i8 addrspace(3)* getelementptr (i8, i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*), i32 12288) to float addrspace(3)*, !dbg !19
	%233 = getelementptr float, float addrspace(3)* %232, i32 %231, !dbg !19
	%234 = load float, float addrspace(3)* %233, !dbg !19
	%235 = add i32 0, 1, !dbg !19
	%236 = bitcast i8 addrspace(3)* getelementptr (i8, i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*), i32 12288) to float addrspace(3)*, !dbg !19
	%237 = getelementptr float, float addrspace(3)* %236, i32 %235, !dbg !19
	%238 = load float, float addrspace(3)* %237, !dbg !19
	%239 = call float @llvm.maxnum.f32(float %234, float %238), !dbg !17
	%240 = add i32 0, 2, !dbg !19
	%241 = bitcast i8 addrspace(3)* getelementptr (i8, i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*), i32 12288) to float addrspace(3)*, !dbg !19
	%242 = getelementptr float, float addrspace(3)* %241, i32 %240, !dbg !19
	%243 = load float, float addrspace(3)* %242, !dbg !19
	%244 = call float @llvm.maxnum.f32(float %239, float %243), !dbg !17
	%245 = add i32 0, 3, !dbg !19
	%246 = bitcast i8 addrspace(3)* getelementptr (i8, i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*), i32 12288) to float addrspace(3)*, !dbg !19
	%247 = getelementptr float, float addrspace(3)* %246, i32 %245, !dbg !19
	%248 = load float, float addrspace(3)* %247, !dbg !19
	%249 = call float @llvm.maxnum.f32(float %244, float %248), !dbg !17
	%250 = fsub float %172, %249, !dbg !20
	%251 = fsub float %175, %249, !dbg !20
	%252 = fsub float %178, %249, !dbg !20
	%253 = fsub float %181, %249, !dbg !20
	%254 = fsub float %184, %249, !dbg !20
	%255 = fsub float %187, %249, !dbg !20
	%256 = fsub float %190, %249, !dbg !20
	%257 = fsub float %193, %249, !dbg !20
	%258 = fmul float %250, 0x3FF7154760000000, !dbg !21
	%259 = call float @llvm.rint.f32(float %258), !dbg !21
	%260 = fsub float 0.0, %259, !dbg !21
	%261 = call float @llvm.fma.f32(float %250, float 0x3FF7154760000000, float %260), !dbg !21
	%262 = call float @llvm.fma.f32(float %250, float 0x3E54AE0C00000000, float %261), !dbg !21
	%263 = call float @llvm.nvvm.ex2.approx.f(float %262), !dbg !21
	%264 = fptosi float %259 to i32, !dbg !21
	%265 = ashr i32 %264, 1, !dbg !21
	%266 = sub i32 %264, %265, !dbg !21
	%267 = add i32 %265, 127, !dbg !21
	%268 = shl i32 %267, 23, !dbg !21
	%269 = bitcast i32 %268 to float, !dbg !21
	%270 = fmul float %263, %269, !dbg !21
	%271 = add i32 %266, 127, !dbg !21
	%272 = shl i32 %271, 23, !dbg !21
	%273 = bitcast i32 %272 to float, !dbg !21
	%274 = fmul float %270, %273, !dbg !21
	%275 = fcmp olt float %250, -104.0, !dbg !21
	%276 = select i1 %275, float 0.0, float %274, !dbg !21
	%277 = fcmp olt float 0x40562EB860000000, %250, !dbg !21
	%278 = select i1 %277, float 0x7FF0000000000000, float %276, !dbg !21
	%279 = fcmp uno float %250, %250, !dbg !21
	%280 = select i1 %279, float %250, float %278, !dbg !21
	%281 = fmul float %251, 0x3FF7154760000000, !dbg !21
	%282 = call float @llvm.rint.f32(float %281), !dbg !21
	%283 = fsub float 0.0, %282, !dbg !21
	%284 = call float @llvm.fma.f32(float %251, float 0x3FF7154760000000, float %283), !dbg !21
	%285 = call float @llvm.fma.f32(float %251, float 0x3E54AE0C00000000, float %284), !dbg !21
	%286 = call float @llvm.nvvm.ex2.approx.f(float %285), !dbg !21
	%287 = fptosi float %282 to i32, !dbg !21
	%288 = ashr i32 %287, 1, !dbg !21
	%289 = sub i32 %287, %288, !dbg !21
	%290 = add i32 %288, 127, !dbg !21
	%291 = shl i32 %290, 23, !dbg !21
	%292 = bitcast i32 %291 to float, !dbg !21
	%293 = fmul float %286, %292, !dbg !21
	%294 = add i32 %289, 127, !dbg !21
	%295 = shl i32 %294, 23, !dbg !21
	%296 = bitcast i32 %295 to float, !dbg !21
	%297 = fmul float %293, %296, !dbg !21
	%298 = fcmp olt float %251, -104.0, !dbg !21
	%299 = select i1 %298, float 0.0, float %297, !dbg !21
	%300 = fcmp olt float 0x40562EB860000000, %251, !dbg !21
	%301 = select i1 %300, float 0x7FF0000000000000, float %299, !dbg !21
	%302 = fcmp uno float %251, %251, !dbg !21
	%303 = select i1 %302, float %251, float %301, !dbg !21
	%304 = fmul float %252, 0x3FF7154760000000, !dbg !21
	%305 = call float @llvm.rint.f32(float %304), !dbg !21
	%306 = fsub float 0.0, %305, !dbg !21
	%307 = call float @llvm.fma.f32(float %252, float 0x3FF7154760000000, float %306), !dbg !21
	%308 = call float @llvm.fma.f32(float %252, float 0x3E54AE0C00000000, float %307), !dbg !21
	%309 = call float @llvm.nvvm.ex2.approx.f(float %308), !dbg !21
	%310 = fptosi float %305 to i32, !dbg !21
	%311 = ashr i32 %310, 1, !dbg !21
	%312 = sub i32 %310, %311, !dbg !21
	%313 = add i32 %311, 127, !dbg !21
	%314 = shl i32 %313, 23, !dbg !21
	%315 = bitcast i32 %314 to float, !dbg !21
	%316 = fmul float %309, %315, !dbg !21
	%317 = add i32 %312, 127, !dbg !21
	%318 = shl i32 %317, 23, !dbg !21
	%319 = bitcast i32 %318 to float, !dbg !21
	%320 = fmul float %316, %319, !dbg !21
	%321 = fcmp olt float %252, -104.0, !dbg !21
	%322 = select i1 %321, float 0.0, float %320, !dbg !21
	%323 = fcmp olt float 0x40562EB860000000, %252, !dbg !21
	%324 = select i1 %323, float 0x7FF0000000000000, float %322, !dbg !21
	%325 = fcmp uno float %252, %252, !dbg !21
	%326 = select i1 %325, float %252, float %324, !dbg !21
	%327 = fmul float %253, 0x3FF7154760000000, !dbg !21
	%328 = call float @llvm.rint.f32(float %327), !dbg !21
	%329 = fsub float 0.0, %328, !dbg !21
	%330 = call float @llvm.fma.f32(float %253, float 0x3FF7154760000000, float %329), !dbg !21
	%331 = call float @llvm.fma.f32(float %253, float 0x3E54AE0C00000000, float %330), !dbg !21
	%332 = call float @llvm.nvvm.ex2.approx.f(float %331), !dbg !21
	%333 = fptosi float %328 to i32, !dbg !21
	%334 = ashr i32 %333, 1, !dbg !21
	%335 = sub i32 %333, %334, !dbg !21
	%336 = add i32 %334, 127, !dbg !21
	%337 = shl i32 %336, 23, !dbg !21
	%338 = bitcast i32 %337 to float, !dbg !21
	%339 = fmul float %332, %338, !dbg !21
	%340 = add i32 %335, 127, !dbg !21
	%341 = shl i32 %340, 23, !dbg !21
	%342 = bitcast i32 %341 to float, !dbg !21
	%343 = fmul float %339, %342, !dbg !21
	%344 = fcmp olt float %253, -104.0, !dbg !21
	%345 = select i1 %344, float 0.0, float %343, !dbg !21
	%346 = fcmp olt float 0x40562EB860000000, %253, !dbg !21
	%347 = select i1 %346, float 0x7FF0000000000000, float %345, !dbg !21
	%348 = fcmp uno float %253, %253, !dbg !21
	%349 = select i1 %348, float %253, float %347, !dbg !21
	%350 = fmul float %254, 0x3FF7154760000000, !dbg !21
	%351 = call float @llvm.rint.f32(float %350), !dbg !21
	%352 = fsub float 0.0, %351, !dbg !21
	%353 = call float @llvm.fma.f32(float %254, float 0x3FF7154760000000, float %352), !dbg !21
	%354 = call float @llvm.fma.f32(float %254, float 0x3E54AE0C00000000, float %353), !dbg !21
	%355 = call float @llvm.nvvm.ex2.approx.f(float %354), !dbg !21
	%356 = fptosi float %351 to i32, !dbg !21
	%357 = ashr i32 %356, 1, !dbg !21
	%358 = sub i32 %356, %357, !dbg !21
	%359 = add i32 %357, 127, !dbg !21
	%360 = shl i32 %359, 23, !dbg !21
	%361 = bitcast i32 %360 to float, !dbg !21
	%362 = fmul float %355, %361, !dbg !21
	%363 = add i32 %358, 127, !dbg !21
	%364 = shl i32 %363, 23, !dbg !21
	%365 = bitcast i32 %364 to float, !dbg !21
	%366 = fmul float %362, %365, !dbg !21
	%367 = fcmp olt float %254, -104.0, !dbg !21
	%368 = select i1 %367, float 0.0, float %366, !dbg !21
	%369 = fcmp olt float 0x40562EB860000000, %254, !dbg !21
	%370 = select i1 %369, float 0x7FF0000000000000, float %368, !dbg !21
	%371 = fcmp uno float %254, %254, !dbg !21
	%372 = select i1 %371, float %254, float %370, !dbg !21
	%373 = fmul float %255, 0x3FF7154760000000, !dbg !21
	%374 = call float @llvm.rint.f32(float %373), !dbg !21
	%375 = fsub float 0.0, %374, !dbg !21
	%376 = call float @llvm.fma.f32(float %255, float 0x3FF7154760000000, float %375), !dbg !21
	%377 = call float @llvm.fma.f32(float %255, float 0x3E54AE0C00000000, float %376), !dbg !21
	%378 = call float @llvm.nvvm.ex2.approx.f(float %377), !dbg !21
	%379 = fptosi float %374 to i32, !dbg !21
	%380 = ashr i32 %379, 1, !dbg !21
	%381 = sub i32 %379, %380, !dbg !21
	%382 = add i32 %380, 127, !dbg !21
	%383 = shl i32 %382, 23, !dbg !21
	%384 = bitcast i32 %383 to float, !dbg !21
	%385 = fmul float %378, %384, !dbg !21
	%386 = add i32 %381, 127, !dbg !21
	%387 = shl i32 %386, 23, !dbg !21
	%388 = bitcast i32 %387 to float, !dbg !21
	%389 = fmul float %385, %388, !dbg !21
	%390 = fcmp olt float %255, -104.0, !dbg !21
	%391 = select i1 %390, float 0.0, float %389, !dbg !21
	%392 = fcmp olt float 0x40562EB860000000, %255, !dbg !21
	%393 = select i1 %392, float 0x7FF0000000000000, float %391, !dbg !21
	%394 = fcmp uno float %255, %255, !dbg !21
	%395 = select i1 %394, float %255, float %393, !dbg !21
	%396 = fmul float %256, 0x3FF7154760000000, !dbg !21
	%397 = call float @llvm.rint.f32(float %396), !dbg !21
	%398 = fsub float 0.0, %397, !dbg !21
	%399 = call float @llvm.fma.f32(float %256, float 0x3FF7154760000000, float %398), !dbg !21
	%400 = call float @llvm.fma.f32(float %256, float 0x3E54AE0C00000000, float %399), !dbg !21
	%401 = call float @llvm.nvvm.ex2.approx.f(float %400), !dbg !21
	%402 = fptosi float %397 to i32, !dbg !21
	%403 = ashr i32 %402, 1, !dbg !21
	%404 = sub i32 %402, %403, !dbg !21
	%405 = add i32 %403, 127, !dbg !21
	%406 = shl i32 %405, 23, !dbg !21
	%407 = bitcast i32 %406 to float, !dbg !21
	%408 = fmul float %401, %407, !dbg !21
	%409 = add i32 %404, 127, !dbg !21
	%410 = shl i32 %409, 23, !dbg !21
	%411 = bitcast i32 %410 to float, !dbg !21
	%412 = fmul float %408, %411, !dbg !21
	%413 = fcmp olt float %256, -104.0, !dbg !21
	%414 = select i1 %413, float 0.0, float %412, !dbg !21
	%415 = fcmp olt float 0x40562EB860000000, %256, !dbg !21
	%416 = select i1 %415, float 0x7FF0000000000000, float %414, !dbg !21
	%417 = fcmp uno float %256, %256, !dbg !21
	%418 = select i1 %417, float %256, float %416, !dbg !21
	%419 = fmul float %257, 0x3FF7154760000000, !dbg !21
	%420 = call float @llvm.rint.f32(float %419), !dbg !21
	%421 = fsub float 0.0, %420, !dbg !21
	%422 = call float @llvm.fma.f32(float %257, float 0x3FF7154760000000, float %421), !dbg !21
	%423 = call float @llvm.fma.f32(float %257, float 0x3E54AE0C00000000, float %422), !dbg !21
	%424 = call float @llvm.nvvm.ex2.approx.f(float %423), !dbg !21
	%425 = fptosi float %420 to i32, !dbg !21
	%426 = ashr i32 %425, 1, !dbg !21
	%427 = sub i32 %425, %426, !dbg !21
	%428 = add i32 %426, 127, !dbg !21
	%429 = shl i32 %428, 23, !dbg !21
	%430 = bitcast i32 %429 to float, !dbg !21
	%431 = fmul float %424, %430, !dbg !21
	%432 = add i32 %427, 127, !dbg !21
	%433 = shl i32 %432, 23, !dbg !21
	%434 = bitcast i32 %433 to float, !dbg !21
	%435 = fmul float %431, %434, !dbg !21
	%436 = fcmp olt float %257, -104.0, !dbg !21
	%437 = select i1 %436, float 0.0, float %435, !dbg !21
	%438 = fcmp olt float 0x40562EB860000000, %257, !dbg !21
	%439 = select i1 %438, float 0x7FF0000000000000, float %437, !dbg !21
	%440 = fcmp uno float %257, %257, !dbg !21
	%441 = select i1 %440, float %257, float %439, !dbg !21
	%442 = fadd float %280, %303, !dbg !23
	%443 = fadd float %442, %326, !dbg !23
	%444 = fadd float %443, %349, !dbg !23
	%445 = fadd float %444, %372, !dbg !23
	%446 = fadd float %445, %395, !dbg !23
	%447 = fadd float %446, %418, !dbg !23
	%448 = fadd float %447, %441, !dbg !23
	%449 = bitcast float %448 to i32, !dbg !25
	%450 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %449, i32 1, i32 31), !dbg !25
	%451 = bitcast i32 %450 to float, !dbg !25
	%452 = fadd float %448, %451, !dbg !23
	%453 = bitcast float %452 to i32, !dbg !25
	%454 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %453, i32 2, i32 31), !dbg !25
	%455 = bitcast i32 %454 to float, !dbg !25
	%456 = fadd float %452, %455, !dbg !23
	%457 = bitcast float %456 to i32, !dbg !25
	%458 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %457, i32 4, i32 31), !dbg !25
	%459 = bitcast i32 %458 to float, !dbg !25
	%460 = fadd float %456, %459, !dbg !23
	%461 = bitcast float %460 to i32, !dbg !25
	%462 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %461, i32 8, i32 31), !dbg !25
	%463 = bitcast i32 %462 to float, !dbg !25
	%464 = fadd float %460, %463, !dbg !23
	%465 = bitcast float %464 to i32, !dbg !25
	%466 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %465, i32 16, i32 31), !dbg !25
	%467 = bitcast i32 %466 to float, !dbg !25
	%468 = fadd float %464, %467, !dbg !23
	%469 = lshr i32 %11, 0, !dbg !25
	%470 = and i32 %469, 1, !dbg !25
	%471 = lshr i32 %11, 1, !dbg !25
	%472 = and i32 %471, 1, !dbg !25
	%473 = shl i32 %472, 1, !dbg !25
	%474 = or i32 %470, %473, !dbg !25
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !25
	%475 = mul i32 %474, 1, !dbg !25
	%476 = add i32 %475, 0, !dbg !25
	%477 = bitcast i8 addrspace(3)* getelementptr (i8, i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*), i32 12288) to float addrspace(3)*, !dbg !25
	%478 = getelementptr float, float addrspace(3)* %477, i32 %476, !dbg !25
	store float %468, float addrspace(3)* %478, !dbg !25
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !25
	%479 = add i32 0, 0, !dbg !25
	%480 = bitcast i8 addrspace(3)* getelementptr (i8, i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*), i32 12288) to float addrspace(3)*, !dbg !25
	%481 = getelementptr float, float addrspace(3)* %480, i32 %479, !dbg !25
	%482 = load float, float addrspace(3)* %481, !dbg !25
	%483 = add i32 0, 1, !dbg !25
	%484 = bitcast i8 addrspace(3)* getelementptr (i8, i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*), i32 12288) to float addrspace(3)*, !dbg !25
	%485 = getelementptr float, float addrspace(3)* %484, i32 %483, !dbg !25
	%486 = load float, float addrspace(3)* %485, !dbg !25
	%487 = fadd float %482, %486, !dbg !23
	%488 = add i32 0, 2, !dbg !25
	%489 = bitcast i8 addrspace(3)* getelementptr (i8, i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*), i32 12288) to float addrspace(3)*, !dbg !25
	%490 = getelementptr float, float addrspace(3)* %489, i32 %488, !dbg !25
	%491 = load float, float addrspace(3)* %490, !dbg !25
	%492 = fadd float %487, %491, !dbg !23
	%493 = add i32 0, 3, !dbg !25
	%494 = bitcast i8 addrspace(3)* getelementptr (i8, i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*), i32 12288) to float addrspace(3)*, !dbg !25
	%495 = getelementptr float, float addrspace(3)* %494, i32 %493, !dbg !25
	%496 = load float, float addrspace(3)* %495, !dbg !25
	%497 = fadd float %492, %496, !dbg !23
	%498 = mul i32 %162, %3, !dbg !26
	%499 = sext i32 %498 to i64, !dbg !27
	%500 = getelementptr float, float addrspace(1)* %0, i64 %499, !dbg !27
	%501 = sext i32 %17 to i64, !dbg !28
	%502 = getelementptr float, float addrspace(1)* %500, i64 %501, !dbg !28
	%503 = sext i32 %18 to i64, !dbg !28
	%504 = getelementptr float, float addrspace(1)* %500, i64 %503, !dbg !28
	%505 = sext i32 %19 to i64, !dbg !28
	%506 = getelementptr float, float addrspace(1)* %500, i64 %505, !dbg !28
	%507 = sext i32 %20 to i64, !dbg !28
	%508 = getelementptr float, float addrspace(1)* %500, i64 %507, !dbg !28
	%509 = sext i32 %21 to i64, !dbg !28
	%510 = getelementptr float, float addrspace(1)* %500, i64 %509, !dbg !28
	%511 = sext i32 %22 to i64, !dbg !28
	%512 = getelementptr float, float addrspace(1)* %500, i64 %511, !dbg !28
	%513 = sext i32 %23 to i64, !dbg !28
	%514 = getelementptr float, float addrspace(1)* %500, i64 %513, !dbg !28
	%515 = sext i32 %24 to i64, !dbg !28
	%516 = getelementptr float, float addrspace(1)* %500, i64 %515, !dbg !28
	%517 = call float @llvm.nvvm.div.full(float %280, float %497), !dbg !29
	%518 = call float @llvm.nvvm.div.full(float %303, float %497), !dbg !29
	%519 = call float @llvm.nvvm.div.full(float %326, float %497), !dbg !29
	%520 = call float @llvm.nvvm.div.full(float %349, float %497), !dbg !29
	%521 = call float @llvm.nvvm.div.full(float %372, float %497), !dbg !29
	%522 = call float @llvm.nvvm.div.full(float %395, float %497), !dbg !29
	%523 = call float @llvm.nvvm.div.full(float %418, float %497), !dbg !29
	%524 = call float @llvm.nvvm.div.full(float %441, float %497), !dbg !29
	%525 = bitcast float %517 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %525, float addrspace(1)* %502, i1 %25), !dbg !30
	%526 = bitcast float %518 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %526, float addrspace(1)* %504, i1 %26), !dbg !30
	%527 = bitcast float %519 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %527, float addrspace(1)* %506, i1 %27), !dbg !30
	%528 = bitcast float %520 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %528, float addrspace(1)* %508, i1 %28), !dbg !30
	%529 = bitcast float %521 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %529, float addrspace(1)* %510, i1 %29), !dbg !30
	%530 = bitcast float %522 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %530, float addrspace(1)* %512, i1 %30), !dbg !30
	%531 = bitcast float %523 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %531, float addrspace(1)* %514, i1 %31), !dbg !30
	%532 = bitcast float %524 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %532, float addrspace(1)* %516, i1 %32), !dbg !30
	%533 = mul i32 %13, 3, !dbg !31
	%534 = add i32 %162, %533, !dbg !31
	%535 = mul i32 %534, %2, !dbg !11
	%536 = sext i32 %535 to i64, !dbg !12
	%537 = getelementptr float, float addrspace(1)* %1, i64 %536, !dbg !12
	%538 = sext i32 %17 to i64, !dbg !13
	%539 = getelementptr float, float addrspace(1)* %537, i64 %538, !dbg !13
	%540 = sext i32 %18 to i64, !dbg !13
	%541 = getelementptr float, float addrspace(1)* %537, i64 %540, !dbg !13
	%542 = sext i32 %19 to i64, !dbg !13
	%543 = getelementptr float, float addrspace(1)* %537, i64 %542, !dbg !13
	%544 = sext i32 %20 to i64, !dbg !13
	%545 = getelementptr float, float addrspace(1)* %537, i64 %544, !dbg !13
	%546 = sext i32 %21 to i64, !dbg !13
	%547 = getelementptr float, float addrspace(1)* %537, i64 %546, !dbg !13
	%548 = sext i32 %22 to i64, !dbg !13
	%549 = getelementptr float, float addrspace(1)* %537, i64 %548, !dbg !13
	%550 = sext i32 %23 to i64, !dbg !13
	%551 = getelementptr float, float addrspace(1)* %537, i64 %550, !dbg !13
	%552 = sext i32 %24 to i64, !dbg !13
	%553 = getelementptr float, float addrspace(1)* %537, i64 %552, !dbg !13
	%554 = icmp slt i32 %534, %4, !dbg !31
	%555 = ptrtoint i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to i32, !dbg !31
	%556 = mul i32 %163, u0x1000, !dbg !31
	%557 = add i32 %555, %556, !dbg !31
	%558 = add i32 %557, 0, !dbg !31
	%559 = add i32 %558, %33, !dbg !31
	%560 = add i32 %559, 0, !dbg !31
	%561 = select i1 %25, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %560, float addrspace(1)* %539, i32 %561, i1 %554), !dbg !31
	%562 = add i32 %559, 512, !dbg !31
	%563 = select i1 %26, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %562, float addrspace(1)* %541, i32 %563, i1 %554), !dbg !31
	%564 = add i32 %559, 1024, !dbg !31
	%565 = select i1 %27, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %564, float addrspace(1)* %543, i32 %565, i1 %554), !dbg !31
	%566 = add i32 %559, 1536, !dbg !31
	%567 = select i1 %28, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %566, float addrspace(1)* %545, i32 %567, i1 %554), !dbg !31
	%568 = add i32 %559, 2048, !dbg !31
	%569 = select i1 %29, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %568, float addrspace(1)* %547, i32 %569, i1 %554), !dbg !31
	%570 = add i32 %559, 2560, !dbg !31
	%571 = select i1 %30, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %570, float addrspace(1)* %549, i32 %571, i1 %554), !dbg !31
	%572 = add i32 %559, 3072, !dbg !31
	%573 = select i1 %31, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %572, float addrspace(1)* %551, i32 %573, i1 %554), !dbg !31
	%574 = add i32 %559, 3584, !dbg !31
	%575 = select i1 %32, i32 4, i32 0, !dbg !31
	call void asm sideeffect "@$3 cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r,b"(i32 %574, float addrspace(1)* %553, i32 %575, i1 %554), !dbg !31
	call void asm sideeffect "cp.async.commit_group;", "~{memory}"(), !dbg !31
	%576 = add i32 %163, 1, !dbg !31
	%577 = icmp eq i32 %576, 3, !dbg !31
	%578 = select i1 %577, i32 0, i32 %576, !dbg !31
	%579 = add i32 %162, %13, !dbg !31
	br label %161, !dbg !31

580:
	call void asm sideeffect "cp.async.wait_group 0;", "~{memory}"(), !dbg !31
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !31
	ret void, !dbg !32
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 %0)

declare float @llvm.maxnum.f32(float %0, float %1)

declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 %0, i32 %1, i32 %2, i32 %3)

declare float @llvm.rint.f32(float %0)

declare float @llvm.fma.f32(float %0, float %1, float %2)

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
