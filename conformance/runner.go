package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/lower"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
	"github.com/gotriton/gotriton/tileir"
)

// Device is a place to run kernels: a driver plus how to turn tile IR into a loaded
// kernel there. The CPU interpreter loads tile IR directly; a GPU device lowers it first.
type Device struct {
	// Name is the short name in reports: "cpu", "cuda".
	Name string
	// Target is what the device's kernels are compiled for, in target.Parse's syntax
	// ("cuda:90:32", "hip:gfx942:64"); "" for the CPU interpreter. Cases for another
	// backend's targets only are not applicable there (targets.go).
	Target string
	// Driver allocates memory.
	Driver driver.Device
	// Load compiles m's kernel for the device and loads it.
	Load func(m *tileir.Module, kernel string, numWarps, numStages int) (Kernel, error)
	// HostDesc makes the launch argument for a host-side tensor descriptor; nil when the
	// device does not support host descriptors yet.
	HostDesc func(d HostDescriptor) (any, error)
	// Addr returns a buffer's device address (for pointer arrays); nil when unknown.
	Addr func(b driver.Buffer) (int64, error)
	// Recover, when set, runs after every case. When the case left the device unusable
	// (a sticky CUDA error such as a misaligned address poisons the context), it returns
	// that fault and gives the device a fresh context (err: the recovery failed). Kernels
	// and buffers made before a recovery are invalid. nil fault: the device is healthy.
	Recover func() (fault, err error)
}

// HostDescriptor is a host-side tensor descriptor (Triton's TensorDescriptor): a row-major
// view of Buffer with elements of DType, and Block, the tile one TMA copy moves (the
// kernel's tensor map's box where it has one, else the descriptor's block), swizzled in
// Swizzle bytes (0: none). Shape, Strides (in elements) and Block are outermost first.
type HostDescriptor struct {
	Buffer                driver.Buffer
	DType                 DType
	Shape, Strides, Block []int64
	Swizzle               int
}

// Kernel is a kernel loaded on a device, with the tensor maps its host descriptor
// parameters take (lower.Metadata.TensorMaps; nil where they take no tensor maps).
type Kernel struct {
	driver.Kernel
	TensorMaps []lower.TensorMap
}

// NotRunError marks a case that could not run for a reason that is not a wrong result
// (a missing tutorials folder, a feature the device lacks). The runner reports it as
// "not run" with the reason, never as passed.
type NotRunError struct{ Reason string }

func (e *NotRunError) Error() string { return e.Reason }

// NotRun returns a *NotRunError.
func NotRun(format string, args ...any) error {
	return &NotRunError{Reason: fmt.Sprintf(format, args...)}
}

// CompileFunc turns a kernel of a file into tile IR for one specialization.
type CompileFunc func(path, kernel string, opts semantic.Options) (*tileir.Module, error)

// SemanticCompile is the real compile step: frontend.Load then semantic.Compile. Loaded
// files are cached by path.
func SemanticCompile() CompileFunc {
	var mu sync.Mutex
	files := map[string]*frontend.File{}
	return func(path, kernel string, opts semantic.Options) (*tileir.Module, error) {
		mu.Lock()
		f, ok := files[path]
		mu.Unlock()
		if !ok {
			var err error
			if f, err = frontend.Load(path, pyeval.Options{}); err != nil {
				return nil, err
			}
			mu.Lock()
			files[path] = f
			mu.Unlock()
		}
		return semantic.Compile(f, kernel, opts)
	}
}

// Runner runs cases on one device.
type Runner struct {
	Device *Device
	// Compile is the front half of the compiler; nil means SemanticCompile().
	Compile CompileFunc
	// KernelsDir is our kernel folder (conformance/kernels); TutorialsDir the official
	// tutorials (python/tutorials of a Triton 3.6 checkout), "" when not given.
	KernelsDir, TutorialsDir string
	// Seed is mixed into every case's generator (0 is fine).
	Seed uint64
	// Log, when set, receives one row per case as it finishes.
	Log io.Writer
	// Timer, when set, times every launch of each case that passes (timing.go).
	Timer TimeFunc
	// RealSizes runs the Large cases (the tutorials' real sizes); Run leaves them out
	// otherwise.
	RealSizes bool
	// Compare, when set, is a second runner (the CPU interpreter, for --compare-cpu):
	// after a case passes here, the same problem (same seed, same inputs) runs there, its
	// outputs are checked against the reference too, and every output of this run must
	// agree with that run's under the same tolerance rule (relative L2 by dtype, NaN
	// never passes).
	Compare *Runner
	// Debug compiles every kernel with debug: device asserts kept and integer add, sub
	// and mul checked for overflow, as Triton's debug=True.
	Debug bool

	modules map[string]Kernel
	dead    error // why the device is unusable: a fault it could not recover from
}

