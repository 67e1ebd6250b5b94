module {
  tt.func public @cse(%arg0: !tt.ptr<f32>, %arg1: i32) attributes {noinline = false} {
    %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %1 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %2 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %3 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %4 = tt.addptr %2, %0 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %5 = tt.addptr %3, %1 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %6 = tt.load %4 : tensor<16x!tt.ptr<f32>>
    %7 = tt.load %5 : tensor<16x!tt.ptr<f32>>
    %8 = arith.addf %6, %7 : tensor<16xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %9 = scf.for %arg2 = %c0_i32 to %arg1 step %c1_i32 iter_args(%arg3 = %8) -> (tensor<16xf32>)  : i32 {
      %10 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
      %11 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
      %12 = tt.addptr %11, %10 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
      %13 = tt.load %12 : tensor<16x!tt.ptr<f32>>
      %14 = arith.addf %arg3, %13 : tensor<16xf32>
      %c1_i32_0 = arith.constant 1 : i32
      scf.yield %14 : tensor<16xf32>
    }
    tt.store %4, %9 : tensor<16x!tt.ptr<f32>>
    tt.return
  }
}
