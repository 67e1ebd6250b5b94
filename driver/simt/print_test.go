package simt

import (
	"bytes"
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

// distinctLines are the sorted distinct lines of s (a GPU prints an element once per
// thread that holds it).
func distinctLines(s string) []string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	slices.Sort(lines)
	return slices.Compact(lines)
}

// TestDevicePrint runs tl.device_print through lower's vprintf calls and compares the
// lines with the CPU interpreter's (as tools/gpu-report.sh does with a GPU).
func TestDevicePrint(t *testing.T) {
	f, err := frontend.Load("../../conformance/kernels/language_features.py", pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts := compiler.Options{Options: semantic.Options{SignatureText: "*fp32:16, i32, 8", NumWarps: 1, Target: "cuda:90:32"}}
	r, err := compiler.Compile(f, "print_kernel", opts, compiler.LLVM)
	if err != nil {
		t.Fatal(err)
	}
	x := []float32{1.5, -2, 0.25, 3, 4.5, -0.125, 7, 8.25, 9.5, -10}
	var simOut, cpuOut bytes.Buffer
	d := New(NVIDIA, Options{Workers: 2, Stdout: &simOut})
	k, err := d.Load(r.LLVM, "print_kernel", LoadOptions{NumWarps: r.Meta.NumWarps, SharedBytes: r.Meta.SharedBytes})
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Launch(driver.Grid{2, 1, 1}, upload(t, d, x), int32(len(x))); err != nil {
		t.Fatal(err)
	}
	c := cpu.New(cpu.Options{Workers: 1, Stdout: &cpuOut})
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
		t.Fatalf("nv-sim printed\n%s\nthe CPU interpreter printed\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	t.Logf("%d distinct lines, e.g. %q", len(got), got[0])
	if len(got) < 20 {
		t.Fatalf("only %d distinct lines:\n%s", len(got), strings.Join(got, "\n"))
	}
}
