package conformance

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gotriton/gotriton/target"
)

// vendorOnly lists the cases that apply only to some targets, by case-name prefix and a
// part of the name, with the targets they apply to and the reason. On another device they
// are not applicable: the runner reports them as "n/a", neither passed nor failed. Devices
// without a target (the CPU interpreter) run everything.
var vendorOnly = []struct {
	prefix, contains string
	applies          func(t target.Target) bool
	why              string
}{
	{"ours/regressions/inline_asm_", "", onCUDA(0), "NVIDIA-only: PTX inline assembly"},
	{"ours/pdl_add/pdl_add_kernel/gdc/", "", onCUDA(0), "NVIDIA-only: programmatic dependent launch (PTX griddepcontrol)"},
	{"tutorial/11/add_kernel/pdl/", "", onCUDA(0), "NVIDIA-only: programmatic dependent launch (PTX griddepcontrol)"},
	// Inputs that only max_num_imprecise_acc's partial accumulators sum right: Triton splits
	// the accumulation on sm_90 only (its wgmma lowering).
	{"ours/regressions/imprecise_acc_kernel/", "/cancel", onCUDA(90), "sm_90 only: max_num_imprecise_acc's partial accumulators"},
	{"ours/dot_precision/", "/tf32x3/", onCUDA(0), "NVIDIA-only: input_precision tf32x3"},
	{"ours/regressions/dot", "/tf32", takes("tf32"), "input_precision tf32: NVIDIA and gfx942 only (Triton's gfx90a does not list it)"},
}

// onCUDA applies to CUDA targets from compute capability minCapability on.
func onCUDA(minCapability int) func(target.Target) bool {
	return func(t target.Target) bool { return t.Backend == target.CUDA && t.Capability >= minCapability }
}

// takes applies to the targets whose tl.dot takes input_precision p.
func takes(p string) func(target.Target) bool {
	return func(t target.Target) bool { return slices.Contains(t.DotInputPrecisions(), p) }
}

// NotApplicable returns why the case named name cannot apply to a device for target tgt
// (target.Parse's syntax; "" for a device without one), or "" when it applies.
func NotApplicable(name, tgt string) string {
	t, err := target.Parse(tgt)
	if tgt == "" || err != nil {
		return ""
	}
	for _, v := range vendorOnly {
		if strings.HasPrefix(name, v.prefix) && strings.Contains(name, v.contains) && !v.applies(t) {
			return fmt.Sprintf("%s; not applicable to %s", v.why, t)
		}
	}
	return ""
}

// notApplicableLines lists the n/a results of rep by reason, one line each.
func (rep *Report) notApplicableLines() []string {
	byWhy := map[string][]string{}
	for _, r := range rep.Results {
		if r.Status == NA {
			byWhy[r.Error] = append(byWhy[r.Error], r.Case)
		}
	}
	var lines []string
	for why, cases := range byWhy {
		lines = append(lines, fmt.Sprintf("n/a (%s): %s", why, strings.Join(cases, ", ")))
	}
	sort.Strings(lines)
	return lines
}
