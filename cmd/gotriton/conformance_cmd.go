package main

import (
	"context"
	"fmt"
	"os"
	"regexp"

	"github.com/urfave/cli/v3"

	"github.com/gotriton/gotriton/conformance"
)

// conformanceCommand runs the conformance suite: our own kernels, and the official
// tutorials when a tutorials folder is given.
func conformanceCommand() *cli.Command {
	return &cli.Command{
		Name:  "conformance",
		Usage: "run the conformance suite on a device and compare every output with a float64 reference",
		Description: "Runs our own kernels (conformance/kernels) and, with --tutorials or GOTRITON_TUTORIALS,\n" +
			"the official Triton 3.6 tutorials (python/tutorials of a release/3.6.x checkout).\n" +
			"Prints one row per case, then 'N passed, N failed'; exits 1 when any case fails.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "device", Value: "cpu", Usage: "cpu or cuda"},
			&cli.BoolFlag{Name: "via-llc", Usage: "on cuda, make PTX with llc-22 instead of gotriton's emitter"},
			&cli.StringFlag{Name: "run", Usage: "run only the cases whose name matches `REGEX`"},
			&cli.StringFlag{Name: "tutorials", Usage: "the official tutorials folder `DIR` (else $GOTRITON_TUTORIALS)"},
			&cli.StringFlag{Name: "kernels", Value: "conformance/kernels", Usage: "our kernel corpus `DIR`"},
			&cli.StringFlag{Name: "json", Usage: "write the results to `FILE` as JSON"},
			&cli.BoolFlag{Name: "list", Usage: "list the cases without running them"},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			var filter *regexp.Regexp
			if s := c.String("run"); s != "" {
				re, err := regexp.Compile(s)
				if err != nil {
					return fmt.Errorf("gotriton conformance: --run: %v", err)
				}
				filter = re
			}
			w := c.Root().Writer
			cases := conformance.AllCases()
			if c.Bool("list") {
				for _, cs := range cases {
					if filter == nil || filter.MatchString(cs.Name) {
						fmt.Fprintln(w, cs.Name)
					}
				}
				return nil
			}
			tut := c.String("tutorials")
			if tut == "" {
				tut = os.Getenv("GOTRITON_TUTORIALS")
			}
			kernels := c.String("kernels")
			if _, err := os.Stat(kernels); err != nil {
				return fmt.Errorf("gotriton conformance: kernel corpus %s not found (run from the repository root or pass --kernels DIR)", kernels)
			}
			dev, err := conformance.OpenDevice(c.String("device"), c.Bool("via-llc"))
			if err != nil {
				return fmt.Errorf("gotriton conformance: %v", err)
			}
			defer dev.Driver.Close()
			fmt.Fprintf(w, "%-52s %-36s %-5s %-8s %9s  %s\n", "CASE", "KERNEL", "DEV", "STATUS", "TIME", "ERROR")
			r := &conformance.Runner{Device: dev, KernelsDir: kernels, TutorialsDir: tut, Log: w}
			rep := r.Run(cases, filter)
			fmt.Fprintln(w, rep.Summary())
			if tut == "" {
				fmt.Fprintln(w, "official tutorial cases were not run: pass --tutorials DIR or set GOTRITON_TUTORIALS")
			}
			if path := c.String("json"); path != "" {
				f, err := os.Create(path)
				if err != nil {
					return err
				}
				if err := rep.WriteJSON(f); err != nil {
					f.Close()
					return err
				}
				if err := f.Close(); err != nil {
					return err
				}
			}
			if rep.Failed > 0 {
				return fmt.Errorf("gotriton conformance: %d of %d cases failed", rep.Failed, len(rep.Results))
			}
			return nil
		},
	}
}
