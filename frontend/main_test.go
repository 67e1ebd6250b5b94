package frontend

import (
	"fmt"
	"os"
	"testing"

	"github.com/gotriton/gotriton/internal/testfiles"
)

// TestMain creates the empty testdata files that git does not keep (internal/testfiles).
func TestMain(m *testing.M) {
	if err := testfiles.Empty("testdata/empty.py", "testdata/nspkg/lib/utils/__init__.py"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}
