package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompileAMD runs compile for hip:gfx942:64 and checks each --emit stage, the HIP
// metadata's keys and values, and the errors for the NVIDIA-only stages and launchers.
func TestCompileAMD(t *testing.T) {
	for _, tool := range []string{"opt-22", "llc-22", "ld.lld-22"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not on PATH (apt-get install llvm-22 lld-22)", tool)
		}
	}
	kernel := filepath.Join("..", "..", "conformance", "kernels", "vector_add.py")
	args := []string{"compile", kernel, "-n", "vector_add_kernel", "-s", "*fp32:16, *fp32:16, *fp32:16, i32, 1024", "-w", "4", "-t", "hip:gfx942:64", "--no-cache"}
	compile := func(extra ...string) (string, string, int) { return gotriton(append(args, extra...)...) }

	out, errOut, code := compile("--emit", "amdgcn")
	if code != 0 || !strings.Contains(out, ".amdhsa_kernel vector_add_kernel") || !strings.Contains(out, "global_load_dword") {
		t.Errorf("--emit amdgcn: exit %d, %s\n%.400s", code, errOut, out)
	}
	hsaco := filepath.Join(t.TempDir(), "k.hsaco")
	if _, errOut, code := compile("--emit", "hsaco", "-o", hsaco); code != 0 {
		t.Fatalf("--emit hsaco: exit %d, %s", code, errOut)
	}
	if b, err := os.ReadFile(hsaco); err != nil || !bytes.HasPrefix(b, []byte("\x7fELF")) {
		t.Errorf("--emit hsaco wrote no ELF file: %v", err)
	}
	out, errOut, code = compile("--emit", "json")
	if code != 0 {
		t.Fatalf("--emit json: exit %d, %s", code, errOut)
	}
	var md struct {
		Target     map[string]any `json:"target"`
		WarpSize   int            `json:"warp_size"`
		Backend    string         `json:"backend_name"`
		Precisions []string       `json:"allowed_dot_input_precisions"`
		Name       string         `json:"name"`
		PTXVersion *int           `json:"ptx_version"`
		CodeObject struct {
			KernargBytes int `json:"kernarg_segment_size"`
		} `json:"code_object"`
	}
	if err := json.Unmarshal([]byte(out), &md); err != nil {
		t.Fatal(err)
	}
	// Three pointers, numel and Triton's two scratch pointers; no hidden arguments.
	if md.Target["backend"] != "hip" || md.Target["arch"] != "gfx942" || md.Target["warp_size"] != 64.0 || md.WarpSize != 64 ||
		md.Backend != "hip" || strings.Join(md.Precisions, ",") != "bf16x3,bf16x6,ieee,tf32" || md.Name != "vector_add_kernel" ||
		md.PTXVersion != nil || md.CodeObject.KernargBytes != 48 {
		t.Errorf("metadata %+v", md)
	}
	for _, tt := range []struct {
		extra []string
		want  string
	}{
		{[]string{"--emit", "ptx"}, "target hip:gfx942:64: PTX is for NVIDIA targets (AMD targets emit amdgcn or hsaco)"},
		{[]string{"-g", "numel/1024,1,1"}, "gotriton compile: -g writes launchers for NVIDIA targets only (target hip:gfx942:64: use --emit hsaco and --emit json)"},
	} {
		_, errOut, code := compile(tt.extra...)
		if code == 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, %q, want %q", tt.extra, code, errOut, tt.want)
		}
	}
}
