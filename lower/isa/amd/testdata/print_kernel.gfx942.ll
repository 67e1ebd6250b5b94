target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @print_kernel(i64 %0, i8 addrspace(1)* %1, i8 addrspace(1)* %2) "amdgpu-flat-work-group-size"="1,64" "amdgpu-waves-per-eu"="0, 0" "denormal-fp-math-f32"="ieee" "uniform-work-group-size"="true" !dbg !4 {
3:
	%4 = call i32 @llvm.amdgcn.workitem.id.x()
	%5 = and i32 %4, 63
	%6 = and i32 %5, 63, !dbg !6
	%7 = sub i32 %6, 40, !dbg !6
	%8 = sitofp i32 %7 to half, !dbg !6
	%9 = call i32 @llvm.amdgcn.workgroup.id.x(), !dbg !6
	%10 = call i32 @llvm.amdgcn.workgroup.id.y(), !dbg !6
	%11 = call i32 @llvm.amdgcn.workgroup.id.z(), !dbg !6
	%12 = zext i32 %9 to i64, !dbg !6
	%13 = zext i32 %10 to i64, !dbg !6
	%14 = zext i32 %11 to i64, !dbg !6
	%15 = zext i32 %6 to i64, !dbg !6
	%16 = zext i32 %7 to i64, !dbg !6
	%17 = call i8 addrspace(4)* @llvm.amdgcn.implicitarg.ptr(), !dbg !6
	%18 = getelementptr i8, i8 addrspace(4)* %17, i64 72, !dbg !6
	%19 = bitcast i8 addrspace(4)* %18 to i8 addrspace(1)* addrspace(4)*, !dbg !6
	%20 = load i8 addrspace(1)*, i8 addrspace(1)* addrspace(4)* %19, align 8, !dbg !6
	%21 = bitcast i8 addrspace(1)* %20 to i32 addrspace(1)*, !dbg !6
	%22 = getelementptr i32, i32 addrspace(1)* %21, i64 1, !dbg !6
	%23 = load i32, i32 addrspace(1)* %22, align 4, !dbg !6
	%24 = load atomic i32, i32 addrspace(1)* %21 syncscope("agent") monotonic, align 4, !dbg !6
	br label %25, !dbg !6

25:
	%26 = phi i32 [ %24, %3 ], [ %32, %29 ], !dbg !6
	%27 = add i32 %26, 60, !dbg !6
	%28 = icmp ugt i32 %27, %23, !dbg !6
	br i1 %28, label %52, label %29, !dbg !6

29:
	%30 = add i32 %26, 52, !dbg !6
	%31 = cmpxchg i32 addrspace(1)* %21, i32 %26, i32 %30 syncscope("agent") monotonic monotonic, !dbg !6
	%32 = extractvalue { i32, i1 } %31, 0, !dbg !6
	%33 = extractvalue { i32, i1 } %31, 1, !dbg !6
	br i1 %33, label %34, label %25, !dbg !6

34:
	%35 = add i32 %26, 8, !dbg !6
	%36 = zext i32 %35 to i64, !dbg !6
	%37 = getelementptr i8, i8 addrspace(1)* %20, i64 %36, !dbg !6
	%38 = getelementptr i8, i8 addrspace(1)* %37, i64 0, !dbg !6
	%39 = bitcast i8 addrspace(1)* %38 to i32 addrspace(1)*, !dbg !6
	store i32 210, i32 addrspace(1)* %39, align 4, !dbg !6
	%40 = getelementptr i8, i8 addrspace(1)* %37, i64 4, !dbg !6
	%41 = bitcast i8 addrspace(1)* %40 to i64 addrspace(1)*, !dbg !6
	store i64 484494567155210607, i64 addrspace(1)* %41, align 4, !dbg !6
	%42 = getelementptr i8, i8 addrspace(1)* %37, i64 12, !dbg !6
	%43 = bitcast i8 addrspace(1)* %42 to i64 addrspace(1)*, !dbg !6
	store i64 %12, i64 addrspace(1)* %43, align 4, !dbg !6
	%44 = getelementptr i8, i8 addrspace(1)* %37, i64 20, !dbg !6
	%45 = bitcast i8 addrspace(1)* %44 to i64 addrspace(1)*, !dbg !6
	store i64 %13, i64 addrspace(1)* %45, align 4, !dbg !6
	%46 = getelementptr i8, i8 addrspace(1)* %37, i64 28, !dbg !6
	%47 = bitcast i8 addrspace(1)* %46 to i64 addrspace(1)*, !dbg !6
	store i64 %14, i64 addrspace(1)* %47, align 4, !dbg !6
	%48 = getelementptr i8, i8 addrspace(1)* %37, i64 36, !dbg !6
	%49 = bitcast i8 addrspace(1)* %48 to i64 addrspace(1)*, !dbg !6
	store i64 %15, i64 addrspace(1)* %49, align 4, !dbg !6
	%50 = getelementptr i8, i8 addrspace(1)* %37, i64 44, !dbg !6
	%51 = bitcast i8 addrspace(1)* %50 to i64 addrspace(1)*, !dbg !6
	store i64 %16, i64 addrspace(1)* %51, align 4, !dbg !6
	br label %52, !dbg !6

52:
	%53 = fpext half %8 to double, !dbg !6
	%54 = zext i32 %9 to i64, !dbg !6
	%55 = zext i32 %10 to i64, !dbg !6
	%56 = zext i32 %11 to i64, !dbg !6
	%57 = zext i32 %6 to i64, !dbg !6
	%58 = call i8 addrspace(4)* @llvm.amdgcn.implicitarg.ptr(), !dbg !6
	%59 = getelementptr i8, i8 addrspace(4)* %58, i64 72, !dbg !6
	%60 = bitcast i8 addrspace(4)* %59 to i8 addrspace(1)* addrspace(4)*, !dbg !6
	%61 = load i8 addrspace(1)*, i8 addrspace(1)* addrspace(4)* %60, align 8, !dbg !6
	%62 = bitcast i8 addrspace(1)* %61 to i32 addrspace(1)*, !dbg !6
	%63 = getelementptr i32, i32 addrspace(1)* %62, i64 1, !dbg !6
	%64 = load i32, i32 addrspace(1)* %63, align 4, !dbg !6
	%65 = load atomic i32, i32 addrspace(1)* %62 syncscope("agent") monotonic, align 4, !dbg !6
	br label %66, !dbg !6

66:
	%67 = phi i32 [ %65, %52 ], [ %73, %70 ], !dbg !6
	%68 = add i32 %67, 60, !dbg !6
	%69 = icmp ugt i32 %68, %64, !dbg !6
	br i1 %69, label %93, label %70, !dbg !6

70:
	%71 = add i32 %67, 52, !dbg !6
	%72 = cmpxchg i32 addrspace(1)* %62, i32 %67, i32 %71 syncscope("agent") monotonic monotonic, !dbg !6
	%73 = extractvalue { i32, i1 } %72, 0, !dbg !6
	%74 = extractvalue { i32, i1 } %72, 1, !dbg !6
	br i1 %74, label %75, label %66, !dbg !6

75:
	%76 = add i32 %67, 8, !dbg !6
	%77 = zext i32 %76 to i64, !dbg !6
	%78 = getelementptr i8, i8 addrspace(1)* %61, i64 %77, !dbg !6
	%79 = getelementptr i8, i8 addrspace(1)* %78, i64 0, !dbg !6
	%80 = bitcast i8 addrspace(1)* %79 to i32 addrspace(1)*, !dbg !6
	store i32 210, i32 addrspace(1)* %80, align 4, !dbg !6
	%81 = getelementptr i8, i8 addrspace(1)* %78, i64 4, !dbg !6
	%82 = bitcast i8 addrspace(1)* %81 to i64 addrspace(1)*, !dbg !6
	store i64 -3563196671016390444, i64 addrspace(1)* %82, align 4, !dbg !6
	%83 = getelementptr i8, i8 addrspace(1)* %78, i64 12, !dbg !6
	%84 = bitcast i8 addrspace(1)* %83 to i64 addrspace(1)*, !dbg !6
	store i64 %54, i64 addrspace(1)* %84, align 4, !dbg !6
	%85 = getelementptr i8, i8 addrspace(1)* %78, i64 20, !dbg !6
	%86 = bitcast i8 addrspace(1)* %85 to i64 addrspace(1)*, !dbg !6
	store i64 %55, i64 addrspace(1)* %86, align 4, !dbg !6
	%87 = getelementptr i8, i8 addrspace(1)* %78, i64 28, !dbg !6
	%88 = bitcast i8 addrspace(1)* %87 to i64 addrspace(1)*, !dbg !6
	store i64 %56, i64 addrspace(1)* %88, align 4, !dbg !6
	%89 = getelementptr i8, i8 addrspace(1)* %78, i64 36, !dbg !6
	%90 = bitcast i8 addrspace(1)* %89 to i64 addrspace(1)*, !dbg !6
	store i64 %57, i64 addrspace(1)* %90, align 4, !dbg !6
	%91 = getelementptr i8, i8 addrspace(1)* %78, i64 44, !dbg !6
	%92 = bitcast i8 addrspace(1)* %91 to double addrspace(1)*, !dbg !6
	store double %53, double addrspace(1)* %92, align 4, !dbg !6
	br label %93, !dbg !6

93:
	%94 = call i32 @llvm.amdgcn.workgroup.id.x(), !dbg !6
	%95 = call i32 @llvm.amdgcn.workgroup.id.y(), !dbg !6
	%96 = call i32 @llvm.amdgcn.workgroup.id.z(), !dbg !6
	%97 = zext i32 %94 to i64, !dbg !6
	%98 = zext i32 %95 to i64, !dbg !6
	%99 = zext i32 %96 to i64, !dbg !6
	%100 = call i8 addrspace(4)* @llvm.amdgcn.implicitarg.ptr(), !dbg !6
	%101 = getelementptr i8, i8 addrspace(4)* %100, i64 72, !dbg !6
	%102 = bitcast i8 addrspace(4)* %101 to i8 addrspace(1)* addrspace(4)*, !dbg !6
	%103 = load i8 addrspace(1)*, i8 addrspace(1)* addrspace(4)* %102, align 8, !dbg !6
	%104 = bitcast i8 addrspace(1)* %103 to i32 addrspace(1)*, !dbg !6
	%105 = getelementptr i32, i32 addrspace(1)* %104, i64 1, !dbg !6
	%106 = load i32, i32 addrspace(1)* %105, align 4, !dbg !6
	%107 = load atomic i32, i32 addrspace(1)* %104 syncscope("agent") monotonic, align 4, !dbg !6
	br label %108, !dbg !6

108:
	%109 = phi i32 [ %107, %93 ], [ %115, %112 ], !dbg !6
	%110 = add i32 %109, 52, !dbg !6
	%111 = icmp ugt i32 %110, %106, !dbg !6
	br i1 %111, label %133, label %112, !dbg !6

112:
	%113 = add i32 %109, 44, !dbg !6
	%114 = cmpxchg i32 addrspace(1)* %104, i32 %109, i32 %113 syncscope("agent") monotonic monotonic, !dbg !6
	%115 = extractvalue { i32, i1 } %114, 0, !dbg !6
	%116 = extractvalue { i32, i1 } %114, 1, !dbg !6
	br i1 %116, label %117, label %108, !dbg !6

117:
	%118 = add i32 %109, 8, !dbg !6
	%119 = zext i32 %118 to i64, !dbg !6
	%120 = getelementptr i8, i8 addrspace(1)* %103, i64 %119, !dbg !6
	%121 = getelementptr i8, i8 addrspace(1)* %120, i64 0, !dbg !6
	%122 = bitcast i8 addrspace(1)* %121 to i32 addrspace(1)*, !dbg !6
	store i32 178, i32 addrspace(1)* %122, align 4, !dbg !6
	%123 = getelementptr i8, i8 addrspace(1)* %120, i64 4, !dbg !6
	%124 = bitcast i8 addrspace(1)* %123 to i64 addrspace(1)*, !dbg !6
	store i64 -536858005914051566, i64 addrspace(1)* %124, align 4, !dbg !6
	%125 = getelementptr i8, i8 addrspace(1)* %120, i64 12, !dbg !6
	%126 = bitcast i8 addrspace(1)* %125 to i64 addrspace(1)*, !dbg !6
	store i64 %97, i64 addrspace(1)* %126, align 4, !dbg !6
	%127 = getelementptr i8, i8 addrspace(1)* %120, i64 20, !dbg !6
	%128 = bitcast i8 addrspace(1)* %127 to i64 addrspace(1)*, !dbg !6
	store i64 %98, i64 addrspace(1)* %128, align 4, !dbg !6
	%129 = getelementptr i8, i8 addrspace(1)* %120, i64 28, !dbg !6
	%130 = bitcast i8 addrspace(1)* %129 to i64 addrspace(1)*, !dbg !6
	store i64 %99, i64 addrspace(1)* %130, align 4, !dbg !6
	%131 = getelementptr i8, i8 addrspace(1)* %120, i64 36, !dbg !6
	%132 = bitcast i8 addrspace(1)* %131 to i64 addrspace(1)*, !dbg !6
	store i64 %0, i64 addrspace(1)* %132, align 4, !dbg !6
	br label %133, !dbg !6

133:
	%134 = call i32 @llvm.amdgcn.workgroup.id.x(), !dbg !6
	%135 = call i32 @llvm.amdgcn.workgroup.id.y(), !dbg !6
	%136 = call i32 @llvm.amdgcn.workgroup.id.z(), !dbg !6
	%137 = bitcast half %8 to i16, !dbg !6
	%138 = zext i16 %137 to i32, !dbg !6
	%139 = zext i32 %134 to i64, !dbg !6
	%140 = zext i32 %135 to i64, !dbg !6
	%141 = zext i32 %136 to i64, !dbg !6
	%142 = zext i32 %6 to i64, !dbg !6
	%143 = zext i32 %138 to i64, !dbg !6
	%144 = call i8 addrspace(4)* @llvm.amdgcn.implicitarg.ptr(), !dbg !6
	%145 = getelementptr i8, i8 addrspace(4)* %144, i64 72, !dbg !6
	%146 = bitcast i8 addrspace(4)* %145 to i8 addrspace(1)* addrspace(4)*, !dbg !6
	%147 = load i8 addrspace(1)*, i8 addrspace(1)* addrspace(4)* %146, align 8, !dbg !6
	%148 = bitcast i8 addrspace(1)* %147 to i32 addrspace(1)*, !dbg !6
	%149 = getelementptr i32, i32 addrspace(1)* %148, i64 1, !dbg !6
	%150 = load i32, i32 addrspace(1)* %149, align 4, !dbg !6
	%151 = load atomic i32, i32 addrspace(1)* %148 syncscope("agent") monotonic, align 4, !dbg !6
	br label %152, !dbg !6

152:
	%153 = phi i32 [ %151, %133 ], [ %159, %156 ], !dbg !6
	%154 = add i32 %153, 60, !dbg !6
	%155 = icmp ugt i32 %154, %150, !dbg !6
	br i1 %155, label %179, label %156, !dbg !6

156:
	%157 = add i32 %153, 52, !dbg !6
	%158 = cmpxchg i32 addrspace(1)* %148, i32 %153, i32 %157 syncscope("agent") monotonic monotonic, !dbg !6
	%159 = extractvalue { i32, i1 } %158, 0, !dbg !6
	%160 = extractvalue { i32, i1 } %158, 1, !dbg !6
	br i1 %160, label %161, label %152, !dbg !6

161:
	%162 = add i32 %153, 8, !dbg !6
	%163 = zext i32 %162 to i64, !dbg !6
	%164 = getelementptr i8, i8 addrspace(1)* %147, i64 %163, !dbg !6
	%165 = getelementptr i8, i8 addrspace(1)* %164, i64 0, !dbg !6
	%166 = bitcast i8 addrspace(1)* %165 to i32 addrspace(1)*, !dbg !6
	store i32 210, i32 addrspace(1)* %166, align 4, !dbg !6
	%167 = getelementptr i8, i8 addrspace(1)* %164, i64 4, !dbg !6
	%168 = bitcast i8 addrspace(1)* %167 to i64 addrspace(1)*, !dbg !6
	store i64 -2492265498141388165, i64 addrspace(1)* %168, align 4, !dbg !6
	%169 = getelementptr i8, i8 addrspace(1)* %164, i64 12, !dbg !6
	%170 = bitcast i8 addrspace(1)* %169 to i64 addrspace(1)*, !dbg !6
	store i64 %139, i64 addrspace(1)* %170, align 4, !dbg !6
	%171 = getelementptr i8, i8 addrspace(1)* %164, i64 20, !dbg !6
	%172 = bitcast i8 addrspace(1)* %171 to i64 addrspace(1)*, !dbg !6
	store i64 %140, i64 addrspace(1)* %172, align 4, !dbg !6
	%173 = getelementptr i8, i8 addrspace(1)* %164, i64 28, !dbg !6
	%174 = bitcast i8 addrspace(1)* %173 to i64 addrspace(1)*, !dbg !6
	store i64 %141, i64 addrspace(1)* %174, align 4, !dbg !6
	%175 = getelementptr i8, i8 addrspace(1)* %164, i64 36, !dbg !6
	%176 = bitcast i8 addrspace(1)* %175 to i64 addrspace(1)*, !dbg !6
	store i64 %142, i64 addrspace(1)* %176, align 4, !dbg !6
	%177 = getelementptr i8, i8 addrspace(1)* %164, i64 44, !dbg !6
	%178 = bitcast i8 addrspace(1)* %177 to i64 addrspace(1)*, !dbg !6
	store i64 %143, i64 addrspace(1)* %178, align 4, !dbg !6
	br label %179, !dbg !6

179:
	%180 = call i32 @llvm.amdgcn.workgroup.id.x(), !dbg !6
	%181 = call i32 @llvm.amdgcn.workgroup.id.y(), !dbg !6
	%182 = call i32 @llvm.amdgcn.workgroup.id.z(), !dbg !6
	%183 = zext i32 %180 to i64, !dbg !6
	%184 = zext i32 %181 to i64, !dbg !6
	%185 = zext i32 %182 to i64, !dbg !6
	%186 = call i8 addrspace(4)* @llvm.amdgcn.implicitarg.ptr(), !dbg !6
	%187 = getelementptr i8, i8 addrspace(4)* %186, i64 72, !dbg !6
	%188 = bitcast i8 addrspace(4)* %187 to i8 addrspace(1)* addrspace(4)*, !dbg !6
	%189 = load i8 addrspace(1)*, i8 addrspace(1)* addrspace(4)* %188, align 8, !dbg !6
	%190 = bitcast i8 addrspace(1)* %189 to i32 addrspace(1)*, !dbg !6
	%191 = getelementptr i32, i32 addrspace(1)* %190, i64 1, !dbg !6
	%192 = load i32, i32 addrspace(1)* %191, align 4, !dbg !6
	%193 = load atomic i32, i32 addrspace(1)* %190 syncscope("agent") monotonic, align 4, !dbg !6
	br label %194, !dbg !6

194:
	%195 = phi i32 [ %193, %179 ], [ %201, %198 ], !dbg !6
	%196 = add i32 %195, 44, !dbg !6
	%197 = icmp ugt i32 %196, %192, !dbg !6
	br i1 %197, label %217, label %198, !dbg !6

198:
	%199 = add i32 %195, 36, !dbg !6
	%200 = cmpxchg i32 addrspace(1)* %190, i32 %195, i32 %199 syncscope("agent") monotonic monotonic, !dbg !6
	%201 = extractvalue { i32, i1 } %200, 0, !dbg !6
	%202 = extractvalue { i32, i1 } %200, 1, !dbg !6
	br i1 %202, label %203, label %194, !dbg !6

203:
	%204 = add i32 %195, 8, !dbg !6
	%205 = zext i32 %204 to i64, !dbg !6
	%206 = getelementptr i8, i8 addrspace(1)* %189, i64 %205, !dbg !6
	%207 = getelementptr i8, i8 addrspace(1)* %206, i64 0, !dbg !6
	%208 = bitcast i8 addrspace(1)* %207 to i32 addrspace(1)*, !dbg !6
	store i32 146, i32 addrspace(1)* %208, align 4, !dbg !6
	%209 = getelementptr i8, i8 addrspace(1)* %206, i64 4, !dbg !6
	%210 = bitcast i8 addrspace(1)* %209 to i64 addrspace(1)*, !dbg !6
	store i64 8381263872163724016, i64 addrspace(1)* %210, align 4, !dbg !6
	%211 = getelementptr i8, i8 addrspace(1)* %206, i64 12, !dbg !6
	%212 = bitcast i8 addrspace(1)* %211 to i64 addrspace(1)*, !dbg !6
	store i64 %183, i64 addrspace(1)* %212, align 4, !dbg !6
	%213 = getelementptr i8, i8 addrspace(1)* %206, i64 20, !dbg !6
	%214 = bitcast i8 addrspace(1)* %213 to i64 addrspace(1)*, !dbg !6
	store i64 %184, i64 addrspace(1)* %214, align 4, !dbg !6
	%215 = getelementptr i8, i8 addrspace(1)* %206, i64 28, !dbg !6
	%216 = bitcast i8 addrspace(1)* %215 to i64 addrspace(1)*, !dbg !6
	store i64 %185, i64 addrspace(1)* %216, align 4, !dbg !6
	br label %217, !dbg !6

217:
	ret void, !dbg !6
}

