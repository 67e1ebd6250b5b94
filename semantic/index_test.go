package semantic

import (
	"strings"
	"testing"
)

// TestScalarIndexAndPi32 checks test_core.py constructs: indexing a scalar pointer
// with None and ':' (test_reduce's keep_dims store: None splats, ':' is not checked against
// the rank), tl.pi32_t, pointer_type(int32) (test_where), and a dynamic ternary of two void calls.
func TestScalarIndexAndPi32(t *testing.T) {
	for _, c := range []struct {
		body, want string
	}{
		{"    p = X[None, None, :]\n    tl.store(p, tl.full([1, 1], 1.0, tl.float32))\n",
			"tt.splat %arg0 : !tt.ptr<f32> -> tensor<1x1x!tt.ptr<f32>>"},
		{"    p = X[None, None, None, :]\n    tl.store(p, tl.full([1, 1, 1], 1.0, tl.float32))\n",
			"tensor<1x1x1x!tt.ptr<f32>>"},
		{"    q = tl.full([B], 0, tl.int64).to(tl.pi32_t)\n    tl.store(X + tl.arange(0, B), tl.load(q))\n",
			"tt.int_to_ptr %c0_i64 : i64 -> !tt.ptr<i32>"},
		// test_if[if_exp_dynamic_void]: both sides of a dynamic ternary are tl.store calls.
		{"    tl.store(X, 1.0) if N > 0 else tl.store(X, 2.0)\n",
			"scf.if %0 {\n      %cst = arith.constant 1.000000e+00 : f32\n      tt.store %arg0, %cst : !tt.ptr<f32>\n    } else {\n      %cst = arith.constant 2.000000e+00 : f32\n      tt.store %arg0, %cst : !tt.ptr<f32>\n    }"},
	} {
		ttir, err := compileSource(t, "ok.py", errPrelude+c.body, "k", "*fp32:16, i32, 128")
		if err != nil {
			t.Errorf("%q: %v", c.body, err)
			continue
		}
		if !strings.Contains(ttir, c.want) {
			t.Errorf("%q: no %q in\n%s", c.body, c.want, ttir)
		}
	}
}
