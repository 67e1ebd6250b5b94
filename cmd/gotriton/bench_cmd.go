package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"

	"github.com/urfave/cli/v3"

	"github.com/gotriton/gotriton/conformance"
	"github.com/gotriton/gotriton/driver/cuda"
)

// benchCommand times the official tutorials' benchmark launches at their real sizes on
// the GPU, exports them for tools/triton-bench.py, and prints the side-by-side table.
func benchCommand() *cli.Command {
	return &cli.Command{
		Name:  "bench",
		Usage: "time the official tutorials' benchmark cases at their real sizes on the GPU",
		Description: "Runs each benchmark case of the official Triton 3.6 tutorials (--tutorials or GOTRITON_TUTORIALS)\n" +
			"on the GPU: compile, run once, check sampled outputs against a float64 reference, then time\n" +
			"every launch (CUDA events, --warmup runs, the median of --reps, L2 flushed before each run).\n" +
			"--export FILE writes the cases (tensors, launches, sampled checks) for tools/triton-bench.py\n" +
			"and needs no GPU; --table OURS.json --triton TRITON.json prints the side-by-side markdown table.\n" +
			"docs/performance.md says how to run both compilers in one go (tools/bench-gpu.sh).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "tutorials", Usage: "the official tutorials folder `DIR` (else $GOTRITON_TUTORIALS)"},
			&cli.StringFlag{Name: "run", Usage: "only the cases whose name matches `REGEX`"},
			&cli.BoolFlag{Name: "quick", Usage: "leave out the slowest repetitions (fewer sizes and kernels)"},
			&cli.BoolFlag{Name: "autotune", Usage: "run every @triton.autotune config of each autotuned kernel; the table shows each compiler's best"},
			&cli.IntFlag{Name: "warmup", Value: 10, Usage: "warm-up runs before timing"},
			&cli.IntFlag{Name: "reps", Value: 50, Usage: "timed runs; the median is reported"},
			&cli.StringFlag{Name: "json", Usage: "write the results to `FILE` (rewritten after each case)"},
			&cli.StringFlag{Name: "export", Usage: "write the cases to `FILE` for tools/triton-bench.py, and run nothing"},
			&cli.BoolFlag{Name: "list", Usage: "list the cases without running them"},
			&cli.StringFlag{Name: "table", Usage: "print the markdown table of gotriton's results `FILE` (with --triton) and run nothing"},
			&cli.StringFlag{Name: "triton", Usage: "tools/triton-bench.py's results `FILE`, for --table"},
			&cli.StringFlag{Name: "o", Usage: "write --table's markdown to `FILE` instead of stdout"},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			w := c.Root().Writer
			if c.String("table") != "" || c.String("triton") != "" {
				return benchTable(c, w)
			}
			var filter *regexp.Regexp
			if s := c.String("run"); s != "" {
				re, err := regexp.Compile(s)
				if err != nil {
					return fmt.Errorf("gotriton bench: --run: %v", err)
				}
				filter = re
			}
			if c.Int("reps") < 1 || c.Int("warmup") < 0 {
				return fmt.Errorf("gotriton bench: --reps must be at least 1 and --warmup at least 0")
			}
			tut := c.String("tutorials")
			if tut == "" {
				tut = os.Getenv("GOTRITON_TUTORIALS")
			}
			if tut == "" {
				return fmt.Errorf("gotriton bench: the benchmark cases are the official tutorials' kernels: pass --tutorials DIR or set GOTRITON_TUTORIALS")
			}
			r := &conformance.Runner{TutorialsDir: tut}
			cases, err := selectBench(r, conformance.BenchCases(c.Bool("quick")), filter, c.Bool("autotune"), c.Root().ErrWriter)
			if err != nil {
				return fmt.Errorf("gotriton bench: %v", err)
			}
			if len(cases) == 0 {
				return fmt.Errorf("gotriton bench: no case matches --run %s (see gotriton bench --list)", c.String("run"))
			}
			if c.Bool("list") {
				for _, b := range cases {
					fmt.Fprintf(w, "%s\t%s\t%s\n", b.Name, b.Label, b.Config)
				}
				return nil
			}
			if path := c.String("export"); path != "" {
				ex, err := r.ExportBench(cases)
				if err != nil {
					return fmt.Errorf("gotriton bench: --export: %v", err)
				}
				if err := writeFile(path, ex.WriteJSON); err != nil {
					return fmt.Errorf("gotriton bench: --export: %v", err)
				}
				fmt.Fprintf(w, "%d cases written to %s\n", len(ex.Cases), path)
				return nil
			}
			return runBench(c, w, r, cases)
		},
	}
}

