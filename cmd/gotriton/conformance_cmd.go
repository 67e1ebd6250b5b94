package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

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
			"Prints one row per case, then 'N passed, N failed'; exits 1 when any case fails.\n" +
			"--time (cuda) also times every launch of each passing case; --export-launches and --dump-ptx\n" +
			"run nothing and need no GPU (tools/gpu-report.sh uses all three).\n" +
			"--ptx-dir DIR (cuda) loads the PTX of a --dump-ptx DIR instead of compiling it: dump with\n" +
			"--via-llc where llc-22 is, then run the suite with that PTX on a GPU machine that has no llc.\n" +
			"--real-sizes adds the official tutorials at the sizes their host code validates (512x512x512\n" +
			"matmul, 1151x8192 layer norm, N_CTX=1024 attention, 1024..128 grouped GEMM, 8192x8192x512\n" +
			"persistent matmul, ...); they are left out by default so that the CPU suite stays fast.\n" +
			"--compare-cpu (cuda, nv-sim, amd-sim) runs each case that passes on the device again on the CPU interpreter with\n" +
			"the same inputs, and fails it unless every output agrees within the same tolerances.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "device", Value: "cpu", Usage: "cpu, cuda, nv-sim (the SIMT interpreter of the sm_90 LLVM IR, no GPU), nv-sim:80, amd-sim (of the gfx942 LLVM IR) or amd-sim:gfx90a"},
			&cli.BoolFlag{Name: "via-llc", Usage: "on cuda, make PTX with llc-22 instead of gotriton's emitter"},
			&cli.StringFlag{Name: "run", Usage: "run only the cases whose name matches `REGEX`"},
			&cli.StringFlag{Name: "tutorials", Usage: "the official tutorials folder `DIR` (else $GOTRITON_TUTORIALS)"},
			&cli.StringFlag{Name: "kernels", Value: "conformance/kernels", Usage: "our kernel corpus `DIR`"},
			&cli.StringFlag{Name: "json", Usage: "write the results to `FILE` as JSON"},
			&cli.BoolFlag{Name: "list", Usage: "list the cases without running them"},
			&cli.BoolFlag{Name: "time", Usage: "on cuda, time every launch of each passing case (CUDA events, 10 warm-ups, median of 50, L2 flushed) and record the ms in --json"},
			&cli.StringFlag{Name: "export-launches", Usage: "write every case's launches (kernel, signature, grid, warps, stages, arguments, tensors) to `FILE` as JSON for tools/triton-times.py, and run nothing"},
			&cli.StringFlag{Name: "dump-ptx", Usage: "compile every distinct launch to PTX into `DIR` (one file each, plus index.tsv), and run nothing"},
			&cli.StringFlag{Name: "ptx-target", Value: "cuda:90:32", Usage: "the target of --dump-ptx"},
			&cli.BoolFlag{Name: "real-sizes", Usage: "also run the official tutorials at their real sizes (Large cases; slow on the CPU)"},
			&cli.BoolFlag{Name: "debug", Usage: "compile every kernel with debug, as Triton's debug=True: device asserts kept, integer +, - and * checked for overflow"},
			&cli.BoolFlag{Name: "compare-cpu", Usage: "on cuda, nv-sim or amd-sim, also run each passing case on the CPU interpreter with the same inputs and require every output to agree within the tolerances"},
			&cli.StringFlag{Name: "ptx-dir", Usage: "on cuda, load the PTX that --dump-ptx wrote into `DIR` (e.g. with --via-llc on a machine with llc-22) instead of compiling PTX"},
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
			cases := conformance.SuiteCases(c.Bool("real-sizes"))
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
			if c.String("export-launches") != "" || c.String("dump-ptx") != "" {
				return offlineConformance(c, cases, filter, kernels, tut)
			}
			if dev := c.String("device"); c.Bool("compare-cpu") && dev != "cuda" && !strings.HasPrefix(dev, "nv-sim") && !strings.HasPrefix(dev, "amd-sim") {
				return fmt.Errorf("gotriton conformance: --compare-cpu compares a cuda run (or an nv-sim or amd-sim one) with the CPU interpreter: it needs --device cuda, nv-sim or amd-sim")
			}
			var (
				dev    *conformance.Device
				ptxDir *conformance.PTXDir
				err    error
			)
			if dir := c.String("ptx-dir"); dir != "" {
				if c.String("device") != "cuda" {
					return fmt.Errorf("gotriton conformance: --ptx-dir needs --device cuda")
				}
				if c.Bool("via-llc") {
					return fmt.Errorf("gotriton conformance: --ptx-dir loads PTX that is already made; give --via-llc to the --dump-ptx run instead")
				}
				if ptxDir, err = conformance.OpenPTXDir(dir); err != nil {
					return fmt.Errorf("gotriton conformance: %v", err)
				}
				dev, err = conformance.CUDADevicePTX(ptxDir)
			} else {
				dev, err = conformance.OpenDevice(c.String("device"), c.Bool("via-llc"))
			}
			if err != nil {
				return fmt.Errorf("gotriton conformance: %v", err)
			}
			defer dev.Driver.Close()
			if ptxDir != nil {
				fmt.Fprintf(w, "PTX from %s (%d files for %s), not compiled here\n", ptxDir.Dir, ptxDir.Len(), ptxDir.Target)
			}
			fmt.Fprintf(w, "%-52s %-36s %-5s %-8s %9s  %s\n", "CASE", "KERNEL", "DEV", "STATUS", "TIME", "ERROR")
			r := &conformance.Runner{Device: dev, KernelsDir: kernels, TutorialsDir: tut, Log: w, RealSizes: c.Bool("real-sizes"), Debug: c.Bool("debug")}
			if c.Bool("compare-cpu") {
				cpu := conformance.CPUDevice(0)
				defer cpu.Driver.Close()
				r.Compare = &conformance.Runner{Device: cpu, KernelsDir: kernels, TutorialsDir: tut, Debug: r.Debug}
				fmt.Fprintln(w, "each case that passes is run again on the CPU interpreter and its outputs compared (--compare-cpu)")
			}
			if ptxDir != nil {
				ptxDir.Attach(r)
			}
			if c.Bool("time") {
				if r.Timer, err = conformance.CUDATimer(dev); err != nil {
					return fmt.Errorf("gotriton conformance: --time: %v", err)
				}
			}
			rep := r.Run(cases, filter)
			if r.Timer != nil {
				writeTimes(w, rep)
			}
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

