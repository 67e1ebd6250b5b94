package cuda

import (
	"embed"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/driver"
)

// The PTX kernels are embedded so that a test binary built with
// `go test -c` runs anywhere, without the source tree.
//
//go:embed testdata/*.ptx
var testdata embed.FS

// openGPU opens device 0, or skips the test unless GOTRITON_CUDA=1.
func openGPU(t *testing.T) *Device {
	t.Helper()
	if os.Getenv("GOTRITON_CUDA") != "1" {
		t.Skip("set GOTRITON_CUDA=1 to run on a GPU")
	}
	d, err := Open(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	})
	return d
}

// loadTest loads kernel name from testdata/file.
func loadTest(t *testing.T, d *Device, file, name string, opts LoadOptions) *Kernel {
	t.Helper()
	ptx, err := testdata.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	k, err := d.LoadPTX(string(ptx), name, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := k.Unload(); err != nil {
			t.Error(err)
		}
	})
	return k
}

// upload copies data to a new buffer on d, freed when the test ends.
func upload[T driver.Elem](t *testing.T, d *Device, data []T) *Buffer {
	t.Helper()
	b, err := driver.Upload(d, data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Free() })
	return b.(*Buffer)
}

// download reads a whole buffer.
func download[T driver.Elem](t *testing.T, b *Buffer) []T {
	t.Helper()
	out, err := driver.Download[T](b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// randomFloats returns n reproducible floats in [-1000, 1000).
func randomFloats(n int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(r.Float64()*2000 - 1000)
	}
	return out
}

func TestGPUDevice(t *testing.T) {
	d := openGPU(t)
	t.Logf("%s: %d SMs, %d bytes shared memory per block (opt-in), driver %d",
		d.Name(), d.SMCount(), d.MaxSharedBytes(), d.DriverVersion())
	if !strings.HasPrefix(d.Name(), "cuda: ") || d.Capability() < 80 || d.SMCount() < 1 || d.MaxSharedBytes() < 48<<10 {
		t.Errorf("implausible device: %s, capability %d, %d SMs, %d shared", d.Name(), d.Capability(), d.SMCount(), d.MaxSharedBytes())
	}
	if n, err := DeviceCount(); err != nil || n < 1 {
		t.Errorf("DeviceCount() = %d, %v", n, err)
	}
	if _, err := Open(1 << 20); err == nil {
		t.Error("Open(1<<20) succeeded")
	}
}

// TestGPUVectorAdd runs the tutorial's vector add (n = 98432, 97 programs of 1024) and
// checks every element exactly, and that the masked tail past n stays untouched.
func TestGPUVectorAdd(t *testing.T) {
	d := openGPU(t)
	k := loadTest(t, d, "vadd.ptx", "add_kernel", LoadOptions{NumWarps: 4})
	info, err := k.Info()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("add_kernel: %+v, parameter sizes %v", info, k.params)
	const n = 98432
	x, y := randomFloats(n, 1), randomFloats(n, 2)
	sentinel := slices.Repeat([]float32{-7}, n+1024)
	bx, by, bout := upload(t, d, x), upload(t, d, y), upload(t, d, sentinel)
	grid := driver.Grid{(n + 1023) / 1024, 1, 1}
	if err := k.Launch(grid, bx, by, bout, int32(n)); err != nil {
		t.Fatal(err)
	}
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	out := download[float32](t, bout)
	for i := range out {
		want := float32(-7)
		if i < n {
			want = x[i] + y[i]
		}
		if out[i] != want {
			t.Fatalf("out[%d] = %v, want %v", i, out[i], want)
		}
	}
}

// TestGPUMemory checks zero-filled allocation, copies at offsets, memset, bounds and Free.
func TestGPUMemory(t *testing.T) {
	d := openGPU(t)
	b, err := d.alloc(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]byte, b.Size())
	if err := b.Read(0, got); err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(got, func(c byte) bool { return c != 0 }) {
		t.Fatal("Alloc did not zero the buffer")
	}
	data := []byte("gotriton round trip")
	if err := b.Write(1000, data); err != nil {
		t.Fatal(err)
	}
	if err := b.Memset(10, 100, 0xab); err != nil {
		t.Fatal(err)
	}
	if err := b.Read(0, got); err != nil {
		t.Fatal(err)
	}
	want := make([]byte, b.Size())
	copy(want[1000:], data)
	for i := 10; i < 110; i++ {
		want[i] = 0xab
	}
	if !slices.Equal(got, want) {
		t.Fatal("round trip mismatch")
	}
	part := make([]byte, 8)
	if err := b.Read(1004, part); err != nil || string(part) != "iton rou" {
		t.Fatalf("Read at offset = %q, %v", part, err)
	}
	for _, err := range []error{
		b.Write(b.Size()-1, []byte{1, 2}),
		b.Read(-1, part),
		b.Memset(0, b.Size()+1, 0),
	} {
		if err == nil || !strings.Contains(err.Error(), "outside") {
			t.Errorf("out-of-range access: error %v", err)
		}
	}
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
	if err := b.Free(); err != nil {
		t.Errorf("second Free: %v", err)
	}
	if err := b.Read(0, part); err == nil || !strings.Contains(err.Error(), "freed") {
		t.Errorf("Read after Free: %v", err)
	}
	empty, err := d.Alloc(0)
	if err != nil || empty.Size() != 0 || empty.Write(0, nil) != nil || empty.Free() != nil {
		t.Errorf("zero-size buffer: %v", err)
	}
	ints := []int64{-1, 1 << 40, 3}
	if got := download[int64](t, upload(t, d, ints)); !slices.Equal(got, ints) {
		t.Errorf("int64 round trip = %v", got)
	}
}

