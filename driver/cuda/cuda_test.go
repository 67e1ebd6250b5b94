package cuda

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// TestNoDriver checks the error on a machine without libcuda.so.1 (CI, and any machine
// without an NVIDIA driver): a clear message, never a crash.
func TestNoDriver(t *testing.T) {
	if _, err := lib(); err == nil {
		t.Skip("libcuda.so.1 is present")
	}
	_, err := Open(0)
	var nd *NoDriverError
	if !errors.As(err, &nd) {
		t.Fatalf("Open(0) = %v (%T), want a *NoDriverError", err, err)
	}
	want := "cuda: no NVIDIA driver found (libcuda.so.1 could not be loaded: libcuda.so.1: cannot open shared object file: No such file or directory); use --device cpu"
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		want = "cuda: no NVIDIA driver found (libcuda.so.1 could not be loaded: not supported on " + runtime.GOOS + "/" + runtime.GOARCH + "); use --device cpu"
	}
	if err.Error() != want {
		t.Errorf("Open(0) error:\n got %s\nwant %s", err, want)
	}
	if _, err2 := DeviceCount(); err2 == nil || err2.Error() != err.Error() {
		t.Errorf("DeviceCount() error = %v, want %v", err2, err)
	}
}

// TestBuildsWithoutCgo cross-builds the package with CGO_ENABLED=0, which purego makes
// possible, for the two architectures that load the driver.
func TestBuildsWithoutCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package twice")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no Go toolchain here")
	}
	if _, err := os.Stat("cuda.go"); err != nil {
		t.Skip("not run in the package's source folder")
	}
	for _, arch := range []string{"amd64", "arm64"} {
		cmd := exec.Command(gobin, "build", ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+arch)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("CGO_ENABLED=0 GOARCH=%s go build: %v\n%s", arch, err, out)
		}
	}
}

func TestErrorMessage(t *testing.T) {
	e := &Error{Call: "cuModuleLoadDataEx", Code: 218, Name: "CUDA_ERROR_INVALID_PTX",
		Desc: "a PTX JIT compilation failed", Log: "ptxas application ptx input, line 3; error   : syntax error"}
	want := "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed): ptxas application ptx input, line 3; error   : syntax error"
	if e.Error() != want {
		t.Errorf("got  %s\nwant %s", e, want)
	}
	e.Log = ""
	if got := e.Error(); got != "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)" {
		t.Errorf("without a log: %s", got)
	}
}

// TestLaunchStructLayout checks the Go mirrors of CUlaunchConfig and CUlaunchAttribute
// against cuda.h's layout on 64-bit machines.
func TestLaunchStructLayout(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("32-bit")
	}
	var c launchConfig
	var a launchAttribute
	for _, f := range []struct {
		name      string
		got, want uintptr
	}{
		{"sizeof(CUlaunchConfig)", unsafe.Sizeof(c), 56},
		{"offsetof(sharedMemBytes)", unsafe.Offsetof(c.sharedBytes), 24},
		{"offsetof(hStream)", unsafe.Offsetof(c.stream), 32},
		{"offsetof(attrs)", unsafe.Offsetof(c.attrs), 40},
		{"offsetof(numAttrs)", unsafe.Offsetof(c.numAttrs), 48},
		{"sizeof(CUlaunchAttribute)", unsafe.Sizeof(a), 72},
		{"offsetof(value)", unsafe.Offsetof(a.value), 8},
	} {
		if f.got != f.want {
			t.Errorf("%s = %d, want %d", f.name, f.got, f.want)
		}
	}
	if at := newLaunchAttribute(launchAttrProgrammatic, 1); at.id != 6 || at.value[0] != 1 || at.value[4] != 0 {
		t.Errorf("newLaunchAttribute = %+v", at)
	}
}

func TestEncodeScalar(t *testing.T) {
	for _, c := range []struct {
		arg  any
		bits uint64
		size int
	}{
		{true, 1, 1},
		{false, 0, 1},
		{int8(-1), 0xff, 1},
		{uint8(200), 200, 1},
		{int16(-2), 0xfffe, 2},
		{uint16(0x3c00), 0x3c00, 2},
		{int32(-1), 0xffffffff, 4},
		{uint32(98432), 98432, 4},
		{float32(1.5), 0x3fc00000, 4},
		{int64(-1), ^uint64(0), 8},
		{uint64(1) << 40, 1 << 40, 8},
		{float64(-2), 0xc000000000000000, 8},
	} {
		bits, size, err := encodeScalar(c.arg)
		if err != nil || bits != c.bits || size != c.size {
			t.Errorf("encodeScalar(%T %v) = %#x, %d, %v; want %#x, %d", c.arg, c.arg, bits, size, err, c.bits, c.size)
		}
	}
	for _, arg := range []any{1, uint(1), "x", []float32{1}} {
		if _, _, err := encodeScalar(arg); err == nil {
			t.Errorf("encodeScalar(%T) succeeded", arg)
		}
	}
	if _, _, err := encodeScalar(7); err == nil || !strings.Contains(err.Error(), "pass int32 or int64") {
		t.Errorf("encodeScalar(int) error = %v", err)
	}
}

func TestMedian(t *testing.T) {
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median odd = %v", m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median even = %v", m)
	}
}

func TestGoString(t *testing.T) {
	if s := goString([]byte("abc\x00def")); s != "abc" {
		t.Errorf("goString = %q", s)
	}
	if s := goString([]byte("abc")); s != "abc" {
		t.Errorf("goString without NUL = %q", s)
	}
}

