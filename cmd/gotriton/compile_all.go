package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/gotriton/gotriton/aot"
	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/launch"
	"github.com/gotriton/gotriton/pyeval"
)

// emitExtensions name the files of the stages --emit adds next to the PTX.
var emitExtensions = map[string]string{"tileir": ".ttir", "llvm": ".ll", "amdgcn": ".amdgcn", "json": ".json"}

// indexEntry is one line of DIR/index.jsonl: one compiled specialization.
type indexEntry struct {
	File       string         `json:"file"`
	Kernel     string         `json:"kernel"`
	Qualname   string         `json:"qualname"`
	Signature  string         `json:"signature"`
	Constexprs map[string]any `json:"constexprs"`
	NumWarps   int            `json:"num_warps"`
	NumStages  int            `json:"num_stages"`
	Target     string         `json:"target"`
	// The compile options the specialization was compiled with (the launch's, else the
	// flags'): enable_reflect_ftz on NVIDIA targets only; maxnreg null when none (always on
	// AMD). launch_pdl and launch_cooperative_grid are for the launcher.
	EnableFPFusion        bool     `json:"enable_fp_fusion"`
	EnableReflectFTZ      *bool    `json:"enable_reflect_ftz,omitempty"`
	MaxNReg               *int     `json:"maxnreg"`
	LaunchPDL             bool     `json:"launch_pdl"`
	LaunchCooperativeGrid bool     `json:"launch_cooperative_grid"`
	Debug                 bool     `json:"debug"`
	Files                 []string `json:"files"`
	SharedBytes           int      `json:"shared"`
	Site                  string   `json:"site"`
}

// compileAll is `gotriton compile FILE... -o DIR` without -n and -s: every specialization
// of every kernel the files launch, to DIR/KERNEL.HASH.ptx (and the --emit stage when
// another is asked for), with DIR/index.jsonl listing them.
func compileAll(_ context.Context, c *cli.Command) error {
	dir := c.String("out-path")
	if dir == "-" || dir == "" {
		return fmt.Errorf("gotriton compile: without -n, give an output folder with -o DIR")
	}
	files, err := expandPythonFiles(c.Args().Slice())
	if err != nil {
		return err
	}
	consts, err := parseConstants(c.StringSlice("const"))
	if err != nil {
		return err
	}
	emit := ""
	if c.IsSet("emit") {
		emit = c.String("emit")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("gotriton compile: %v", err)
	}
	rep := &reporter{format: "text", out: c.Root().Writer, errOut: c.Root().ErrWriter}
	index, err := os.Create(filepath.Join(dir, "index.jsonl"))
	if err != nil {
		return fmt.Errorf("gotriton compile: %v", err)
	}
	defer index.Close()
	b := &batch{c: c, dir: dir, emit: emit, rep: rep, enc: json.NewEncoder(index)}
	if emit != "tileir" && emit != "llvm" { // a cached compile keeps only the PTX and metadata
		b.cache = openCache(c)
	}
	targets := c.StringSlice("target")
	for _, tgt := range targets {
		// Host code sees the target (is_cuda(), the capability): each one runs the files anew.
		loaded := loadAll(c, files, tgt, rep)
		if !checkConstants(consts, loaded, rep) {
			return errReported
		}
		for _, f := range loaded {
			res := launch.Infer(f, launch.Options{Constants: consts})
			for _, kr := range res.Kernels {
				line, err := b.kernel(f, kr, tgt)
				if err != nil {
					return err
				}
				if len(targets) > 1 {
					line = tgt + ": " + line
				}
				fmt.Fprintln(c.Root().Writer, line)
			}
		}
	}
	if rep.errors > 0 {
		return errReported
	}
	return nil
}

// batch is one compile -o DIR run.
type batch struct {
	c     *cli.Command
	dir   string
	emit  string
	rep   *reporter
	enc   *json.Encoder
	cache *aot.Cache
}

