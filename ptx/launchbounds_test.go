package ptx

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// entryDirectives matches each .entry's name and the directives between its parameter
// list and its body.
var entryDirectives = regexp.MustCompile(`(?m)^\.visible \.entry (\w+)\([^)]*\)[^\n]*\n((?:\.[a-z]+ [^\n]*\n)*)\{`)

// directives returns, per kernel, its launch-bound directive lines, each without a
// trailing comment and with the implicit ", 1" dimensions dropped (llc writes ".reqntid
// 128" for what we write as ".reqntid 128, 1, 1").
func directives(ptx string) map[string][]string {
	out := map[string][]string{}
	for _, m := range entryDirectives.FindAllStringSubmatch(ptx, -1) {
		lines := []string{}
		for _, l := range strings.Split(strings.TrimSpace(m[2]), "\n") {
			if l, _, _ = strings.Cut(l, "//"); l != "" {
				for strings.HasSuffix(strings.TrimSpace(l), ", 1") {
					l = strings.TrimSuffix(strings.TrimSpace(l), ", 1")
				}
				lines = append(lines, strings.TrimSpace(l))
			}
		}
		out[m[1]] = lines
	}
	return out
}

// TestLaunchBoundsMatchLLC compiles testdata/launch_bounds.ll with our emitter and with
// llc-22: every kernel has the same launch-bound directives, in the same order, after its
// parameters and before its body (the golden launch_bounds.ptx pins our exact text).
func TestLaunchBoundsMatchLLC(t *testing.T) {
	const file = "testdata/launch_bounds.ll"
	ours, err := Compile(parse(t, file), Options{Arch: "sm_90"})
	if err != nil {
		t.Fatal(err)
	}
	got := directives(ours)
	want := map[string][]string{
		"maxnreg_kernel": {".reqntid 128", ".maxnreg 42"},
		"all_bounds":     {".maxntid 256", ".minnctapersm 2", ".maxnreg 64"},
		"annotated":      {".reqntid 64", ".maxnreg 32"},
		"unbounded":      {},
	}
	for k, w := range want {
		if !slices.Equal(got[k], w) {
			t.Errorf("our kernel %s: directives %q, want %q", k, got[k], w)
		}
	}
	llc := findLLC()
	if llc == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("llc-22 not found (apt-get install llvm-22)")
		}
		t.Skip("llc-22 not found; install Debian's llvm-22 to cross-check the directives")
	}
	theirs, err := exec.Command(llc, "-march=nvptx64", "-mcpu=sm_90", "-mattr=+ptx84", "-o", "-", file).Output()
	if err != nil {
		t.Fatalf("llc-22: %v", err)
	}
	llcDirs := directives(string(theirs))
	for k, w := range want {
		if !slices.Equal(llcDirs[k], w) {
			t.Errorf("llc-22's kernel %s: directives %q, want %q", k, llcDirs[k], w)
		}
	}
}
