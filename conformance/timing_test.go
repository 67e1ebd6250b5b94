package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fakeTimer runs each launch once (so a broken launch shows) and reports a fixed time.
func fakeTimer(calls *int, ms float64, err error) TimeFunc {
	return func(launch func() error) (float64, error) {
		*calls++
		if e := launch(); e != nil {
			return 0, e
		}
		return ms, err
	}
}

func TestTimerRecordsEveryLaunch(t *testing.T) {
	r := newRunner()
	calls := 0
	r.Timer = fakeTimer(&calls, 1.25, nil)
	res := r.RunCase(findCase(t, "ours/layer_norm/layer_norm/fwd+bwd/300x1000"))
	if res.Status != Pass {
		t.Fatalf("%s: %s", res.Status, res.Error)
	}
	if res.Timing == nil || len(res.Timing.Launches) != 3 || calls != 3 {
		t.Fatalf("timing %+v after %d timer calls; want 3 launches", res.Timing, calls)
	}
	for i, lt := range res.Timing.Launches {
		if lt.Step != i || lt.MS != 1.25 || lt.Error != "" || lt.Signature != res.Signatures[i] || lt.NumWarps == 0 || lt.Grid[0] == 0 {
			t.Errorf("launch %d: %+v", i, lt)
		}
	}
	if res.Timing.Launches[0].Kernel != "layer_norm_fwd_kernel" || res.Timing.Launches[2].Kernel != "layer_norm_bwd_dwdb_kernel" {
		t.Errorf("kernels: %+v", res.Timing.Launches)
	}

	// The JSON report carries the times.
	var buf bytes.Buffer
	if err := (&Report{Results: []Result{res}, Passed: 1}).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Results []struct {
			Timing struct {
				Launches []struct {
					Step      int     `json:"step"`
					Kernel    string  `json:"kernel"`
					Signature string  `json:"signature"`
					Grid      [3]int  `json:"grid"`
					MS        float64 `json:"ms"`
				} `json:"launches"`
			} `json:"timing"`
		} `json:"results"`
	}
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if l := back.Results[0].Timing.Launches; len(l) != 3 || l[1].MS != 1.25 || l[1].Kernel != "layer_norm_bwd_dx_kernel" || l[1].Grid != [3]int{300, 1, 1} || l[1].Signature == "" {
		t.Fatalf("json timing: %+v\n%s", l, buf.String())
	}
}

func TestTimerErrorsAndFailures(t *testing.T) {
	r := newRunner()
	calls := 0
	r.Timer = fakeTimer(&calls, 0, errors.New("cuEventRecord: boom"))
	res := r.RunCase(findCase(t, "ours/vector_add/vector_add_kernel/add/fp32/n=4097"))
	if res.Status != Pass {
		t.Fatalf("a timing error must not fail the case: %s: %s", res.Status, res.Error)
	}
	if l := res.Timing.Launches; len(l) != 1 || l[0].MS != 0 || !strings.Contains(l[0].Error, "boom") {
		t.Fatalf("timing: %+v", res.Timing)
	}

	// A case that fails is not timed.
	calls = 0
	bad := findCase(t, "ours/vector_add/vector_add_kernel/add/fp32/n=4097")
	build := bad.Build
	bad.Build = func(rng *rand.Rand) *Problem {
		p := build(rng)
		p.Checks[0].Want = make([]float64, len(p.Checks[0].Want)) // wrong on purpose
		return p
	}
	res = r.RunCase(bad)
	if res.Status != Fail || res.Timing != nil || calls != 0 {
		t.Fatalf("failing case: status %s, timing %+v, %d timer calls", res.Status, res.Timing, calls)
	}
}

func TestCUDATimerNeedsCUDA(t *testing.T) {
	if _, err := CUDATimer(CPUDevice(1)); err == nil || !strings.Contains(err.Error(), "cuda") {
		t.Fatalf("CUDATimer(cpu) = %v", err)
	}
}

