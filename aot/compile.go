package aot

import (
	"fmt"
	"path/filepath"

	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/semantic"
)

// Compiled is one kernel compiled for one specialization, with its content address.
type Compiled struct {
	// Result has every stage that was run.
	Result *compiler.Result
	// Key is the content address of the compile (see Key); the metadata's hash.
	Key string
	// Source is the kernel's file.
	Source string
	// Given is how many parameters the signature gave.
	Given int
}

// Compile runs the pipeline for kernel up to stage until (LLVM at least, for the metadata).
func Compile(f *frontend.File, kernel string, opts compiler.Options, until compiler.Stage) (*Compiled, error) {
	r, err := compiler.Compile(f, kernel, opts, until)
	if err != nil {
		return nil, err
	}
	given := len(opts.Signature)
	if opts.Signature == nil {
		sig, _ := semantic.ParseSignature(opts.SignatureText) // compiler.Compile parsed it already
		given = len(sig)
	}
	return &Compiled{Result: r, Key: Key(f.Kernel(kernel).JIT, r.Spec, opts), Source: f.Path, Given: given}, nil
}

// Metadata is the kernel's metadata as Triton's .json carries it.
func (c *Compiled) Metadata() *Metadata { return NewMetadata(c.Result, c.Key) }

// Launcher writes the C launcher and header of a kernel compiled to PTX, embedding bin,
// under outName with the launch grid grid (triton.tools.compile's -on and -g).
func (c *Compiled) Launcher(outName, grid string, bin *Binary) (*Launcher, error) {
	r := c.Result
	if r.Meta.GlobalScratchSize > 0 || r.Meta.ProfileScratchSize > 0 {
		return nil, fmt.Errorf("kernel '%s' needs %d bytes of global scratch and %d of profile scratch per program; C launchers pass none (triton.tools.compile refuses such kernels too)",
			r.Kernel, r.Meta.GlobalScratchSize, r.Meta.ProfileScratchSize)
	}
	return NewLauncher(&LaunchSpec{
		OutName: outName, Kernel: r.Meta.Name, Params: r.Spec.Params, Given: c.Given,
		NumWarps: r.NumWarps, NumStages: r.NumStages, WarpSize: r.Target.WarpSize, Shared: r.Meta.SharedBytes,
		Grid: grid, Binary: bin.Data, BinaryKind: bin.Kind, Source: filepath.Base(c.Source),
	})
}
