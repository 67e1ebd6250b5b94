package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/driver/cuda"
)

func benchTutorials(t *testing.T) string {
	dir := os.Getenv("GOTRITON_TUTORIALS")
	if dir == "" {
		t.Skip("GOTRITON_TUTORIALS is not set")
	}
	return dir
}

// TestBenchNeedsTutorials: without a tutorials folder bench says where to point it.
func TestBenchNeedsTutorials(t *testing.T) {
	t.Setenv("GOTRITON_TUTORIALS", "")
	_, errOut, code := gotriton("bench", "--list")
	if code != 1 || errOut != "gotriton bench: the benchmark cases are the official tutorials' kernels: pass --tutorials DIR or set GOTRITON_TUTORIALS\n" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// TestBenchNeedsCUDA: on a machine without the NVIDIA driver a run fails with one clear
// line that names what works without it.
func TestBenchNeedsCUDA(t *testing.T) {
	tut := benchTutorials(t)
	if d, err := cuda.Open(0); err == nil {
		d.Close()
		t.Skip("this machine has a CUDA device")
	}
	out, errOut, code := gotriton("bench", "--tutorials", tut, "--run", "1823x781")
	if code != 1 || out != "" || !strings.HasPrefix(errOut, "gotriton bench: needs an NVIDIA GPU and its driver: libcuda.so.1 could not be loaded (") ||
		!strings.HasSuffix(errOut, "); --export, --list and --table need none\n") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestBenchListAndExport: --list and --export work without a GPU and agree on the cases.
func TestBenchListAndExport(t *testing.T) {
	tut := benchTutorials(t)
	out, errOut, code := gotriton("bench", "--tutorials", tut, "--list", "--quick", "--run", "softmax")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "tutorial/02/softmax_kernel/fp32/4096x8192/warps=8,stages=4\t02 softmax fp32 4096x8192\twarps=8 stages=4\n" +
		"tutorial/02/softmax_kernel/fp32/8192x1024/warps=8,stages=4\t02 softmax fp32 8192x1024\twarps=8 stages=4\n" +
		"tutorial/02/softmax_kernel/fp32/1823x781/warps=8,stages=4\t02 softmax fp32 1823x781\twarps=8 stages=4\n"
	if out != want {
		t.Errorf("--list:\n%s\nwant:\n%s", out, want)
	}
	_, errOut, code = gotriton("bench", "--tutorials", tut, "--list", "--run", "nomatch")
	if code != 1 || errOut != "gotriton bench: no case matches --run nomatch (see gotriton bench --list)\n" {
		t.Errorf("no match: exit %d, %q", code, errOut)
	}
	path := filepath.Join(t.TempDir(), "cases.json")
	out, errOut, code = gotriton("bench", "--tutorials", tut, "--run", "1823x781", "--export", path)
	if code != 0 || out != "1 cases written to "+path+"\n" {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ex struct {
		Format int `json:"format"`
		Cases  []struct {
			Case     string `json:"case"`
			Path     string `json:"path"`
			Launches []struct {
				Signature string `json:"signature"`
				Grid      [3]int `json:"grid"`
				NumWarps  int    `json:"num_warps"`
				NumStages int    `json:"num_stages"`
			} `json:"launches"`
			Checks []struct {
				Index []int `json:"index"`
			} `json:"checks"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &ex); err != nil {
		t.Fatal(err)
	}
	if len(ex.Cases) != 1 || ex.Cases[0].Path != filepath.Join(tut, "02-fused-softmax.py") || len(ex.Cases[0].Checks) != 1 || len(ex.Cases[0].Checks[0].Index) != 4096 {
		t.Fatalf("export: %s", raw[:min(len(raw), 600)])
	}
	l := ex.Cases[0].Launches[0]
	if l.Signature != "*fp32:16, *fp32:16, i32, i32, i32, i32, 1024, 4" || l.Grid != [3]int{528, 1, 1} || l.NumWarps != 8 || l.NumStages != 4 {
		t.Errorf("launch: %+v", l)
	}
}

// TestBenchTableCommand: --table merges two results files into the markdown table.
func TestBenchTableCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, compiler string, ms float64) string {
		p := filepath.Join(dir, name)
		doc := `{"format": 1, "compiler": "` + compiler + `", "method": "m", "done": true, "results": [{"case": "g/c", "group": "g",
			"label": "01 vector add fp32 n=2^27", "config": "BLOCK_SIZE=1024 warps=4 stages=3", "unit": "GB/s", "work": 1610612736,
			"ms": ` + jsonFloat(ms) + `, "status": "pass"}]}`
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ours, triton := write("ours.json", "gotriton", 0.4), write("triton.json", "triton", 0.5)
	out, errOut, code := gotriton("bench", "--table", ours, "--triton", triton)
	want := "| case | config | gotriton | Triton 3.6 | gotriton / Triton speed | % of peak (gotriton / Triton) |\n" +
		"|---|---|---:|---:|---:|---:|\n" +
		"| 01 vector add fp32 n=2^27 | BLOCK_SIZE=1024 warps=4 stages=3 | 0.400 ms, 4027 GB/s | 0.500 ms, 3221 GB/s | 1.25 | 95% / 76% |\n"
	if code != 0 || out != want {
		t.Errorf("exit %d: %s\n%s\nwant:\n%s", code, errOut, out, want)
	}
	_, errOut, code = gotriton("bench", "--table", ours)
	if code != 1 || !strings.Contains(errOut, "--table needs both") {
		t.Errorf("--table alone: exit %d, %q", code, errOut)
	}
	if err := os.WriteFile(triton, []byte(`{"format": 2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = gotriton("bench", "--table", ours, "--triton", triton)
	if code != 1 || errOut != "gotriton bench: "+triton+": bench results format 2, want 1\n" {
		t.Errorf("bad format: exit %d, %q", code, errOut)
	}
}

func jsonFloat(x float64) string {
	b, _ := json.Marshal(x)
	return string(b)
}
