package semantic

import (
	"fmt"
	"os"
	"testing"

	"github.com/gotriton/gotriton/internal/testfiles"
)

// TestMain creates the empty testdata files that git does not keep (internal/testfiles).
func TestMain(m *testing.M) {
	if err := testfiles.Empty("testdata/extpath/extlib/__init__.py", "testdata/pkg/ops/__init__.py"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}