declare i32 @llvm.amdgcn.workitem.id.x()

declare i32 @llvm.amdgcn.workgroup.id.x()

declare i32 @llvm.amdgcn.workgroup.id.y()

declare i32 @llvm.amdgcn.workgroup.id.z()

declare i8 addrspace(4)* @llvm.amdgcn.implicitarg.ptr()

!llvm.dbg.cu = !{!1}
!llvm.module.flags = !{!5}
!llvm.printf.fmts = !{!7, !8, !9, !10, !11}

!0 = !DIFile(filename: ".", directory: ".")
!1 = distinct !DICompileUnit(language: DW_LANG_C, file: !0, producer: "gotriton", isOptimized: true, emissionKind: LineTablesOnly)
!2 = !{}
!3 = !DISubroutineType(cc: DW_CC_normal, types: !2)
!4 = distinct !DISubprogram(name: "print_kernel", linkageName: "print_kernel", scope: !0, file: !0, type: !3, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !1)
!5 = !{i32 2, !"Debug Info Version", i32 3}
!6 = !DILocation(scope: !4)
!7 = !{!"0:0:6b9453deae4996f,pid (%u, %u, %u) idx (%2u) v: (operand 0) %i\0A"}
!8 = !{!"0:0:ce8cfb819f36b0d4,pid (%u, %u, %u) idx (%2u) v: (operand 1) %f\0A"}
!9 = !{!"0:0:f88cb27ceeab1c12,pid (%u, %u, %u) idx () n: %lli\0A"}
!10 = !{!"0:0:dd69b1bbe952127b,pid (%u, %u, %u) idx (%2u) h: 0x%04x\0A"}
!11 = !{!"0:0:74503b15fd223af0,pid (%u, %u, %u) 100%%\0A"}
