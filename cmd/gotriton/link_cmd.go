package main

import (
	"context"
	"fmt"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/gotriton/gotriton/aot"
)

func linkCommand() *cli.Command {
	return &cli.Command{
		Name:      "link",
		Usage:     "write the dispatcher for launchers made by compile -g (as python -m triton.tools.link)",
		ArgsUsage: "HEADER...",
		Description: "Reads the // tt-linker: lines of headers written by gotriton compile -g or by\n" +
			"triton.tools.compile and writes PREFIX.h and PREFIX.c: for each kernel, NAME(stream, args...,\n" +
			"algo_id) over its algorithms (one per set of constexprs, num_warps and num_stages), each trying\n" +
			"its hint variants most specialized first, NAME_default, NAME_get_num_algos and load_/unload_.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Required: true, Usage: "output path prefix: writes PREFIX.h and PREFIX.c"},
			&cli.StringFlag{Name: "prefix", Usage: "string put before every name the dispatcher defines"},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.Args().Len() == 0 {
				return fmt.Errorf("gotriton link: expected one or more HEADER arguments")
			}
			var kernels []aot.LinkedKernel
			for _, path := range c.Args().Slice() {
				text, err := os.ReadFile(path)
				if err != nil {
					return fmt.Errorf("gotriton link: %v", err)
				}
				ks, err := aot.ParseHeader(path, string(text))
				if err != nil {
					return err
				}
				kernels = append(kernels, ks...)
			}
			h, src, err := aot.Link(kernels, c.String("prefix"))
			if err != nil {
				return fmt.Errorf("gotriton link: %v", err)
			}
			out := c.String("out")
			if err := os.WriteFile(aot.WithSuffix(out, ".h"), []byte(h), 0o644); err != nil {
				return fmt.Errorf("gotriton link: cannot write output: %v", err)
			}
			if err := os.WriteFile(aot.WithSuffix(out, ".c"), []byte(src), 0o644); err != nil {
				return fmt.Errorf("gotriton link: cannot write output: %v", err)
			}
			return nil
		},
	}
}
