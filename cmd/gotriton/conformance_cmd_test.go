package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConformanceCommand(t *testing.T) {
	t.Setenv("GOTRITON_TUTORIALS", "") // the tutorial cases must be reported as not run
	js := filepath.Join(t.TempDir(), "r.json")
	out, errOut, code := gotriton("conformance", "--kernels", "../../conformance/kernels", "--run", "^(ours/vector_add/.*fp32|tutorial/01/)", "--json", js)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"ours/vector_add/vector_add_kernel/add/fp32/n=98432", " pass ", "not run", "no tutorials folder", "3 passed, 0 failed, 2 not run"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	raw, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Results []struct{ Case, Status string }
		Passed  int `json:"passed"`
		NotRun  int `json:"not_run"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Passed != 3 || rep.NotRun != 2 || len(rep.Results) != 5 {
		t.Fatalf("json: %+v", rep)
	}
}

func TestConformanceCommandErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"conformance", "--kernels", "../../conformance/kernels", "--device", "tpu"}, "unknown device"},
		{[]string{"conformance", "--kernels", "../../conformance/kernels", "--device", "cuda", "--run", "vector_add"}, "cuda: no NVIDIA driver found"},
		{[]string{"conformance", "--kernels", "no/such/dir"}, "not found"},
		{[]string{"conformance", "--run", "("}, "--run"},
		{[]string{"conformance", "--kernels", "../../conformance/kernels", "--compare-cpu"}, "--compare-cpu compares a cuda run"},
		{[]string{"conformance", "--kernels", "../../conformance/kernels", "--device", "cuda", "--compare-cpu", "--real-sizes"}, "cuda: no NVIDIA driver found"},
	}
	for _, tt := range tests {
		_, errOut, code := gotriton(tt.args...)
		if code != 1 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

func TestConformanceList(t *testing.T) {
	out, _, code := gotriton("conformance", "--list", "--run", "tutorial/06")
	if code != 0 || !strings.Contains(out, "tutorial/06/_attn_fwd/causal/d=128") || !strings.Contains(out, "_attn_bwd") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestConformanceListRealSizes(t *testing.T) {
	const large = "tutorial/03/matmul_kernel/fp16/512x512x512"
	out, _, code := gotriton("conformance", "--list", "--run", "tutorial/0[35]")
	if code != 0 || strings.Contains(out, large) || strings.Contains(out, "1151x8192") || !strings.Contains(out, "tutorial/03/matmul_kernel/fp16/256x512x128") {
		t.Fatalf("without --real-sizes: exit %d:\n%s", code, out)
	}
	out, _, code = gotriton("conformance", "--list", "--real-sizes", "--run", "tutorial/0[35]")
	if code != 0 || !strings.Contains(out, large) || !strings.Contains(out, "tutorial/05/layer_norm/fwd+bwd/1151x8192") || !strings.Contains(out, "tutorial/03/matmul_kernel/fp16/256x512x128") {
		t.Fatalf("with --real-sizes: exit %d:\n%s", code, out)
	}
}

func TestConformanceRealSizesNoTutorials(t *testing.T) {
	t.Setenv("GOTRITON_TUTORIALS", "")
	out, errOut, code := gotriton("conformance", "--kernels", "../../conformance/kernels", "--real-sizes", "--run", "^tutorial/11/")
	if code != 0 || !strings.Contains(out, "tutorial/11/add_kernel/pdl/fp32/n=1024") || !strings.Contains(out, "0 passed, 0 failed, 3 not run") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
}
