module {
  tt.func private @clamp_add(%arg0: i32, %arg1: i32) -> i32 attributes {noinline = true} {
    %0 = arith.addi %arg0, %arg1 : i32
    %c0_i32 = arith.constant 0 : i32
    %1 = arith.maxsi %0, %c0_i32 : i32
    tt.return %1 : i32
  }
  tt.func public @control_kernel(%arg0: !tt.ptr<i32>, %arg1: i32, %arg2: !tt.ptr<i32>) attributes {noinline = false} {
    %0 = tt.get_program_id x : i32
    %c1_i32 = arith.constant 1 : i32
    %1 = arith.cmpi sgt, %0, %arg1 : i32
    %2 = scf.if %1 -> (i32) {
      %6 = arith.addi %0, %c1_i32 : i32
      scf.yield %6 : i32
    } else {
      %6 = arith.subi %0, %c1_i32 : i32
      scf.yield %6 : i32
    }
    scf.if %1 {
      tt.store %arg0, %2 : !tt.ptr<i32>
    }
    %c0_i32 = arith.constant 0 : i32
    %3:2 = scf.while (%arg3 = %2, %arg4 = %c0_i32) : (i32, i32) -> (i32, i32) {
      %6 = arith.cmpi sgt, %arg3, %c0_i32 : i32
      scf.condition(%6) %arg3, %arg4 : i32, i32
    } do {
    ^bb0(%arg3: i32, %arg4: i32):
      %6 = arith.subi %arg3, %c1_i32 : i32
      %7 = arith.addi %arg4, %arg3 : i32
      scf.yield %6, %7 : i32, i32
    }
    scf.while : () -> () {
      %6 = tt.atomic_cas acq_rel, gpu, %arg2, %c0_i32, %c1_i32 : (!tt.ptr<i32>, i32, i32) -> i32
      %7 = arith.cmpi eq, %6, %c1_i32 : i32
      scf.condition(%7)
    } do {
      scf.yield
    }
    %4 = tt.call @clamp_add(%3#1, %0) : (i32, i32) -> i32
    tt.store %arg0, %4 : !tt.ptr<i32>
    %5 = tt.atomic_rmw exch, acq_rel, gpu, %arg2, %c0_i32 : (!tt.ptr<i32>, i32) -> i32
    tt.return
  }
}
