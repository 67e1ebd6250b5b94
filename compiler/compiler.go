// Package compiler runs gotriton's pipeline for one kernel and one specialization:
//
//	kernel.py --frontend--> --semantic--> tile IR --lower--> LLVM IR --ptx--> PTX
//	                                                                 --amdgcn-> AMDGCN, HSACO
//
// Each stage lives in its own package; this package only chains them, so that the CLI, the
// conformance runner and `gotriton run` compile kernels the same way.
package compiler

import (
	"bytes"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"

	"github.com/gotriton/gotriton/amdgcn"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/lower"
	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/ptx"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// Stage names how far to run the pipeline.
type Stage int

// The pipeline stages, in order.
const (
	TileIR Stage = iota
	LLVM
	PTX
	// AMDGCN and HSACO are the AMD stages: both come from one amdgcn.Compile (llc-22 and
	// ld.lld-22), so either gives the assembly, the code object and its metadata.
	AMDGCN
	HSACO
)

// Final is the last stage for t: HSACO on AMD targets, PTX on NVIDIA ones.
func Final(t target.Target) Stage {
	if t.Backend == target.HIP {
		return HSACO
	}
	return PTX
}

// Options is one specialization plus backend choices.
type Options struct {
	semantic.Options
	// ViaLLC makes PTX with LLVM's NVPTX backend (llc) instead of gotriton's own emitter:
	// a cross-check of the emitter.
	ViaLLC bool
	// LLC is the llc binary for ViaLLC and for AMD targets; empty means llc-22, then llc,
	// on PATH.
	LLC string
	// OPT is the opt binary that optimizes AMD LLVM IR before llc, as Triton does; empty
	// means opt-22, then opt, on PATH.
	OPT string
	// LLD is the ld.lld binary that links AMD code objects; empty means ld.lld-22, then
	// ld.lld, on PATH.
	LLD string
	Codegen
}

// Codegen holds Triton's compile options that shape the code of a specialization; the
// zero value is Triton 3.6's defaults. Results echo it, for the metadata and ptxas.
type Codegen struct {
	// NoFPFusion is Triton's enable_fp_fusion=False: no floating multiply is contracted
	// with the add or subtract that uses it into a fused multiply-add (on NVIDIA, ptx
	// without Options.FPFusion; on AMD, llc -fp-contract=on instead of fast).
	NoFPFusion bool
	// NoReflectFTZ is Triton's enable_reflect_ftz=False: libdevice's functions keep
	// subnormals instead of taking their __CUDA_FTZ paths (lower.Options.NoReflectFTZ;
	// tl.math.exp2 on f32 is ex2.approx.f32, not ex2.approx.ftz.f32). NVIDIA only.
	NoReflectFTZ bool
	// MaxNReg is Triton's maxnreg: when positive, every NVIDIA kernel gets the function
	// attribute "nvvm.maxnreg", which PTX writes as .maxnreg on the .entry. Triton's HIP
	// backend has no such option, and AMD targets ignore it too.
	MaxNReg int
	// MatrixInstrNonKDim is Triton's HIP option matrix_instr_nonkdim: the M and N of the
	// MFMA instruction of every tl.dot (16 or 32; lower.Options). 0, the default, lets
	// the dot's shape choose. NVIDIA targets ignore it.
	MatrixInstrNonKDim int
	// DisableMMAv3 is Triton's DISABLE_MMA_V3: on sm_90a, tl.dot takes mma.sync where it
	// would take wgmma (lower.Options).
	DisableMMAv3 bool
}

// Result holds every stage's output that was produced.
type Result struct {
	Kernel    string
	Target    target.Target
	NumWarps  int
	NumStages int
	// Spec is the specialization semantic resolved: every parameter bound. Nil for
	// Results made by hand from tile IR.
	Spec *semantic.Spec
	// Debug echoes Options.Debug (tl.device_assert kept).
	Debug bool
	// Codegen echoes Options.Codegen; Backend reads it, so that a Result made by hand
	// compiles with Triton's defaults.
	Codegen
	TileIR *tileir.Module
	LLVM   *ir.Module
	Meta   lower.Metadata
	PTX    string
	// AMDGCN is the assembly and HSACO the linked code object of an AMD target, and
	// AMDKernel the kernel's metadata read from it (registers, LDS, scratch, kernargs).
	AMDGCN    string
	HSACO     []byte
	AMDKernel *amdgcn.Kernel
}

// Compile runs the pipeline for kernel in f up to stage until.
func Compile(f *frontend.File, kernel string, opts Options, until Stage) (*Result, error) {
	m, spec, err := semantic.CompileSpec(f, kernel, opts.Options)
	if err != nil {
		return nil, err
	}
	r := &Result{Kernel: kernel, Target: spec.Target, NumWarps: spec.NumWarps, NumStages: spec.NumStages, Spec: spec, Debug: opts.Debug,
		Codegen: opts.Codegen, TileIR: m}
	if until == TileIR {
		return r, nil
	}
	if err := r.backend(until, opts); err != nil {
		return nil, err
	}
	return r, nil
}

// Backend runs the stages after tile IR, up to until, on a Result whose TileIR, Target,
// NumWarps and NumStages are set. It first rewrites r.TileIR in place as Triton 3.6's
// make_ttgir does: fp32 dots of input precision bf16x3, bf16x6 and (on NVIDIA) tf32x3
// become tensor-core dots (tileir.F32DotTC), and tt.dot_scaled ops are decomposed
// (tileir.DecomposeDotScaled), as on targets without microscaling MMA: gotriton lowers
// none (no tcgen05 on sm_100, no scaled MFMA on gfx950).
func (r *Result) Backend(until Stage, viaLLC bool, llc string) error {
	return r.backend(until, Options{ViaLLC: viaLLC, LLC: llc})
}

// backend is Backend with the tools of opts (and r.Codegen).
func (r *Result) backend(until Stage, opts Options) error {
	// Triton's NVIDIA backend emulates tf32x3 from sm_80 on (emuTF32); the AMD one never.
	tileir.F32DotTC(r.TileIR, r.Target.IsNVIDIA() && r.Target.Capability >= 80)
	err := tileir.DecomposeDotScaled(r.TileIR)
	if err != nil {
		return err
	}
	r.LLVM, r.Meta, err = lower.Lower(r.TileIR, r.Target, lower.Options{Options: isa.Options{NumWarps: r.NumWarps, MatrixInstrNonKDim: r.MatrixInstrNonKDim, DisableMMAv3: r.DisableMMAv3}, NumStages: r.NumStages, NoReflectFTZ: r.NoReflectFTZ})
	if err != nil {
		return err // lowering errors carry the op's source location
	}
	if r.MaxNReg > 0 && r.Target.IsNVIDIA() {
		setMaxNReg(r.LLVM, r.MaxNReg)
	}
	if until == LLVM {
		return nil
	}
	if until == AMDGCN || until == HSACO {
		return r.compileAMD(opts)
	}
	if !r.Target.IsNVIDIA() {
		return fmt.Errorf("target %s: PTX is for NVIDIA targets (AMD targets emit amdgcn or hsaco)", r.Target)
	}
	if opts.ViaLLC {
		r.PTX, err = viaLLCCompile(r.LLVM, r.Target.Arch, opts.LLC, !r.NoFPFusion)
	} else {
		r.PTX, err = ptx.Compile(r.LLVM, ptx.Options{Arch: r.Target.Arch, FPFusion: !r.NoFPFusion})
	}
	return err
}

// compileAMD makes the assembly and code object of an AMD target's LLVM IR.
func (r *Result) compileAMD(opts Options) error {
	if r.Target.Backend != target.HIP {
		return fmt.Errorf("target %s: AMDGCN and HSACO are for AMD targets (NVIDIA targets emit ptx)", r.Target)
	}
	res, err := amdgcn.CompileModule(r.LLVM, r.Target, amdgcn.Options{OPT: opts.OPT, LLC: opts.LLC, LLD: opts.LLD, Name: r.Kernel + ".ll",
		NoFPFusion: r.NoFPFusion})
	if err != nil {
		return err
	}
	r.AMDGCN, r.HSACO, r.AMDKernel = res.Assembly, res.HSACO, res.Kernel
	return nil
}

// setMaxNReg gives every kernel of m the attribute "nvvm.maxnreg"="n", as Triton's
// ttg.maxnreg becomes in its LLVM IR; gotriton's emitter and llc both write it as
// .maxnreg n after the .entry's parameters (device functions are inlined: only kernels
// have bodies).
func setMaxNReg(m *ir.Module, n int) {
	for _, f := range m.Funcs {
		if f.CallingConv == enum.CallingConvPTXKernel {
			f.FuncAttrs = append(f.FuncAttrs, ir.AttrPair{Key: "nvvm.maxnreg", Value: strconv.Itoa(n)})
		}
	}
}

// viaLLCCompile compiles LLVM IR to PTX with llc's NVPTX backend, contracting multiplies
// and adds into fma (-fp-contract=fast) when fpFusion is set, as Triton's target machine
// does under enable_fp_fusion, else only where the IR allows it (-fp-contract=on, LLVM's
// default and Triton's without fusion).
func viaLLCCompile(m *ir.Module, arch, llc string, fpFusion bool) (string, error) {
	if llc == "" {
		for _, name := range []string{"llc-22", "llc"} {
			if p, err := exec.LookPath(name); err == nil {
				llc = p
				break
			}
		}
		if llc == "" {
			return "", fmt.Errorf("--via-llc: llc not found on PATH (install Debian's llvm-22: apt-get install llvm-22, or pass --llc)")
		}
	}
	cmd := exec.Command(llc, "-march=nvptx64", "-mcpu="+arch, "-mattr=+ptx84", "-O3", amdgcn.FPContractFlag(fpFusion), "-o", "-")
	cmd.Stdin = strings.NewReader(m.String())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("--via-llc: %s: %v: %s", llc, err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// DefaultNumWarps is triton.tools.compile's num_warps when none is given: 0 (the
// autotune config's, which triton.Config defaults to 4) when the kernel has the autotune
// config that config picks, else 1.
func DefaultNumWarps(f *frontend.File, kernel string, config int) int {
	if config >= 0 && config < NumConfigs(f, kernel) {
		return 0
	}
	return 1
}

// NumConfigs is the number of @triton.autotune configs of kernel (0 without autotune, or
// when host code computes them from something unknown offline).
func NumConfigs(f *frontend.File, kernel string) int {
	if k := f.Kernel(kernel); k != nil && k.JIT.Autotune != nil {
		if l, ok := k.JIT.Autotune.Configs.(*pyeval.List); ok {
			return len(l.Elems)
		}
	}
	return 0
}
