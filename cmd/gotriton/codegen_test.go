package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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
	// entryMaxNRegN captures the .maxnreg of the kernel's .entry.
	entryMaxNRegN = regexp.MustCompile(`\.visible \.entry [^{;]*\.maxnreg (\d+)`)
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

// TestCompileLaunchOptions: compile without -n compiles each launch with its own
// compile options (enable_fp_fusion and maxnreg, from literals and host values), one
// specialization per distinct value, records them in index.jsonl, and a launch keyword
// wins over the flag, which decides only what the launch leaves out.
func TestCompileLaunchOptions(t *testing.T) {
	// launchCode is what one launch's PTX has: fused multiply-adds, and its .maxnreg (0:
	// none).
	type launchCode struct {
		fma     bool
		maxnreg int
	}
	const path = "testdata/options/launch_options.py"
	for _, tt := range []struct {
		flags []string
		want  [2]launchCode
	}{
		{nil, [2]launchCode{{false, 64}, {true, 0}}},
		{[]string{"--enable-fp-fusion=false", "--maxnreg", "32"}, [2]launchCode{{false, 64}, {true, 32}}},
	} {
		dir := filepath.Join(t.TempDir(), "out")
		out, errOut, code := gotriton(append([]string{"compile", path, "-o", dir}, tt.flags...)...)
		if code != 0 || out != "axpb: 2 specializations, 2 compiled\n" {
			t.Fatalf("%v: exit %d, stdout %q: %s", tt.flags, code, out, errOut)
		}
		index, err := os.ReadFile(filepath.Join(dir, "index.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(index)), "\n")
		if len(lines) != 2 {
			t.Fatalf("%v: index.jsonl has %d lines, want 2", tt.flags, len(lines))
		}
		for i, line := range lines {
			var e indexEntry
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				t.Fatal(err)
			}
			w := tt.want[i]
			wantSite := fmt.Sprintf("%s:%d", path, 17+i)
			if e.Site != wantSite || e.EnableFPFusion != w.fma || (e.MaxNReg == nil) != (w.maxnreg == 0) || e.MaxNReg != nil && *e.MaxNReg != w.maxnreg || len(e.Files) != 1 {
				t.Errorf("%v: index entry %d: %s", tt.flags, i, line)
				continue
			}
			ptx, err := os.ReadFile(filepath.Join(dir, e.Files[0]))
			if err != nil {
				t.Fatal(err)
			}
			if tritonFMA.Match(ptx) != w.fma {
				t.Errorf("%v: launch %d: fused multiply-add in the PTX = %v, want %v", tt.flags, i, !w.fma, w.fma)
			}
			maxnreg := entryMaxNRegN.FindSubmatch(ptx)
			switch {
			case w.maxnreg == 0 && anyMaxNReg.Match(ptx):
				t.Errorf("%v: launch %d: the PTX has .maxnreg:\n%s", tt.flags, i, ptx)
			case w.maxnreg > 0 && (maxnreg == nil || string(maxnreg[1]) != strconv.Itoa(w.maxnreg)):
				t.Errorf("%v: launch %d: want .maxnreg %d on the .entry:\n%s", tt.flags, i, w.maxnreg, ptx)
			}
		}
	}
}
