package ptx

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// checkWarpGroupMMA finds, in the lines of PTX text (one CFG over the whole text: labels
// are unique across our files' functions), the uses of wgmma.mma_async that ptxas
// answers with slower code than the PTX asks for:
//   - an instruction other than a wgmma that reads or writes an accumulator register of
//     a wgmma still in flight (issued, and not yet retired by a wgmma.wait_group): ptxas
//     then serializes every wgmma of the function (its C7514);
//   - a wgmma whose register operands (accumulators it adds to, or A's fragments)
//     another instruction wrote after the last wgmma.fence, which PTX requires between
//     them (ptxas orders them itself);
//   - a wgmma.commit_group that, on some path, closes a group with no wgmma in it: ptxas
//     issues an HGMMA of its own for it, with a warpgroup.arrive it injects (C7519).
//
// The analysis follows the control flow: a wgmma left in flight at a loop's back edge is
// in flight at the loop's head.
func checkWarpGroupMMA(lines []string) []string {
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "wgmma.mma_async") }) {
		return nil
	}
	var ins []wgInstr
	labels := map[string]int{}
	for n, line := range lines {
		code, _, _ := strings.Cut(line, "//")
		for _, part := range strings.Split(code, ";") {
			part = strings.Trim(strings.TrimSpace(part), "{} \t")
			if m := labelDef.FindStringSubmatch(part); m != nil {
				labels[m[1]] = len(ins)
				part = strings.TrimSpace(part[len(m[0]):])
			}
			if part == "" || strings.HasPrefix(part, ".") {
				continue
			}
			ins = append(ins, parseWGInstr(part, n+1))
		}
	}
	succ := func(i int) []int {
		in := ins[i]
		var out []int
		switch {
		case in.branch != "":
			if t, ok := labels[in.branch]; ok {
				out = append(out, t)
			}
			if in.guarded {
				out = append(out, i+1)
			}
		case in.op == "ret" || in.op == "exit":
		default:
			out = append(out, i+1)
		}
		return slices.DeleteFunc(out, func(j int) bool { return j >= len(ins) })
	}
	states := make([]*wgState, len(ins))
	states[0] = &wgState{}
	for work := []int{0}; len(work) > 0; {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		out := states[i].step(ins[i])
		for _, j := range succ(i) {
			if merged, changed := states[j].merge(out); changed {
				states[j] = merged
				work = append(work, j)
			}
		}
	}
	var errs []string
	for i, in := range ins {
		st := states[i]
		if st == nil {
			continue
		}
		switch in.kind {
		case wgMMA:
			for _, r := range in.operands {
				if at, ok := st.written[r]; ok {
					errs = append(errs, fmt.Sprintf("line %d: wgmma.mma_async reads %s, written at line %d after the last wgmma.fence (PTX wants a wgmma.fence between)", in.line, r, at))
					break
				}
			}
		case wgCommit:
			if st.emptyGroup {
				errs = append(errs, fmt.Sprintf("line %d: wgmma.commit_group closes a group with no wgmma.mma_async on some path (ptxas issues an HGMMA for it)", in.line))
			}
		case wgOther:
			for _, r := range in.regs {
				if at, ok := st.inFlight(r); ok {
					errs = append(errs, fmt.Sprintf("line %d: %s uses %s, an accumulator of the wgmma.mma_async at line %d still in flight (ptxas serializes the function's wgmma)", in.line, in.op, r, at))
					break
				}
			}
		}
	}
	return errs
}

type wgKind int

const (
	wgOther wgKind = iota
	wgMMA
	wgFence
	wgCommit
	wgWait
)

// wgInstr is one instruction as checkWarpGroupMMA sees it.
type wgInstr struct {
	line    int
	op      string // the opcode's first part: "mov", "wgmma", "bra"
	kind    wgKind
	guarded bool     // under a predicate
	branch  string   // a branch's target label
	regs    []string // every register named
	dests   []string // the registers it writes (its first operand), for wgOther
	// for a wgmma.mma_async: its accumulators, and the registers in its braces
	// (accumulators and A's fragments) that it reads
	acc, operands []string
	pending       int // for a wgmma.wait_group: N
}

var (
	wgBraces = regexp.MustCompile(`\{([^}]*)\}`)
	wgGuard  = regexp.MustCompile(`^@!?%\w+\s+`)
)

