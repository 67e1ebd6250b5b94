module {
  tt.func public @fold(%arg0: !tt.ptr<i32>, %arg1: !tt.ptr<f32>) attributes {noinline = false} {
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %0 = arith.muli %c3_i32, %c4_i32 : i32
    %1 = arith.addi %0, %c3_i32 : i32
    %2 = arith.divsi %1, %c4_i32 : i32
    %c0_i32 = arith.constant 0 : i32
    %3 = arith.divsi %1, %c0_i32 : i32
    %4 = arith.cmpi slt, %2, %c4_i32 : i32
    %5 = arith.select %4, %1, %2 : i32
    %6 = tt.splat %5 : i32 -> tensor<16xi32>
    %7 = tt.expand_dims %6 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %c-1_i32 = arith.constant -1 : i32
    %8 = arith.shrui %c-1_i32, %c4_i32 : i32
    %9 = arith.extui %c-1_i32 : i32 to i64
    %10 = arith.sitofp %c-1_i32 : i32 to f32
    %cst = arith.constant 2.000000e+00 : f32
    %11 = math.sqrt %cst : f32
    %12 = arith.truncf %11 : f32 to f16
    %13 = arith.cmpf olt, %10, %cst : f32
    %14 = tt.splat %arg0 : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
    %15 = tt.reshape %7 : tensor<1x16xi32> -> tensor<16xi32>
    tt.store %14, %15 : tensor<16x!tt.ptr<i32>>
    tt.store %arg0, %3 : !tt.ptr<i32>
    tt.store %arg0, %8 : !tt.ptr<i32>
    %16 = arith.trunci %9 : i64 to i32
    tt.store %arg0, %16 : !tt.ptr<i32>
    %17 = arith.extf %12 : f16 to f32
    %18 = arith.select %13, %17, %10 : f32
    tt.store %arg1, %18 : !tt.ptr<f32>
    tt.return
  }
}