// selectBench expands each case into its kernel's autotune configs (with autotune) and
// keeps those whose name matches filter.
func selectBench(r *conformance.Runner, all []conformance.BenchCase, filter *regexp.Regexp, autotune bool, notes io.Writer) ([]conformance.BenchCase, error) {
	var out []conformance.BenchCase
	seen := map[string]bool{}
	for _, b := range all {
		variants := []conformance.BenchCase{b}
		if autotune {
			var skipped []string
			var err error
			if variants, skipped, err = r.Autotuned(b); err != nil {
				return nil, err
			}
			if filter == nil || filter.MatchString(b.Name) || slices.ContainsFunc(variants, func(v conformance.BenchCase) bool { return filter.MatchString(v.Name) }) {
				for _, s := range skipped {
					fmt.Fprintf(notes, "note: %s: autotune config %s\n", b.Group, s)
				}
			}
		}
		for _, v := range variants {
			// Two explicit cases of a group can be the same autotune config.
			if (filter == nil || filter.MatchString(v.Name)) && !seen[v.Name] {
				seen[v.Name] = true
				out = append(out, v)
			}
		}
	}
	return out, nil
}

// runBench opens the GPU, runs the cases and writes the results.
func runBench(c *cli.Command, w io.Writer, r *conformance.Runner, cases []conformance.BenchCase) error {
	dev, err := conformance.OpenDevice("cuda", false)
	var noDriver *cuda.NoDriverError
	if errors.As(err, &noDriver) {
		return fmt.Errorf("gotriton bench: needs an NVIDIA GPU and its driver: libcuda.so.1 could not be loaded (%s); --export, --list and --table need none", noDriver.Reason)
	}
	if err != nil {
		return fmt.Errorf("gotriton bench: %v", err)
	}
	defer dev.Driver.Close()
	r.Device = dev
	warmup, reps := int(c.Int("warmup")), int(c.Int("reps"))
	timer, env, err := conformance.CUDABenchTimer(dev, warmup, reps)
	if err != nil {
		return fmt.Errorf("gotriton bench: %v", err)
	}
	r.Timer = timer
	results := &conformance.BenchResults{Format: 1, Compiler: "gotriton", Env: env, Method: fmt.Sprintf(conformance.BenchMethod, warmup, reps)}
	save := func() error {
		path := c.String("json")
		if path == "" {
			return nil
		}
		if err := writeFile(path+".tmp", results.WriteJSON); err != nil {
			return err
		}
		return os.Rename(path+".tmp", path)
	}
	fmt.Fprintf(w, "%-70s %-44s %-7s %10s %12s  %s\n", "CASE", "CONFIG", "STATUS", "MS", "RATE", "ERROR")
	failed := 0
	var saveErr error
	r.RunBench(cases, func(br conformance.BenchResult) {
		results.Results = append(results.Results, br)
		rate := "-"
		if br.MS > 0 {
			rate = fmt.Sprintf("%.1f %s", br.Rate(), br.Unit)
		}
		if br.Status != "pass" {
			failed++
		}
		fmt.Fprintf(w, "%-70s %-44s %-7s %10.4f %12s  %s\n", br.Case, br.Config, br.Status, br.MS, rate, br.Error)
		if err := save(); err != nil {
			saveErr = err
		}
	})
	results.Done = true
	if err := errors.Join(saveErr, save()); err != nil {
		return fmt.Errorf("gotriton bench: --json: %v", err)
	}
	fmt.Fprintf(w, "%d cases, %d failed\n", len(cases), failed)
	if failed > 0 {
		return fmt.Errorf("gotriton bench: %d of %d cases failed", failed, len(cases))
	}
	return nil
}

// benchTable prints the markdown table of two results files.
func benchTable(c *cli.Command, w io.Writer) error {
	if c.String("table") == "" || c.String("triton") == "" {
		return fmt.Errorf("gotriton bench: --table needs both gotriton's results (--table FILE) and Triton's (--triton FILE)")
	}
	var sides [2]*conformance.BenchResults
	for i, path := range []string{c.String("table"), c.String("triton")} {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("gotriton bench: %v", err)
		}
		sides[i], err = conformance.ReadBenchResults(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("gotriton bench: %s: %v", path, err)
		}
	}
	if out := c.String("o"); out != "" {
		return writeFile(out, func(f io.Writer) error { conformance.WriteBenchTable(f, sides[0], sides[1]); return nil })
	}
	conformance.WriteBenchTable(w, sides[0], sides[1])
	return nil
}
