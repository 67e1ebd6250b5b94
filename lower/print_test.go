package lower

import (
	"strings"
	"testing"
)

// TestPrintFormats lowers device_print of several element types and checks the vprintf
// format strings against Triton 3.6's (PrintOpToLLVM.cpp): index widths from the shape,
// %f for floats, %i/%u by signedness, %lli for i64, 0x%0Nx for hex, "(operand n) " with
// several operands, and a bare "pid (...)<prefix>" line without operands.
func TestPrintFormats(t *testing.T) {
	src := `module {
  tt.func public @k(%p: !tt.ptr<f32>, %n: i64) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %h = arith.sitofp %r : tensor<128xi32> to tensor<128xbf16>
    tt.print " r: " {hex = false, isSigned = array<i32: 1, 0>} : %r, %h : tensor<128xi32>, tensor<128xbf16>
    tt.print " n: " {hex = false, isSigned = array<i32: 1>} : %n : i64
    tt.print " x: " {hex = true, isSigned = array<i32: 0>} : %h : tensor<128xbf16>
    tt.print " 100%" {hex = false, isSigned = array<i32>}
    tt.return
  }
}`
	ll, err := lowerSource(t, "k", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`c"pid (%u, %u, %u) idx (%3u) r: (operand 0) %i\0A\00"`,
		`c"pid (%u, %u, %u) idx (%3u) r: (operand 1) %f\0A\00"`,
		`c"pid (%u, %u, %u) idx () n: %lli\0A\00"`,
		`c"pid (%u, %u, %u) idx (%3u) x: 0x%04x\0A\00"`,
		`c"pid (%u, %u, %u) 100%%\0A\00"`,
		"declare i32 @vprintf(i8* %0, i8* %1)",
	} {
		if !strings.Contains(ll, want) {
			t.Errorf("the module lacks %s", want)
		}
	}
	// 128 elements over 128 threads: one print of each operand per thread, plus the
	// scalar's and the bare one.
	if got := strings.Count(ll, "call i32 @vprintf"); got != 5 {
		t.Errorf("%d vprintf calls, want 5", got)
	}
}
