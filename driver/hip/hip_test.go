package hip

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/amdgcn"
	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/target"
)

// TestNoRuntime checks the error on a machine without libamdhip64 (every machine of this
// project): a clear message, never a crash.
func TestNoRuntime(t *testing.T) {
	if os.Getenv("TRITON_LIBHIP_PATH") != "" {
		t.Skip("TRITON_LIBHIP_PATH is set")
	}
	if _, err := lib(); err == nil {
		t.Skip("libamdhip64 is present")
	}
	_, err := Open(0)
	var nr *NoRuntimeError
	if !errors.As(err, &nr) {
		t.Fatalf("Open(0) = %v (%T), want a *NoRuntimeError", err, err)
	}
	reason := "libamdhip64.so: cannot open shared object file: No such file or directory"
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		reason = "not supported on " + runtime.GOOS + "/" + runtime.GOARCH
	}
	want := "hip: no AMD HIP runtime found (tried libamdhip64.so, libamdhip64.so.7, libamdhip64.so.6, /opt/rocm/lib/libamdhip64.so: " + reason + "); use --device cpu"
	if err.Error() != want {
		t.Errorf("Open(0) error:\n got %s\nwant %s", err, want)
	}
	if _, err2 := DeviceCount(); err2 == nil || err2.Error() != err.Error() {
		t.Errorf("DeviceCount() error = %v, want %v", err2, err)
	}
}

// TestLibraryPath: TRITON_LIBHIP_PATH alone is tried when set, and a file that is not a
// library is reported with the loader's reason.
func TestLibraryPath(t *testing.T) {
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		t.Skip("the runtime is loaded only on 64-bit Linux")
	}
	bad := filepath.Join(t.TempDir(), "libamdhip64.so")
	if err := os.WriteFile(bad, []byte("not a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TRITON_LIBHIP_PATH", bad)
	paths := libraryPaths()
	if len(paths) != 1 || paths[0] != bad {
		t.Fatalf("paths %q", paths)
	}
	_, err := load(paths)
	want := "hip: no AMD HIP runtime found (tried " + bad + ": " + bad + ": file too short); use --device cpu"
	if err == nil || err.Error() != want {
		t.Errorf("error:\n got %v\nwant %s", err, want)
	}
}

// TestBuildsWithoutCgo cross-builds the package with CGO_ENABLED=0, for the two
// architectures that load the runtime and one that does not.
func TestBuildsWithoutCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package three times")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no Go toolchain here")
	}
	for _, p := range []string{"linux/amd64", "linux/arm64", "darwin/arm64"} {
		goos, goarch, _ := strings.Cut(p, "/")
		cmd := exec.Command(gobin, "build", ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("CGO_ENABLED=0 %s go build: %v\n%s", p, err, out)
		}
	}
}

func TestErrorMessage(t *testing.T) {
	e := &Error{Call: "hipModuleLoadData", Code: 200, Name: "hipErrorInvalidImage", Desc: "device kernel image is invalid"}
	if got, want := e.Error(), "hipModuleLoadData: hipErrorInvalidImage (device kernel image is invalid)"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !IsError(e, 200) || IsError(e, 201) || IsError(errors.New("x"), 200) {
		t.Error("IsError")
	}
}