// TestGPUTiming times the vector add with events; the median must be positive and
// plausible (n = 98432 floats move 1.2 MB, a few microseconds on an H200).
func TestGPUTiming(t *testing.T) {
	d := openGPU(t)
	k := loadTest(t, d, "vadd.ptx", "add_kernel", LoadOptions{NumWarps: 4})
	const n = 98432
	bx, by, bout := upload(t, d, randomFloats(n, 1)), upload(t, d, randomFloats(n, 2)), upload(t, d, make([]float32, n))
	run := func() error { return k.Launch(driver.Grid{(n + 1023) / 1024, 1, 1}, bx, by, bout, int32(n)) }
	ms, err := d.Time(run)
	if err != nil {
		t.Fatal(err)
	}
	warm, err := d.TimeWith(run, TimeOptions{Warmup: 3, Reps: 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("add_kernel n=%d: %.4f ms with L2 flushed (%.0f GB/s), %.4f ms with a warm L2", n, ms, 12*n/ms/1e6, warm)
	if ms <= 0 || ms > 100 || warm <= 0 || warm > 100 {
		t.Errorf("implausible times %v ms, %v ms", ms, warm)
	}
	if _, err := d.TimeWith(run, TimeOptions{}); err == nil {
		t.Error("TimeWith with no runs succeeded")
	}
	failing := errors.New("launch failed")
	if _, err := d.Time(func() error { return failing }); !errors.Is(err, failing) {
		t.Errorf("Time of a failing function: %v", err)
	}
}

// TestGPUBadPTX checks that a PTX error reports the call, the CUresult and the JIT log.
func TestGPUBadPTX(t *testing.T) {
	d := openGPU(t)
	ptx, err := testdata.ReadFile("testdata/vadd.ptx")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(ptx), "add.rn.f32 %f3, %f1, %f2;", "add.rn.f32 %f3, %f1, %undeclared;", 1)
	_, err = d.LoadPTX(bad, "add_kernel", LoadOptions{})
	t.Logf("bad PTX: %v", err)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("LoadPTX(bad) = %v (%T), want an *Error", err, err)
	}
	if e.Call != "cuModuleLoadDataEx" || e.Name != "CUDA_ERROR_INVALID_PTX" || e.Log == "" {
		t.Errorf("error %+v: want cuModuleLoadDataEx, CUDA_ERROR_INVALID_PTX and a JIT log", e)
	}
	msg := err.Error()
	if !strings.Contains(msg, "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX (") || !strings.HasSuffix(msg, "): "+e.Log) {
		t.Errorf("message %q lacks the call, the CUresult or the log", msg)
	}
	if _, err := d.LoadPTX(string(ptx), "no_such_kernel", LoadOptions{}); err == nil || !strings.Contains(err.Error(), "cuModuleGetFunction: CUDA_ERROR_NOT_FOUND") {
		t.Errorf("missing kernel: %v", err)
	}
}

