package conformance

// Running, exporting and autotuning benchmark cases, and the side-by-side table.

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gotriton/gotriton/driver/cuda"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
)

// BenchMethod describes how both sides time a case, for reports; warm-up and reps are
// filled in.
const BenchMethod = "CUDA events around each run; %d warm-up runs, median of %d; L2 flushed (256 MiB memset) before each timed run; multi-step cases add their timed steps' medians"

// RunBench runs each case (compile, run once, sampled checks against the float64
// reference, then time every step with r.Timer) and calls each with its result as soon
// as it is known. A failing case does not stop the others.
func (r *Runner) RunBench(cases []BenchCase, each func(BenchResult)) []BenchResult {
	var out []BenchResult
	for _, b := range cases {
		br := BenchResultOf(b, r.RunCase(b.Case))
		out = append(out, br)
		if each != nil {
			each(br)
		}
	}
	return out
}

// ---- export ----

// BenchExport is what `gotriton bench --export` writes for tools/triton-bench.py: every
// case's tensors (how to generate them), launches and sampled checks.
type BenchExport struct {
	Format int               `json:"format"`
	Cases  []BenchCaseExport `json:"cases"`
}

// BenchCaseExport is one case.
type BenchCaseExport struct {
	Case   string  `json:"case"`
	Group  string  `json:"group"`
	Label  string  `json:"label"`
	Config string  `json:"config"`
	Unit   string  `json:"unit"`
	Work   float64 `json:"work"`
	// Timed are the steps whose times add up to the case's time.
	Timed  []int  `json:"timed"`
	Source string `json:"source"`
	File   string `json:"file"`
	// Path is the kernel file as found here ("" when not found: NotRun says why).
	Path     string                     `json:"path"`
	NotRun   string                     `json:"not_run,omitempty"`
	Tensors  map[string]BenchTensorSpec `json:"tensors"`
	Launches []LaunchSpec               `json:"launches"`
	Checks   []BenchCheckSpec           `json:"checks"`
	// Cublas are the products to time with torch.matmul beside Triton (matmul cases).
	Cublas []CublasOperands `json:"cublas,omitempty"`
}

// BenchTensorSpec says how to make a tensor.
type BenchTensorSpec struct {
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
	// Init is "hash" (element i is Mean + Scale*h(Seed, i)/256 with benchHash's h,
	// rounded to the dtype, which is exact), "empty" (an output), "zeros", "data"
	// (exactly Data) or "addr_of" (int64 device addresses of the tensors in AddrOf).
	Init   string    `json:"init"`
	Seed   uint32    `json:"seed,omitempty"`
	Mean   float64   `json:"mean,omitempty"`
	Scale  float64   `json:"scale,omitempty"`
	Data   []float64 `json:"data,omitempty"`
	AddrOf []string  `json:"addr_of,omitempty"`
}

// BenchCheckSpec is a sampled check: output Tensor's flat elements Index must match Want
// within relative L2 error Tol (integers exactly), and no NaN.
type BenchCheckSpec struct {
	Tensor string    `json:"tensor"`
	Index  []int     `json:"index"`
	Want   []float64 `json:"want"`
	Tol    float64   `json:"tol"`
	Float  bool      `json:"float"`
}

// ExportBench builds every case (inputs and sampled references, no device) and describes it.
func (r *Runner) ExportBench(cases []BenchCase) (*BenchExport, error) {
	ex := &BenchExport{Format: 1, Cases: []BenchCaseExport{}}
	for _, b := range cases {
		ce, err := r.exportBenchCase(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", b.Name, err)
		}
		ex.Cases = append(ex.Cases, ce)
	}
	return ex, nil
}

