package conformance

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gotriton/gotriton/target"
)

// vendorOnly lists the cases that apply only to one backend's targets (and, for CUDA, from
// a compute capability on), by case-name prefix and a part of the name, with the reason. On another device they are not
// applicable: the runner reports them as "n/a", neither passed nor failed. Devices without
// a target (the CPU interpreter) run everything.
var vendorOnly = []struct {
	prefix, contains string
	backend          target.Backend
	minCapability    int
	why              string
}{
	{"ours/regressions/inline_asm_", "", target.CUDA, 0, "NVIDIA-only: PTX inline assembly"},
	{"ours/pdl_add/pdl_add_kernel/gdc/", "", target.CUDA, 0, "NVIDIA-only: programmatic dependent launch (PTX griddepcontrol)"},
	{"tutorial/11/add_kernel/pdl/", "", target.CUDA, 0, "NVIDIA-only: programmatic dependent launch (PTX griddepcontrol)"},
	// Inputs that only max_num_imprecise_acc's partial accumulators sum right: Triton splits
	// the accumulation on sm_90 only (its wgmma lowering).
	{"ours/regressions/imprecise_acc_kernel/", "/cancel", target.CUDA, 90, "sm_90 only: max_num_imprecise_acc's partial accumulators"},
	{"ours/dot_precision/", "/tf32x3/", target.CUDA, 0, "NVIDIA-only: input_precision tf32x3"},
}

// NotApplicable returns why the case named name cannot apply to a device for target tgt
// (target.Parse's syntax; "" for a device without one), or "" when it applies.
func NotApplicable(name, tgt string) string {
	t, err := target.Parse(tgt)
	if tgt == "" || err != nil {
		return ""
	}
	for _, v := range vendorOnly {
		if strings.HasPrefix(name, v.prefix) && strings.Contains(name, v.contains) &&
			(t.Backend != v.backend || t.Capability < v.minCapability) {
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