// fakeRuntime builds testdata/fakehip.c into a shared library and loads it.
func fakeRuntime(t *testing.T) *api {
	t.Helper()
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		t.Skip("the runtime is loaded only on 64-bit Linux")
	}
	cc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc to build the fake runtime")
	}
	so := filepath.Join(t.TempDir(), "libamdhip64.so")
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-O1", "-o", so, filepath.Join("testdata", "fakehip.c")).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	a, err := load([]string{filepath.Join(t.TempDir(), "absent.so"), so})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// vectorAdd compiles amdgcn's vector-add test kernel for gfx942.
func vectorAdd(t *testing.T) []byte {
	t.Helper()
	for _, tool := range []string{"llc-22", "ld.lld-22"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	src, err := os.ReadFile(filepath.Join("..", "..", "amdgcn", "testdata", "vector_add.ll"))
	if err != nil {
		t.Fatal(err)
	}
	tg, err := target.Parse("hip:gfx942:64")
	if err != nil {
		t.Fatal(err)
	}
	r, err := amdgcn.Compile(string(src), tg, amdgcn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r.HSACO
}

// TestFakeRuntime runs the whole path against the fake runtime: device facts, buffers, a
// code object made by package amdgcn, the launch and its arguments, and errors.
func TestFakeRuntime(t *testing.T) {
	hsaco := vectorAdd(t)
	d, err := open(fakeRuntime(t), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got := d.Name(); got != "hip: Fake Instinct MI300X (gfx942)" {
		t.Errorf("Name() = %q", got)
	}
	if d.Arch() != "gfx942" || d.WarpSize() != 64 || d.CUCount() != 304 || d.MaxSharedBytes() != 65536 || d.DriverVersion() != 70125424 {
		t.Errorf("device facts: %s %d %d %d %d", d.Arch(), d.WarpSize(), d.CUCount(), d.MaxSharedBytes(), d.DriverVersion())
	}
	if _, err := open(d.api, 1); err == nil || err.Error() != "hip: no device 1 (this machine has 1)" {
		t.Errorf("open(1): %v", err)
	}

	const n = 2500 // three programs, the last one partly masked
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), float32(2*i)+0.5
	}
	bx, err := driver.Upload(d, x)
	if err != nil {
		t.Fatal(err)
	}
	by, err := driver.Upload(d, y)
	if err != nil {
		t.Fatal(err)
	}
	bo, err := d.Alloc(4 * (n + 4)) // four floats past n that the kernel must not write
	if err != nil {
		t.Fatal(err)
	}
	k, err := d.LoadHSACO(hsaco, "add_kernel", LoadOptions{NumWarps: 4})
	if err != nil {
		t.Fatal(err)
	}
	if m := k.Metadata(); m.KernargBytes != 48 || len(m.Args) != 6 {
		t.Errorf("metadata %+v", m)
	}
	if info, err := k.Info(); err != nil || info != (KernelInfo{Registers: 14}) {
		t.Errorf("Info() = %+v, %v", info, err)
	}
	grid := driver.Grid{(n + 1023) / 1024, 1, 1}
	if err := k.Launch(grid, bx, by, bo, int32(n)); err != nil {
		t.Fatal(err)
	}
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	out, err := driver.Download[float32](bo)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		want := float32(0)
		if i < n {
			want = x[i] + y[i]
		}
		if v != want {
			t.Fatalf("out[%d] = %v, want %v", i, v, want)
		}
	}

	for _, c := range []struct {
		args []any
		want string
	}{
		{[]any{bx, by, bo}, "hip: launch add_kernel: 3 arguments for 4 parameters (the kernel has 6, two of them the scratch pointers)"},
		{[]any{bx, by, bo, int64(n)}, "hip: launch add_kernel: argument 3 is int64 (8 bytes) but the kernel's parameter 3 (n) has 4 bytes"},
		{[]any{bx, by, bo, n}, "hip: launch add_kernel: argument 3: int has no fixed size; pass int32 or int64 to match the parameter"},
		{[]any{bx, by, int32(0), int32(n)}, "hip: launch add_kernel: argument 2 is int32 (4 bytes) but the kernel's parameter 2 (out) has 8 bytes"},
		{[]any{bx, by, bo, int32(-1)}, "hip: launch add_kernel: hipModuleLaunchKernel: hipErrorLaunchFailure (unspecified launch failure)"},
	} {
		if err := k.Launch(grid, c.args...); err == nil || err.Error() != c.want {
			t.Errorf("Launch(%T...) error:\n got %v\nwant %s", c.args, err, c.want)
		}
	}
	if err := k.Launch(driver.Grid{0, 1, 1}, bx); err != nil {
		t.Errorf("an empty grid launches nothing, but: %v", err)
	}

	for _, c := range []struct {
		name string
		opts LoadOptions
		want string
	}{
		{"mul_kernel", LoadOptions{}, "hip: LoadHSACO mul_kernel: the code object has no kernel mul_kernel (it has add_kernel)"},
		{"add_kernel", LoadOptions{NumWarps: 8}, "hip: LoadHSACO add_kernel: 8 warps are 512 work-items, but the kernel was compiled for at most 256 (amdgpu-flat-work-group-size)"},
		{"add_kernel", LoadOptions{SharedBytes: 65537}, "hip: LoadHSACO add_kernel: needs 65537 bytes of LDS (65537 dynamic, 0 static); Fake Instinct MI300X allows 65536"},
	} {
		if _, err := d.LoadHSACO(hsaco, c.name, c.opts); err == nil || err.Error() != c.want {
			t.Errorf("LoadHSACO(%s, %+v) error:\n got %v\nwant %s", c.name, c.opts, err, c.want)
		}
	}
	if err := k.Unload(); err != nil {
		t.Fatal(err)
	}
	if err := k.Launch(grid, bx, by, bo, int32(n)); err == nil || err.Error() != "hip: launch add_kernel: the kernel was unloaded" {
		t.Errorf("launch after Unload: %v", err)
	}
	for _, b := range []driver.Buffer{bx, by, bo} {
		if err := b.Free(); err != nil {
			t.Fatal(err)
		}
	}
	if err := bo.Read(0, make([]byte, 4)); err == nil || err.Error() != "hip: Read on a freed buffer" {
		t.Errorf("Read after Free: %v", err)
	}
}
