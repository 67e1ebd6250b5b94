package tileir_test

import (
	"fmt"

	"github.com/gotriton/gotriton/tileir"
)

// The vector-add kernel of Triton's first tutorial, built, verified, optimized and printed.
func Example() {
	m := &tileir.Module{}
	f32p := tileir.Ptr(tileir.F32)
	f := m.NewFunc("add_kernel", "public", []tileir.Type{f32p, f32p, f32p, tileir.I32}, nil)
	for i, name := range []string{"x_ptr", "y_ptr", "out_ptr", "n"} {
		f.Arg(i).Hint = name // Python parameter names, as Triton prints them
		if i < 3 {
			f.SetArgAttr(i, "tt.divisibility", tileir.IntAttr{V: 16, T: tileir.I32})
		}
	}
	b := tileir.NewBuilder(f)
	b.SetLoc("add.py", 30, 10)
	pid := b.GetProgramID(0)
	start := b.MulI(pid, b.ConstInt(1024, tileir.I32))
	offs := b.AddI(b.Splat(start, []int64{1024}), b.MakeRange(0, 1024))
	offs.Hint = "offsets"
	mask := b.CmpI(tileir.IntPredicate("<", false), offs, b.Splat(f.Arg(3), []int64{1024}))
	ptrs := func(p *tileir.Value) *tileir.Value { return b.AddPtr(b.Splat(p, []int64{1024}), offs) }
	x := b.Load(ptrs(f.Arg(0)), mask, nil, tileir.MemOpts{})
	y := b.Load(ptrs(f.Arg(1)), mask, nil, tileir.MemOpts{})
	b.Store(ptrs(f.Arg(2)), b.AddF(x, y), mask, tileir.MemOpts{})
	b.Return()
	if err := tileir.Run(m, []string{"canonicalize", "cse", "dce"}, true); err != nil {
		fmt.Println(err)
	}
	fmt.Print(m)
	// Output:
	// module {
	//   tt.func public @add_kernel(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) attributes {noinline = false} {
	//     %0 = tt.get_program_id x : i32
	//     %c1024_i32 = arith.constant 1024 : i32
	//     %1 = arith.muli %0, %c1024_i32 : i32
	//     %2 = tt.splat %1 : i32 -> tensor<1024xi32>
	//     %3 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
	//     %offsets = arith.addi %2, %3 : tensor<1024xi32>
	//     %4 = tt.splat %n : i32 -> tensor<1024xi32>
	//     %5 = arith.cmpi slt, %offsets, %4 : tensor<1024xi32>
	//     %6 = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
	//     %7 = tt.addptr %6, %offsets : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
	//     %8 = tt.load %7, %5 : tensor<1024x!tt.ptr<f32>>
	//     %9 = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
	//     %10 = tt.addptr %9, %offsets : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
	//     %11 = tt.load %10, %5 : tensor<1024x!tt.ptr<f32>>
	//     %12 = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
	//     %13 = tt.addptr %12, %offsets : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
	//     %14 = arith.addf %8, %11 : tensor<1024xf32>
	//     tt.store %13, %14, %5 : tensor<1024x!tt.ptr<f32>>
	//     tt.return
	//   }
	// }
}
