module {
  tt.func public @all_ops(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32>, %arg2: !tt.ptr<f16>, %arg3: i64, %arg4: !tt.ptr<f8E4M3FN>) attributes {noinline = false} {
    %0 = tt.get_num_programs y : i32
    %1 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %2 = arith.sitofp %1 : tensor<4xi32> to tensor<4xf32>
    %3 = arith.uitofp %1 : tensor<4xi32> to tensor<4xf32>
    %4 = arith.fptoui %2 : tensor<4xf32> to tensor<4xi32>
    %5 = arith.fptosi %2 : tensor<4xf32> to tensor<4xi64>
    %6 = arith.extui %1 : tensor<4xi32> to tensor<4xi64>
    %7 = arith.trunci %6 : tensor<4xi64> to tensor<4xi32>
    %8 = arith.extsi %0 : i32 to i64
    %9 = arith.truncf %2 : tensor<4xf32> to tensor<4xf16>
    %10 = arith.extf %9 : tensor<4xf16> to tensor<4xf32>
    %11 = arith.truncf %10 : tensor<4xf32> to tensor<4xbf16>
    %12 = arith.extf %9 : tensor<4xf16> to tensor<4xf32>
    %13 = tt.fp_to_fp %2, rounding = rtne : tensor<4xf32> -> tensor<4xf8E4M3FN>
    %14 = tt.fp_to_fp %13 : tensor<4xf8E4M3FN> -> tensor<4xf32>
    %15 = arith.bitcast %2 : tensor<4xf32> to tensor<4xi32>
    %16 = tt.bitcast %x_ptr : !tt.ptr<f32> -> !tt.ptr<i32>
    %17 = tt.int_to_ptr %arg3 : i64 -> !tt.ptr<f32>
    %18 = tt.ptr_to_int %17 : !tt.ptr<f32> -> i64
    %19 = tt.reshape %2 allow_reorder : tensor<4xf32> -> tensor<2x2xf32>
    %20 = tt.trans %19 {order = array<i32: 1, 0>} : tensor<2x2xf32> -> tensor<2x2xf32>
    %21 = tt.join %2, %2 : tensor<4xf32> -> tensor<4x2xf32>
    %outLHS, %outRHS = tt.split %21 : tensor<4x2xf32> -> tensor<4xf32>
    %22 = tt.cat %outLHS, %outRHS : tensor<4xf32> -> tensor<8xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %23 = tt.splat %cst : f32 -> tensor<4xf32>
    %cst_0 = arith.constant 1.000000e+00 : f32
    %24 = tt.splat %cst_0 : f32 -> tensor<4xf32>
    %25 = tt.clampf %2, %23, %24, propagateNan = none : tensor<4xf32>
    %26 = tt.precise_sqrt %2 : tensor<4xf32>
    %27 = tt.precise_divf %2, %2 : tensor<4xf32>
    %28 = tt.mulhiui %1, %1 : tensor<4xi32>
    %29 = tt.histogram %1 : tensor<4xi32> -> tensor<8xi32>
    %30 = arith.cmpf une, %2, %2 : tensor<4xf32>
    %31 = arith.select %30, %2, %2 : tensor<4xi1>, tensor<4xf32>
    %32 = math.fma %2, %2, %2 : tensor<4xf32>
    %33 = math.rsqrt %2 : tensor<4xf32>
    %34 = math.absi %1 : tensor<4xi32>
    %35 = arith.divui %1, %1 : tensor<4xi32>
    %36 = arith.remsi %1, %1 : tensor<4xi32>
    %c-1_i64 = arith.constant -1 : i64
    %false = arith.constant false
    %cst_1 = arith.constant 1.000980e-01 : bf16
    %cst_2 = arith.constant 0x7E00 : f16
    %cst_3 = arith.constant dense<true> : tensor<4xi1>
    %37 = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %38 = tt.addptr %37, %1 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    %39 = tt.splat %0 : i32 -> tensor<4xi32>
    %40 = arith.cmpi slt, %1, %39 : tensor<4xi32>
    %41 = tt.atomic_rmw fadd, relaxed, gpu, %38, %2, %40 : (tensor<4x!tt.ptr<f32>>, tensor<4xf32>, tensor<4xi1>) -> tensor<4xf32>
    %42 = tt.load %38 cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<4x!tt.ptr<f32>>
    tt.store %38, %42 cacheModifier = wb evictionPolicy = evict_first : tensor<4x!tt.ptr<f32>>
    %c64_i64 = arith.constant 64 : i64
    %c1_i64 = arith.constant 1 : i64
    %c0_i32 = arith.constant 0 : i32
    %43 = tt.make_tensor_ptr %arg2, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x16xf16>>
    %44 = tt.load %43 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf16>>
    tt.store %43, %44 {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<16x16xf16>>
    %c16_i32 = arith.constant 16 : i32
    %45 = tt.advance %43, [%c0_i32, %c16_i32] : <tensor<16x16xf16>>
    %c64_i32 = arith.constant 64 : i32
    %46 = tt.make_tensor_descriptor %arg2, [%c64_i32, %c64_i32], [%c64_i64, %c1_i64] : <f16>, <tensor<16x16xf16>>
    %47 = tt.descriptor_load %46[%c0_i32, %c0_i32] : !tt.tensordesc<tensor<16x16xf16>> -> tensor<16x16xf16>
    tt.descriptor_store %46[%c0_i32, %c0_i32], %47 : !tt.tensordesc<tensor<16x16xf16>>, tensor<16x16xf16>
    %48 = arith.extf %44 : tensor<16x16xf16> to tensor<16x16xf32>
    %49 = arith.extf %47 : tensor<16x16xf16> to tensor<16x16xf32>
    %cst_4 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %50 = tt.dot %48, %49, %cst_4, inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %51 = tt.extern_elementwise %2 {libname = "libdevice", libpath = "/lib/libdevice.10.bc", pure = true, symbol = "__nv_asinf"} : (tensor<4xf32>) -> tensor<4xf32>
    %52 = tt.elementwise_inline_asm "shl.b32 $0, $1, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %1 : tensor<4xi32> -> tensor<4xi32>
    %53 = "tt.scan"(%2) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %57 = arith.addf %arg5, %arg6 : f32
      tt.scan.return %57 : f32
    }) : (tensor<4xf32>) -> tensor<4xf32>
    tt.print " x: " {hex = false, isSigned = array<i32: 1, 0>} : %2, %1 : tensor<4xf32>, tensor<4xi32>
    tt.print "hello" {hex = false, isSigned = array<i32>}
    %54 = arith.cmpi sge, %1, %1 : tensor<4xi32>
    tt.assert %54, "r \22ok\22\0A" : tensor<4xi1>
    %55 = arith.cmpi sge, %0, %c0_i32 : i32
    llvm.intr.assume %55 : i1
    gpu.barrier
    %56 = "tt.experimental_unknown"(%2) {flag} : (tensor<4xf32>) -> tensor<4xf32>
    tt.return
  }
}