// kernel compiles every specialization of one kernel for tgt and returns its summary.
func (b *batch) kernel(f *frontend.File, kr *launch.Kernel, tgt string) (string, error) {
	for _, err := range kr.Errors {
		b.rep.report(err)
	}
	compiled, skipped, failed := 0, 0, len(kr.Errors)
	for _, s := range kr.Specs {
		opts := specCompilerOptions(b.c, s, tgt)
		r, err := aot.Compile(f, f.Selector(kr.Kernel), opts, emitter{final: true}.stage(tgt), b.cache)
		if err != nil {
			if s.SkippedByAutotuner(err) {
				skipped++
				continue
			}
			for _, d := range diagnostics(f, err) {
				d.Notes = append(d.Notes, fmt.Sprintf("in the specialization %s", s))
				b.rep.report(d)
			}
			failed++
			continue
		}
		warnCache(b.c, r)
		entry, err := writeSpec(b.dir, f, kr, s, r, b.emit)
		if err != nil {
			return "", err
		}
		if err := b.enc.Encode(entry); err != nil {
			return "", fmt.Errorf("gotriton compile: %v", err)
		}
		compiled++
	}
	line := fmt.Sprintf("%s: %d specializations, %d compiled", kr.Kernel.QualName, len(kr.Specs), compiled)
	if skipped > 0 {
		line += fmt.Sprintf(", %d skipped (static assertion, as the autotuner skips)", skipped)
	}
	if failed > 0 {
		line += fmt.Sprintf(", %d failed", failed)
	}
	if len(kr.Specs) == 0 && len(kr.Unknown) > 0 {
		line += "; not compiled: " + kr.Unknown[0]
	}
	return line, nil
}

// specCompilerOptions are the compiler options of an inferred specialization: the
// codegen flags (--enable-fp-fusion, --enable-reflect-ftz, --maxnreg,
// --matrix-instr-nonkdim) for what the launch leaves out, the launch's own options over
// them (a launch keyword wins, as in Triton, where knobs and defaults fill only what the
// launch does not give), and --debug or the
// launch's debug=True (Triton ORs the launch's debug with TRITON_DEBUG).
func specCompilerOptions(c *cli.Command, s launch.Spec, tgt string) compiler.Options {
	opts := compilerOptions(c, s.Options(tgt))
	opts.Debug = opts.Debug || c.Bool("debug")
	if v := s.Compile.EnableFPFusion; v != nil {
		opts.NoFPFusion = !*v
	}
	if v := s.Compile.EnableReflectFTZ; v != nil {
		opts.NoReflectFTZ = !*v
	}
	if s.Compile.MaxNReg > 0 {
		opts.MaxNReg = s.Compile.MaxNReg
	}
	if n := s.Compile.MatrixInstrNonKDim; n != nil {
		opts.MatrixInstrNonKDim = *n
	}
	return opts
}

// writeSpec writes one specialization's files and returns its index entry.
func writeSpec(dir string, f *frontend.File, kr *launch.Kernel, s launch.Spec, k *aot.Compiled, emit string) (*indexEntry, error) {
	r := k.Result
	base := kr.Kernel.Name + "." + k.Key
	outputs := map[string]string{".ptx": r.PTX}
	if !r.Target.IsNVIDIA() {
		outputs = map[string]string{".hsaco": string(r.HSACO)}
	}
	if ext, ok := emitExtensions[emit]; ok {
		outputs[ext] = emitters[emit].text(k)
	}
	entry := &indexEntry{File: f.Path, Kernel: kr.Kernel.Name, Qualname: kr.Kernel.QualName, Signature: s.SignatureText(),
		Constexprs: map[string]any{}, NumWarps: r.NumWarps, NumStages: r.NumStages, Target: r.Target.String(),
		SharedBytes: r.Meta.SharedBytes, Site: s.Site, EnableFPFusion: !r.NoFPFusion, Debug: r.Debug,
		LaunchPDL: s.Compile.LaunchPDL, LaunchCooperativeGrid: s.Compile.LaunchCooperativeGrid}
	if r.Target.IsNVIDIA() {
		ftz := !r.NoReflectFTZ
		entry.EnableReflectFTZ = &ftz
		if n := r.MaxNReg; n > 0 {
			entry.MaxNReg = &n
		}
	}
	for i, p := range kr.Kernel.Params {
		e := s.Signature[i]
		switch {
		case strings.HasSuffix(e, ":1"):
			entry.Constexprs[p.Name] = 1 // an int equal to 1, folded
		case p.Constexpr:
			entry.Constexprs[p.Name] = e
			if _, v, err := launch.ParseConstant(p.Name + "=" + e); err == nil {
				if _, isDType := v.(pyeval.Ref); !isDType {
					entry.Constexprs[p.Name] = pyeval.JSON(v)
				}
			}
		}
	}
	for _, ext := range sortedKeys(outputs) {
		name := base + ext
		if err := os.WriteFile(filepath.Join(dir, name), []byte(outputs[ext]), 0o644); err != nil {
			return nil, fmt.Errorf("gotriton compile: %v", err)
		}
		entry.Files = append(entry.Files, name)
	}
	return entry, nil
}
