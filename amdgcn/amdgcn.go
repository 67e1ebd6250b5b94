// Package amdgcn turns the LLVM IR of one AMD kernel into AMDGCN assembly and a linked
// code object (HSACO) with LLVM's AMDGPU backend, as Triton 3.6's AMD backend does, and
// reads the kernel's registers, LDS, scratch and kernarg layout back from the code object.
//
// AMDGCN is a real ISA (register allocation, scheduling and s_waitcnt insertion are the
// compiler's job), so unlike PTX it is not emitted by gotriton itself: `llc` compiles the
// IR (Debian's llvm-22) and `ld.lld` links the object into a shared object the HIP runtime
// loads (Debian's lld-22). Both are found on PATH, versioned names first (llc-22, then
// llc), or given by path.
//
// The input is a module as Triton's make_llir leaves it: target triple
// amdgcn-amd-amdhsa, exactly one amdgpu_kernel function, global memory in addrspace(1),
// LDS in addrspace(3), private memory in addrspace(5), and kernel attributes such as
// "amdgpu-flat-work-group-size"="1,256" and "amdgpu-waves-per-eu".
package amdgcn

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/llir/llvm/ir"

	"github.com/gotriton/gotriton/target"
)

// Triple is the target triple of AMD GPU code for the HSA runtime (ROCm).
const Triple = "amdgcn-amd-amdhsa"

// Options chooses the tools.
type Options struct {
	// OPT, LLC and LLD are the opt, llc and ld.lld binaries (a path or a name on PATH).
	// Empty means opt-22, then opt, and so on, on PATH.
	OPT, LLC, LLD string
	// Name is what error messages call the LLVM IR, e.g. "add_kernel.ll"; default "kernel.ll".
	Name string
	// NoFPFusion is Triton's enable_fp_fusion=False: opt and llc run with -fp-contract=on
	// (LLVM's default, what Triton's target machine keeps then) instead of fast.
	NoFPFusion bool
}

// Result is a compiled kernel.
type Result struct {
	// LLVM is the IR after opt -O3, what llc compiled (Triton's "llir" stage).
	LLVM string
	// Assembly is the AMDGCN assembly llc wrote (what Triton keeps as the "amdgcn" stage).
	Assembly string
	// Object is the relocatable ELF object llc wrote from the same IR.
	Object []byte
	// HSACO is the linked code object (Triton's "hsaco" stage).
	HSACO []byte
	// CodeObject is HSACO's metadata, and Kernel its one kernel.
	CodeObject *CodeObject
	Kernel     *Kernel
}

// tool is one LLVM binary and the Debian package that ships it.
type tool struct {
	base, pkg, flag string
}

var (
	optTool = tool{"opt", "llvm-22", "--opt"}
	llcTool = tool{"llc", "llvm-22", "--llc"}
	lldTool = tool{"ld.lld", "lld-22", "--lld"}
)

// find resolves the binary: given (a path or a name on PATH), else base-22, else base.
func (t tool) find(given string) (string, error) {
	if given != "" {
		p, err := exec.LookPath(given)
		if err != nil {
			return "", fmt.Errorf("amdgcn: %s %s: %v", t.flag, given, err)
		}
		return p, nil
	}
	for _, name := range []string{t.base + "-22", t.base} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("amdgcn: neither %s-22 nor %s is on PATH; install Debian's %s (apt-get install %s) or pass %s",
		t.base, t.base, t.pkg, t.pkg, t.flag)
}

// llcArgs are the llc flags for arch, mirroring the target machine Triton 3.6 creates in
// translate_to_asm: aggressive optimization, position-independent code, fused
// multiply-add contraction as enable_fp_fusion says (FPContractFlag), no-NaNs FP math and
// a trap for unreachable code. CDNA GPUs (gfx9) run wave64 natively, so no wavefront-size
// feature is passed (Triton's features string is empty for them).
func llcArgs(arch, filetype string, fpFusion bool) []string {
	return []string{"-mtriple=" + Triple, "-mcpu=" + arch, "-O3", "--relocation-model=pic",
		FPContractFlag(fpFusion), "--enable-no-nans-fp-math", "--trap-unreachable", "-filetype=" + filetype, "-o", "-"}
}

// FPContractFlag is the opt and llc flag for Triton's enable_fp_fusion: its target
// machine has AllowFPOpFusion=Fast when fusion is on (-fp-contract=fast: contract a
// multiply and an add wherever profitable) and keeps LLVM's default, Standard, when it is
// off (-fp-contract=on: only what the IR marks contractable, llvm.fmuladd included).
func FPContractFlag(fpFusion bool) string {
	if fpFusion {
		return "-fp-contract=fast"
	}
	return "-fp-contract=on"
}

