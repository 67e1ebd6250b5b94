package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/aot"
	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/internal/golden"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

// TestMain points the compile cache at a fresh folder, so that tests neither read nor
// fill the user's.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gotriton-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("GOTRITON_CACHE_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildVaries matches the metadata that changes with every build of gotriton.
var buildVaries = regexp.MustCompile(`"(hash|gotriton_version)": "[^"]*"`)

// TestCompileJSON runs `compile --emit json` exactly as ../shared/tools/triton_suite.py
// does and checks the metadata against golden files and against the lowering's own numbers.
func TestCompileJSON(t *testing.T) {
	for _, tt := range []struct {
		golden, file, kernel, sig string
		warps, stages             int
		shared                    bool
	}{
		{"vector_add.json", "vector_add.py", "vector_add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 1024", 4, 3, false},
		{"matmul.json", "matmul.py", "grouped_matmul_kernel", "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 64, 8, None", 8, 3, true},
		{"attn_fwd.json", "attention.py", "attn_fwd_kernel", "fp32, *fp32:16, i32, i32:16, tensordesc<fp16[128, 64]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[128, 64]>, i32:16, 64, 128, 64, 1, False", 4, 3, true},
	} {
		t.Run(tt.kernel, func(t *testing.T) {
			path := filepath.Join("..", "..", "conformance", "kernels", tt.file)
			out := filepath.Join(t.TempDir(), "k.json")
			_, errOut, code := gotriton("compile", path, "-n", tt.kernel, "-s", tt.sig, "-w", strconv.Itoa(tt.warps), "-ns", strconv.Itoa(tt.stages), "-t", "cuda:90:32", "--emit", "json", "-o", out)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			text, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "aot", tt.golden), buildVaries.ReplaceAllString(string(text), `"$1": "(varies)"`))
			var meta struct {
				Shared             *int   `json:"shared"`
				GlobalScratchSize  *int   `json:"global_scratch_size"`
				ProfileScratchSize *int   `json:"profile_scratch_size"`
				Hash               string `json:"hash"`
				Name               string `json:"name"`
			}
			if err := json.Unmarshal(text, &meta); err != nil {
				t.Fatal(err)
			}
			f, err := frontend.Load(path, pyeval.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := compiler.Compile(f, tt.kernel, compiler.Options{Options: semantic.Options{SignatureText: tt.sig, NumWarps: tt.warps, NumStages: tt.stages}}, compiler.LLVM)
			if err != nil {
				t.Fatal(err)
			}
			if meta.Shared == nil || *meta.Shared != r.Meta.SharedBytes || (*meta.Shared > 0) != tt.shared ||
				meta.GlobalScratchSize == nil || *meta.GlobalScratchSize != r.Meta.GlobalScratchSize ||
				meta.ProfileScratchSize == nil || *meta.ProfileScratchSize != r.Meta.ProfileScratchSize ||
				meta.Name != tt.kernel || len(meta.Hash) != 64 {
				t.Errorf("metadata %+v, lowering says %+v", meta, r.Meta)
			}
		})
	}
}

