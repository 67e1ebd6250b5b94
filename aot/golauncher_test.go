package aot

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/internal/golden"
)

// embeddedPTX matches the PTX constant of a Go launcher.
var embeddedPTX = regexp.MustCompile("(?s)(PTX = `).*?(`)")

// TestGoLauncher compares Go launchers with golden files and builds them, with a program
// that uses them, against this module's driver/cuda.
func TestGoLauncher(t *testing.T) {
	files := map[string]string{}
	for _, tc := range []launcherCase{launcherCases[1], matmulAlgos[2]} {
		k := compileCase(t, tc)
		l, err := k.GoLauncher("kernels", tc.outName, tc.grid)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(l.Go, "PTX = `"+k.Result.PTX+"`") {
			t.Errorf("%s does not embed the kernel's PTX", l.Name)
		}
		golden.Check(t, filepath.Join("testdata", "golauncher", tc.outName+".go"), embeddedPTX.ReplaceAllString(l.Go, "${1}(the PTX)${2}"))
		files[l.Name+".go"] = l.Go
	}
	files["use.go"] = `package kernels

import "github.com/gotriton/gotriton/driver/cuda"

// Use launches both kernels, to type-check their signatures.
func Use(d *cuda.Device, a, b, c *cuda.Buffer) error {
	add, err := LoadAddKernel_01feb3de_0d1d2d3d4(d)
	if err != nil {
		return err
	}
	defer add.Unload()
	if err := add.Launch(a, b, c, int32(4096)); err != nil {
		return err
	}
	mm, err := LoadMatmulFp16_99264dbb_0d1d2d3d4d5d6d7c8d9c10d11c1213141516(d)
	if err != nil {
		return err
	}
	return mm.Launch(a, b, c, 512, 512, 512, 512, 512, 512)
}
`
	goBuild(t, files)
}

// goBuild builds files as package kernels of a module that uses this one.
func goBuild(t *testing.T, files map[string]string) {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not on PATH")
	}
	repo := mustAbs(t, "..")
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.mod"] = "module example.com/kernels\n\ngo 1.24\n\nrequire github.com/gotriton/gotriton v0.0.0\n\nreplace github.com/gotriton/gotriton => " + repo + "\n"
	files["go.sum"] = string(sum)
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(gobin, "vet", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "CGO_ENABLED=0", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go vet of the Go launchers: %v\n%s", err, out)
	}
}

func TestGoLauncherBadGrid(t *testing.T) {
	k := compileCase(t, launcherCases[0])
	_, err := k.GoLauncher("kernels", "add", "numel > 0 ? numel / 1024 : 1, 1, 1")
	if err == nil || !strings.HasPrefix(err.Error(), `grid "numel > 0 ? numel / 1024 : 1, 1, 1" is not a Go expression as well as a C one: `) {
		t.Errorf("got %v", err)
	}
}
