package aot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFPFusionOption compiles the cache tests' kernel (x * 2 + 3 + 1) with and without
// Triton's enable_fp_fusion, each twice through one cache: the PTX contracts the multiply
// and the first add into fma.rn.f32 exactly when fusion is on, and the metadata says so,
// for the compile and for the cache hit alike.
func TestFPFusionOption(t *testing.T) {
	dir := t.TempDir()
	cache := &Cache{Dir: t.TempDir()}
	for _, off := range []bool{false, true} {
		in := baseCacheInput()
		in.opts.NoFPFusion = off
		for _, wantCached := range []bool{false, true} {
			c := compileIn(t, dir, in, cache)
			if c.Cached != wantCached {
				t.Fatalf("NoFPFusion %v: cached = %v, want %v", off, c.Cached, wantCached)
			}
			ptx := c.Result.PTX
			if fused := strings.Contains(ptx, "fma.rn.f32"); fused == off {
				t.Errorf("NoFPFusion %v (cached %v): fma.rn.f32 in the PTX = %v", off, c.Cached, fused)
			}
			if rounded := strings.Contains(ptx, "add.rn.f32"); rounded != off {
				t.Errorf("NoFPFusion %v (cached %v): add.rn.f32 in the PTX = %v", off, c.Cached, rounded)
			}
			if md := c.Metadata(); md.EnableFPFusion == off || !strings.Contains(c.MetadataJSON(), `"enable_fp_fusion": `+map[bool]string{false: "true", true: "false"}[off]) {
				t.Errorf("NoFPFusion %v (cached %v): metadata enable_fp_fusion %v", off, c.Cached, md.EnableFPFusion)
			}
		}
	}
}

// TestAssembleFmad runs Assemble with a stand-in ptxas that records its arguments: without
// fusion it gets --fmad=false, as Triton's make_cubin passes it, and with fusion it does not.
func TestAssembleFmad(t *testing.T) {
	dir := t.TempDir()
	ptxas, args := filepath.Join(dir, "ptxas"), filepath.Join(dir, "args")
	script := "#!/bin/sh\n" +
		"if [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 13.0, V13.0.48'; exit 0; fi\n" +
		"echo \"$@\" > " + args + "\n" +
		"while [ $# -gt 1 ]; do if [ \"$1\" = -o ]; then echo cubin > \"$2\"; fi; shift; done\n"
	if err := os.WriteFile(ptxas, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, fusion := range []bool{true, false} {
		bin, err := Assemble(".version 8.4\n", "sm_90a", ptxas, fusion)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(args)
		if err != nil {
			t.Fatal(err)
		}
		if bin.Kind != "cubin" || string(bin.Data) != "cubin\n" {
			t.Errorf("fusion %v: binary %q of kind %s", fusion, bin.Data, bin.Kind)
		}
		if fmad := strings.HasPrefix(string(got), "--fmad=false "); fmad == fusion || !strings.Contains(string(got), "--gpu-name=sm_90a") {
			t.Errorf("fusion %v: ptxas %s", fusion, got)
		}
	}
}
