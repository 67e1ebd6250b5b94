package lower

import (
	"regexp"
	"testing"
)

// TestElementwiseCallOperands checks that an elementwise op lowered to an intrinsic call
// gives every register its own operands. (The calls once shared elementwise's reused
// operand buffer, so that every register computed max(last, last): test_core.py's
// test_optimize_thread_locality found it on the GPU.)
func TestElementwiseCallOperands(t *testing.T) {
	src := `module {
  tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %pp = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %x = tt.load %pp : tensor<1024x!tt.ptr<f32>>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %qp = tt.addptr %qs, %r : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %y = tt.load %qp : tensor<1024x!tt.ptr<f32>>
    %m = arith.maxnumf %x, %y : tensor<1024xf32>
    tt.store %pp, %m : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}`
	ll, err := lowerSource(t, "maxnum", src)
	if err != nil {
		t.Fatal(err)
	}
	calls := regexp.MustCompile(`call float @llvm\.maxnum\.f32\((float %\d+, float %\d+)\)`).FindAllStringSubmatch(ll, -1)
	if len(calls) != 8 { // 1024 elements over 128 threads
		t.Fatalf("%d maxnum calls, want 8:\n%s", len(calls), ll)
	}
	seen := map[string]bool{}
	for _, c := range calls {
		if seen[c[1]] {
			t.Errorf("two registers call maxnum(%s)", c[1])
		}
		seen[c[1]] = true
	}
}