// Status is a case's outcome.
type Status string

// The outcomes.
const (
	Pass   Status = "pass"
	Fail   Status = "FAIL"
	NotRan Status = "not run"
	// NA is a case that cannot apply to the device's target (NotApplicable).
	NA Status = "n/a"
)

// Result is one case's outcome.
type Result struct {
	Case   string        `json:"case"`
	Kernel string        `json:"kernel"`
	Device string        `json:"device"`
	Status Status        `json:"status"`
	Error  string        `json:"error,omitempty"`
	Time   time.Duration `json:"time_ns"`
	// Signatures are the specializations launched, one per step.
	Signatures []string `json:"signatures,omitempty"`
	// Errors are the relative L2 errors per checked output.
	Errors map[string]float64 `json:"rel_l2,omitempty"`
	// CompareErrors are the relative L2 errors of each output against the same output of
	// the Compare runner's device (--compare-cpu), when that comparison ran.
	CompareDevice string             `json:"compare_device,omitempty"`
	CompareErrors map[string]float64 `json:"compare_rel_l2,omitempty"`
	// Timing holds the kernel time of each launch, when the runner has a Timer.
	Timing *Timing `json:"timing,omitempty"`
}

// Report is the outcome of a run.
type Report struct {
	Results []Result
	// Passed, Failed, NotRunN and NotApplicable count the results by status.
	Passed, Failed, NotRunN, NotApplicable int
}

// Run runs every case whose name matches filter (nil: all).
func (r *Runner) Run(cases []Case, filter *regexp.Regexp) *Report {
	rep := &Report{}
	for _, c := range cases {
		if filter != nil && !filter.MatchString(c.Name) || c.Large && !r.RealSizes {
			continue
		}
		res := r.RunCase(c)
		rep.Results = append(rep.Results, res)
		switch res.Status {
		case Pass:
			rep.Passed++
		case Fail:
			rep.Failed++
		case NA:
			rep.NotApplicable++
		default:
			rep.NotRunN++
		}
		if r.Log != nil {
			WriteRow(r.Log, res)
		}
	}
	return rep
}

// RunCase runs one case.
func (r *Runner) RunCase(c Case) (res Result) {
	start := time.Now()
	res = Result{Case: c.Name, Device: r.Device.Name}
	defer func() {
		res.Time = time.Since(start)
		if p := recover(); p != nil {
			res.Status, res.Error = Fail, fmt.Sprintf("internal error: %v", p)
		}
	}()
	if why := NotApplicable(c.Name, r.Device.Target); why != "" {
		res.Status, res.Error = NA, why
		return res
	}
	err := r.dead
	if err == nil {
		err = r.runCase(c, &res)
	}
	var nr *NotRunError
	switch {
	case err == nil:
		res.Status = Pass
	case errors.As(err, &nr):
		res.Status, res.Error = NotRan, nr.Reason
	default:
		res.Status, res.Error = Fail, err.Error()
	}
	if r.dead == nil {
		r.recover(&res)
	}
	return res
}

// recover checks the device after a case. A fault fails the case (its error stays the
// real one, e.g. the launch's CUDA_ERROR_MISALIGNED_ADDRESS) and the next case starts
// with a fresh context and no cached kernels; when even that fails, every later case
// fails with the reason.
func (r *Runner) recover(res *Result) {
	if r.Device.Recover == nil {
		return
	}
	fault, err := r.Device.Recover()
	if fault == nil {
		return
	}
	r.modules = nil
	if res.Status != Fail {
		res.Status, res.Error = Fail, fmt.Sprintf("device fault: %v", fault)
	}
	if err != nil {
		r.dead = fmt.Errorf("the device is unusable since %s faulted (%v) and a context reset failed: %w", res.Case, fault, err)
		res.Error += fmt.Sprintf(" [context reset failed: %v]", err)
		return
	}
	res.Error += " [the device's context was reset for the next case]"
}

func (r *Runner) path(c Case) (string, error) {
	if c.Source == Tutorial {
		if r.TutorialsDir == "" {
			return "", NotRun("official tutorial: no tutorials folder (use --tutorials DIR or GOTRITON_TUTORIALS)")
		}
		p := filepath.Join(r.TutorialsDir, c.File)
		if _, err := os.Stat(p); err != nil {
			return "", NotRun("official tutorial %s not found in %s", c.File, r.TutorialsDir)
		}
		return p, nil
	}
	return filepath.Join(r.KernelsDir, c.File), nil
}

