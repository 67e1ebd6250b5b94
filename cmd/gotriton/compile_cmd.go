package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/gotriton/gotriton/aot"
	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/semantic"
	"github.com/gotriton/gotriton/target"
)

// specFlags are the specialization flags compile and check share, named as
// triton.tools.compile names them.
func specFlags(signatureRequired bool) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "kernel-name", Aliases: []string{"n"}, Usage: "the @triton.jit function to compile"},
		&cli.StringFlag{Name: "signature", Aliases: []string{"s"}, Required: signatureRequired,
			Usage: `one entry per parameter, e.g. "*fp32:16, *fp32:16, i32, 1024"`},
		&cli.IntFlag{Name: "num-warps", Aliases: []string{"w"}, Usage: "warps per program (default: the autotune config's, else 1 as triton.tools.compile)"},
		&cli.IntFlag{Name: "num-stages", Aliases: []string{"ns"}, Usage: "software pipelining stages (default: the autotune config's, else 3)"},
		&cli.StringSliceFlag{Name: "target", Aliases: []string{"t"}, Value: []string{"cuda:90:32"}, Usage: "backend:arch:warp_size (repeatable for compile without -n)"},
		&cli.IntFlag{Name: "config", Usage: "which @triton.autotune config supplies constexprs the signature leaves out"},
		&cli.BoolFlag{Name: "debug", Usage: "keep tl.device_assert and assert statements"},
		&cli.StringSliceFlag{Name: "path", Usage: "folder to search for imported modules, after the kernel file's folder and package roots (repeatable; GOTRITON_PATH adds more)"},
	}
}

// specOptions reads the specialization flags.
func specOptions(c *cli.Command) semantic.Options {
	opts := semantic.Options{
		SignatureText: c.String("signature"),
		NumWarps:      int(c.Int("num-warps")),
		NumStages:     int(c.Int("num-stages")),
		Target:        targetOf(c),
		Config:        int(c.Int("config")),
		Debug:         c.Bool("debug"),
	}
	return opts
}

// emitter is a stage `compile --emit` can write: how far to run the pipeline (final: the
// target's last stage), and what to write from the result (the HSACO's bytes as they are).
type emitter struct {
	until compiler.Stage
	final bool
	text  func(c *aot.Compiled) string
}

var emitters = map[string]emitter{
	"tileir": {until: compiler.TileIR, text: func(c *aot.Compiled) string { return c.Result.TileIR.String() }},
	"llvm":   {until: compiler.LLVM, text: func(c *aot.Compiled) string { return c.Result.LLVM.String() }},
	"ptx":    {until: compiler.PTX, text: func(c *aot.Compiled) string { return c.Result.PTX }},
	"amdgcn": {until: compiler.AMDGCN, text: func(c *aot.Compiled) string { return c.Result.AMDGCN }},
	"hsaco":  {until: compiler.HSACO, text: func(c *aot.Compiled) string { return string(c.Result.HSACO) }},
	"json":   {final: true, text: func(c *aot.Compiled) string { return c.MetadataJSON() }}, // a cached compile has the PTX and the metadata
}

// stage is how far e runs the pipeline for the target tgt names.
func (e emitter) stage(tgt string) compiler.Stage {
	if !e.final {
		return e.until
	}
	t, err := target.Parse(tgt)
	if err != nil {
		return compiler.PTX // the compile reports the bad target
	}
	return compiler.Final(t)
}

