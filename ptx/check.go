package ptx

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

var (
	regDecl  = regexp.MustCompile(`\.reg\s+\.\w+\s+([^;]+);`)
	regUse   = regexp.MustCompile(`%[A-Za-z_$][A-Za-z0-9_$]*`)
	labelDef = regexp.MustCompile(`^\s*(\$?[A-Za-z_][A-Za-z0-9_$]*):`)
	braTgt   = regexp.MustCompile(`\bbra(?:\.uni)?\s+(\$?[A-Za-z_][A-Za-z0-9_$]*)\s*;`)
	declRng  = regexp.MustCompile(`^(%[A-Za-z_$][A-Za-z0-9_$]*)<(\d+)>$`)
)

// specialRegs are PTX's predefined registers (read with mov).
var specialRegs = map[string]bool{
	"%tid": true, "%ntid": true, "%laneid": true, "%warpid": true, "%nwarpid": true,
	"%ctaid": true, "%nctaid": true, "%smid": true, "%nsmid": true, "%gridid": true,
	"%clock": true, "%clock64": true, "%globaltimer": true, "%lanemask_eq": true,
	"%lanemask_le": true, "%lanemask_lt": true, "%lanemask_ge": true, "%lanemask_gt": true,
	"%clusterid": true, "%nclusterid": true, "%cluster_ctaid": true, "%cluster_nctaid": true,
	"%cluster_ctarank": true, "%cluster_nctarank": true, "%is_explicit_cluster": true,
	"%dynamic_smem_size": true, "%total_smem_size": true, "%envreg": true, "%pm": true,
}

// Check runs a structural check on PTX text: braces balance, every
// register used is declared (".reg .b32 %r<5>;" declares %r0..%r4), and
// every branch target is a label defined in the same function; and it finds the
// uses of wgmma that ptxas compiles into slower code than they ask for
// (checkWarpGroupMMA). It does not replace ptxas; it catches emitter bugs early and
// without a GPU.
func Check(src string) error {
	depth := 0
	declared := map[string]bool{}
	labels := map[string]bool{}
	var targets []string
	var errs []string
	flush := func() {
		for _, t := range targets {
			if !labels[t] {
				errs = append(errs, fmt.Sprintf("branch to undefined label %s", t))
			}
		}
		declared, labels, targets = map[string]bool{}, map[string]bool{}, nil
	}
	lines := strings.Split(src, "\n")
	for n, line := range lines {
		code, _, _ := strings.Cut(line, "//")
		for _, m := range regDecl.FindAllStringSubmatch(code, -1) {
			for _, name := range strings.Split(m[1], ",") {
				name = strings.TrimSpace(name)
				if r := declRng.FindStringSubmatch(name); r != nil {
					k, _ := strconv.Atoi(r[2])
					for i := 0; i < k; i++ {
						declared[r[1]+strconv.Itoa(i)] = true
					}
				} else {
					declared[name] = true
				}
			}
		}
		if m := labelDef.FindStringSubmatch(code); m != nil {
			labels[m[1]] = true
		}
		for _, m := range braTgt.FindAllStringSubmatch(code, -1) {
			targets = append(targets, m[1])
		}
		if !strings.Contains(code, ".reg") {
			for _, r := range regUse.FindAllString(code, -1) {
				base, _, _ := strings.Cut(r, ".")
				if !declared[r] && !specialRegs[base] {
					errs = append(errs, fmt.Sprintf("line %d: register %s is not declared", n+1, r))
				}
			}
		}
		for _, ch := range code {
			switch ch {
			case '{':
				depth++
			case '}':
				depth--
				if depth < 0 {
					errs = append(errs, fmt.Sprintf("line %d: unbalanced '}'", n+1))
					depth = 0
				}
				if depth == 0 {
					flush()
				}
			}
		}
	}
	if depth != 0 {
		errs = append(errs, "unbalanced braces at end of input")
	}
	errs = append(errs, checkWarpGroupMMA(lines)...)
	if len(errs) > 0 {
		return fmt.Errorf("ptx check: %s", strings.Join(errs, "; "))
	}
	return nil
}
