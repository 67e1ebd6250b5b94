package tileir

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLanguageOpsRoundTrip parses, verifies and reprints the tile IR that semantic makes
// for language_ext.py (tt.histogram, tt.gather, tt.unsplat, tt.map_elementwise, ...).
func TestLanguageOpsRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../semantic/testdata/language/*.tileir")
	if len(files) == 0 {
		t.Fatal("no tile IR in ../semantic/testdata/language")
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m := roundTrip(t, path, string(src))
		if err := Verify(m); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
}
