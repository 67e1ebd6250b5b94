package semantic

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/internal/kernelspecs"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/tileir"
)

// isOrderedOp reports whether op name is one whose order (and nesting) must be the same as
// in Triton's TTIR: memory accesses, dots, reductions, scans, atomics, calls, returns and
// control flow.
func isOrderedOp(name string) bool {
	switch name {
	case "tt.load", "tt.store", "tt.descriptor_load", "tt.descriptor_store", "tt.descriptor_gather",
		"tt.descriptor_scatter", "tt.descriptor_reduce", "tt.dot", "tt.dot_scaled", "tt.reduce", "tt.scan",
		"tt.call", "tt.return", "scf.for", "scf.if", "scf.while":
		return true
	}
	return strings.HasPrefix(name, "tt.atomic_")
}

// opProfile is what the comparison looks at in a module: how many times each op occurs
// (arith.constant aside: constants are compared modulo their values and how many of them
// are materialized), and the ordered ops, one per line, indented by nesting, with "else"
// and "do" marking the second region of scf.if and scf.while.
type opProfile struct {
	counts  map[string]int
	ordered []string
}

func profile(m *tileir.Module) opProfile {
	p := opProfile{counts: map[string]int{}}
	var region func(r *tileir.Region, depth int)
	region = func(r *tileir.Region, depth int) {
		for _, b := range r.Blocks {
			for _, op := range b.Ops {
				if op.Name != "arith.constant" {
					p.counts[op.Name]++
				}
				if isOrderedOp(op.Name) {
					p.ordered = append(p.ordered, strings.Repeat("  ", depth)+op.Name)
				}
				for i, sub := range op.Regions {
					if i > 0 && (op.Name == "scf.if" || op.Name == "scf.while") {
						p.ordered = append(p.ordered, strings.Repeat("  ", depth)+map[bool]string{true: "else", false: "do"}[op.Name == "scf.if"])
					}
					region(sub, depth+1)
				}
			}
		}
	}
	for _, f := range m.Funcs {
		region(f.Body, 0)
	}
	return p
}

// diffCounts lists the ops whose counts differ, as "op: ours N, triton M".
func diffCounts(ours, triton map[string]int) []string {
	names := slices.Sorted(maps.Keys(ours))
	for n := range triton {
		if _, ok := ours[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var out []string
	for _, n := range names {
		if ours[n] != triton[n] {
			out = append(out, fmt.Sprintf("  %-28s ours %3d  triton %3d  (%+d)", n, ours[n], triton[n], ours[n]-triton[n]))
		}
	}
	return out
}

// diffLines is a line diff of two sequences (longest common subsequence), "-" for lines
// only in want, "+" for lines only in got.
func diffLines(want, got []string) []string {
	n, m := len(want), len(got)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if want[i] == got[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && want[i] == got[j]:
			out = append(out, "  "+want[i])
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			out = append(out, "+ "+got[j])
			j++
		default:
			out = append(out, "- "+want[i])
			i++
		}
	}
	return out
}

// compareTTIR returns a readable report of how ours differs from Triton's TTIR, or "".
func compareTTIR(ours, triton *tileir.Module) string {
	po, pt := profile(ours), profile(triton)
	var b strings.Builder
	if d := diffCounts(po.counts, pt.counts); len(d) > 0 {
		b.WriteString("op multisets differ:\n" + strings.Join(d, "\n") + "\n")
	}
	if !slices.Equal(po.ordered, pt.ordered) {
		b.WriteString("order of loads, stores, dots, reductions, atomics and control flow differs (- triton, + ours):\n  " +
			strings.Join(diffLines(pt.ordered, po.ordered), "\n  ") + "\n")
	}
	return b.String()
}

// TestTritonTTIR compiles every specialization for which testdata/ttir holds the TTIR that
// Triton 3.6 printed (testdata/ttir-debug: compiled with debug=True), and checks that our
// tile IR has the same ops (as a multiset, modulo constants, SSA names and locations) and
// the same order of loads, stores, dots, reductions, atomics and control flow.
func TestTritonTTIR(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "ttir", "*.ttir"))
	if len(files) == 0 {
		t.Fatal("no Triton TTIR in testdata/ttir")
	}
	debugFiles, _ := filepath.Glob(filepath.Join("testdata", "ttir-debug", "*.ttir"))
	files = append(files, debugFiles...)
	dir := filepath.Join("..", "conformance", "kernels")
	specs, err := kernelspecs.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]kernelspecs.Spec{}
	for _, s := range specs {
		byName[s.Name()] = s
	}
	loaded := map[string]*frontend.File{}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".ttir")
		debug := filepath.Base(filepath.Dir(path)) == "ttir-debug"
		test := name
		if debug {
			test += "/debug"
		}
		t.Run(test, func(t *testing.T) {
			s, ok := byName[name]
			if !ok {
				t.Fatalf("no specialization %s in specs.json", name)
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			triton, err := tileir.Parse(path, string(src))
			if err != nil {
				t.Fatalf("parse Triton's TTIR: %v", err)
			}
			f := loaded[s.File]
			if f == nil {
				if f, err = frontend.Load(filepath.Join(dir, s.File), pyeval.Options{}); err != nil {
					t.Fatal(err)
				}
				loaded[s.File] = f
			}
			ours, err := Compile(f, s.Kernel, Options{SignatureText: s.Signature, NumWarps: s.NumWarps, NumStages: s.NumStages, Debug: debug})
			if err != nil {
				t.Fatalf("%s", err)
			}
			if diff := compareTTIR(ours, triton); diff != "" {
				t.Errorf("tile IR differs from Triton 3.6's TTIR %s:\n%s", path, diff)
			}
		})
	}
}

// Every test of the package verifies the IR after each pass of the pipeline.
func init() { verifyEachPass = true }

// TestCompareTTIRReports checks that the comparison catches a changed op count and loads
// and stores that move, in or out of a loop.
func TestCompareTTIRReports(t *testing.T) {
	const head = `module {
  tt.func public @k(%p: !tt.ptr<f32>, %n: i32) attributes {noinline = false} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
`
	const tail = `    tt.return
  }
}
`
	parse := func(body string) *tileir.Module {
		m, err := tileir.Parse("k.ttir", head+body+tail)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	want := parse(`    %x = tt.load %p : !tt.ptr<f32>
    scf.for %i = %c0 to %n step %c1  : i32 {
      tt.store %p, %x : !tt.ptr<f32>
    }
`)
	got := parse(`    scf.for %i = %c0 to %n step %c1  : i32 {
      %x = tt.load %p : !tt.ptr<f32>
      %y = arith.addf %x, %x : f32
      tt.store %p, %y : !tt.ptr<f32>
    }
`)
	if d := compareTTIR(want, want); d != "" {
		t.Fatalf("a module differs from itself:\n%s", d)
	}
	d := compareTTIR(got, want)
	for _, line := range []string{
		"arith.addf                   ours   1  triton   0  (+1)",
		"- tt.load",
		"+   tt.load",
		"    tt.store",
	} {
		if !strings.Contains(d, line) {
			t.Errorf("report lacks %q:\n%s", line, d)
		}
	}
}
