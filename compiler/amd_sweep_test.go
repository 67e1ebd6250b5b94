package compiler_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/launch"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/target"
)

// amdExpectedFailures are our own kernels that do not compile for AMD targets yet, with
// the error every failing specialization must give. A kernel that compiles everywhere must
// leave this list, so the sweep tightens as the AMD lowering grows.
var amdExpectedFailures = map[string]string{
	// launch_pdl is a CUDAOptions field; HIPOptions has none, so Triton 3.6 rejects the
	// launch for hip too.
	"pdl_add_kernel": "keyword argument launch_pdl was specified but unrecognised",
}

// quickAMDFiles are the kernel files TestAMDSweep compiles unless GOTRITON_AMD_SWEEP is set.
var quickAMDFiles = map[string]bool{"vector_add.py": true, "softmax.py": true, "dropout.py": true, "layer_norm.py": true, "pdl_add.py": true}

// TestAMDSweep compiles every specialization of our own kernels that the files launch for
// gfx942 and gfx90a to HSACO, and checks each code object with LLVM's own tools: llvm-mc
// re-assembles the assembly, ld.lld links it, llvm-readelf shows the kernel's .kd
// descriptor, and opt -passes=verify accepts the LLVM IR. llc takes seconds per kernel, so
// of an autotuned kernel only the first config's specializations are compiled unless
// GOTRITON_AMD_SWEEP=all, and only quickAMDFiles unless GOTRITON_AMD_SWEEP is set (1: every
// file).
func TestAMDSweep(t *testing.T) {
	allConfigs := os.Getenv("GOTRITON_AMD_SWEEP") == "all"
	if testing.Short() {
		t.Skip("compiles every own kernel with llc")
	}
	tools := map[string]string{}
	for _, name := range []string{"llc-22", "ld.lld-22", "llvm-mc-22", "llvm-readelf-22", "opt-22"} {
		p, err := exec.LookPath(name)
		if err != nil {
			t.Skipf("%s not on PATH (apt-get install llvm-22 lld-22)", name)
		}
		tools[name] = p
	}
	files, err := filepath.Glob(filepath.Join("..", "conformance", "kernels", "*.py"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no kernels: %v", err)
	}
	if os.Getenv("GOTRITON_AMD_SWEEP") == "" {
		// By default (CI) a few files whose kernels compile quickly; the whole corpus takes
		// llc tens of minutes on two cores.
		files = slices.DeleteFunc(files, func(p string) bool { return !quickAMDFiles[filepath.Base(p)] })
	}
	for _, tgtText := range []string{"hip:gfx942:64", "hip:gfx90a:64"} {
		t.Run(tgtText, func(t *testing.T) {
			tgt, err := target.Parse(tgtText)
			if err != nil {
				t.Fatal(err)
			}
			compiled, total := 0, 0
			for _, path := range files {
				f, err := frontend.Load(path, pyeval.Options{Target: tgt})
				if err != nil {
					t.Fatal(err)
				}
				for _, kr := range launch.Infer(f, launch.Options{}).Kernels {
					name := kr.Kernel.Name
					want, expectFail := amdExpectedFailures[name]
					ok, tried := 0, 0
					for _, err := range kr.Errors { // the launch site itself does not specialize
						total++
						if !expectFail || !strings.Contains(err.Error(), want) {
							t.Errorf("%s: %v", name, err)
						}
					}
					for _, s := range kr.Specs {
						opts := compiler.Options{Options: s.Options(tgtText)}
						if opts.Config > 0 && !allConfigs {
							continue
						}
						tried++
						r, err := compiler.Compile(f, f.Selector(kr.Kernel), opts, compiler.HSACO)
						if err != nil {
							if s.SkippedByAutotuner(err) {
								continue
							}
							total++
							if !expectFail || !strings.Contains(err.Error(), want) {
								t.Errorf("%s %s: %v", name, s, err)
							}
							continue
						}
						total++
						ok++
						if err := checkCodeObject(t.TempDir(), tools, tgt, r); err != nil {
							t.Errorf("%s %s: %v", name, s, err)
						}
					}
					if expectFail && ok == tried && len(kr.Errors) == 0 {
						t.Errorf("%s compiles for %s now: take it off amdExpectedFailures", name, tgtText)
					}
					compiled += ok
				}
			}
			t.Logf("%s: %d of %d specializations give HSACO", tgtText, compiled, total)
		})
	}
}

// checkCodeObject checks r's assembly, code object and LLVM IR with LLVM's tools in dir.
func checkCodeObject(dir string, tools map[string]string, tgt target.Target, r *compiler.Result) error {
	asm, obj, so, ll := filepath.Join(dir, "k.s"), filepath.Join(dir, "k.o"), filepath.Join(dir, "k.hsaco"), filepath.Join(dir, "k.ll")
	if err := os.WriteFile(asm, []byte(r.AMDGCN), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(ll, []byte(r.LLVM.String()), 0o644); err != nil {
		return err
	}
	steps := [][]string{
		{tools["llvm-mc-22"], "-triple=amdgcn-amd-amdhsa", "-mcpu=" + tgt.Arch, "-filetype=obj", "-o", obj, asm},
		{tools["ld.lld-22"], "-shared", "-o", so, obj},
		{tools["opt-22"], "-passes=verify", "-disable-output", ll},
	}
	for _, s := range steps {
		if out, err := exec.Command(s[0], s[1:]...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v: %s", filepath.Base(s[0]), err, out)
		}
	}
	out, err := exec.Command(tools["llvm-readelf-22"], "--symbols", so).CombinedOutput()
	if err != nil {
		return fmt.Errorf("llvm-readelf: %v: %s", err, out)
	}
	if !bytes.Contains(out, []byte(" "+r.AMDKernel.Name+".kd")) {
		return fmt.Errorf("llvm-readelf: no %s.kd in the re-assembled code object:\n%s", r.AMDKernel.Name, out)
	}
	return nil
}
