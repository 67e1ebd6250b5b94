// Package testfiles makes the empty Python files that tests need but the repository does not
// keep: an empty file is byte-identical to third-party files listed in provenance files
// (empty __init__.py files of kernel libraries), so such files stay out of git
// (.gitignore) and tests create them before they run.
package testfiles

import (
	"os"
	"path/filepath"
)

// Empty creates each path as an empty file, with its folders, unless it exists.
func Empty(paths ...string) error {
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			return err
		}
	}
	return nil
}