func compileCommand() *cli.Command {
	flags := append(append(append(specFlags(false), inferFlags()...), codegenFlags()...),
		&cli.StringFlag{Name: "grid", Aliases: []string{"g"}, Usage: `launch grid: three C expressions over the runtime parameters, e.g. "n_elements/1024,1,1"; writes the C launcher and header as triton.tools.compile does`},
		&cli.StringFlag{Name: "out-path", Aliases: []string{"o"}, Value: "-", Usage: "output file, or - for stdout (without -n: the output folder); with -g the path prefix of the .c/.h/.json files (default: the out-name)"},
		&cli.StringFlag{Name: "out-name", Aliases: []string{"on"}, Usage: "name of the compiled kernel (default: the kernel name)"},
		&cli.StringFlag{Name: "emit", Value: "tileir", Usage: "stage to write without -g: " + emitNames()},
		&cli.BoolFlag{Name: "via-llc", Usage: "make PTX with LLVM's NVPTX backend (llc-22) instead of gotriton's emitter"},
		&cli.StringFlag{Name: "llc", Usage: "the llc binary for --via-llc and AMD targets (default: llc-22, then llc, on PATH)"},
		&cli.StringFlag{Name: "opt", Usage: "the opt binary that optimizes AMD LLVM IR before llc, as Triton does (default: opt-22, then opt, on PATH)"},
		&cli.StringFlag{Name: "lld", Usage: "the ld.lld binary that links AMD code objects (default: ld.lld-22, then ld.lld, on PATH)"},
		&cli.StringFlag{Name: "lang", Value: "c", Usage: "with -g, the launcher's language: c (a .c file and a .h header, as triton.tools.compile) or go (a .go file over gotriton's driver/cuda)"},
		&cli.StringFlag{Name: "go-package", Value: "kernels", Usage: "the package of a --lang go launcher"},
		&cli.BoolFlag{Name: "all-configs", Usage: "with -g, write one launcher per @triton.autotune config (the constexprs the signature leaves out, num_warps and num_stages from each), ready for gotriton link"},
		&cli.BoolFlag{Name: "no-cache", Usage: "neither read nor fill the compile cache ($GOTRITON_CACHE_DIR, default gotriton/ in the user cache folder)"},
		&cli.StringFlag{Name: "ptxas", Usage: "with -g, embed a cubin made by this ptxas (default: ptxas on PATH; without one, or with --ptxas none, the launcher embeds PTX for the driver to compile)"},
	)
	return &cli.Command{
		Name:      "compile",
		Usage:     "compile one kernel for one specialization (flags as python -m triton.tools.compile), or without -n and -s every kernel the files launch",
		ArgsUsage: "FILE...",
		Flags:     flags,
		Action: func(ctx context.Context, c *cli.Command) error {
			name := c.String("kernel-name")
			if name == "" && !c.IsSet("signature") {
				return compileAll(ctx, c)
			}
			if len(c.StringSlice("target")) > 1 {
				return fmt.Errorf("gotriton compile: with -n, give one -t")
			}
			if name == "" || !c.IsSet("signature") {
				return fmt.Errorf("gotriton compile: give both --kernel-name (-n) and --signature (-s), or neither (then -o DIR gets every kernel the files launch)")
			}
			f, err := loadFile(c)
			if err != nil {
				return err
			}
			opts := compilerOptions(c, specOptions(c))
			if !c.IsSet("num-warps") {
				opts.NumWarps = compiler.DefaultNumWarps(f, name, opts.Config)
			}
			if c.IsSet("grid") {
				return writeLauncher(c, f, name, opts)
			}
			return writeStage(c, f, name, opts)
		},
	}
}

// compilerOptions adds the backend flags to a specialization.
func compilerOptions(c *cli.Command, spec semantic.Options) compiler.Options {
	return compiler.Options{Options: spec, Codegen: codegen(c), ViaLLC: c.Bool("via-llc"), LLC: c.String("llc"), OPT: c.String("opt"), LLD: c.String("lld")}
}

