package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/internal/golden"
)

// TestCheckBadLaunches: each bad launch and the unresolved import a kernel uses is one
// positioned error; the good launch of the same kernel and the other kernels are still
// checked; the exit status is 1.
func TestCheckBadLaunches(t *testing.T) {
	out, errOut, code := gotriton("check", "testdata/check/bad_launches.py")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	golden.Check(t, filepath.Join("testdata", "check", "bad_launches.txt"), errOut+out)

	out, _, code = gotriton("check", "--error-format=github", "testdata/check/bad_launches.py")
	first := strings.SplitN(out, "\n", 2)[0]
	if want := "::error file=testdata/check/bad_launches.py,line=21,col=1,endLine=21,endColumn=42::add_kernel() takes 4 positional arguments but 5 were given"; code != 1 || first != want {
		t.Errorf("github format: exit %d, first line\n%s\nwant\n%s", code, first, want)
	}
	out, _, _ = gotriton("check", "--error-format=json", "testdata/check/bad_launches.py")
	var d struct {
		File, Message string
		Line, Column  int
	}
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &d); err != nil || d.Line != 21 || d.Column != 1 {
		t.Errorf("json format: %v %+v", err, d)
	}
}

func TestCheckConstants(t *testing.T) {
	_, errOut, code := gotriton("check", "-c", "NOPE=3", "testdata/check/bad_launches.py")
	if want := "gotriton: -c NOPE: no kernel has a parameter named 'NOPE' (kernels: add_kernel, uses_import)\n"; code != 1 || errOut != want {
		t.Errorf("exit %d, stderr %q, want %q", code, errOut, want)
	}
	_, errOut, code = gotriton("check", "-c", "BLOCK", "testdata/check/bad_launches.py")
	if code != 1 || !strings.Contains(errOut, "-c BLOCK: want NAME=VALUE") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestCheckStrict: a kernel no launch reaches is "not checked", an error only with
// --strict; -c supplies what it lacks.
func TestCheckStrict(t *testing.T) {
	src := "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x_ptr, BLOCK: tl.constexpr):\n    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)\n"
	path := filepath.Join(t.TempDir(), "k.py")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"check", path}, 0, "0 kernels checked, 0 errors, 1 not checked\n"},
		{[]string{"check", "--strict", path}, 1, "0 kernels checked, 0 errors, 1 not checked\n"},
		{[]string{"check", "--strict", "-c", "BLOCK=64", path}, 0, "1 kernels checked, 0 errors, 0 not checked\n"},
	} {
		out, errOut, code := gotriton(tc.args...)
		if code != tc.code || out != tc.out {
			t.Errorf("%v: exit %d, stdout %q (stderr %q); want exit %d, %q", tc.args, code, out, errOut, tc.code, tc.out)
		}
	}
}

// TestCompileAll compiles every kernel a file launches, with no -n and -s, to a folder.
func TestCompileAll(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := gotriton("compile", "../../conformance/kernels/vector_add.py", "-o", dir, "--emit", "tileir")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := "vector_add_kernel: 3 specializations, 3 compiled\n"; out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(index)), "\n")
	if len(lines) != 3 {
		t.Fatalf("index.jsonl has %d lines, want 3", len(lines))
	}
	var e indexEntry
	if err := json.Unmarshal([]byte(lines[0]), &e); err != nil {
		t.Fatal(err)
	}
	if e.Kernel != "vector_add_kernel" || e.Target != "cuda:90:32" || len(e.Files) != 2 || e.NumWarps != 4 {
		t.Errorf("index entry %+v", e)
	}
	for _, f := range e.Files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || len(b) == 0 {
			t.Errorf("%s: %v (%d bytes)", f, err, len(b))
		}
		if strings.HasSuffix(f, ".ptx") && !strings.Contains(string(b), ".entry vector_add_kernel") {
			t.Errorf("%s is not the kernel's PTX", f)
		}
	}
}

func TestVersion(t *testing.T) {
	out, _, code := gotriton("--version")
	if code != 0 || !strings.Contains(out, "Triton 3.6") {
		t.Errorf("exit %d, %q", code, out)
	}
	for _, tc := range []struct {
		settings []debug.BuildSetting
		want     string
	}{
		{nil, version},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: "050d4071234abcd"}, {Key: "vcs.modified", Value: "false"}}, version + ", commit 050d407"},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: "050d4071234abcd"}, {Key: "vcs.modified", Value: "true"}}, version + ", commit 050d407-dirty"},
	} {
		if got := versionText(&debug.BuildInfo{Settings: tc.settings}); got != tc.want {
			t.Errorf("versionText(%v) = %q, want %q", tc.settings, got, tc.want)
		}
	}
	if got := versionText(nil); got != version {
		t.Errorf("versionText(nil) = %q", got)
	}
}

// TestCompileAllTargets: each -t runs the file for that target; index.jsonl names it.
func TestCompileAllTargets(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := gotriton("compile", "../../conformance/kernels/vector_add.py", "-t", "cuda:90:32", "-t", "cuda:80:32", "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := "cuda:90:32: vector_add_kernel: 3 specializations, 3 compiled\ncuda:80:32: vector_add_kernel: 3 specializations, 3 compiled\n"; out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
	index, _ := os.ReadFile(filepath.Join(dir, "index.jsonl"))
	if n80 := strings.Count(string(index), `"target":"cuda:80:32"`); n80 != 3 {
		t.Errorf("index.jsonl has %d cuda:80 entries, want 3", n80)
	}
	if _, _, code := gotriton("compile", "../../conformance/kernels/vector_add.py", "-n", "vector_add_kernel", "-s", "*fp32:16, *fp32:16, *fp32:16, i32, 1024", "-t", "cuda:90:32", "-t", "cuda:80:32"); code != 1 {
		t.Errorf("two -t with -n: exit %d, want 1", code)
	}
}
