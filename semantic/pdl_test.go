package semantic

import (
	"strings"
	"testing"

	"github.com/gotriton/gotriton/diag"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
)

// TestPDLNVIDIAOnly compiles tl.extra.cuda's programmatic dependent launch calls: to
// griddepcontrol inline asm for NVIDIA targets, and to an error at the call for AMD ones.
func TestPDLNVIDIAOnly(t *testing.T) {
	for _, fn := range []string{"gdc_wait", "gdc_launch_dependents"} {
		src := errPrelude + "    tl.extra.cuda." + fn + "()\n    tl.store(X + tl.arange(0, B), 1.0)\n"
		f, err := frontend.LoadSource("pdl.py", []byte(src), pyeval.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := Compile(f, "k", Options{SignatureText: "*fp32:16, i32, 128", Target: "cuda:90:32"})
		if err != nil {
			t.Fatalf("%s for cuda:90: %v", fn, err)
		}
		if want := "griddepcontrol." + strings.TrimPrefix(fn, "gdc_"); !strings.Contains(m.String(), want) {
			t.Errorf("%s for cuda:90: no %q in\n%s", fn, want, m)
		}
		for _, tgt := range []string{"hip:gfx942:64", "hip:gfx90a:64"} {
			_, err = Compile(f, "k", Options{SignatureText: "*fp32:16, i32, 128", Target: tgt})
			d, ok := diag.As(err)
			want := "tl.extra.cuda." + fn + " is NVIDIA-only (programmatic dependent launch, PTX griddepcontrol); it is not available on " + tgt
			if !ok || d.Span.Line != 7 || d.Span.Col != 4 || d.Msg != want {
				t.Errorf("%s for %s: got %v, want 7:5: %s", fn, tgt, err, want)
			}
		}
	}
}
