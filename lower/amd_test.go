package lower

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// llvmTool returns the path of an LLVM 22 tool, or "" when it is not on PATH.
func llvmTool(name string) string {
	for _, n := range []string{name + "-22", name} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// TestAMDKernels lowers kernels that the AMD lowering covers (vector add, softmax and a
// few reductions) for gfx942 and gfx90a and, where llc and opt are installed, has opt
// verify the module and llc compile it for the architecture.
func TestAMDKernels(t *testing.T) {
	opt, llc := llvmTool("opt"), llvmTool("llc")
	for _, name := range []string{
		"vector_add.vector_add_kernel.default", "vector_add.vector_add_kernel.fp16", "vector_add.vector_add_kernel.odd_n",
		"softmax.row_softmax_kernel.default", "softmax.row_softmax_kernel.fp16", "softmax.row_softmax_kernel.wide",
		"layer_norm.layer_norm_fwd_kernel.default", "layer_norm.layer_norm_bwd_dx_kernel.default", "language_features.reduce_kernel.axis1", "language_features.scan_kernel.default",
	} {
		for _, arch := range []string{"gfx942", "gfx90a"} {
			mod, md, err := lowerTTIR(t, name, mustTarget(t, "hip:"+arch+":64"))
			if err != nil {
				t.Errorf("%s for %s: %v", name, arch, err)
				continue
			}
			ll := mod.String()
			for _, want := range []string{"define amdgpu_kernel void @", `"amdgpu-flat-work-group-size"="1,` + strconv.Itoa(md.NumWarps*64) + `"`,
				"@llvm.amdgcn.workitem.id.x()", `target triple = "amdgcn-amd-amdhsa"`} {
				if !strings.Contains(ll, want) {
					t.Errorf("%s for %s: no %q in the module", name, arch, want)
				}
			}
			if strings.Contains(ll, "nvvm") || strings.Contains(ll, "asm sideeffect") {
				t.Errorf("%s for %s: NVIDIA intrinsics or inline asm in the module", name, arch)
			}
			if md.ThreadsPerWarp != 64 {
				t.Errorf("%s for %s: %d threads per warp, want 64", name, arch, md.ThreadsPerWarp)
			}
			if strings.HasPrefix(name, "softmax.") && (!strings.Contains(ll, "@llvm.amdgcn.ds.bpermute(") || !strings.Contains(ll, "@llvm.amdgcn.s.barrier()")) {
				t.Errorf("%s for %s: the row reductions use no ds_bpermute or s_barrier", name, arch)
			}
			if opt == "" || llc == "" {
				continue
			}
			path := filepath.Join(t.TempDir(), name+".ll")
			if err := os.WriteFile(path, []byte(ll), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(opt, "-passes=verify", "-disable-output", path).CombinedOutput(); err != nil {
				t.Errorf("%s for %s: opt -passes=verify: %v: %s", name, arch, err, out)
			}
			if out, err := exec.Command(llc, "-march=amdgcn", "-mcpu="+arch, "-o", os.DevNull, path).CombinedOutput(); err != nil {
				t.Errorf("%s for %s: llc: %v: %s", name, arch, err, out)
			}
		}
	}
	if opt == "" || llc == "" {
		t.Log("llc-22 or opt-22 not found: the modules were not compiled")
	}
}
