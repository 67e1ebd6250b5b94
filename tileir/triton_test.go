package tileir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	goldenfile "github.com/gotriton/gotriton/internal/golden"
)

// stripLocs removes #loc alias lines and " loc(...)" annotations from MLIR text.
func stripLocs(s string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(line, "#loc") {
			continue
		}
		for {
			i := strings.Index(line, " loc(")
			if i < 0 {
				break
			}
			depth, j := 0, i+len(" loc")
			for ; j < len(line); j++ {
				if line[j] == '(' {
					depth++
				} else if line[j] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			line = line[:i] + line[j+1:]
		}
		b.WriteString(line)
	}
	return b.String()
}

// TestTritonTTIR parses the TTIR that Triton 3.6 printed for our kernels (testdata/triton,
// with #loc aliases and named values), verifies it, and checks that our printer reproduces
// Triton's text exactly, locations aside.
func TestTritonTTIR(t *testing.T) {
	files, _ := filepath.Glob("testdata/triton/*.ttir")
	if len(files) == 0 {
		t.Fatal("no Triton TTIR in testdata/triton")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(path, string(src))
			if err != nil {
				t.Fatal(err)
			}
			if err := Verify(m); err != nil {
				t.Fatalf("verify: %v", err)
			}
			want := stripLocs(string(src))
			if got := m.String(); got != want {
				t.Fatalf("printed text differs from Triton's:\n%s", goldenfile.FirstDiff(got, want))
			}
			if m.Funcs[0].Loc.File == "" {
				t.Errorf("function location not resolved")
			}
			dbg := m.Print(PrintOptions{Debuginfo: true})
			md, err := Parse(path, dbg)
			if err != nil {
				t.Fatalf("parse with inline locations: %v", err)
			}
			if got := md.Print(PrintOptions{Debuginfo: true}); got != dbg {
				t.Fatalf("inline locations do not round-trip:\n%s", goldenfile.FirstDiff(got, dbg))
			}
		})
	}
}
