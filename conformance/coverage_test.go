package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/driver/cpu"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/internal/golden"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

// ptxGaps are the tl names that type-check and run on the CPU interpreter but that the
// NVIDIA lowering refuses (at the op's position) or fails on, with the language_ext.py
// kernel and signature that shows it and the start of the error. TestPTXGaps keeps this
// table true: when lower learns one of them, the test fails until the entry is removed.
var ptxGaps = []struct {
	name, note    string
	kernel, sig   string
	warps         int
	errorFragment string
}{}

func loadLanguageExt(t *testing.T) *frontend.File {
	t.Helper()
	f, err := frontend.Load(filepath.Join("kernels", "language_ext.py"), pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestPTXGaps checks that each entry of ptxGaps still fails to lower as noted.
func TestPTXGaps(t *testing.T) {
	f := loadLanguageExt(t)
	type probe struct{ kernel, sig, frag string }
	var probes []probe
	for _, g := range ptxGaps {
		probes = append(probes, probe{g.kernel, g.sig, g.errorFragment})
	}
	for _, p := range probes {
		_, err := compiler.Compile(f, p.kernel, compiler.Options{Options: semantic.Options{SignatureText: p.sig}}, compiler.PTX)
		if err == nil || !strings.Contains(err.Error(), p.frag) {
			t.Errorf("%s [%s]: want a PTX error containing %q, got %v (update ptxGaps and docs/language-coverage.md)", p.kernel, p.sig, p.frag, err)
		}
	}
}

// TestCPUOnlyCases runs the language_ext.py cases that the NVIDIA lowering cannot compile
// yet on the CPU interpreter.
func TestCPUOnlyCases(t *testing.T) {
	r := newRunner()
	cs := CPUOnlyCases()
	for _, c := range cs {
		if res := r.RunCase(c); res.Status != Pass {
			t.Errorf("%s: %s: %s", c.Name, res.Status, res.Error)
		}
	}
	if len(cs) < 1 {
		t.Errorf("only %d CPU-only cases", len(cs))
	}
}

// TestLanguageCoverage writes docs/language-coverage.md from the public names of Triton
// 3.6's language modules (semantic/testdata/tl-names-3.6.txt, made by tools/tl-names.py):
// what each is to gotriton, and for libdevice, whether each function compiles for the CPU
// interpreter and to PTX (probed). It is a golden file: go test -update rewrites it.
func TestLanguageCoverage(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "semantic", "testdata", "tl-names-3.6.txt"))
	if err != nil {
		t.Fatal(err)
	}
	libArgs := libdeviceArgs(t)
	gaps := map[string]string{}
	for _, g := range ptxGaps {
		gaps[g.name] = g.note
	}
	var b strings.Builder
	b.WriteString(coverageIntro)
	module := ""
	counts := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		m, name, _ := strings.Cut(line, "\t")
		if m != module {
			module = m
			fmt.Fprintf(&b, "\n## `%s`\n\n| name | what it is in gotriton | CPU interpreter | PTX (sm_80, sm_90) |\n|---|---|---|---|\n", m)
		}
		what, errMsg := semantic.LanguageName(m, name)
		cpuCol, ptxCol := "yes", "yes"
		switch {
		case errMsg != "":
			what, cpuCol, ptxCol = "not supported yet: a kernel that uses it stops with `"+errMsg+"` at the use", "-", "-"
			counts["unsupported"]++
		case strings.HasSuffix(m, "libdevice"):
			cpuCol, ptxCol = probeLibdevice(m, name, libArgs[name])
		case m == "triton.language" && gaps[name] != "":
			ptxCol = gaps[name]
		case m == "triton.language.extra.cuda" && (name == "smid" || name == "globaltimer"):
			cpuCol = map[string]string{"smid": "yes (always SM 0)", "globaltimer": "yes (the host's clock, in ns)"}[name]
		case what != "builtin" && !strings.HasPrefix(what, "jit"):
			cpuCol, ptxCol = "n/a", "n/a"
		}
		counts["names"]++
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", name, what, cpuCol, ptxCol)
	}
	fmt.Fprintf(&b, "\n%d names, %d of them not supported yet.\n", counts["names"], counts["unsupported"])
	golden.Check(t, filepath.Join("..", "docs", "language-coverage.md"), b.String())
}

