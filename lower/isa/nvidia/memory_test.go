package nvidia

import "testing"

// TestAtomText pins the atom spelling to Triton 3.6's for every semantics and scope.
func TestAtomText(t *testing.T) {
	for _, sem := range []string{"relaxed", "acquire", "release", "acq_rel"} {
		for _, scope := range []string{"cta", "gpu", "sys"} {
			if got, want := atomText("cas", "."+sem, "."+scope, ".b32"), "atom.global."+sem+"."+scope+".cas.b32"; got != want {
				t.Errorf("cas: %s, want %s", got, want)
			}
			if got, want := atomText("exch", "."+sem, "."+scope, ".b32"), "atom.global."+scope+"."+sem+".exch.b32"; got != want {
				t.Errorf("exch: %s, want %s", got, want)
			}
			if got, want := atomText("fadd", "."+sem, "."+scope, ".f32"), "atom.global."+scope+"."+sem+".add.f32"; got != want {
				t.Errorf("fadd: %s, want %s", got, want)
			}
		}
	}
}
