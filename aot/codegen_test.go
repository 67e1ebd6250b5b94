package aot

import (
	"strings"
	"testing"

	"github.com/gotriton/gotriton/compiler"
)

// TestCodegenMetadata compiles the cache tests' kernel under Triton's maxnreg and
// enable_reflect_ftz options, each twice through one cache: the metadata reports them
// under Triton's keys (maxnreg null when unset), for the compile and for the cache hit
// alike, and the PTX has .maxnreg exactly when it is set.
func TestCodegenMetadata(t *testing.T) {
	dir := t.TempDir()
	cache := &Cache{Dir: t.TempDir()}
	for _, tt := range []struct {
		codegen compiler.Codegen
		want    []string
	}{
		{compiler.Codegen{}, []string{`"maxnreg": null,`, `"enable_reflect_ftz": true,`}},
		{compiler.Codegen{MaxNReg: 42}, []string{`"maxnreg": 42,`, `"enable_reflect_ftz": true,`}},
		{compiler.Codegen{NoReflectFTZ: true}, []string{`"maxnreg": null,`, `"enable_reflect_ftz": false,`}},
		{compiler.Codegen{NoReflectFTZ: true, MaxNReg: 128}, []string{`"maxnreg": 128,`, `"enable_reflect_ftz": false,`}},
	} {
		in := baseCacheInput()
		in.opts.Codegen = tt.codegen
		for _, wantCached := range []bool{false, true} {
			c := compileIn(t, dir, in, cache)
			if c.Cached != wantCached {
				t.Fatalf("%+v: cached = %v, want %v", tt.codegen, c.Cached, wantCached)
			}
			if c.Result.Codegen != tt.codegen {
				t.Errorf("%+v (cached %v): Result.Codegen %+v", tt.codegen, c.Cached, c.Result.Codegen)
			}
			js := c.MetadataJSON()
			for _, w := range tt.want {
				if !strings.Contains(js, w) {
					t.Errorf("%+v (cached %v): metadata lacks %s:\n%s", tt.codegen, c.Cached, w, js)
				}
			}
			if got := strings.Contains(c.Result.PTX, ".maxnreg "); got != (tt.codegen.MaxNReg > 0) {
				t.Errorf("%+v (cached %v): .maxnreg in the PTX = %v", tt.codegen, c.Cached, got)
			}
		}
	}
}
