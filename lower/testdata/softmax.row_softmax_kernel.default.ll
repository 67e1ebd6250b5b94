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
	%34 = phi i32 [ %12, %8 ], [ %419, %36 ], !dbg !31
	%35 = icmp slt i32 %34, %4, !dbg !31
	br i1 %35, label %36, label %420, !dbg !31

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
	%145 = call float @llvm.rint.f32(float %144), !dbg !21
	%146 = fsub float 0.0, %145, !dbg !21
	%147 = call float @llvm.fma.f32(float %136, float 0x3FF7154760000000, float %146), !dbg !21
	%148 = call float @llvm.fma.f32(float %136, float 0x3E54AE0C00000000, float %147), !dbg !21
	%149 = call float @llvm.nvvm.ex2.approx.f(float %148), !dbg !21
	%150 = fptosi float %145 to i32, !dbg !21
	%151 = ashr i32 %150, 1, !dbg !21
	%152 = sub i32 %150, %151, !dbg !21
	%153 = add i32 %151, 127, !dbg !21
	%154 = shl i32 %153, 23, !dbg !21
	%155 = bitcast i32 %154 to float, !dbg !21
	%156 = fmul float %149, %155, !dbg !21
	%157 = add i32 %152, 127, !dbg !21
	%158 = shl i32 %157, 23, !dbg !21
	%159 = bitcast i32 %158 to float, !dbg !21
	%160 = fmul float %156, %159, !dbg !21
	%161 = fcmp olt float %136, -104.0, !dbg !21
	%162 = select i1 %161, float 0.0, float %160, !dbg !21
	%163 = fcmp olt float 0x40562EB860000000, %136, !dbg !21
	%164 = select i1 %163, float 0x7FF0000000000000, float %162, !dbg !21
	%165 = fcmp uno float %136, %136, !dbg !21
	%166 = select i1 %165, float %136, float %164, !dbg !21
	%167 = fmul float %137, 0x3FF7154760000000, !dbg !21
	%168 = call float @llvm.rint.f32(float %167), !dbg !21
	%169 = fsub float 0.0, %168, !dbg !21
	%170 = call float @llvm.fma.f32(float %137, float 0x3FF7154760000000, float %169), !dbg !21
	%171 = call float @llvm.fma.f32(float %137, float 0x3E54AE0C00000000, float %170), !dbg !21
	%172 = call float @llvm.nvvm.ex2.approx.f(float %171), !dbg !21
	%173 = fptosi float %168 to i32, !dbg !21
	%174 = ashr i32 %173, 1, !dbg !21
	%175 = sub i32 %173, %174, !dbg !21
	%176 = add i32 %174, 127, !dbg !21
	%177 = shl i32 %176, 23, !dbg !21
	%178 = bitcast i32 %177 to float, !dbg !21
	%179 = fmul float %172, %178, !dbg !21
	%180 = add i32 %175, 127, !dbg !21
	%181 = shl i32 %180, 23, !dbg !21
	%182 = bitcast i32 %181 to float, !dbg !21
	%183 = fmul float %179, %182, !dbg !21
	%184 = fcmp olt float %137, -104.0, !dbg !21
	%185 = select i1 %184, float 0.0, float %183, !dbg !21
	%186 = fcmp olt float 0x40562EB860000000, %137, !dbg !21
	%187 = select i1 %186, float 0x7FF0000000000000, float %185, !dbg !21
	%188 = fcmp uno float %137, %137, !dbg !21
	%189 = select i1 %188, float %137, float %187, !dbg !21
	%190 = fmul float %138, 0x3FF7154760000000, !dbg !21
	%191 = call float @llvm.rint.f32(float %190), !dbg !21
	%192 = fsub float 0.0, %191, !dbg !21
	%193 = call float @llvm.fma.f32(float %138, float 0x3FF7154760000000, float %192), !dbg !21
	%194 = call float @llvm.fma.f32(float %138, float 0x3E54AE0C00000000, float %193), !dbg !21
	%195 = call float @llvm.nvvm.ex2.approx.f(float %194), !dbg !21
	%196 = fptosi float %191 to i32, !dbg !21
	%197 = ashr i32 %196, 1, !dbg !21
	%198 = sub i32 %196, %197, !dbg !21
	%199 = add i32 %197, 127, !dbg !21
	%200 = shl i32 %199, 23, !dbg !21
	%201 = bitcast i32 %200 to float, !dbg !21
	%202 = fmul float %195, %201, !dbg !21
	%203 = add i32 %198, 127, !dbg !21
	%204 = shl i32 %203, 23, !dbg !21
	%205 = bitcast i32 %204 to float, !dbg !21
	%206 = fmul float %202, %205, !dbg !21
	%207 = fcmp olt float %138, -104.0, !dbg !21
	%208 = select i1 %207, float 0.0, float %206, !dbg !21
	%209 = fcmp olt float 0x40562EB860000000, %138, !dbg !21
	%210 = select i1 %209, float 0x7FF0000000000000, float %208, !dbg !21
	%211 = fcmp uno float %138, %138, !dbg !21
	%212 = select i1 %211, float %138, float %210, !dbg !21
	%213 = fmul float %139, 0x3FF7154760000000, !dbg !21
	%214 = call float @llvm.rint.f32(float %213), !dbg !21
	%215 = fsub float 0.0, %214, !dbg !21
	%216 = call float @llvm.fma.f32(float %139, float 0x3FF7154760000000, float %215), !dbg !21
	%217 = call float @llvm.fma.f32(float %139, float 0x3E54AE0C00000000, float %216), !dbg !21
	%218 = call float @llvm.nvvm.ex2.approx.f(float %217), !dbg !21
	%219 = fptosi float %214 to i32, !dbg !21
	%220 = ashr i32 %219, 1, !dbg !21
	%221 = sub i32 %219, %220, !dbg !21
	%222 = add i32 %220, 127, !dbg !21
	%223 = shl i32 %222, 23, !dbg !21
	%224 = bitcast i32 %223 to float, !dbg !21
	%225 = fmul float %218, %224, !dbg !21
	%226 = add i32 %221, 127, !dbg !21
	%227 = shl i32 %226, 23, !dbg !21
	%228 = bitcast i32 %227 to float, !dbg !21
	%229 = fmul float %225, %228, !dbg !21
	%230 = fcmp olt float %139, -104.0, !dbg !21
	%231 = select i1 %230, float 0.0, float %229, !dbg !21
	%232 = fcmp olt float 0x40562EB860000000, %139, !dbg !21
	%233 = select i1 %232, float 0x7FF0000000000000, float %231, !dbg !21
	%234 = fcmp uno float %139, %139, !dbg !21
	%235 = select i1 %234, float %139, float %233, !dbg !21
	%236 = fmul float %140, 0x3FF7154760000000, !dbg !21
	%237 = call float @llvm.rint.f32(float %236), !dbg !21
	%238 = fsub float 0.0, %237, !dbg !21
	%239 = call float @llvm.fma.f32(float %140, float 0x3FF7154760000000, float %238), !dbg !21
	%240 = call float @llvm.fma.f32(float %140, float 0x3E54AE0C00000000, float %239), !dbg !21
	%241 = call float @llvm.nvvm.ex2.approx.f(float %240), !dbg !21
	%242 = fptosi float %237 to i32, !dbg !21
	%243 = ashr i32 %242, 1, !dbg !21
	%244 = sub i32 %242, %243, !dbg !21
	%245 = add i32 %243, 127, !dbg !21
	%246 = shl i32 %245, 23, !dbg !21
	%247 = bitcast i32 %246 to float, !dbg !21
	%248 = fmul float %241, %247, !dbg !21
	%249 = add i32 %244, 127, !dbg !21
	%250 = shl i32 %249, 23, !dbg !21
	%251 = bitcast i32 %250 to float, !dbg !21
	%252 = fmul float %248, %251, !dbg !21
	%253 = fcmp olt float %140, -104.0, !dbg !21
	%254 = select i1 %253, float 0.0, float %252, !dbg !21
	%255 = fcmp olt float 0x40562EB860000000, %140, !dbg !21
	%256 = select i1 %255, float 0x7FF0000000000000, float %254, !dbg !21
	%257 = fcmp uno float %140, %140, !dbg !21
	%258 = select i1 %257, float %140, float %256, !dbg !21
	%259 = fmul float %141, 0x3FF7154760000000, !dbg !21
	%260 = call float @llvm.rint.f32(float %259), !dbg !21
	%261 = fsub float 0.0, %260, !dbg !21
	%262 = call float @llvm.fma.f32(float %141, float 0x3FF7154760000000, float %261), !dbg !21
	%263 = call float @llvm.fma.f32(float %141, float 0x3E54AE0C00000000, float %262), !dbg !21
	%264 = call float @llvm.nvvm.ex2.approx.f(float %263), !dbg !21
	%265 = fptosi float %260 to i32, !dbg !21
	%266 = ashr i32 %265, 1, !dbg !21
	%267 = sub i32 %265, %266, !dbg !21
	%268 = add i32 %266, 127, !dbg !21
	%269 = shl i32 %268, 23, !dbg !21
	%270 = bitcast i32 %269 to float, !dbg !21
	%271 = fmul float %264, %270, !dbg !21
	%272 = add i32 %267, 127, !dbg !21
	%273 = shl i32 %272, 23, !dbg !21
	%274 = bitcast i32 %273 to float, !dbg !21
	%275 = fmul float %271, %274, !dbg !21
	%276 = fcmp olt float %141, -104.0, !dbg !21
	%277 = select i1 %276, float 0.0, float %275, !dbg !21
	%278 = fcmp olt float 0x40562EB860000000, %141, !dbg !21
	%279 = select i1 %278, float 0x7FF0000000000000, float %277, !dbg !21
	%280 = fcmp uno float %141, %141, !dbg !21
	%281 = select i1 %280, float %141, float %279, !dbg !21
	%282 = fmul float %142, 0x3FF7154760000000, !dbg !21
	%283 = call float @llvm.rint.f32(float %282), !dbg !21
	%284 = fsub float 0.0, %283, !dbg !21
	%285 = call float @llvm.fma.f32(float %142, float 0x3FF7154760000000, float %284), !dbg !21
	%286 = call float @llvm.fma.f32(float %142, float 0x3E54AE0C00000000, float %285), !dbg !21
	%287 = call float @llvm.nvvm.ex2.approx.f(float %286), !dbg !21
	%288 = fptosi float %283 to i32, !dbg !21
	%289 = ashr i32 %288, 1, !dbg !21
	%290 = sub i32 %288, %289, !dbg !21
	%291 = add i32 %289, 127, !dbg !21
	%292 = shl i32 %291, 23, !dbg !21
	%293 = bitcast i32 %292 to float, !dbg !21
	%294 = fmul float %287, %293, !dbg !21
	%295 = add i32 %290, 127, !dbg !21
	%296 = shl i32 %295, 23, !dbg !21
	%297 = bitcast i32 %296 to float, !dbg !21
	%298 = fmul float %294, %297, !dbg !21
	%299 = fcmp olt float %142, -104.0, !dbg !21
	%300 = select i1 %299, float 0.0, float %298, !dbg !21
	%301 = fcmp olt float 0x40562EB860000000, %142, !dbg !21
	%302 = select i1 %301, float 0x7FF0000000000000, float %300, !dbg !21
	%303 = fcmp uno float %142, %142, !dbg !21
	%304 = select i1 %303, float %142, float %302, !dbg !21
	%305 = fmul float %143, 0x3FF7154760000000, !dbg !21
	%306 = call float @llvm.rint.f32(float %305), !dbg !21
	%307 = fsub float 0.0, %306, !dbg !21
	%308 = call float @llvm.fma.f32(float %143, float 0x3FF7154760000000, float %307), !dbg !21
	%309 = call float @llvm.fma.f32(float %143, float 0x3E54AE0C00000000, float %308), !dbg !21
	%310 = call float @llvm.nvvm.ex2.approx.f(float %309), !dbg !21
	%311 = fptosi float %306 to i32, !dbg !21
	%312 = ashr i32 %311, 1, !dbg !21
	%313 = sub i32 %311, %312, !dbg !21
	%314 = add i32 %312, 127, !dbg !21
	%315 = shl i32 %314, 23, !dbg !21
	%316 = bitcast i32 %315 to float, !dbg !21
	%317 = fmul float %310, %316, !dbg !21
	%318 = add i32 %313, 127, !dbg !21
	%319 = shl i32 %318, 23, !dbg !21
	%320 = bitcast i32 %319 to float, !dbg !21
	%321 = fmul float %317, %320, !dbg !21
	%322 = fcmp olt float %143, -104.0, !dbg !21
	%323 = select i1 %322, float 0.0, float %321, !dbg !21
	%324 = fcmp olt float 0x40562EB860000000, %143, !dbg !21
	%325 = select i1 %324, float 0x7FF0000000000000, float %323, !dbg !21
	%326 = fcmp uno float %143, %143, !dbg !21
	%327 = select i1 %326, float %143, float %325, !dbg !21
	%328 = fadd float %166, %189, !dbg !23
	%329 = fadd float %328, %212, !dbg !23
	%330 = fadd float %329, %235, !dbg !23
	%331 = fadd float %330, %258, !dbg !23
	%332 = fadd float %331, %281, !dbg !23
	%333 = fadd float %332, %304, !dbg !23
	%334 = fadd float %333, %327, !dbg !23
	%335 = bitcast float %334 to i32, !dbg !25
	%336 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %335, i32 1, i32 31), !dbg !25
	%337 = bitcast i32 %336 to float, !dbg !25
	%338 = fadd float %334, %337, !dbg !23
	%339 = bitcast float %338 to i32, !dbg !25
	%340 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %339, i32 2, i32 31), !dbg !25
	%341 = bitcast i32 %340 to float, !dbg !25
	%342 = fadd float %338, %341, !dbg !23
	%343 = bitcast float %342 to i32, !dbg !25
	%344 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %343, i32 4, i32 31), !dbg !25
	%345 = bitcast i32 %344 to float, !dbg !25
	%346 = fadd float %342, %345, !dbg !23
	%347 = bitcast float %346 to i32, !dbg !25
	%348 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %347, i32 8, i32 31), !dbg !25
	%349 = bitcast i32 %348 to float, !dbg !25
	%350 = fadd float %346, %349, !dbg !23
	%351 = bitcast float %350 to i32, !dbg !25
	%352 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %351, i32 16, i32 31), !dbg !25
	%353 = bitcast i32 %352 to float, !dbg !25
	%354 = fadd float %350, %353, !dbg !23
	%355 = lshr i32 %11, 0, !dbg !25
	%356 = and i32 %355, 1, !dbg !25
	%357 = lshr i32 %11, 1, !dbg !25
	%358 = and i32 %357, 1, !dbg !25
	%359 = shl i32 %358, 1, !dbg !25
	%360 = or i32 %356, %359, !dbg !25
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !25
	%361 = mul i32 %360, 1, !dbg !25
	%362 = add i32 %361, 0, !dbg !25
	%363 = bitcast i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to float addrspace(3)*, !dbg !25
	%364 = getelementptr float, float addrspace(3)* %363, i32 %362, !dbg !25
	store float %354, float addrspace(3)* %364, !dbg !25
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !25
	%365 = add i32 0, 0, !dbg !25
	%366 = bitcast i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to float addrspace(3)*, !dbg !25
	%367 = getelementptr float, float addrspace(3)* %366, i32 %365, !dbg !25
	%368 = load float, float addrspace(3)* %367, !dbg !25
	%369 = add i32 0, 1, !dbg !25
	%370 = bitcast i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to float addrspace(3)*, !dbg !25
	%371 = getelementptr float, float addrspace(3)* %370, i32 %369, !dbg !25
	%372 = load float, float addrspace(3)* %371, !dbg !25
	%373 = fadd float %368, %372, !dbg !23
	%374 = add i32 0, 2, !dbg !25
	%375 = bitcast i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to float addrspace(3)*, !dbg !25
	%376 = getelementptr float, float addrspace(3)* %375, i32 %374, !dbg !25
	%377 = load float, float addrspace(3)* %376, !dbg !25
	%378 = fadd float %373, %377, !dbg !23
	%379 = add i32 0, 3, !dbg !25
	%380 = bitcast i8 addrspace(3)* bitcast ([0 x i8] addrspace(3)* @global_smem to i8 addrspace(3)*) to float addrspace(3)*, !dbg !25
	%381 = getelementptr float, float addrspace(3)* %380, i32 %379, !dbg !25
	%382 = load float, float addrspace(3)* %381, !dbg !25
	%383 = fadd float %378, %382, !dbg !23
	%384 = mul i32 %34, %3, !dbg !26
	%385 = sext i32 %384 to i64, !dbg !27
	%386 = getelementptr float, float addrspace(1)* %0, i64 %385, !dbg !27
	%387 = sext i32 %17 to i64, !dbg !28
	%388 = getelementptr float, float addrspace(1)* %386, i64 %387, !dbg !28
	%389 = sext i32 %18 to i64, !dbg !28
	%390 = getelementptr float, float addrspace(1)* %386, i64 %389, !dbg !28
	%391 = sext i32 %19 to i64, !dbg !28
	%392 = getelementptr float, float addrspace(1)* %386, i64 %391, !dbg !28
	%393 = sext i32 %20 to i64, !dbg !28
	%394 = getelementptr float, float addrspace(1)* %386, i64 %393, !dbg !28
	%395 = sext i32 %21 to i64, !dbg !28
	%396 = getelementptr float, float addrspace(1)* %386, i64 %395, !dbg !28
	%397 = sext i32 %22 to i64, !dbg !28
	%398 = getelementptr float, float addrspace(1)* %386, i64 %397, !dbg !28
	%399 = sext i32 %23 to i64, !dbg !28
	%400 = getelementptr float, float addrspace(1)* %386, i64 %399, !dbg !28
	%401 = sext i32 %24 to i64, !dbg !28
	%402 = getelementptr float, float addrspace(1)* %386, i64 %401, !dbg !28
	%403 = call float @llvm.nvvm.div.full(float %166, float %383), !dbg !29
	%404 = call float @llvm.nvvm.div.full(float %189, float %383), !dbg !29
	%405 = call float @llvm.nvvm.div.full(float %212, float %383), !dbg !29
	%406 = call float @llvm.nvvm.div.full(float %235, float %383), !dbg !29
	%407 = call float @llvm.nvvm.div.full(float %258, float %383), !dbg !29
	%408 = call float @llvm.nvvm.div.full(float %281, float %383), !dbg !29
	%409 = call float @llvm.nvvm.div.full(float %304, float %383), !dbg !29
	%410 = call float @llvm.nvvm.div.full(float %327, float %383), !dbg !29
	%411 = bitcast float %403 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %411, float addrspace(1)* %388, i1 %25), !dbg !30
	%412 = bitcast float %404 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %412, float addrspace(1)* %390, i1 %26), !dbg !30
	%413 = bitcast float %405 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %413, float addrspace(1)* %392, i1 %27), !dbg !30
	%414 = bitcast float %406 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %414, float addrspace(1)* %394, i1 %28), !dbg !30
	%415 = bitcast float %407 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %415, float addrspace(1)* %396, i1 %29), !dbg !30
	%416 = bitcast float %408 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %416, float addrspace(1)* %398, i1 %30), !dbg !30
	%417 = bitcast float %409 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %417, float addrspace(1)* %400, i1 %31), !dbg !30
	%418 = bitcast float %410 to i32, !dbg !30
	call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %418, float addrspace(1)* %402, i1 %32), !dbg !30
	%419 = add i32 %34, %13, !dbg !31
	br label %33, !dbg !31

420:
	ret void, !dbg !32
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

declare float @llvm.maxnum.f32(float %0, float %1)

declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 %0, i32 %1, i32 %2, i32 %3)

declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 %0)

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
