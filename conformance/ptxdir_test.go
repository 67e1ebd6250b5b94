package conformance

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/tileir"
)

var ptxDirCases = regexp.MustCompile(`^ours/vector_add/`)

func dumpForTest(t *testing.T, viaLLC bool) (string, []PTXFile) {
	t.Helper()
	dir := t.TempDir()
	r := &Runner{KernelsDir: "kernels"}
	files, err := r.DumpPTX(AllCases(), ptxDirCases, dir, "cuda:90:32", viaLLC)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 5 {
		t.Fatalf("%d specializations: %+v", len(files), files)
	}
	for _, f := range files {
		if f.Error != "" {
			t.Fatalf("%s [%s]: %s", f.Kernel, f.Signature, f.Error)
		}
		if f.Meta.NumWarps != f.NumWarps {
			t.Errorf("%s: meta num_warps %d, launch %d", f.Name, f.Meta.NumWarps, f.NumWarps)
		}
	}
	return dir, files
}

// TestDumpPTXViaLLC dumps the same cases with our emitter and with llc-22: the same file
// names (the key does not depend on the emitter), different PTX.
func TestDumpPTXViaLLC(t *testing.T) {
	if _, err := exec.LookPath("llc-22"); err != nil {
		if _, err := exec.LookPath("llc"); err != nil {
			t.Skip("no llc-22 or llc on PATH")
		}
	}
	own, ownFiles := dumpForTest(t, false)
	llc, llcFiles := dumpForTest(t, true)
	for i := range ownFiles {
		if ownFiles[i].Name != llcFiles[i].Name || !reflect.DeepEqual(ownFiles[i].Meta, llcFiles[i].Meta) {
			t.Errorf("own %+v, llc %+v", ownFiles[i], llcFiles[i])
		}
		a, _ := os.ReadFile(filepath.Join(own, ownFiles[i].Name))
		b, _ := os.ReadFile(filepath.Join(llc, llcFiles[i].Name))
		if !strings.Contains(string(b), "NVPTX") || strings.Contains(string(a), "NVPTX") || !strings.Contains(string(b), ".entry vector_add_kernel") {
			t.Errorf("%s: llc's PTX does not look like llc's:\n%.400s", llcFiles[i].Name, b)
		}
	}
	idx, err := os.ReadFile(filepath.Join(llc, "index.tsv"))
	if err != nil || !strings.HasPrefix(string(idx), indexHeader+"\n") || !strings.Contains(string(idx), "\tcuda:90:32\t4\t0\t0\t0\t-\n") {
		t.Fatalf("index.tsv: %v\n%s", err, idx)
	}
}

// fakePTXDevice is the CPU interpreter behind a PTX folder's Load: every kernel must be
// found in the folder (as the cuda device requires), then runs from its tile IR.
func fakePTXDevice(t *testing.T, p *PTXDir, loaded *[]string) *Device {
	dev := CPUDevice(2)
	cpuLoad := dev.Load
	ptxLoad := PTXDirLoad(p, func(text, kernel string, meta PTXMeta) (driver.Kernel, error) {
		if !strings.Contains(text, ".entry "+kernel+"(") || meta.NumWarps == 0 {
			return nil, fmt.Errorf("fake: bad PTX or metadata for %s: %+v", kernel, meta)
		}
		*loaded = append(*loaded, kernel)
		return nil, nil
	})
	dev.Load = func(m *tileir.Module, kernel string, numWarps, numStages int) (Kernel, error) {
		if _, err := ptxLoad(m, kernel, numWarps, numStages); err != nil {
			return Kernel{}, err
		}
		return cpuLoad(m, kernel, numWarps, numStages)
	}
	return dev
}

func TestPTXDirLoad(t *testing.T) {
	dir, files := dumpForTest(t, false)
	p, err := OpenPTXDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Target != "cuda:90:32" || p.Len() != 5 {
		t.Fatalf("target %q, %d files", p.Target, p.Len())
	}
	// The kernel folder spelt differently from the dump's: the key is relative to it.
	abs, err := filepath.Abs("kernels")
	if err != nil {
		t.Fatal(err)
	}
	var loaded []string
	r := &Runner{Device: fakePTXDevice(t, p, &loaded), KernelsDir: abs + string(filepath.Separator)}
	p.Attach(r)
	rep := r.Run(AllCases(), ptxDirCases)
	if rep.Failed != 0 || rep.Passed == 0 || len(loaded) != 5 {
		t.Fatalf("%s, %d loaded: %+v", rep.Summary(), len(loaded), rep.Results)
	}

	// A missing file fails only the cases that need it, with the specialization named.
	missing := files[0]
	if err := os.Remove(filepath.Join(dir, missing.Name)); err != nil {
		t.Fatal(err)
	}
	loaded = nil
	r = &Runner{Device: fakePTXDevice(t, p, &loaded), KernelsDir: "kernels"}
	p.Attach(r)
	rep = r.Run(AllCases(), ptxDirCases)
	if rep.Failed != len(missing.Cases) || rep.Passed == 0 {
		t.Fatalf("%s: %+v", rep.Summary(), rep.Results)
	}
	for _, res := range rep.Results {
		if res.Status == Fail && (!strings.Contains(res.Error, "--ptx-dir") || !strings.Contains(res.Error, missing.Name) || !strings.Contains(res.Error, missing.Signature)) {
			t.Errorf("%s: %s", res.Case, res.Error)
		}
	}
}

func TestPTXDirGzipAndErrors(t *testing.T) {
	dir, files := dumpForTest(t, false)
	// gzip -r on the folder: Find reads NAME.gz.
	name := filepath.Join(dir, files[1].Name)
	if out, err := exec.Command("gzip", name).CombinedOutput(); err != nil {
		t.Skipf("gzip: %v %s", err, out)
	}
	p, err := OpenPTXDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var loaded []string
	r := &Runner{Device: fakePTXDevice(t, p, &loaded), KernelsDir: "kernels"}
	p.Attach(r)
	if rep := r.Run(AllCases(), ptxDirCases); rep.Failed != 0 || len(loaded) != 5 {
		t.Fatalf("%s: %+v", rep.Summary(), rep.Results)
	}

	// A module that did not come through Attach's compile step.
	if _, _, err := p.Find(&tileir.Module{}); err == nil || !strings.Contains(err.Error(), "Attach") {
		t.Errorf("unattached module: %v", err)
	}
	// No index; an index of another format.
	if _, err := OpenPTXDir(t.TempDir()); err == nil || !strings.Contains(err.Error(), "--dump-ptx") {
		t.Errorf("no index: %v", err)
	}
	old := t.TempDir()
	os.WriteFile(filepath.Join(old, "index.tsv"), []byte("ptx\tfile\tkernel\tsignature\tnum_warps\tnum_stages\tstatus\tcases\n"), 0o644)
	if _, err := OpenPTXDir(old); err == nil || !strings.Contains(err.Error(), "dump it again") {
		t.Errorf("old index: %v", err)
	}
}
