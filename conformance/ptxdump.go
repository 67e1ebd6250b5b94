package conformance

import (
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/lower"
	"github.com/gotriton/gotriton/semantic"
	"github.com/gotriton/gotriton/target"
)

// PTXFile is one specialization that DumpPTX compiled (or failed to).
type PTXFile struct {
	// Name is the file's name in the dump folder, "<kernel>.<hash>.ptx"; "" on error.
	Name      string
	Path      string // the kernel source file
	Kernel    string
	Signature string
	NumWarps  int
	NumStages int
	Cases     []string
	Error     string
	// Meta is the launch metadata of the compiled kernel (zero on error).
	Meta PTXMeta
}

// PTXMeta is what a launcher needs besides the PTX text: lower.Metadata's launch fields.
type PTXMeta struct {
	NumWarps, SharedBytes, GlobalScratchBytes, ProfileScratchBytes int
	TensorMaps                                                     []lower.TensorMap
}

// specKey identifies one specialization: the kernel file, kernel, signature, num_warps
// and num_stages. The file is named relative to the corpus it comes from
// ("tutorials/01-vector-add.py", "kernels/vector_add.py"), so that a dump made with
// --tutorials .tutorials here matches a run with --tutorials /elsewhere there. DumpPTX
// names its files by it and PTXDir finds them by it: this is the only key function.
func (r *Runner) specKey(path, kernel, sig string, numWarps, numStages int) string {
	file := filepath.ToSlash(filepath.Clean(path))
	for _, root := range []struct{ name, dir string }{{"tutorials", r.TutorialsDir}, {"kernels", r.KernelsDir}} {
		if root.dir == "" {
			continue
		}
		if rel, err := filepath.Rel(root.dir, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			file = root.name + "/" + filepath.ToSlash(rel)
			break
		}
	}
	return fmt.Sprintf("%s\x00%s\x00%s\x00%d\x00%d", file, kernel, sig, numWarps, numStages)
}

// ptxName is the dump's file name for a specialization: "<kernel>.<fnv32a(key)>.ptx".
func ptxName(kernel, key string) string {
	h := fnv.New32a()
	io.WriteString(h, key)
	return fmt.Sprintf("%s.%08x.ptx", kernel, h.Sum32())
}

