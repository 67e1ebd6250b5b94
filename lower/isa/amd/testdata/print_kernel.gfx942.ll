target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @print_kernel(i64 %0, i8 addrspace(1)* %1, i8 addrspace(1)* %2) "amdgpu-flat-work-group-size"="1,64" "amdgpu-waves-per-eu"="0, 0" "denormal-fp-math-f32"="ieee" "uniform-work-group-size"="true" !dbg !4 {
3:
	%4 = call i32 @llvm.amdgcn.workitem.id.x()
	%5 = and i32 %4, 63
	%6 = and i32 %5, 63, !dbg !6
	%7 = sub i32 %6, 40, !dbg !6
	%8 = call i32 @llvm.amdgcn.workgroup.id.x(), !dbg !6
	%9 = call i32 @llvm.amdgcn.workgroup.id.y(), !dbg !6
	%10 = call i32 @llvm.amdgcn.workgroup.id.z(), !dbg !6
	%11 = call i8 addrspace(4)* @llvm.amdgcn.implicitarg.ptr(), !dbg !6
	%12 = getelementptr i8, i8 addrspace(4)* %11, i64 72, !dbg !6
	%13 = bitcast i8 addrspace(4)* %12 to i8 addrspace(1)* addrspace(4)*, !dbg !6
	%14 = load i8 addrspace(1)*, i8 addrspace(1)* addrspace(4)* %13, align 8, !dbg !6
	%15 = bitcast i8 addrspace(1)* %14 to i32 addrspace(1)*, !dbg !6
	%16 = getelementptr i32, i32 addrspace(1)* %15, i64 1, !dbg !6
	%17 = load i32, i32 addrspace(1)* %16, align 4, !dbg !6
	%18 = load atomic i32, i32 addrspace(1)* %15 syncscope("agent") monotonic, align 4, !dbg !6
	br label %19, !dbg !6

19:
	%20 = phi i32 [ %18, %3 ], [ %26, %23 ], !dbg !6
	%21 = add i32 %20, 60, !dbg !6
	%22 = icmp ugt i32 %21, %17, !dbg !6
	br i1 %22, label %51, label %23, !dbg !6

23:
	%24 = add i32 %20, 52, !dbg !6
	%25 = cmpxchg i32 addrspace(1)* %15, i32 %20, i32 %24 syncscope("agent") monotonic monotonic, !dbg !6
	%26 = extractvalue { i32, i1 } %25, 0, !dbg !6
	%27 = extractvalue { i32, i1 } %25, 1, !dbg !6
	br i1 %27, label %28, label %19, !dbg !6

28:
	%29 = add i32 %20, 8, !dbg !6
	%30 = zext i32 %29 to i64, !dbg !6
	%31 = getelementptr i8, i8 addrspace(1)* %14, i64 %30, !dbg !6
	%32 = getelementptr i8, i8 addrspace(1)* %31, i64 0, !dbg !6
	%33 = bitcast i8 addrspace(1)* %32 to i32 addrspace(1)*, !dbg !6
	store i32 210, i32 addrspace(1)* %33, align 4, !dbg !6
	%34 = getelementptr i8, i8 addrspace(1)* %31, i64 4, !dbg !6
	%35 = bitcast i8 addrspace(1)* %34 to i64 addrspace(1)*, !dbg !6
	store i64 484494567155210607, i64 addrspace(1)* %35, align 4, !dbg !6
	%36 = getelementptr i8, i8 addrspace(1)* %31, i64 12, !dbg !6
	%37 = bitcast i8 addrspace(1)* %36 to i64 addrspace(1)*, !dbg !6
	%38 = zext i32 %8 to i64, !dbg !6
	store i64 %38, i64 addrspace(1)* %37, align 4, !dbg !6
	%39 = getelementptr i8, i8 addrspace(1)* %31, i64 20, !dbg !6
	%40 = bitcast i8 addrspace(1)* %39 to i64 addrspace(1)*, !dbg !6
	%41 = zext i32 %9 to i64, !dbg !6
	store i64 %41, i64 addrspace(1)* %40, align 4, !dbg !6
	%42 = getelementptr i8, i8 addrspace(1)* %31, i64 28, !dbg !6
	%43 = bitcast i8 addrspace(1)* %42 to i64 addrspace(1)*, !dbg !6
	%44 = zext i32 %10 to i64, !dbg !6
	store i64 %44, i64 addrspace(1)* %43, align 4, !dbg !6
	%45 = getelementptr i8, i8 addrspace(1)* %31, i64 36, !dbg !6
	%46 = bitcast i8 addrspace(1)* %45 to i64 addrspace(1)*, !dbg !6
	%47 = zext i32 %6 to i64, !dbg !6
	store i64 %47, i64 addrspace(1)* %46, align 4, !dbg !6
	%48 = getelementptr i8, i8 addrspace(1)* %31, i64 44, !dbg !6
	%49 = bitcast i8 addrspace(1)* %48 to i64 addrspace(1)*, !dbg !6
	%50 = zext i32 %7 to i64, !dbg !6
	store i64 %50, i64 addrspace(1)* %49, align 4, !dbg !6
	br label %51, !dbg !6

51:
	%52 = call i8 addrspace(4)* @llvm.amdgcn.implicitarg.ptr(), !dbg !6
	%53 = getelementptr i8, i8 addrspace(4)* %52, i64 72, !dbg !6
	%54 = bitcast i8 addrspace(4)* %53 to i8 addrspace(1)* addrspace(4)*, !dbg !6
	%55 = load i8 addrspace(1)*, i8 addrspace(1)* addrspace(4)* %54, align 8, !dbg !6
	%56 = bitcast i8 addrspace(1)* %55 to i32 addrspace(1)*, !dbg !6
	%57 = getelementptr i32, i32 addrspace(1)* %56, i64 1, !dbg !6
	%58 = load i32, i32 addrspace(1)* %57, align 4, !dbg !6
	%59 = load atomic i32, i32 addrspace(1)* %56 syncscope("agent") monotonic, align 4, !dbg !6
	%60 = sitofp i32 %7 to half, !dbg !6
	br label %61, !dbg !6

61:
	%62 = phi i32 [ %59, %51 ], [ %68, %65 ], !dbg !6
	%63 = add i32 %62, 60, !dbg !6
	%64 = icmp ugt i32 %63, %58, !dbg !6
	br i1 %64, label %93, label %65, !dbg !6

65:
	%66 = add i32 %62, 52, !dbg !6
	%67 = cmpxchg i32 addrspace(1)* %56, i32 %62, i32 %66 syncscope("agent") monotonic monotonic, !dbg !6
	%68 = extractvalue { i32, i1 } %67, 0, !dbg !6
	%69 = extractvalue { i32, i1 } %67, 1, !dbg !6
	br i1 %69, label %70, label %61, !dbg !6

70:
	%71 = add i32 %62, 8, !dbg !6
	%72 = zext i32 %71 to i64, !dbg !6
	%73 = getelementptr i8, i8 addrspace(1)* %55, i64 %72, !dbg !6
	%74 = getelementptr i8, i8 addrspace(1)* %73, i64 0, !dbg !6
	%75 = bitcast i8 addrspace(1)* %74 to i32 addrspace(1)*, !dbg !6
	store i32 210, i32 addrspace(1)* %75, align 4, !dbg !6
	%76 = getelementptr i8, i8 addrspace(1)* %73, i64 4, !dbg !6
	%77 = bitcast i8 addrspace(1)* %76 to i64 addrspace(1)*, !dbg !6
	store i64 -3563196671016390444, i64 addrspace(1)* %77, align 4, !dbg !6
	%78 = getelementptr i8, i8 addrspace(1)* %73, i64 12, !dbg !6
	%79 = bitcast i8 addrspace(1)* %78 to i64 addrspace(1)*, !dbg !6
	%80 = zext i32 %8 to i64, !dbg !6
	store i64 %80, i64 addrspace(1)* %79, align 4, !dbg !6
	%81 = getelementptr i8, i8 addrspace(1)* %73, i64 20, !dbg !6
	%82 = bitcast i8 addrspace(1)* %81 to i64 addrspace(1)*, !dbg !6
	%83 = zext i32 %9 to i64, !dbg !6
	store i64 %83, i64 addrspace(1)* %82, align 4, !dbg !6
	%84 = getelementptr i8, i8 addrspace(1)* %73, i64 28, !dbg !6
	%85 = bitcast i8 addrspace(1)* %84 to i64 addrspace(1)*, !dbg !6
	%86 = zext i32 %10 to i64, !dbg !6
	store i64 %86, i64 addrspace(1)* %85, align 4, !dbg !6
	%87 = getelementptr i8, i8 addrspace(1)* %73, i64 36, !dbg !6
	%88 = bitcast i8 addrspace(1)* %87 to i64 addrspace(1)*, !dbg !6
	%89 = zext i32 %6 to i64, !dbg !6
	store i64 %89, i64 addrspace(1)* %88, align 4, !dbg !6
	%90 = getelementptr i8, i8 addrspace(1)* %73, i64 44, !dbg !6
	%91 = bitcast i8 addrspace(1)* %90 to double addrspace(1)*, !dbg !6
	%92 = fpext half %60 to double, !dbg !6
	store double %92, double addrspace(1)* %91, align 4, !dbg !6
	br label %93, !dbg !6

93:
	%94 = call i32 @llvm.amdgcn.workgroup.id.x(), !dbg !6
	%95 = call i32 @llvm.amdgcn.workgroup.id.y(), !dbg !6
	%96 = call i32 @llvm.amdgcn.workgroup.id.z(), !dbg !6
	%97 = call i8 addrspace(4)* @llvm.amdgcn.implicitarg.ptr(), !dbg !6
	%98 = getelementptr i8, i8 addrspace(4)* %97, i64 72, !dbg !6
	%99 = bitcast i8 addrspace(4)* %98 to i8 addrspace(1)* addrspace(4)*, !dbg !6
	%100 = load i8 addrspace(1)*, i8 addrspace(1)* addrspace(4)* %99, align 8, !dbg !6
	%101 = bitcast i8 addrspace(1)* %100 to i32 addrspace(1)*, !dbg !6
	%102 = getelementptr i32, i32 addrspace(1)* %101, i64 1, !dbg !6
	%103 = load i32, i32 addrspace(1)* %102, align 4, !dbg !6
	%104 = load atomic i32, i32 addrspace(1)* %101 syncscope("agent") monotonic, align 4, !dbg !6
	br label %105, !dbg !6

105:
	%106 = phi i32 [ %104, %93 ], [ %112, %109 ], !dbg !6
	%107 = add i32 %106, 52, !dbg !6
	%108 = icmp ugt i32 %107, %103, !dbg !6
	br i1 %108, label %133, label %109, !dbg !6

109:
	%110 = add i32 %106, 44, !dbg !6
	%111 = cmpxchg i32 addrspace(1)* %101, i32 %106, i32 %110 syncscope("agent") monotonic monotonic, !dbg !6
	%112 = extractvalue { i32, i1 } %111, 0, !dbg !6
	%113 = extractvalue { i32, i1 } %111, 1, !dbg !6
	br i1 %113, label %114, label %105, !dbg !6

114:
	%115 = add i32 %106, 8, !dbg !6
	%116 = zext i32 %115 to i64, !dbg !6
	%117 = getelementptr i8, i8 addrspace(1)* %100, i64 %116, !dbg !6
	%118 = getelementptr i8, i8 addrspace(1)* %117, i64 0, !dbg !6
	%119 = bitcast i8 addrspace(1)* %118 to i32 addrspace(1)*, !dbg !6
	store i32 178, i32 addrspace(1)* %119, align 4, !dbg !6
	%120 = getelementptr i8, i8 addrspace(1)* %117, i64 4, !dbg !6
	%121 = bitcast i8 addrspace(1)* %120 to i64 addrspace(1)*, !dbg !6
	store i64 -536858005914051566, i64 addrspace(1)* %121, align 4, !dbg !6
	%122 = getelementptr i8, i8 addrspace(1)* %117, i64 12, !dbg !6
	%123 = bitcast i8 addrspace(1)* %122 to i64 addrspace(1)*, !dbg !6
	%124 = zext i32 %94 to i64, !dbg !6
	store i64 %124, i64 addrspace(1)* %123, align 4, !dbg !6
	%125 = getelementptr i8, i8 addrspace(1)* %117, i64 20, !dbg !6
	%126 = bitcast i8 addrspace(1)* %125 to i64 addrspace(1)*, !dbg !6
	%127 = zext i32 %95 to i64, !dbg !6
	store i64 %127, i64 addrspace(1)* %126, align 4, !dbg !6
	%128 = getelementptr i8, i8 addrspace(1)* %117, i64 28, !dbg !6
	%129 = bitcast i8 addrspace(1)* %128 to i64 addrspace(1)*, !dbg !6
	%130 = zext i32 %96 to i64, !dbg !6
	store i64 %130, i64 addrspace(1)* %129, align 4, !dbg !6
	%131 = getelementptr i8, i8 addrspace(1)* %117, i64 36, !dbg !6
	%132 = bitcast i8 addrspace(1)* %131 to i64 addrspace(1)*, !dbg !6
	store i64 %0, i64 addrspace(1)* %132, align 4, !dbg !6
	br label %133, !dbg !6

133:
	%134 = call i32 @llvm.amdgcn.workgroup.id.x(), !dbg !6
	%135 = call i32 @llvm.amdgcn.workgroup.id.y(), !dbg !6
	%136 = call i32 @llvm.amdgcn.workgroup.id.z(), !dbg !6
	%137 = call i8 addrspace(4)* @llvm.amdgcn.implicitarg.ptr(), !dbg !6
	%138 = getelementptr i8, i8 addrspace(4)* %137, i64 72, !dbg !6
	%139 = bitcast i8 addrspace(4)* %138 to i8 addrspace(1)* addrspace(4)*, !dbg !6
	%140 = load i8 addrspace(1)*, i8 addrspace(1)* addrspace(4)* %139, align 8, !dbg !6
	%141 = bitcast i8 addrspace(1)* %140 to i32 addrspace(1)*, !dbg !6
	%142 = getelementptr i32, i32 addrspace(1)* %141, i64 1, !dbg !6
	%143 = load i32, i32 addrspace(1)* %142, align 4, !dbg !6
	%144 = load atomic i32, i32 addrspace(1)* %141 syncscope("agent") monotonic, align 4, !dbg !6
	br label %145, !dbg !6

145:
	%146 = phi i32 [ %144, %133 ], [ %152, %149 ], !dbg !6
	%147 = add i32 %146, 60, !dbg !6
	%148 = icmp ugt i32 %147, %143, !dbg !6
	br i1 %148, label %179, label %149, !dbg !6

149:
	%150 = add i32 %146, 52, !dbg !6
	%151 = cmpxchg i32 addrspace(1)* %141, i32 %146, i32 %150 syncscope("agent") monotonic monotonic, !dbg !6
	%152 = extractvalue { i32, i1 } %151, 0, !dbg !6
	%153 = extractvalue { i32, i1 } %151, 1, !dbg !6
	br i1 %153, label %154, label %145, !dbg !6

154:
	%155 = add i32 %146, 8, !dbg !6
	%156 = zext i32 %155 to i64, !dbg !6
	%157 = getelementptr i8, i8 addrspace(1)* %140, i64 %156, !dbg !6
	%158 = getelementptr i8, i8 addrspace(1)* %157, i64 0, !dbg !6
	%159 = bitcast i8 addrspace(1)* %158 to i32 addrspace(1)*, !dbg !6
	store i32 210, i32 addrspace(1)* %159, align 4, !dbg !6
	%160 = getelementptr i8, i8 addrspace(1)* %157, i64 4, !dbg !6
	%161 = bitcast i8 addrspace(1)* %160 to i64 addrspace(1)*, !dbg !6
	store i64 -2492265498141388165, i64 addrspace(1)* %161, align 4, !dbg !6
	%162 = getelementptr i8, i8 addrspace(1)* %157, i64 12, !dbg !6
	%163 = bitcast i8 addrspace(1)* %162 to i64 addrspace(1)*, !dbg !6
	%164 = zext i32 %134 to i64, !dbg !6
	store i64 %164, i64 addrspace(1)* %163, align 4, !dbg !6
	%165 = getelementptr i8, i8 addrspace(1)* %157, i64 20, !dbg !6
	%166 = bitcast i8 addrspace(1)* %165 to i64 addrspace(1)*, !dbg !6
	%167 = zext i32 %135 to i64, !dbg !6
	store i64 %167, i64 addrspace(1)* %166, align 4, !dbg !6
	%168 = getelementptr i8, i8 addrspace(1)* %157, i64 28, !dbg !6
	%169 = bitcast i8 addrspace(1)* %168 to i64 addrspace(1)*, !dbg !6
	%170 = zext i32 %136 to i64, !dbg !6
	store i64 %170, i64 addrspace(1)* %169, align 4, !dbg !6
	%171 = getelementptr i8, i8 addrspace(1)* %157, i64 36, !dbg !6
	%172 = bitcast i8 addrspace(1)* %171 to i64 addrspace(1)*, !dbg !6
	%173 = zext i32 %6 to i64, !dbg !6
	store i64 %173, i64 addrspace(1)* %172, align 4, !dbg !6
	%174 = getelementptr i8, i8 addrspace(1)* %157, i64 44, !dbg !6
	%175 = bitcast i8 addrspace(1)* %174 to i64 addrspace(1)*, !dbg !6
	%176 = bitcast half %60 to i16, !dbg !6
	%177 = zext i16 %176 to i32, !dbg !6
	%178 = zext i32 %177 to i64, !dbg !6
	store i64 %178, i64 addrspace(1)* %175, align 4, !dbg !6
	br label %179, !dbg !6

179:
	%180 = call i32 @llvm.amdgcn.workgroup.id.x(), !dbg !6
	%181 = call i32 @llvm.amdgcn.workgroup.id.y(), !dbg !6
	%182 = call i32 @llvm.amdgcn.workgroup.id.z(), !dbg !6
	%183 = call i8 addrspace(4)* @llvm.amdgcn.implicitarg.ptr(), !dbg !6
	%184 = getelementptr i8, i8 addrspace(4)* %183, i64 72, !dbg !6
	%185 = bitcast i8 addrspace(4)* %184 to i8 addrspace(1)* addrspace(4)*, !dbg !6
	%186 = load i8 addrspace(1)*, i8 addrspace(1)* addrspace(4)* %185, align 8, !dbg !6
	%187 = bitcast i8 addrspace(1)* %186 to i32 addrspace(1)*, !dbg !6
	%188 = getelementptr i32, i32 addrspace(1)* %187, i64 1, !dbg !6
	%189 = load i32, i32 addrspace(1)* %188, align 4, !dbg !6
	%190 = load atomic i32, i32 addrspace(1)* %187 syncscope("agent") monotonic, align 4, !dbg !6
	br label %191, !dbg !6

191:
	%192 = phi i32 [ %190, %179 ], [ %198, %195 ], !dbg !6
	%193 = add i32 %192, 44, !dbg !6
	%194 = icmp ugt i32 %193, %189, !dbg !6
	br i1 %194, label %217, label %195, !dbg !6

195:
	%196 = add i32 %192, 36, !dbg !6
	%197 = cmpxchg i32 addrspace(1)* %187, i32 %192, i32 %196 syncscope("agent") monotonic monotonic, !dbg !6
	%198 = extractvalue { i32, i1 } %197, 0, !dbg !6
	%199 = extractvalue { i32, i1 } %197, 1, !dbg !6
	br i1 %199, label %200, label %191, !dbg !6

200:
	%201 = add i32 %192, 8, !dbg !6
	%202 = zext i32 %201 to i64, !dbg !6
	%203 = getelementptr i8, i8 addrspace(1)* %186, i64 %202, !dbg !6
	%204 = getelementptr i8, i8 addrspace(1)* %203, i64 0, !dbg !6
	%205 = bitcast i8 addrspace(1)* %204 to i32 addrspace(1)*, !dbg !6
	store i32 146, i32 addrspace(1)* %205, align 4, !dbg !6
	%206 = getelementptr i8, i8 addrspace(1)* %203, i64 4, !dbg !6
	%207 = bitcast i8 addrspace(1)* %206 to i64 addrspace(1)*, !dbg !6
	store i64 8381263872163724016, i64 addrspace(1)* %207, align 4, !dbg !6
	%208 = getelementptr i8, i8 addrspace(1)* %203, i64 12, !dbg !6
	%209 = bitcast i8 addrspace(1)* %208 to i64 addrspace(1)*, !dbg !6
	%210 = zext i32 %180 to i64, !dbg !6
	store i64 %210, i64 addrspace(1)* %209, align 4, !dbg !6
	%211 = getelementptr i8, i8 addrspace(1)* %203, i64 20, !dbg !6
	%212 = bitcast i8 addrspace(1)* %211 to i64 addrspace(1)*, !dbg !6
	%213 = zext i32 %181 to i64, !dbg !6
	store i64 %213, i64 addrspace(1)* %212, align 4, !dbg !6
	%214 = getelementptr i8, i8 addrspace(1)* %203, i64 28, !dbg !6
	%215 = bitcast i8 addrspace(1)* %214 to i64 addrspace(1)*, !dbg !6
	%216 = zext i32 %182 to i64, !dbg !6
	store i64 %216, i64 addrspace(1)* %215, align 4, !dbg !6
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