// TestGPUSharedMemory runs a kernel that needs 64 KiB of dynamic shared memory, more than
// the default 48 KiB, and checks that asking for more than the device has fails at load.
func TestGPUSharedMemory(t *testing.T) {
	d := openGPU(t)
	k := loadTest(t, d, "reverse.ptx", "reverse_kernel", LoadOptions{NumWarps: 4, SharedBytes: 64 << 10})
	const programs = 300
	x := randomFloats(128*programs, 3)
	bx, bout := upload(t, d, x), upload(t, d, make([]float32, len(x)))
	if err := k.Launch(driver.Grid{programs, 1, 1}, bx, bout); err != nil {
		t.Fatal(err)
	}
	out := download[float32](t, bout)
	for i := range out {
		if want := x[i/128*128+127-i%128]; out[i] != want {
			t.Fatalf("out[%d] = %v, want %v", i, out[i], want)
		}
	}
	ptx, _ := testdata.ReadFile("testdata/reverse.ptx")
	if _, err := d.LoadPTX(string(ptx), "reverse_kernel", LoadOptions{SharedBytes: d.MaxSharedBytes() + 1}); err == nil || !strings.Contains(err.Error(), "bytes of shared memory") {
		t.Errorf("too much shared memory: %v", err)
	}
}

// TestGPUArguments checks the argument checks made with the kernel's parameter sizes.
func TestGPUArguments(t *testing.T) {
	d := openGPU(t)
	k := loadTest(t, d, "vadd.ptx", "add_kernel", LoadOptions{})
	if k.params == nil {
		t.Skip("the driver has no cuFuncGetParamInfo")
	}
	if want := []uintptr{8, 8, 8, 4, 8, 8}; !slices.Equal(k.params, want) {
		t.Errorf("parameter sizes %v, want %v", k.params, want)
	}
	b := upload(t, d, make([]float32, 1024))
	g := driver.Grid{1, 1, 1}
	for _, c := range []struct {
		args []any
		want string
	}{
		{[]any{b, b, b}, "3 arguments for 4 parameters"},
		{[]any{b, b, b, int64(1024)}, "argument 3 is int64 (8 bytes)"},
		{[]any{b, b, b, 1024}, "pass int32 or int64"},
		{[]any{b, b, int32(0), int32(1024)}, "argument 2 is int32"},
	} {
		if err := k.Launch(g, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Launch(%v): error %v, want %q", c.args, err, c.want)
		}
	}
	if err := k.Launch(driver.Grid{0, 1, 1}, b, b, b, int32(1024)); err != nil {
		t.Errorf("empty grid: %v", err)
	}
}

// TestGPUScratch checks that a kernel declaring global scratch gets an aligned buffer of
// size times the number of programs, reused by later launches.
func TestGPUScratch(t *testing.T) {
	d := openGPU(t)
	k := loadTest(t, d, "vadd.ptx", "add_kernel", LoadOptions{GlobalScratchBytes: 96, GlobalScratchAlign: 1024})
	const n = 5000
	x, y := randomFloats(n, 4), randomFloats(n, 5)
	bx, by, bout := upload(t, d, x), upload(t, d, y), upload(t, d, make([]float32, n))
	for range 2 {
		if err := k.Launch(driver.Grid{(n + 1023) / 1024, 1, 1}, bx, by, bout, int32(n)); err != nil {
			t.Fatal(err)
		}
	}
	s := k.scratch[0]
	if s == nil || s.Size() < 5*96 || k.scratch[1] != nil {
		t.Fatalf("scratch buffers %v", k.scratch)
	}
	if ptr, _ := k.scratchFor(0, 5*96, 1024); ptr%1024 != 0 || k.scratch[0] != s {
		t.Errorf("scratch at %#x, buffer reused: %v", ptr, k.scratch[0] == s)
	}
	out := download[float32](t, bout)
	for i := range out {
		if out[i] != x[i]+y[i] {
			t.Fatalf("out[%d] = %v, want %v", i, out[i], x[i]+y[i])
		}
	}
}

