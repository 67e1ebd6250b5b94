package aot

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/internal/golden"
)

// TestTritonDecls compiles and links the specializations of tools/aot-gpu.sh from the
// official tutorials and compares their file names, header declarations, tt-linker lines
// and defined functions with Triton 3.6's, which that script saved on the GPU machine
// (testdata/triton-3.6/aot-decls.txt, SAVE_GOLDEN=1), normalized as the script does.
func TestTritonDecls(t *testing.T) {
	tut := os.Getenv("GOTRITON_TUTORIALS")
	want, err := os.ReadFile(filepath.Join("testdata", "triton-3.6", "aot-decls.txt"))
	if tut == "" || err != nil {
		t.Skip("needs GOTRITON_TUTORIALS and testdata/triton-3.6/aot-decls.txt (tools/aot-gpu.sh with SAVE_GOLDEN=1)")
	}
	script, err := os.ReadFile(filepath.Join("..", "tools", "aot-gpu.sh"))
	if err != nil {
		t.Fatal(err)
	}
	specs := regexp.MustCompile(`(?s)SPECS=\$\(cat <<'EOF'\n(.*?)\nEOF`).FindSubmatch(script)
	if specs == nil {
		t.Fatal("no SPECS in tools/aot-gpu.sh")
	}
	tutorial := map[string]string{"k01.py": "01-vector-add.py", "k03.py": "03-matrix-multiplication.py"}
	files := map[string]string{}
	kernels := map[string][]LinkedKernel{} // by out-name, linked one kernel at a time as the script does
	for _, line := range strings.Split(string(specs[1]), "\n") {
		f := strings.Split(line, "|")
		warps, _ := strconv.Atoi(f[3])
		stages, _ := strconv.Atoi(f[4])
		tc := launcherCase{file: filepath.Join(tut, tutorial[f[0]]), kernel: f[1], outName: f[2], warps: warps, stages: stages, grid: f[5], sig: f[6]}
		l, _ := compileLauncher(t, tc)
		files[OutputPath(tc.outName, l.SigHash, l.Suffix, "c")] = l.C
		files[OutputPath(tc.outName, l.SigHash, l.Suffix, "h")] = l.H
		ks, err := ParseHeader("", l.H)
		if err != nil {
			t.Fatal(err)
		}
		kernels[tc.outName] = append(kernels[tc.outName], ks...)
	}
	for outName, prefix := range map[string]string{"add_kernel": "add_kernels", "matmul_fp16": "matmul_kernels"} {
		h, c, err := Link(kernels[outName], "")
		if err != nil {
			t.Fatal(err)
		}
		files[prefix+".h"], files[prefix+".c"] = h, c
	}
	if got := declListing(files); got != string(want) {
		t.Errorf("declarations differ from Triton's at %s", golden.FirstDiff(got, string(want)))
	}
}

var (
	headerDecl = regexp.MustCompile(`^(CUresult|void|int|// tt-linker)`)
	definedFn  = regexp.MustCompile(`(?m)^(CUresult|void|int) [A-Za-z_0-9]+\(`)
)

// declListing is tools/aot-gpu.sh's decls: the file names, each header's declarations
// ("()" read as "(void)") and each C file's defined functions, sorted in byte order.
func declListing(files map[string]string) string {
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range files {
			if !yield(n) {
				return
			}
		}
	})
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n + "\n")
	}
	for _, ext := range []string{".h", ".c"} {
		for _, n := range names {
			if !strings.HasSuffix(n, ext) {
				continue
			}
			b.WriteString("== " + n + "\n")
			var lines []string
			if ext == ".h" {
				for _, l := range strings.Split(files[n], "\n") {
					if headerDecl.MatchString(l) {
						lines = append(lines, strings.TrimRight(strings.Replace(l, "()", "(void)", 1), " "))
					}
				}
			} else {
				lines = slices.Compact(slices.Sorted(slices.Values(definedFn.FindAllString(files[n], -1))))
			}
			slices.Sort(lines)
			for _, l := range lines {
				b.WriteString(l + "\n")
			}
		}
	}
	return b.String()
}
