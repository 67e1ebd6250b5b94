package ptx

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llir/llvm/asm"
	"github.com/llir/llvm/ir"

	"github.com/gotriton/gotriton/internal/golden"
)

// testKernels returns the LLVM IR inputs in testdata.
func testKernels(t testing.TB) []string {
	files, err := filepath.Glob("testdata/*.ll")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/*.ll: %v", err)
	}
	return files
}

func parse(t testing.TB, file string) *ir.Module {
	m, err := asm.ParseFile(file)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return m
}

// TestGolden compiles every testdata/*.ll and compares the PTX with the
// .ptx file next to it; -update rewrites them. Every output also passes the
// structural check.
func TestGolden(t *testing.T) {
	for _, file := range testKernels(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			got, err := Compile(parse(t, file), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := Check(got); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, strings.TrimSuffix(file, ".ll")+".ptx", got)
		})
	}
}

// TestGoldenFilesPassCheck runs the structural check on the committed
// goldens themselves, the files the lead gives to ptxas.
func TestGoldenFilesPassCheck(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.ptx")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(string(src)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// findLLC locates Debian's llc-22.
func findLLC() string {
	if p, err := exec.LookPath("llc-22"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/lib/llvm-22/bin/llc"); err == nil {
		return "/usr/lib/llvm-22/bin/llc"
	}
	return ""
}

// TestLLCAcceptsInputs checks that every test input is also valid LLVM IR
// for LLVM's NVPTX backend, so that the subset we accept is real LLVM IR
// (and --via-llc can compile it).
func TestLLCAcceptsInputs(t *testing.T) {
	llc := findLLC()
	if llc == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("llc-22 not found (apt-get install llvm-22)")
		}
		t.Skip("llc-22 not found; install Debian's llvm-22 to cross-check the inputs")
	}
	for _, file := range testKernels(t) {
		out, err := exec.Command(llc, "-march=nvptx64", "-mcpu=sm_90", "-mattr=+ptx84", "-o", os.DevNull, file).CombinedOutput()
		if err != nil {
			t.Errorf("%s: llc-22 rejects it: %v\n%s", file, err, out)
		}
	}
}

// BenchmarkCompile emits PTX for the largest test kernel.
func BenchmarkCompile(b *testing.B) {
	var largest string
	var size int64
	for _, f := range testKernels(b) {
		if st, err := os.Stat(f); err == nil && st.Size() > size {
			largest, size = f, st.Size()
		}
	}
	m := parse(b, largest)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Compile(m, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
