module {
  tt.func public @cse_regions(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>) attributes {noinline = false} {
    %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %2 = tt.addptr %1, %0 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %3 = tt.load %2 : tensor<16x!tt.ptr<f32>>
    %4 = arith.mulf %3, %3 : tensor<16xf32>
    %5:2 = "tt.reduce"(%3, %0) <{axis = 0 : i32}> ({
    ^bb0(%arg2: f32, %arg3: i32, %arg4: f32, %arg5: i32):
      %18 = arith.cmpf ogt, %arg2, %arg4 : f32
      %19 = arith.select %18, %arg2, %arg4 : f32
      %20 = arith.select %18, %arg3, %arg5 : i32
      tt.reduce.return %19, %20 : f32, i32
    }) : (tensor<16xf32>, tensor<16xi32>) -> (f32, i32)
    %6:2 = "tt.reduce"(%3, %0) <{axis = 0 : i32}> ({
    ^bb0(%arg2: f32, %arg3: i32, %arg4: f32, %arg5: i32):
      %18 = arith.cmpf ogt, %arg2, %arg4 : f32
      %19 = arith.select %18, %arg2, %arg4 : f32
      %20 = arith.select %18, %arg3, %arg5 : i32
      tt.reduce.return %19, %20 : f32, i32
    }) : (tensor<16xf32>, tensor<16xi32>) -> (f32, i32)
    %7:2 = "tt.reduce"(%3, %0) <{axis = 0 : i32}> ({
    ^bb0(%arg2: f32, %arg3: i32, %arg4: f32, %arg5: i32):
      %18 = arith.cmpf olt, %arg2, %arg4 : f32
      %19 = arith.select %18, %arg2, %arg4 : f32
      %20 = arith.select %18, %arg3, %arg5 : i32
      tt.reduce.return %19, %20 : f32, i32
    }) : (tensor<16xf32>, tensor<16xi32>) -> (f32, i32)
    %8:2 = "tt.reduce"(%4, %0) <{axis = 0 : i32}> ({
    ^bb0(%arg2: f32, %arg3: i32, %arg4: f32, %arg5: i32):
      %18 = arith.cmpf ogt, %arg2, %arg4 : f32
      %19 = arith.select %18, %arg2, %arg4 : f32
      %20 = arith.select %18, %arg3, %arg5 : i32
      tt.reduce.return %19, %20 : f32, i32
    }) : (tensor<16xf32>, tensor<16xi32>) -> (f32, i32)
    %9 = "tt.reduce"(%3) <{axis = 0 : i32}> ({
    ^bb0(%arg2: f32, %arg3: f32):
      %18 = arith.addf %arg2, %arg3 : f32
      tt.reduce.return %18 : f32
    }) : (tensor<16xf32>) -> f32
    %10 = "tt.reduce"(%3) <{axis = 0 : i32}> ({
    ^bb0(%arg2: f32, %arg3: f32):
      %18 = arith.addf %arg3, %arg2 : f32
      tt.reduce.return %18 : f32
    }) : (tensor<16xf32>) -> f32
    %11 = arith.addf %5#0, %6#0 : f32
    %12 = arith.addf %11, %7#0 : f32
    %13 = arith.addf %12, %8#0 : f32
    %14 = arith.addf %13, %9 : f32
    %15 = arith.addf %14, %10 : f32
    %16 = arith.addi %5#1, %6#1 : i32
    tt.store %arg0, %15 : !tt.ptr<f32>
    %17 = tt.bitcast %arg1 : !tt.ptr<f32> -> !tt.ptr<i32>
    tt.store %17, %16 : !tt.ptr<i32>
    tt.return
  }
}