// DumpPTX compiles every distinct launch (file, kernel, signature, num_warps, num_stages)
// of the cases matching filter to PTX for target tgt (e.g. "cuda:90:32"), with our own
// emitter or llc (viaLLC), and writes one file per specialization into dir, plus
// dir/index.tsv (ptx, file, kernel, signature, warps, stages, status, cases, then the
// target and the launch metadata that --ptx-dir needs: num_warps, shared, global and
// profile scratch bytes). Nothing runs and no GPU is needed. Cases that cannot run (no
// tutorials folder) are left out.
func (r *Runner) DumpPTX(cases []Case, filter *regexp.Regexp, dir, tgt string, viaLLC bool) ([]PTXFile, error) {
	t, err := target.Parse(tgt)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	compile := r.Compile
	if compile == nil {
		compile = SemanticCompile()
		r.Compile = compile
	}
	var files []*PTXFile
	byKey := map[string]*PTXFile{}
	for _, c := range cases {
		if (filter != nil && !filter.MatchString(c.Name)) || c.Skip != "" {
			continue
		}
		path, err := r.path(c)
		if err != nil {
			continue
		}
		p := c.Build(r.seed(c.Name))
		for i := range p.Steps {
			s := &p.Steps[i]
			sig, err := s.Signature(p.Tensors)
			if err != nil {
				continue
			}
			key := r.specKey(path, s.Kernel, sig, s.NumWarps, s.NumStages)
			if f, ok := byKey[key]; ok {
				f.Cases = append(f.Cases, c.Name)
				continue
			}
			f := &PTXFile{Path: path, Kernel: s.Kernel, Signature: sig, NumWarps: s.NumWarps, NumStages: s.NumStages, Cases: []string{c.Name}}
			byKey[key] = f
			files = append(files, f)
			res, err := compilePTX(compile, path, s, sig, tgt, t, viaLLC)
			if err != nil {
				f.Error = strings.NewReplacer("\n", " ", "\t", " ").Replace(err.Error())
				continue
			}
			f.Name = ptxName(s.Kernel, key)
			f.Meta = PTXMeta{NumWarps: res.Meta.NumWarps, SharedBytes: res.Meta.SharedBytes,
				GlobalScratchBytes: res.Meta.GlobalScratchSize, ProfileScratchBytes: res.Meta.ProfileScratchSize, TensorMaps: res.Meta.TensorMaps}
			if err := os.WriteFile(filepath.Join(dir, f.Name), []byte(res.PTX), 0o644); err != nil {
				return nil, err
			}
		}
	}
	out := make([]PTXFile, len(files))
	for i, f := range files {
		out[i] = *f
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	var b strings.Builder
	b.WriteString(indexHeader + "\n")
	for _, f := range out {
		status := "ok"
		if f.Error != "" {
			status = "error: " + f.Error
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\n", f.Name, f.Path, f.Kernel, f.Signature, f.NumWarps, f.NumStages,
			status, strings.Join(f.Cases, ","), tgt, f.Meta.NumWarps, f.Meta.SharedBytes, f.Meta.GlobalScratchBytes, f.Meta.ProfileScratchBytes,
			formatTensorMaps(f.Meta.TensorMaps))
	}
	return out, os.WriteFile(filepath.Join(dir, "index.tsv"), []byte(b.String()), 0o644)
}

// indexHeader is index.tsv's first line. tools/gpu-report.sh reads columns 3-7; new
// columns go at the end.
const indexHeader = "ptx\tfile\tkernel\tsignature\tnum_warps\tnum_stages\tstatus\tcases\ttarget\tmeta_num_warps\tshared_bytes\tglobal_scratch_bytes\tprofile_scratch_bytes\ttensor_maps"

// formatTensorMaps writes a kernel's tensor maps for index.tsv: SWIZZLE:BOXxBOX..., comma
// separated ("128:128x64,0:64x64"), "-" for none.
func formatTensorMaps(maps []lower.TensorMap) string {
	if len(maps) == 0 {
		return "-"
	}
	out := make([]string, len(maps))
	for i, m := range maps {
		box := make([]string, len(m.Box))
		for d, n := range m.Box {
			box[d] = strconv.Itoa(n)
		}
		out[i] = strconv.Itoa(m.Swizzle) + ":" + strings.Join(box, "x")
	}
	return strings.Join(out, ",")
}

// parseTensorMaps reads formatTensorMaps's text.
func parseTensorMaps(s string) ([]lower.TensorMap, error) {
	if s == "-" {
		return nil, nil
	}
	var maps []lower.TensorMap
	for _, t := range strings.Split(s, ",") {
		sw, box, ok := strings.Cut(t, ":")
		m := lower.TensorMap{}
		var err error
		if m.Swizzle, err = strconv.Atoi(sw); !ok || err != nil {
			return nil, fmt.Errorf("tensor map %q: want SWIZZLE:BOX", t)
		}
		for _, d := range strings.Split(box, "x") {
			n, err := strconv.Atoi(d)
			if err != nil {
				return nil, fmt.Errorf("tensor map %q: box %q", t, box)
			}
			m.Box = append(m.Box, n)
		}
		maps = append(maps, m)
	}
	return maps, nil
}

func compilePTX(compile CompileFunc, path string, s *Step, sig, tgt string, t target.Target, viaLLC bool) (res *compiler.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: %v", p)
		}
	}()
	m, err := compile(path, s.Kernel, semantic.Options{SignatureText: sig, NumWarps: s.NumWarps, NumStages: s.NumStages, Target: tgt})
	if err != nil {
		return nil, err
	}
	res = &compiler.Result{Kernel: s.Kernel, Target: t, NumWarps: s.NumWarps, NumStages: s.NumStages, TileIR: m}
	if err := res.Backend(compiler.PTX, viaLLC, ""); err != nil {
		return nil, err
	}
	return res, nil
}
