package semantic

import (
	"regexp"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
)

// TestTargetInfo compiles triton.language.target_info's constexpr functions, imported and
// through tl.target_info, for several targets: each branch folds as Triton 3.6 folds it
// against the target's capability, backend and arch.
func TestTargetInfo(t *testing.T) {
	src := `import triton
import triton.language as tl
from triton.language.target_info import cuda_capability_geq, is_hip


@triton.jit
def k(X):
    if cuda_capability_geq(9, 0):
        tl.store(X, 1)
    elif cuda_capability_geq(8):
        tl.store(X, 2)
    elif is_hip():
        if tl.target_info.is_hip_cdna3():
            tl.store(X, 3)
        else:
            tl.store(X, 4)
    tl.store(X + 1, tl.target_info.current_target().warp_size)
    tl.store(X + 2, tl.target_info.is_cuda())
`
	f, err := frontend.LoadSource("ti.py", []byte(src), pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	stored := regexp.MustCompile(`tt.store %\w+, %c(\d+)_i32`)
	for _, c := range []struct{ target, want string }{
		{"cuda:90:32", "1 32 1"},
		{"cuda:80:32", "2 32 1"},
		{"hip:gfx942:64", "3 64 0"},
		{"hip:gfx90a:64", "4 64 0"},
	} {
		m, err := Compile(f, "k", Options{SignatureText: "*i32", Target: c.target})
		if err != nil {
			t.Fatalf("%s: %v", c.target, err)
		}
		got := ""
		for _, s := range stored.FindAllStringSubmatch(m.String(), -1) {
			got += s[1] + " "
		}
		if got != c.want+" " {
			t.Errorf("%s: stored constants %q, want %q\n%s", c.target, got, c.want, m)
		}
	}
}