// codegenFlags are Triton's compile options that triton.tools.compile has no flags for
// (CUDAOptions' enable_fp_fusion, enable_reflect_ftz and maxnreg, HIPOptions'
// matrix_instr_nonkdim), read by codegen.
func codegenFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "enable-fp-fusion", Value: true, Usage: "contract a floating multiply and the add or subtract that uses it into a fused multiply-add, as Triton's enable_fp_fusion (default: TRITON_DEFAULT_FP_FUSION when set, else true); --enable-fp-fusion=false rounds each on its own"},
		&cli.BoolFlag{Name: "enable-reflect-ftz", Value: true, Usage: "libdevice functions flush subnormals to zero, as Triton's enable_reflect_ftz (tl.math.exp2 on fp32 is ex2.approx.ftz.f32); --enable-reflect-ftz=false keeps them (ex2.approx.f32); NVIDIA targets"},
		&cli.IntFlag{Name: "maxnreg", Usage: "the most 32-bit registers a thread may use, as Triton's maxnreg: .maxnreg N on the kernel's .entry (default: none, ptxas decides); NVIDIA targets", Validator: func(n int) error {
			if n < 1 {
				return fmt.Errorf("want a positive number of registers")
			}
			return nil
		}},
		&cli.IntFlag{Name: "matrix-instr-nonkdim", Usage: "the M and N of the MFMA instruction every tl.dot takes, 16 or 32, as Triton's matrix_instr_nonkdim (default 0: chosen by the dot's shape); AMD targets", Validator: func(n int) error {
			if n != 0 && n != 16 && n != 32 {
				return fmt.Errorf("want 0, 16 or 32")
			}
			return nil
		}},
	}
}

// codegen reads codegenFlags.
func codegen(c *cli.Command) compiler.Codegen {
	return compiler.Codegen{NoFPFusion: !fpFusion(c), NoReflectFTZ: !c.Bool("enable-reflect-ftz"), MaxNReg: c.Int("maxnreg"), MatrixInstrNonKDim: c.Int("matrix-instr-nonkdim"),
		DisableMMAv3: tritonTruthy(os.Getenv("DISABLE_MMA_V3"))}
}

// fpFusion is --enable-fp-fusion, else Triton's knobs.language.default_fp_fusion: the
// environment variable TRITON_DEFAULT_FP_FUSION when it is set, else true.
func fpFusion(c *cli.Command) bool {
	if c.IsSet("enable-fp-fusion") {
		return c.Bool("enable-fp-fusion")
	}
	if v, ok := os.LookupEnv("TRITON_DEFAULT_FP_FUSION"); ok {
		return tritonTruthy(v)
	}
	return true
}

// tritonTruthy reads a boolean environment variable as Triton's getenv_bool does: "1",
// "y", "on", "yes" and "true", in any case, are true; anything else is false.
func tritonTruthy(v string) bool {
	switch strings.ToLower(v) {
	case "1", "y", "on", "yes", "true":
		return true
	}
	return false
}

// writeStage writes the stage --emit names.
func writeStage(c *cli.Command, f *frontend.File, name string, opts compiler.Options) error {
	emit, ok := emitters[c.String("emit")]
	if !ok {
		return fmt.Errorf("gotriton compile: unknown --emit %q (want %s)", c.String("emit"), emitNames())
	}
	cache := openCache(c)
	k, err := aot.Compile(f, name, opts, emit.stage(opts.Target), cache)
	if err != nil {
		return err
	}
	warnCache(c, k)
	text := emit.text(k)
	if out := c.String("out-path"); out != "-" {
		return writeOutput(out, text)
	}
	_, err = fmt.Fprint(c.Root().Writer, text)
	return err
}

