package compiler

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/ptx"
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

// TestBackends runs both NVIDIA backends on the LLVM IR of every specialization of our
// kernel set: gotriton's own emitter (ptx.Compile, then ptx.Check; with and without
// floating-point contraction) must accept it, and where
// llc-22 is installed, LLVM's NVPTX backend must accept it too and declare the same entry,
// with the same parameter list and .reqntid, as our PTX (a coarse cross-check of the ABI).
// Kernels the lowering cannot handle yet are logged as NOT LOWERED with the reason.
func TestBackends(t *testing.T) {
	llc, err := exec.LookPath("llc-22")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("llc-22 is required in CI (apt-get install llvm-22)")
		}
		t.Log("llc-22 not found: checking our own PTX only")
		llc = ""
	}
	specs := loadSpecs(t)
	var mu sync.Mutex
	lowered := 0
	t.Cleanup(func() {
		t.Logf("%d of %d specializations lowered; each gave PTX that passes ptx.Check (and matches llc-22's entry: %v)", lowered, len(specs), llc != "")
	})
	for _, s := range specs {
		name := s.File + ":" + s.Kernel + ":" + s.Variant
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r, err := compileSpec(t, s, LLVM)
			if err != nil {
				t.Logf("NOT LOWERED %s: %v", name, firstLine(err.Error()))
				return
			}
			mu.Lock()
			lowered++
			mu.Unlock()
			ours, err := ptx.Compile(r.LLVM, ptx.Options{Arch: "sm_90a"})
			if err != nil {
				t.Fatalf("ptx.Compile: %v", err)
			}
			if err := ptx.Check(ours); err != nil {
				t.Fatalf("our PTX: %v", err)
			}
			fused, err := ptx.Compile(r.LLVM, ptx.Options{Arch: "sm_90a", FPFusion: true})
			if err != nil {
				t.Fatalf("ptx.Compile with FPFusion: %v", err)
			}
			if err := ptx.Check(fused); err != nil {
				t.Fatalf("our PTX with FPFusion: %v", err)
			}
			if llc == "" {
				return
			}
			cmd := exec.Command(llc, "-march=nvptx64", "-mcpu=sm_90a", "-mattr=+ptx84", "-o", "-")
			cmd.Stdin = strings.NewReader(r.LLVM.String())
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			theirs, err := cmd.Output()
			if err != nil {
				t.Fatalf("llc-22 rejects the LLVM IR: %v\n%s", err, stderr.String())
			}
			a, err := entries(ours)
			if err != nil {
				t.Fatalf("our PTX: %v", err)
			}
			b, err := entries(string(theirs))
			if err != nil {
				t.Fatalf("llc-22's PTX: %v", err)
			}
			if !slices.EqualFunc(a, b, entry.equal) {
				t.Errorf("entries differ:\nours:    %+v\nllc-22:  %+v", a, b)
			}
		})
	}
}

// entry is a PTX kernel's interface: its name, its .param declarations in order and its
// .reqntid dimensions (padded to three).
type entry struct {
	name    string
	params  []string
	reqntid [3]int
}

func (e entry) equal(f entry) bool {
	return e.name == f.name && slices.Equal(e.params, f.params) && e.reqntid == f.reqntid
}

var (
	entryHead = regexp.MustCompile(`\.entry\s+([\w$]+)\s*\(([^)]*)\)([^{]*)\{`)
	reqntid   = regexp.MustCompile(`\.reqntid\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?`)
	spaces    = regexp.MustCompile(`\s+`)
)

// entries parses every .entry of a PTX file.
func entries(src string) ([]entry, error) {
	var out []entry
	for _, m := range entryHead.FindAllStringSubmatch(src, -1) {
		e := entry{name: m[1], reqntid: [3]int{0, 1, 1}}
		for _, p := range strings.Split(m[2], ",") {
			if p = strings.TrimSpace(spaces.ReplaceAllString(p, " ")); p != "" {
				e.params = append(e.params, p)
			}
		}
		if r := reqntid.FindStringSubmatch(m[3]); r != nil {
			for i, d := range r[1:] {
				if d != "" {
					e.reqntid[i], _ = strconv.Atoi(d)
				}
			}
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no .entry found")
	}
	return out, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestEntries checks the parser behind TestBackends' cross-check: llc writes ".reqntid 128",
// we write ".reqntid 128, 1, 1", and both mean the same.
func TestEntries(t *testing.T) {
	a, errA := entries(".visible .entry k(\n\t.param .u32 k_param_0,\n\t.param .u64 .ptr .global .align 1 k_param_1\n)\n.reqntid 128, 1, 1\n{\n}")
	b, errB := entries(".visible .entry k(\n\t.param .u32 k_param_0,\n\t.param .u64 .ptr .global .align 1  k_param_1\n)\n.reqntid 128\n{\n}")
	c, errC := entries(".visible .entry k(\n\t.param .u32 k_param_0\n)\n.reqntid 128\n{\n}")
	if errA != nil || errB != nil || errC != nil {
		t.Fatal(errA, errB, errC)
	}
	if !a[0].equal(b[0]) || a[0].reqntid != [3]int{128, 1, 1} || len(a[0].params) != 2 {
		t.Errorf("want equal entries with two params and .reqntid 128,1,1: %+v %+v", a, b)
	}
	if a[0].equal(c[0]) {
		t.Errorf("entries with different parameter lists compare equal")
	}
}
