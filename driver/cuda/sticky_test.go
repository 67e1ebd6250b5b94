package cuda

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/driver"
)

func TestStickyErrors(t *testing.T) {
	for code, sticky := range map[int]bool{
		700: true, 702: true, 710: true, 714: true, 715: true, 716: true, 717: true, 718: true, 719: true, 214: true,
		1: false, 2: false, 200: false, 218: false, 701: false, 720: false, 999: false,
	} {
		e := &Error{Call: "cuStreamSynchronize", Code: code}
		if e.Sticky() != sticky {
			t.Errorf("CUresult %d: Sticky() = %v, want %v", code, e.Sticky(), sticky)
		}
		if got := IsSticky(fmt.Errorf("cuda: launch k: %w", e)); got != sticky {
			t.Errorf("CUresult %d wrapped: IsSticky = %v, want %v", code, got, sticky)
		}
	}
	if IsSticky(errors.New("plain")) || IsSticky(nil) {
		t.Error("a non-CUDA error is sticky")
	}
}

// TestStaleAfterReset checks, without a GPU, that buffers and kernels from before a
// context reset refuse to be used with an error that names the fault, and that freeing
// or unloading them is a quiet no-op (the reset freed them already).
func TestStaleAfterReset(t *testing.T) {
	fault := &Error{Call: "cuStreamSynchronize", Code: 716, Name: "CUDA_ERROR_MISALIGNED_ADDRESS", Desc: "misaligned address"}
	d := &Device{gen: 1, reset: fault} // one Reset happened
	old := &Buffer{d: d, ptr: 0x7f0000000000, size: 64, gen: 0}
	var se *StaleError
	for name, err := range map[string]error{
		"Write":  old.Write(0, make([]byte, 4)),
		"Read":   old.Read(0, make([]byte, 4)),
		"Memset": old.Memset(0, 4, 0),
	} {
		if !errors.As(err, &se) || se.What != "buffer" || !strings.Contains(err.Error(), "CUDA_ERROR_MISALIGNED_ADDRESS") {
			t.Errorf("%s on a stale buffer: %v", name, err)
		}
	}
	if err := old.Free(); err != nil || old.Ptr() != 0 {
		t.Errorf("Free of a stale buffer: %v (ptr %#x)", err, old.Ptr())
	}
	k := &Kernel{d: d, name: "k", fn: 1, mod: 1, gen: 0}
	err := k.Launch(driver.Grid{1, 1, 1})
	if !errors.As(err, &se) || se.What != "kernel" {
		t.Errorf("Launch of a stale kernel: %v", err)
	}
	if err := k.Unload(); err != nil || k.fn != 0 {
		t.Errorf("Unload of a stale kernel: %v", err)
	}
	// A kernel loaded after the reset refuses a buffer from before it.
	fresh := &Kernel{d: d, name: "k", fn: 1, mod: 1, gen: 1}
	stale := &Buffer{d: d, ptr: 0x7f0000000000, size: 64, gen: 0}
	if _, _, err := fresh.encode(stale); !errors.As(err, &se) {
		t.Errorf("a stale buffer as an argument: %v", err)
	}
}

// TestEntryParams checks the parameter count that paramSizes asks cuFuncGetParamInfo
// about: exactly the PTX entry's parameters, so that no query fails (compute-sanitizer
// flagged the old probe one index past the last parameter).
func TestEntryParams(t *testing.T) {
	vadd, err := testdata.ReadFile("testdata/vadd.ptx")
	if err != nil {
		t.Fatal(err)
	}
	const two = `.visible .entry k2(.param .u64 a, .param .align 8 .b8 b[128])
{ ret; }
.visible .entry k(
	.param .u64 k_param_0,
	.param .u32 k_param_1,
	.param .u64 k_param_2
)
{ ret; }
.entry empty() { ret; }`
	for _, tc := range []struct {
		ptx, name string
		want      int
	}{
		{string(vadd), "add_kernel", 6},
		{two, "k", 3},
		{two, "k2", 2},
		{two, "empty", 0},
		{two, "missing", -1},
	} {
		if got := entryParams(tc.ptx, tc.name); got != tc.want {
			t.Errorf("entryParams(%s) = %d, want %d", tc.name, got, tc.want)
		}
	}
}
