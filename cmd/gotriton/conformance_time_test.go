package main

import (
	"encoding/json"
	"os"
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