func parseWGInstr(text string, line int) wgInstr {
	in := wgInstr{line: line}
	if g := wgGuard.FindString(text); g != "" {
		in.guarded = true
		text = text[len(g):]
	}
	opcode, operands, _ := strings.Cut(text, " ")
	in.op, _, _ = strings.Cut(opcode, ".")
	in.regs = regUse.FindAllString(operands, -1)
	switch {
	case strings.HasPrefix(opcode, "wgmma.mma_async"):
		in.kind = wgMMA
		groups := wgBraces.FindAllStringSubmatch(operands, -1)
		for gi, g := range groups {
			regs := regUse.FindAllString(g[1], -1)
			if gi == 0 {
				in.acc = regs
			}
			in.operands = append(in.operands, regs...)
		}
		// with scale-d the immediate 0 the accumulators are not read
		if scaleDZero(operands) {
			in.operands = in.operands[len(in.acc):]
		}
	case strings.HasPrefix(opcode, "wgmma.fence"):
		in.kind = wgFence
	case strings.HasPrefix(opcode, "wgmma.commit_group"):
		in.kind = wgCommit
	case strings.HasPrefix(opcode, "wgmma.wait_group"):
		in.kind = wgWait
		in.pending, _ = strconv.Atoi(strings.TrimSpace(operands))
	case in.op == "bra":
		in.branch = strings.TrimSpace(operands)
	default:
		if len(in.regs) > 0 && !slices.Contains([]string{"st", "bar", "cp", "mbarrier", "red", "fence", "ret", "exit"}, in.op) {
			in.dests = in.regs[:1]
		}
	}
	return in
}

// scaleDZero reports whether a wgmma.mma_async's scale-d operand (the first after its
// matrix operands) is the immediate 0.
func scaleDZero(operands string) bool {
	rest := operands
	if i := strings.LastIndex(rest, "}"); i >= 0 {
		rest = rest[i+1:]
	}
	fields := strings.Split(rest, ",")
	// after the braces: [""] then, for A by descriptor, a-desc, b-desc, scale-d; for A
	// in registers, b-desc, scale-d
	idx := 3
	if strings.Count(operands, "{") > 1 {
		idx = 2
	}
	return len(fields) > idx && strings.TrimSpace(fields[idx]) == "0"
}

// maxWGGroups is the most committed groups wgState tells apart (wgmma.wait_group
// takes N up to 7).
const maxWGGroups = 8

// wgState is what checkWarpGroupMMA knows before an instruction, over every path to it.
type wgState struct {
	pending    map[string]int   // accumulators of wgmmas not yet committed -> line
	groups     []map[string]int // committed groups, oldest first
	written    map[string]int   // registers written since the last wgmma.fence -> line
	emptyGroup bool             // no wgmma since the last commit on some path
}

func (s *wgState) inFlight(r string) (int, bool) {
	if at, ok := s.pending[r]; ok {
		return at, true
	}
	for _, g := range s.groups {
		if at, ok := g[r]; ok {
			return at, true
		}
	}
	return 0, false
}

// step returns the state after in.
func (s *wgState) step(in wgInstr) *wgState {
	out := &wgState{pending: s.pending, groups: s.groups, written: s.written, emptyGroup: s.emptyGroup}
	switch in.kind {
	case wgMMA:
		out.pending = copyLines(s.pending)
		for _, r := range in.acc {
			out.pending[r] = in.line
		}
		// the next wgmma may read what this one writes (PTX's exception for the
		// accumulators of a chain of wgmma)
		if len(s.written) > 0 {
			out.written = copyLines(s.written)
			for _, r := range in.acc {
				delete(out.written, r)
			}
		}
		out.emptyGroup = false
	case wgFence:
		out.written = nil
	case wgCommit:
		out.groups = append(slices.Clip(s.groups), s.pending)
		if len(out.groups) > maxWGGroups {
			// the oldest two as one, so that a loop without waits converges
			out.groups = append([]map[string]int{unionLines(out.groups[0], out.groups[1])}, out.groups[2:]...)
		}
		out.pending = nil
		out.emptyGroup = true
	case wgWait:
		if keep := min(in.pending, len(s.groups)); keep < len(s.groups) {
			out.groups = s.groups[len(s.groups)-keep:]
		}
	default:
		if len(in.dests) > 0 {
			out.written = copyLines(s.written)
			for _, r := range in.dests {
				out.written[r] = in.line
			}
		}
	}
	return out
}

// merge joins o into s (nil: no path yet); the groups align on the newest.
func (s *wgState) merge(o *wgState) (*wgState, bool) {
	if s == nil {
		return o, true
	}
	m := &wgState{pending: unionLines(s.pending, o.pending), written: unionLines(s.written, o.written), emptyGroup: s.emptyGroup || o.emptyGroup}
	n := max(len(s.groups), len(o.groups))
	m.groups = make([]map[string]int, n)
	for i := range n {
		var a, b map[string]int
		if j := i - (n - len(s.groups)); j >= 0 {
			a = s.groups[j]
		}
		if j := i - (n - len(o.groups)); j >= 0 {
			b = o.groups[j]
		}
		m.groups[i] = unionLines(a, b)
	}
	changed := m.emptyGroup != s.emptyGroup || len(m.pending) != len(s.pending) || len(m.written) != len(s.written) || len(m.groups) != len(s.groups)
	for i := 0; !changed && i < n; i++ {
		changed = len(m.groups[i]) != len(s.groups[i])
	}
	return m, changed
}

func copyLines(m map[string]int) map[string]int {
	c := make(map[string]int, len(m)+8)
	for k, v := range m {
		c[k] = v
	}
	return c
}

// unionLines is a ∪ b, keeping a's line where both have a register.
func unionLines(a, b map[string]int) map[string]int {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	u := copyLines(a)
	for k, v := range b {
		if _, ok := u[k]; !ok {
			u[k] = v
		}
	}
	return u
}
