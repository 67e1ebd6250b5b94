package cpu

import (
	"errors"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/tileir"
)

// loadText compiles kernel k from TTIR text.
func loadText(t *testing.T, dev *Device, src string) driver.Kernel {
	t.Helper()
	m, err := tileir.Parse("test.ttir", src)
	if err != nil {
		t.Fatal(err)
	}
	k, err := dev.Load(m, "k", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// An unmasked copy of 16 elements from in (at an element offset) to out.
const copyTTIR = `module {
  tt.func public @k(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %off: i32) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32> loc("k.py":3:8)
    %o = tt.splat %off : i32 -> tensor<16xi32> loc("k.py":4:8)
    %i = arith.addi %r, %o : tensor<16xi32> loc("k.py":4:8)
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>> loc("k.py":5:8)
    %q = tt.addptr %p, %i : tensor<16x!tt.ptr<f32>>, tensor<16xi32> loc("k.py":5:8)
    %x = tt.load %q : tensor<16x!tt.ptr<f32>> loc("k.py":6:8)
    %s = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>> loc("k.py":7:8)
    %t = tt.addptr %s, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32> loc("k.py":7:8)
    tt.store %t, %x : tensor<16x!tt.ptr<f32>> loc("k.py":8:4)
    tt.return loc("k.py":8:4)
  } loc("k.py":1:0)
} loc("k.py":1:0)
`

// An assert that x < 5 for 8 loaded i32 elements.
const assertTTIR = `module {
  tt.func public @k(%in: !tt.ptr<i32>) {
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32> loc("k.py":2:8)
    %p = tt.splat %in : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>> loc("k.py":3:8)
    %q = tt.addptr %p, %r : tensor<8x!tt.ptr<i32>>, tensor<8xi32> loc("k.py":3:8)
    %x = tt.load %q : tensor<8x!tt.ptr<i32>> loc("k.py":4:8)
    %c5 = arith.constant dense<5> : tensor<8xi32> loc("k.py":5:8)
    %ok = arith.cmpi slt, %x, %c5 : tensor<8xi32> loc("k.py":5:8)
    tt.assert %ok, "x < 5" : tensor<8xi1> loc("k.py":5:4)
    tt.return loc("k.py":6:4)
  } loc("k.py":1:0)
} loc("k.py":1:0)
`

func TestMemorySafety(t *testing.T) {
	dev := New(Options{Workers: 1})
	copyK := loadText(t, dev, copyTTIR)
	assertK := loadText(t, dev, assertTTIR)
	in := upload(t, dev, make([]float32, 20))
	out := upload(t, dev, make([]float32, 16))
	small := upload(t, dev, make([]float32, 8))
	ints := upload(t, dev, []int32{0, 1, 2, 3, 4, 5, 6, 7})
	cases := []struct {
		name    string
		k       driver.Kernel
		grid    int
		args    []any
		want    Error
		message string
	}{
		{"read past the end", copyK, 1, []any{in, out, int32(10)},
			Error{Kernel: "k", Op: "tt.load", Element: 10, Index: []int{10}, Buffer: in.(*Buffer).id, Arg: "in", Size: 80, Offset: 80},
			`k.py:6:8: kernel k, program (0, 0, 0): tt.load: element 10 [10]: 4-byte read out of bounds (buffer 1, argument in, 80 bytes, offset 80)`},
		{"read before the start", copyK, 1, []any{in, out, int32(-3)},
			Error{Kernel: "k", Op: "tt.load", Element: 0, Index: []int{0}, Buffer: in.(*Buffer).id, Arg: "in", Size: 80, Offset: -12}, ""},
		{"write past the end", copyK, 3, []any{in, small, int32(0)},
			Error{Kernel: "k", Op: "tt.store", Element: 8, Index: []int{8}, Buffer: small.(*Buffer).id, Arg: "out", Size: 32, Offset: 32}, ""},
		{"null pointer", copyK, 1, []any{nil, out, int32(0)},
			Error{Kernel: "k", Op: "tt.load", Element: 0, Index: []int{0}}, "through a null pointer"},
		{"failed assert", assertK, 2, []any{ints},
			Error{Kernel: "k", Op: "tt.assert", Element: 5, Index: []int{5}},
			`k.py:5:4: kernel k, program (0, 0, 0): tt.assert: element 5 [5]: device_assert failed: x < 5`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.k.Launch(driver.Grid{c.grid, 1, 1}, c.args...)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want an *Error", err)
			}
			got := *e
			got.Loc, got.Msg, got.Program = tileir.Loc{}, "", [3]int{}
			if got.Kernel != c.want.Kernel || got.Op != c.want.Op || got.Element != c.want.Element ||
				got.Buffer != c.want.Buffer || got.Arg != c.want.Arg || got.Size != c.want.Size || got.Offset != c.want.Offset ||
				len(got.Index) != len(c.want.Index) || (len(got.Index) > 0 && got.Index[0] != c.want.Index[0]) {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
			if e.Loc.File != "k.py" || e.Loc.Line == 0 {
				t.Errorf("location %v", e.Loc)
			}
			if c.message != "" && !strings.Contains(err.Error(), c.message) {
				t.Errorf("message %q\ndoes not contain %q", err.Error(), c.message)
			}
		})
	}
}

func TestMisaligned(t *testing.T) {
	dev := New(Options{})
	m, err := tileir.Parse("t.ttir", `module {
  tt.func public @k(%in: !tt.ptr<i8>, %out: !tt.ptr<f32>) {
    %c1 = arith.constant 1 : i32 loc("m.py":2:4)
    %p = tt.addptr %in, %c1 : !tt.ptr<i8>, i32 loc("m.py":3:4)
    %q = tt.bitcast %p : !tt.ptr<i8> -> !tt.ptr<f32> loc("m.py":4:4)
    %x = tt.load %q : !tt.ptr<f32> loc("m.py":5:4)
    tt.store %out, %x : !tt.ptr<f32> loc("m.py":6:4)
    tt.return loc("m.py":7:4)
  } loc("m.py":1:0)
} loc("m.py":1:0)
`)
	if err != nil {
		t.Fatal(err)
	}
	k, err := dev.Load(m, "k", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in, out := upload(t, dev, make([]uint8, 16)), upload(t, dev, make([]float32, 1))
	err = k.Launch(driver.Grid{1, 1, 1}, in, out)
	if err == nil || !strings.Contains(err.Error(), "misaligned 4-byte read") || !strings.Contains(err.Error(), "m.py:5:4") {
		t.Fatalf("got %v", err)
	}
}
