package aot

import (
	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/frontend"
)

// Compiled is one kernel compiled for one specialization, with its content address.
type Compiled struct {
	// Result has every stage that was run.
	Result *compiler.Result
	// Key is the content address of the compile (see Key); the metadata's hash.
	Key string
}

// Compile runs the pipeline for kernel up to stage until (LLVM at least, for the metadata).
func Compile(f *frontend.File, kernel string, opts compiler.Options, until compiler.Stage) (*Compiled, error) {
	r, err := compiler.Compile(f, kernel, opts, until)
	if err != nil {
		return nil, err
	}
	return &Compiled{Result: r, Key: Key(f.Kernel(kernel).JIT, r.Spec, opts)}, nil
}

// Metadata is the kernel's metadata as Triton's .json carries it.
func (c *Compiled) Metadata() *Metadata { return NewMetadata(c.Result, c.Key) }
