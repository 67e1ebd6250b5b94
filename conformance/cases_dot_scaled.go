package conformance

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Cases over conformance/kernels/dot_scaled.py: tl.dot_scaled in the shapes, formats,
// strides and scale layouts of Triton's test_scaled_dot, checked against a float64
// reference computed from the microscaling definition.

// scaledFormats are tl.dot_scaled's operand formats.
var scaledFormats = []string{"e2m1", "e4m3", "e5m2", "bf16", "fp16"}

// dotScaledCases returns the cases of dot_scaled.py.
func dotScaledCases() []Case {
	k := ours("dot_scaled")
	var cs []Case
	// As test_scaled_dot: one mx operand with a scale, one "normal" operand without,
	// strides and shapes varied over the cases, fast_math both ways.
	shapes := [][3]int{{32, 32, 64}, {64, 32, 128}, {32, 128, 64}, {128, 64, 128}, {16, 16, 64}, {64, 128, 64}}
	i := 0
	for _, mx := range []string{"e2m1", "e4m3", "e5m2"} {
		for _, normal := range []string{"e4m3", "e5m2", "bf16", "fp16"} {
			for _, rhsScale := range []bool{false, true} {
				s := shapes[i%len(shapes)]
				c := scaledDot{M: s[0], N: s[1], K: s[2], colA: i%2 == 1, colB: i%4 >= 2, fastMath: i%3 == 0}
				c.format = [2]string{mx, normal}
				c.scaled = [2]bool{true, false}
				if rhsScale {
					c.format = [2]string{normal, mx}
					c.scaled = [2]bool{false, true}
				}
				cs = append(cs, c.cas(k))
				i++
			}
		}
	}
	// Every pair of formats, both operands scaled.
	for _, fa := range scaledFormats {
		for _, fb := range scaledFormats {
			c := scaledDot{M: 32, N: 32, K: 64, format: [2]string{fa, fb}, scaled: [2]bool{true, true}}
			cs = append(cs, c.cas(k))
		}
	}
	return append(cs, dotScaledLoopCase(k, "e2m1", "bf16"), dotScaledLoopCase(k, "e4m3", "e5m2"), e8m0Case(k))
}

// e8m0Case: e8m0_to_bf16_kernel(s, out, n, 256) over every finite e8m0 value (0 gives 0,
// as its bits shifted into a bf16 exponent do), out = 2^(s-127) in fp32.
func e8m0Case(k kernelRef) Case {
	const n = 255
	return k.cas(fmt.Sprintf("e8m0_to_bf16_kernel/n=%d", n), func(*rand.Rand) *Problem {
		s, want := zeros(U8, n), make([]float64, n)
		for i := 1; i < n; i++ {
			s.Data[i], want[i] = float64(i), math.Ldexp(1, i-127)
		}
		return &Problem{
			Tensors: map[string]*Tensor{"s": s, "out": output(FP32, n)},
			Steps: []Step{{Kernel: "e8m0_to_bf16_kernel", Args: []Arg{Ptr("s"), Ptr("out"), Int(n), Const(256)},
				Grid: [3]int{1, 1, 1}, NumWarps: 4, NumStages: 3}},
			Checks: []Check{{Tensor: "out", Want: want}},
		}
	})
}

// scaledDot is one dot_scaled_kernel problem: out (M x N, fp32) = A (M x K) @ B (K x N),
// A and B in their formats, column-major when colA / colB.
type scaledDot struct {
	M, N, K    int
	colA, colB bool
	fastMath   bool
	format     [2]string
	scaled     [2]bool
}

// computeType is the type dot_scaled upcasts to: fp16 when either format is fp16.
func (c scaledDot) computeType() DType {
	if c.format[0] == "fp16" || c.format[1] == "fp16" {
		return FP16
	}
	return BF16
}

