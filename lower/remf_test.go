package lower

import (
	"strings"
	"testing"
)

// TestRemF checks that arith.remf becomes the sequence LLVM's NVPTX backend uses for
// frem (div, trunc, fma, and x itself when y is infinite) in f32, f64 and, through f32,
// f16, since package ptx takes no frem; llc-22 must accept the result.
func TestRemF(t *testing.T) {
	src := `module {
  tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %d: !tt.ptr<f64> {tt.divisibility = 16 : i32}, %h: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %x = tt.load %pp : tensor<128x!tt.ptr<f32>>
    %c = arith.constant dense<3.000000e+00> : tensor<128xf32>
    %m = arith.remf %x, %c : tensor<128xf32>
    tt.store %pp, %m : tensor<128x!tt.ptr<f32>>
    %ds = tt.splat %d : !tt.ptr<f64> -> tensor<128x!tt.ptr<f64>>
    %dp = tt.addptr %ds, %r : tensor<128x!tt.ptr<f64>>, tensor<128xi32>
    %y = tt.load %dp : tensor<128x!tt.ptr<f64>>
    %my = arith.remf %y, %y : tensor<128xf64>
    tt.store %dp, %my : tensor<128x!tt.ptr<f64>>
    %hs = tt.splat %h : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>>
    %hp = tt.addptr %hs, %r : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
    %z = tt.load %hp : tensor<128x!tt.ptr<f16>>
    %mz = arith.remf %z, %z : tensor<128xf16>
    tt.store %hp, %mz : tensor<128x!tt.ptr<f16>>
    tt.return
  }
}`
	ll, err := lowerSource(t, "remf", src)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ll, "frem") {
		t.Error("the module still has frem")
	}
	for _, want := range []string{"@llvm.trunc.f32", "@llvm.fma.f32", "@llvm.trunc.f64", "@llvm.fma.f64", "fcmp oeq float", "0x7FF0000000000000", "fpext half", "fptrunc float"} {
		if !strings.Contains(ll, want) {
			t.Errorf("the module has no %q", want)
		}
	}
	llcAccepts(t, ll)
}
