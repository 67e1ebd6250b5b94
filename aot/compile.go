package aot

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/lower"
	"github.com/gotriton/gotriton/semantic"
)

// Compiled is one kernel compiled for one specialization, with its content address.
type Compiled struct {
	// Result has every stage that was run. From the cache it has the specialization,
	// the lowering metadata and the PTX, but no tile IR or LLVM IR.
	Result *compiler.Result
	// Key is the content address of the compile (see Key); the metadata's hash.
	Key string
	// Source is the kernel's file.
	Source string
	// Given is how many parameters the signature gave.
	Given int
	// Cached reports that the PTX came from the cache.
	Cached bool
	// CacheErr is why the result could not be stored in the cache (the compile itself
	// succeeded).
	CacheErr error
}

// Compile runs the pipeline for kernel up to stage until (LLVM at least, for the
// metadata). With a cache, a compile to PTX is looked up by its key first and stored
// after.
func Compile(f *frontend.File, kernel string, opts compiler.Options, until compiler.Stage, cache *Cache) (*Compiled, error) {
	given := len(opts.Signature)
	if opts.Signature == nil {
		sig, _ := semantic.ParseSignature(opts.SignatureText) // a bad signature fails the compile below
		given = len(sig)
	}
	useCache := cache != nil && until == compiler.PTX
	if k := f.Kernel(kernel); useCache && k != nil {
		if spec, err := semantic.Specialize(f, k, opts.Options); err == nil {
			key := Key(k.JIT, spec, opts)
			if files, ok := cache.Get(key, ptxFile, metaFile); ok {
				var md lower.Metadata
				if json.Unmarshal(files[metaFile], &md) == nil {
					r := &compiler.Result{Kernel: kernel, Target: spec.Target, NumWarps: spec.NumWarps, NumStages: spec.NumStages,
						Spec: spec, Debug: opts.Debug, Codegen: opts.Codegen, Meta: md, PTX: string(files[ptxFile])}
					return &Compiled{Result: r, Key: key, Source: f.Path, Given: given, Cached: true}, nil
				}
			}
		}
	}
	r, err := compiler.Compile(f, kernel, opts, until)
	if err != nil {
		return nil, err
	}
	c := &Compiled{Result: r, Key: Key(f.Kernel(kernel).JIT, r.Spec, opts), Source: f.Path, Given: given}
	if useCache {
		c.CacheErr = cache.putResult(c.Key, r.PTX, r.Meta)
	}
	return c, nil
}

// Metadata is the kernel's metadata as Triton's .json carries it.
func (c *Compiled) Metadata() *Metadata { return NewMetadata(c.Result, c.Key) }

// Binary is the code a launcher embeds: a cubin when ptxas is given (looked up in the
// cache, when there is one, under the compile's key and ptxas's version), else the PTX.
func (c *Compiled) Binary(ptxas string, cache *Cache) (*Binary, error) {
	r := c.Result
	if ptxas == "" || cache == nil {
		return Assemble(r.PTX, r.Target.Arch, ptxas, !r.NoFPFusion)
	}
	version, err := PtxasVersion(ptxas)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(c.Key + "\x00" + version))
	key := hex.EncodeToString(sum[:])
	if files, ok := cache.Get(key, binFile); ok {
		return &Binary{Data: files[binFile], Kind: "cubin", Tool: version}, nil
	}
	bin, err := Assemble(r.PTX, r.Target.Arch, ptxas, !r.NoFPFusion)
	if err != nil {
		return nil, err
	}
	c.CacheErr = cache.Put(key, map[string][]byte{binFile: bin.Data})
	return bin, nil
}

// launchSpec describes the compiled kernel for a launcher.
func (c *Compiled) launchSpec(outName, grid string, bin *Binary) *LaunchSpec {
	r := c.Result
	return &LaunchSpec{
		OutName: outName, Kernel: r.Meta.Name, Params: r.Spec.Params, Given: c.Given,
		NumWarps: r.NumWarps, NumStages: r.NumStages, WarpSize: r.Target.WarpSize, Shared: r.Meta.SharedBytes,
		Grid: grid, Binary: bin.Data, BinaryKind: bin.Kind, Source: filepath.Base(c.Source), TMA: r.Target.HasTMA(),
		TensorMaps: r.Meta.TensorMaps,
	}
}

// Launcher writes the C launcher and header of a kernel compiled to PTX, embedding bin,
// under outName with the launch grid grid (triton.tools.compile's -on and -g).
func (c *Compiled) Launcher(outName, grid string, bin *Binary) (*Launcher, error) {
	r := c.Result
	if r.Meta.GlobalScratchSize > 0 || r.Meta.ProfileScratchSize > 0 {
		return nil, fmt.Errorf("kernel '%s' needs %d bytes of global scratch and %d of profile scratch per program; C launchers pass none (triton.tools.compile refuses such kernels too; --lang go launchers allocate it)",
			r.Kernel, r.Meta.GlobalScratchSize, r.Meta.ProfileScratchSize)
	}
	return NewLauncher(c.launchSpec(outName, grid, bin))
}

// GoLauncher writes the Go launcher, in package pkg, of a kernel compiled to PTX.
func (c *Compiled) GoLauncher(pkg, outName, grid string) (*Launcher, error) {
	r := c.Result
	bin, _ := Assemble(r.PTX, r.Target.Arch, "", !r.NoFPFusion) // PTX: driver/cuda loads PTX
	return NewGoLauncher(c.launchSpec(outName, grid, bin), pkg, [2]int{r.Meta.GlobalScratchSize, r.Meta.ProfileScratchSize})
}
