package tileir

// f32DotTCPass is the pass table's entry "f32_dot_tc": F32DotTC as Triton 3.6's NVIDIA
// backend runs it on sm_80 and later (emu-tf32=1).
func f32DotTCPass(f *Func) bool { return f32DotTC(f, true) }

// f32DotTCBF16Pass is the pass table's entry "f32_dot_tc_bf16": F32DotTC as the AMD
// backend runs it (emu-tf32=0), bf16x3 and bf16x6 only.
func f32DotTCBF16Pass(f *Func) bool { return f32DotTC(f, false) }

// F32DotTC rewrites every tt.dot of m with fp32 operands and inputPrecision bf16x3 or
// bf16x6 (and tf32x3 when emuTF32) into dots that tensor cores run, as Triton 3.6's
// TritonGPU pass F32DotTC does (lib/Dialect/TritonGPU/Transforms/F32DotTC.cpp):
//
//   - bf16x3 and bf16x6: each operand x is split into bf16 parts hi = truncf(x), mid =
//     truncf(x - extf(hi)) and, for bf16x6, lo = truncf(x - extf(hi) - extf(mid)). From a
//     zero accumulator come the dots (bf16 operands, fp32 accumulation) mid·mid, lo·hi,
//     hi·lo (bf16x6 only), then mid·hi and hi·mid; NaNs of that sum become 0; then hi·hi
//     is accumulated, and the dot's own accumulator added last (arith.addf).
//   - tf32x3: big = x rounded to tf32 (to nearest, ties away from zero, as PTX's
//     cvt.rna.tf32.f32), small = x - big; dots with inputPrecision tf32 small_a·big_b,
//     then big_a·small_b, NaNs of that sum become 0, then big_a·big_b, and the
//     accumulator added last.
//
// The NaN rule keeps a finite-times-infinite product right: 1.0 splits into 1.0 and 0.0,
// +inf into +inf and NaN (inf - inf), so the small terms are NaN while hi·hi is +inf.
// Triton rounds to tf32 with inline PTX; the same rounding is built here from integer ops
// (bits + 0x1000, low 13 bits cleared, NaN kept), so that every device runs it. The
// rewritten dots are tf32 or bf16 ones, so a second run changes nothing. It reports
// whether it rewrote any.
func F32DotTC(m *Module, emuTF32 bool) bool {
	changed := false
	for _, f := range m.Funcs {
		changed = f32DotTC(f, emuTF32) || changed
	}
	return changed
}

// f32DotTC is F32DotTC on one function.
func f32DotTC(f *Func, emuTF32 bool) bool {
	rw := newRewriter()
	rw.walk(f, func(op *Op) {
		if op.Name != "tt.dot" || ScalarOf(op.Operands[0].Type) != F32 || ScalarOf(op.Operands[1].Type) != F32 {
			return
		}
		b := &Builder{Loc: op.Loc}
		b.SetInsertionPointBefore(op)
		a, x, c := op.Operands[0], op.Operands[1], op.Operands[2]
		switch p := op.EnumAttr("inputPrecision"); {
		case p == "bf16x3" || p == "bf16x6":
			rw.replace(op, bf16xN(b, a, x, c, p == "bf16x6"))
		case p == "tf32x3" && emuTF32:
			rw.replace(op, tf32x3(b, a, x, c, int(op.IntAttr("maxNumImpreciseAcc"))))
		}
	})
	return rw.changed
}

// splitBF16 splits fp32 x into n bf16 parts, largest first: each part is the remainder so
// far truncated to bf16, and the next remainder is the remainder minus that part.
func splitBF16(b *Builder, x *Value, n int) []*Value {
	parts := make([]*Value, n)
	for i := range parts {
		parts[i] = b.Cast("arith.truncf", x, WithElem(x.Type, BF16))
		if i < n-1 {
			x = b.SubF(x, b.Cast("arith.extf", parts[i], x.Type))
		}
	}
	return parts
}

// zeroNaNs replaces the NaN elements of x by zero (of type zero).
func zeroNaNs(b *Builder, x, zero *Value) *Value {
	return b.Select(b.CmpF("uno", x, x), zero, x)
}

// bf16xN builds a·x + c from bf16 parts: 3 dots, or 6 with six.
func bf16xN(b *Builder, a, x, c *Value, six bool) *Value {
	const hi, mid, lo = 0, 1, 2
	n := 2
	if six {
		n = 3
	}
	l, r := splitBF16(b, a, n), splitBF16(b, x, n)
	zero := b.Zero(c.Type)
	acc := zero
	var pairs [][2]int
	if six {
		pairs = [][2]int{{mid, mid}, {lo, hi}, {hi, lo}}
	}
	for _, p := range append(pairs, [2]int{mid, hi}, [2]int{hi, mid}) {
		acc = b.Dot(l[p[0]], r[p[1]], acc, "ieee", 0)
	}
	acc = b.Dot(l[hi], r[hi], zeroNaNs(b, acc, zero), "ieee", 0)
	return b.AddF(acc, c)
}

// tf32x3 builds a·x + c from tf32 parts in 3 tf32 dots.
func tf32x3(b *Builder, a, x, c *Value, maxImprecise int) *Value {
	aBig := roundTF32(b, a)
	aSmall := b.SubF(a, aBig)
	xBig := roundTF32(b, x)
	xSmall := b.SubF(x, xBig)
	zero := b.Zero(c.Type)
	acc := b.Dot(aSmall, xBig, zero, "tf32", maxImprecise)
	acc = b.Dot(aBig, xSmall, acc, "tf32", maxImprecise)
	acc = b.Dot(aBig, xBig, zeroNaNs(b, acc, zero), "tf32", maxImprecise)
	return b.AddF(acc, c)
}

// roundTF32 rounds fp32 x to tf32 (10 mantissa bits), to nearest with ties away from
// zero, as cvt.rna.tf32.f32: adding half of the dropped bits' weight to the bit pattern
// carries into the kept ones exactly when the magnitude rounds up (the sign bit is never
// reached: the largest finite magnitude carries into +inf's pattern), then the low 13
// bits are cleared. A NaN stays as it is.
func roundTF32(b *Builder, x *Value) *Value {
	i32 := WithElem(x.Type, I32)
	bits := b.Bitcast(x, i32)
	bits = b.AddI(bits, b.ConstInt(0x1000, i32))
	bits = b.Binary("arith.andi", bits, b.ConstInt(^0x1FFF, i32))
	return b.Select(b.CmpF("uno", x, x), x, b.Bitcast(bits, x.Type))
}
