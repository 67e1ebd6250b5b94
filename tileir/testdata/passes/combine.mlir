module {
  tt.func public @combine(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %acc: tensor<16x16xf32>, %p: !tt.ptr<f32>, %c: i1, %q: tensor<16x!tt.ptr<f32>>, %o: tensor<16xi64>, %x: tensor<4x4xf32>) attributes {noinline = false} {
    %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %d = tt.dot %a, %b, %zero, inputPrecision = tf32 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %sum = arith.addf %acc, %d : tensor<16x16xf32>
    %d2 = tt.dot %a, %b, %zero, inputPrecision = tf32 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %twice = arith.addf %d2, %d2 : tensor<16x16xf32>
    %m = tt.splat %c : i1 -> tensor<16xi1>
    %v = tt.load %q, %m : tensor<16x!tt.ptr<f32>>
    %other = arith.constant dense<1.000000e+00> : tensor<16xf32>
    %sel = arith.select %c, %v, %other : tensor<16xf32>
    tt.store %q, %sel : tensor<16x!tt.ptr<f32>>
    %q1 = tt.addptr %q, %o : tensor<16x!tt.ptr<f32>>, tensor<16xi64>
    %q2 = tt.addptr %q1, %o : tensor<16x!tt.ptr<f32>>, tensor<16xi64>
    %w = tt.load %q2 : tensor<16x!tt.ptr<f32>>
    tt.store %q, %w : tensor<16x!tt.ptr<f32>>
    %flat = tt.reshape %x : tensor<4x4xf32> -> tensor<16xf32>
    %r = "tt.reduce"(%flat) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %rr: f32):
      %s = arith.addf %l, %rr : f32
      tt.reduce.return %s : f32
    }) : (tensor<16xf32>) -> f32
    %rp = tt.splat %r : f32 -> tensor<16xf32>
    tt.store %q, %rp : tensor<16x!tt.ptr<f32>>
    %pa = tt.splat %p : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    tt.store %pa, %sum : tensor<16x16x!tt.ptr<f32>>
    tt.store %pa, %twice : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}