// TestTensorMapArgs checks the translation of a row-major descriptor (outermost first, in
// elements) into cuTensorMapEncodeTiled's innermost-first arguments, and TMA's rules.
func TestTensorMapArgs(t *testing.T) {
	for _, c := range []struct {
		name                string
		dtype               string
		shape, strides, box []int64
		swizzle             int
		want                tensorMapArgs
	}{
		{"fp16 300x104 by 128x64", "fp16", []int64{300, 104}, []int64{104, 1}, []int64{128, 64}, 0,
			tensorMapArgs{dataType: tmaFloat16, globalDim: []uint64{104, 300}, globalStrides: []uint64{208}, boxDim: []uint32{64, 128}, elemStrides: []uint32{1, 1}}},
		{"fp8 rank 3", "fp8e5", []int64{4, 8, 256}, []int64{4096, 512, 1}, []int64{1, 2, 32}, 0,
			tensorMapArgs{dataType: tmaUint8, globalDim: []uint64{256, 8, 4}, globalStrides: []uint64{512, 4096}, boxDim: []uint32{32, 2, 1}, elemStrides: []uint32{1, 1, 1}}},
		{"fp16 slab of 64x64, 128B swizzle", "fp16", []int64{512, 512}, []int64{512, 1}, []int64{64, 64}, 128,
			tensorMapArgs{dataType: tmaFloat16, globalDim: []uint64{512, 512}, globalStrides: []uint64{1024}, boxDim: []uint32{64, 64}, elemStrides: []uint32{1, 1}, swizzle: 3}},
		{"fp32 rows of 64 bytes, 64B swizzle", "fp32", []int64{256, 256}, []int64{256, 1}, []int64{128, 16}, 64,
			tensorMapArgs{dataType: tmaFloat32, globalDim: []uint64{256, 256}, globalStrides: []uint64{1024}, boxDim: []uint32{16, 128}, elemStrides: []uint32{1, 1}, swizzle: 2}},
		{"fp16 rows of 16 bytes, 32B swizzle", "fp16", []int64{64, 64}, []int64{64, 1}, []int64{64, 8}, 32,
			tensorMapArgs{dataType: tmaFloat16, globalDim: []uint64{64, 64}, globalStrides: []uint64{128}, boxDim: []uint32{8, 64}, elemStrides: []uint32{1, 1}, swizzle: 1}},
	} {
		a, err := newTensorMapArgs(c.dtype, 0x7f0000001000, c.shape, c.strides, c.box, c.swizzle)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
		} else if fmt.Sprint(a) != fmt.Sprint(c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, a, c.want)
		}
	}
	for _, c := range []struct {
		dtype               string
		addr                uint64
		shape, strides, box []int64
		swizzle             int
		want                string
	}{
		{"fp16", 0x1000, []int64{300, 100}, []int64{100, 1}, []int64{128, 64}, 0, "dimension 0's stride is 200 bytes (TMA: a positive multiple of 16 below 2^40)"},
		{"fp16", 0x1008, []int64{8, 8}, []int64{8, 1}, []int64{8, 8}, 0, "base address 0x1008 is not 16-byte aligned"},
		{"fp32", 0x1000, []int64{8, 8}, []int64{1, 8}, []int64{8, 8}, 0, "the last dimension must be contiguous (stride 8)"},
		{"fp16", 0x1000, []int64{8, 8}, []int64{8, 1}, []int64{8, 4}, 0, "a box row of 8 bytes (4 × fp16) is not a multiple of 16 bytes"},
		{"fp16", 0x1000, []int64{8, 8}, []int64{8, 1}, []int64{8, 4}, 32, "a box row of 8 bytes (4 × fp16) is not a multiple of 16 bytes"},
		{"fp32", 0x1000, []int64{1024, 1024}, []int64{1024, 1}, []int64{512, 16}, 0, "box dimension 0 is 512 (TMA: 1 to 256)"},
		{"fp32", 0x1000, []int64{2, 2, 2, 2, 2, 4}, []int64{64, 32, 16, 8, 4, 1}, []int64{1, 1, 1, 1, 1, 4}, 0, "tensor descriptor of rank 6: TMA takes 1 to 5 dimensions"},
		{"str", 0x1000, []int64{8}, []int64{1}, []int64{8}, 0, "tensor descriptor of str: TMA has no such element type"},
		{"fp16", 0x1000, []int64{64, 64}, []int64{64, 1}, []int64{64, 64}, 16, "a swizzle of 16 bytes (TMA: 0, 32, 64 or 128)"},
		{"fp16", 0x1000, []int64{64, 256}, []int64{256, 1}, []int64{64, 256}, 128, "a box row of 512 bytes (256 × fp16) is wider than its 128-byte swizzle"},
		{"fp32", 0x1000, []int64{64, 64}, []int64{64, 1}, []int64{64, 32}, 64, "a box row of 128 bytes (32 × fp32) is wider than its 64-byte swizzle"},
		{"i8", 0x1000, []int64{64, 64}, []int64{64, 1}, []int64{64, 48}, 32, "a box row of 48 bytes (48 × i8) is wider than its 32-byte swizzle"},
	} {
		_, err := newTensorMapArgs(c.dtype, c.addr, c.shape, c.strides, c.box, c.swizzle)
		if err == nil || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("%s %v/%v box %v swizzle %d: got error %v, want one ending %q", c.dtype, c.shape, c.strides, c.box, c.swizzle, err, c.want)
		}
	}
}
