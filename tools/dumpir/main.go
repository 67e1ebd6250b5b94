// Command dumpir writes the LLVM IR and PTX of every specialization the conformance suite
// launches, for one or more targets, so that two builds of the lowering can be compared
// with diff -r (a refactoring must leave every file byte-identical):
//
//	go run ./tools/dumpir -o DIR [-tutorials DIR] [-real-sizes] [-targets cuda:90:32,cuda:80:32]
//
// DIR/<target>/ gets conformance.Runner.DumpPTX's files (index.tsv and one .ptx per
// specialization) and DIR/<target>/ll/<kernel>.<hash>.ll, the LLVM IR of the same
// specialization (or .err, the lowering error), hashed by file, kernel, signature,
// num_warps and num_stages.
package main

import (
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"

	"github.com/gotriton/gotriton/conformance"
	"github.com/gotriton/gotriton/lower"
	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/semantic"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

func main() {
	out := flag.String("o", "", "output folder")
	tutorials := flag.String("tutorials", os.Getenv("GOTRITON_TUTORIALS"), "the official tutorials folder")
	realSizes := flag.Bool("real-sizes", false, "also the tutorials at their real sizes")
	targets := flag.String("targets", "cuda:90:32,cuda:80:32", "comma-separated targets")
	kernels := flag.String("kernels", "conformance/kernels", "our kernel folder")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "dumpir: -o DIR is needed")
		os.Exit(2)
	}
	cases := conformance.SuiteCases(*realSizes)
	for _, tgt := range strings.Split(*targets, ",") {
		if err := dump(filepath.Join(*out, strings.ReplaceAll(tgt, ":", "_")), tgt, *kernels, *tutorials, cases); err != nil {
			fmt.Fprintf(os.Stderr, "dumpir: %s: %v\n", tgt, err)
			os.Exit(1)
		}
	}
}

// dump writes one target's files into dir.
func dump(dir, tgt, kernels, tutorials string, cases []conformance.Case) error {
	t, err := target.Parse(tgt)
	if err != nil {
		return err
	}
	llDir := filepath.Join(dir, "ll")
	if err := os.MkdirAll(llDir, 0o755); err != nil {
		return err
	}
	front := conformance.SemanticCompile()
	var writeErr error
	// The front end is the hook DumpPTX calls once per specialization: it also lowers the
	// module and writes its LLVM IR.
	compile := func(path, kernel string, opts semantic.Options) (*tileir.Module, error) {
		m, err := front(path, kernel, opts)
		if err != nil {
			return nil, err
		}
		key := fmt.Sprintf("%s\x00%s\x00%s\x00%d\x00%d", relPath(path, kernels, tutorials), kernel, opts.SignatureText, opts.NumWarps, opts.NumStages)
		h := fnv.New32a()
		h.Write([]byte(key))
		name := filepath.Join(llDir, fmt.Sprintf("%s.%08x", kernel, h.Sum32()))
		mod, _, lerr := lower.Lower(m, t, lower.Options{Options: isa.Options{NumWarps: opts.NumWarps}, NumStages: opts.NumStages})
		if lerr != nil {
			err = os.WriteFile(name+".err", []byte(lerr.Error()+"\n"), 0o644)
		} else {
			err = os.WriteFile(name+".ll", []byte(mod.String()), 0o644)
		}
		if err != nil && writeErr == nil {
			writeErr = err
		}
		return m, nil
	}
	r := &conformance.Runner{KernelsDir: kernels, TutorialsDir: tutorials, Compile: compile}
	files, err := r.DumpPTX(cases, nil, dir, tgt, false)
	if err != nil {
		return err
	}
	if writeErr != nil {
		return writeErr
	}
	fmt.Printf("%s: %d specializations in %s\n", tgt, len(files), dir)
	return nil
}

// relPath names a kernel file relative to the corpus it comes from, so that dumps made
// from different checkouts compare equal.
func relPath(path, kernels, tutorials string) string {
	for _, root := range []struct{ name, dir string }{{"tutorials", tutorials}, {"kernels", kernels}} {
		if root.dir == "" {
			continue
		}
		if rel, err := filepath.Rel(root.dir, path); err == nil && !strings.HasPrefix(rel, "..") {
			return root.name + "/" + filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(path)
}
