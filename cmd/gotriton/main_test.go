package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/internal/golden"
)

// gotriton runs the CLI in-process and returns stdout, stderr and the exit code.
func gotriton(args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), append([]string{"gotriton"}, args...), &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestList(t *testing.T) {
	out, errOut, code := gotriton("list", "../../frontend/testdata/kernels/discovery.py")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden.Check(t, filepath.Join("testdata", "list_discovery.txt"), out)

	out, _, code = gotriton("list", "--json", "../../frontend/testdata/kernels/discovery.py")
	var listing struct {
		Kernels []struct {
			Name     string
			Autotune *struct {
				Configs []struct {
					Kwargs   map[string]any
					NumWarps int `json:"num_warps"`
				}
			}
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &listing) != nil {
		t.Fatalf("list --json: exit %d, output %q", code, out)
	}
	if len(listing.Kernels) != 6 || listing.Kernels[3].Name != "stacked" || len(listing.Kernels[3].Autotune.Configs) != 4 ||
		listing.Kernels[3].Autotune.Configs[3].Kwargs["BLOCK_N"] != 64.0 {
		t.Errorf("list --json gave %+v", listing)
	}
}

func TestParse(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "ok.py")
	os.WriteFile(good, []byte("x = f(1)\n"), 0o644)
	out, _, code := gotriton("parse", good)
	want := "Module(body=[Assign(targets=[Name(id='x', ctx=Store(), lineno=1, col_offset=0, end_lineno=1, end_col_offset=1)], " +
		"value=Call(func=Name(id='f', ctx=Load(), lineno=1, col_offset=4, end_lineno=1, end_col_offset=5), " +
		"args=[Constant(value=1, lineno=1, col_offset=6, end_lineno=1, end_col_offset=7)], keywords=[], " +
		"lineno=1, col_offset=4, end_lineno=1, end_col_offset=8), lineno=1, col_offset=0, end_lineno=1, end_col_offset=8)], type_ignores=[])\n"
	if code != 0 || out != want {
		t.Errorf("parse: exit %d\n got %s\nwant %s", code, out, want)
	}
}

// TestErrors checks that bad input gives one located message and exit code 1.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(src), 0o644)
		return p
	}
	unclosed := write("unclosed.py", "x = (1,\n")
	empty := write("empty.py", "")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"parse", unclosed}, unclosed + ":1:5: error: '(' was never closed\nx = (1,\n    ^"},
		{[]string{"list", unclosed}, unclosed + ":1:5: error: '(' was never closed\nx = (1,\n    ^"},
		{[]string{"list", empty}, empty + ":1:1: error: file is empty"},
		{[]string{"parse", filepath.Join(dir, "nope.py")}, filepath.Join(dir, "nope.py") + ":1:1: error: cannot read file: no such file"},
		{[]string{"parse"}, "gotriton parse: expected one FILE argument, got 0"},
		{[]string{"list", "--bogus", unclosed}, "gotriton list: flag provided but not defined: -bogus (see gotriton list --help)"},
	} {
		out, errOut, code := gotriton(tt.args...)
		if code != 1 || out != "" || strings.TrimRight(errOut, "\n") != tt.want {
			t.Errorf("gotriton %v: exit %d, stdout %q\n got stderr %q\nwant stderr %q", tt.args, code, out, errOut, tt.want)
		}
	}
}

func TestCompileTileIR(t *testing.T) {
	out, errOut, code := gotriton("compile", "../../conformance/kernels/vector_add.py", "-n", "vector_add_kernel",
		"-s", "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024", "-w", "4", "--emit", "tileir")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"tt.func public @vector_add_kernel(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}",
		"%arg3: i32 {tt.divisibility = 16 : i32}",
		"tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>",
		"arith.addf", "tt.store",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("compile output lacks %q:\n%s", want, out)
		}
	}
	_, errOut, code = gotriton("compile", "../../conformance/kernels/vector_add.py", "-n", "vector_add_kernel", "-s", "*fp32:16, i32")
	if code != 1 || !strings.Contains(errOut, "vector_add.py:13:") || !strings.Contains(errOut, "error: signature has 2 entries") {
		t.Errorf("short signature: exit %d, stderr %q", code, errOut)
	}
	_, errOut, code = gotriton("compile", "../../conformance/kernels/vector_add.py", "-n", "vector_add_kernel", "-s", "*fp32", "--emit", "nonsense")
	if code != 1 || !strings.Contains(errOut, `unknown --emit "nonsense"`) {
		t.Errorf("bad --emit: exit %d, stderr %q", code, errOut)
	}
}
