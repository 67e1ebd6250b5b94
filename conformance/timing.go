package conformance

// Kernel timing and launch export, for comparing our kernels' speed with real Triton's.
//
// With a Timer, the runner times every launch of a case that passed, after the checks,
// on the buffers the case ran with (so multi-step cases time each step on the data the
// earlier steps left). On cuda the timer is (*cuda.Device).Time: CUDA events around each
// run, 10 warm-up runs, the median of 50, the L2 cache flushed before each timed run, as
// Triton's do_bench does.
//
// ExportLaunches describes every case's launches (kernel file, kernel, signature, grid,
// num_warps, num_stages, and the arguments with the tensors behind them) as JSON, so that
// tools/triton-times.py can rebuild equivalent torch tensors and time the same kernels
// and launches with real Triton.

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"

	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/driver/cuda"
)

// TimeFunc measures launch, which enqueues one run of a kernel, and returns the time of
// one run in milliseconds.
type TimeFunc func(launch func() error) (ms float64, err error)

// TimingMethod describes how CUDATimer measures, for reports.
const TimingMethod = "CUDA events around each run; 10 warm-up runs, median of 50; L2 flushed (256 MiB memset) before each timed run"

// CUDATimer returns the event timer of a cuda device; other devices have none.
func CUDATimer(d *Device) (TimeFunc, error) {
	cd, ok := d.Driver.(*cuda.Device)
	if !ok {
		return nil, fmt.Errorf("kernel timing needs a cuda device, not %s", d.Name)
	}
	return cd.Time, nil
}

// Timing is the kernel time of each launch of one case.
type Timing struct {
	Launches []LaunchTime `json:"launches"`
}

// LaunchTime is the time of one launch (one Step).
type LaunchTime struct {
	Step      int         `json:"step"`
	Kernel    string      `json:"kernel"`
	Signature string      `json:"signature"`
	Grid      driver.Grid `json:"grid"`
	NumWarps  int         `json:"num_warps"`
	NumStages int         `json:"num_stages"`
	// MS is the median time of one run in milliseconds; 0 when Error is set.
	MS    float64 `json:"ms"`
	Error string  `json:"error,omitempty"`
}

// timeLaunches times each step of a case that has run and passed. A timing error is
// recorded in the launch's entry; it does not fail the case.
func (r *Runner) timeLaunches(p *Problem, loaded []Kernel, bufs map[string]driver.Buffer, sigs []string) *Timing {
	t := &Timing{}
	for i := range p.Steps {
		s := &p.Steps[i]
		lt := LaunchTime{Step: i, Kernel: s.Kernel, Grid: s.Grid, NumWarps: s.NumWarps, NumStages: s.NumStages}
		if i < len(sigs) {
			lt.Signature = sigs[i]
		}
		args, err := r.launchArgs(s, p, bufs, loaded[i].TensorMaps)
		if err == nil {
			k := loaded[i]
			lt.MS, err = r.Timer(func() error { return k.Launch(s.Grid, args...) })
		}
		if err != nil {
			lt.MS, lt.Error = 0, err.Error()
		}
		t.Launches = append(t.Launches, lt)
	}
	return t
}

// ---- launch export ----

// LaunchExport is what ExportLaunches writes.
type LaunchExport struct {
	// Format is the export's version, 1.
	Format int          `json:"format"`
	Cases  []CaseExport `json:"cases"`
}

// CaseExport is one case's problem: its tensors and launches.
type CaseExport struct {
	Case   string `json:"case"`
	Source string `json:"source"` // "ours" or "tutorial"
	File   string `json:"file"`   // the kernel file's base name
	// Path is the kernel file as the runner found it ("" when it was not found).
	Path string `json:"path"`
	// NotRun is why the case cannot run (a case Skip, a missing tutorials folder).
	NotRun   string                `json:"not_run,omitempty"`
	Tensors  map[string]TensorSpec `json:"tensors"`
	Launches []LaunchSpec          `json:"launches"`
}

// TensorSpec describes how to rebuild a tensor. Values need not be identical for timing:
// small inputs are given exactly ("data"), others by distribution.
type TensorSpec struct {
	DType string `json:"dtype"` // signature spelling: fp32, fp16, bf16, fp8e4nv, fp8e5, i1, i32, ...
	Shape []int  `json:"shape"`
	// Output tensors are written by the kernels (our runner poisons them first).
	Output bool `json:"output,omitempty"`
	// Init is one of:
	//   "empty"    an output: any contents
	//   "zeros"    all zeros (lock arrays, accumulators)
	//   "data"     exactly Data (row-major)
	//   "normal"   normal with Mean and Std, clamped to [Min, Max], rounded to the dtype
	//   "randint"  integers uniform in [Min, Max] (inclusive)
	//   "addr_of"  an int64 array of the device addresses of the tensors named in AddrOf
	Init   string    `json:"init"`
	Data   []float64 `json:"data,omitempty"`
	Mean   float64   `json:"mean"`
	Std    float64   `json:"std"`
	Min    float64   `json:"min"`
	Max    float64   `json:"max"`
	AddrOf []string  `json:"addr_of,omitempty"`
}

// LaunchSpec is one launch, as Triton's kernel[grid](*args, num_warps=, num_stages=).
type LaunchSpec struct {
	Step      int         `json:"step"`
	Kernel    string      `json:"kernel"`
	Signature string      `json:"signature"`
	Grid      driver.Grid `json:"grid"`
	NumWarps  int         `json:"num_warps"`
	NumStages int         `json:"num_stages"`
	Args      []ArgSpec   `json:"args"`
	// Error is set when the signature cannot be derived.
	Error string `json:"error,omitempty"`
}

