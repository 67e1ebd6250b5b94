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
	br label %33, !dbg !31

33:
	%34 = phi i32 [ %12, %8 ], [ %435, %36 ], !dbg !31
	%35 = icmp slt i32 %34, %4, !dbg !31
	br i1 %35, label %36, label %436, !dbg !31

36:
	%37 = mul i32 %34, %2, !dbg !11
	%38 = sext i32 %37 to i64, !dbg !12
	%39 = getelementptr float, float addrspace(1)* %1, i64 %38, !dbg !12
	%40 = sext i32 %17 to i64, !dbg !13
	%41 = getelementptr float, float addrspace(1)* %39, i64 %40, !dbg !13
	%42 = sext i32 %18 to i64, !dbg !13
	%43 = getelementptr float, float addrspace(1)* %39, i64 %42, !dbg !13
	%44 = sext i32 %19 to i64, !dbg !13
	%45 = getelementptr float, float addrspace(1)* %39, i64 %44, !dbg !13
	%46 = sext i32 %20 to i64, !dbg !13
	%47 = getelementptr float, float addrspace(1)* %39, i64 %46, !dbg !13
	%48 = sext i32 %21 to i64, !dbg !13
	%49 = getelementptr float, float addrspace(1)* %39, i64 %48, !dbg !13
	%50 = sext i32 %22 to i64, !dbg !13
	%51 = getelementptr float, float addrspace(1)* %39, i64 %50, !dbg !13
	%52 = sext i32 %23 to i64, !dbg !13
	%53 = getelementptr float, float addrspace(1)* %39, i64 %52, !dbg !13
	%54 = sext i32 %24 to i64, !dbg !13
	%55 = getelementptr float, float addrspace(1)* %39, i64 %54, !dbg !13
	%56 = bitcast float 0xFFF0000000000000 to i32, !dbg !14
	%57 = call i32 asm sideeffect "mov.u32 $0, $1;\0A\09@$3 ld.global.b32 { $0 }, [ $2 + 0 ];", "=r,r,l,b"(i32 %56, float addrspace(1)* %41, i1 %25), !dbg !14
	%58 = bitcast i32 %57 to float, !dbg !14
	%59 = bitcast float 0xFFF0000000000000 to i32, !dbg !14
	%60 = call i32 asm sideeffect "mov.u32 $0, $1;\0A\09@$3 ld.global.b32 { $0 }, [ $2 + 0 ];", "=r,r,l,b"(i32 %59, float addrspace(1)* %43, i1 %26), !dbg !14
	%61 = bitcast i32 %60 to float, !dbg !14
	%62 = bitcast float 0xFFF0000000000000 to i32, !dbg !14
	%63 = call i32 asm sideeffect "mov.u32 $0, $1;\0A\09@$3 ld.global.b32 { $0 }, [ $2 + 0 ];", "=r,r,l,b"(i32 %62, float addrspace(1)* %45, i1 %27), !dbg !14
	%64 = bitcast i32 %63 to float, !dbg !14
	%65 = bitcast float 0xFFF0000000000000 to i32, !dbg !14
	%66 = call i32 asm sideeffect "mov.u32 $0, $1;\0A\09@$3 ld.global.b32 { $0 }, [ $2 + 0 ];", "=r,r,l,b"(i32 %65, float addrspace(1)* %47, i1 %28), !dbg !14
	%67 = bitcast i32 %66 to float, !dbg !14
	%68 = bitcast float 0xFFF0000000000000 to i32, !dbg !14
	%69 = call i32 asm sideeffect "mov.u32 $0, $1;\0A\09@$3 ld.global.b32 { $0 }, [ $2 + 0 ];", "=r,r,l,b"(i32 %68, float addrspace(1)* %49, i1 %29), !dbg !14
	%70 = bitcast i32 %69 to float, !dbg !14
	%71 = bitcast float 0xFFF0000000000000 to i32, !dbg !14
	%72 = call i32 asm sideeffect "mov.u32 $0, $1;\0A\09@$3 ld.global.b32 { $0 }, [ $2 + 0 ];", "=r,r,l,b"(i32 %71, float addrspace(1)* %51, i1 %30), !dbg !14
	%73 = bitcast i32 %72 to float, !dbg !14
	%74 = bitcast float 0xFFF0000000000000 to i32, !dbg !14
	%75 = call i32 asm sideeffect "mov.u32 $0, $1;\0A\09@$3 ld.global.b32 { $0 }, [ $2 + 0 ];", "=r,r,l,b"(i32 %74, float addrspace(1)* %53, i1 %31), !dbg !14
	%76 = bitcast i32 %75 to float, !dbg !14
	%77 = bitcast float 0xFFF0000000000000 to i32, !dbg !14
	%78 = call i32 asm sideeffect "mov.u32 $0, $1;\0A\09@$3 ld.global.b32 { $0 }, [ $2 + 0 ];", "=r,r,l,b"(i32 %77, float addrspace(1)* %55, i1 %32), !dbg !14
	%79 = bitcast i32 %78 to float, !dbg !14
	%80 = call float @llvm.maxnum.f32(float %58, float %61), !dbg !17
	%81 = call float @llvm.maxnum.f32(float %80, float %64), !dbg !17
	%82 = call float @llvm.maxnum.f32(float %81, float %67), !dbg !17
	%83 = call float @llvm.maxnum.f32(float %82, float %70), !dbg !17
	%84 = call float @llvm.maxnum.f32(float %83, float %73), !dbg !17
	%85 = call float @llvm.maxnum.f32(float %84, float %76), !dbg !17
	%86 = call float @llvm.maxnum.f32(float %85, float %79), !dbg !17
	%87 = bitcast float %86 to i32, !dbg !19
	%88 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %87, i32 1, i32 31), !dbg !19
	%89 = bitcast i32 %88 to float, !dbg !19
	%90 = call float @llvm.maxnum.f32(float %86, float %89), !dbg !17
	%91 = bitcast float %90 to i32, !dbg !19
	%92 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %91, i32 2, i32 31), !dbg !19
	%93 = bitcast i32 %92 to float, !dbg !19
	%94 = call float @llvm.maxnum.f32(float %90, float %93), !dbg !17
	%95 = bitcast float %94 to i32, !dbg !19
	%96 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %95, i32 4, i32 31), !dbg !19
	%97 = bitcast i32 %96 to float, !dbg !19
	%98 = call float @llvm.maxnum.f32(float %94, float %97), !dbg !17
	%99 = bitcast float %98 to i32, !dbg !19
	%100 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %99, i32 8, i32 31), !dbg !19
	%101 = bitcast i32 %100 to float, !dbg !19
	%102 = call float @llvm.maxnum.f32(float %98, float %101), !dbg !17
	%103 = bitcast float %102 to i32, !dbg !19
	%104 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %103, i32 16, i32 31), !dbg !19
	%105 = bitcast i32 %104 to float, !dbg !19
	%106 = call float @llvm.maxnum.f32(float %102, float %105), !dbg !17
	%107 = lshr i32 %11, 0, !dbg !19
	%108 = and i32 %107, 1, !dbg !19
	%109 = lshr i32 %11, 1, !dbg !19
	%110 = and i32 %109, 1, !dbg !19
	%111 = shl i32 %110, 1, !dbg !19
	%112 = or i32 %108, %111, !dbg !19
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !19
	%113 = mul i32 %112, 1, !dbg !19
	%114 = add i32 %113, 0, !dbg !19
	%115 = bitcast i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to float addrspace(3)*, !dbg !19
	%116 = getelementptr float, float addrspace(3)* %115, i32 %114, !dbg !19
	store float %106, float addrspace(3)* %116, !dbg !19
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !19
	%117 = add i32 0, 0, !dbg !19
	%118 = bitcast i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to float addrspace(3)*, !dbg !19
	%119 = getelementptr float, float addrspace(3)* %118, i32 %117, !dbg !19
	%120 = load float, float addrspace(3)* %119, !dbg !19
	%121 = add i32 0, 1, !dbg !19
	%122 = bitcast i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to float addrspace(3)*, !dbg !19
	%123 = getelementptr float, float addrspace(3)* %122, i32 %121, !dbg !19
	%124 = load float, float addrspace(3)* %123, !dbg !19
	%125 = call float @llvm.maxnum.f32(float %120, float %124), !dbg !17
	%126 = add i32 0, 2, !dbg !19
	%127 = bitcast i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to float addrspace(3)*, !dbg !19
	%128 = getelementptr float, float addrspace(3)* %127, i32 %126, !dbg !19
	%129 = load float, float addrspace(3)* %128, !dbg !19
	%130 = call float @llvm.maxnum.f32(float %125, float %129), !dbg !17
	%131 = add i32 0, 3, !dbg !19
	%132 = bitcast i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to float addrspace(3)*, !dbg !19
	%133 = getelementptr float, float addrspace(3)* %132, i32 %131, !dbg !19
	%134 = load float, float addrspace(3)* %133, !dbg !19
	%135 = call float @llvm.maxnum.f32(float %130, float %134), !dbg !17
	%136 = fsub float %58, %135, !dbg !20
	%137 = fsub float %61, %135, !dbg !20
	%138 = fsub float %64, %135, !dbg !20
	%139 = fsub float %67, %135, !dbg !20
	%140 = fsub float %70, %135, !dbg !20
	%141 = fsub float %73, %135, !dbg !20
	%142 = fsub float %76, %135, !dbg !20
	%143 = fsub float %79, %135, !dbg !20
	%144 = fmul float %136, 0x3FF7154760000000, !dbg !21
	%145 = fsub float 0.0, %144, !dbg !21
	%146 = call float @llvm.fma.f32(float %136, float 0x3FF7154760000000, float %145), !dbg !21
	%147 = call float @llvm.fma.f32(float %136, float 0x3E54AE0C00000000, float %146), !dbg !21
	%148 = call float @llvm.rint.f32(float %144), !dbg !21
	%149 = fsub float %144, %148, !dbg !21
	%150 = fadd float %149, %147, !dbg !21
	%151 = call float @llvm.nvvm.ex2.approx.f(float %150), !dbg !21
	%152 = fptosi float %148 to i32, !dbg !21
	%153 = ashr i32 %152, 1, !dbg !21
	%154 = sub i32 %152, %153, !dbg !21
	%155 = add i32 %153, 127, !dbg !21
	%156 = shl i32 %155, 23, !dbg !21
	%157 = bitcast i32 %156 to float, !dbg !21
	%158 = fmul float %151, %157, !dbg !21
	%159 = add i32 %154, 127, !dbg !21
	%160 = shl i32 %159, 23, !dbg !21
	%161 = bitcast i32 %160 to float, !dbg !21
	%162 = fmul float %158, %161, !dbg !21
	%163 = fcmp olt float %136, -104.0, !dbg !21
	%164 = select i1 %163, float 0.0, float %162, !dbg !21
	%165 = fcmp olt float 0x40562EB860000000, %136, !dbg !21
	%166 = select i1 %165, float 0x7FF0000000000000, float %164, !dbg !21
	%167 = fcmp uno float %136, %136, !dbg !21
	%168 = select i1 %167, float %136, float %166, !dbg !21
	%169 = fmul float %137, 0x3FF7154760000000, !dbg !21
	%170 = fsub float 0.0, %169, !dbg !21
	%171 = call float @llvm.fma.f32(float %137, float 0x3FF7154760000000, float %170), !dbg !21
	%172 = call float @llvm.fma.f32(float %137, float 0x3E54AE0C00000000, float %171), !dbg !21
	%173 = call float @llvm.rint.f32(float %169), !dbg !21
	%174 = fsub float %169, %173, !dbg !21
	%175 = fadd float %174, %172, !dbg !21
	%176 = call float @llvm.nvvm.ex2.approx.f(float %175), !dbg !21
	%177 = fptosi float %173 to i32, !dbg !21
	%178 = ashr i32 %177, 1, !dbg !21
	%179 = sub i32 %177, %178, !dbg !21
	%180 = add i32 %178, 127, !dbg !21
	%181 = shl i32 %180, 23, !dbg !21
	%182 = bitcast i32 %181 to float, !dbg !21
	%183 = fmul float %176, %182, !dbg !21
	%184 = add i32 %179, 127, !dbg !21
	%185 = shl i32 %184, 23, !dbg !21
	%186 = bitcast i32 %185 to float, !dbg !21
	%187 = fmul float %183, %186, !dbg !21
	%188 = fcmp olt float %137, -104.0, !dbg !21
	%189 = select i1 %188, float 0.0, float %187, !dbg !21
	%190 = fcmp olt float 0x40562EB860000000, %137, !dbg !21
	%191 = select i1 %190, float 0x7FF0000000000000, float %189, !dbg !21
	%192 = fcmp uno float %137, %137, !dbg !21
	%193 = select i1 %192, float %137, float %191, !dbg !21
	%194 = fmul float %138, 0x3FF7154760000000, !dbg !21
	%195 = fsub float 0.0, %194, !dbg !21
	%196 = call float @llvm.fma.f32(float %138, float 0x3FF7154760000000, float %195), !dbg !21
	%197 = call float @llvm.fma.f32(float %138, float 0x3E54AE0C00000000, float %196), !dbg !21
	%198 = call float @llvm.rint.f32(float %194), !dbg !21
	%199 = fsub float %194, %198, !dbg !21
	%200 = fadd float %199, %197, !dbg !21
	%201 = call float @llvm.nvvm.ex2.approx.f(float %200), !dbg !21
	%202 = fptosi float %198 to i32, !dbg !21
	%203 = ashr i32 %202, 1, !dbg !21
	%204 = sub i32 %202, %203, !dbg !21
	%205 = add i32 %203, 127, !dbg !21
	%206 = shl i32 %205, 23, !dbg !21
	%207 = bitcast i32 %206 to float, !dbg !21
	%208 = fmul float %201, %207, !dbg !21
	%209 = add i32 %204, 127, !dbg !21
	%210 = shl i32 %209, 23, !dbg !21
	%211 = bitcast i32 %210 to float, !dbg !21
	%212 = fmul float %208, %211, !dbg !21
	%213 = fcmp olt float %138, -104.0, !dbg !21
	%214 = select i1 %213, float 0.0, float %212, !dbg !21
	%215 = fcmp olt float 0x40562EB860000000, %138, !dbg !21
	%216 = select i1 %215, float 0x7FF0000000000000, float %214, !dbg !21
	%217 = fcmp uno float %138, %138, !dbg !21
	%218 = select i1 %217, float %138, float %216, !dbg !21
	%219 = fmul float %139, 0x3FF7154760000000, !dbg !21
	%220 = fsub float 0.0, %219, !dbg !21
	%221 = call float @llvm.fma.f32(float %139, float 0x3FF7154760000000, float %220), !dbg !21
	%222 = call float @llvm.fma.f32(float %139, float 0x3E54AE0C00000000, float %221), !dbg !21
	%223 = call float @llvm.rint.f32(float %219), !dbg !21
	%224 = fsub float %219, %223, !dbg !21
	%225 = fadd float %224, %222, !dbg !21
	%226 = call float @llvm.nvvm.ex2.approx.f(float %225), !dbg !21
	%227 = fptosi float %223 to i32, !dbg !21
	%228 = ashr i32 %227, 1, !dbg !21
	%229 = sub i32 %227, %228, !dbg !21
	%230 = add i32 %228, 127, !dbg !21
	%231 = shl i32 %230, 23, !dbg !21
	%232 = bitcast i32 %231 to float, !dbg !21
	%233 = fmul float %226, %232, !dbg !21
	%234 = add i32 %229, 127, !dbg !21
	%235 = shl i32 %234, 23, !dbg !21
	%236 = bitcast i32 %235 to float, !dbg !21
	%237 = fmul float %233, %236, !dbg !21
	%238 = fcmp olt float %139, -104.0, !dbg !21
	%239 = select i1 %238, float 0.0, float %237, !dbg !21
	%240 = fcmp olt float 0x40562EB860000000, %139, !dbg !21
	%241 = select i1 %240, float 0x7FF0000000000000, float %239, !dbg !21
	%242 = fcmp uno float %139, %139, !dbg !21
	%243 = select i1 %242, float %139, float %241, !dbg !21
	%244 = fmul float %140, 0x3FF7154760000000, !dbg !21
	%245 = fsub float 0.0, %244, !dbg !21
	%246 = call float @llvm.fma.f32(float %140, float 0x3FF7154760000000, float %245), !dbg !21
	%247 = call float @llvm.fma.f32(float %140, float 0x3E54AE0C00000000, float %246), !dbg !21
	%248 = call float @llvm.rint.f32(float %244), !dbg !21
	%249 = fsub float %244, %248, !dbg !21
	%250 = fadd float %249, %247, !dbg !21
	%251 = call float @llvm.nvvm.ex2.approx.f(float %250), !dbg !21
	%252 = fptosi float %248 to i32, !dbg !21
	%253 = ashr i32 %252, 1, !dbg !21
	%254 = sub i32 %252, %253, !dbg !21
	%255 = add i32 %253, 127, !dbg !21
	%256 = shl i32 %255, 23, !dbg !21
	%257 = bitcast i32 %256 to float, !dbg !21
	%258 = fmul float %251, %257, !dbg !21
	%259 = add i32 %254, 127, !dbg !21
	%260 = shl i32 %259, 23, !dbg !21
	%261 = bitcast i32 %260 to float, !dbg !21
	%262 = fmul float %258, %261, !dbg !21
	%263 = fcmp olt float %140, -104.0, !dbg !21
	%264 = select i1 %263, float 0.0, float %262, !dbg !21
	%265 = fcmp olt float 0x40562EB860000000, %140, !dbg !21
	%266 = select i1 %265, float 0x7FF0000000000000, float %264, !dbg !21
	%267 = fcmp uno float %140, %140, !dbg !21
	%268 = select i1 %267, float %140, float %266, !dbg !21
	%269 = fmul float %141, 0x3FF7154760000000, !dbg !21
	%270 = fsub float 0.0, %269, !dbg !21
	%271 = call float @llvm.fma.f32(float %141, float 0x3FF7154760000000, float %270), !dbg !21
	%272 = call float @llvm.fma.f32(float %141, float 0x3E54AE0C00000000, float %271), !dbg !21
	%273 = call float @llvm.rint.f32(float %269), !dbg !21
	%274 = fsub float %269, %273, !dbg !21
	%275 = fadd float %274, %272, !dbg !21
	%276 = call float @llvm.nvvm.ex2.approx.f(float %275), !dbg !21
	%277 = fptosi float %273 to i32, !dbg !21
	%278 = ashr i32 %277, 1, !dbg !21
	%279 = sub i32 %277, %278, !dbg !21
	%280 = add i32 %278, 127, !dbg !21
	%281 = shl i32 %280, 23, !dbg !21
	%282 = bitcast i32 %281 to float, !dbg !21
	%283 = fmul float %276, %282, !dbg !21
	%284 = add i32 %279, 127, !dbg !21
	%285 = shl i32 %284, 23, !dbg !21
	%286 = bitcast i32 %285 to float, !dbg !21
	%287 = fmul float %283, %286, !dbg !21
	%288 = fcmp olt float %141, -104.0, !dbg !21
	%289 = select i1 %288, float 0.0, float %287, !dbg !21
	%290 = fcmp olt float 0x40562EB860000000, %141, !dbg !21
	%291 = select i1 %290, float 0x7FF0000000000000, float %289, !dbg !21
	%292 = fcmp uno float %141, %141, !dbg !21
	%293 = select i1 %292, float %141, float %291, !dbg !21
	%294 = fmul float %142, 0x3FF7154760000000, !dbg !21
	%295 = fsub float 0.0, %294, !dbg !21
	%296 = call float @llvm.fma.f32(float %142, float 0x3FF7154760000000, float %295), !dbg !21
	%297 = call float @llvm.fma.f32(float %142, float 0x3E54AE0C00000000, float %296), !dbg !21
	%298 = call float @llvm.rint.f32(float %294), !dbg !21
	%299 = fsub float %294, %298, !dbg !21
	%300 = fadd float %299, %297, !dbg !21
	%301 = call float @llvm.nvvm.ex2.approx.f(float %300), !dbg !21
	%302 = fptosi float %298 to i32, !dbg !21
	%303 = ashr i32 %302, 1, !dbg !21
	%304 = sub i32 %302, %303, !dbg !21
	%305 = add i32 %303, 127, !dbg !21
	%306 = shl i32 %305, 23, !dbg !21
	%307 = bitcast i32 %306 to float, !dbg !21
	%308 = fmul float %301, %307, !dbg !21
	%309 = add i32 %304, 127, !dbg !21
	%310 = shl i32 %309, 23, !dbg !21
	%311 = bitcast i32 %310 to float, !dbg !21
	%312 = fmul float %308, %311, !dbg !21
	%313 = fcmp olt float %142, -104.0, !dbg !21
	%314 = select i1 %313, float 0.0, float %312, !dbg !21
	%315 = fcmp olt float 0x40562EB860000000, %142, !dbg !21
	%316 = select i1 %315, float 0x7FF0000000000000, float %314, !dbg !21
	%317 = fcmp uno float %142, %142, !dbg !21
	%318 = select i1 %317, float %142, float %316, !dbg !21
	%319 = fmul float %143, 0x3FF7154760000000, !dbg !21
	%320 = fsub float 0.0, %319, !dbg !21
	%321 = call float @llvm.fma.f32(float %143, float 0x3FF7154760000000, float %320), !dbg !21
	%322 = call float @llvm.fma.f32(float %143, float 0x3E54AE0C00000000, float %321), !dbg !21
	%323 = call float @llvm.rint.f32(float %319), !dbg !21
	%324 = fsub float %319, %323, !dbg !21
	%325 = fadd float %324, %322, !dbg !21
	%326 = call float @llvm.nvvm.ex2.approx.f(float %325), !dbg !21
	%327 = fptosi float %323 to i32, !dbg !21
	%328 = ashr i32 %327, 1, !dbg !21
	%329 = sub i32 %327, %328, !dbg !21
	%330 = add i32 %328, 127, !dbg !21
	%331 = shl i32 %330, 23, !dbg !21
	%332 = bitcast i32 %331 to float, !dbg !21
	%333 = fmul float %326, %332, !dbg !21
	%334 = add i32 %329, 127, !dbg !21
	%335 = shl i32 %334, 23, !dbg !21
	%336 = bitcast i32 %335 to float, !dbg !21
	%337 = fmul float %333, %336, !dbg !21
	%338 = fcmp olt float %143, -104.0, !dbg !21
	%339 = select i1 %338, float 0.0, float %337, !dbg !21
	%340 = fcmp olt float 0x40562EB860000000, %143, !dbg !21
	%341 = select i1 %340, float 0x7FF0000000000000, float %339, !dbg !21
	%342 = fcmp uno float %143, %143, !dbg !21
	%343 = select i1 %342, float %143, float %341, !dbg !21
	%344 = fadd float %168, %193, !dbg !23
	%345 = fadd float %344, %218, !dbg !23
	%346 = fadd float %345, %243, !dbg !23
	%347 = fadd float %346, %268, !dbg !23
	%348 = fadd float %347, %293, !dbg !23
	%349 = fadd float %348, %318, !dbg !23
	%350 = fadd float %349, %343, !dbg !23
	%351 = bitcast float %350 to i32, !dbg !25
	%352 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %351, i32 1, i32 31), !dbg !25
	%353 = bitcast i32 %352 to float, !dbg !25
	%354 = fadd float %350, %353, !dbg !23
	%355 = bitcast float %354 to i32, !dbg !25
	%356 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %355, i32 2, i32 31), !dbg !25
	%357 = bitcast i32 %356 to float, !dbg !25
	%358 = fadd float %354, %357, !dbg !23
	%359 = bitcast float %358 to i32, !dbg !25
	%360 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %359, i32 4, i32 31), !dbg !25
	%361 = bitcast i32 %360 to float, !dbg !25
	%362 = fadd float %358, %361, !dbg !23
	%363 = bitcast float %362 to i32, !dbg !25
	%364 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %363, i32 8, i32 31), !dbg !25
	%365 = bitcast i32 %364 to float, !dbg !25
	%366 = fadd float %362, %365, !dbg !23
	%367 = bitcast float %366 to i32, !dbg !25
	%368 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %367, i32 16, i32 31), !dbg !25
	%369 = bitcast i32 %368 to float, !dbg !25
	%370 = fadd float %366, %369, !dbg !23
	%371 = lshr i32 %11, 0, !dbg !25
	%372 = and i32 %371, 1, !dbg !25
	%373 = lshr i32 %11, 1, !dbg !25
	%374 = and i32 %373, 1, !dbg !25
	%375 = shl i32 %374, 1, !dbg !25
	%376 = or i32 %372, %375, !dbg !25
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !25
	%377 = mul i32 %376, 1, !dbg !25
	%378 = add i32 %377, 0, !dbg !25
	%379 = bitcast i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to float addrspace(3)*, !dbg !25
	%380 = getelementptr float, float addrspace(3)* %379, i32 %378, !dbg !25
	store float %370, float addrspace(3)* %380, !dbg !25
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !25
	%381 = add i32 0, 0, !dbg !25
	%382 = bitcast i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to float addrspace(3)*, !dbg !25
	%383 = getelementptr float, float addrspace(3)* %382, i32 %381, !dbg !25
	%384 = load float, float addrspace(3)* %383, !dbg !25
	%385 = add i32 0, 1, !dbg !25
	%386 = bitcast i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to float addrspace(3)*, !dbg !25
	%387 = getelementptr float, float addrspace(3)* %386, i32 %385, !dbg !25
	%388 = load float, float addrspace(3)* %387, !dbg !25
	%389 = fadd float %384, %388, !dbg !23
	%390 = add i32 0, 2, !dbg !25
	%391 = bitcast i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to float addrspace(3)*, !dbg !25
	%392 = getelementptr float, float addrspace(3)* %391, i32 %390, !dbg !25
	%393 = load float, float addrspace(3)* %392, !dbg !25
	%394 = fadd float %389, %393, !dbg !23
	%395 = add i32 0, 3, !dbg !25
	%396 = bitcast i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to float addrspace(3)*, !dbg !25
	%397 = getelementptr float, float addrspace(3)* %396, i32 %395, !dbg !25
	%398 = load float, float addrspace(3)* %397, !dbg !25
	%399 = fadd float %394, %398, !dbg !23
	%400 = mul i32 %34, %3, !dbg !26
	%401 = sext i32 %400 to i64, !dbg !27
	%402 = getelementptr float, float addrspace(1)* %0, i64 %401, !dbg !27
	%403 = sext i32 %17 to i64, !dbg !28
	%404 = getelementptr float, float addrspace(1)* %402, i64 %403, !dbg !28
	%405 = sext i32 %18 to i64, !dbg !28
	%406 = getelementptr float, float addrspace(1)* %402, i64 %405, !dbg !28
	%407 = sext i32 %19 to i64, !dbg !28
	%408 = getelementptr float, float addrspace(1)* %402, i64 %407, !dbg !28
	%409 = sext i32 %20 to i64, !dbg !28
	%410 = getelementptr float, float addrspace(1)* %402, i64 %409, !dbg !28
	%411 = sext i32 %21 to i64, !dbg !28
	%412 = getelementptr float, float addrspace(1)* %402, i64 %411, !dbg !28
	%413 = sext i32 %22 to i64, !dbg !28
	%414 = getelementptr float, float addrspace(1)* %402, i64 %413, !dbg !28
	%415 = sext i32 %23 to i64, !dbg !28
	%416 = getelementptr float, float addrspace(1)* %402, i64 %415, !dbg !28
	%417 = sext i32 %24 to i64, !dbg !28
	%418 = getelementptr float, float addrspace(1)* %402, i64 %417, !dbg !28
	%419 = fdiv float %168, %399, !dbg !29
	%420 = fdiv float %193, %399, !dbg !29
	%421 = fdiv float %218, %399, !dbg !29
	%422 = fdiv float %243, %399, !dbg !29
	%423 = fdiv float %268, %399, !dbg !29
	%424 = fdiv float %293, %399, !dbg !29
	%425 = fdiv float %318, %399, !dbg !29
	%426 = fdiv float %343, %399, !dbg !29
	%427 = bitcast float %419 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %427, float addrspace(1)* %404, i1 %25), !dbg !30
	%428 = bitcast float %420 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %428, float addrspace(1)* %406, i1 %26), !dbg !30
	%429 = bitcast float %421 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %429, float addrspace(1)* %408, i1 %27), !dbg !30
	%430 = bitcast float %422 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %430, float addrspace(1)* %410, i1 %28), !dbg !30
	%431 = bitcast float %423 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %431, float addrspace(1)* %412, i1 %29), !dbg !30
	%432 = bitcast float %424 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %432, float addrspace(1)* %414, i1 %30), !dbg !30
	%433 = bitcast float %425 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %433, float addrspace(1)* %416, i1 %31), !dbg !30
	%434 = bitcast float %426 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %434, float addrspace(1)* %418, i1 %32), !dbg !30
	%435 = add i32 %34, %13, !dbg !31
	br label %33, !dbg !31

436:
	ret void, !dbg !32
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

declare float @llvm.maxnum.f32(float %0, float %1)

declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 %0, i32 %1, i32 %2, i32 %3)

declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 %0)

declare float @llvm.fma.f32(float %0, float %1, float %2)

declare float @llvm.rint.f32(float %0)

declare float @llvm.nvvm.ex2.approx.f(float %0)

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
