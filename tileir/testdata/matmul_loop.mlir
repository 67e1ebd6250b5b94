module {
  tt.func public @matmul_kernel(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f32>, %arg3: i32) attributes {noinline = false} {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %2 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %3 = tt.expand_dims %2 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %cst = arith.constant dense<32> : tensor<64x1xi32>
    %4 = arith.muli %1, %cst : tensor<64x1xi32>
    %5 = tt.broadcast %4 : tensor<64x1xi32> -> tensor<64x32xi32>
    %6 = tt.broadcast %3 : tensor<1x32xi32> -> tensor<64x32xi32>
    %7 = arith.addi %5, %6 : tensor<64x32xi32>
    %8 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
    %9 = tt.addptr %8, %7 : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %10 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %11 = tt.expand_dims %10 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %12 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %13 = tt.expand_dims %12 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %cst_0 = arith.constant dense<64> : tensor<32x1xi32>
    %14 = arith.muli %11, %cst_0 : tensor<32x1xi32>
    %15 = tt.broadcast %14 : tensor<32x1xi32> -> tensor<32x64xi32>
    %16 = tt.broadcast %13 : tensor<1x64xi32> -> tensor<32x64xi32>
    %17 = arith.addi %15, %16 : tensor<32x64xi32>
    %18 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
    %19 = tt.addptr %18, %17 : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %20:3 = scf.for %arg4 = %c0_i32 to %arg3 step %c32_i32 iter_args(%arg5 = %cst_1, %arg6 = %9, %arg7 = %19) -> (tensor<64x64xf32>, tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>)  : i32 {
      %31 = tt.load %arg6 : tensor<64x32x!tt.ptr<f16>>
      %32 = tt.load %arg7 : tensor<32x64x!tt.ptr<f16>>
      %33 = tt.dot %31, %32, %arg5 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
      %c32_i32_3 = arith.constant 32 : i32
      %34 = tt.splat %c32_i32_3 : i32 -> tensor<64x32xi32>
      %c32_i32_4 = arith.constant 32 : i32
      %c64_i32 = arith.constant 64 : i32
      %35 = arith.muli %c32_i32_4, %c64_i32 : i32
      %36 = tt.splat %35 : i32 -> tensor<32x64xi32>
      %37 = tt.addptr %arg6, %34 : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
      %38 = tt.addptr %arg7, %36 : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
      scf.yield %33, %37, %38 : tensor<64x64xf32>, tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>
    }
    %21 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %22 = tt.expand_dims %21 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %23 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %24 = tt.expand_dims %23 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %cst_2 = arith.constant dense<64> : tensor<64x1xi32>
    %25 = arith.muli %22, %cst_2 : tensor<64x1xi32>
    %26 = tt.broadcast %25 : tensor<64x1xi32> -> tensor<64x64xi32>
    %27 = tt.broadcast %24 : tensor<1x64xi32> -> tensor<64x64xi32>
    %28 = arith.addi %26, %27 : tensor<64x64xi32>
    %29 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    %30 = tt.addptr %29, %28 : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
    tt.store %30, %20#0 : tensor<64x64x!tt.ptr<f32>>
    tt.return
  }
}
