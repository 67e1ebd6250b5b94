package conformance

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/launch"
	"github.com/gotriton/gotriton/pyeval"
)

// TestInductorSpecializations checks that every launch of the Inductor cases is the one
// specialization gotriton infers from the kernel's file with no flags, so that the cases
// run what `gotriton compile FILE` (no -s) compiles.
func TestInductorSpecializations(t *testing.T) {
	for _, c := range inductorCases() {
		f, err := frontend.Load(filepath.Join("kernels", c.File), pyeval.Options{})
		if err != nil {
			t.Fatal(err)
		}
		p := c.Build(rand.New(rand.NewPCG(1, 2)))
		for _, step := range p.Steps {
			sig, err := step.Signature(p.Tensors)
			if err != nil {
				t.Fatal(err)
			}
			var inferred []launch.Spec
			for _, kr := range launch.Infer(f, launch.Options{}).Kernels {
				if kr.Kernel.Name == step.Kernel {
					inferred = kr.Specs
				}
			}
			if len(inferred) != 1 {
				t.Fatalf("%s: inferred %v, want one specialization", c.Name, inferred)
			}
			s := inferred[0]
			if s.SignatureText() != sig || s.NumWarps != step.NumWarps || s.NumStages != step.NumStages {
				t.Errorf("%s: inferred %s, the case runs %s | num_warps=%d num_stages=%d", c.Name, s, sig, step.NumWarps, step.NumStages)
			}
		}
	}
}
