package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// codegenKernels is the compiler's file of kernels of our own for the code-generation
// options, each launched once (capped_store calls two noinline functions; pow2 is
// tl.math.exp2 on fp32; scale_shift is x * 2.5 + 0.25).
const codegenKernels = "../../compiler/testdata/codegen_options.py"

// The regular expressions Triton's test_maxnreg and test_enable_reflect_ftz search the PTX
// with.
var (
	entryMaxNReg = regexp.MustCompile(`\.visible \.entry [^{;]*\.maxnreg 42`)
	anyMaxNReg   = regexp.MustCompile(`\.maxnreg`)
	ex2FTZ       = regexp.MustCompile(`ex2.approx.ftz.f32`)
)

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

// TestCompileMaxNReg: --maxnreg N puts .maxnreg N on the kernel's .entry (the check of
// Triton's test_maxnreg), and --emit json and the metadata -g writes report it (null without it), as does
// compile without -n; a number that is not positive is an error.
func TestCompileMaxNReg(t *testing.T) {
	path := codegenKernels
	for _, tt := range []struct {
		flags []string
		ptx   *regexp.Regexp
		json  string
	}{
		{nil, nil, `"maxnreg": null,`},
		{[]string{"--maxnreg", "42"}, entryMaxNReg, `"maxnreg": 42,`},
	} {
		args := append([]string{"compile", path, "-n", "capped_store", "-s", "*i32", "-w", "4"}, tt.flags...)
		ptx, errOut, code := gotriton(append(args, "--emit", "ptx")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.flags, code, errOut)
		}
		all := compileAllPTX(t, path, "capped_store", tt.flags)
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
		_, errOut, code := gotriton("compile", path, "-n", "capped_store", "-s", "*i32", "--maxnreg", n, "--emit", "ptx")
		if want := `invalid value "` + n + `" for flag -maxnreg: want a positive number of registers`; code != 1 || !strings.Contains(errOut, want) {
			t.Errorf("--maxnreg %s: exit %d, stderr %q, want %q", n, code, errOut, want)
		}
	}
}

// TestCompileReflectFTZ: --enable-reflect-ftz, true by default as Triton's
// enable_reflect_ftz, decides whether tl.math.exp2 on fp32 is ex2.approx.ftz.f32
// (the check of Triton's test_enable_reflect_ftz), and --emit json reports it; compile without -n takes
// the flag too.
func TestCompileReflectFTZ(t *testing.T) {
	path := codegenKernels
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
		args := append([]string{"compile", path, "-n", "pow2", "-s", "*fp32:16, 256", "-w", "4"}, flags...)
		ptx, errOut, code := gotriton(append(args, "--emit", "ptx")...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", tt.flag, code, errOut)
		}
		for _, p := range []string{ptx, compileAllPTX(t, path, "pow2", flags)} {
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