func TestExportLaunches(t *testing.T) {
	r := &Runner{KernelsDir: "kernels"}
	ex := r.ExportLaunches(AllCases(), regexp.MustCompile(`^(ours/(vector_add/.*fp32/n=4097|layer_norm/.*300x1000|grouped_gemm/grouped_gemm_kernel/|attention/attn_fwd_kernel/host/d=64/1x2x256)|tutorial/01/.*n=4097)`))
	var buf bytes.Buffer
	if err := ex.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var back LaunchExport
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Format != 1 || len(back.Cases) != 5 {
		t.Fatalf("%d cases:\n%s", len(back.Cases), buf.String())
	}
	byName := map[string]CaseExport{}
	for _, c := range back.Cases {
		byName[c.Case] = c
		if len(c.Launches) == 0 {
			t.Errorf("%s: no launches", c.Case)
		}
		for _, l := range c.Launches {
			if l.Signature == "" || l.Error != "" || l.NumWarps == 0 || l.NumStages == 0 || l.Grid[0] == 0 {
				t.Errorf("%s: launch %+v", c.Case, l)
			}
			if n := len(strings.Split(l.Signature, ",")); n < len(l.Args) {
				t.Errorf("%s: %d args for signature %q", c.Case, len(l.Args), l.Signature)
			}
			for _, a := range l.Args {
				if (a.Kind == "ptr" || a.Kind == "desc") && c.Tensors[a.Tensor].DType == "" {
					t.Errorf("%s: argument over unknown tensor %q", c.Case, a.Tensor)
				}
			}
		}
	}

	va := byName["ours/vector_add/vector_add_kernel/add/fp32/n=4097"]
	if va.Path != filepath.Join("kernels", "vector_add.py") || va.Source != "ours" || va.NotRun != "" {
		t.Errorf("vector add: %+v", va)
	}
	l := va.Launches[0]
	if l.Kernel != "vector_add_kernel" || l.Signature != "*fp32:16, *fp32:16, *fp32:16, i32, 1024" || l.Grid != [3]int{5, 1, 1} || l.NumWarps != 4 || l.NumStages != 3 {
		t.Errorf("vector add launch: %+v", l)
	}
	if a := l.Args; len(a) != 5 || a[0].Kind != "ptr" || a[0].Tensor != "x" || a[3].Kind != "int" || a[3].Value != 4097.0 || a[4].Kind != "const" || a[4].Value != "1024" {
		t.Errorf("vector add args: %+v", a)
	}
	x, out := va.Tensors["x"], va.Tensors["out"]
	if x.DType != "fp32" || x.Init != "normal" || x.Shape[0] != 4097 || x.Std < 0.9 || x.Std > 1.1 || x.Min >= x.Max || len(x.Data) != 0 {
		t.Errorf("x: %+v", x)
	}
	if !out.Output || out.Init != "empty" {
		t.Errorf("out: %+v", out)
	}

	ln := byName["ours/layer_norm/layer_norm/fwd+bwd/300x1000"]
	if len(ln.Launches) != 3 || ln.Tensors["locks"].Init != "zeros" || ln.Tensors["pdw"].Init != "zeros" {
		t.Errorf("layer norm: %d launches, locks %+v", len(ln.Launches), ln.Tensors["locks"])
	}
	if a := ln.Launches[0].Args[8]; a.Kind != "float" || a.Value != 1e-5 {
		t.Errorf("layer norm eps: %+v", a)
	}

	gg := byName["ours/grouped_gemm/grouped_gemm_kernel/fp16/4groups"]
	if a := gg.Tensors["a_addrs"]; a.Init != "addr_of" || a.DType != "i64" || strings.Join(a.AddrOf, ",") != "a0,a1,a2,a3" || a.Shape[0] != 4 {
		t.Errorf("a_addrs: %+v", a)
	}
	if s := gg.Tensors["sizes"]; s.Init != "data" || s.DType != "i32" || len(s.Data) != 12 || s.Data[0] != 128 {
		t.Errorf("sizes: %+v", s)
	}

	at := byName["ours/attention/attn_fwd_kernel/host/d=64/1x2x256"]
	var desc *ArgSpec
	for i, a := range at.Launches[0].Args {
		if a.Kind == "desc" {
			desc = &at.Launches[0].Args[i]
			break
		}
	}
	if desc == nil || desc.Tensor != "q" || len(desc.Shape) != 2 || desc.Shape[0] != 512 || desc.Shape[1] != 64 ||
		desc.Strides[0] != 64 || desc.Strides[1] != 1 || desc.Block[0] != 128 || desc.Block[1] != 64 {
		t.Errorf("descriptor: %+v", desc)
	}

	tu := byName["tutorial/01/add_kernel/add/fp32/n=4097"]
	if tu.Source != "tutorial" || tu.Path != "" || !strings.Contains(tu.NotRun, "tutorials") || len(tu.Launches) != 1 {
		t.Errorf("tutorial without a folder: %+v", tu)
	}
}

func TestTensorSpec(t *testing.T) {
	if s := tensorSpec(&Tensor{DType: I1, Shape: []int{5000}, Data: append(make([]float64, 4999), 1)}); s.Init != "randint" || s.Min != 0 || s.Max != 1 {
		t.Errorf("i1 mask: %+v", s)
	}
	if s := tensorSpec(&Tensor{DType: FP32, Shape: []int{3}, Data: []float64{1, 2, 3}}); s.Init != "data" || len(s.Data) != 3 || s.Mean != 2 {
		t.Errorf("small: %+v", s)
	}
	nan := make([]float64, 10)
	nan[3] = 1
	nan[4] = math.NaN()
	if s := tensorSpec(&Tensor{DType: FP32, Shape: []int{10}, Data: nan}); s.Init != "normal" || s.Max != 1 {
		t.Errorf("non-finite: %+v", s)
	}
	if _, err := json.Marshal(tensorSpec(&Tensor{DType: FP32, Shape: []int{10}, Data: nan})); err != nil {
		t.Errorf("non-finite data must still encode: %v", err)
	}
}

func TestDumpPTX(t *testing.T) {
	dir := t.TempDir()
	r := &Runner{KernelsDir: "kernels"}
	files, err := r.DumpPTX(AllCases(), regexp.MustCompile(`^(ours/vector_add/|tutorial/01/)`), dir, "cuda:90:32", false)
	if err != nil {
		t.Fatal(err)
	}
	// Five distinct specializations: fp32 n=98432 (i32:16), 4097 (i32), 1 (i32:1); fp16
	// 65536 and 1000. Tutorials are left out without a tutorials folder.
	if len(files) != 5 {
		t.Fatalf("%d specializations: %+v", len(files), files)
	}
	for _, f := range files {
		if f.Error != "" {
			t.Errorf("%s [%s]: %s", f.Kernel, f.Signature, f.Error)
			continue
		}
		ptx, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil || !strings.Contains(string(ptx), ".entry vector_add_kernel(") || !strings.Contains(string(ptx), ".target sm_90a") {
			t.Errorf("%s: %v\n%.300s", f.Name, err, ptx)
		}
	}
	idx, err := os.ReadFile(filepath.Join(dir, "index.tsv"))
	if err != nil || strings.Count(string(idx), "\n") != 6 || !strings.Contains(string(idx), "\tok\t") {
		t.Fatalf("index.tsv: %v\n%s", err, idx)
	}
}
