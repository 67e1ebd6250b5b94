package simt

import (
	"fmt"
	"math"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
)

// mfmaShape is one of the llvm.amdgcn.mfma.* instructions lower emits (gfx90a, gfx942):
// D = A·B + C for an n×n tile and K k, A's and B's elements of format in ("f16", "bf16",
// "f32", "f64", "i8", "fp8", "bf8"; b is B's format where it differs), the accumulators
// of kind acc.
type mfmaShape struct {
	n, k  int
	in, b string
	acc   kind
}

// mfmaShapes are the instructions by intrinsic name.
var mfmaShapes = func() map[string]mfmaShape {
	m := map[string]mfmaShape{
		"f32.32x32x8f16":      {n: 32, k: 8, in: "f16", acc: kF32},
		"f32.16x16x16f16":     {n: 16, k: 16, in: "f16", acc: kF32},
		"f32.32x32x8bf16.1k":  {n: 32, k: 8, in: "bf16", acc: kF32},
		"f32.16x16x16bf16.1k": {n: 16, k: 16, in: "bf16", acc: kF32},
		"f32.32x32x2f32":      {n: 32, k: 2, in: "f32", acc: kF32},
		"f32.16x16x4f32":      {n: 16, k: 4, in: "f32", acc: kF32},
		"f64.16x16x4f64":      {n: 16, k: 4, in: "f64", acc: kF64},
		"i32.32x32x8i8":       {n: 32, k: 8, in: "i8", acc: kI32},
		"i32.16x16x16i8":      {n: 16, k: 16, in: "i8", acc: kI32},
		"i32.32x32x16.i8":     {n: 32, k: 16, in: "i8", acc: kI32},
		"i32.16x16x32.i8":     {n: 16, k: 32, in: "i8", acc: kI32},
	}
	for _, a := range []string{"fp8", "bf8"} {
		for _, b := range []string{"fp8", "bf8"} {
			m["f32.32x32x16."+a+"."+b] = mfmaShape{n: 32, k: 16, in: a, b: b, acc: kF32}
			m["f32.16x16x32."+a+"."+b] = mfmaShape{n: 16, k: 32, in: a, b: b, acc: kF32}
		}
	}
	return m
}()

func init() {
	for name, sh := range mfmaShapes {
		AMD.Intrinsics["llvm.amdgcn.mfma."+name] = sh.compile
	}
}

// kBase is the elements of A (and B) one lane holds.
func (sh mfmaShape) kBase() int { return sh.k * sh.n / 64 }

// operandType is the LLVM type the intrinsic takes kBase elements of format in as.
func operandType(in string, kBase int) string {
	switch in {
	case "f16":
		return types.NewVector(uint64(kBase), types.Half).String()
	case "bf16":
		return types.NewVector(uint64(kBase), types.I16).String()
	case "f32":
		return types.Float.String()
	case "f64":
		return types.Double.String()
	}
	return types.NewInt(uint64(8 * kBase)).String()
}

// decode returns element i of a lane's operand of format in: elems are the operand's
// elements (kBase of them, or one integer packing kBase bytes).
func decode(in string, elems func(i int) uint64, i int) float64 {
	switch in {
	case "f16":
		return toFloat(kF16, elems(i))
	case "bf16":
		return toFloat(kBF16, elems(i))
	case "f32":
		return toFloat(kF32, elems(0))
	case "f64":
		return toFloat(kF64, elems(0))
	}
	b := elems(0) >> (8 * i) & 0xFF
	switch in {
	case "fp8":
		return e4m3fnuz.decode(b)
	case "bf8":
		return e5m2fnuz.decode(b)
	}
	return float64(int8(b))
}

// compile compiles a call of the instruction. Its operands are the instruction's A and
// B, C, and cbsz, abid and blgp, which must be 0 (no broadcast). Each wavefront's lanes
// (all of which must run it) hold, for n×n and kBase = k·n/64: A's row i, K kBase·(l/n)
// onwards, in lane l = i + n·(k/kBase), element k%kBase; likewise B's column j; and of
// D, for h = 4 rows (1 for f64) at a time and g = 64/n lane groups, row i column j in
// lane j + n·((i/h) mod g), register i%h + h·(i/(h·g)). Floats are summed in float64
// (f64 with one fused multiply-add per product, in K order) and rounded once to the
// accumulator's type; int8 products are summed exactly, wrapping to int32.
func (sh mfmaShape) compile(s *site) (op, error) {
	name := s.inst.Callee.Ident()
	bIn := sh.b
	if bIn == "" {
		bIn = sh.in
	}
	kb := sh.kBase()
	regs := sh.n * sh.n / 64
	if len(s.args) != 6 {
		return nil, fmt.Errorf("%s with %d operands", name, len(s.args))
	}
	for i, in := range []string{sh.in, bIn} {
		if got, want := s.args[i].typ.String(), operandType(in, kb); got != want {
			return nil, fmt.Errorf("%s: operand %d is %s, want %s", name, i, got, want)
		}
	}
	if s.args[2].n() != regs || s.args[2].kinds[0] != sh.acc || s.dst.n() != regs {
		return nil, fmt.Errorf("%s: accumulators of type %s", name, s.args[2].typ)
	}
	for _, a := range s.inst.Args[3:] {
		if c, ok := a.(*constant.Int); !ok || c.X.Sign() != 0 {
			return nil, fmt.Errorf("%s: cbsz, abid and blgp must be 0, got %s", name, a.Ident())
		}
	}
	h := 4
	if sh.acc == kF64 {
		h = 1
	}
	groups := 64 / sh.n
	oa, ob, oc, od := s.args[0], s.args[1], s.args[2], s.dst
	wave := s.b.k.isa.WarpSize
	return func(f *frame) error {
		if err := f.converged("an MFMA instruction"); err != nil {
			return err
		}
		for l := range f.lanes {
			if !f.on(l) {
				return laneErr(f, l, fmt.Errorf("an MFMA instruction with lane %d disabled", l%wave))
			}
		}
		el := func(o operand, l int) func(i int) uint64 {
			return func(i int) uint64 { return f.regs[o.off+i*f.lanes+l] }
		}
		A := make([][]float64, sh.n)
		B := make([][]float64, sh.k)
		for i := range A {
			A[i] = make([]float64, sh.k)
		}
		for k := range B {
			B[k] = make([]float64, sh.n)
		}
		for base := 0; base < f.lanes; base += wave {
			for i := range sh.n {
				for k := range sh.k {
					l := base + i + sh.n*(k/kb)
					A[i][k] = decode(sh.in, el(oa, l), k%kb)
					B[k][i] = decode(bIn, el(ob, l), k%kb)
				}
			}
			for i := range sh.n {
				for j := range sh.n {
					l := base + j + sh.n*(i/h%groups)
					r := i%h + h*(i/(h*groups))
					c := f.regs[oc.off+r*f.lanes+l]
					var d uint64
					switch sh.acc {
					case kI32:
						sum := int64(int32(c))
						for k := range sh.k {
							sum += int64(A[i][k]) * int64(B[k][j])
						}
						d = uint64(uint32(sum))
					case kF64:
						sum := toFloat(kF64, c)
						for k := range sh.k {
							sum = math.FMA(A[i][k], B[k][j], sum)
						}
						d = fromFloat(kF64, sum)
					default:
						sum := toFloat(kF32, c)
						for k := range sh.k {
							sum += A[i][k] * B[k][j]
						}
						d = fromFloat(kF32, sum)
					}
					f.regs[od.off+r*f.lanes+l] = d
				}
			}
		}
		return nil
	}, nil
}