// TestGPULaunchAttributes runs two dependent kernels with programmatic dependent launch
// (sm_90): b = (x + y) + y, the second waiting with griddepcontrol.wait. Then a
// cooperative launch of the plain vector add.
func TestGPULaunchAttributes(t *testing.T) {
	d := openGPU(t)
	const n = 98432
	x, y := randomFloats(n, 6), randomFloats(n, 7)
	bx, by := upload(t, d, x), upload(t, d, y)
	ba, bb := upload(t, d, make([]float32, n)), upload(t, d, make([]float32, n))
	grid := driver.Grid{(n + 1023) / 1024, 1, 1}
	if d.Capability() >= 90 {
		k := loadTest(t, d, "vadd_pdl.ptx", "add_pdl_kernel", LoadOptions{PDL: true})
		for range 3 {
			if err := k.Launch(grid, bx, by, ba, int32(n)); err != nil {
				t.Fatal(err)
			}
			if err := k.Launch(grid, ba, by, bb, int32(n)); err != nil {
				t.Fatal(err)
			}
		}
		out := download[float32](t, bb)
		for i := range out {
			if want := (x[i] + y[i]) + y[i]; out[i] != want {
				t.Fatalf("PDL: out[%d] = %v, want %v", i, out[i], want)
			}
		}
	} else {
		t.Log("PDL needs sm_90; skipped")
	}
	k := loadTest(t, d, "vadd.ptx", "add_kernel", LoadOptions{Cooperative: true})
	if err := k.Launch(grid, bx, by, ba, int32(n)); err != nil {
		t.Fatal(err)
	}
	out := download[float32](t, ba)
	for i := range out {
		if out[i] != x[i]+y[i] {
			t.Fatalf("cooperative: out[%d] = %v, want %v", i, out[i], x[i]+y[i])
		}
	}
}

// TestGPUStickyFaultAndReset faults a kernel on a misaligned address, which poisons the
// context, and checks that Reset gives a working device again, on which buffers and
// kernels from before the reset report that they are gone.
func TestGPUStickyFaultAndReset(t *testing.T) {
	d := openGPU(t)
	bad := loadTest(t, d, "misaligned.ptx", "misaligned_kernel", LoadOptions{NumWarps: 1})
	buf := upload(t, d, make([]float32, 16))
	err := bad.Launch(driver.Grid{1, 1, 1}, buf)
	if err == nil {
		err = d.Synchronize()
	}
	if !IsSticky(err) || d.Fault() == nil {
		t.Fatalf("misaligned load: %v (fault %v), want a sticky error", err, d.Fault())
	}
	t.Logf("fault: %v", err)
	if err := d.Reset(); err != nil {
		t.Fatal(err)
	}
	if d.Fault() != nil {
		t.Errorf("fault after Reset: %v", d.Fault())
	}
	var se *StaleError
	if err := buf.Write(0, make([]byte, 4)); !errors.As(err, &se) {
		t.Errorf("Write to a buffer from before the reset: %v", err)
	}
	if err := bad.Launch(driver.Grid{1, 1, 1}, buf); !errors.As(err, &se) {
		t.Errorf("Launch of a kernel from before the reset: %v", err)
	}
	k := loadTest(t, d, "vadd.ptx", "add_kernel", LoadOptions{NumWarps: 4})
	x, y := randomFloats(1000, 3), randomFloats(1000, 4)
	bx, by, bout := upload(t, d, x), upload(t, d, y), upload(t, d, make([]float32, 1000))
	if err := k.Launch(driver.Grid{1, 1, 1}, bx, by, bout, int32(1000)); err != nil {
		t.Fatal(err)
	}
	out := download[float32](t, bout)
	for i := range out {
		if out[i] != x[i]+y[i] {
			t.Fatalf("after the reset: out[%d] = %v, want %v", i, out[i], x[i]+y[i])
		}
	}
}
