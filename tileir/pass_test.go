package tileir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// passCases run passes on an input (a file in testdata/passes or a built kernel) and
// compare "before" and "after" with a golden file, verifying after every pass.
var passCases = []struct {
	name   string
	input  func(t *testing.T) *Module
	passes []string
}{
	{"fold", fromFile("fold.mlir"), []string{"fold", "dce"}},
	{"canonicalize", fromFile("canonicalize.mlir"), []string{"canonicalize", "dce"}},
	{"cse", fromFile("cse.mlir"), []string{"cse", "dce"}},
	{"cse_regions", fromFile("cse_regions.mlir"), []string{"cse", "dce"}},
	{"rewrite_tensor_pointer", fromFile("rewrite_tensor_pointer.mlir"), []string{"rewrite_tensor_pointer", "canonicalize", "cse", "dce"}},
	{"dce", fromFile("dce.mlir"), []string{"dce"}},
	{"canonicalize_chains", fromFile("canonicalize_chains.mlir"), []string{"canonicalize", "dce"}},
	{"combine", fromFile("combine.mlir"), []string{"combine", "dce"}},
	{"reorder_broadcast", fromFile("reorder_broadcast.mlir"), []string{"reorder_broadcast", "dce"}},
	{"licm", built(matmulLoop), []string{"licm"}},
	{"pipeline_matmul", built(matmulLoop), []string{"canonicalize", "cse", "licm", "dce"}},
	{"pipeline_softmax", built(softmaxRow), []string{"canonicalize", "cse", "licm", "dce"}},
	{"pipeline_all_ops", built(allOps), []string{"canonicalize", "cse", "dce"}},
	{"f32_dot_tc", fromFile("f32_dot_tc.mlir"), []string{"f32_dot_tc"}},
	{"f32_dot_tc_bf16", fromFile("f32_dot_tc.mlir"), []string{"f32_dot_tc_bf16"}},
}

func fromFile(name string) func(t *testing.T) *Module {
	return func(t *testing.T) *Module {
		src, err := os.ReadFile(filepath.Join("testdata", "passes", name))
		if err != nil {
			t.Fatal(err)
		}
		return roundTrip(t, name, string(src))
	}
}

func built(k func() *Module) func(t *testing.T) *Module {
	return func(*testing.T) *Module { return k() }
}

func TestPasses(t *testing.T) {
	for _, c := range passCases {
		t.Run(c.name, func(t *testing.T) {
			m := c.input(t)
			before := m.String()
			if err := Run(m, c.passes, true); err != nil {
				t.Fatal(err)
			}
			after := m.String()
			golden(t, filepath.Join("passes", c.name+".golden"),
				"// before\n"+before+"// after "+strings.Join(c.passes, ",")+"\n"+after)
			roundTrip(t, c.name, after)
			if err := Run(m, c.passes, true); err != nil {
				t.Fatal(err)
			}
			if again := m.String(); again != after {
				t.Errorf("passes are not idempotent:\n%s", again)
			}
		})
	}
}

func TestRunUnknownPass(t *testing.T) {
	if err := Run(vectorAdd(), []string{"nope"}, false); err == nil || err.Error() != `unknown pass "nope"` {
		t.Fatalf("got %v", err)
	}
}
