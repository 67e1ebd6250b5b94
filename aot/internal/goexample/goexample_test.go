package goexample

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/aot"
	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/driver/cuda"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

// generated are the launchers of doc.go's go:generate lines.
var generated = []struct {
	file, kernel, sig, grid, outName string
	warps, stages                    int
}{
	{"vector_add.py", "vector_add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 1024", "(numel + 1023) / 1024, 1, 1", "vector_add", 4, 3},
	{"matmul.py", "grouped_matmul_kernel", "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 64, 8, None",
		"((M + 127) / 128) * ((N + 255) / 256), 1, 1", "matmul", 8, 3},
}

var ptxConst = regexp.MustCompile("(?s)PTX = `.*?`")

// TestUpToDate checks that the committed launchers are what gotriton writes now, apart
// from the PTX they embed (which changes with the compiler and only has to be valid).
func TestUpToDate(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range generated {
		if !strings.Contains(string(doc), `-s "`+g.sig+`" -g "`+g.grid+`"`) {
			t.Errorf("doc.go's go:generate lines lack %s %s", g.sig, g.grid)
		}
		f, err := frontend.Load(filepath.Join("..", "..", "..", "conformance", "kernels", g.file), pyeval.Options{})
		if err != nil {
			t.Fatal(err)
		}
		k, err := aot.Compile(f, g.kernel, compiler.Options{Options: semantic.Options{SignatureText: g.sig, NumWarps: g.warps, NumStages: g.stages}}, compiler.PTX, nil)
		if err != nil {
			t.Fatal(err)
		}
		l, err := k.GoLauncher("goexample", g.outName, g.grid)
		if err != nil {
			t.Fatal(err)
		}
		committed, err := os.ReadFile(aot.OutputPath(g.outName, l.SigHash, l.Suffix, "go"))
		if err != nil {
			t.Fatalf("%v (run go generate)", err)
		}
		if ptxConst.ReplaceAllString(string(committed), "") != ptxConst.ReplaceAllString(l.Go, "") {
			t.Errorf("%s is out of date: run go generate", l.Name)
		}
	}
}

// TestOnGPU runs the committed launchers on the first CUDA device and checks every
// element: vector add of 98432 floats, and a 512³ fp16 matmul of values in {-1, 0, 1},
// whose results fp16 holds exactly.
func TestOnGPU(t *testing.T) {
	if os.Getenv("GOTRITON_CUDA") != "1" {
		t.Skip("set GOTRITON_CUDA=1 on a machine with an NVIDIA GPU")
	}
	d, err := cuda.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()

	const n = 98432
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i%1000)/7, float32(i%333)*0.5
	}
	add, err := LoadVectorAdd_caba951e_0d1d2d34(d)
	if err != nil {
		t.Fatal(err)
	}
	defer add.Unload()
	bx, by, bout := upload(t, d, x), upload(t, d, y), upload(t, d, make([]float32, n))
	if err := add.Launch(bx, by, bout, n); err != nil {
		t.Fatal(err)
	}
	out := download[float32](t, d, bout)
	for i := range out {
		if out[i] != x[i]+y[i] {
			t.Fatalf("vector add: out[%d] = %v, want %v", i, out[i], x[i]+y[i])
		}
	}

	const m = 512
	a, b := make([]uint16, m*m), make([]uint16, m*m)
	vals := [3]uint16{0xbc00, 0, 0x3c00} // -1, 0, 1 in fp16
	for i := range a {
		a[i], b[i] = vals[(i*7+i/3)%3], vals[(i*5+i/m)%3]
	}
	mm, err := LoadMatmul_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516(d)
	if err != nil {
		t.Fatal(err)
	}
	defer mm.Unload()
	ba, bb, bc := upload(t, d, a), upload(t, d, b), upload(t, d, make([]uint16, m*m))
	if err := mm.Launch(ba, bb, bc, m, m, m, m, m, m); err != nil {
		t.Fatal(err)
	}
	c := download[uint16](t, d, bc)
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			want := 0.0
			for k := 0; k < m; k++ {
				want += half(a[i*m+k]) * half(b[k*m+j])
			}
			if got := half(c[i*m+j]); got != want {
				t.Fatalf("matmul: c[%d][%d] = %v, want %v", i, j, got, want)
			}
		}
	}
}

// half decodes a finite fp16.
func half(h uint16) float64 {
	e, frac := int(h>>10&31), float64(h&1023)
	v := math.Ldexp(frac, -24)
	if e != 0 {
		v = math.Ldexp(1024+frac, e-25)
	}
	if h>>15 != 0 {
		return -v
	}
	return v
}

func upload[T driver.Elem](t *testing.T, d *cuda.Device, data []T) *cuda.Buffer {
	t.Helper()
	b, err := driver.Upload(d, data)
	if err != nil {
		t.Fatal(err)
	}
	return b.(*cuda.Buffer)
}

func download[T driver.Elem](t *testing.T, d *cuda.Device, b *cuda.Buffer) []T {
	t.Helper()
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	out, err := driver.Download[T](b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