// writeLauncher writes the C launcher, header and metadata JSON that triton.tools.compile
// writes for -g: PREFIX.SIGHASH_SUFFIX.{c,h,json} (with --lang go, .go and .json). With
// --all-configs it writes one per autotune config.
func writeLauncher(c *cli.Command, f *frontend.File, name string, opts compiler.Options) error {
	if c.IsSet("emit") {
		return fmt.Errorf("gotriton compile: -g writes the C launcher, header and metadata; leave out --emit")
	}
	if t, err := target.Parse(opts.Target); err == nil && !t.IsNVIDIA() {
		return fmt.Errorf("gotriton compile: -g writes launchers for NVIDIA targets only (target %s: use --emit hsaco and --emit json)", t)
	}
	if l := c.String("lang"); l != "c" && l != "go" {
		return fmt.Errorf("gotriton compile: unknown --lang %q (want c or go)", l)
	}
	configs := []int{opts.Config}
	if c.Bool("all-configs") {
		if c.IsSet("config") {
			return fmt.Errorf("gotriton compile: --all-configs and --config do not combine")
		}
		n := compiler.NumConfigs(f, name)
		if n == 0 {
			return fmt.Errorf("gotriton compile: --all-configs: kernel '%s' has no @triton.autotune configs", name)
		}
		configs = configs[:0]
		for i := range n {
			configs = append(configs, i)
		}
	}
	ptxas, err := aot.FindPtxas(c.String("ptxas"))
	if err != nil {
		return fmt.Errorf("gotriton compile: %v", err)
	}
	cache := openCache(c)
	for _, cfg := range configs {
		o := opts
		o.Config = cfg
		if !c.IsSet("num-warps") {
			o.NumWarps = compiler.DefaultNumWarps(f, name, cfg) // each config's own
		}
		if err := writeOneLauncher(c, f, name, o, ptxas, cache); err != nil {
			return err
		}
	}
	return nil
}

// writeOneLauncher writes the launcher files of one specialization.
func writeOneLauncher(c *cli.Command, f *frontend.File, name string, opts compiler.Options, ptxas string, cache *aot.Cache) error {
	k, err := aot.Compile(f, name, opts, compiler.PTX, cache)
	if err != nil {
		return err
	}
	outName := c.String("out-name")
	if outName == "" {
		outName = name
	}
	var l *aot.Launcher
	files := map[string]string{"json": k.Metadata().JSON()}
	if c.String("lang") == "go" {
		if l, err = k.GoLauncher(c.String("go-package"), outName, c.String("grid")); err != nil {
			return fmt.Errorf("gotriton compile: %v", err)
		}
		files["go"] = l.Go
	} else {
		bin, err := k.Binary(ptxas, cache)
		if err != nil {
			return fmt.Errorf("gotriton compile: %v", err)
		}
		if l, err = k.Launcher(outName, c.String("grid"), bin); err != nil {
			return fmt.Errorf("gotriton compile: %v", err)
		}
		files["c"], files["h"] = l.C, l.H
	}
	warnCache(c, k)
	prefix := outName
	if c.IsSet("out-path") {
		prefix = c.String("out-path")
	}
	for ext, text := range files {
		if err := writeOutput(aot.OutputPath(prefix, l.SigHash, l.Suffix, ext), text); err != nil {
			return err
		}
	}
	return nil
}

// openCache is the compile cache, or nil with --no-cache or when there is no cache folder.
func openCache(c *cli.Command) *aot.Cache {
	if c.Bool("no-cache") {
		return nil
	}
	dir, err := aot.DefaultCacheDir()
	if err != nil {
		fmt.Fprintf(c.Root().ErrWriter, "gotriton compile: warning: %v\n", err)
		return nil
	}
	return &aot.Cache{Dir: dir}
}

// warnCache reports a result the cache could not store; the compile itself succeeded.
func warnCache(c *cli.Command, k *aot.Compiled) {
	if k.CacheErr != nil {
		fmt.Fprintf(c.Root().ErrWriter, "gotriton compile: warning: %v (pass --no-cache to skip the cache)\n", k.CacheErr)
	}
}

// writeOutput writes one output, its error naming the command.
func writeOutput(path, text string) error {
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return fmt.Errorf("gotriton compile: cannot write output: %v", err)
	}
	return nil
}

func emitNames() string {
	return strings.Join(slices.Sorted(maps.Keys(emitters)), "|")
}
