package aot

import (
	"bytes"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/internal/golden"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

// launcherCase is one `gotriton compile -g` run, named as the golden files are.
type launcherCase struct {
	golden, file, kernel, outName, sig, grid string
	warps, stages                            int
}

var launcherCases = []launcherCase{
	{"vector_add", "../conformance/kernels/vector_add.py", "vector_add_kernel", "add_kernel",
		"*fp32:16, *fp32:16, *fp32:16, i32, 1024", "(numel + 1023) / 1024, 1, 1", 4, 3},
	{"vector_add_d", "../conformance/kernels/vector_add.py", "vector_add_kernel", "add_kernel",
		"*fp32:16, *fp32:16, *fp32:16, i32:16, 1024", "numel / BLOCK_SIZE, 1, 1", 4, 3},
	{"matmul", "../conformance/kernels/matmul.py", "grouped_matmul_kernel", "matmul_fp16",
		"*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 64, 8, None",
		"((M + 127) / 128) * ((N + 255) / 256), 1, 1", 8, 3},
}

// tutorialCases need the official tutorials (GOTRITON_TUTORIALS).
var tutorialCases = []launcherCase{
	{"tutorial01", "01-vector-add.py", "add_kernel", "add_kernel",
		"*fp32:16, *fp32:16, *fp32:16, i32, 1024", "(n_elements + 1023) / 1024, 1, 1", 4, 3},
}

// embedded matches the bytes of the embedded binary, which change with every change of
// the PTX emitter; the golden files keep their size only.
var embedded = regexp.MustCompile(`(?s)(CUBIN_NAME\[\d+\] = \{\n).*?(\n\};)`)

// compileCase compiles tc to PTX.
func compileCase(t *testing.T, tc launcherCase) *Compiled {
	t.Helper()
	f, err := frontend.Load(tc.file, pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k, err := Compile(f, tc.kernel, compiler.Options{Options: semantic.Options{SignatureText: tc.sig, NumWarps: tc.warps, NumStages: tc.stages}}, compiler.PTX, nil)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// compileLauncher compiles tc and writes its C launcher, embedding the PTX.
func compileLauncher(t *testing.T, tc launcherCase) (*Launcher, *compiler.Result) {
	t.Helper()
	k := compileCase(t, tc)
	bin, err := Assemble(k.Result.PTX, k.Result.Target.Arch, "", true)
	if err != nil {
		t.Fatal(err)
	}
	l, err := k.Launcher(tc.outName, tc.grid, bin)
	if err != nil {
		t.Fatal(err)
	}
	return l, k.Result
}

func TestLauncher(t *testing.T) {
	cases := launcherCases
	if dir := os.Getenv("GOTRITON_TUTORIALS"); dir != "" {
		for _, tc := range tutorialCases {
			tc.file = filepath.Join(dir, tc.file)
			cases = append(cases, tc)
		}
	}
	for _, tc := range cases {
		t.Run(tc.golden, func(t *testing.T) {
			l, r := compileLauncher(t, tc)
			golden.Check(t, filepath.Join("testdata", "launcher", tc.golden+".c"), embedded.ReplaceAllString(l.C, "${1}  /* the binary */${2}"))
			golden.Check(t, filepath.Join("testdata", "launcher", tc.golden+".h"), l.H)
			if got := embeddedBytes(t, l.C); !bytes.Equal(got, append([]byte(r.PTX), 0)) {
				t.Errorf("the launcher embeds %d bytes, not the kernel's PTX (%d bytes) and a NUL", len(got), len(r.PTX))
			}
			gccSyntaxOnly(t, map[string]string{"k.c": l.C, "k.h": l.H}, "k.c")
		})
	}
}

// embeddedBytes decodes the binary a launcher embeds.
func embeddedBytes(t *testing.T, c string) []byte {
	t.Helper()
	m := embedded.FindStringSubmatchIndex(c)
	if m == nil {
		t.Fatal("no embedded binary")
	}
	body := c[m[3]:m[4]]
	var out []byte
	for _, lit := range regexp.MustCompile(`0x([0-9a-f]{2})`).FindAllStringSubmatch(body, -1) {
		b, _ := hex.DecodeString(lit[1])
		out = append(out, b...)
	}
	return out
}

// gccSyntaxOnly writes files to a folder and type-checks the C files named against
// testdata/cuda.h with gcc -fsyntax-only -Wall -Werror.
func gccSyntaxOnly(t *testing.T, files map[string]string, check ...string) {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not on PATH")
	}
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inc, _ := filepath.Abs("testdata")
	for _, c := range check {
		cmd := exec.Command(gcc, "-std=c11", "-fsyntax-only", "-Wall", "-Werror", "-I", inc, c)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("gcc -fsyntax-only %s: %v\n%s", c, err, out)
		}
	}
}

func TestSigHash(t *testing.T) {
	// Python: hashlib.sha256(" ".join(entries + ["warps4xstages3"]).encode()).hexdigest()[:8]
	if got := SigHash(strings.Split("*fp32:16,*fp32:16,*fp32:16,i32,1024", ","), 4, 3); got != "caba951e" {
		t.Errorf("SigHash = %s, want caba951e", got)
	}
}

func TestOutputPath(t *testing.T) {
	// What pathlib's Path(prefix).with_suffix(".h1_0d.c") gives.
	for prefix, want := range map[string]string{
		"a/b.x":  "a/b.h1_0d.c",
		"build/": "build.h1_0d.c",
		".hid":   ".hid.h1_0d.c",
		"a.b.c":  "a.b.h1_0d.c",
		"x.":     "x..h1_0d.c",
		"kernel": "kernel.h1_0d.c",
	} {
		if got := OutputPath(prefix, "h1", "0d", "c"); got != want {
			t.Errorf("OutputPath(%q) = %q, want %q", prefix, got, want)
		}
	}
}

func TestLauncherErrors(t *testing.T) {
	f, err := frontend.Load("../conformance/kernels/vector_add.py", pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k, err := Compile(f, "vector_add_kernel", compiler.Options{Options: semantic.Options{SignatureText: "*fp32:16, *fp32:16, *fp32:16, i32, 1024"}}, compiler.PTX, nil)
	if err != nil {
		t.Fatal(err)
	}
	bin := &Binary{Data: []byte{0}, Kind: "ptx"}
	for grid, want := range map[string]string{
		"n/1024, 1, 1": `grid "n/1024, 1, 1" names 'n', which is not a runtime parameter of the launcher (those are: lhs_ptr, rhs_ptr, out_ptr, numel)`,
		"numel, 1":     `grid "numel, 1": want three comma-separated expressions, e.g. "n_elements/1024, 1, 1"`,
		"numel, , 1":   `grid "numel, , 1": expression 2 is empty`,
	} {
		if _, err := k.Launcher("add", grid, bin); err == nil || err.Error() != want {
			t.Errorf("grid %q: got error %v\nwant %s", grid, err, want)
		}
	}
}

// TestLauncherNumberConstants: float and negative constexprs appear in the tt-linker line
// as compile.py writes them (str()), and the linker makes C names of them.
func TestLauncherNumberConstants(t *testing.T) {
	sig, err := semantic.ParseSignature("*fp32:16, i32, 0.5, -1, 'relu'")
	if err != nil {
		t.Fatal(err)
	}
	var params []semantic.BoundParam
	for i, name := range []string{"x_ptr", "n", "SCALE", "SHIFT", "ACT"} {
		params = append(params, semantic.BoundParam{Name: name, Entry: sig[i]})
	}
	l, err := NewLauncher(&LaunchSpec{OutName: "k", Kernel: "k", Params: params, Given: len(params), NumWarps: 1, NumStages: 3, WarpSize: 32,
		Grid: "n, 1, 1", Binary: []byte{0}, BinaryKind: "ptx", Source: "k.py"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "// tt-linker: " + l.Name + ":CUdeviceptr x_ptr, int32_t n:0.5x-1xrelu_warps1xstages3\n"; !strings.Contains(l.H, want) {
		t.Errorf("header lacks %q:\n%s", want, l.H)
	}
	if !strings.Contains(l.C, "['SCALE=0.5', 'SHIFT=-1', 'ACT=relu', 'num_warps=1', 'num_stages=3']") {
		t.Errorf("launcher's constants:\n%s", l.C)
	}
	ks, err := ParseHeader("k.h", l.H)
	if err != nil {
		t.Fatal(err)
	}
	h, c, err := Link(ks, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h, "CUresult k_0_5x_1xrelu_warps1xstages3(CUstream stream, CUdeviceptr x_ptr, int32_t n);") {
		t.Errorf("linked header:\n%s", h)
	}
	gccSyntaxOnly(t, map[string]string{"kernels.c": c, "kernels.h": h, "k.c": l.C, "k.h": l.H}, "kernels.c", "k.c")
}
