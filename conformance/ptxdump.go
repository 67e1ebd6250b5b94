package conformance

import (
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/gotriton/gotriton/compiler"
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
}

// DumpPTX compiles every distinct launch (file, kernel, signature, num_warps, num_stages)
// of the cases matching filter to PTX for target tgt (e.g. "cuda:90:32"), with our own
// emitter or llc (viaLLC), and writes one file per specialization into dir, plus
// dir/index.tsv (file, kernel, signature, warps, stages, status, cases). Nothing runs and
// no GPU is needed. Cases that cannot run (no tutorials folder) are left out.
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
			key := fmt.Sprintf("%s\x00%s\x00%s\x00%d\x00%d", path, s.Kernel, sig, s.NumWarps, s.NumStages)
			if f, ok := byKey[key]; ok {
				f.Cases = append(f.Cases, c.Name)
				continue
			}
			f := &PTXFile{Path: path, Kernel: s.Kernel, Signature: sig, NumWarps: s.NumWarps, NumStages: s.NumStages, Cases: []string{c.Name}}
			byKey[key] = f
			files = append(files, f)
			h := fnv.New32a()
			io.WriteString(h, key)
			ptx, err := compilePTX(compile, path, s, sig, tgt, t, viaLLC)
			if err != nil {
				f.Error = strings.ReplaceAll(err.Error(), "\n", " ")
				continue
			}
			f.Name = fmt.Sprintf("%s.%08x.ptx", s.Kernel, h.Sum32())
			if err := os.WriteFile(filepath.Join(dir, f.Name), []byte(ptx), 0o644); err != nil {
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
	b.WriteString("ptx\tfile\tkernel\tsignature\tnum_warps\tnum_stages\tstatus\tcases\n")
	for _, f := range out {
		status := "ok"
		if f.Error != "" {
			status = "error: " + f.Error
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\n", f.Name, f.Path, f.Kernel, f.Signature, f.NumWarps, f.NumStages, status, strings.Join(f.Cases, ","))
	}
	return out, os.WriteFile(filepath.Join(dir, "index.tsv"), []byte(b.String()), 0o644)
}

func compilePTX(compile CompileFunc, path string, s *Step, sig, tgt string, t target.Target, viaLLC bool) (ptx string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: %v", p)
		}
	}()
	m, err := compile(path, s.Kernel, semantic.Options{SignatureText: sig, NumWarps: s.NumWarps, NumStages: s.NumStages, Target: tgt})
	if err != nil {
		return "", err
	}
	res := &compiler.Result{Kernel: s.Kernel, Target: t, NumWarps: s.NumWarps, NumStages: s.NumStages, TileIR: m}
	if err := res.Backend(compiler.PTX, viaLLC, ""); err != nil {
		return "", err
	}
	return res.PTX, nil
}
