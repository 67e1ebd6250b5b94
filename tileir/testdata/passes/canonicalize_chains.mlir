module {
  tt.func public @canonicalize_chains(%x: i32, %t: tensor<8x8xf16>, %u: tensor<8x4xf16>, %p: !tt.ptr<i32>, %q: tensor<8x8x!tt.ptr<f16>>, %r: tensor<8x!tt.ptr<f8E5M2>>) attributes {noinline = false} {
    %c3 = arith.constant 3 : i32
    %c5 = arith.constant 5 : i32
    %a = arith.addi %x, %c3 : i32
    %b = arith.addi %a, %c5 : i32
    %s = arith.subi %b, %c3 : i32
    %d = arith.subi %x, %c3 : i32
    %e = arith.subi %d, %c5 : i32
    %f = arith.addi %d, %c5 : i32
    %m = arith.muli %x, %c3 : i32
    %n = arith.muli %m, %c5 : i32
    %p1 = tt.addptr %p, %s : !tt.ptr<i32>, i32
    tt.store %p1, %e : !tt.ptr<i32>
    %p2 = tt.addptr %p, %f : !tt.ptr<i32>, i32
    tt.store %p2, %n : !tt.ptr<i32>
    %tt = tt.trans %t {order = array<i32: 1, 0>} : tensor<8x8xf16> -> tensor<8x8xf16>
    tt.store %q, %tt : tensor<8x8x!tt.ptr<f16>>
    %id = tt.trans %u {order = array<i32: 0, 1>} : tensor<8x4xf16> -> tensor<8x4xf16>
    %ut = tt.trans %id {order = array<i32: 1, 0>} : tensor<8x4xf16> -> tensor<4x8xf16>
    %utt = tt.trans %ut {order = array<i32: 1, 0>} : tensor<4x8xf16> -> tensor<8x4xf16>
    %w = tt.join %utt, %utt : tensor<8x4xf16> -> tensor<8x4x2xf16>
    %wr = tt.reshape %w : tensor<8x4x2xf16> -> tensor<8x8xf16>
    tt.store %q, %wr : tensor<8x8x!tt.ptr<f16>>
    %z = arith.constant dense<-0.000000e+00> : tensor<8xf32>
    %z8 = tt.fp_to_fp %z, rounding = rtne : tensor<8xf32> -> tensor<8xf8E5M2>
    tt.store %r, %z8 : tensor<8x!tt.ptr<f8E5M2>>
    tt.return
  }
}
