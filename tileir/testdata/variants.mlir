// Spellings MLIR accepts that the printer normalizes: no visibility, 0-D tensors, spaces,
// short float literals, an old-style reduce with its axis in the attribute dictionary.
tt.func @variants(%ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %mask : i1, %v : tensor<1x2x4xf32>, %s: i64) {
  %other = arith.constant 0.0e+0 : f32
  %z = arith.constant dense<0.00e+00> : tensor<4xf32>
  %t0 = tt.splat %ptr : !tt.ptr<f32> -> tensor<!tt.ptr<f32>>
  %i0 = tt.splat %s : i64 -> tensor<i64>
  %p0 = tt.int_to_ptr %i0 : tensor<i64> -> tensor<!tt.ptr<f32>>
  %c = tt.load %ptr, %mask, %other : !tt.ptr<f32>
  tt.store %ptr, %c, %mask : !tt.ptr<f32>
  %a = "tt.reduce" (%v) ({
  ^bb0(%arg0: f32, %arg1: f32):
    %add = arith.addf %arg0, %arg1 : f32
    tt.reduce.return %add : f32
  }) {axis = 0 : i32}  : (tensor<1x2x4xf32>) -> tensor<2x4xf32>
  %b = "tt.scan"(%v) <{axis = 1 : i32, reverse = false}>({
  ^bb0(%x: f32, %y: f32):
    %m = arith.maxnumf %x, %y : f32
    tt.scan.return %m : f32
  }) : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  tt.return
}
