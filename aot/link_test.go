package aot

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/internal/golden"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

const matmulFile = "../conformance/kernels/matmul.py"

// matmulAlgos are three launchers of one kernel: two algorithms (tile shapes and warps),
// the second in two hint variants, given to the linker least specialized first.
var matmulAlgos = []launcherCase{
	{"", matmulFile, "grouped_matmul_kernel", "matmul_fp16",
		"*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32:1, i32, i32:1, i32, i32:1, 64, 64, 32, 8, None",
		"((M + 63) / 64) * ((N + 63) / 64), 1, 1", 4, 3},
	{"", matmulFile, "grouped_matmul_kernel", "matmul_fp16",
		"*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32:1, i32, i32:1, i32, i32:1, 128, 256, 64, 8, None",
		"((M + 127) / 128) * ((N + 255) / 256), 1, 1", 8, 3},
	{"", matmulFile, "grouped_matmul_kernel", "matmul_fp16",
		"*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 64, 8, None",
		"((M + 127) / 128) * ((N + 255) / 256), 1, 1", 8, 3},
}

// TestLink links the three launchers, compares the dispatcher with golden files, and runs
// a C program over it against a fake driver (testdata/fake_cuda.c) to see which launcher
// each call reaches and how it launches.
func TestLink(t *testing.T) {
	files := map[string]string{}
	var kernels []LinkedKernel
	var names []string
	var shared []int
	for _, tc := range matmulAlgos {
		l, r := compileLauncher(t, tc)
		files[l.Name+".c"], files[l.Name+".h"] = l.C, l.H
		ks, err := ParseHeader(l.Name+".h", l.H)
		if err != nil || len(ks) != 1 {
			t.Fatalf("ParseHeader: %v, %d kernels", err, len(ks))
		}
		kernels = append(kernels, ks...)
		names = append(names, l.Name)
		shared = append(shared, r.Meta.SharedBytes)
	}
	h, c, err := Link(kernels, "")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "link", "kernel.h"), h)
	golden.Check(t, filepath.Join("testdata", "link", "kernel.c"), c)
	files["kernel.h"], files["kernel.c"] = h, c

	var main strings.Builder
	main.WriteString("#include <stdio.h>\n#include \"kernel.h\"\n")
	main.WriteString("extern CUfunction fake_last_func;\nextern unsigned int fake_last_grid[3], fake_last_block, fake_last_shared;\nextern int fake_launches, fake_loads, fake_unloads;\n")
	for _, n := range names {
		fmt.Fprintf(&main, "extern CUfunction %s_func;\n", n)
	}
	main.WriteString("static int which(void) {\n")
	for i, n := range names {
		fmt.Fprintf(&main, "  if (fake_last_func == %s_func) return %d;\n", n, i)
	}
	main.WriteString(`  return -1;
}
static void report(const char *what, CUresult r) {
  printf("%s: %d launcher %d grid %u,%u,%u block %u shared %u\n", what, (int)r, r == CUDA_SUCCESS ? which() : -1,
         fake_last_grid[0], fake_last_grid[1], fake_last_grid[2], fake_last_block, fake_last_shared);
  fake_last_func = NULL;
  fake_last_grid[0] = fake_last_grid[1] = fake_last_grid[2] = fake_last_block = fake_last_shared = 0;
}
int main(void) {
  printf("algos %d\n", matmul_fp16_get_num_algos());
  load_matmul_fp16();
  printf("loaded %d\n", fake_loads);
  report("default 512", matmul_fp16_default(0, 0x1000, 0x2000, 0x3000, 512, 512, 512, 512, 1, 512, 1, 512, 1));
  report("algo 1 512", matmul_fp16(0, 0x1000, 0x2000, 0x3000, 512, 512, 512, 512, 1, 512, 1, 512, 1, 1));
  report("algo 1 500", matmul_fp16(0, 0x1000, 0x2000, 0x3000, 500, 500, 500, 500, 1, 500, 1, 500, 1, 1));
  report("algo 1 unaligned", matmul_fp16(0, 0x1008, 0x2000, 0x3000, 512, 512, 512, 512, 1, 512, 1, 512, 1, 1));
  report("algo 1 stride_ak 2", matmul_fp16(0, 0x1000, 0x2000, 0x3000, 512, 512, 512, 512, 2, 512, 1, 512, 1, 1));
  report("algo 2", matmul_fp16(0, 0x1000, 0x2000, 0x3000, 512, 512, 512, 512, 1, 512, 1, 512, 1, 2));
  report("algo -1", matmul_fp16(0, 0x1000, 0x2000, 0x3000, 512, 512, 512, 512, 1, 512, 1, 512, 1, -1));
  report("empty grid", matmul_fp16_default(0, 0x1000, 0x2000, 0x3000, 0, 512, 512, 512, 1, 512, 1, 512, 1));
  unload_matmul_fp16();
  printf("launches %d unloaded %d\n", fake_launches, fake_unloads);
  return 0;
}
`)
	files["main.c"] = main.String()
	out := runC(t, files)
	want := fmt.Sprintf(`algos 2
loaded 3
default 512: 0 launcher 0 grid 64,1,1 block 128 shared %d
algo 1 512: 0 launcher 2 grid 8,1,1 block 256 shared %d
algo 1 500: 0 launcher 1 grid 8,1,1 block 256 shared %d
algo 1 unaligned: 1 launcher -1 grid 0,0,0 block 0 shared 0
algo 1 stride_ak 2: 1 launcher -1 grid 0,0,0 block 0 shared 0
algo 2: 1 launcher -1 grid 0,0,0 block 0 shared 0
algo -1: 1 launcher -1 grid 0,0,0 block 0 shared 0
empty grid: 0 launcher -1 grid 0,0,0 block 0 shared 0
launches 3 unloaded 3
`, shared[0], shared[2], shared[1])
	if out != want {
		t.Errorf("C program printed\n%s\nwant\n%s", out, want)
	}
}

