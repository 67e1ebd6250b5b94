package semantic

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
)

// TestImports compiles kernels of a small library (testdata/pkg) whose helpers live in
// other modules, imported relatively, absolutely, under an alias and through the search
// path; nested jit functions see their own module's globals.
func TestImports(t *testing.T) {
	kernels := filepath.Join("testdata", "pkg", "ops", "kernels.py")
	f, err := frontend.Load(kernels, pyeval.Options{Path: []string{filepath.Join("testdata", "extpath")}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compile(f, "good_kernel", Options{SignatureText: "*fp32:16, *fp32:16, i32"})
	if err != nil {
		t.Fatal(err)
	}
	ir := m.String()
	for _, want := range []string{
		"tt.make_range {end = 128 : i32, start = 0 : i32}", // BLOCK from .utils
		"3.000000e+00",                   // FACTOR, a global of pkg.ops.utils
		"arith.maxnumf", "arith.minnumf", // tle.clamp01
		"1.000000e+00", // HIGH, a global of pkg.lang
	} {
		if !strings.Contains(ir, want) {
			t.Errorf("tile IR of good_kernel lacks %q:\n%s", want, ir)
		}
	}
	for _, k := range []string{"path_kernel", "attr_kernel"} {
		if _, err := Compile(f, k, Options{SignatureText: "*fp32:16"}); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
}

// TestUnresolvedImport checks that an import which does not resolve is an error only for
// the kernel that uses a name from it, and that the error names the import and the
// search path.
func TestUnresolvedImport(t *testing.T) {
	kernels := filepath.Join("testdata", "pkg", "ops", "kernels.py")
	f, err := frontend.Load(kernels, pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(f, "bad_kernel", Options{SignatureText: "*fp32:16"})
	want := "testdata/pkg/ops/kernels.py:31:21: error: global 'fast_exp' is not known at compile time: " +
		"from missing_lib import fast_exp (line 5) did not resolve: no module named 'missing_lib' " +
		"(searched testdata/pkg/ops, testdata; add its folder with --path or GOTRITON_PATH)"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("bad_kernel: got error\n%v\nwant one starting\n%s", err, want)
	}
	_, err = Compile(f, "path_kernel", Options{SignatureText: "*fp32:16"})
	want = "testdata/pkg/ops/kernels.py:25:21: error: global 'twice' is not known at compile time: " +
		"from extlib.mathx import twice (line 10) did not resolve: no module named 'extlib.mathx' " +
		"(searched testdata/pkg/ops, testdata; add its folder with --path or GOTRITON_PATH)"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("path_kernel without --path: got error\n%v\nwant one starting\n%s", err, want)
	}
}
