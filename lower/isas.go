package lower

import (
	"fmt"
	"strings"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/lower/isa/amd"
	"github.com/gotriton/gotriton/lower/isa/nvidia"
	"github.com/gotriton/gotriton/target"
)

// arches are the instruction-set families lower can target, one package each under
// lower/isa.
var arches = []isa.Arch{nvidia.Arch, amd.Arch}

// archOf returns the family that covers t.
func archOf(t target.Target) (isa.Arch, error) {
	var names []string
	for _, a := range arches {
		if a.Supports(t) {
			return a, nil
		}
		names = append(names, a.Name)
	}
	return isa.Arch{}, fmt.Errorf("lower: target %s: only %s targets are lowered so far", t, strings.Join(names, ", "))
}
