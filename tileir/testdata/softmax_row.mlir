module {
  tt.func public @softmax_kernel(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>, %arg2: i32, %arg3: i32) attributes {noinline = false} {
    %0 = tt.get_program_id x : i32
    %1 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %2 = tt.splat %arg3 : i32 -> tensor<128xi32>
    %3 = arith.cmpi slt, %1, %2 : tensor<128xi32>
    %4 = arith.muli %0, %arg2 : i32
    %5 = tt.addptr %arg1, %4 : !tt.ptr<f32>, i32
    %6 = tt.splat %5 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %7 = tt.addptr %6, %1 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %cst = arith.constant dense<0xFF800000> : tensor<128xf32>
    %8 = tt.load %7, %3, %cst : tensor<128x!tt.ptr<f32>>
    %9 = "tt.reduce"(%8) <{axis = 0 : i32}> ({
    ^bb0(%arg4: f32, %arg5: f32):
      %20 = arith.maxnumf %arg4, %arg5 : f32
      tt.reduce.return %20 : f32
    }) : (tensor<128xf32>) -> f32
    %10 = tt.splat %9 : f32 -> tensor<128xf32>
    %11 = arith.subf %8, %10 : tensor<128xf32>
    %12 = math.exp %11 : tensor<128xf32>
    %13 = "tt.reduce"(%12) <{axis = 0 : i32}> ({
    ^bb0(%arg4: f32, %arg5: f32):
      %20 = arith.addf %arg4, %arg5 : f32
      tt.reduce.return %20 : f32
    }) : (tensor<128xf32>) -> f32
    %14 = arith.muli %0, %arg2 : i32
    %15 = tt.addptr %arg0, %14 : !tt.ptr<f32>, i32
    %16 = tt.splat %15 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %17 = tt.addptr %16, %1 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %18 = tt.splat %13 : f32 -> tensor<128xf32>
    %19 = arith.divf %12, %18 : tensor<128xf32>
    tt.store %17, %19, %3 : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