func (r *Runner) exportBenchCase(b BenchCase) (BenchCaseExport, error) {
	ce := BenchCaseExport{Case: b.Name, Group: b.Group, Label: b.Label, Config: b.Config, Unit: b.Unit, Work: b.Work,
		Timed: b.Timed, Source: b.Source.String(), File: b.File, Tensors: map[string]BenchTensorSpec{}, Cublas: b.Cublas}
	if path, err := r.path(b.Case); err != nil {
		ce.NotRun = err.Error()
	} else {
		ce.Path = path
	}
	p := b.build(r.seed(b.Name))
	if ce.Timed == nil {
		for i := range p.Steps {
			ce.Timed = append(ce.Timed, i)
		}
	}
	for name, t := range p.Tensors {
		ts := BenchTensorSpec{DType: string(t.DType), Shape: t.Shape}
		g, hashed := p.gens[name]
		switch {
		case hashed:
			ts.Init, ts.Seed, ts.Mean, ts.Scale = "hash", g.Seed, g.Mean, g.Scale
		case t.AddrOf != nil:
			ts.DType, ts.Shape, ts.Init, ts.AddrOf = string(I64), []int{len(t.AddrOf)}, "addr_of", t.AddrOf
		case t.Output:
			ts.Init = "empty"
		case !hasNonZero(t.Data):
			ts.Init = "zeros"
		case len(t.Data) <= exactLimit:
			ts.Init, ts.Data = "data", t.Data
		default:
			return ce, fmt.Errorf("tensor %s: %d elements of data that are not hashed", name, len(t.Data))
		}
		ce.Tensors[name] = ts
	}
	ce.Launches = launchSpecs(p.Problem)
	for _, ch := range p.Checks {
		if ch.Index == nil {
			return ce, fmt.Errorf("check of %s is not sampled", ch.Tensor)
		}
		t := p.Tensors[ch.Tensor]
		ce.Checks = append(ce.Checks, BenchCheckSpec{Tensor: ch.Tensor, Index: ch.Index, Want: ch.Want, Tol: tolerance(p.Problem, ch), Float: t.DType.IsFloat()})
	}
	return ce, nil
}

// hasNonZero reports whether any element is non-zero.
func hasNonZero(xs []float64) bool {
	for _, x := range xs {
		if x != 0 {
			return true
		}
	}
	return false
}

// WriteJSON writes the export as JSON.
func (ex *BenchExport) WriteJSON(w io.Writer) error {
	return json.NewEncoder(w).Encode(ex)
}

// ---- autotune ----

// Autotuned returns b's variants, one per @triton.autotune config of its kernel, as the
// kernel file declares them (evaluated offline, as `gotriton list` does; prune_configs_by
// is not applied), followed by b itself when its config is not among them. Configs that
// set a constexpr the case does not take from its config are skipped, and so listed in
// skipped. A case without autotune support is returned alone.
func (r *Runner) Autotuned(b BenchCase) (variants []BenchCase, skipped []string, err error) {
	if b.tune == nil {
		return []BenchCase{b}, nil, nil
	}
	path, err := r.path(b.Case)
	if err != nil {
		return nil, nil, err
	}
	f, err := frontend.Load(path, pyeval.Options{})
	if err != nil {
		return nil, nil, err
	}
	var jit *pyeval.JITFunction
	for _, k := range f.Kernels {
		if k.Name == b.autotuneKernel {
			jit = k.JIT
		}
	}
	if jit == nil || jit.Autotune == nil {
		return []BenchCase{b}, nil, nil
	}
	list, ok := jit.Autotune.Configs.(*pyeval.List)
	if !ok {
		return nil, nil, fmt.Errorf("%s: the autotune configs of %s could not be evaluated: %s", path, b.autotuneKernel, pyeval.Repr(jit.Autotune.Configs))
	}
	own := false
	for _, e := range list.Elems {
		c, why := benchConfigOf(e)
		if why == "" {
			for k := range c.Kw {
				if !b.tuneKeys[k] {
					why = fmt.Sprintf("sets %s, which this case does not take from its config", k)
				}
			}
		}
		if why != "" {
			skipped = append(skipped, fmt.Sprintf("%s: %s", pyeval.Repr(e), why))
			continue
		}
		v := b.tune(c)
		own = own || v.Config == b.Config
		variants = append(variants, v)
	}
	if !own {
		variants = append(variants, b)
	}
	return variants, skipped, nil
}

