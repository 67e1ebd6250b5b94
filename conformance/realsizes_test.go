package conformance

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/tileir"
)

// TestRealSizeCases: the real-size cases are all Large, named uniquely next to the default
// suite, absent from it, and left out by Run unless the runner asks for them.
func TestRealSizeCases(t *testing.T) {
	large := RealSizeCases()
	if len(large) == 0 {
		t.Fatal("no real-size cases")
	}
	for _, c := range AllCases() {
		if c.Large {
			t.Errorf("%s: Large case in the default suite", c.Name)
		}
	}
	seen := map[string]bool{}
	for _, c := range SuiteCases(true) {
		if seen[c.Name] {
			t.Errorf("duplicate case name %s", c.Name)
		}
		seen[c.Name] = true
	}
	for _, c := range large {
		if !c.Large || c.Source != Tutorial {
			t.Errorf("%s: Large=%v source %v", c.Name, c.Large, c.Source)
		}
	}
	for _, want := range []string{
		"tutorial/03/matmul_kernel/fp16/512x512x512", "tutorial/03/matmul_kernel/fp8e5/512x512x512",
		"tutorial/04/_dropout/n=98432", "tutorial/05/layer_norm/fwd+bwd/1151x8192",
		"tutorial/06/_attn_fwd/causal/d=128/1x2x1024", "tutorial/06/_attn_fwd/noncausal/d=64/1x2x1024",
		"tutorial/06/_attn_bwd/causal/d=64/1x2x1024", "tutorial/08/grouped_matmul_tma_kernel/fp16_tutorial/4groups",
		"tutorial/09/matmul_kernel_persistent/fp16/8192x8192x512", "tutorial/09/matmul_kernel_tma/fp16/32x32x32",
	} {
		if !seen[want] {
			t.Errorf("no real-size case %s", want)
		}
	}
	if n := len(SuiteCases(false)); n != len(AllCases()) {
		t.Errorf("SuiteCases(false) has %d cases, AllCases %d", n, len(AllCases()))
	}

	// Without a tutorials folder a tutorial case is "not run"; a Large one is not even
	// listed unless RealSizes is set.
	filter := regexp.MustCompile(`^tutorial/11/`)
	r := newRunner()
	rep := r.Run(SuiteCases(true), filter)
	for _, res := range rep.Results {
		if strings.HasSuffix(res.Case, "/n=1024") {
			t.Errorf("Run without RealSizes ran the Large case %s", res.Case)
		}
	}
	r.RealSizes = true
	rep = r.Run(SuiteCases(true), filter)
	found := false
	for _, res := range rep.Results {
		found = found || strings.HasSuffix(res.Case, "/n=1024")
	}
	if !found {
		t.Errorf("Run with RealSizes left out tutorial/11's n=1024 case: %+v", rep.Results)
	}
}

// TestMatmulParallel: the row-parallel reference is the plain triple loop.
func TestMatmulParallel(t *testing.T) {
	M, N, K := 67, 129, 130 // over the parallel threshold, rows not a multiple of the workers
	a, b := make([]float64, M*K), make([]float64, K*N)
	for i := range a {
		a[i] = float64(i%7) - 3
	}
	for i := range b {
		b[i] = float64(i%5) - 2
	}
	got := matmul(M, N, K, rowMajor(a, K), rowMajor(b, N))
	for i := range M {
		for j := range N {
			s := 0.0
			for k := range K {
				s += a[i*K+k] * b[k*N+j]
			}
			if got[i*N+j] != s {
				t.Fatalf("c[%d,%d] = %v, want %v", i, j, got[i*N+j], s)
			}
		}
	}
}

// perturbOutput wraps a device so that every kernel, after it runs, scales element
// `at` of its pointer argument number `arg` (an fp32 buffer) by 1+rel: a deliberately
// wrong kernel.
func perturbOutput(d *Device, arg, at int, rel float64) *Device {
	p := *d
	load := d.Load
	p.Load = func(m *tileir.Module, kernel string, numWarps, numStages int) (Kernel, error) {
		k, err := load(m, kernel, numWarps, numStages)
		if err != nil {
			return Kernel{}, err
		}
		k.Kernel = perturbedKernel{k.Kernel, arg, at, rel}
		return k, nil
	}
	return &p
}

type perturbedKernel struct {
	driver.Kernel
	arg, at int
	rel     float64
}

func (k perturbedKernel) Launch(grid driver.Grid, args ...any) error {
	if err := k.Kernel.Launch(grid, args...); err != nil {
		return err
	}
	b := args[k.arg].(driver.Buffer)
	raw := make([]byte, 4)
	if err := b.Read(4*k.at, raw); err != nil {
		return err
	}
	v := driver.Decode[float32](raw)[0]
	return b.Write(4*k.at, driver.Encode([]float32{v * float32(1+k.rel)}))
}

// TestCompareDevices: --compare-cpu's comparison, with two CPU devices. Identical runs
// agree exactly; a second device whose kernel perturbs one output element fails the case,
// naming the output.
func TestCompareDevices(t *testing.T) {
	c := findCase(t, "ours/vector_add/vector_add_kernel/add/fp32/n=4097")
	r := newRunner()
	r.Compare = newRunner()
	res := r.RunCase(c)
	if res.Status != Pass || res.CompareErrors["out"] != 0 || res.CompareDevice != "cpu (comparison)" {
		t.Fatalf("identical devices: %s %s, compare %q %v", res.Status, res.Error, res.CompareDevice, res.CompareErrors)
	}

	// One element off by 50%: far beyond fp32's 1e-5 relative L2 tolerance.
	r.Compare = newRunner()
	r.Compare.Device = perturbOutput(r.Compare.Device, 2, 100, 0.5)
	res = r.RunCase(c)
	if res.Status != Fail || !strings.Contains(res.Error, "out: cpu disagrees with cpu (comparison)") {
		t.Fatalf("perturbed comparison device: %s: %s", res.Status, res.Error)
	}
	if e := res.CompareErrors["out"]; !(e > 1e-5) {
		t.Errorf("relative L2 against the perturbed device = %v", e)
	}
	if res.Errors["out"] >= 1e-5 {
		t.Errorf("the device under test itself should match the reference: %v", res.Errors)
	}

	// The perturbed device under test fails its own reference check, before any
	// comparison runs.
	r = newRunner()
	r.Device = perturbOutput(r.Device, 2, 100, 0.5)
	r.Compare = newRunner()
	res = r.RunCase(c)
	if res.Status != Fail || res.CompareErrors != nil || !strings.Contains(res.Error, "out: relative L2 error") {
		t.Fatalf("perturbed device under test: %s: %s (compare %v)", res.Status, res.Error, res.CompareErrors)
	}
}

// TestCompareNaN: NaN never passes the comparison, even where both runs have it.
func TestCompareNaN(t *testing.T) {
	nan := math.NaN()
	if c := Compare([]float64{1, nan}, []float64{1, nan}, true, 1e-2); c.OK {
		t.Errorf("NaN in both runs passed: %+v", c)
	}
	if c := Compare([]float64{1, 2}, []float64{1, nan}, true, 1e-2); c.OK {
		t.Errorf("NaN in the comparison run passed: %+v", c)
	}
}
