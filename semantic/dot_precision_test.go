package semantic

import (
	"strings"
	"testing"

	"github.com/gotriton/gotriton/diag"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
)

// TestDotInputPrecisionByTarget checks tl.dot's input_precision against each target's
// list, as Triton 3.6's core.dot and backend options decide it: the default is tf32 where
// the target allows tf32 (NVIDIA, gfx942) and ieee elsewhere (gfx90a), and a precision
// the target does not list is an error naming the list.
func TestDotInputPrecisionByTarget(t *testing.T) {
	load := func(args string) *frontend.File {
		src := "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(X):\n" +
			"    x = tl.load(X + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])\n" +
			"    tl.store(X + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], tl.dot(x, x" + args + "))\n"
		f, err := frontend.LoadSource("p.py", []byte(src), pyeval.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	const ieee = "ieee" // the enum's default: tt.dot prints no inputPrecision
	for _, c := range []struct{ target, args, want string }{
		{"cuda:90:32", "", "inputPrecision = tf32"},
		{"hip:gfx942:64", "", "inputPrecision = tf32"},
		{"hip:gfx90a:64", "", ieee},
		{"hip:gfx90a:64", ", allow_tf32=True", ieee},
		{"cuda:90:32", ", allow_tf32=False", ieee},
		{"cuda:90:32", ", input_precision='TF32x3'", "inputPrecision = tf32x3"},
		{"hip:gfx942:64", ", input_precision='tf32x3'", "error: input_precision must be one of ('bf16x3', 'bf16x6', 'ieee', 'tf32'). Got tf32x3"},
		{"hip:gfx90a:64", ", input_precision='tf32'", "error: input_precision must be one of ('ieee', 'bf16x3', 'bf16x6'). Got tf32"},
	} {
		m, err := Compile(load(c.args), "k", Options{SignatureText: "*fp32:16", Target: c.target})
		got := ""
		if d, ok := diag.As(err); ok {
			got = "error: " + d.Msg
		} else if err != nil {
			t.Fatalf("%s%s: %v", c.target, c.args, err)
		} else {
			got = m.String()
		}
		if c.want == ieee {
			if !strings.Contains(got, "tt.dot") || strings.Contains(got, "inputPrecision") {
				t.Errorf("%s%s: want a tt.dot of ieee precision in\n%s", c.target, c.args, got)
			}
		} else if !strings.Contains(got, c.want) {
			t.Errorf("%s%s: want %q in\n%s", c.target, c.args, c.want, got)
		}
	}
}
