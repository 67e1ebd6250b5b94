module {
  tt.func public @canonicalize(%arg0: !tt.ptr<f32>, %arg1: i32, %arg2: tensor<16xf32>) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %0 = arith.addi %c0_i32, %arg1 : i32
    %1 = arith.muli %0, %c1_i32 : i32
    %2 = arith.muli %1, %c0_i32 : i32
    %3 = tt.addptr %arg0, %2 : !tt.ptr<f32>, i32
    %4 = tt.splat %3 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %5 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %6 = tt.addptr %4, %5 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %true = arith.constant true
    %7 = tt.splat %true : i1 -> tensor<16xi1>
    %cst = arith.constant dense<0.000000e+00> : tensor<16xf32>
    %8 = tt.load %6, %7, %cst : tensor<16x!tt.ptr<f32>>
    %9 = tt.broadcast %8 : tensor<16xf32> -> tensor<16xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<16xf32>
    %10 = arith.mulf %cst_0, %9 : tensor<16xf32>
    %11 = arith.addf %cst_0, %10 : tensor<16xf32>
    %12 = arith.select %true, %11, %arg2 : tensor<16xf32>
    %13 = tt.splat %arg1 : i32 -> tensor<16xi32>
    %14 = tt.expand_dims %13 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %15 = tt.broadcast %14 : tensor<16x1xi32> -> tensor<16x4xi32>
    %16 = arith.cmpi sle, %arg1, %arg1 : i32
    %17 = arith.select %16, %12, %arg2 : tensor<16xf32>
    tt.store %6, %17, %7 : tensor<16x!tt.ptr<f32>>
    %18 = tt.trans %15 {order = array<i32: 1, 0>} : tensor<16x4xi32> -> tensor<4x16xi32>
    %19 = tt.reshape %18 : tensor<4x16xi32> -> tensor<64xi32>
    %20 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %21 = tt.addptr %20, %19 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<64xf32>
    tt.store %21, %cst_1 : tensor<64x!tt.ptr<f32>>
    tt.return
  }
}
