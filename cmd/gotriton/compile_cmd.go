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
	"github.com/gotriton/gotriton/semantic"
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
		&cli.StringFlag{Name: "target", Aliases: []string{"t"}, Value: "cuda:90:32", Usage: "backend:arch:warp_size"},
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
		Target:        c.String("target"),
		Config:        int(c.Int("config")),
		Debug:         c.Bool("debug"),
	}
	return opts
}

// emitter is a stage `compile --emit` can write: how far to run the pipeline, and what to
// print from the result.
type emitter struct {
	until compiler.Stage
	text  func(c *aot.Compiled) string
}

var emitters = map[string]emitter{
	"tileir": {compiler.TileIR, func(c *aot.Compiled) string { return c.Result.TileIR.String() }},
	"llvm":   {compiler.LLVM, func(c *aot.Compiled) string { return c.Result.LLVM.String() }},
	"ptx":    {compiler.PTX, func(c *aot.Compiled) string { return c.Result.PTX }},
	"json":   {compiler.LLVM, func(c *aot.Compiled) string { return c.Metadata().JSON() }},
}

func compileCommand() *cli.Command {
	flags := append(specFlags(true),
		&cli.StringFlag{Name: "grid", Aliases: []string{"g"}, Usage: `launch grid, e.g. "n/1024,1,1"`},
		&cli.StringFlag{Name: "out-path", Aliases: []string{"o"}, Value: "-", Usage: "output file, or - for stdout"},
		&cli.StringFlag{Name: "out-name", Aliases: []string{"on"}, Usage: "name of the compiled kernel (default: the kernel name)"},
		&cli.StringFlag{Name: "emit", Value: "tileir", Usage: "stage to write: " + emitNames()},
		&cli.BoolFlag{Name: "via-llc", Usage: "make PTX with LLVM's NVPTX backend (llc-22) instead of gotriton's emitter"},
		&cli.StringFlag{Name: "llc", Usage: "the llc binary for --via-llc (default: llc-22, then llc, on PATH)"},
	)
	return &cli.Command{
		Name:      "compile",
		Usage:     "compile one kernel for one specialization (flags as python -m triton.tools.compile)",
		ArgsUsage: "FILE",
		Flags:     flags,
		Action: func(ctx context.Context, c *cli.Command) error {
			emit, ok := emitters[c.String("emit")]
			if !ok {
				return fmt.Errorf("gotriton compile: unknown --emit %q (want %s)", c.String("emit"), emitNames())
			}
			name := c.String("kernel-name")
			if name == "" {
				return fmt.Errorf("gotriton compile: --kernel-name (-n) is required")
			}
			f, err := loadFile(c)
			if err != nil {
				return err
			}
			k, err := aot.Compile(f, name, compiler.Options{Options: specOptions(c), ViaLLC: c.Bool("via-llc"), LLC: c.String("llc")}, emit.until)
			if err != nil {
				return err
			}
			text := emit.text(k)
			if out := c.String("out-path"); out != "-" {
				return os.WriteFile(out, []byte(text), 0o644)
			}
			_, err = fmt.Fprint(c.Root().Writer, text)
			return err
		},
	}
}

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "type-check kernels: one with -n and -s, or every kernel of the file",
		Description: "Without -n, every kernel that the file launches (jit functions not called by other jit\n" +
			"functions) is checked, each under -s when given, else under a signature guessed from its\n" +
			"parameters (pointers as *fp32:16, other runtime parameters as i32, constexprs from\n" +
			"autotune configs, heuristics or defaults). Every kernel's errors are reported.",
		ArgsUsage: "FILE",
		Flags:     specFlags(false),
		Action: func(ctx context.Context, c *cli.Command) error {
			f, err := loadFile(c)
			if err != nil {
				return err
			}
			specs := map[string]semantic.Options{}
			var kernels []string
			if name := c.String("kernel-name"); name != "" {
				kernels = []string{name}
				if c.IsSet("signature") {
					specs[name] = specOptions(c)
				}
			}
			if err := semantic.Check(f, specs, kernels...); err != nil {
				return err
			}
			fmt.Fprintf(c.Root().Writer, "%s: ok\n", f.Path)
			return nil
		},
	}
}

func emitNames() string {
	return strings.Join(slices.Sorted(maps.Keys(emitters)), "|")
}