func (c scaledDot) cas(k kernelRef) Case {
	name := fmt.Sprintf("dot_scaled_kernel/%s", c.format[0])
	if c.scaled[0] {
		name += "(scaled)"
	}
	name += "x" + c.format[1]
	if c.scaled[1] {
		name += "(scaled)"
	}
	name += fmt.Sprintf("/%dx%dx%d", c.M, c.N, c.K)
	if c.colA {
		name += "/colA"
	}
	if c.colB {
		name += "/colB"
	}
	if c.fastMath {
		name += "/fast_math"
	}
	return k.cas(name, func(rng *rand.Rand) *Problem {
		ct := c.computeType()
		a := newScaledOperand(rng, c.format[0], ct, c.scaled[0], c.M, c.K, 0)
		b := newScaledOperand(rng, c.format[1], ct, c.scaled[1], c.N, c.K, 1)
		args := []Arg{Ptr("a")}
		args = append(args, a.strides(c.colA)...)
		args = append(args, a.scaleArg("a_scale"), Ptr("b"))
		args = append(args, b.strides(c.colB)...)
		args = append(args, b.scaleArg("b_scale"), Ptr("out"),
			Const(c.M), Const(c.N), Const(c.K), Str(c.format[0]), Str(c.format[1]), Const(c.fastMath))
		tensors := map[string]*Tensor{"a": a.stored(c.colA), "b": b.stored(c.colB), "out": output(FP32, c.M, c.N)}
		a.addScale(tensors, "a_scale")
		b.addScale(tensors, "b_scale")
		return &Problem{
			Tensors: tensors,
			Steps:   []Step{{Kernel: "dot_scaled_kernel", Args: args, Grid: [3]int{1, 1, 1}, NumWarps: 4, NumStages: 3}},
			Checks:  []Check{{Tensor: "out", Want: matmul(c.M, c.N, c.K, a.at, b.at)}},
		}
	})
}

// dotScaledLoopCase: dot_scaled_k_loop_kernel(a, a_scale, b, out, K, 32, 32, 64, fa, fb)
// over K = 256, the product accumulated through acc= in a loop.
func dotScaledLoopCase(k kernelRef, fa, fb string) Case {
	const M, N, K, blockK = 32, 32, 256, 64
	c := scaledDot{M: M, N: N, K: K, format: [2]string{fa, fb}, scaled: [2]bool{true, false}}
	return k.cas(fmt.Sprintf("dot_scaled_k_loop_kernel/%s(scaled)x%s/%dx%dx%d", fa, fb, M, N, K), func(rng *rand.Rand) *Problem {
		ct := c.computeType()
		a := newScaledOperand(rng, fa, ct, true, M, K, 0)
		b := newScaledOperand(rng, fb, ct, false, N, K, 1)
		tensors := map[string]*Tensor{"a": a.stored(false), "b": b.stored(false), "out": output(FP32, M, N)}
		a.addScale(tensors, "a_scale")
		return &Problem{
			Tensors: tensors,
			Steps: []Step{{Kernel: "dot_scaled_k_loop_kernel", Args: []Arg{Ptr("a"), Ptr("a_scale"), Ptr("b"), Ptr("out"), Int(K),
				Const(M), Const(N), Const(blockK), Str(fa), Str(fb)}, Grid: [3]int{1, 1, 1}, NumWarps: 4, NumStages: 3}},
			Checks: []Check{{Tensor: "out", Want: matmul(M, N, K, a.at, b.at)}},
		}
	})
}

// scaledOperand is one operand of a scaled dot: its stored elements (rows x cols as the
// kernel indexes them: M x K for the lhs, K x N for the rhs, e2m1 two to a byte along K),
// its e8m0 scales (rows x K/32, rows being M or N), and its value as the decomposition
// computes it.
type scaledOperand struct {
	format     string
	side       int // 0 lhs, 1 rhs
	rows, cols int // the stored shape
	data       []float64
	scale      []float64 // nil without a scale
	value      []float64 // upcast and scaled, row-major MN x K (for the rhs: N x K)
	k          int
}

// newScaledOperand draws an operand of format f whose non-K dimension is mn: bytes
// uniform over the finite encodings (e2m1, e4m3, e5m2) or normal values clamped as
// test_scaled_dot clamps them (bf16, fp16), and, when scaled, scales in the test's range
// (0..142 for bf16 compute, 124..131 for fp16). Values that would overflow fp16 once
// scaled are drawn again.
func newScaledOperand(rng *rand.Rand, f string, ct DType, scaled bool, mn, k, side int) *scaledOperand {
	op := &scaledOperand{format: f, side: side, k: k}
	minS, maxS := 0, 142
	maxExp := 15.0
	if ct == FP16 {
		minS, maxS, maxExp = 124, 131, 6
	}
	if scaled {
		op.scale = make([]float64, mn*(k/32))
		for i := range op.scale {
			op.scale[i] = float64(minS + rng.IntN(maxS-minS+1))
		}
	}
	pack := 1
	if f == "e2m1" {
		pack = 2
	}
	// Elements in (mn, k/pack) order; stored() lays them out as the kernel reads them.
	op.data = make([]float64, mn*k/pack)
	op.value = make([]float64, mn*k)
	limit := 6e4 / math.Ldexp(1, maxS-127)
	for i := range op.data {
		for {
			x, vals := drawScaled(rng, f, ct, maxExp)
			if ct == FP16 && (math.Abs(vals[0]) > limit || math.Abs(vals[len(vals)-1]) > limit) {
				continue
			}
			op.data[i] = x
			r, kk := i/(k/pack), i%(k/pack)*pack
			for j, v := range vals {
				op.value[r*k+kk+j] = op.scaled(v, r, kk+j, ct)
			}
			break
		}
	}
	if side == 1 {
		op.rows, op.cols = k/pack, mn
	} else {
		op.rows, op.cols = mn, k/pack
	}
	return op
}

