package tileir

import (
	"math"
	"testing"
)

func TestFormatFloat(t *testing.T) {
	for _, c := range []struct {
		x    float64
		t    Scalar
		want string
	}{
		{0, F32, "0.000000e+00"},
		{1, F32, "1.000000e+00"},
		{-0.5, F16, "-5.000000e-01"},
		{RoundFloat(0.01, F32), F32, "0.00999999977"},
		{RoundFloat(0.044715, F32), F32, "4.471500e-02"},
		{RoundFloat(1e-6, F32), F32, "9.99999997E-7"},
		{RoundFloat(1.4426950408889634, F32), F32, "1.44269502"},
		{RoundFloat(0.1767766952966369, F32), F32, "0.176776692"},
		{math.MaxFloat32, F32, "3.40282347E+38"},
		{math.Inf(-1), F32, "0xFF800000"},
		{math.Inf(1), F16, "0x7C00"},
		{math.Inf(-1), BF16, "0xFF80"},
		{math.Inf(1), F64, "0x7FF0000000000000"},
		{RoundFloat(0.1, F16), F16, "9.997550e-02"}, // digits truncated, then read back as f16
	} {
		if got := formatFloat(c.x, c.t); got != c.want {
			t.Errorf("formatFloat(%v, %s) = %s, want %s", c.x, c.t, got, c.want)
		}
	}
}

func TestRoundFloat(t *testing.T) {
	for _, c := range []struct {
		x    float64
		t    Scalar
		want float64
	}{
		{1.0009765625, F16, 1.0009765625},
		{1.00048828125, F16, 1},                             // tie to even
		{65520, F16, math.Inf(1)},                           // past the largest finite f16
		{1.00390625, BF16, 1},                               // tie to even
		{1e-8, F16, 0},                                      // below the smallest subnormal / 2
		{5.960464477539063e-08, F16, 5.960464477539063e-08}, // smallest subnormal
	} {
		if got := RoundFloat(c.x, c.t); got != c.want {
			t.Errorf("RoundFloat(%v, %s) = %v, want %v", c.x, c.t, got, c.want)
		}
		if got := floatFromBits(floatBits(c.want, c.t), c.t); got != c.want {
			t.Errorf("bits round trip of %v as %s gives %v", c.want, c.t, got)
		}
	}
}
