package amdgcn

import (
	"bytes"
	"debug/elf"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/target"
)

var update = flag.Bool("update", false, "rewrite the golden metadata files in testdata")

// needTools skips the test where LLVM 22's tools are not installed.
func needTools(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range append([]string{"opt-22", "llc-22", "ld.lld-22"}, names...) {
		if _, err := exec.LookPath(n); err != nil {
			t.Skipf("%s is not installed (Debian's llvm-22 and lld-22)", n)
		}
	}
}

func hip(t *testing.T, arch string) target.Target {
	t.Helper()
	tg, err := target.Parse("hip:" + arch + ":64")
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// kernels are the hand-written kernels of testdata and instructions their assembly must
// hold on each architecture.
var kernels = []struct {
	file string
	want map[string][]string
}{
	{"vector_add.ll", map[string][]string{
		"gfx90a": {"global_load_dword ", "global_store_dword "},
		"gfx942": {"global_load_dword ", "global_store_dword "},
	}},
	{"lds_reduce.ll", map[string][]string{
		"gfx90a": {"ds_bpermute_b32", "s_barrier", "ds_write_b32", "ds_read_b128"},
		"gfx942": {"ds_bpermute_b32", "s_barrier", "ds_write_b32", "ds_read_b128"},
	}},
	// opt -O3's attributor marks the kernel amdgpu-no-agpr (it calls nothing), so the
	// accumulator lives in VGPRs, as in Triton's code objects.
	{"mfma.ll", map[string][]string{
		"gfx90a": {"v_mfma_f32_32x32x8f16 v[2:17]"},
		"gfx942": {"v_mfma_f32_32x32x8_f16 v[2:17]"},
	}},
	{"printf.ll", map[string][]string{
		"gfx90a": {"global_atomic_cmpswap", "global_store_dwordx2"},
		"gfx942": {"global_atomic_cmpswap", "global_store_dwordx2"},
	}},
	{"private_array.ll", map[string][]string{
		"gfx90a": {"buffer_store_dword", "buffer_load_dword"},
		"gfx942": {"scratch_store_dword", "scratch_load_dword"},
	}},
}

// TestCompile compiles every kernel of testdata for gfx90a and gfx942 and checks the
// metadata read back against golden files, against llvm-readelf-22's own reading of the
// same note, and that llvm-mc-22 re-assembles the assembly into the same code.
func TestCompile(t *testing.T) {
	needTools(t, "llvm-mc-22", "llvm-readelf-22")
	for _, k := range kernels {
		src, err := os.ReadFile(filepath.Join("testdata", k.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, arch := range []string{"gfx90a", "gfx942"} {
			t.Run(k.file+"/"+arch, func(t *testing.T) {
				r, err := Compile(string(src), hip(t, arch), Options{Name: k.file})
				if err != nil {
					t.Fatal(err)
				}
				got, err := json.MarshalIndent(r.CodeObject, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				golden := filepath.Join("testdata", strings.TrimSuffix(k.file, ".ll")+"."+arch+".json")
				checkGolden(t, golden, append(got, '\n'))
				for _, ins := range k.want[arch] {
					if !strings.Contains(r.Assembly, ins) {
						t.Errorf("the assembly has no %q", ins)
					}
				}
				checkReassembly(t, r, arch)
				checkReadelf(t, r)
			})
		}
	}
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("metadata differs from %s:\n got %s\nwant %s", path, got, want)
	}
}

// checkReassembly assembles r.Assembly with llvm-mc-22, requires the same machine code as
// llc's object, links it, and requires the same metadata.
func checkReassembly(t *testing.T, r *Result, arch string) {
	t.Helper()
	cmd := exec.Command("llvm-mc-22", "-triple="+Triple, "-mcpu="+arch, "-filetype=obj", "-o", "-")
	cmd.Stdin = strings.NewReader(r.Assembly)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	obj, err := cmd.Output()
	if err != nil {
		t.Fatalf("llvm-mc-22: %v\n%s", err, stderr.String())
	}
	if a, b := section(t, obj, ".text"), section(t, r.Object, ".text"); !bytes.Equal(a, b) {
		t.Errorf("llvm-mc-22's .text (%d bytes) differs from llc's (%d bytes)", len(a), len(b))
	}
	hsaco, err := Link(obj, "")
	if err != nil {
		t.Fatal(err)
	}
	co, err := ReadCodeObject(hsaco)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(co, r.CodeObject) {
		t.Errorf("the re-assembled code object's metadata differs:\n got %+v\nwant %+v", co, r.CodeObject)
	}
}

func section(t *testing.T, obj []byte, name string) []byte {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(obj))
	if err != nil {
		t.Fatal(err)
	}
	s := f.Section(name)
	if s == nil {
		t.Fatalf("no section %s", name)
	}
	data, err := s.Data()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// yamlScalar matches a "  .key: value" line of llvm-readelf's YAML dump of the metadata.
var yamlScalar = regexp.MustCompile(`^\s*(?:- )?\.([a-z_]+):\s+(\S+)$`)

// checkReadelf compares the kernel's scalar metadata with what llvm-readelf-22 prints,
// and requires the .kd symbol among the dynamic symbols.
func checkReadelf(t *testing.T, r *Result) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "kernel.hsaco")
	if err := os.WriteFile(path, r.HSACO, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("llvm-readelf-22", "--notes", "--dyn-syms", path).CombinedOutput()
	if err != nil {
		t.Fatalf("llvm-readelf-22: %v\n%s", err, out)
	}
	text := string(out)
	if !regexp.MustCompile(`OBJECT\s+GLOBAL\s+\S+\s+\d+\s+` + regexp.QuoteMeta(r.Kernel.Symbol) + `\n`).MatchString(text) {
		t.Errorf("llvm-readelf-22 lists no object symbol %s:\n%s", r.Kernel.Symbol, text)
	}
	for _, f := range r.CodeObject.Printf {
		if !strings.Contains(text, strconv.Quote(f)) {
			t.Errorf("llvm-readelf-22 lists no printf format %q:\n%s", f, text)
		}
	}
	k := r.Kernel
	want := map[string]int{
		"vgpr_count": k.VGPRs, "sgpr_count": k.SGPRs, "agpr_count": k.AGPRs,
		"vgpr_spill_count": k.VGPRSpills, "sgpr_spill_count": k.SGPRSpills,
		"group_segment_fixed_size": k.LDSBytes, "private_segment_fixed_size": k.ScratchBytes,
		"wavefront_size": k.WavefrontSize, "kernarg_segment_size": k.KernargBytes,
		"kernarg_segment_align": k.KernargAlign, "max_flat_workgroup_size": k.MaxFlatWorkgroupSize,
	}
	seen := 0
	for _, line := range strings.Split(text, "\n") {
		m := yamlScalar.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		w, ok := want[m[1]]
		if !ok {
			continue
		}
		seen++
		if n, err := strconv.Atoi(m[2]); err != nil || n != w {
			t.Errorf("llvm-readelf-22 says .%s: %s, we read %d", m[1], m[2], w)
		}
	}
	if seen != len(want) {
		t.Errorf("llvm-readelf-22 printed %d of the %d scalar keys:\n%s", seen, len(want), text)
	}
	if !strings.Contains(text, "NT_AMDGPU_METADATA") {
		t.Errorf("llvm-readelf-22 finds no NT_AMDGPU_METADATA note")
	}
}

// descriptorOffset is the file offset of the kernel descriptor sym in a linked code object.
func descriptorOffset(t *testing.T, hsaco []byte, sym string) int {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(hsaco))
	if err != nil {
		t.Fatal(err)
	}
	syms, err := f.DynamicSymbols()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range syms {
		if s.Name == sym {
			sec := f.Sections[s.Section]
			return int(s.Value - sec.Addr + sec.Offset)
		}
	}
	t.Fatalf("no symbol %s", sym)
	return 0
}
