package ptx

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/internal/golden"
)

// TestGoldenFPFusion compiles testdata/fp_fusion.ll with floating-point contraction
// (Options.FPFusion) and compares the PTX with fp_fusion.fused.ptx; TestGolden has the
// same input without it.
func TestGoldenFPFusion(t *testing.T) {
	got, err := Compile(parse(t, "testdata/fp_fusion.ll"), Options{FPFusion: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(got); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/fp_fusion.fused.ptx", got)
}

// TestFPFusionMatchesLLC compiles fp_fusion.ll with contraction, with our emitter and with
// llc-22 -fp-contract=fast (Triton's target machine under enable_fp_fusion), and requires
// every kernel but half2 (which llc packs into f16x2 instructions) to store the same
// expressions: each stored value written as the tree of instructions that computes it from
// parameters, loads and immediates (storedExprs). Without contraction llc's own folds
// (fsub x, C to fadd x, -C, ...) differ from our literal selection; fp_fusion.ptx covers
// that.
func TestFPFusionMatchesLLC(t *testing.T) {
	llc := findLLC()
	if llc == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("llc-22 not found (apt-get install llvm-22)")
		}
		t.Skip("llc-22 not found; install Debian's llvm-22 to cross-check contraction")
	}
	const file = "testdata/fp_fusion.ll"
	ours, err := Compile(parse(t, file), Options{Arch: "sm_90", FPFusion: true})
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := exec.Command(llc, "-O3", "-march=nvptx64", "-mcpu=sm_90", "-mattr=+ptx84", "-fp-contract=fast", "-o", "-", file).Output()
	if err != nil {
		t.Fatalf("llc-22: %v", err)
	}
	a, b := storedExprs(ours), storedExprs(string(theirs))
	if len(a) != len(b) || len(a) < 10 {
		t.Fatalf("%d kernels in our PTX, %d in llc-22's", len(a), len(b))
	}
	for kernel, want := range b {
		if got := a[kernel]; kernel != "half2" && !slices.Equal(got, want) {
			t.Errorf("kernel %s stores\n%s\nllc-22's stores\n%s", kernel, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

var (
	entryName = regexp.MustCompile(`\.entry\s+(\w+)\(`)
	ptxInst   = regexp.MustCompile(`(?m)^\t([a-z][\w.]*)\s+([^;]*);`)
	typeSufx  = regexp.MustCompile(`\.[bfsu](8|16|32|64)$`)
)

// storedExprs returns, for each kernel of straight-line PTX (branches are skipped), the
// values its st instructions store, in order, each as "address = expression". An
// expression is opcode(operands) over parameters, loads and immediates; moves are
// transparent, the type of ld, st and mov is left out (llc writes .b32 where we write
// .f32), and the operands of add and mul, and the factors of fma, are sorted.
func storedExprs(ptx string) map[string][]string {
	out := map[string][]string{}
	parts := entryName.Split(ptx, -1)
	for i, n := range entryName.FindAllStringSubmatch(ptx, -1) {
		exprs := map[string]string{}
		expr := func(op string) string {
			if x, ok := exprs[op]; ok {
				return x
			}
			return op
		}
		address := func(op string) string {
			base, off, _ := strings.Cut(strings.Trim(op, "[] "), "+")
			return "[" + expr(base) + "+" + off + "]"
		}
		stores := []string{}
		for _, m := range ptxInst.FindAllStringSubmatch(parts[i+1], -1) {
			opcode, ops := m[1], splitOperands(m[2])
			base := typeSufx.ReplaceAllString(opcode, "")
			switch {
			case strings.HasPrefix(opcode, "ld.param"):
				exprs[ops[0]] = strings.Trim(ops[1], "[]")
			case strings.HasPrefix(opcode, "ld."):
				for k, d := range splitOperands(strings.Trim(ops[0], "{}")) {
					exprs[d] = base + address(ops[1]) + "#" + strconv.Itoa(k)
				}
			case strings.HasPrefix(opcode, "st."):
				for k, v := range splitOperands(strings.Trim(ops[1], "{}")) {
					stores = append(stores, base+address(ops[0])+"#"+strconv.Itoa(k)+" = "+expr(v))
				}
			case base == "mov":
				exprs[ops[0]] = expr(ops[1])
			case len(ops) > 1 && strings.HasPrefix(ops[0], "%"):
				args := make([]string, len(ops)-1)
				for k, a := range ops[1:] {
					args[k] = expr(a)
				}
				switch {
				case strings.HasPrefix(opcode, "fma."):
					slices.Sort(args[:2])
				case strings.HasPrefix(opcode, "add.") || strings.HasPrefix(opcode, "mul."):
					slices.Sort(args)
				}
				exprs[ops[0]] = opcode + "(" + strings.Join(args, ", ") + ")"
			}
		}
		out[n[1]] = stores
	}
	return out
}

// splitOperands splits a PTX operand list at the commas outside braces.
func splitOperands(s string) []string {
	var ops []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				ops = append(ops, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(ops, strings.TrimSpace(s[start:]))
}
