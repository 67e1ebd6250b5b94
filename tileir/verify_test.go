package tileir

import (
	"strings"
	"testing"
)

// kernelText wraps body in a function with handy arguments.
func kernelText(body string) string {
	return `module {
  tt.func public @k(%arg0: !tt.ptr<f32>, %arg1: i32, %arg2: tensor<16xf32>, %arg3: tensor<16xi32>, %arg4: i64) attributes {noinline = false} {
` + body + `
    tt.return
  }
}
`
}

func TestVerifyErrors(t *testing.T) {
	for _, c := range []struct{ name, body, want string }{
		{"elementwise types", `%0 = arith.addi %arg1, %arg4 : i32 loc("k.py":3:7)`,
			`k.py:3:7: 'arith.addi' op operand #1 has type i64, expected i32`},
		{"float op on ints", `%0 = arith.addf %arg1, %arg1 : i32`,
			`@k: 'arith.addf' op does not accept type i32`},
		{"bad predicate", `%0 = arith.cmpi lt, %arg1, %arg1 : i32`,
			`@k: 'arith.cmpi' op has invalid predicate "lt"`},
		{"broadcast", `%0 = tt.broadcast %arg3 : tensor<16xi32> -> tensor<32xi32>`,
			`@k: 'tt.broadcast' op cannot broadcast dimension 0 of tensor<16xi32> to tensor<32xi32>`},
		{"expand_dims axis", `%0 = tt.expand_dims %arg3 {axis = 2 : i32} : tensor<16xi32> -> tensor<16x1xi32>`,
			`@k: 'tt.expand_dims' op axis 2 out of range`},
		{"make_range size", `%0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<32xi32>`,
			`@k: 'tt.make_range' op range [0, 16) does not match tensor<32xi32>`},
		{"addptr float offset", `%0 = tt.addptr %arg0, %arg2 : !tt.ptr<f32>, tensor<16xf32>`,
			`@k: 'tt.addptr' op cannot offset !tt.ptr<f32> by tensor<16xf32>`},
		{"load mask shape", `%0 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %1 = arith.cmpi slt, %arg1, %arg1 : i32
    %2 = tt.load %0, %1 : tensor<16x!tt.ptr<f32>>`,
			`@k: 'tt.load' op mask has type i1, expected tensor<16xi1>`},
		{"store value type", `tt.store %arg0, %arg1 : !tt.ptr<f32>`,
			`@k: 'tt.store' op value has type i32, expected f32`},
		{"dot shapes", `%0 = tt.reshape %arg2 : tensor<16xf32> -> tensor<4x4xf32>
    %1 = tt.reshape %arg2 : tensor<16xf32> -> tensor<2x8xf32>
    %2 = tt.dot %0, %1, %0 : tensor<4x4xf32> * tensor<2x8xf32> -> tensor<4x4xf32>`,
			`@k: 'tt.dot' op shapes do not multiply: tensor<4x4xf32> * tensor<2x8xf32> -> tensor<4x4xf32>`},
		{"reduce result", `%0 = "tt.reduce"(%arg2) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %1 = arith.addf %a, %b : f32
      tt.reduce.return %1 : f32
    }) : (tensor<16xf32>) -> tensor<16xf32>`,
			`@k: 'tt.reduce' op result #0 has type tensor<16xf32>, expected f32`},
		{"reduce combiner", `%0 = "tt.reduce"(%arg2) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %1 = arith.cmpf olt, %a, %b : f32
      tt.reduce.return %1 : i1
    }) : (tensor<16xf32>) -> f32`,
			`@k: 'tt.reduce' op tt.reduce.return types (i1) do not match (f32)`},
		{"for yield", `%c0_i32 = arith.constant 0 : i32
    %0 = scf.for %i = %c0_i32 to %arg1 step %arg1 iter_args(%x = %arg1) -> (i32)  : i32 {
      scf.yield %arg4 : i64
    }`,
			`@k: 'scf.for' op scf.yield types (i64) do not match (i32)`},
		{"for bounds", `%0 = arith.trunci %arg4 : i64 to i32
    scf.for %i = %arg1 to %arg4 step %arg1  : i32 {
    }`,
			`@k: 'scf.for' op upper bound has type i64, expected i32`},
		{"if without else", `%c = arith.cmpi slt, %arg1, %arg1 : i32
    %0 = scf.if %c -> (i32) {
      scf.yield %arg1 : i32
    }`,
			`@k: 'scf.if' op must have an else region when it has results`},
		{"if condition", `scf.if %arg1 {
    }`,
			`@k: 'scf.if' op condition has type i32, expected i1`},
		{"call unknown", `tt.call @nope(%arg1) : (i32) -> ()`,
			`@k: 'tt.call' op calls unknown function @nope`},
		{"trans order", `%0 = tt.reshape %arg2 : tensor<16xf32> -> tensor<4x4xf32>
    %1 = tt.trans %0 {order = array<i32: 0, 0>} : tensor<4x4xf32> -> tensor<4x4xf32>`,
			`@k: 'tt.trans' op order must be a permutation of the operand's dimensions`},
		{"atomic sem", `%0 = tt.atomic_rmw fadd, seq_cst, gpu, %arg0, %arg2 : (!tt.ptr<f32>, tensor<16xf32>) -> tensor<16xf32>`,
			`@k: 'tt.atomic_rmw' op has invalid memory semantic "seq_cst"`},
		{"descriptor_load result", `%c1 = arith.constant 1 : i64
    %0 = tt.make_tensor_descriptor %arg0, [%arg1], [%c1] : <f32>, <tensor<16xf32>>
    %1 = tt.descriptor_load %0[%arg1] : !tt.tensordesc<tensor<16xf32>> -> tensor<16xi32>`,
			`@k: 'tt.descriptor_load' op result tensor<16xi32> does not match block tensor<16xf32>`},
		{"descriptor_store indices", `%c1 = arith.constant 1 : i64
    %0 = tt.make_tensor_descriptor %arg0, [%arg1], [%c1] : <f32>, <tensor<16xf32>>
    tt.descriptor_store %0[%arg1, %arg1], %arg2 : !tt.tensordesc<tensor<16xf32>>, tensor<16xf32>`,
			`@k: 'tt.descriptor_store' op needs one index per dimension`},
		{"descriptor_store value", `%c1 = arith.constant 1 : i64
    %0 = tt.make_tensor_descriptor %arg0, [%arg1], [%c1] : <f32>, <tensor<16xf32>>
    tt.descriptor_store %0[%arg1], %arg3 : !tt.tensordesc<tensor<16xf32>>, tensor<16xi32>`,
			`@k: 'tt.descriptor_store' op value tensor<16xi32> does not match block tensor<16xf32>`},
		{"gather axis", `%0 = tt.gather %arg2[%arg3] {axis = 1 : i32} : (tensor<16xf32>, tensor<16xi32>) -> tensor<16xf32>`,
			`@k: 'tt.gather' op axis 1 out of range for rank 1`},
		{"gather float index", `%0 = tt.gather %arg2[%arg2] {axis = 0 : i32} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>`,
			`@k: 'tt.gather' op operands must be a tensor and an integer index tensor`},
		{"unsplat of many", `%0 = tt.unsplat %arg3 : tensor<16xi32>`,
			`@k: 'tt.unsplat' op operand must be a tensor of one element`},
		{"histogram float", `%0 = tt.histogram %arg2 : tensor<16xf32> -> tensor<8xi32>`,
			`@k: 'tt.histogram' op operand and result must be 1-D integer tensors`},
		{"terminator in the middle", `tt.return`,
			`@k: 'tt.return' op is a terminator but is not the last op of its block`},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Parse("k.mlir", kernelText("    "+c.body))
			if err != nil {
				t.Fatal(err)
			}
			err = Verify(m)
			if err == nil || err.Error() != c.want {
				t.Fatalf("got  %v\nwant %s", err, c.want)
			}
		})
	}
}

