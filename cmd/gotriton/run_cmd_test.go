package main

import (
	"encoding/binary"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/npy"
)

func writeF32(t *testing.T, path string, xs []float32) {
	t.Helper()
	a, _ := npy.New("<f4", len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint32(a.Data[4*i:], math.Float32bits(x))
	}
	if err := a.WriteFile(path); err != nil {
		t.Fatal(err)
	}
}

func readF32(t *testing.T, path string) []float32 {
	t.Helper()
	a, err := npy.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float32, a.Len())
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(a.Data[4*i:]))
	}
	return out
}

func TestRunCommand(t *testing.T) {
	dir := t.TempDir()
	const n = 3000
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), float32(2*i)+0.5
	}
	a, b, out := filepath.Join(dir, "a.npy"), filepath.Join(dir, "b.npy"), filepath.Join(dir, "out.npy")
	writeF32(t, a, x)
	writeF32(t, b, y)
	writeF32(t, out, make([]float32, n))
	stdout, stderr, code := gotriton("run", "../../conformance/kernels/vector_add.py", "-n", "vector_add_kernel",
		"-s", "*fp32:16, *fp32:16, *fp32:16, i32, 1024", "-g", "cdiv(numel, 1024),1,1", "-w", "4", "-ns", "3",
		"--args", a+","+b+","+out+",3000")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "wrote "+out) || strings.Contains(stdout, a) {
		t.Errorf("stdout %q: want only out.npy written", stdout)
	}
	got := readF32(t, out)
	for i := range got {
		if got[i] != x[i]+y[i] {
			t.Fatalf("out[%d] = %v, want %v", i, got[i], x[i]+y[i])
		}
	}
}

func TestRunCommandErrors(t *testing.T) {
	dir := t.TempDir()
	f32, i8 := filepath.Join(dir, "f.npy"), filepath.Join(dir, "i.npy")
	writeF32(t, f32, make([]float32, 16))
	ia, _ := npy.New("|i1", 16)
	ia.WriteFile(i8)
	k := "../../conformance/kernels/vector_add.py"
	sig := "*fp32:16, *fp32:16, *fp32:16, i32, 1024"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", k, "-n", "vector_add_kernel", "-s", sig, "-g", "1", "--args", f32 + "," + f32}, "2 values"},
		{[]string{"run", k, "-n", "vector_add_kernel", "-s", sig, "-g", "1", "--args", f32 + "," + i8 + "," + f32 + ",16"}, "holds |i1"},
		{[]string{"run", k, "-n", "vector_add_kernel", "-s", sig, "-g", "cdiv(m,4)", "--args", f32 + "," + f32 + "," + f32 + ",16"}, "unknown name"},
		{[]string{"run", k, "-n", "vector_add_kernel", "-s", sig, "-g", "1", "--args", f32 + "," + f32 + "," + f32 + ",x"}, "not an integer"},
		{[]string{"run", k, "-n", "vector_add_kernel", "-s", sig, "-g", "1", "--args", "missing.npy," + f32 + "," + f32 + ",16"}, "missing.npy"},
		{[]string{"run", k, "-n", "vector_add_kernel", "-s", sig, "-g", "2", "--args", f32 + "," + f32 + "," + f32 + ",2048"}, "out of bounds"},
		{[]string{"run", k, "-n", "vector_add_kernl", "-s", sig, "-g", "1", "--args", ""}, "did you mean"},
	}
	for _, tt := range tests {
		_, errOut, code := gotriton(tt.args...)
		if code != 1 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", tt.args[len(tt.args)-1], code, errOut, tt.want)
		}
	}
}

func TestParseGrid(t *testing.T) {
	vars := map[string]int64{"n": 98432, "M": 300}
	tests := []struct {
		s    string
		want [3]int
	}{
		{"n/1024,1,1", [3]int{96, 1, 1}},
		{"cdiv(n, 1024)", [3]int{97, 1, 1}},
		{"(M + 127) / 128 * 2, 3", [3]int{6, 3, 1}},
		{"1_000 % 7, -(-2), 1", [3]int{6, 2, 1}},
	}
	for _, tt := range tests {
		g, err := parseGrid(tt.s, vars)
		if err != nil || [3]int(g) != tt.want {
			t.Errorf("%q: %v %v, want %v", tt.s, g, err, tt.want)
		}
	}
	for _, bad := range []string{"", "1,2,3,4", "n/0", "(1", "2 3", "-1"} {
		if _, err := parseGrid(bad, vars); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
