package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gotriton/gotriton/semantic"
	"github.com/gotriton/gotriton/tileir"
)

// goldenTTIRCompile is a stand-in for the compile step: instead of compiling the kernel,
// it returns the TTIR that real Triton 3.6 printed for the same specialization
// (semantic/testdata/ttir, one file per entry of kernels/specs.json). It lets the runner,
// the references and the tolerance logic be tested independently of semantic.Compile.
// Specializations without a golden file are reported as not run.
func goldenTTIRCompile() (CompileFunc, error) {
	raw, err := os.ReadFile(filepath.Join("kernels", "specs.json"))
	if err != nil {
		return nil, err
	}
	var specs []struct {
		File, Kernel, Variant, Signature string
		NumWarps                         int `json:"num_warps"`
		NumStages                        int `json:"num_stages"`
	}
	if err := json.Unmarshal(raw, &specs); err != nil {
		return nil, err
	}
	norm := func(s string) string { return strings.ReplaceAll(s, " ", "") }
	return func(path, kernel string, opts semantic.Options) (*tileir.Module, error) {
		file := filepath.Base(path)
		for _, s := range specs {
			if s.File != file || s.Kernel != kernel || norm(s.Signature) != norm(opts.SignatureText) {
				continue
			}
			if s.NumWarps != opts.NumWarps {
				continue
			}
			stem := strings.TrimSuffix(file, ".py")
			p := filepath.Join("..", "semantic", "testdata", "ttir", fmt.Sprintf("%s.%s.%s.ttir", stem, kernel, s.Variant))
			src, err := os.ReadFile(p)
			if errors.Is(err, fs.ErrNotExist) {
				return nil, NotRun("no golden TTIR %s yet (tools/gen-ttir.sh makes it on the GPU machine)", p)
			}
			if err != nil {
				return nil, err
			}
			return tileir.Parse(p, string(src))
		}
		return nil, NotRun("no golden TTIR for %s %s [%s] w%d", file, kernel, opts.SignatureText, opts.NumWarps)
	}, nil
}