// drawScaled draws one stored element of format f and the values it holds (two for
// e2m1: the low nibble's, then the high nibble's), upcast to ct.
func drawScaled(rng *rand.Rand, f string, ct DType, maxExp float64) (float64, []float64) {
	switch f {
	case "bf16", "fp16":
		dt := map[string]DType{"bf16": BF16, "fp16": FP16}[f]
		lim := math.Ldexp(1, int(maxExp))
		x := dt.Round(math.Max(-lim, math.Min(lim-1, rng.NormFloat64())))
		return x, []float64{ct.Round(x)}
	case "e2m1":
		b := rng.IntN(256)
		return float64(b), []float64{e2m1Value(b & 15), e2m1Value(b >> 4)}
	}
	dt := map[string]DType{"e4m3": FP8E4NV, "e5m2": FP8E5}[f]
	mf, _ := dt.mini()
	for {
		b := rng.IntN(256)
		if v := mf.decode(uint64(b)); !math.IsNaN(v) && !math.IsInf(v, 0) {
			return float64(b), []float64{v}
		}
	}
}

// e2m1Value decodes an e2m1 nibble: sign, two exponent bits (bias 1), one mantissa bit.
func e2m1Value(n int) float64 {
	v := []float64{0, 0.5, 1, 1.5, 2, 3, 4, 6}[n&7]
	if n&8 != 0 {
		return -v
	}
	return v
}

// scaled is value v at row r, position kk along K, times its scale, as the decomposition
// rounds it: the scale 2^(s-127) in ct (a scale of 0 is 0: its bits are shifted into an
// exponent field), the product rounded to ct.
func (op *scaledOperand) scaled(v float64, r, kk int, ct DType) float64 {
	if op.scale == nil {
		return v
	}
	s := int(op.scale[r*(op.k/32)+kk/32])
	f := 0.0
	if s != 0 {
		f = ct.Round(math.Ldexp(1, s-127))
	}
	return ct.Round(v * f)
}

// at is the operand's value at (i, j) in the kernel's view: A[m, k] or B[k, n].
func (op *scaledOperand) at(i, j int) float64 {
	if op.side == 1 {
		return op.value[j*op.k+i]
	}
	return op.value[i*op.k+j]
}

// stored returns the operand as the kernel reads it: rows x cols, row-major, or
// column-major (the test's .mT of a contiguous tensor) when col.
func (op *scaledOperand) stored(col bool) *Tensor {
	dt := map[string]DType{"bf16": BF16, "fp16": FP16}[op.format]
	if dt == "" {
		dt = U8
	}
	ks := op.kStored()
	elem := func(r, c int) float64 { // (row, col) of the kernel's rows x cols view
		if op.side == 1 {
			return op.data[c*ks+r]
		}
		return op.data[r*ks+c]
	}
	t := &Tensor{DType: dt, Shape: []int{op.rows, op.cols}, Data: make([]float64, op.rows*op.cols)}
	for r := range op.rows {
		for c := range op.cols {
			if col {
				t.Data[c*op.rows+r] = elem(r, c)
			} else {
				t.Data[r*op.cols+c] = elem(r, c)
			}
		}
	}
	return t
}

// kStored is the stored length along K.
func (op *scaledOperand) kStored() int {
	if op.format == "e2m1" {
		return op.k / 2
	}
	return op.k
}

// strides are the kernel's two stride arguments for the stored layout.
func (op *scaledOperand) strides(col bool) []Arg {
	if col {
		return []Arg{Int(1), Int(op.rows)}
	}
	return []Arg{Int(op.cols), Int(1)}
}

// scaleArg is the scale pointer, or None.
func (op *scaledOperand) scaleArg(name string) Arg {
	if op.scale == nil {
		return Const(nil)
	}
	return Ptr(name)
}

// addScale adds the scale tensor (rows x K/32 uint8) under name, when there is one.
func (op *scaledOperand) addScale(tensors map[string]*Tensor, name string) {
	if op.scale != nil {
		tensors[name] = &Tensor{DType: U8, Shape: []int{len(op.scale) / (op.k / 32), op.k / 32}, Data: op.scale}
	}
}
