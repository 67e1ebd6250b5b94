package conformance

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"
)

// knownFailures are cases of our suite that fail today through semantic.Compile and pass
// with real Triton's TTIR (TestOurCasesGoldenTTIR): bugs of the compile step, tracked
// here so that CI stays green while they are open. The CLI still reports them as FAIL.
// (The last one, attn_fwd_kernel with HEAD_DIM=64, was a square tt.trans dropped by a
// fold; fixed in semantic/tileir by ab11679.)
var knownFailures = map[string]string{}

func knownFailure(name string) string {
	for re, why := range knownFailures {
		if regexp.MustCompile(re).MatchString(name) {
			return why
		}
	}
	return ""
}

func findCase(t *testing.T, name string) Case {
	t.Helper()
	for _, c := range AllCases() {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no case %q", name)
	return Case{}
}

func newRunner() *Runner {
	return &Runner{Device: CPUDevice(2), KernelsDir: "kernels"}
}

// TestOurCases runs our whole suite on the CPU through the real compile path
// (frontend.Load + semantic.Compile), as `gotriton conformance` does in CI.
func TestOurCases(t *testing.T) {
	r := newRunner()
	for _, c := range OurCases() {
		res := r.RunCase(c)
		switch why := knownFailure(c.Name); {
		case res.Status == Pass && why != "":
			t.Logf("%s: passes now; remove it from knownFailures (%s)", c.Name, why)
		case res.Status == Pass:
		case res.Status == NotRan && c.NoCPU != "":
		case why != "":
			t.Logf("%s: known failure: %s", c.Name, why)
		default:
			t.Errorf("%s: %s: %s", c.Name, res.Status, res.Error)
		}
	}
}

// TestOurCasesGoldenTTIR runs our suite with a stand-in compile step that returns real
// Triton 3.6's TTIR for the same specialization: it tests the runner, the references,
// the argument ABI and the tolerances independently of semantic.Compile. Cases whose
// specialization has no golden TTIR are skipped.
func TestOurCasesGoldenTTIR(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	compile, err := goldenTTIRCompile()
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner()
	r.Compile = compile
	ran := 0
	for _, c := range OurCases() {
		res := r.RunCase(c)
		switch res.Status {
		case Pass:
			ran++
		case NotRan:
		default:
			t.Errorf("%s: %s: %s", c.Name, res.Status, res.Error)
		}
	}
	if ran < 20 {
		t.Errorf("only %d cases have a golden TTIR specialization", ran)
	}
}

// TestTutorialCases runs the official tutorials' cases when GOTRITON_TUTORIALS is set.
func TestTutorialCases(t *testing.T) {
	dir := os.Getenv("GOTRITON_TUTORIALS")
	if dir == "" {
		t.Skip("GOTRITON_TUTORIALS not set")
	}
	r := newRunner()
	r.TutorialsDir = dir
	for _, c := range TutorialCases() {
		if res := r.RunCase(c); res.Status != Pass {
			t.Errorf("%s: %s: %s", c.Name, res.Status, res.Error)
		}
	}
}

// TestTutorialsWithoutFolder: official cases without a tutorials folder are not run,
// with the reason, and never passed.
func TestTutorialsWithoutFolder(t *testing.T) {
	rep := newRunner().Run(TutorialCases(), nil)
	if rep.Passed != 0 || rep.Failed != 0 || rep.NotRunN != len(TutorialCases()) {
		t.Fatalf("got %s", rep.Summary())
	}
	if !strings.Contains(rep.Results[0].Error, "tutorials folder") {
		t.Fatalf("reason %q", rep.Results[0].Error)
	}
}

// broken returns c with its problem altered by f.
func broken(c Case, f func(p *Problem)) Case {
	build := c.Build
	c.Build = func(rng *rand.Rand) *Problem {
		p := build(rng)
		f(p)
		return p
	}
	return c
}

// TestRunnerCatchesBrokenCases: a wrong reference, outputs left unwritten, NaNs from the
// kernel, and wrong integer results all fail.
func TestRunnerCatchesBrokenCases(t *testing.T) {
	add := findCase(t, "ours/vector_add/vector_add_kernel/add/fp32/n=4097")
	tests := []struct {
		name string
		c    Case
		want string
	}{
		{"wrong reference", broken(add, func(p *Problem) {
			for i := range p.Checks[0].Want {
				p.Checks[0].Want[i] *= 1.001
			}
		}), "relative L2 error"},
		{"one wrong element", broken(add, func(p *Problem) { p.Checks[0].Want[4096] += 100 }), "relative L2 error"},
		{"unwritten outputs (grid too small)", broken(add, func(p *Problem) { p.Steps[0].Grid[0]-- }), "NaN"},
		{"unwritten tail (n too small)", broken(add, func(p *Problem) { p.Steps[0].Args[3] = Int(4000) }), "NaN"},
		{"NaN from the kernel", broken(add, func(p *Problem) {
			p.Tensors["x"].Data[17] = math.NaN()
			p.Checks[0].Want[17] = 0
		}), "NaN"},
		{"NaN in the reference", broken(add, func(p *Problem) { p.Checks[0].Want[5] = math.NaN() }), "relative L2 error"},
		{"compile error", broken(add, func(p *Problem) { p.Steps[0].Kernel = "no_such_kernel" }), "no @triton.jit function"},
		{"integer output", broken(findCase(t, "ours/vector_add/vector_add_kernel/add/fp32/n=4097"), func(p *Problem) {
			// Reinterpret the output as i32: the poisoned/float bits are not the want.
			p.Checks = append(p.Checks, Check{Tensor: "x", Want: make([]float64, 4097)})
		}), "x: relative L2 error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := newRunner().RunCase(tt.c)
			if res.Status != Fail || !strings.Contains(res.Error, tt.want) {
				t.Fatalf("status %s, error %q; want FAIL mentioning %q", res.Status, res.Error, tt.want)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name      string
		got, want []float64
		float     bool
		tol       float64
		ok        bool
	}{
		{"exact", []float64{1, 2, 3}, []float64{1, 2, 3}, true, 1e-5, true},
		{"within", []float64{1, 2, 3.00001}, []float64{1, 2, 3}, true, 1e-5, true},
		{"outside", []float64{1, 2, 3.1}, []float64{1, 2, 3}, true, 1e-5, false},
		{"nan", []float64{1, nan, 3}, []float64{1, 2, 3}, true, 1, false},
		{"inf where finite", []float64{1, inf, 3}, []float64{1, 2, 3}, true, 1, false},
		{"inf where inf", []float64{1, inf, 3}, []float64{1, inf, 3}, true, 1e-5, true},
		{"zeros", []float64{0, 0}, []float64{0, 0}, true, 1e-5, true},
		{"zero want, nonzero got", []float64{0, 1}, []float64{0, 0}, true, 1e-5, false},
		{"ints exact", []float64{1, 2}, []float64{1, 2}, false, 0, true},
		{"ints off by one", []float64{1, 3}, []float64{1, 2}, false, 0, false},
		{"length", []float64{1}, []float64{1, 2}, true, 1, false},
	}
	for _, tt := range tests {
		if c := Compare(tt.got, tt.want, tt.float, tt.tol); c.OK != tt.ok {
			t.Errorf("%s: ok=%v (%s), want %v", tt.name, c.OK, c.Msg, tt.ok)
		}
	}
}

func TestDTypeRoundTrip(t *testing.T) {
	tests := []struct {
		dt   DType
		vals []float64
		bits []uint64
	}{
		{FP16, []float64{1, -2, 65504, 0.5, 5.960464477539063e-08}, []uint64{0x3c00, 0xc000, 0x7bff, 0x3800, 0x0001}},
		{BF16, []float64{1, -2, 0.5}, []uint64{0x3f80, 0xc000, 0x3f00}},
		{FP8E4NV, []float64{1, 448, -0.5, 0.001953125}, []uint64{0x38, 0x7e, 0xb0, 0x01}},
		{FP8E5, []float64{1, 57344, -0.5}, []uint64{0x3c, 0x7b, 0xb8}},
	}
	for _, tt := range tests {
		raw := tt.dt.Encode(tt.vals)
		for i, want := range tt.bits {
			var got uint64
			for b := 0; b < tt.dt.Size(); b++ {
				got |= uint64(raw[i*tt.dt.Size()+b]) << (8 * b)
			}
			if got != want {
				t.Errorf("%s %v: bits %#x, want %#x", tt.dt, tt.vals[i], got, want)
			}
		}
		back := tt.dt.Decode(raw)
		for i := range back {
			if back[i] != tt.vals[i] {
				t.Errorf("%s: decoded %v, want %v", tt.dt, back[i], tt.vals[i])
			}
		}
	}
	// Poison bytes are NaN for every float type.
	for _, dt := range []DType{FP64, FP32, FP16, BF16, FP8E4NV, FP8E5} {
		if v := dt.Decode(bytes.Repeat([]byte{0xFF}, dt.Size()))[0]; !math.IsNaN(v) {
			t.Errorf("%s: all-ones is %v, not NaN", dt, v)
		}
	}
	if got := FP16.Round(1 + 1.0/4096); got != 1 {
		t.Errorf("fp16 tie rounding: %v", got)
	}
	if got := FP8E4NV.Round(1000); !math.IsNaN(got) {
		t.Errorf("e4m3fn overflow: %v, want NaN", got)
	}
	if got := I32.Round(-3.7); got != -3 {
		t.Errorf("i32 round: %v", got)
	}
}

func TestCaseNamesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range AllCases() {
		if seen[c.Name] {
			t.Errorf("duplicate case name %s", c.Name)
		}
		seen[c.Name] = true
	}
}

// TestRunnerRecoversFromDeviceFault checks the runner's side of sticky CUDA errors with a
// CPU device whose Recover reports a fault after the first case: that case fails with
// the fault, cached kernels are dropped, and the next case runs; when recovery itself
// fails, every later case fails with the reason instead of running.
func TestRunnerRecoversFromDeviceFault(t *testing.T) {
	cases := []Case{
		findCase(t, "ours/vector_add/vector_add_kernel/add/fp32/n=4097"),
		findCase(t, "ours/vector_add/vector_add_kernel/add/fp32/n=1"),
	}
	fault := errors.New("cuStreamSynchronize: CUDA_ERROR_MISALIGNED_ADDRESS (misaligned address)")
	for _, resetFails := range []bool{false, true} {
		r := newRunner()
		calls := 0
		r.Device.Recover = func() (error, error) {
			calls++
			if calls > 1 {
				return nil, nil
			}
			if resetFails {
				return fault, errors.New("cuDevicePrimaryCtxReset: CUDA_ERROR_UNKNOWN")
			}
			return fault, nil
		}
		first := r.RunCase(cases[0])
		if first.Status != Fail || !strings.Contains(first.Error, "CUDA_ERROR_MISALIGNED_ADDRESS") {
			t.Errorf("reset fails %v: first case %s: %s", resetFails, first.Status, first.Error)
		}
		if r.modules != nil {
			t.Errorf("reset fails %v: kernels from before the fault are still cached", resetFails)
		}
		second := r.RunCase(cases[1])
		switch {
		case !resetFails && second.Status != Pass:
			t.Errorf("after a recovery the next case: %s: %s", second.Status, second.Error)
		case resetFails && (second.Status != Fail || !strings.Contains(second.Error, "unusable")):
			t.Errorf("after a failed recovery the next case: %s: %s", second.Status, second.Error)
		}
	}
}