// TestVerifyBuilt covers errors that text cannot express: uses that do not dominate,
// missing terminators, and wrong return types.
func TestVerifyBuilt(t *testing.T) {
	for _, c := range []struct {
		name  string
		build func(m *Module, b *Builder, f *Func)
		want  string
	}{
		{"use outside its loop", func(m *Module, b *Builder, f *Func) {
			var inner *Value
			b.For(f.Arg(0), f.Arg(0), f.Arg(0), nil, func(b *Builder, iv *Value, _ []*Value) []*Value {
				inner = b.AddI(iv, iv)
				return nil
			})
			b.SetLoc("k.py", 9, 2)
			b.AddI(inner, inner)
			b.Return()
		}, `k.py:9:2: 'arith.addi' op operand #0 does not dominate this use`},
		{"use before definition", func(m *Module, b *Builder, f *Func) {
			x := b.AddI(f.Arg(0), f.Arg(0))
			y := b.AddI(x, x)
			x.def.Erase()
			f.Body.Entry().Insert(len(f.Body.Entry().Ops), x.def)
			b.SetInsertionPointToEnd(f.Body.Entry())
			b.Return(y)
		}, `@k: 'arith.addi' op operand #0 does not dominate this use`},
		{"no terminator", func(m *Module, b *Builder, f *Func) {
			b.AddI(f.Arg(0), f.Arg(0))
		}, `@k: 'tt.func' op has a region that does not end with a terminator`},
		{"return type", func(m *Module, b *Builder, f *Func) {
			b.Return(b.ConstInt(1, I64))
		}, `@k: 'tt.return' op returned types (i64) do not match (i32)`},
		{"call arguments", func(m *Module, b *Builder, f *Func) {
			b.Call(f, b.ConstInt(1, I64))
			b.Return(f.Arg(0))
		}, `@k: 'tt.call' op argument types (i64) do not match (i32)`},
		{"empty region", func(m *Module, b *Builder, f *Func) {
			b.Create("scf.for", []*Value{f.Arg(0), f.Arg(0), f.Arg(0)}, nil).Regions = []*Region{{}}
			b.Return(f.Arg(0))
		}, `@k: 'scf.for' op has an empty region`},
		{"hint with odd characters", func(m *Module, b *Builder, f *Func) {
			x := b.AddI(f.Arg(0), f.Arg(0))
			x.Hint = "2 x"
			b.Return(x)
			if !strings.Contains(m.String(), "%_2_x = arith.addi") {
				t.Errorf("hint not sanitized:\n%s", m)
			}
			roundTrip(t, "hint", m.String())
			b.AddI(x, x)
		}, `@k: 'tt.func' op has a region that does not end with a terminator`},
		{"nil operand", func(m *Module, b *Builder, f *Func) {
			b.AddI(f.Arg(0), nil)
			b.Return(f.Arg(0))
		}, `@k: 'arith.addi' op operand #1 is nil`},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &Module{}
			f := m.NewFunc("k", "private", []Type{I32}, []Type{I32})
			c.build(m, NewBuilder(f), f)
			err := Verify(m)
			if err == nil || err.Error() != c.want {
				t.Fatalf("got  %v\nwant %s", err, c.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{kernelText("    %0 = arith.addi %9, %arg1 : i32"), `t.mlir:3:21: use of undefined value %9`},
		{kernelText("    %0 = arith.frob %arg1 : i32"), `t.mlir:3:10: unknown op arith.frob (write it in the generic form)`},
		{kernelText("    %0 = arith.addi %arg1, %arg1 : f32"), `t.mlir:3:39: operand 0 has type i32, not f32`},
		{kernelText("    %0 = tt.splat %arg1 : i32 -> tensor<16xq32>"), `t.mlir:3:44: unknown type "q32"`},
		{kernelText("    %0:2 = arith.addi %arg1, %arg1 : i32"), `t.mlir:3:12: arith.addi has 1 results but 2 names`},
		{"module {\n  tt.func @f() {\n    tt.return\n  }\n", `t.mlir:5:1: the module is not closed with "}"`},
	} {
		_, err := Parse("t.mlir", c.src)
		if err == nil || err.Error() != c.want {
			t.Errorf("got  %v\nwant %s\nfor\n%s", err, c.want, c.src)
		}
	}
}

func TestGenericOpRoundTrip(t *testing.T) {
	src := kernelText(`    %0:2 = "mydialect.op"(%arg1, %arg2) <{kind = 3 : i32}> ({
    ^bb0(%x: i32):
      "mydialect.yield"(%x) : (i32) -> ()
    }) {note = "n"} : (i32, tensor<16xf32>) -> (i32, f32)
    "mydialect.sink"(%0#1) : (f32) -> ()`)
	m := roundTrip(t, "generic", src)
	if err := Verify(m); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.String(), `<{kind = 3 : i32}>`) {
		t.Error("properties lost")
	}
}
