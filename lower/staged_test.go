package lower

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/tileir"
)

// TestStagedLoads checks the pipeline of loads that feed no dot, in a loop with its own
// num_stages S (the softmax's row loop, tt.num_stages rewritten to S), on sm_80 and
// sm_90: the row's load becomes cp.async copies of every thread's own vectors (4 bytes
// for the default 1024-column fp32 row, 16 for the wide one; the fp16 row's 2-byte
// vectors stay synchronous, as Triton leaves loads under 32 bits), S-1 iterations'
// before the loop and one iteration's in it. Each iteration waits with wait_group S-2
// and reads its stage with no barrier in between (a thread reads only its own copies);
// the ring has S-1 stages of the row's bytes. With S = 1 nothing is pipelined.
func TestStagedLoads(t *testing.T) {
	copyRE := regexp.MustCompile(`cp\.async\.c[ag]\.shared\.global \[\$0\], \[\$1\], (\d+)`)
	for _, tc := range []struct {
		name       string
		rowBytes   int
		copyBytes  int // 0: not pipelined
		copiesIter int
	}{
		{"softmax.row_softmax_kernel.default", 1024 * 4, 4, 8},
		{"softmax.row_softmax_kernel.wide", 4096 * 4, 16, 8},
		{"softmax.row_softmax_kernel.fp16", 1024 * 2, 0, 0},
	} {
		for _, tg := range []string{"cuda:80", "cuda:90"} {
			shared := map[int]int{}
			for _, stages := range []int{1, 2, 3, 4} {
				t.Run(fmt.Sprintf("%s/%s/ns%d", tc.name, tg, stages), func(t *testing.T) {
					ll, md := lowerWithLoopStages(t, tc.name, tg, stages)
					shared[stages] = md.SharedBytes
					copies := copyRE.FindAllStringSubmatch(ll, -1)
					if stages == 1 || tc.copyBytes == 0 {
						if len(copies) != 0 {
							t.Fatalf("%d cp.async, want none", len(copies))
						}
						return
					}
					if len(copies) != stages*tc.copiesIter {
						t.Errorf("%d cp.async, want %d (%d iterations of %d)", len(copies), stages*tc.copiesIter, stages, tc.copiesIter)
					}
					for _, c := range copies {
						if c[1] != fmt.Sprint(tc.copyBytes) {
							t.Fatalf("a cp.async of %s bytes, want %d", c[1], tc.copyBytes)
						}
					}
					wait := fmt.Sprintf("cp.async.wait_group %d;", stages-2)
					at := strings.Index(ll, wait)
					if at < 0 {
						t.Fatalf("no %q", wait)
					}
					read := strings.Index(ll[at:], "addrspace(3)*")
					if read < 0 {
						t.Fatalf("no shared read after %q", wait)
					}
					if strings.Contains(ll[at:at+read], "barrier") {
						t.Errorf("a barrier between %q and the stage's read", wait)
					}
				})
			}
			if tc.copyBytes == 0 {
				continue
			}
			for s := 3; s <= 4; s++ {
				if d := shared[s] - shared[s-1]; d != tc.rowBytes {
					t.Errorf("%s/%s: shared memory grows by %d bytes from %d to %d stages, want %d (one stage of the row)", tc.name, tg, d, s-1, s, tc.rowBytes)
				}
			}
			if shared[2] < tc.rowBytes {
				t.Errorf("%s/%s: %d bytes of shared memory with 2 stages, want at least %d", tc.name, tg, shared[2], tc.rowBytes)
			}
		}
	}
}

// lowerWithLoopStages lowers testdata TTIR name for target tg with its loops'
// tt.num_stages set to stages.
func lowerWithLoopStages(t *testing.T, name, tg string, stages int) (string, Metadata) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(ttirDir, name+".ttir"))
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(`tt\.num_stages = \d+`).ReplaceAllString(string(src), fmt.Sprintf("tt.num_stages = %d", stages))
	m, err := tileir.Parse(name+".ttir", text)
	if err != nil {
		t.Fatal(err)
	}
	mod, md, err := Lower(m, mustTarget(t, tg), Options{Options: isa.Options{NumWarps: numWarps(name)}, NumStages: 3})
	if err != nil {
		t.Fatal(err)
	}
	return mod.String(), md
}
