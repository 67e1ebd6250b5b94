package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestConformanceTimeNeedsCUDA(t *testing.T) {
	_, errOut, code := gotriton("conformance", "--kernels", "../../conformance/kernels", "--run", "vector_add", "--time")
	if code != 1 || !strings.Contains(errOut, "--time") || !strings.Contains(errOut, "cuda") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

func TestConformanceExportAndDumpPTX(t *testing.T) {
	t.Setenv("GOTRITON_TUTORIALS", "") // the tutorial cases must be exported as not run
	dir := t.TempDir()
	js, ptx := filepath.Join(dir, "launches.json"), filepath.Join(dir, "ptx")
	out, errOut, code := gotriton("conformance", "--kernels", "../../conformance/kernels", "--run", "^(ours/vector_add/.*fp32|tutorial/01/)",
		"--export-launches", js, "--dump-ptx", ptx)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"5 cases, 5 launches written to", "3 specializations, 3 compiled to PTX"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	raw, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var ex struct {
		Format int `json:"format"`
		Cases  []struct {
			Case     string `json:"case"`
			Path     string `json:"path"`
			NotRun   string `json:"not_run"`
			Launches []struct {
				Kernel    string `json:"kernel"`
				Signature string `json:"signature"`
				Args      []struct {
					Kind string `json:"kind"`
				} `json:"args"`
			} `json:"launches"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &ex); err != nil {
		t.Fatal(err)
	}
	if ex.Format != 1 || len(ex.Cases) != 5 || ex.Cases[0].Path == "" || len(ex.Cases[0].Launches[0].Args) != 5 || ex.Cases[4].NotRun == "" {
		t.Fatalf("export: %+v", ex)
	}
	if _, err := os.Stat(filepath.Join(ptx, "index.tsv")); err != nil {
		t.Fatal(err)
	}
	// Nothing ran: no case rows.
	if strings.Contains(out, " pass ") {
		t.Errorf("export ran the suite:\n%s", out)
	}
}

func TestConformanceDumpViaLLCAndPTXDir(t *testing.T) {
	t.Setenv("GOTRITON_TUTORIALS", "")
	ptx := filepath.Join(t.TempDir(), "ptx")
	args := []string{"conformance", "--kernels", "../../conformance/kernels", "--run", "^ours/vector_add/.*fp32", "--dump-ptx", ptx}
	_, llcErr := exec.LookPath("llc-22")
	if llcErr == nil {
		args = append(args, "--via-llc")
	}
	out, errOut, code := gotriton(args...)
	if code != 0 || !strings.Contains(out, "3 specializations, 3 compiled to PTX") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	idx, err := os.ReadFile(filepath.Join(ptx, "index.tsv"))
	if err != nil || !strings.Contains(string(idx), "\tshared_bytes\t") {
		t.Fatalf("index.tsv: %v\n%s", err, idx)
	}
	if llcErr == nil {
		names, _ := filepath.Glob(filepath.Join(ptx, "*.ptx"))
		b, err := os.ReadFile(names[0])
		if err != nil || !strings.Contains(string(b), "NVPTX") {
			t.Errorf("--via-llc did not reach --dump-ptx: %v\n%.300s", err, b)
		}
	}

	base := []string{"conformance", "--kernels", "../../conformance/kernels", "--run", "^ours/vector_add/.*fp32"}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--ptx-dir", ptx}, "--ptx-dir needs --device cuda"},
		{[]string{"--ptx-dir", ptx, "--device", "cuda", "--via-llc"}, "give --via-llc to the --dump-ptx run"},
		{[]string{"--ptx-dir", filepath.Join(ptx, "nope"), "--device", "cuda"}, "index.tsv"},
		{[]string{"--ptx-dir", ptx, "--device", "cuda"}, "cuda: no NVIDIA driver found"},
	}
	for _, tt := range tests {
		_, errOut, code := gotriton(append(base, tt.args...)...)
		if code != 1 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", tt.args, code, errOut, tt.want)
		}
	}
}