// seed derives a case's generator seed from its name.
func (r *Runner) seed(name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(h.Sum64(), r.Seed))
}

func (r *Runner) runCase(c Case, res *Result) error {
	if c.Skip != "" {
		return NotRun("%s", c.Skip)
	}
	if c.NoCPU != "" && r.Device.Name == "cpu" {
		return NotRun("%s", c.NoCPU)
	}
	path, err := r.path(c)
	if err != nil {
		return err
	}
	p := c.Build(r.seed(c.Name))
	var kernels []string
	for _, s := range p.Steps {
		kernels = append(kernels, s.Kernel)
	}
	res.Kernel = strings.Join(kernels, "+")

	ex, err := r.execute(path, p, res)
	defer ex.free()
	if err != nil {
		return err
	}
	var fails []string
	res.Errors, fails = checkOutputs(p, ex.outs)
	if len(fails) > 0 {
		return errors.New(strings.Join(fails, "; "))
	}
	if r.Timer != nil {
		res.Timing = r.timeLaunches(p, ex.loaded, ex.bufs, res.Signatures)
	}
	if r.Compare != nil {
		return r.compare(c, p, ex.outs, res)
	}
	return nil
}

// execution is one run of a problem on a device: its loaded kernels, its buffers and the
// outputs read back.
type execution struct {
	loaded []Kernel
	bufs   map[string]driver.Buffer
	outs   map[string][]float64
}

func (ex *execution) free() {
	for _, b := range ex.bufs {
		b.Free()
	}
}

// execute compiles and loads every step of p, uploads its tensors, runs the steps in
// order and reads back every checked output. The buffers stay allocated (ex.free).
func (r *Runner) execute(path string, p *Problem, res *Result) (*execution, error) {
	ex := &execution{}
	// Compile and load every step first: a compile error is a failure of the case.
	ex.loaded = make([]Kernel, len(p.Steps))
	for i := range p.Steps {
		s := &p.Steps[i]
		sig, err := s.Signature(p.Tensors)
		if err != nil {
			return ex, fmt.Errorf("%s: %v", s.Kernel, err)
		}
		res.Signatures = append(res.Signatures, sig)
		k, err := r.load(path, s, sig)
		if err != nil {
			return ex, err
		}
		ex.loaded[i] = k
	}

	var err error
	ex.bufs, err = r.upload(p)
	if err != nil {
		return ex, err
	}
	for i := range p.Steps {
		s := &p.Steps[i]
		args, err := r.launchArgs(s, p, ex.bufs, ex.loaded[i].TensorMaps)
		if err != nil {
			return ex, fmt.Errorf("%s: %w", s.Kernel, err)
		}
		if err := ex.loaded[i].Launch(s.Grid, args...); err != nil {
			return ex, fmt.Errorf("%s: launch: %w", s.Kernel, err)
		}
	}
	if err := r.Device.Driver.Synchronize(); err != nil {
		return ex, err
	}
	ex.outs = map[string][]float64{}
	for _, ch := range p.Checks {
		t := p.Tensors[ch.Tensor]
		raw := make([]byte, Len(t.Shape)*t.DType.Size())
		if err := ex.bufs[ch.Tensor].Read(0, raw); err != nil {
			return ex, fmt.Errorf("reading %s: %w", ch.Tensor, err)
		}
		ex.outs[ch.Tensor] = t.DType.Decode(raw)
	}
	return ex, nil
}

// tolerance is a check's tolerance: its own, else its output type's.
func tolerance(p *Problem, ch Check) float64 {
	if ch.Tol != 0 {
		return ch.Tol
	}
	return p.Tensors[ch.Tensor].DType.Tolerance()
}

// sampled returns the elements of xs at index, or xs itself when index is nil.
func sampled(xs []float64, index []int) []float64 {
	if index == nil {
		return xs
	}
	out := make([]float64, len(index))
	for k, i := range index {
		out[k] = xs[i]
	}
	return out
}

// checkOutputs compares every checked output with its reference values.
func checkOutputs(p *Problem, outs map[string][]float64) (map[string]float64, []string) {
	rel := map[string]float64{}
	var fails []string
	for _, ch := range p.Checks {
		t := p.Tensors[ch.Tensor]
		cmp := Compare(sampled(outs[ch.Tensor], ch.Index), ch.Want, t.DType.IsFloat(), tolerance(p, ch))
		rel[ch.Tensor] = cmp.RelErr
		if !cmp.OK {
			fails = append(fails, fmt.Sprintf("%s: %s", ch.Tensor, cmp.Msg))
		}
	}
	return rel, fails
}

