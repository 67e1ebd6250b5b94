module {
  tt.func public @bf16x3(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> attributes {noinline = false} {
    %d = tt.dot %a, %b, %c, inputPrecision = bf16x3 : tensor<16x32xf32> * tensor<32x16xf32> -> tensor<16x16xf32>
    tt.return %d : tensor<16x16xf32>
  }
  tt.func public @bf16x6(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> attributes {noinline = false} {
    %d = tt.dot %a, %b, %c, inputPrecision = bf16x6 : tensor<16x32xf32> * tensor<32x16xf32> -> tensor<16x16xf32>
    tt.return %d : tensor<16x16xf32>
  }
  tt.func public @tf32x3(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> attributes {noinline = false} {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32x3 : tensor<16x32xf32> * tensor<32x16xf32> -> tensor<16x16xf32>
    tt.return %d : tensor<16x16xf32>
  }
  tt.func public @batched_bf16x3(%a: tensor<2x16x16xf32>, %b: tensor<2x16x16xf32>, %c: tensor<2x16x16xf32>) -> tensor<2x16x16xf32> attributes {noinline = false} {
    %d = tt.dot %a, %b, %c, inputPrecision = bf16x3 : tensor<2x16x16xf32> * tensor<2x16x16xf32> -> tensor<2x16x16xf32>
    tt.return %d : tensor<2x16x16xf32>
  }
  tt.func public @untouched(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %h: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) attributes {noinline = false} {
    %ieee = tt.dot %a, %b, %c : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %tf32 = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %half = tt.dot %h, %h, %c, inputPrecision = bf16x6 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    tt.return %ieee, %tf32, %half : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
  }
}
