package amdgcn

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/target"
)

func readKernel(t *testing.T, file string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

func wantError(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	if err.Error() != want {
		t.Errorf("error:\n got %s\nwant %s", err, want)
	}
}

// TestMissingTool runs with a PATH that holds neither llc nor ld.lld.
func TestMissingTool(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	src := readKernel(t, "vector_add.ll")
	_, err := Compile(src, hip(t, "gfx942"), Options{})
	wantError(t, err, "amdgcn: neither llc-22 nor llc is on PATH; install Debian's llvm-22 (apt-get install llvm-22) or pass --llc")
	_, err = Assembly(src, hip(t, "gfx942"), Options{})
	wantError(t, err, "amdgcn: neither llc-22 nor llc is on PATH; install Debian's llvm-22 (apt-get install llvm-22) or pass --llc")
	_, err = Link(nil, "")
	wantError(t, err, "amdgcn: neither ld.lld-22 nor ld.lld is on PATH; install Debian's lld-22 (apt-get install lld-22) or pass --lld")
}

// TestMissingLinker has opt and llc on PATH but no ld.lld.
func TestMissingLinker(t *testing.T) {
	needTools(t)
	dir := t.TempDir()
	link(t, toolPath(t, "llc-22"), filepath.Join(dir, "llc-22"))
	link(t, toolPath(t, "opt-22"), filepath.Join(dir, "opt-22"))
	t.Setenv("PATH", dir)
	src := readKernel(t, "vector_add.ll")
	if _, err := Assembly(src, hip(t, "gfx942"), Options{}); err != nil {
		t.Fatalf("Assembly needs only opt and llc: %v", err)
	}
	_, err := Compile(src, hip(t, "gfx942"), Options{})
	wantError(t, err, "amdgcn: neither ld.lld-22 nor ld.lld is on PATH; install Debian's lld-22 (apt-get install lld-22) or pass --lld")
}

// TestUnversionedTools finds opt, llc and ld.lld under their plain names when no -22 is on PATH.
func TestUnversionedTools(t *testing.T) {
	needTools(t)
	dir := t.TempDir()
	link(t, toolPath(t, "llc-22"), filepath.Join(dir, "llc"))
	link(t, toolPath(t, "opt-22"), filepath.Join(dir, "opt"))
	link(t, toolPath(t, "ld.lld-22"), filepath.Join(dir, "ld.lld"))
	t.Setenv("PATH", dir)
	r, err := Compile(readKernel(t, "vector_add.ll"), hip(t, "gfx942"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Kernel.Name != "add_kernel" {
		t.Errorf("kernel %q", r.Kernel.Name)
	}
}

// TestGivenTools takes the tools from the options, and names a bad one.
func TestGivenTools(t *testing.T) {
	needTools(t)
	dir := t.TempDir()
	// ld.lld picks its flavour from its name, so the linker keeps its name in another folder.
	link(t, toolPath(t, "llc-22"), filepath.Join(dir, "my-llc"))
	link(t, toolPath(t, "opt-22"), filepath.Join(dir, "my-opt"))
	if err := os.Mkdir(filepath.Join(dir, "lld"), 0o755); err != nil {
		t.Fatal(err)
	}
	link(t, toolPath(t, "ld.lld-22"), filepath.Join(dir, "lld", "ld.lld"))
	t.Setenv("PATH", t.TempDir())
	src := readKernel(t, "vector_add.ll")
	if _, err := Compile(src, hip(t, "gfx90a"), Options{OPT: filepath.Join(dir, "my-opt"), LLC: filepath.Join(dir, "my-llc"), LLD: filepath.Join(dir, "lld", "ld.lld")}); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "nope")
	_, err := Compile(src, hip(t, "gfx90a"), Options{LLC: missing})
	wantError(t, err, "amdgcn: --llc "+missing+": exec: \""+missing+"\": stat "+missing+": no such file or directory")
	_, err = Compile(src, hip(t, "gfx90a"), Options{OPT: missing, LLC: filepath.Join(dir, "my-llc"), LLD: filepath.Join(dir, "lld", "ld.lld")})
	wantError(t, err, "amdgcn: --opt "+missing+": exec: \""+missing+"\": stat "+missing+": no such file or directory")
}

func link(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Symlink(from, to); err != nil {
		t.Fatal(err)
	}
}

// TestInvalidIR surfaces opt's positioned diagnostic (opt reads the IR first), naming the IR as the options say.
func TestInvalidIR(t *testing.T) {
	needTools(t)
	src := strings.Replace(readKernel(t, "vector_add.ll"), "fadd <4 x float> %a, %b", "fadd <4 x float> %a, %c", 1)
	want := "amdgcn: opt-22 failed: vector_add.ll:27:31: error: use of undefined value '%c'\n" +
		"  %sum = fadd <4 x float> %a, %c\n" +
		"                              ^"
	_, err := Compile(src, hip(t, "gfx942"), Options{Name: "vector_add.ll"})
	wantError(t, err, want)
	_, err = Assembly(src, hip(t, "gfx942"), Options{Name: "vector_add.ll"})
	wantError(t, err, want)
}

// TestBackendError surfaces an error from llc's code generator (an fp8 MFMA, which gfx942
// has and gfx90a lacks) without the crash report's stack dump.
func TestBackendError(t *testing.T) {
	needTools(t)
	src := `target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @fp8_kernel(ptr addrspace(1) inreg %c, i64 inreg %a, i64 inreg %b) {
  %acc = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x16.fp8.fp8(i64 %a, i64 %b, <16 x float> zeroinitializer, i32 0, i32 0, i32 0)
  store <16 x float> %acc, ptr addrspace(1) %c, align 64
  ret void
}

declare <16 x float> @llvm.amdgcn.mfma.f32.32x32x16.fp8.fp8(i64, i64, <16 x float>, i32 immarg, i32 immarg, i32 immarg)
`
	if _, err := Compile(src, hip(t, "gfx942"), Options{}); err != nil {
		t.Fatalf("gfx942: %v", err)
	}
	_, err := Compile(src, hip(t, "gfx90a"), Options{})
	wantError(t, err, "amdgcn: llc-22 failed: LLVM ERROR: Cannot select: intrinsic %llvm.amdgcn.mfma.f32.32x32x16.fp8.fp8")
}

func TestBadTarget(t *testing.T) {
	src := readKernel(t, "vector_add.ll")
	_, err := Compile(src, target.Target{Backend: target.HIP, Arch: "gfx999", WarpSize: 64}, Options{})
	wantError(t, err, `amdgcn: target "hip:gfx999:64": unsupported AMD architecture "gfx999" (want gfx90a, gfx942 or gfx950)`)
	_, err = Compile(src, target.Target{Backend: target.HIP, Arch: "gfx942", WarpSize: 32}, Options{})
	wantError(t, err, `amdgcn: target "hip:gfx942:32": warp size "32", but gfx942 has 64`)
	_, err = Assembly(src, target.Default, Options{})
	wantError(t, err, "amdgcn: target cuda:90:32 is not an AMD (hip) target")
}

// TestUnknownProcessor: an llc that does not know the processor only warns; that is an error here.
func TestUnknownProcessor(t *testing.T) {
	needTools(t)
	_, err := runLLC(toolPath(t, "llc-22"), readKernel(t, "vector_add.ll"), "gfx1999", "asm", "vector_add.ll", true)
	wantError(t, err, "amdgcn: llc-22 does not know processor gfx1999: 'gfx1999' is not a recognized processor for this target (ignoring processor)")
}

func TestBadModule(t *testing.T) {
	src := readKernel(t, "vector_add.ll")
	tg := hip(t, "gfx942")
	_, err := Compile(strings.Replace(src, `"amdgcn-amd-amdhsa"`, `"nvptx64-nvidia-cuda"`, 1), tg, Options{Name: "k.ll"})
	wantError(t, err, `k.ll: error: target triple "nvptx64-nvidia-cuda", want "amdgcn-amd-amdhsa"`)
	_, err = Compile(strings.Replace(src, "amdgpu_kernel ", "", 1), tg, Options{})
	wantError(t, err, "kernel.ll: error: no amdgpu_kernel function is defined")
	two := src + strings.Replace(src[strings.Index(src, "define"):strings.Index(src, "declare")], "@add_kernel", "@add_kernel2", 1)
	_, err = Compile(two, tg, Options{})
	wantError(t, err, "kernel.ll: error: 2 amdgpu_kernel functions (add_kernel, add_kernel2); a module holds one kernel")
}

// TestReadCodeObjectErrors checks what ReadCodeObject refuses: not an ELF file, an
// unlinked object, and a descriptor that disagrees with the metadata.
func TestReadCodeObjectErrors(t *testing.T) {
	needTools(t)
	_, err := ReadCodeObject([]byte("hello"))
	wantError(t, err, "amdgcn: not an ELF file: EOF")
	r, err := Compile(readKernel(t, "lds_reduce.ll"), hip(t, "gfx942"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadCodeObject(r.Object)
	wantError(t, err, "amdgcn: ELF type ET_REL, want ET_DYN (a code object linked with ld.lld -shared)")

	// Change the descriptor's group segment size (its first 4 bytes).
	bad := append([]byte(nil), r.HSACO...)
	off := descriptorOffset(t, bad, r.Kernel.Symbol)
	binary.LittleEndian.PutUint32(bad[off:], 1024)
	_, err = ReadCodeObject(bad)
	wantError(t, err, "amdgcn: kernel sum_kernel: the kernel descriptor's group segment (LDS) size is 1024, the metadata's 16")
}

// toolPath is where name is on PATH.
func toolPath(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed", name)
	}
	return p
}
