package conformance

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gotriton/gotriton/target"
)

// vendorOnly lists the cases that apply only to one backend's targets, by case-name
// prefix, with the reason. On a device of another backend they are not applicable: the
// runner reports them as "n/a", neither passed nor failed. Devices without a target (the
// CPU interpreter) run everything.
var vendorOnly = []struct {
	prefix  string
	backend target.Backend
	why     string
}{
	{"ours/regressions/inline_asm_", target.CUDA, "NVIDIA-only: PTX inline assembly"},
	{"ours/pdl_add/pdl_add_kernel/gdc/", target.CUDA, "NVIDIA-only: programmatic dependent launch (PTX griddepcontrol)"},
	{"tutorial/11/add_kernel/pdl/", target.CUDA, "NVIDIA-only: programmatic dependent launch (PTX griddepcontrol)"},
}

// NotApplicable returns why the case named name cannot apply to a device for target tgt
// (target.Parse's syntax; "" for a device without one), or "" when it applies.
func NotApplicable(name, tgt string) string {
	t, err := target.Parse(tgt)
	if tgt == "" || err != nil {
		return ""
	}
	for _, v := range vendorOnly {
		if strings.HasPrefix(name, v.prefix) && t.Backend != v.backend {
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