// ArgSpec is one kernel argument, one per kernel parameter, constexprs included.
type ArgSpec struct {
	// Kind is "ptr" (Tensor), "int" (Value: an integer), "float" (Value: an fp32 number),
	// "const" (Value: the constexpr in signature syntax, a Python literal), "desc" (a host
	// TensorDescriptor over Tensor with Shape, Strides and Block), "null" (None; Value:
	// the pointer's element type).
	Kind    string  `json:"kind"`
	Tensor  string  `json:"tensor,omitempty"`
	Value   any     `json:"value,omitempty"`
	Shape   []int64 `json:"shape,omitempty"`
	Strides []int64 `json:"strides,omitempty"`
	Block   []int   `json:"block,omitempty"`
}

// exactLimit is the largest tensor exported element by element.
const exactLimit = 4096

// ExportLaunches builds every case whose name matches filter (nil: all) and describes its
// tensors and launches. Nothing runs and no device is needed.
func (r *Runner) ExportLaunches(cases []Case, filter *regexp.Regexp) *LaunchExport {
	ex := &LaunchExport{Format: 1, Cases: []CaseExport{}}
	for _, c := range cases {
		if filter != nil && !filter.MatchString(c.Name) {
			continue
		}
		ex.Cases = append(ex.Cases, r.exportCase(c))
	}
	return ex
}

func (r *Runner) exportCase(c Case) (ce CaseExport) {
	ce = CaseExport{Case: c.Name, Source: c.Source.String(), File: c.File, Tensors: map[string]TensorSpec{}, Launches: []LaunchSpec{}}
	defer func() {
		if p := recover(); p != nil {
			ce.NotRun = fmt.Sprintf("internal error building the problem: %v", p)
		}
	}()
	if c.Skip != "" {
		ce.NotRun = c.Skip
	}
	path, err := r.path(c)
	if err != nil {
		if ce.NotRun == "" {
			ce.NotRun = err.Error()
		}
	} else {
		ce.Path = path
	}
	p := c.Build(r.seed(c.Name))
	for name, t := range p.Tensors {
		ce.Tensors[name] = tensorSpec(t)
	}
	ce.Launches = launchSpecs(p)
	return ce
}

// launchSpecs describes each step of p.
func launchSpecs(p *Problem) []LaunchSpec {
	out := []LaunchSpec{}
	for i := range p.Steps {
		s := &p.Steps[i]
		ls := LaunchSpec{Step: i, Kernel: s.Kernel, Grid: s.Grid, NumWarps: s.NumWarps, NumStages: s.NumStages, Args: []ArgSpec{}}
		if sig, err := s.Signature(p.Tensors); err != nil {
			ls.Error = err.Error()
		} else {
			ls.Signature = sig
		}
		for _, a := range s.Args {
			ls.Args = append(ls.Args, argSpec(a, p.Tensors))
		}
		out = append(out, ls)
	}
	return out
}

func argSpec(a Arg, tensors map[string]*Tensor) ArgSpec {
	switch a.Kind {
	case ArgPtr:
		return ArgSpec{Kind: "ptr", Tensor: a.Tensor}
	case ArgInt:
		return ArgSpec{Kind: "int", Value: a.Int}
	case ArgFloat:
		return ArgSpec{Kind: "float", Value: a.Float}
	case ArgConst:
		return ArgSpec{Kind: "const", Value: a.Const}
	case ArgNull:
		return ArgSpec{Kind: "null", Value: a.Const}
	case ArgDesc:
		as := ArgSpec{Kind: "desc", Tensor: a.Tensor, Block: a.Block}
		if t, ok := tensors[a.Tensor]; ok {
			for _, n := range t.Shape {
				as.Shape = append(as.Shape, int64(n))
			}
			as.Strides = Strides(t.Shape)
		}
		return as
	}
	return ArgSpec{Kind: fmt.Sprintf("unknown(%d)", a.Kind)}
}

// tensorSpec describes t: outputs as empty, pointer arrays by what they point at, small
// inputs exactly, larger ones by their value distribution.
func tensorSpec(t *Tensor) TensorSpec {
	ts := TensorSpec{DType: string(t.DType), Shape: append([]int{}, t.Shape...), Output: t.Output}
	switch {
	case t.AddrOf != nil:
		ts.DType, ts.Shape, ts.Init, ts.AddrOf = string(I64), []int{len(t.AddrOf)}, "addr_of", t.AddrOf
		return ts
	case t.Output:
		ts.Init = "empty"
		return ts
	}
	var n, sum, sq float64
	lo, hi := math.Inf(1), math.Inf(-1)
	zero, finite := true, true
	for _, x := range t.Data {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			finite = false
			continue
		}
		if x != 0 {
			zero = false
		}
		n++
		sum += x
		sq += x * x
		lo, hi = min(lo, x), max(hi, x)
	}
	if n > 0 {
		ts.Mean = sum / n
		ts.Std = math.Sqrt(max(sq/n-ts.Mean*ts.Mean, 0))
		ts.Min, ts.Max = lo, hi
	}
	switch {
	case zero:
		ts.Init = "zeros"
	case finite && len(t.Data) <= exactLimit:
		ts.Init, ts.Data = "data", t.Data
	case !t.DType.IsFloat():
		ts.Init = "randint"
	default:
		ts.Init = "normal"
	}
	return ts
}

// WriteJSON writes the export as indented JSON.
func (ex *LaunchExport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(ex)
}