// compare runs p again on r.Compare's device and checks that its outputs pass the
// reference there too and agree with outs (this device's) under the same tolerance rule.
// A disagreement fails the case, naming each output.
func (r *Runner) compare(c Case, p *Problem, outs map[string][]float64, res *Result) error {
	cr := r.Compare
	if c.NoCPU != "" && cr.Device.Name == "cpu" {
		return nil
	}
	other := cr.Device.Name
	if other == r.Device.Name {
		other += " (comparison)"
	}
	res.CompareDevice = other
	if cr.dead != nil {
		return fmt.Errorf("%s comparison: %v", other, cr.dead)
	}
	path, err := cr.path(c)
	if err == nil {
		var scratch Result
		var ex *execution
		ex, err = cr.execute(path, p, &scratch)
		defer ex.free()
		if err == nil {
			var fails []string
			if _, refFails := checkOutputs(p, ex.outs); len(refFails) > 0 {
				fails = append(fails, fmt.Sprintf("on %s the reference check fails too: %s", other, strings.Join(refFails, "; ")))
			}
			res.CompareErrors = map[string]float64{}
			for _, ch := range p.Checks {
				t := p.Tensors[ch.Tensor]
				cmp := Compare(outs[ch.Tensor], ex.outs[ch.Tensor], t.DType.IsFloat(), tolerance(p, ch))
				res.CompareErrors[ch.Tensor] = cmp.RelErr
				if !cmp.OK {
					fails = append(fails, fmt.Sprintf("%s: %s disagrees with %s: %s (got: %s, want: %s)", ch.Tensor, r.Device.Name, other, cmp.Msg, r.Device.Name, other))
				}
			}
			if len(fails) > 0 {
				return errors.New(strings.Join(fails, "; "))
			}
			return nil
		}
	}
	var nr *NotRunError
	if errors.As(err, &nr) {
		return NotRun("passed on %s; the %s comparison could not run: %s", r.Device.Name, other, nr.Reason)
	}
	return fmt.Errorf("passed on %s; the %s comparison failed: %v", r.Device.Name, other, err)
}

// load compiles and loads one step, caching by (file, kernel, signature, options).
func (r *Runner) load(path string, s *Step, sig string) (Kernel, error) {
	key := fmt.Sprintf("%s\x00%s\x00%s\x00%d\x00%d\x00%t", path, s.Kernel, sig, s.NumWarps, s.NumStages, r.Debug)
	if k, ok := r.modules[key]; ok {
		return k, nil
	}
	compile := r.Compile
	if compile == nil {
		compile = SemanticCompile()
		r.Compile = compile
	}
	m, err := compile(path, s.Kernel, semantic.Options{SignatureText: sig, NumWarps: s.NumWarps, NumStages: s.NumStages, Target: r.Device.Target, Debug: r.Debug})
	if err != nil {
		return Kernel{}, fmt.Errorf("compile %s [%s]: %w", s.Kernel, sig, err)
	}
	k, err := r.Device.Load(m, s.Kernel, s.NumWarps, s.NumStages)
	if err != nil {
		return Kernel{}, fmt.Errorf("load %s on %s: %w", s.Kernel, r.Device.Name, err)
	}
	if r.modules == nil {
		r.modules = map[string]Kernel{}
	}
	r.modules[key] = k
	return k, nil
}

// upload allocates a buffer per tensor: inputs hold their data, outputs are poisoned.
func (r *Runner) upload(p *Problem) (map[string]driver.Buffer, error) {
	bufs := map[string]driver.Buffer{}
	alloc := func(name string, t *Tensor) error {
		size := Len(t.Shape) * t.DType.Size()
		b, err := r.Device.Driver.Alloc(max(size, 1))
		if err != nil {
			return fmt.Errorf("alloc %s (%d bytes): %w", name, size, err)
		}
		bufs[name] = b
		var raw []byte
		if t.Output {
			raw = make([]byte, size)
			for i := range raw {
				raw[i] = 0xFF
			}
		} else {
			raw = t.DType.Encode(t.Data)
		}
		return b.Write(0, raw)
	}
	var deferred []string
	for name, t := range p.Tensors {
		if t.AddrOf != nil {
			deferred = append(deferred, name)
			continue
		}
		if err := alloc(name, t); err != nil {
			return bufs, err
		}
	}
	for _, name := range deferred {
		t := p.Tensors[name]
		if r.Device.Addr == nil {
			return bufs, NotRun("device %s cannot report buffer addresses (needed for pointer arrays)", r.Device.Name)
		}
		t.Data = make([]float64, len(t.AddrOf))
		addrs := make([]int64, len(t.AddrOf))
		for i, of := range t.AddrOf {
			b, ok := bufs[of]
			if !ok {
				return bufs, fmt.Errorf("pointer array %s: no tensor %q", name, of)
			}
			a, err := r.Device.Addr(b)
			if err != nil {
				return bufs, err
			}
			addrs[i] = a
			t.Data[i] = float64(a)
		}
		t.DType, t.Shape = I64, []int{len(addrs)}
		b, err := driver.Upload(r.Device.Driver, addrs)
		if err != nil {
			return bufs, err
		}
		bufs[name] = b
	}
	return bufs, nil
}

