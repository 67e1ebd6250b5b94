package simt

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/driver/cpu"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

// compileNV compiles a kernel of one of our conformance kernels to sm_90 LLVM IR.
func compileNV(t *testing.T, file, kernel, sig string, warps int) *compiler.Result {
	t.Helper()
	return compileFor(t, "cuda:90:32", file, kernel, sig, warps)
}

// compileFor compiles a kernel of one of our conformance kernels to LLVM IR for tgt.
func compileFor(t *testing.T, tgt, file, kernel, sig string, warps int) *compiler.Result {
	t.Helper()
	f, err := frontend.Load("../../conformance/kernels/"+file, pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts := compiler.Options{Options: semantic.Options{SignatureText: sig, NumWarps: warps, Target: tgt}}
	r, err := compiler.Compile(f, kernel, opts, compiler.LLVM)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestFaultLocation: a store past the end of its buffer (numel larger than the buffers)
// names the thread, the source line of the tl.store and the PTX statement.
func TestFaultLocation(t *testing.T) {
	r := compileNV(t, "vector_add.py", "vector_add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 256", 2)
	d := New(NVIDIA, Options{Workers: 2})
	k, err := d.Load(r.LLVM, "vector_add_kernel", LoadOptions{NumWarps: r.Meta.NumWarps, SharedBytes: r.Meta.SharedBytes})
	if err != nil {
		t.Fatal(err)
	}
	in, out := upload(t, d, make([]float32, 300)), upload(t, d, make([]float32, 200))
	err = k.Launch(driver.Grid{2, 1, 1}, in, in, out, int32(300))
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want an *Error", err)
	}
	// numel is not a multiple of 16, so each thread stores its 4 floats one by one:
	// thread 50's first one is element 200.
	if e.Program != [3]int{0, 0, 0} || e.Thread != 50 || e.Loc != "vector_add.py:20:5" {
		t.Errorf("fault at program %v thread %d %s, want program [0 0 0] thread 50 vector_add.py:20:5", e.Program, e.Thread, e.Loc)
	}
	for _, want := range []string{"thread 50 (warp 1, lane 18): vector_add.py:20:5: call void asm sideeffect", `PTX "@$2 st.global.b32 [ $1 + 0 ], { $0 }": address 0x`, "is outside buffer"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v\ndoes not say %q", err, want)
		}
	}
}

// distinctLines are the sorted distinct lines of s (a GPU prints an element once per
// thread that holds it).
func distinctLines(s string) []string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	slices.Sort(lines)
	return slices.Compact(lines)
}

// TestDevicePrint runs tl.device_print through lower's printf (NVIDIA's vprintf calls,
// AMD's buffered printf frames) and compares the lines with the CPU interpreter's (as
// tools/gpu-report.sh does with a GPU).
func TestDevicePrint(t *testing.T) {
	x := []float32{1.5, -2, 0.25, 3, 4.5, -0.125, 7, 8.25, 9.5, -10}
	var cpuOut bytes.Buffer
	c := cpu.New(cpu.Options{Workers: 1, Stdout: &cpuOut})
	for _, tc := range []struct {
		isa *ISA
		tgt string
	}{{NVIDIA, "cuda:90:32"}, {AMD, "hip:gfx942:64"}, {AMD, "hip:gfx90a:64"}} {
		t.Run(tc.tgt, func(t *testing.T) {
			r := compileFor(t, tc.tgt, "language_features.py", "print_kernel", "*fp32:16, i32, 8", 1)
			var simOut bytes.Buffer
			d := New(tc.isa, Options{Workers: 2, Stdout: &simOut})
			k, err := d.Load(r.LLVM, "print_kernel", LoadOptions{NumWarps: r.Meta.NumWarps, SharedBytes: r.Meta.SharedBytes})
			if err != nil {
				t.Fatal(err)
			}
			if err := k.Launch(driver.Grid{2, 1, 1}, upload(t, d, x), int32(len(x))); err != nil {
				t.Fatal(err)
			}
			cpuOut.Reset()
			ck, err := c.Load(r.TileIR, "print_kernel", cpu.LoadOptions{NumWarps: 1})
			if err != nil {
				t.Fatal(err)
			}
			cx, err := driver.Upload(c, x)
			if err != nil {
				t.Fatal(err)
			}
			if err := ck.Launch(driver.Grid{2, 1, 1}, cx, int32(len(x))); err != nil {
				t.Fatal(err)
			}
			got, want := distinctLines(simOut.String()), distinctLines(cpuOut.String())
			if !slices.Equal(got, want) {
				t.Fatalf("the simulator printed\n%s\nthe CPU interpreter printed\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			t.Logf("%d distinct lines, e.g. %q", len(got), got[0])
			if len(got) < 20 {
				t.Fatalf("only %d distinct lines:\n%s", len(got), strings.Join(got, "\n"))
			}
		})
	}
}

// TestDeviceAssert runs tl.device_assert compiled with debug through lower's assert
// (NVIDIA's __assertfail, AMD's printf and trap): a failing element stops the program
// with the message and the assert's line (AMD prints it from each thread holding the
// element, then traps); passing elements and masked ones run on.
func TestDeviceAssert(t *testing.T) {
	f, err := frontend.Load("../../conformance/kernels/language_features.py", pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		isa             *ISA
		tgt, want, text string
	}{
		{NVIDIA, "cuda:90:32", "device assert failed at ../../conformance/kernels/language_features.py:51: x must be non-negative", ""},
		{AMD, "hip:gfx942:64", "trap", "device assertion failed: 'x must be non-negative', in unknown at ../../conformance/kernels/language_features.py:51\n"},
	} {
		t.Run(tc.tgt, func(t *testing.T) {
			opts := compiler.Options{Options: semantic.Options{SignatureText: "*fp32:16, *fp32:16, i32, 4", NumWarps: 1, Target: tc.tgt, Debug: true}}
			r, err := compiler.Compile(f, "assert_kernel", opts, compiler.LLVM)
			if err != nil {
				t.Fatal(err)
			}
			for _, bad := range []bool{false, true} {
				var out bytes.Buffer
				d := New(tc.isa, Options{Workers: 1, Stdout: &out})
				k, err := d.Load(r.LLVM, "assert_kernel", LoadOptions{NumWarps: r.Meta.NumWarps, SharedBytes: r.Meta.SharedBytes})
				if err != nil {
					t.Fatal(err)
				}
				x := []float32{4, 9, 0, 1, 16, 25, -1, -1} // 6 and 7 are masked off
				if bad {
					x[5] = -2
				}
				y := upload(t, d, make([]float32, 8))
				err = k.Launch(driver.Grid{2, 1, 1}, upload(t, d, x), y, int32(6))
				switch {
				case !bad && err != nil:
					t.Fatalf("no element fails, but: %v", err)
				case !bad:
					if got := download[float32](t, y); got[4] != 4 || got[5] != 5 {
						t.Errorf("y = %v", got)
					}
				case err == nil || !strings.Contains(err.Error(), tc.want):
					t.Errorf("error %v, want %q", err, tc.want)
				case tc.text != "" && !slices.Equal(distinctLines(out.String()), []string{strings.TrimSpace(tc.text)}):
					t.Errorf("printed %q, want (once per thread holding the element) %q", out.String(), tc.text)
				}
			}
		})
	}
}
