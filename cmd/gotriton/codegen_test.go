package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// codegenKernels are test_maxnreg's and test_enable_reflect_ftz's kernels of Triton's
// test_core.py, launched as the tests launch them.
const codegenKernels = `import torch
import triton
import triton.language as tl


@triton.jit(noinline=True)
def maxnreg_noinline1(X):
    tl.store(X, 0)


@triton.jit(noinline=True)
def maxnreg_noinline2(X):
    tl.store(X, 0)


@triton.jit
def kernel(X):
    maxnreg_noinline1(X)
    tl.store(X, 0)
    maxnreg_noinline2(X)


@triton.jit
def exp2(data):
    ptrs = data + tl.arange(0, 128)
    tl.store(ptrs, tl.math.exp2(tl.load(ptrs)))


kernel[(1, )](torch.empty(1, dtype=torch.int32, device="cuda"))
exp2[(1, )](torch.full((128, ), -127.0, device="cuda", dtype=torch.float32))
`

// The regular expressions test_maxnreg and test_enable_reflect_ftz search the PTX with.
var (
	entryMaxNReg = regexp.MustCompile(`\.visible \.entry [^{;]*\.maxnreg 42`)
	anyMaxNReg   = regexp.MustCompile(`\.maxnreg`)
	ex2FTZ       = regexp.MustCompile(`ex2.approx.ftz.f32`)
)

// writeCodegenKernels writes codegenKernels to a temporary folder.
func writeCodegenKernels(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "codegen.py")
	if err := os.WriteFile(path, []byte(codegenKernels), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// compileAllPTX runs compile without -n into a fresh folder and returns the PTX it wrote
// for kernel.
func compileAllPTX(t *testing.T, path, kernel string, flags []string) string {
	t.Helper()
	outDir := filepath.Join(t.TempDir(), "out")
	if _, errOut, code := gotriton(append([]string{"compile", path, "-o", outDir}, flags...)...); code != 0 {
		t.Fatalf("compile -o DIR: exit %d: %s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(outDir, kernel+".*.ptx"))
	if len(files) != 1 {
		t.Fatalf("compile -o DIR wrote %v", files)
	}
	ptx, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(ptx)
}

// TestCompileMaxNReg: --maxnreg N puts .maxnreg N on the kernel's .entry (test_maxnreg's
// check), and --emit json and the metadata -g writes report it (null without it), as does
// compile without -n; a number that is not positive is an error.
func TestCompileMaxNReg(t *testing.T) {
	path := writeCodegenKernels(t)
	for _, tt := range []struct {
		flags []string
		ptx   *regexp.Regexp
		json  string
	}{
		{nil, nil, `"maxnreg": null,`},
		{[]string{"--maxnreg", "42"}, entryMaxNReg, `"maxnreg": 42,`},
	} {
		args := append([]string{"compile", path, "-n", "kernel", "-s", "*i32", "-w", "4"}, tt.flags...)
		ptx, errOut, code := gotriton(append(args, "--emit", "ptx")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.flags, code, errOut)
		}
		all := compileAllPTX(t, path, "kernel", tt.flags)
		for _, p := range []string{ptx, all} {
			if tt.ptx == nil && anyMaxNReg.MatchString(p) || tt.ptx != nil && !tt.ptx.MatchString(p) || strings.Contains(p, ".func") {
				t.Errorf("%v: PTX:\n%s", tt.flags, p)
			}
		}
		js, errOut, code := gotriton(append(args, "--emit", "json")...)
		if code != 0 || !strings.Contains(js, tt.json) {
			t.Errorf("%v: exit %d, want %s in the metadata:\n%s%s", tt.flags, code, tt.json, js, errOut)
		}
		prefix := filepath.Join(t.TempDir(), "k")
		if _, errOut, code := gotriton(append(args, "-g", "1,1,1", "-o", prefix, "--ptxas", "none")...); code != 0 {
			t.Fatalf("%v: -g: exit %d: %s", tt.flags, code, errOut)
		}
		files, _ := filepath.Glob(prefix + ".*.json")
		if len(files) != 1 {
			t.Fatalf("%v: -g wrote %v", tt.flags, files)
		}
		if md, _ := os.ReadFile(files[0]); !strings.Contains(string(md), tt.json) {
			t.Errorf("%v: -g metadata lacks %s:\n%s", tt.flags, tt.json, md)
		}
	}
	for _, n := range []string{"0", "-1"} {
		_, errOut, code := gotriton("compile", path, "-n", "kernel", "-s", "*i32", "--maxnreg", n, "--emit", "ptx")
		if want := `invalid value "` + n + `" for flag -maxnreg: want a positive number of registers`; code != 1 || !strings.Contains(errOut, want) {
			t.Errorf("--maxnreg %s: exit %d, stderr %q, want %q", n, code, errOut, want)
		}
	}
}

// TestCompileReflectFTZ: --enable-reflect-ftz, true by default as Triton's
// enable_reflect_ftz, decides whether tl.math.exp2 on fp32 is ex2.approx.ftz.f32
// (test_enable_reflect_ftz's check), and --emit json reports it; compile without -n takes
// the flag too.
func TestCompileReflectFTZ(t *testing.T) {
	path := writeCodegenKernels(t)
	for _, tt := range []struct {
		flag string
		want bool
	}{
		{"", true},
		{"--enable-reflect-ftz", true},
		{"--enable-reflect-ftz=false", false},
	} {
		var flags []string
		if tt.flag != "" {
			flags = []string{tt.flag}
		}
		args := append([]string{"compile", path, "-n", "exp2", "-s", "*fp32:16", "-w", "4"}, flags...)
		ptx, errOut, code := gotriton(append(args, "--emit", "ptx")...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", tt.flag, code, errOut)
		}
		for _, p := range []string{ptx, compileAllPTX(t, path, "exp2", flags)} {
			if ex2FTZ.MatchString(p) != tt.want || !strings.Contains(p, "ex2.approx") {
				t.Errorf("%q: ex2.approx.ftz.f32 in the PTX = %v, want %v:\n%s", tt.flag, !tt.want, tt.want, p)
			}
		}
		js, errOut, code := gotriton(append(args, "--emit", "json")...)
		if want := `"enable_reflect_ftz": ` + map[bool]string{true: "true", false: "false"}[tt.want] + ","; code != 0 || !strings.Contains(js, want) {
			t.Errorf("%q: exit %d, want %s in the metadata:\n%s%s", tt.flag, code, want, js, errOut)
		}
	}
}