// benchConfigOf converts a triton.Config with integer (or bool) constexprs; why says
// why not.
func benchConfigOf(v pyeval.Value) (BenchConfig, string) {
	pc, ok := v.(*pyeval.Config)
	if !ok {
		return BenchConfig{}, "not a triton.Config"
	}
	c := BenchConfig{Kw: map[string]int{}, Warps: 4, Stages: 3}
	toInt := func(v pyeval.Value) (int, bool) {
		switch x := v.(type) {
		case pyeval.Int:
			n, ok := x.Int64()
			return int(n), ok
		case pyeval.Bool:
			if x {
				return 1, true
			}
			return 0, true
		}
		return 0, false
	}
	if pc.Kwargs != nil {
		for i, k := range pc.Kwargs.Keys {
			name := pyeval.ToStr(k)
			n, ok := toInt(pc.Kwargs.Vals[i])
			if !ok {
				return c, fmt.Sprintf("%s is %s, not an integer", name, pyeval.Repr(pc.Kwargs.Vals[i]))
			}
			c.Kw[name] = n
			c.order = append(c.order, name)
		}
	}
	for _, o := range []struct {
		v   pyeval.Value
		dst *int
	}{{pc.NumWarps, &c.Warps}, {pc.NumStages, &c.Stages}} {
		if o.v == nil || o.v == pyeval.None {
			continue
		}
		n, ok := toInt(o.v)
		if !ok {
			return c, "num_warps or num_stages is not an integer"
		}
		*o.dst = n
	}
	return c, ""
}

// ---- the table ----

// best returns the fastest passing result of each group, and every group in order.
func best(rs *BenchResults) (map[string]BenchResult, map[string][]BenchResult, []string) {
	top, all := map[string]BenchResult{}, map[string][]BenchResult{}
	var order []string
	if rs == nil {
		return top, all, nil
	}
	for _, r := range rs.Results {
		if _, seen := all[r.Group]; !seen {
			order = append(order, r.Group)
		}
		all[r.Group] = append(all[r.Group], r)
		if r.Status == string(Pass) && r.MS > 0 {
			if b, ok := top[r.Group]; !ok || r.MS < b.MS {
				top[r.Group] = r
			}
		}
	}
	return top, all, order
}

// WriteBenchTable prints the side-by-side table in markdown: per group, each compiler's
// fastest passing config, the speed ratio, and the share of the H200's peak; then every
// case that failed or did not run, with its error.
func WriteBenchTable(w io.Writer, ours, triton *BenchResults) {
	ob, oall, order := best(ours)
	tb, tall, torder := best(triton)
	for _, g := range torder {
		if _, ok := oall[g]; !ok {
			order = append(order, g)
		}
	}
	cublas := false
	for _, r := range tb {
		cublas = cublas || r.CublasMS > 0
	}
	head, rule := "| case | config | gotriton | Triton 3.6 | gotriton / Triton speed | % of peak (gotriton / Triton) |", "|---|---|---:|---:|---:|---:|"
	if cublas {
		head, rule = head+" cuBLAS (torch.matmul) | gotriton / cuBLAS speed |", rule+"---:|---:|"
	}
	fmt.Fprintf(w, "%s\n%s\n", head, rule)
	var failures []string
	for _, g := range order {
		o, okO := ob[g]
		t, okT := tb[g]
		label, config := g, ""
		for _, r := range append(oall[g], tall[g]...) {
			label, config = r.Label, r.Config
			break
		}
		switch {
		case okO && okT && o.Config != t.Config:
			config = fmt.Sprintf("gotriton: %s; Triton: %s", o.Config, t.Config)
		case okO:
			config = o.Config
		case okT:
			config = t.Config
		}
		fmt.Fprintln(w, benchRow(label, config, o, okO, t, okT, oall[g], tall[g], cublas))
		// a group of several configs also compares the two compilers config by config
		if configs := groupConfigs(oall[g], tall[g]); len(configs) > 1 {
			for _, c := range configs {
				o, okO := passing(oall[g], c)
				t, okT := passing(tall[g], c)
				fmt.Fprintln(w, benchRow(label+", same config", c, o, okO, t, okT, oall[g], tall[g], cublas))
			}
		}
		for _, side := range []struct {
			name string
			rs   []BenchResult
		}{{"gotriton", oall[g]}, {"Triton", tall[g]}} {
			for _, r := range side.rs {
				if r.Status != string(Pass) {
					msg := strings.ReplaceAll(r.Error, "\n", " ")
					if len(msg) > 300 {
						msg = msg[:300] + "..."
					}
					failures = append(failures, fmt.Sprintf("- %s, %s [%s]: %s: %s", side.name, r.Case, r.Config, r.Status, msg))
				}
			}
		}
	}
	if len(failures) > 0 {
		fmt.Fprintf(w, "\nFailed or not run:\n\n%s\n", strings.Join(failures, "\n"))
	}
}

