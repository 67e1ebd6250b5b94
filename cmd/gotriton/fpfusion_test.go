package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// tritonFMA is the regular expression Triton's test_enable_fp_fusion searches the PTX for.
var tritonFMA = regexp.MustCompile(`(mad|fma)\.r[nzmp]\.(ftz\.)?f32`)

// TestCompileFPFusion: --enable-fp-fusion, whose default is TRITON_DEFAULT_FP_FUSION when
// set (read as Triton reads it) and else true, decides whether the PTX has the fused
// multiply-add test_enable_fp_fusion looks for, and --emit json reports it; compile
// without -n takes the flag too.
func TestCompileFPFusion(t *testing.T) {
	path := codegenKernels
	for _, tt := range []struct {
		env  string // "-": unset
		flag string
		want bool
	}{
		{"-", "", true},
		{"-", "--enable-fp-fusion=false", false},
		{"-", "--enable-fp-fusion", true},
		{"0", "", false},
		{"off", "", false},
		{"TRUE", "", true},
		{"y", "", true},
		{"0", "--enable-fp-fusion=true", true},
		{"1", "--enable-fp-fusion=false", false},
	} {
		t.Run(tt.env+" "+tt.flag, func(t *testing.T) {
			t.Setenv("TRITON_DEFAULT_FP_FUSION", tt.env)
			if tt.env == "-" {
				os.Unsetenv("TRITON_DEFAULT_FP_FUSION") // t.Setenv restores it
			}
			var flags []string
			if tt.flag != "" {
				flags = []string{tt.flag}
			}
			for _, emit := range []string{"ptx", "json"} {
				args := append([]string{"compile", path, "-n", "scale_shift", "-s", "*fp32:16, 256", "-w", "4", "--emit", emit}, flags...)
				out, errOut, code := gotriton(args...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				if emit == "ptx" && tritonFMA.MatchString(out) != tt.want {
					t.Errorf("fused multiply-add in the PTX = %v, want %v:\n%s", !tt.want, tt.want, out)
				}
				if want := `"enable_fp_fusion": ` + strconv.FormatBool(tt.want) + ","; emit == "json" && !strings.Contains(out, want) {
					t.Errorf("metadata lacks %s:\n%s", want, out)
				}
			}
			outDir := filepath.Join(t.TempDir(), "out")
			if _, errOut, code := gotriton(append([]string{"compile", path, "-o", outDir}, flags...)...); code != 0 {
				t.Fatalf("compile -o DIR: exit %d: %s", code, errOut)
			}
			files, _ := filepath.Glob(filepath.Join(outDir, "scale_shift.*.ptx"))
			if len(files) != 1 {
				t.Fatalf("compile -o DIR wrote %v", files)
			}
			if ptx, _ := os.ReadFile(files[0]); tritonFMA.Match(ptx) != tt.want {
				t.Errorf("compile -o DIR: fused multiply-add = %v, want %v", !tt.want, tt.want)
			}
		})
	}
}
