// Package realworld tests gotriton on third-party Triton kernels: the corpus PROVENANCE.md lists
// and extract.sh copies into a folder git ignores. TestProvenance and TestInductor (our own
// Inductor-shaped examples in inductor/) always run; the others run when GOTRITON_REALWORLD names
// the corpus folder (a relative path is taken from the repository root). python3 runs the ast
// oracle (tools/realworld_jit.py).
//
// expected.jsonl lists today's known failures (tools/realworld-triage.py --write-expected
// writes it). A failure not listed there fails the test, and so does a listed one that no
// longer fails: the list only shrinks as gotriton improves.
package realworld

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

const repoRoot = "../.."

// A corpusFile is one row of PROVENANCE.md.
type corpusFile struct {
	Name, Repo, Commit, Path, SHA256 string
	JitFunctions                     int
}

// Rel is the file's path inside the corpus folder.
func (f corpusFile) Rel() string { return f.Name + "/" + f.Path }

var provenanceRow = regexp.MustCompile("^\\| ([a-z_]+) \\| (\\S+/\\S+) \\| ([0-9a-f]{40}) \\| `([^`]+)` \\| ([0-9a-f]{64}) \\| ([0-9]+) \\|$")

func readProvenance(t *testing.T) []corpusFile {
	t.Helper()
	data, err := os.ReadFile("PROVENANCE.md")
	if err != nil {
		t.Fatal(err)
	}
	var files []corpusFile
	for _, line := range strings.Split(string(data), "\n") {
		m := provenanceRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[6])
		files = append(files, corpusFile{m[1], m[2], m[3], m[4], m[5], n})
	}
	return files
}

// A spec is one specialization of specs.jsonl.
type spec struct {
	File      string `json:"file"`
	Kernel    string `json:"kernel"`
	Signature string `json:"signature"`
	NumWarps  int    `json:"num_warps"`
	NumStages int    `json:"num_stages"`
	Launch    string `json:"launch"`
}

// A knownFailure is one line of expected.jsonl.
type knownFailure struct {
	Kind      string   `json:"kind"` // list, check, unchecked or compile
	File      string   `json:"file"`
	Kernel    string   `json:"kernel"`
	Signature string   `json:"signature"`
	Missing   []string `json:"missing"`
	Extra     []string `json:"extra"`
	Kernels   []string `json:"kernels"` // unchecked: the kernels check reports as not checked
	Error     string   `json:"error"`
}

func (k knownFailure) key() string { return k.Kind + " " + k.File + " " + k.Kernel + " " + k.Signature }

