package conformance

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/semantic"
	"github.com/gotriton/gotriton/tileir"
)

func TestNotApplicable(t *testing.T) {
	const pdl = "NVIDIA-only: programmatic dependent launch (PTX griddepcontrol)"
	for _, tc := range []struct{ name, target, want string }{
		{"tutorial/11/add_kernel/pdl/fp32/n=4097", "hip:gfx942:64", pdl + "; not applicable to hip:gfx942:64"},
		{"ours/pdl_add/pdl_add_kernel/gdc/fp32/n=4097", "hip:gfx90a:64", pdl + "; not applicable to hip:gfx90a:64"},
		{"ours/regressions/inline_asm_pointers_kernel", "hip:gfx942:64", "NVIDIA-only: PTX inline assembly; not applicable to hip:gfx942:64"},
		{"ours/pdl_add/pdl_add_kernel/no_gdc/fp32/n=4097", "hip:gfx942:64", ""},
		{"tutorial/11/add_kernel/pdl/fp32/n=4097", "cuda:90:32", ""},
		{"tutorial/11/add_kernel/pdl/fp32/n=4097", "", ""},
		{"ours/regressions/dot_kernel/fp32->fp32/8x4x16/w2/tf32", "hip:gfx90a:64",
			"input_precision tf32: NVIDIA and gfx942 only (Triton's gfx90a does not list it); not applicable to hip:gfx90a:64"},
		{"ours/regressions/dot_kernel/fp32->fp32/8x4x16/w2/tf32", "hip:gfx942:64", ""},
		{"ours/regressions/dot_kernel/fp32->fp32/8x4x16/w2/tf32", "cuda:80:32", ""},
	} {
		if got := NotApplicable(tc.name, tc.target); got != tc.want {
			t.Errorf("NotApplicable(%q, %q) = %q, want %q", tc.name, tc.target, got, tc.want)
		}
	}
}

// TestRunnerNotApplicable runs a suite with NVIDIA-only cases on an AMD device: they
// are reported n/a without being compiled or loaded, counted apart, and listed in the
// summary by reason.
func TestRunnerNotApplicable(t *testing.T) {
	dev := &Device{Name: "fake", Target: "hip:gfx942:64", Load: func(*tileir.Module, string, int, int) (Kernel, error) {
		return Kernel{}, errors.New("loaded")
	}}
	build := func(*rand.Rand) *Problem { t.Fatal("an n/a case was built"); return nil }
	cases := []Case{
		{Name: "ours/regressions/inline_asm_packed_kernel", Build: build},
		{Name: "ours/pdl_add/pdl_add_kernel/gdc/fp32/n=1", Build: build},
		{Name: "tutorial/11/add_kernel/pdl/fp32/n=1", Source: Tutorial, Build: build},
	}
	rep := (&Runner{Device: dev, Compile: func(string, string, semantic.Options) (*tileir.Module, error) {
		t.Fatal("an n/a case was compiled")
		return nil, nil
	}}).Run(cases, nil)
	if rep.Passed != 0 || rep.Failed != 0 || rep.NotRunN != 0 || rep.NotApplicable != 3 {
		t.Fatalf("got %s", rep.Summary())
	}
	want := "0 passed, 0 failed, 3 n/a\n" +
		"n/a (NVIDIA-only: PTX inline assembly; not applicable to hip:gfx942:64): ours/regressions/inline_asm_packed_kernel\n" +
		"n/a (NVIDIA-only: programmatic dependent launch (PTX griddepcontrol); not applicable to hip:gfx942:64): ours/pdl_add/pdl_add_kernel/gdc/fp32/n=1, tutorial/11/add_kernel/pdl/fp32/n=1"
	if got := rep.Summary(); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
	var b strings.Builder
	if err := rep.WriteJSON(&b); err != nil || !strings.Contains(b.String(), `"not_applicable": 3`) || !strings.Contains(b.String(), `"status": "n/a"`) {
		t.Errorf("JSON (%v):\n%s", err, b.String())
	}
}
