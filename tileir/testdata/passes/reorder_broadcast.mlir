module {
  tt.func public @reorder_broadcast(%s: i32, %t: i32, %row: tensor<1x16xi32>, %col: tensor<16xi32>, %q: tensor<16x16x!tt.ptr<i32>>) attributes {noinline = false} {
    %k = arith.constant dense<7> : tensor<16x16xi32>
    %z = arith.constant dense<0> : tensor<16x16xi32>
    %hi = tt.mulhiui %k, %z : tensor<16x16xi32>
    %ss = tt.splat %s : i32 -> tensor<16x16xi32>
    %st = tt.splat %t : i32 -> tensor<16x16xi32>
    %x = arith.xori %hi, %ss : tensor<16x16xi32>
    %y = arith.addi %x, %st : tensor<16x16xi32>
    %b = tt.broadcast %row : tensor<1x16xi32> -> tensor<16x16xi32>
    %bm = arith.muli %b, %ss : tensor<16x16xi32>
    %bk = arith.addi %bm, %k : tensor<16x16xi32>
    %sum = arith.addi %bk, %y : tensor<16x16xi32>
    %c2 = tt.splat %s : i32 -> tensor<16xi32>
    %cb = tt.broadcast %c2 : tensor<16xi32> -> tensor<16xi32>
    %e = tt.expand_dims %col {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %eb = tt.broadcast %e : tensor<1x16xi32> -> tensor<16x16xi32>
    %r = arith.addi %sum, %eb : tensor<16x16xi32>
    tt.store %q, %r : tensor<16x16x!tt.ptr<i32>>
    %cq = tt.expand_dims %cb {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %cqb = tt.broadcast %cq : tensor<16x1xi32> -> tensor<16x16xi32>
    tt.store %q, %cqb : tensor<16x16x!tt.ptr<i32>>
    tt.return
  }
}