func readJSONLines[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// knownFailures maps key() to the failure, for one kind.
func knownFailures(t *testing.T, kind string) map[string]knownFailure {
	out := map[string]knownFailure{}
	for _, k := range readJSONLines[knownFailure](t, "expected.jsonl") {
		if k.Kind == kind {
			out[k.key()] = k
		}
	}
	return out
}

// TestProvenance checks the committed files against each other (no corpus needed): at least 300
// jit functions, every spec and every known failure names a corpus file (or an inductor/ example),
// no spec twice.
func TestProvenance(t *testing.T) {
	files := readProvenance(t)
	inCorpus := map[string]bool{}
	total := 0
	for _, f := range files {
		if inCorpus[f.Rel()] {
			t.Errorf("%s listed twice", f.Rel())
		}
		inCorpus[f.Rel()] = true
		total += f.JitFunctions
	}
	if total < 300 {
		t.Errorf("the corpus has %d jit functions, want at least 300", total)
	}
	seen := map[string]bool{}
	specs := readJSONLines[spec](t, "specs.jsonl")
	if len(specs) < 60 {
		t.Errorf("%d specializations, want at least 60", len(specs))
	}
	for _, s := range specs {
		if !inCorpus[s.File] {
			t.Errorf("spec %s of %s: file not in PROVENANCE.md", s.Kernel, s.File)
		}
		k := s.File + " " + s.Kernel + " " + s.Signature
		if seen[k] {
			t.Errorf("spec %s listed twice", k)
		}
		seen[k] = true
	}
	for _, s := range readJSONLines[spec](t, "inductor/specs.jsonl") {
		seen[s.File+" "+s.Kernel+" "+s.Signature] = true
	}
	for _, f := range inductorFiles(t) {
		inCorpus[f] = true
	}
	for _, k := range readJSONLines[knownFailure](t, "expected.jsonl") {
		if !inCorpus[k.File] {
			t.Errorf("expected.jsonl: %s: file neither in PROVENANCE.md nor in inductor/", k.key())
		}
		if k.Kind == "compile" && !seen[k.File+" "+k.Kernel+" "+k.Signature] {
			t.Errorf("expected.jsonl: %s: no such spec in specs.jsonl", k.key())
		}
	}
}

func corpusDir(t *testing.T) string {
	dir := os.Getenv("GOTRITON_REALWORLD")
	if dir == "" {
		t.Skip("GOTRITON_REALWORLD is not set (conformance/realworld/extract.sh makes the corpus)")
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(repoRoot, dir)
	}
	return dir
}

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// gotriton builds cmd/gotriton once per test binary.
func gotriton(t *testing.T) string {
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gotriton-realworld")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "gotriton")
		out, err := exec.Command("go", "build", "-o", binary, "github.com/gotriton/gotriton/cmd/gotriton").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

// run runs gotriton and returns its exit status and combined output; a crash fails the test.
func run(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(gotriton(t), args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if s := out.String(); strings.Contains(s, "goroutine ") || strings.Contains(s, "panic:") {
		t.Errorf("gotriton %s crashed:\n%s", strings.Join(args, " "), s)
	}
	return code, out.String()
}

func kernelFiles(t *testing.T, corpus string) []corpusFile {
	var out []corpusFile
	for _, f := range readProvenance(t) {
		data, err := os.ReadFile(filepath.Join(corpus, f.Rel()))
		if err != nil {
			t.Fatalf("%v (run conformance/realworld/extract.sh %s)", err, corpus)
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != f.SHA256 {
			t.Fatalf("%s: sha256 differs from PROVENANCE.md", f.Rel())
		}
		if f.JitFunctions > 0 {
			out = append(out, f)
		}
	}
	return out
}

// oracle runs tools/realworld_jit.py over the files (paths under base): each file's kernels as QUALNAME@LINE.
func oracle(t *testing.T, base string, rels []string) map[string][]string {
	args := []string{filepath.Join(repoRoot, "tools", "realworld_jit.py")}
	for _, rel := range rels {
		args = append(args, filepath.Join(base, rel))
	}
	out, err := exec.Command("python3", args...).Output()
	if err != nil {
		t.Fatalf("python3 tools/realworld_jit.py: %v", err)
	}
	type kernel struct {
		Qualname string `json:"qualname"`
		Line     int    `json:"line"`
	}
	type row struct {
		File    string   `json:"file"`
		Kernels []kernel `json:"kernels"`
	}
	res := map[string][]string{}
	for i, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var r row
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		ks := []string{}
		for _, k := range r.Kernels {
			ks = append(ks, fmt.Sprintf("%s@%d", k.Qualname, k.Line))
		}
		res[rels[i]] = ks
	}
	return res
}

// listed is what `gotriton list --json` reports for a file, as QUALNAME@LINE (name where there is no qualname).
func listed(t *testing.T, path string) ([]string, error) {
	code, out := run(t, "list", "--json", path)
	if code != 0 {
		return nil, fmt.Errorf("exit %d: %s", code, out)
	}
	var doc struct {
		Kernels []struct {
			Name     string `json:"name"`
			Qualname string `json:"qualname"`
			Line     int    `json:"line"`
		} `json:"kernels"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		return nil, err
	}
	ks := []string{}
	for _, k := range doc.Kernels {
		name := k.Qualname
		if name == "" {
			name = k.Name
		}
		ks = append(ks, fmt.Sprintf("%s@%d", name, k.Line))
	}
	return ks, nil
}

func difference(a, b []string) []string {
	out := []string{}
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// testDiscovery: `gotriton list --json` finds exactly the kernels CPython's ast finds, file by file.
func testDiscovery(t *testing.T, base string, rels []string) {
	want := oracle(t, base, rels)
	known := knownFailures(t, "list")
	for _, rel := range rels {
		got, err := listed(t, filepath.Join(base, rel))
		k, isKnown := known[knownFailure{Kind: "list", File: rel}.key()]
		if err != nil {
			t.Errorf("%s: gotriton list --json: %v", rel, err)
			continue
		}
		missing, extra := difference(want[rel], got), difference(got, want[rel])
		switch {
		case len(missing)+len(extra) == 0 && isKnown:
			t.Errorf("%s: list now finds exactly the ast's kernels: remove its line from expected.jsonl", rel)
		case len(missing)+len(extra) > 0 && !isKnown:
			t.Errorf("%s: gotriton list misses %v and adds %v", rel, missing, extra)
		case isKnown && !(slices.Equal(missing, k.Missing) && slices.Equal(extra, k.Extra)):
			t.Errorf("%s: list misses %v and adds %v; expected.jsonl says it misses %v and adds %v", rel, missing, extra, k.Missing, k.Extra)
		}
	}
}

var uncheckedWarning = regexp.MustCompile(`(?m)^\S+?:\d+:\d+: warning: kernel '([^']+)' not checked: `)

// testCheck: `gotriton check FILE`, no flags, exits 0 on every file, and the kernels it reports as
// not checked are exactly the ones expected.jsonl lists for the file.
func testCheck(t *testing.T, base string, rels []string) {
	known := knownFailures(t, "check")
	knownUnchecked := knownFailures(t, "unchecked")
	for _, rel := range rels {
		code, out := run(t, "check", filepath.Join(base, rel))
		_, isKnown := known[knownFailure{Kind: "check", File: rel}.key()]
		switch {
		case code == 0 && isKnown:
			t.Errorf("%s: check now passes: remove its line from expected.jsonl", rel)
		case code != 0 && !isKnown:
			t.Errorf("%s: gotriton check exits %d:\n%s", rel, code, out)
		}
		unchecked := []string{}
		for _, m := range uncheckedWarning.FindAllStringSubmatch(out, -1) {
			unchecked = append(unchecked, m[1])
		}
		slices.Sort(unchecked)
		want := knownUnchecked[knownFailure{Kind: "unchecked", File: rel}.key()].Kernels
		if want == nil {
			want = []string{}
		}
		if !slices.Equal(unchecked, want) {
			t.Errorf("%s: check leaves %v unchecked; expected.jsonl says %v (tools/realworld-triage.py --write-expected updates it)", rel, unchecked, want)
		}
	}
}

// testCompile: every specialization compiles to PTX.
func testCompile(t *testing.T, base string, specs []spec) {
	known := knownFailures(t, "compile")
	for _, s := range specs {
		code, out := run(t, "compile", filepath.Join(base, s.File), "-n", s.Kernel, "-s", s.Signature,
			"-w", strconv.Itoa(s.NumWarps), "-ns", strconv.Itoa(s.NumStages), "--emit", "ptx", "-o", os.DevNull)
		_, isKnown := known[knownFailure{Kind: "compile", File: s.File, Kernel: s.Kernel, Signature: s.Signature}.key()]
		switch {
		case code == 0 && isKnown:
			t.Errorf("%s %s [%s] now compiles: remove its line from expected.jsonl", s.File, s.Kernel, s.Signature)
		case code != 0 && !isKnown:
			t.Errorf("%s %s [%s] (%s): exit %d:\n%s", s.File, s.Kernel, s.Signature, s.Launch, code, out)
		}
	}
}

func rels(files []corpusFile) []string {
	out := []string{}
	for _, f := range files {
		out = append(out, f.Rel())
	}
	return out
}

func TestDiscovery(t *testing.T) {
	corpus := corpusDir(t)
	testDiscovery(t, corpus, rels(kernelFiles(t, corpus)))
}

func TestCheck(t *testing.T) {
	corpus := corpusDir(t)
	testCheck(t, corpus, rels(kernelFiles(t, corpus)))
}

func TestCompileSample(t *testing.T) {
	corpus := corpusDir(t)
	kernelFiles(t, corpus)
	testCompile(t, corpus, readJSONLines[spec](t, "specs.jsonl"))
}

// inductorFiles are our own kernels in the shape of PyTorch Inductor's output (inductor/*.py).
func inductorFiles(t *testing.T) []string {
	paths, err := filepath.Glob("inductor/*.py")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no inductor/*.py: %v", err)
	}
	return paths
}

// TestInductor runs discovery, check and the compile of inductor/specs.jsonl on the Inductor-shaped
// examples; it needs no corpus.
func TestInductor(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is needed for the ast oracle")
	}
	files := inductorFiles(t)
	testDiscovery(t, ".", files)
	testCheck(t, ".", files)
	testCompile(t, ".", readJSONLines[spec](t, "inductor/specs.jsonl"))
}