// benchRow is one row of the table: ours o and Triton's t (where ok) of a case.
func benchRow(label, config string, o BenchResult, okO bool, t BenchResult, okT bool, oall, tall []BenchResult, cublas bool) string {
	cell := func(r BenchResult, ok bool, all []BenchResult) string {
		if ok {
			return fmt.Sprintf("%.3f ms, %s %s", r.MS, formatRate(r.Rate()), r.Unit)
		}
		if len(all) == 0 {
			return "-"
		}
		return "FAIL"
	}
	ratio, share := "-", "-"
	if okO && okT {
		ratio = fmt.Sprintf("%.2f", t.MS/o.MS)
	}
	if okO || okT {
		share = fmt.Sprintf("%s / %s", percent(o, okO), percent(t, okT))
	}
	row := fmt.Sprintf("| %s | %s | %s | %s | %s | %s |", label, config, cell(o, okO, oall), cell(t, okT, tall), ratio, share)
	if cublas {
		cb, cbRatio := "-", "-"
		if okT && t.CublasMS > 0 {
			cb = fmt.Sprintf("%.3f ms, %s %s", t.CublasMS, formatRate(t.Work/(t.CublasMS*1e-3)/1e12), t.Unit)
			if okO {
				cbRatio = fmt.Sprintf("%.2f", t.CublasMS/o.MS)
			}
		}
		row += fmt.Sprintf(" %s | %s |", cb, cbRatio)
	}
	return row
}

// groupConfigs lists the configs that both compilers ran in a group, in our order.
func groupConfigs(ours, triton []BenchResult) []string {
	var out []string
	for _, r := range ours {
		if slices.ContainsFunc(triton, func(t BenchResult) bool { return t.Config == r.Config }) && !slices.Contains(out, r.Config) {
			out = append(out, r.Config)
		}
	}
	return out
}

// passing returns the passing result of config c among rs.
func passing(rs []BenchResult, c string) (BenchResult, bool) {
	for _, r := range rs {
		if r.Config == c && r.Status == string(Pass) && r.MS > 0 {
			return r, true
		}
	}
	return BenchResult{}, false
}

func formatRate(x float64) string {
	if x >= 100 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1f", x)
}

func percent(r BenchResult, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*r.PeakShare())
}

// CUDABenchTimer is CUDATimer with the given warm-up runs and timed runs (L2 flushed
// before each), and the device's name, SM count and driver version for reports.
func CUDABenchTimer(d *Device, warmup, reps int) (TimeFunc, map[string]string, error) {
	cd, ok := d.Driver.(*cuda.Device)
	if !ok {
		return nil, nil, fmt.Errorf("benchmarks need a cuda device, not %s", d.Name)
	}
	env := map[string]string{"device": cd.Name(), "sms": fmt.Sprint(cd.SMCount()), "capability": fmt.Sprint(cd.Capability()),
		"driver": fmt.Sprint(cd.DriverVersion())}
	opts := cuda.TimeOptions{Warmup: warmup, Reps: reps, FlushL2: true}
	return func(launch func() error) (float64, error) { return cd.TimeWith(launch, opts) }, env, nil
}