const coverageIntro = `# The Triton 3.6 language in gotriton

Every public name of ` + "`triton.language`" + ` (its ` + "`__all__`" + `), ` + "`triton.language.math`" + `,
` + "`.random`" + `, ` + "`.extra.libdevice`" + ` and ` + "`.extra.cuda`" + ` (with its libdevice), and what gotriton
does with it. The list comes from Triton's release/3.6.x sources (` + "`tools/tl-names.py`" + `);
this file is written by ` + "`go test ./conformance -run TestLanguageCoverage -update`" + `.

- **what it is**: a builtin that type-checks and builds tile IR with Triton 3.6's rules, a dtype,
  a type (usable in annotations, ` + "`isinstance`" + ` and ` + "`tl.constexpr(v)`" + `), a jit function of
  gotriton's prelude (Triton-language code inlined at the call, as Triton's own jit code is),
  a constant, or a namespace. A name gotriton does not support stops compilation with a
  positioned error (` + "`file:line:col: error: ...`" + `) quoted here.
- **CPU interpreter** (` + "`--device cpu`" + `) and **PTX**: whether kernels using it run on the
  interpreter and compile to PTX. For libdevice every function is probed (a kernel calling it on
  its first overload's dtypes is compiled for both); for the other names "yes" means no op they
  build is refused, and the exceptions are checked by ` + "`TestPTXGaps`" + `. Where PTX says
  otherwise, compiling for NVIDIA stops at the op's position.
- **AMD** (gfx90a, gfx942): not started; no name compiles for AMD yet.
`

// libdeviceArgs reads semantic/libdevice.txt: each function's first overload's argument
// dtypes.
func libdeviceArgs(t *testing.T) map[string][]string {
	raw, err := os.ReadFile(filepath.Join("..", "semantic", "libdevice.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, line := range strings.Split(string(raw), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		first, _, _ := strings.Cut(f[1], ";")
		args, _, _ := strings.Cut(first, ">")
		out[f[0]] = strings.Split(args, ",")
	}
	return out
}

var sigOfCanonical = map[string]string{"fp32": "fp32", "fp64": "fp64", "int32": "i32", "int64": "i64", "uint32": "u32", "uint64": "u64"}

var errorOp = regexp.MustCompile(`error: .*|'[a-z_.]+' op: .*|libdevice function .*`)

// opError is a lowering error's op and message.
var opError = regexp.MustCompile(`^error: ('[a-z_.]+' op: .*)`)

// probeLibdevice compiles a kernel that calls module.name on 16-element tensors of its
// first overload's dtypes, for the CPU interpreter and to PTX, and says how each went.
func probeLibdevice(module, name string, args []string) (cpuCol, ptxCol string) {
	if len(args) == 0 {
		return "-", "-"
	}
	var params, loads, vals, sig []string
	for i, a := range args {
		params = append(params, fmt.Sprintf("X%d", i))
		loads = append(loads, fmt.Sprintf("    a%d = tl.load(X%d + offs)\n", i, i))
		vals = append(vals, fmt.Sprintf("a%d", i))
		sig = append(sig, "*"+sigOfCanonical[a]+":16")
	}
	src := fmt.Sprintf("import triton\nimport triton.language as tl\nimport %s as lib\n\n\n@triton.jit\ndef probe(%s, Y):\n    offs = tl.arange(0, 16)\n%s    tl.store(Y + offs, lib.%s(%s))\n",
		module, strings.Join(params, ", "), strings.Join(loads, ""), name, strings.Join(vals, ", "))
	f, err := frontend.LoadSource("probe.py", []byte(src), pyeval.Options{})
	if err != nil {
		return "-", "-"
	}
	opts := compiler.Options{Options: semantic.Options{SignatureText: strings.Join(append(sig, "*fp64:16"), ", ")}}
	res, err := compiler.Compile(f, "probe", opts, compiler.TileIR)
	if err != nil {
		msg := firstLine(err.Error())
		return "no: `" + msg + "`", "no: `" + msg + "`"
	}
	cpuCol = "yes"
	if _, err := cpu.New(cpu.Options{Workers: 1}).Load(res.TileIR, "probe", cpu.LoadOptions{NumWarps: 4}); err != nil {
		cpuCol = "no: `" + firstLine(err.Error()) + "`"
	}
	ptxCol = "yes"
	if err := res.Backend(compiler.PTX, false, ""); err != nil {
		ptxCol = "no: `" + firstLine(err.Error()) + "`"
	}
	return cpuCol, ptxCol
}

// firstLine is the message part of an error's first line (without the probe's position).
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if m := errorOp.FindString(s); m != "" {
		s = m
	}
	if m := opError.FindStringSubmatch(s); m != nil {
		s = m[1] // lower's "error: 'tt.x' op: ..." reads as the op's message
	}
	return strings.ReplaceAll(s, "|", "\\|")
}