// launchArgs turns a step's arguments into the kernel's launch arguments, following the
// compiled kernel's parameter list as Triton 3.6 lays it out: constexprs and integers
// specialized to 1 are left out, a tensor descriptor becomes the descriptor followed by
// its shape (i32 each) and strides (i64 each), the descriptor encoded as maps says for
// the kernel's descriptor parameters in order (nil: as their blocks, unswizzled).
func (r *Runner) launchArgs(s *Step, p *Problem, bufs map[string]driver.Buffer, maps []lower.TensorMap) ([]any, error) {
	var out []any
	descs := 0
	for i, a := range s.Args {
		switch a.Kind {
		case ArgConst:
		case ArgPtr:
			b, ok := bufs[a.Tensor]
			if !ok {
				return nil, fmt.Errorf("argument %d: no tensor %q", i, a.Tensor)
			}
			out = append(out, b)
		case ArgNull:
			out = append(out, nil)
		case ArgInt:
			switch {
			case a.Int == 1:
			case a.Int < -1<<31 || a.Int >= 1<<31:
				out = append(out, a.Int)
			default:
				out = append(out, int32(a.Int))
			}
		case ArgFloat:
			out = append(out, float32(a.Float))
		case ArgDesc:
			if r.Device.HostDesc == nil {
				return nil, NotRun("host tensor descriptors are not supported on %s yet", r.Device.Name)
			}
			t := p.Tensors[a.Tensor]
			shape := make([]int64, len(t.Shape))
			for d, n := range t.Shape {
				shape[d] = int64(n)
			}
			strides := Strides(t.Shape)
			box, swizzle := a.Block, 0
			if descs < len(maps) {
				box, swizzle = maps[descs].Box, maps[descs].Swizzle
			}
			descs++
			block := make([]int64, len(box))
			for d, n := range box {
				block[d] = int64(n)
			}
			d, err := r.Device.HostDesc(HostDescriptor{Buffer: bufs[a.Tensor], DType: t.DType, Shape: shape, Strides: strides, Block: block, Swizzle: swizzle})
			if err != nil {
				return nil, err
			}
			out = append(out, d)
			for _, n := range shape {
				out = append(out, int32(n))
			}
			for _, st := range strides {
				out = append(out, st)
			}
		}
	}
	return out, nil
}

// WriteRow prints one result as a table row.
func WriteRow(w io.Writer, r Result) {
	msg := r.Error
	if msg == "" {
		msg = "-"
	}
	if len(msg) > 400 {
		msg = msg[:400] + "..."
	}
	msg = strings.ReplaceAll(msg, "\n", " ")
	fmt.Fprintf(w, "%-52s %-36s %-5s %-8s %8.3fs  %s\n", r.Case, r.Kernel, r.Device, r.Status, r.Time.Seconds(), msg)
}

// Summary ends a report: "N passed, N failed[, N not run][, N n/a]", then the cases
// that are not applicable, one line per reason.
func (rep *Report) Summary() string {
	s := fmt.Sprintf("%d passed, %d failed", rep.Passed, rep.Failed)
	if rep.NotRunN > 0 {
		s += fmt.Sprintf(", %d not run", rep.NotRunN)
	}
	if rep.NotApplicable > 0 {
		s += fmt.Sprintf(", %d n/a", rep.NotApplicable)
	}
	return strings.Join(append([]string{s}, rep.notApplicableLines()...), "\n")
}

// WriteJSON writes the results and totals as JSON.
func (rep *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Results       []Result `json:"results"`
		Passed        int      `json:"passed"`
		Failed        int      `json:"failed"`
		NotRun        int      `json:"not_run"`
		NotApplicable int      `json:"not_applicable"`
	}{rep.Results, rep.Passed, rep.Failed, rep.NotRunN, rep.NotApplicable})
}
