package cpu

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
	"github.com/gotriton/gotriton/tileir"
)

// loadOurs compiles a kernel of our corpus (conformance/kernels) through the real
// compile path, frontend.Load then semantic.Compile, and loads it on dev with 4 warps.
func loadOurs(tb testing.TB, dev *Device, file, kernel, sig string, debug bool) driver.Kernel {
	tb.Helper()
	f, err := frontend.Load(filepath.Join("..", "..", "conformance", "kernels", file), pyeval.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	m, err := semantic.Compile(f, kernel, semantic.Options{SignatureText: sig, NumWarps: 4, NumStages: 3, Debug: debug})
	if err != nil {
		tb.Fatal(err)
	}
	k, err := dev.Load(m, kernel, LoadOptions{NumWarps: 4})
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

// TestDevicePrint: tl.device_print of a tensor, of two tensors, of a scalar and of nothing, in the
// format of Triton's GPU printf, on a grid of two programs run one at a time.
func TestDevicePrint(t *testing.T) {
	var out bytes.Buffer
	dev := New(Options{Workers: 1, Stdout: &out})
	k := loadOurs(t, dev, "language_features.py", "print_kernel", "*fp32:16, i32, 4", false)
	x := upload(t, dev, []float32{1.5, -2, 0.25, 3, 100, float32(math.Inf(-1))})
	if err := k.Launch(driver.Grid{2, 1, 1}, x, int32(6)); err != nil {
		t.Fatal(err)
	}
	want := `pid (0, 0, 0) idx (0) x: 1.500000
pid (0, 0, 0) idx (1) x: -2.000000
pid (0, 0, 0) idx (2) x: 0.250000
pid (0, 0, 0) idx (3) x: 3.000000
pid (0, 0, 0) idx (0) offs and x: (operand 0) 0
pid (0, 0, 0) idx (1) offs and x: (operand 0) 1
pid (0, 0, 0) idx (2) offs and x: (operand 0) 2
pid (0, 0, 0) idx (3) offs and x: (operand 0) 3
pid (0, 0, 0) idx (0) offs and x: (operand 1) 1.500000
pid (0, 0, 0) idx (1) offs and x: (operand 1) -2.000000
pid (0, 0, 0) idx (2) offs and x: (operand 1) 0.250000
pid (0, 0, 0) idx (3) offs and x: (operand 1) 3.000000
pid (0, 0, 0) idx () n: 6
pid (0, 0, 0) done
pid (1, 0, 0) idx (0) x: 100.000000
pid (1, 0, 0) idx (1) x: -inf
pid (1, 0, 0) idx (2) x: 0.000000
pid (1, 0, 0) idx (3) x: 0.000000
pid (1, 0, 0) idx (0) offs and x: (operand 0) 4
pid (1, 0, 0) idx (1) offs and x: (operand 0) 5
pid (1, 0, 0) idx (2) offs and x: (operand 0) 6
pid (1, 0, 0) idx (3) offs and x: (operand 0) 7
pid (1, 0, 0) idx (0) offs and x: (operand 1) 100.000000
pid (1, 0, 0) idx (1) offs and x: (operand 1) -inf
pid (1, 0, 0) idx (2) offs and x: (operand 1) 0.000000
pid (1, 0, 0) idx (3) offs and x: (operand 1) 0.000000
pid (1, 0, 0) idx () n: 6
pid (1, 0, 0) done
`
	if got := out.String(); got != want {
		t.Errorf("device_print output:\n%s\nwant:\n%s", got, want)
	}
}

// TestPrintFormat: one element of each kind, as C's printf prints it with the format
// Triton's PrintOpToLLVM picks.
func TestPrintFormat(t *testing.T) {
	i, f := func(v int64) *tile { return &tile{i: []int64{v}} }, func(v float64) *tile { return &tile{f: []float64{v}} }
	tests := []struct {
		typ    tileir.Type
		hex    bool
		signed bool
		v      *tile
		want   string
	}{
		{tileir.F32, false, false, f(1.5), "1.500000"},
		{tileir.F32, false, false, f(1e-7), "0.000000"},
		{tileir.F64, false, false, f(-12345.6789), "-12345.678900"},
		{tileir.F16, false, false, f(math.NaN()), "nan"},
		{tileir.F32, false, false, f(math.Inf(1)), "inf"},
		{tileir.I32, false, true, i(-7), "-7"},
		{tileir.I32, false, false, i(-1), "4294967295"},
		{tileir.I1, false, false, i(1), "1"},
		{tileir.I64, false, true, i(math.MinInt64), "-9223372036854775808"},
		{tileir.I8, true, true, i(-1), "0xff"},
		{tileir.I32, true, true, i(10), "0x0000000a"},
		{tileir.F32, true, false, f(1), "0x3f800000"},
		{tileir.F16, true, false, f(-2), "0xc000"},
		{tileir.Ptr(tileir.F32), false, false, i(0x1000), "0x1000"},
	}
	for _, tt := range tests {
		if got := printFormat(tt.typ, tt.hex, tt.signed)(tt.v, 0); got != tt.want {
			t.Errorf("%s hex=%v signed=%v: %q, want %q", tt.typ, tt.hex, tt.signed, got, tt.want)
		}
	}
}

// TestDeviceAssertCompiled: tl.device_assert through the real compile path. With
// Debug it stops the run naming the kernel, program, element and source line; without
// Debug semantic drops it, as Triton does, and the kernel runs to the end.
func TestDeviceAssertCompiled(t *testing.T) {
	const sig = "*fp32:16, *fp32:16, i32, 4"
	tests := []struct {
		debug   bool
		wantErr string
	}{
		{true, "language_features.py:51:5: kernel assert_kernel, program (1, 0, 0): tt.assert: element 1 [1]: device_assert failed: x must be non-negative"},
		{false, ""},
	}
	for _, tt := range tests {
		dev := New(Options{Workers: 1})
		k := loadOurs(t, dev, "language_features.py", "assert_kernel", sig, tt.debug)
		// Element 6 is past n: masked, so its -1 must not trip the assert.
		x := upload(t, dev, []float32{4, 9, 0, 1, 16, -1, -1, 0})
		y := upload(t, dev, make([]float32, 8))
		err := k.Launch(driver.Grid{2, 1, 1}, x, y, int32(6))
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("debug=%v: %v", tt.debug, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("debug=%v: error %v, want %q", tt.debug, err, tt.wantErr)
		}
	}
}

// TestOverflowCheck: with Debug, an integer add, sub or mul narrower than 64 bits is
// checked as Triton's sanitize_overflow does (the op in int64, then a device_assert that
// the result fits), unless tl.mul & co. pass sanitize_overflow=False; without Debug
// nothing is checked and the product wraps.
func TestOverflowCheck(t *testing.T) {
	const src = `import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, y_ptr, k, CHECK: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    if CHECK:
        y = x * k
    else:
        y = tl.mul(x, k, sanitize_overflow=False)
    tl.store(y_ptr + offs, y)
`
	f, err := frontend.LoadSource("scale.py", []byte(src), pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		check, debug bool
		wantErr      string
	}{
		{true, true, "scale.py:10:13: kernel scale_kernel, program (0, 0, 0): tt.assert: element 2 [2]: device_assert failed: int32 overflow detected for operation mul"},
		{true, false, ""},
		{false, true, ""},
	} {
		sig := fmt.Sprintf("*i32:16, *i32:16, i32, %v, 4", map[bool]string{true: "True", false: "False"}[tt.check])
		m, err := semantic.Compile(f, "scale_kernel", semantic.Options{SignatureText: sig, NumWarps: 4, Debug: tt.debug})
		if err != nil {
			t.Fatal(err)
		}
		dev := New(Options{Workers: 1})
		k, err := dev.Load(m, "scale_kernel", LoadOptions{NumWarps: 4})
		if err != nil {
			t.Fatal(err)
		}
		x := upload(t, dev, []int32{1, -3, 40000, 7})
		y := upload(t, dev, make([]int32, 4))
		err = k.Launch(driver.Grid{1, 1, 1}, x, y, int32(65536))
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("check=%v debug=%v: %v", tt.check, tt.debug, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("check=%v debug=%v: error %v, want %q", tt.check, tt.debug, err, tt.wantErr)
		case tt.wantErr == "":
			wrapped := uint32(40000) << 16 // the product modulo 2^32
			if got, want := download[int32](t, y), []int32{65536, -196608, int32(wrapped), 7 << 16}; !slices.Equal(got, want) {
				t.Errorf("check=%v debug=%v: y = %v", tt.check, tt.debug, got)
			}
		}
	}
}
