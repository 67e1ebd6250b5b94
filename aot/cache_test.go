package aot

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

const cacheKernel = `import triton
import triton.language as tl
from helpers import scale, OFFSET

BIAS = 3


@triton.jit
def unused(x):
    return x + 1


@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, scale(x) + BIAS + OFFSET, mask=mask)
`

const cacheHelpers = `import triton

OFFSET = 1


@triton.jit
def scale(x):
    return x * 2
`

// cacheInput is one compile of the cache tests: the two source files and the options.
type cacheInput struct {
	kernel, helpers string
	opts            compiler.Options
	version         string
}

func baseCacheInput() cacheInput {
	return cacheInput{cacheKernel, cacheHelpers, compiler.Options{Options: semantic.Options{
		SignatureText: "*fp32:16, *fp32:16, i32, 256", NumWarps: 4, NumStages: 3, Target: "cuda:90:32"}}, "v1"}
}

// compileIn writes in's files to dir and compiles the kernel through cache.
func compileIn(t *testing.T, dir string, in cacheInput, cache *Cache) *Compiled {
	t.Helper()
	old := Version
	Version = func() string { return in.version }
	defer func() { Version = old }()
	for name, text := range map[string]string{"k.py": in.kernel, "helpers.py": in.helpers} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := frontend.Load(filepath.Join(dir, "k.py"), pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compile(f, "kernel", in.opts, compiler.PTX, cache)
	if err != nil {
		t.Fatal(err)
	}
	if c.CacheErr != nil {
		t.Fatal(c.CacheErr)
	}
	return c
}

// TestCacheMisses changes one input at a time: every change that can change the output
// must miss the cache, and changes that cannot (an unused function, text after the
// kernel) must hit it.
func TestCacheMisses(t *testing.T) {
	dir := t.TempDir()
	cache := &Cache{Dir: t.TempDir()}
	base := baseCacheInput()
	if c := compileIn(t, dir, base, cache); c.Cached {
		t.Fatal("first compile came from the cache")
	}
	if c := compileIn(t, dir, base, cache); !c.Cached {
		t.Fatal("second compile missed the cache")
	}
	kernelEdit := func(old, new string) func(*cacheInput) {
		return func(in *cacheInput) { in.kernel = strings.Replace(in.kernel, old, new, 1) }
	}
	for _, tt := range []struct {
		name   string
		change func(*cacheInput)
		miss   bool
	}{
		{"kernel body", kernelEdit("mask=mask)\n    tl.store", "mask=mask, other=0.0)\n    tl.store"), true},
		{"jit function it calls, in another file", func(in *cacheInput) { in.helpers = strings.Replace(in.helpers, "x * 2", "x * 3", 1) }, true},
		{"global it reads", kernelEdit("BIAS = 3", "BIAS = 4"), true},
		{"global of another module", func(in *cacheInput) { in.helpers = strings.Replace(in.helpers, "OFFSET = 1", "OFFSET = 2", 1) }, true},
		{"decorator", kernelEdit("@triton.jit\ndef kernel", "@triton.jit(do_not_specialize=['n'])\ndef kernel"), true},
		{"kernel moved down a line", kernelEdit("BIAS = 3\n", "BIAS = 3\n\n"), true},
		{"hint", func(in *cacheInput) { in.opts.SignatureText = "*fp32:16, *fp32, i32, 256" }, true},
		{"type", func(in *cacheInput) { in.opts.SignatureText = "*fp16:16, *fp32:16, i32, 256" }, true},
		{"constexpr", func(in *cacheInput) { in.opts.SignatureText = "*fp32:16, *fp32:16, i32, 512" }, true},
		{"constexpr from the default", func(in *cacheInput) {
			in.kernel = strings.Replace(in.kernel, "BLOCK: tl.constexpr", "BLOCK: tl.constexpr = 256", 1)
			in.opts.SignatureText = "*fp32:16, *fp32:16, i32"
		}, true},
		{"num_warps", func(in *cacheInput) { in.opts.NumWarps = 8 }, true},
		{"num_stages", func(in *cacheInput) { in.opts.NumStages = 2 }, true},
		{"target", func(in *cacheInput) { in.opts.Target = "cuda:80:32" }, true},
		{"debug", func(in *cacheInput) { in.opts.Debug = true }, true},
		{"enable_fp_fusion", func(in *cacheInput) { in.opts.NoFPFusion = true }, true},
		{"enable_reflect_ftz", func(in *cacheInput) { in.opts.NoReflectFTZ = true }, true},
		{"maxnreg", func(in *cacheInput) { in.opts.MaxNReg = 64 }, true},
		{"via llc", func(in *cacheInput) { in.opts.ViaLLC, in.opts.LLC = true, "/nonexistent/llc" }, true},
		{"gotriton version", func(in *cacheInput) { in.version = "v2" }, true},
		{"function it does not call", kernelEdit("return x + 1", "return x + 2"), false},
		{"text after the kernel", func(in *cacheInput) { in.kernel += "\n# the end\n" }, false},
		{"helper text after its functions", func(in *cacheInput) { in.helpers += "\nUNUSED = 5\n" }, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := baseCacheInput()
			tt.change(&in)
			if tt.name == "via llc" {
				// llc is not needed to see the key change: look the entry up only.
				compileKeyOnly(t, dir, in, cache, true)
				return
			}
			c := compileIn(t, dir, in, cache)
			if c.Cached == tt.miss {
				t.Errorf("cached = %v, want a %s", c.Cached, map[bool]string{true: "miss", false: "hit"}[tt.miss])
			}
		})
	}
}