// checkTarget accepts HIP targets of an architecture gotriton compiles for.
func checkTarget(t target.Target) error {
	if t.Backend != target.HIP {
		return fmt.Errorf("amdgcn: target %s is not an AMD (hip) target", t)
	}
	if _, err := target.Parse(t.String()); err != nil {
		return fmt.Errorf("amdgcn: %v", err)
	}
	return nil
}

var (
	tripleLine = regexp.MustCompile(`(?m)^target triple = "([^"]*)"`)
	kernelDef  = regexp.MustCompile(`(?m)^define\b[^@\n]*\bamdgpu_kernel\b[^@\n]*@("[^"]+"|[-a-zA-Z$._0-9]+)`)
)

// checkModule checks what llc would otherwise accept silently or retarget: the module's
// triple and that it defines exactly one kernel, as Triton's make_amdgcn requires.
func checkModule(llvmIR, name string) error {
	if m := tripleLine.FindStringSubmatch(llvmIR); m != nil && m[1] != Triple {
		return fmt.Errorf("%s: error: target triple %q, want %q", name, m[1], Triple)
	}
	switch kernels := kernelDef.FindAllStringSubmatch(llvmIR, -1); len(kernels) {
	case 0:
		return fmt.Errorf("%s: error: no amdgpu_kernel function is defined", name)
	case 1:
		return nil
	default:
		names := make([]string, len(kernels))
		for i, k := range kernels {
			names[i] = k[1]
		}
		return fmt.Errorf("%s: error: %d amdgpu_kernel functions (%s); a module holds one kernel", name, len(kernels), strings.Join(names, ", "))
	}
}

// Assembly compiles llvmIR to AMDGCN assembly for t with llc.
func Assembly(llvmIR string, t target.Target, opts Options) (string, error) {
	llc, name, err := prepare(llvmIR, t, &opts)
	if err != nil {
		return "", err
	}
	if llvmIR, err = optimize(llvmIR, t.Arch, opts.OPT, name, !opts.NoFPFusion); err != nil {
		return "", err
	}
	out, err := runLLC(llc, llvmIR, t.Arch, "asm", name, !opts.NoFPFusion)
	return string(out), err
}

// prepare checks the target and module and finds llc.
func prepare(llvmIR string, t target.Target, opts *Options) (llc, name string, err error) {
	if err := checkTarget(t); err != nil {
		return "", "", err
	}
	name = opts.Name
	if name == "" {
		name = "kernel.ll"
	}
	if err := checkModule(llvmIR, name); err != nil {
		return "", "", err
	}
	llc, err = llcTool.find(opts.LLC)
	return llc, name, err
}

// Compile compiles llvmIR for t to assembly and a linked code object, and reads the
// kernel's metadata from it. It checks that the code object is for t's architecture and
// wavefront size and holds one kernel with its descriptor.
func Compile(llvmIR string, t target.Target, opts Options) (*Result, error) {
	llc, name, err := prepare(llvmIR, t, &opts)
	if err != nil {
		return nil, err
	}
	lld, err := lldTool.find(opts.LLD)
	if err != nil {
		return nil, err
	}
	if llvmIR, err = optimize(llvmIR, t.Arch, opts.OPT, name, !opts.NoFPFusion); err != nil {
		return nil, err
	}
	// The assembly and the object come from two llc runs over the same IR, side by side.
	r := &Result{LLVM: llvmIR}
	var asm []byte
	var asmErr, objErr error
	var wg sync.WaitGroup
	wg.Go(func() { asm, asmErr = runLLC(llc, llvmIR, t.Arch, "asm", name, !opts.NoFPFusion) })
	wg.Go(func() { r.Object, objErr = runLLC(llc, llvmIR, t.Arch, "obj", name, !opts.NoFPFusion) })
	wg.Wait()
	// Both runs fail alike on bad IR; the error is reported once.
	if asmErr != nil {
		return nil, asmErr
	}
	if objErr != nil {
		return nil, objErr
	}
	r.Assembly = string(asm)
	if r.HSACO, err = Link(r.Object, lld); err != nil {
		return nil, err
	}
	if r.CodeObject, err = ReadCodeObject(r.HSACO); err != nil {
		return nil, err
	}
	if want := Triple + "--" + t.Arch; r.CodeObject.Target != want {
		return nil, fmt.Errorf("amdgcn: the code object is for %s, want %s", r.CodeObject.Target, want)
	}
	if len(r.CodeObject.Kernels) != 1 {
		return nil, fmt.Errorf("amdgcn: the code object has %d kernels, want 1", len(r.CodeObject.Kernels))
	}
	r.Kernel = &r.CodeObject.Kernels[0]
	if r.Kernel.WavefrontSize != t.WarpSize {
		return nil, fmt.Errorf("amdgcn: kernel %s runs in wave%d, but %s has %d lanes per wavefront", r.Kernel.Name, r.Kernel.WavefrontSize, t, t.WarpSize)
	}
	return r, nil
}

