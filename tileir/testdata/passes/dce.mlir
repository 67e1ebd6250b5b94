module {
  tt.func public @dce(%arg0: !tt.ptr<f32>, %arg1: i32) attributes {noinline = false} {
    %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %2 = tt.addptr %1, %0 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %3 = tt.load %2 : tensor<16x!tt.ptr<f32>>
    %4 = arith.addf %3, %3 : tensor<16xf32>
    %5 = math.exp %4 : tensor<16xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %6 = scf.for %arg2 = %c0_i32 to %arg1 step %c1_i32 iter_args(%arg3 = %3) -> (tensor<16xf32>)  : i32 {
      %8 = arith.addf %arg3, %arg3 : tensor<16xf32>
      scf.yield %8 : tensor<16xf32>
    }
    %7 = scf.for %arg2 = %c0_i32 to %arg1 step %c1_i32 iter_args(%arg3 = %3) -> (tensor<16xf32>)  : i32 {
      tt.store %2, %arg3 : tensor<16x!tt.ptr<f32>>
      scf.yield %arg3 : tensor<16xf32>
    }
    tt.return
  }
}