// compileKeyOnly checks whether in's key has a cache entry, without compiling.
func compileKeyOnly(t *testing.T, dir string, in cacheInput, cache *Cache, wantMiss bool) {
	t.Helper()
	old := Version
	Version = func() string { return in.version }
	defer func() { Version = old }()
	os.WriteFile(filepath.Join(dir, "k.py"), []byte(in.kernel), 0o644)
	os.WriteFile(filepath.Join(dir, "helpers.py"), []byte(in.helpers), 0o644)
	f, err := frontend.Load(filepath.Join(dir, "k.py"), pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := f.Kernel("kernel")
	spec, err := semantic.Specialize(f, k, in.opts.Options)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cache.Get(Key(k.JIT, spec, in.opts), ptxFile, metaFile); ok == wantMiss {
		t.Errorf("entry present = %v", ok)
	}
}

// fillerSpecs are the compiles each cache-filling process makes.
func fillerSpecs() []compiler.Options {
	var out []compiler.Options
	for _, block := range []int{64, 128, 256, 512, 1024, 2048} {
		for _, warps := range []int{1, 4} {
			out = append(out, compiler.Options{Options: semantic.Options{
				SignatureText: fmt.Sprintf("*fp32:16, *fp32:16, *fp32:16, i32, %d", block), NumWarps: warps}})
		}
	}
	return out
}

// TestCacheFillerProcess is the child of TestCacheConcurrentProcesses: it fills the cache
// named by GOTRITON_TEST_CACHE_FILL and prints each key.
func TestCacheFillerProcess(t *testing.T) {
	dir := os.Getenv("GOTRITON_TEST_CACHE_FILL")
	if dir == "" {
		t.Skip("run by TestCacheConcurrentProcesses")
	}
	f, err := frontend.Load("../conformance/kernels/vector_add.py", pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range fillerSpecs() {
		c, err := Compile(f, "vector_add_kernel", opts, compiler.PTX, &Cache{Dir: dir})
		if err != nil || c.CacheErr != nil {
			t.Fatal(err, c.CacheErr)
		}
		fmt.Printf("key %s\n", c.Key)
	}
}

// TestCacheConcurrentProcesses runs two processes that fill one cache with the same
// kernels at once, then checks that every entry is complete and right, that no temporary
// folder is left, and that a later compile hits every entry.
func TestCacheConcurrentProcesses(t *testing.T) {
	dir := t.TempDir()
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for i := 0; i < 2; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCacheFillerProcess$", "-test.v")
		cmd.Env = append(os.Environ(), "GOTRITON_TEST_CACHE_FILL="+dir)
		out := new(bytes.Buffer)
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	var keys [2][]string
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("process %d: %v\n%s", i, err, outs[i])
		}
		sc := bufio.NewScanner(outs[i])
		for sc.Scan() {
			if k, ok := strings.CutPrefix(sc.Text(), "key "); ok {
				keys[i] = append(keys[i], k)
			}
		}
	}
	if len(keys[0]) != len(fillerSpecs()) || strings.Join(keys[0], ",") != strings.Join(keys[1], ",") {
		t.Fatalf("the processes made keys %v and %v", keys[0], keys[1])
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary folders left: %v", leftovers)
	}
	f, err := frontend.Load("../conformance/kernels/vector_add.py", pyeval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cache := &Cache{Dir: dir}
	for i, opts := range fillerSpecs() {
		fresh, err := Compile(f, "vector_add_kernel", opts, compiler.PTX, nil)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Compile(f, "vector_add_kernel", opts, compiler.PTX, cache)
		if err != nil {
			t.Fatal(err)
		}
		if !c.Cached || c.Key != keys[0][i] || c.Result.PTX != fresh.Result.PTX || !reflect.DeepEqual(c.Result.Meta, fresh.Result.Meta) {
			t.Errorf("spec %d: cached %v, key %s (process made %s), PTX equal %v, metadata %+v vs %+v",
				i, c.Cached, c.Key, keys[0][i], c.Result.PTX == fresh.Result.PTX, c.Result.Meta, fresh.Result.Meta)
		}
	}
}

// TestCachePutRace stores one entry from many goroutines at once: every Put succeeds,
// the entry is whole, and no temporary folder is left.
func TestCachePutRace(t *testing.T) {
	cache := &Cache{Dir: t.TempDir()}
	key := strings.Repeat("ab", 32)
	files := map[string][]byte{ptxFile: bytes.Repeat([]byte("ptx "), 1<<16), metaFile: []byte(`{"Name":"k"}`)}
	errs := make(chan error)
	for i := 0; i < 8; i++ {
		go func() { errs <- cache.Put(key, files) }()
	}
	for i := 0; i < 8; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	got, ok := cache.Get(key, ptxFile, metaFile)
	if !ok || !bytes.Equal(got[ptxFile], files[ptxFile]) || !bytes.Equal(got[metaFile], files[metaFile]) {
		t.Errorf("entry missing or wrong after concurrent Puts")
	}
	if left, _ := filepath.Glob(filepath.Join(cache.Dir, "ab", ".tmp-*")); len(left) > 0 {
		t.Errorf("temporary folders left: %v", left)
	}
}

// TestKeyFollowsConstexprFunctions changes a jit function that only an autotune config
// names (passed to the kernel as a constexpr): the key must change.
func TestKeyFollowsConstexprFunctions(t *testing.T) {
	dir := t.TempDir()
	kernel := `import triton
import triton.language as tl
import act


@triton.autotune(configs=[triton.Config({"ACT": act.double})], key=[])
@triton.jit
def kernel(x_ptr, n, ACT: tl.constexpr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, ACT(x), mask=offs < n)
`
	key := func(body string) string {
		os.WriteFile(filepath.Join(dir, "k.py"), []byte(kernel), 0o644)
		os.WriteFile(filepath.Join(dir, "act.py"), []byte("import triton\n\n\n@triton.jit\ndef double(x):\n    return "+body+"\n"), 0o644)
		f, err := frontend.Load(filepath.Join(dir, "k.py"), pyeval.Options{})
		if err != nil {
			t.Fatal(err)
		}
		opts := compiler.Options{Options: semantic.Options{SignatureText: "*fp32:16, i32"}}
		c, err := Compile(f, "kernel", opts, compiler.LLVM, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(c.Metadata().JSON(), `"value": "double"`) {
			t.Errorf("metadata does not name the constexpr function:\n%s", c.Metadata().JSON())
		}
		return c.Key
	}
	if a, b := key("x * 2"), key("x + x"); a == b {
		t.Error("changing the jit function an autotune config passes kept the key")
	}
}
