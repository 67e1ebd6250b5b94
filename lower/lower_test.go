package lower

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llir/llvm/ir"

	"github.com/gotriton/gotriton/internal/golden"
	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// ttirDir holds the TTIR that Triton 3.6 printed for our own kernels.
const ttirDir = "../semantic/testdata/ttir"

func lowerFile(t *testing.T, name string) (string, Metadata, error) {
	t.Helper()
	return lowerFileFor(t, name, target.Default)
}

// lowerSource lowers a TTIR module given as text for sm_90 with 4 warps and returns the
// LLVM IR text; a parse error fails the test.
func lowerSource(t *testing.T, name, src string) (string, error) {
	t.Helper()
	m, err := tileir.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	mod, _, err := Lower(m, target.Default, Options{Options: isa.Options{NumWarps: 4}})
	if err != nil {
		return "", err
	}
	return mod.String(), nil
}

// lowerFileFor is lowerFile for the target tg.
func lowerFileFor(t *testing.T, name string, tg target.Target) (string, Metadata, error) {
	t.Helper()
	mod, md, err := lowerTTIR(t, name, tg)
	if err != nil {
		return "", md, err
	}
	return mod.String(), md, nil
}

// lowerTTIR reads, parses, verifies and lowers testdata TTIR for tg with the num_warps
// Triton used; a file that does not parse or verify fails the test.
func lowerTTIR(t *testing.T, name string, tg target.Target) (*ir.Module, Metadata, error) {
	t.Helper()
	return Lower(parseTTIR(t, name), tg, Options{Options: isa.Options{NumWarps: numWarps(name)}})
}

// parseTTIR reads, parses and verifies testdata TTIR; a file that does not parse or
// verify fails the test.
func parseTTIR(t *testing.T, name string) *tileir.Module {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(ttirDir, name+".ttir"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := tileir.Parse(name+".ttir", string(src))
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	if err := tileir.Verify(m); err != nil {
		t.Fatalf("verify %s: %v", name, err)
	}
	return m
}

// numWarps is the num_warps Triton compiled a specialization with, from the metadata in
// .build/triton-ref (4 when that is absent).
func numWarps(name string) int {
	parts := strings.Split(name, ".") // stem.kernel.variant
	dir := filepath.Join("../.build/triton-ref/ttir", parts[0])
	if parts[2] != "default" {
		dir = filepath.Join(dir, parts[2])
	}
	data, err := os.ReadFile(filepath.Join(dir, parts[1]+".json"))
	var md struct {
		NumWarps int `json:"num_warps"`
	}
	if err != nil || json.Unmarshal(data, &md) != nil || md.NumWarps == 0 {
		return 4
	}
	return md.NumWarps
}

// goldens are the kernels whose LLVM IR is compared against testdata/<name>.ll.
var goldens = []string{
	"vector_add.vector_add_kernel.default",
	"softmax.row_softmax_kernel.default",
}

func TestGolden(t *testing.T) {
	for _, name := range goldens {
		t.Run(name, func(t *testing.T) {
			got, _, err := lowerFile(t, name)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", name+".ll"), got)
		})
	}
}

// llc returns the path of llc-22, or skips the test (fails it when CI is set).
func llc(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("llc-22")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("llc-22 not found (install Debian's llvm-22)")
		}
		t.Skip("llc-22 not found; install Debian's llvm-22 to run this test")
	}
	return p
}

// TestLLC lowers every kernel of our own set and has llc-22 compile it to PTX. Kernels
// that use features not lowered yet must fail with a located error, never a panic.
func TestLLC(t *testing.T) {
	bin := llc(t)
	files, _ := filepath.Glob(filepath.Join(ttirDir, "*.ttir"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".ttir")
		t.Run(name, func(t *testing.T) {
			ll, _, err := lowerFile(t, name)
			if err != nil {
				if strings.Contains(err.Error(), "not supported") {
					t.Skipf("unsupported: %v", err)
				}
				t.Fatal(err)
			}
			dir := t.TempDir()
			in := filepath.Join(dir, "k.ll")
			if err := os.WriteFile(in, []byte(ll), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(bin, "-march=nvptx64", "-mcpu=sm_90", "-mattr=+ptx84", in, "-o", filepath.Join(dir, "k.ptx")).CombinedOutput()
			if err != nil {
				t.Fatalf("llc-22 rejected %s: %v\n%s", name, err, out)
			}
		})
	}
}