// CompileModule is Compile of an llir/llvm module, as package lower produces them.
func CompileModule(m *ir.Module, t target.Target, opts Options) (*Result, error) {
	return Compile(m.String(), t, opts)
}

// workgroupIDAttrs are the attributes optimize drops on processors with architected SGPRs.
var workgroupIDAttrs = regexp.MustCompile(` "amdgpu-no-workgroup-id-[xyz]"`)

// optimize runs opt -O3 for arch over llvmIR, as Triton 3.6's make_llir runs
// optimize_module before llc. Besides optimizing, the pipeline's AMDGPU attributor marks
// what the kernel does not use ("amdgpu-no-implicitarg-ptr", ...), so llc lays out only
// the hidden kernel arguments the kernel reads, as in Triton's code objects. On gfx942
// (architected SGPRs) it then drops "amdgpu-no-workgroup-id-x/y/z", as Triton does: the
// launch may use a dimension the kernel never asks for, and without them the Y id is not
// masked correctly. Its target machine contracts as fpFusion says, as Triton's does.
func optimize(llvmIR, arch, given, name string, fpFusion bool) (string, error) {
	opt, err := optTool.find(given)
	if err != nil {
		return "", err
	}
	cmd := exec.Command(opt, "-mtriple="+Triple, "-mcpu="+arch, "-O3", FPContractFlag(fpFusion), "-S", "-o", "-")
	cmd.Stdin = strings.NewReader(llvmIR)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := toolMessage(stderr.String(), opt, name)
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("amdgcn: %s failed: %s", filepath.Base(opt), msg)
	}
	out := stdout.String()
	if arch == "gfx942" {
		out = workgroupIDAttrs.ReplaceAllString(out, "")
	}
	return out, nil
}

// runLLC runs llc on llvmIR and returns its output file (assembly text or an object).
func runLLC(llc, llvmIR, arch, filetype, name string, fpFusion bool) ([]byte, error) {
	cmd := exec.Command(llc, llcArgs(arch, filetype, fpFusion)...)
	cmd.Stdin = strings.NewReader(llvmIR)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	msg := toolMessage(stderr.String(), llc, name)
	// llc only warns about a processor it does not know, and then compiles for a generic
	// one (or fails to select instructions for it).
	if strings.Contains(msg, "is not a recognized processor") {
		return nil, fmt.Errorf("amdgcn: %s does not know processor %s: %s", filepath.Base(llc), arch, firstLine(msg))
	}
	if err != nil {
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("amdgcn: %s failed: %s", filepath.Base(llc), msg)
	}
	return stdout.Bytes(), nil
}

// Link links a relocatable AMDGPU object into a code object with ld.lld -shared, as
// Triton's link_hsaco does (single-threaded). lld is the ld.lld binary; empty finds it
// as Options.LLD does.
func Link(object []byte, lld string) ([]byte, error) {
	lld, err := lldTool.find(lld)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "gotriton-amdgcn-")
	if err != nil {
		return nil, fmt.Errorf("amdgcn: %v", err)
	}
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "kernel.o"), filepath.Join(dir, "kernel.hsaco")
	if err := os.WriteFile(in, object, 0o600); err != nil {
		return nil, fmt.Errorf("amdgcn: %v", err)
	}
	cmd := exec.Command(lld, "--threads=1", "-shared", in, "-o", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := toolMessage(strings.ReplaceAll(stderr.String(), in, "kernel.o"), lld, "kernel.o")
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("amdgcn: %s failed: %s", filepath.Base(lld), msg)
	}
	hsaco, err := os.ReadFile(out)
	if err != nil {
		return nil, fmt.Errorf("amdgcn: %v", err)
	}
	return hsaco, nil
}

// toolMessage cleans an LLVM tool's diagnostics: it drops the "llc-22: error: llc-22: "
// prefixes, names the input instead of <stdin>, and cuts a crash's stack dump.
func toolMessage(stderr, toolPath, name string) string {
	if i := strings.Index(stderr, "PLEASE submit a bug report"); i >= 0 {
		stderr = stderr[:i]
	}
	var lines []string
	for _, prog := range []string{toolPath, filepath.Base(toolPath)} {
		stderr = strings.ReplaceAll(stderr, prog+": error: ", "")
		stderr = strings.ReplaceAll(stderr, prog+": ", "")
	}
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
		l = strings.ReplaceAll(l, "<stdin>", name)
		if strings.HasSuffix(l, "(ignoring processor)") || strings.HasSuffix(l, "(ignoring feature)") {
			if seen[l] {
				continue // llc repeats these once per subtarget it builds
			}
			seen[l] = true
		}
		lines = append(lines, l)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
