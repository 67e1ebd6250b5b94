package driver

import (
	"fmt"
	"math"
	"strings"
)

// CFloat formats x as C's printf does for a float conversion (NaN and infinities as nan
// and inf; precision 6 unless given): spec is the conversion's flags, width and precision
// ("" for none) and conv its letter (f, F, e, E, g, G). device_print's devices share it.
func CFloat(x float64, spec string, conv byte) string {
	switch {
	case math.IsNaN(x):
		if math.Signbit(x) {
			return "-nan"
		}
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	if !strings.Contains(spec, ".") {
		spec += ".6"
	}
	if conv == 'F' {
		conv = 'f'
	}
	return fmt.Sprintf("%"+spec+string(conv), x)
}
