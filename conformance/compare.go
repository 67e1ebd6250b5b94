package conformance

import (
	"fmt"
	"math"
)

// Comparison is the outcome of comparing an output with its reference.
type Comparison struct {
	OK bool
	// RelErr is ||got - want||_2 / ||want||_2 (the absolute norm when want is all zeros).
	RelErr float64
	Msg    string
}

// Compare checks got against want. Floats pass when the relative L2 error is below tol
// and no element of got is NaN (unless want is NaN there too, which no case uses) or
// infinite where want is finite; integers must be exact. The message names the worst
// element.
func Compare(got, want []float64, float bool, tol float64) Comparison {
	if len(got) != len(want) {
		return Comparison{Msg: fmt.Sprintf("%d elements, want %d", len(got), len(want))}
	}
	var num, den float64
	worst, worstDiff := -1, -1.0
	nan, nanAt := 0, -1
	bad, badAt := 0, -1
	for i := range got {
		g, w := got[i], want[i]
		if math.IsNaN(g) || math.IsInf(g, 0) && !math.IsInf(w, 0) {
			nan++
			if nanAt < 0 {
				nanAt = i
			}
			continue
		}
		if math.IsInf(w, 0) {
			if g != w {
				bad++
				if badAt < 0 {
					badAt = i
				}
			}
			continue
		}
		d := g - w
		if !float && d != 0 {
			bad++
			if badAt < 0 {
				badAt = i
			}
		}
		num += d * d
		den += w * w
		if a := math.Abs(d); a > worstDiff {
			worst, worstDiff = i, a
		}
	}
	rel := math.Sqrt(num)
	if den > 0 {
		rel /= math.Sqrt(den)
	}
	c := Comparison{RelErr: rel}
	switch {
	case nan > 0:
		c.Msg = fmt.Sprintf("%d of %d elements are NaN or infinite (first at %d: got %v, want %v)", nan, len(got), nanAt, got[nanAt], want[nanAt])
	case bad > 0:
		c.Msg = fmt.Sprintf("%d of %d elements differ (first at %d: got %v, want %v)", bad, len(got), badAt, got[badAt], want[badAt])
	case float && (math.IsNaN(rel) || rel >= tol):
		c.Msg = fmt.Sprintf("relative L2 error %.3g >= %.3g (worst at %d: got %v, want %v)", rel, tol, worst, got[worst], want[worst])
	default:
		c.OK = true
	}
	return c
}