// offlineConformance writes --export-launches and --dump-ptx, which need no device.
func offlineConformance(c *cli.Command, cases []conformance.Case, filter *regexp.Regexp, kernels, tut string) error {
	w := c.Root().Writer
	r := &conformance.Runner{KernelsDir: kernels, TutorialsDir: tut}
	if path := c.String("export-launches"); path != "" {
		ex := r.ExportLaunches(cases, filter)
		if err := writeFile(path, ex.WriteJSON); err != nil {
			return fmt.Errorf("gotriton conformance: --export-launches: %v", err)
		}
		launches := 0
		for _, ce := range ex.Cases {
			launches += len(ce.Launches)
		}
		fmt.Fprintf(w, "%d cases, %d launches written to %s\n", len(ex.Cases), launches, path)
	}
	if dir := c.String("dump-ptx"); dir != "" {
		files, err := r.DumpPTX(cases, filter, dir, c.String("ptx-target"), c.Bool("via-llc"))
		if err != nil {
			return fmt.Errorf("gotriton conformance: --dump-ptx: %v", err)
		}
		bad := 0
		for _, f := range files {
			if f.Error != "" {
				bad++
				fmt.Fprintf(w, "%s %s [%s]: %s\n", f.Path, f.Kernel, f.Signature, f.Error)
			}
		}
		fmt.Fprintf(w, "%d specializations, %d compiled to PTX in %s, %d failed (index: %s/index.tsv)\n", len(files), len(files)-bad, dir, bad, dir)
	}
	return nil
}

// writeTimes prints each timed launch after the case rows.
func writeTimes(w io.Writer, rep *conformance.Report) {
	fmt.Fprintf(w, "\nKERNEL TIMES (%s)\n", conformance.TimingMethod)
	for _, res := range rep.Results {
		if res.Timing == nil {
			continue
		}
		for _, lt := range res.Timing.Launches {
			if lt.Error != "" {
				fmt.Fprintf(w, "%-52s %d %-36s %12s  %s\n", res.Case, lt.Step, lt.Kernel, "-", lt.Error)
				continue
			}
			fmt.Fprintf(w, "%-52s %d %-36s %9.4f ms\n", res.Case, lt.Step, lt.Kernel, lt.MS)
		}
	}
	fmt.Fprintln(w)
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
