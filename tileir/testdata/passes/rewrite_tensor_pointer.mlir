module {
  tt.func public @block_ptr_kernel(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32) attributes {noinline = false} {
    %0 = tt.get_program_id x : i32
    %c32_i32 = arith.constant 32 : i32
    %1 = arith.muli %0, %c32_i32 : i32
    %2 = arith.extsi %arg3 : i32 to i64
    %3 = arith.extsi %arg4 : i32 to i64
    %4 = arith.extsi %arg5 : i32 to i64
    %c1_i64 = arith.constant 1 : i64
    %c0_i32 = arith.constant 0 : i32
    %5 = tt.make_tensor_ptr %arg0, [%2, %3], [%4, %c1_i64], [%1, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x32xf32>>
    %6 = arith.extsi %arg6 : i32 to i64
    %7 = tt.make_tensor_ptr %arg1, [%2, %3], [%6, %c1_i64], [%1, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x32xf32>>
    %cst = arith.constant dense<0.000000e+00> : tensor<32xf32>
    %c31_i32 = arith.constant 31 : i32
    %8 = arith.addi %arg4, %c31_i32 : i32
    %9 = arith.divsi %8, %c32_i32 : i32
    %c1_i32 = arith.constant 1 : i32
    %10:3 = scf.for %arg7 = %c0_i32 to %9 step %c1_i32 iter_args(%arg8 = %5, %arg9 = %7, %arg10 = %cst) -> (!tt.ptr<tensor<32x32xf32>>, !tt.ptr<tensor<32x32xf32>>, tensor<32xf32>)  : i32 {
      %12 = tt.load %arg8 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<32x32xf32>>
      %13 = "tt.reduce"(%12) <{axis = 1 : i32}> ({
      ^bb0(%arg11: f32, %arg12: f32):
        %19 = arith.addf %arg11, %arg12 : f32
        tt.reduce.return %19 : f32
      }) : (tensor<32x32xf32>) -> tensor<32xf32>
      %14 = arith.addf %arg10, %13 : tensor<32xf32>
      %cst_0 = arith.constant dense<2.000000e+00> : tensor<32x32xf32>
      %15 = arith.mulf %12, %cst_0 : tensor<32x32xf32>
      %cst_1 = arith.constant dense<1.000000e+00> : tensor<32x32xf32>
      %16 = arith.addf %15, %cst_1 : tensor<32x32xf32>
      tt.store %arg9, %16 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x32xf32>>
      %17 = tt.advance %arg8, [%c0_i32, %c32_i32] : <tensor<32x32xf32>>
      %18 = tt.advance %arg9, [%c0_i32, %c32_i32] : <tensor<32x32xf32>>
      scf.yield %17, %18, %14 : !tt.ptr<tensor<32x32xf32>>, !tt.ptr<tensor<32x32xf32>>, tensor<32xf32>
    }
    %11 = tt.make_tensor_ptr %arg2, [%2], [%c1_i64], [%1] {order = array<i32: 0>} : <tensor<32xf32>>
    tt.store %11, %10#2 {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<32xf32>>
    tt.return
  }
}