// runC builds the C files of files with testdata/fake_cuda.c and runs the program.
func runC(t *testing.T, files map[string]string) string {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not on PATH")
	}
	dir := t.TempDir()
	args := []string{"-std=c11", "-Wall", "-Werror", "-I", dir, "-I", mustAbs(t, "testdata"), "-o", filepath.Join(dir, "prog"), mustAbs(t, "testdata/fake_cuda.c")}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".c") {
			args = append(args, filepath.Join(dir, name))
		}
	}
	if out, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(dir, "prog")).CombinedOutput()
	if err != nil {
		t.Fatalf("program: %v\n%s", err, out)
	}
	return string(out)
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestLinkTritonHeader reads a header in the exact layout of Triton 3.6's compile.h
// template (testdata/link/triton_format.h, written for this test) and links it with a
// prefix.
func TestLinkTritonHeader(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "link", "triton_format.h"))
	if err != nil {
		t.Fatal(err)
	}
	ks, err := ParseHeader("triton_format.h", string(text))
	if err != nil {
		t.Fatal(err)
	}
	crlf, err := ParseHeader("triton_format.h", strings.ReplaceAll(string(text), "\n", "\r\n"))
	if err != nil || fmt.Sprint(crlf) != fmt.Sprint(ks) {
		t.Errorf("the header with CRLF line ends reads as %+v, %v", crlf, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	want := LinkedKernel{Name: "add_kernel", SigHash: "caba951e", Suffix: "0d1d2d34", Algo: "add_kernel_1024_warps4xstages3",
		ArgTypes: []string{"CUdeviceptr", "CUdeviceptr", "CUdeviceptr", "int32_t"}, ArgNames: []string{"x_ptr", "y_ptr", "output_ptr", "n_elements"},
		Hints: []int{16, 16, 16, 0}, NumSpecs: 3}
	if len(ks) != 1 || fmt.Sprint(ks[0]) != fmt.Sprint(want) {
		t.Fatalf("ParseHeader = %+v\nwant %+v", ks, want)
	}
	h, c, err := Link(ks, "my_")
	if err != nil {
		t.Fatal(err)
	}
	for _, decl := range []string{
		"CUresult my_add_kernel_1024_warps4xstages3(CUstream stream, CUdeviceptr x_ptr, CUdeviceptr y_ptr, CUdeviceptr output_ptr, int32_t n_elements);",
		"int my_add_kernel_get_num_algos(void);",
		"CUresult my_add_kernel_default(CUstream stream, CUdeviceptr x_ptr, CUdeviceptr y_ptr, CUdeviceptr output_ptr, int32_t n_elements);",
		"CUresult my_add_kernel(CUstream stream, CUdeviceptr x_ptr, CUdeviceptr y_ptr, CUdeviceptr output_ptr, int32_t n_elements, int algo_id);",
		"void load_my_add_kernel(void);",
	} {
		if !strings.Contains(h, decl+"\n") {
			t.Errorf("linked header lacks %s:\n%s", decl, h)
		}
	}
	if !strings.Contains(c, "    return add_kernel_caba951e_0d1d2d34(stream, x_ptr, y_ptr, output_ptr, n_elements);\n") {
		t.Errorf("dispatcher does not call the compiled launcher:\n%s", c)
	}
	gccSyntaxOnly(t, map[string]string{"kernel.c": c, "kernel.h": h}, "kernel.c")
}

func TestLinkErrors(t *testing.T) {
	line := func(s string) string { return "// tt-linker: " + s + "\n" }
	for _, tt := range []struct{ header, want string }{
		{"#include <cuda.h>\n", "no // tt-linker: lines in the headers"},
		{line("add:CUdeviceptr x:1024_warps4xstages3"), "k.h:1: error: add is not a valid kernel name (want NAME_SIGHASH_SUFFIX)"},
		{line("add_caba951e_0d2d:CUdeviceptr x, CUdeviceptr y:1024_warps4xstages3"), "k.h:1: error: 0d2d is not a valid kernel suffix"},
		{line("add_caba951e_0d1:CUdeviceptr x, int32_t n:1024_warps4xstages3") + line("add_aaaa0000_01:CUdeviceptr x, int64_t n:1024_warps4xstages3"),
			"mismatched signature for kernel add_1024_warps4xstages3:\n\texisting sig is: CUdeviceptr,int32_t\n\tcurrent is: CUdeviceptr,int64_t"},
		{line("add_caba951e_0d1:CUdeviceptr x, int32_t n:1024_warps4xstages3") + line("add_aaaa0000_01:CUdeviceptr x, int64_t n:512_warps4xstages3"),
			"kernel add: algorithm add_512_warps4xstages3 takes (CUdeviceptr, int64_t) but add_1024_warps4xstages3 takes (CUdeviceptr, int32_t); one dispatcher needs one signature"},
	} {
		ks, err := ParseHeader("k.h", tt.header)
		if err == nil {
			_, _, err = Link(ks, "")
		}
		if err == nil || err.Error() != tt.want {
			t.Errorf("header %q: got %v\nwant %s", tt.header, err, tt.want)
		}
	}
}

// TestLinkTwoKernels links the launchers of two kernels into one dispatcher each.
func TestLinkTwoKernels(t *testing.T) {
	files := map[string]string{}
	var kernels []LinkedKernel
	for _, tc := range []launcherCase{launcherCases[0], matmulAlgos[0]} {
		l, _ := compileLauncher(t, tc)
		files[l.Name+".c"] = l.C
		ks, err := ParseHeader(l.Name+".h", l.H)
		if err != nil {
			t.Fatal(err)
		}
		kernels = append(kernels, ks...)
	}
	h, c, err := Link(kernels, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, decl := range []string{"int add_kernel_get_num_algos(void);", "int matmul_fp16_get_num_algos(void);"} {
		if !strings.Contains(h, decl) {
			t.Errorf("linked header lacks %s", decl)
		}
	}
	files["kernels.h"], files["kernels.c"] = h, c
	files["main.c"] = `#include <stdio.h>
#include "kernels.h"
int main(void) {
  load_add_kernel();
  load_matmul_fp16();
  printf("%d %d %d %d\n", add_kernel_get_num_algos(), matmul_fp16_get_num_algos(),
         add_kernel_default(0, 0x1000, 0x2000, 0x3000, 4096), matmul_fp16(0, 0x1000, 0x2000, 0x3000, 64, 64, 64, 64, 1, 64, 1, 64, 1, 1));
  return 0;
}
`
	if out := runC(t, files); out != "1 1 0 1\n" {
		t.Errorf("C program printed %q", out)
	}
}

// TestTritonLinkReadsOurHeaders runs Triton's own link.py (TRITON_LINK_PY: the file from
// Triton's release/3.6.x, python/triton/tools/link.py; it needs only Python's standard
// library) over gotriton's headers and type-checks what it writes.
func TestTritonLinkReadsOurHeaders(t *testing.T) {
	linkPy := os.Getenv("TRITON_LINK_PY")
	if linkPy == "" {
		t.Skip("set TRITON_LINK_PY to Triton 3.6's python/triton/tools/link.py")
	}
	dir := t.TempDir()
	var headers []string
	files := map[string]string{}
	for _, tc := range matmulAlgos {
		l, _ := compileLauncher(t, tc)
		p := filepath.Join(dir, l.Name+".h")
		os.WriteFile(p, []byte(l.H), 0o644)
		headers = append(headers, p)
		files[l.Name+".c"], files[l.Name+".h"] = l.C, l.H
	}
	cmd := exec.Command("python3", append([]string{linkPy}, append(headers, "-o", filepath.Join(dir, "kernels"))...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("link.py: %v\n%s", err, out)
	}
	for _, name := range []string{"kernels.h", "kernels.c"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	ours, _, _ := Link(mustParse(t, files), "")
	for _, decl := range strings.Split(strings.TrimSpace(ours), "\n") {
		if strings.HasPrefix(decl, "CUresult ") && !strings.Contains(files["kernels.h"], decl) {
			t.Errorf("link.py's header lacks our %s", decl)
		}
	}
	gccSyntaxOnly(t, files, "kernels.c")
}

// mustParse reads the tt-linker lines of the .h files among files, in name order.
func mustParse(t *testing.T, files map[string]string) []LinkedKernel {
	var names []string
	for n := range files {
		if strings.HasSuffix(n, ".h") && strings.HasPrefix(n, "matmul") {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var out []LinkedKernel
	for _, n := range names {
		ks, err := ParseHeader(n, files[n])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ks...)
	}
	return out
}

// TestLauncherTensorDescriptors compiles a kernel that takes two host tensor descriptors,
// links it, and runs a C program that launches it through the dispatcher against the fake
// driver: the launcher must encode each tensor map as tensordesc_meta says and pass each
// map, then the tensor's shape and strides.
func TestLauncherTensorDescriptors(t *testing.T) {
	tc := launcherCase{"", "testdata/desc_copy.py", "desc_copy_kernel", "desc_copy",
		"tensordesc<fp16[32, 64]>, tensordesc<fp16[32, 64]>, i32, i32, 32, 64", "M / 32, N / 64, 1", 4, 3}
	l, _ := compileLauncher(t, tc)
	golden.Check(t, filepath.Join("testdata", "launcher", "desc_copy.h"), l.H)
	ks, err := ParseHeader("desc_copy.h", l.H)
	if err != nil {
		t.Fatal(err)
	}
	h, c, err := Link(ks, "")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"k.c": l.C, "k.h": l.H, "kernels.h": h, "kernels.c": c, "main.c": `#include <stdio.h>
#include "kernels.h"
extern char fake_tensormaps[1024];
extern void (*fake_launch_hook)(void **kernelParams);
static void show(void **p) {
  printf("%s", fake_tensormaps);
  for (int d = 0; d < 2; d++, p += 5)
    printf("desc %d: map of %#llx shape %d %d strides %lld %lld\n", d, (unsigned long long)((CUtensorMap *)p[0])->opaque[0],
           *(int32_t *)p[1], *(int32_t *)p[2], (long long)*(int64_t *)p[3], (long long)*(int64_t *)p[4]);
  printf("M %d N %d\n", *(int32_t *)p[0], *(int32_t *)p[1]);
}
int main(void) {
  tt_tensordesc2 src = {0x10000, {64, 256}, {256, 1}}, dst = {0x20000, {64, 256}, {256, 1}};
  fake_launch_hook = show;
  printf("launch %d\n", (int)desc_copy_default(0, src, dst, 64, 256));
  return 0;
}
`}
	want := `encode type 6 rank 2 base 0x10000 dims 256 64 strides 512 box 64 32 swizzle 0 fill 0
encode type 6 rank 2 base 0x20000 dims 256 64 strides 512 box 64 32 swizzle 0 fill 0
desc 0: map of 0x10000 shape 64 256 strides 256 1
desc 1: map of 0x20000 shape 64 256 strides 256 1
M 64 N 256
launch 0
`
	if out := runC(t, files); out != want {
		t.Errorf("C program printed\n%s\nwant\n%s", out, want)
	}

	// Without TMA the kernel takes the tensor's address instead, which no launcher passes.
	f, err := frontend.Load(tc.file, pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k, err := Compile(f, tc.kernel, compiler.Options{Options: semantic.Options{SignatureText: tc.sig, NumWarps: 4, Target: "cuda:80"}}, compiler.PTX, nil)
	if err != nil {
		t.Fatal(err)
	}
	const want80 = "parameter 'src_desc' is a host tensor descriptor (tensordesc<fp16[32, 64]>): only C launchers for targets with TMA (sm_90 and later) take them"
	if _, err := k.Launcher("d", tc.grid, &Binary{Data: []byte{0}}); err == nil || !strings.HasPrefix(err.Error(), want80) {
		t.Errorf("sm_80 launcher: %v", err)
	}
	if _, err := compileCase(t, tc).GoLauncher("p", "d", tc.grid); err == nil || !strings.Contains(err.Error(), "only C launchers") {
		t.Errorf("Go launcher: %v", err)
	}
}