// TestCompileLauncher runs compile with -g as triton.tools.compile is run and checks which
// files it writes and where.
func TestCompileLauncher(t *testing.T) {
	dir := t.TempDir()
	kernel := filepath.Join("..", "..", "conformance", "kernels", "vector_add.py")
	sig := "*fp32:16, *fp32:16, *fp32:16, i32, 1024"
	_, errOut, code := gotriton("compile", kernel, "-n", "vector_add_kernel", "-s", sig, "-g", "numel/1024,1,1",
		"-on", "add", "-o", filepath.Join(dir, "out", "add.kernel"), "--ptxas", "")
	if code != 1 || !strings.Contains(errOut, "cannot write output") {
		t.Errorf("missing output folder: exit %d, stderr %q", code, errOut)
	}
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	_, errOut, code = gotriton("compile", kernel, "-n", "vector_add_kernel", "-s", sig, "-g", "numel/1024,1,1",
		"-on", "add", "-o", filepath.Join(dir, "out", "add.kernel"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// triton.tools.compile's default is one warp: warps1xstages3 is hashed.
	entries, _ := os.ReadDir(filepath.Join(dir, "out"))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	hash := aot.SigHash(strings.Split(strings.ReplaceAll(sig, " ", ""), ","), 1, 3)
	want := []string{"add." + hash + "_0d1d2d34.c", "add." + hash + "_0d1d2d34.h", "add." + hash + "_0d1d2d34.json"}
	if !slices.Equal(names, want) {
		t.Errorf("wrote %v, want %v", names, want)
	}
	h, _ := os.ReadFile(filepath.Join(dir, "out", want[1]))
	if !strings.Contains(string(h), "// tt-linker: add_"+hash+"_0d1d2d34:CUdeviceptr lhs_ptr, CUdeviceptr rhs_ptr, CUdeviceptr out_ptr, int32_t numel:1024_warps1xstages3\n") {
		t.Errorf("header:\n%s", h)
	}
}

// TestCompileBadInput checks that each kind of bad input is one clear error and exit 1.
func TestCompileBadInput(t *testing.T) {
	kernel := filepath.Join("..", "..", "conformance", "kernels", "vector_add.py")
	sig := "*fp32:16, *fp32:16, *fp32:16, i32, 1024"
	out := filepath.Join(t.TempDir(), "k")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-s", "*fp32:16, *fp32:16, *fp32:16, i32, 1024, 7", "-g", "1,1,1"}, "error: signature has 6 entries but kernel 'vector_add_kernel' has 5 parameters"},
		{[]string{"-s", "*fp32:16, *fp32:8, *fp32:16, i32, 1024", "-g", "1,1,1"}, "only 1 and 16 are valid hints, got 8"},
		{[]string{"-s", sig, "-g", "n/1024,1,1"}, "gotriton compile: grid \"n/1024,1,1\" names 'n', which is not a runtime parameter of the launcher (those are: lhs_ptr, rhs_ptr, out_ptr, numel)"},
		{[]string{"-s", sig, "-g", "1,1,1", "-t", "cuda:75"}, "unsupported compute capability 75"},
		{[]string{"-s", sig, "-g", "1,1,1", "-t", "metal:1"}, `unknown backend "metal"`},
		{[]string{"-s", sig, "-g", "1,1,1", "-o", filepath.Join(out, "no", "such", "dir")}, "gotriton compile: cannot write output: open "},
		{[]string{"-s", sig, "-g", "1,1,1", "--emit", "ptx"}, "gotriton compile: -g writes the C launcher, header and metadata; leave out --emit"},
	} {
		args := append([]string{"compile", kernel, "-n", "vector_add_kernel"}, tt.args...)
		stdout, errOut, code := gotriton(args...)
		if code != 1 || stdout != "" || !strings.Contains(errOut, tt.want) || strings.Count(strings.TrimSpace(errOut), "error") > 1 {
			t.Errorf("gotriton %v: exit %d\n got stderr %q\nwant it to contain %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestLinkCommand compiles two variants with -g and links their headers.
func TestLinkCommand(t *testing.T) {
	dir := t.TempDir()
	kernel := filepath.Join("..", "..", "conformance", "kernels", "vector_add.py")
	for _, sig := range []string{"*fp32:16, *fp32:16, *fp32:16, i32, 1024", "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024"} {
		if _, errOut, code := gotriton("compile", kernel, "-n", "vector_add_kernel", "-s", sig, "-g", "numel/1024,1,1", "-on", "add", "-o", filepath.Join(dir, "add")); code != 0 {
			t.Fatalf("compile: exit %d: %s", code, errOut)
		}
	}
	headers, _ := filepath.Glob(filepath.Join(dir, "add.*.h"))
	if len(headers) != 2 {
		t.Fatalf("headers %v", headers)
	}
	out := filepath.Join(dir, "kernels.x")
	if _, errOut, code := gotriton(append([]string{"link", "-o", out, "--prefix", "p_"}, headers...)...); code != 0 {
		t.Fatalf("link: exit %d: %s", code, errOut)
	}
	h, err := os.ReadFile(filepath.Join(dir, "kernels.h"))
	if err != nil || !strings.Contains(string(h), "int p_add_get_num_algos(void);") {
		t.Errorf("kernels.h: %v\n%s", err, h)
	}
	if _, err := os.Stat(filepath.Join(dir, "kernels.c")); err != nil {
		t.Error(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"link", "-o", out}, "gotriton link: expected one or more HEADER arguments"},
		{[]string{"link", "-o", out, filepath.Join(dir, "none.h")}, "gotriton link: open " + filepath.Join(dir, "none.h") + ": no such file or directory"},
		{[]string{"link", "-o", filepath.Join(dir, "no", "k"), headers[0]}, "gotriton link: cannot write output: open "},
		{[]string{"link", "-o", out, kernel}, "gotriton link: no // tt-linker: lines in the headers"},
	} {
		_, errOut, code := gotriton(tt.args...)
		if code != 1 || !strings.HasPrefix(errOut, tt.want) {
			t.Errorf("gotriton %v: exit %d, stderr %q, want %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestCompileAllConfigs writes one launcher per autotune config, each with its own grid
// (BLOCK is the config's), and links them into one dispatcher of two algorithms.
func TestCompileAllConfigs(t *testing.T) {
	dir := t.TempDir()
	kernel := filepath.Join("testdata", "aot", "autotuned.py")
	_, errOut, code := gotriton("compile", kernel, "-n", "scale_kernel", "-s", "*fp32:16, *fp32:16, i32, fp32",
		"-g", "(n + BLOCK - 1) / BLOCK, 1, 1", "--all-configs", "-o", filepath.Join(dir, "scale"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	headers, _ := filepath.Glob(filepath.Join(dir, "scale.*.h"))
	var lines []string
	for _, h := range headers {
		text, _ := os.ReadFile(h)
		for _, l := range strings.Split(string(text), "\n") {
			if strings.HasPrefix(l, "// tt-linker:") {
				lines = append(lines, l[strings.LastIndexByte(l, ':')+1:])
			}
		}
	}
	slices.Sort(lines)
	if want := []string{"128_warps4xstages2", "256_warps8xstages3"}; !slices.Equal(lines, want) {
		t.Errorf("algorithms %v, want %v", lines, want)
	}
	for block, grid := range map[string]string{"128": "(n + 128 - 1) / 128", "256": "(n + 256 - 1) / 256"} {
		cs, _ := filepath.Glob(filepath.Join(dir, "scale.*.c"))
		found := false
		for _, c := range cs {
			text, _ := os.ReadFile(c)
			found = found || strings.Contains(string(text), "'BLOCK="+block+"'") && strings.Contains(string(text), "unsigned int gX = "+grid+";")
		}
		if !found {
			t.Errorf("no launcher with BLOCK=%s and grid %s", block, grid)
		}
	}
	_, errOut, code = gotriton("compile", kernel, "-n", "scale_kernel", "-s", "*fp32:16, *fp32:16, i32, fp32", "-g", "1,1,1", "--all-configs", "--config", "1", "-o", filepath.Join(dir, "x"))
	if code != 1 || !strings.Contains(errOut, "--all-configs and --config do not combine") {
		t.Errorf("--all-configs --config: exit %d, %s", code, errOut)
	}
	_, errOut, code = gotriton("compile", filepath.Join("..", "..", "conformance", "kernels", "vector_add.py"), "-n", "vector_add_kernel",
		"-s", "*fp32:16, *fp32:16, *fp32:16, i32, 1024", "-g", "1,1,1", "--all-configs", "-o", filepath.Join(dir, "x"))
	if code != 1 || !strings.Contains(errOut, "--all-configs: kernel 'vector_add_kernel' has no @triton.autotune configs") {
		t.Errorf("--all-configs without configs: exit %d, %s", code, errOut)
	}
}

// TestCompileGoLauncher writes a --lang go launcher beside its metadata.
func TestCompileGoLauncher(t *testing.T) {
	dir := t.TempDir()
	kernel := filepath.Join("..", "..", "conformance", "kernels", "vector_add.py")
	_, errOut, code := gotriton("compile", kernel, "-n", "vector_add_kernel", "-s", "*fp32:16, *fp32:16, *fp32:16, i32, 1024",
		"-g", "(numel + 1023) / 1024, 1, 1", "-w", "4", "--lang", "go", "--go-package", "vec", "-o", filepath.Join(dir, "add"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	gofiles, _ := filepath.Glob(filepath.Join(dir, "add.*.go"))
	jsons, _ := filepath.Glob(filepath.Join(dir, "add.*.json"))
	cs, _ := filepath.Glob(filepath.Join(dir, "*.c"))
	if len(gofiles) != 1 || len(jsons) != 1 || len(cs) != 0 {
		t.Fatalf("wrote %v %v %v", gofiles, jsons, cs)
	}
	text, _ := os.ReadFile(gofiles[0])
	if !strings.Contains(string(text), "package vec\n") || !strings.Contains(string(text), "func (launcher *VectorAddKernel_caba951e_0d1d2d34) Launch(lhs_ptr *cuda.Buffer, rhs_ptr *cuda.Buffer, out_ptr *cuda.Buffer, numel int32) error {") {
		t.Errorf("Go launcher:\n%s", text)
	}
	_, errOut, code = gotriton("compile", kernel, "-n", "vector_add_kernel", "-s", "*fp32:16, *fp32:16, *fp32:16, i32, 1024", "-g", "1,1,1", "--lang", "rust")
	if code != 1 || !strings.Contains(errOut, `unknown --lang "rust" (want c or go)`) {
		t.Errorf("--lang rust: exit %d, %s", code, errOut)
	}
}
