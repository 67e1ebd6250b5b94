package nvidia

import (
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/tileir"
)

// ShuffleXor is shfl.sync.bfly over the whole warp.
func (n *ISA) ShuffleXor(x value.Value, mask int) value.Value {
	return n.b.Call("llvm.nvvm.shfl.sync.bfly.i32", types.I32, isa.I32(-1), x, isa.I32(int64(mask)), isa.I32(int64(n.t.WarpSize-1)))
}

// MulHiU is mul.hi.u32 and mul.hi.u64.
func (n *ISA) MulHiU(a, b value.Value) (value.Value, bool) {
	t := a.Type().(*types.IntType)
	switch t.BitSize {
	case 32:
		return n.b.Call("llvm.nvvm.mulhi.ui", t, a, b), true
	case 64:
		return n.b.Call("llvm.nvvm.mulhi.ull", t, a, b), true
	}
	return nil, false
}

// DivF32 is div.full.f32 (approximate, within 2 ulp), as Triton lowers an f32
// arith.divf; tt.precise_divf (tl.div_rn) stays LLVM's fdiv, div.rn.f32.
func (n *ISA) DivF32(x, y value.Value) (value.Value, bool) {
	return n.b.Call("llvm.nvvm.div.full", types.Float, x, y), true
}

// Exp2Approx is ex2.approx.f32, as Triton uses it, or with ftz ex2.approx.ftz.f32, as
// libdevice's __nv_exp2f takes it under __CUDA_FTZ.
func (n *ISA) Exp2Approx(x value.Value, ftz bool) value.Value {
	if ftz {
		return n.b.Call("llvm.nvvm.ex2.approx.ftz.f", types.Float, x)
	}
	return n.b.Call("llvm.nvvm.ex2.approx.f", types.Float, x)
}

// RcpApprox is rcp.approx.ftz.f32, as libdevice's tanhf takes its reciprocal.
func (n *ISA) RcpApprox(x value.Value) value.Value {
	return n.b.Call("llvm.nvvm.rcp.approx.ftz.f", types.Float, x)
}

// fp8Names are PTX's names of the fp8 formats that cvt converts (sm_89 and later).
var fp8Names = map[tileir.Scalar]string{tileir.F8E4M3FN: "e4m3", tileir.F8E5M2: "e5m2"}

// FP8ToF16 widens with cvt.rn.f16x2.e4m3x2 (or e5m2x2) on a zero-extended pair, taking
// the low half, as Triton does.
func (n *ISA) FP8ToF16(x value.Value, from tileir.Scalar) (value.Value, bool) {
	name, ok := fp8Names[from]
	if !ok {
		return nil, false
	}
	cur := n.b.Block()
	pair := cur.NewZExt(x, types.I16)
	h2 := n.b.Asm(types.I32, "cvt.rn.f16x2."+name+"x2 $0, $1;", "=r,h", pair)
	return n.b.BitCast(n.b.Block().NewTrunc(h2, types.I16), types.Half), true
}

// F32ToFP8 narrows with cvt.rn.satfinite.e4m3x2.f32 (or e5m2x2), the other half zero.
func (n *ISA) F32ToFP8(f value.Value, to tileir.Scalar) (value.Value, bool) {
	name, ok := fp8Names[to]
	if !ok {
		return nil, false
	}
	p := n.b.Asm(types.I16, "cvt.rn.satfinite."+name+"x2.f32 $0, $2, $1;", "=h,r,r", n.b.BitCast(f, types.I32), isa.I32(0))
	return n.b.Block().NewTrunc(p, types.I8), true
}
