package lower

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// featureKernel builds a kernel that touches the ops our own kernels use little: bf16 and
// fp8 arithmetic, trans, reshape, join, split, cat, a two-operand reduction, scf.if and
// scf.while with tensors, atomics, an FMA dot and a tf32 mma dot.
func featureKernel() *tileir.Module {
	m := &tileir.Module{}
	bf := tileir.Ptr(tileir.BF16)
	f32 := tileir.Ptr(tileir.F32)
	i32p := tileir.Ptr(tileir.I32)
	f := m.NewFunc("features", "public", []tileir.Type{bf, f32, i32p, tileir.I32}, nil)
	f.Loc = tileir.Loc{File: "features.py", Line: 1, Col: 0}
	f.SetArgAttr(0, "tt.divisibility", tileir.IntAttr{V: 16, T: tileir.I32})
	b := tileir.NewBuilder(f)
	b.SetLoc("features.py", 2, 4)
	shape := []int64{32, 64}
	rows := b.ExpandDims(b.MakeRange(0, 32), 1)
	cols := b.ExpandDims(b.MakeRange(0, 64), 0)
	offs := b.AddI(b.Broadcast(b.MulI(rows, b.Splat(b.ConstInt(64, tileir.I32), []int64{32, 1})), shape), b.Broadcast(cols, shape))
	mask := b.CmpI("slt", offs, b.Splat(f.Arg(3), shape))
	x := b.Load(b.AddPtr(b.Splat(f.Arg(0), shape), offs), mask, nil, tileir.MemOpts{})
	y := b.AddF(x, b.MulF(x, x)) // bf16 arithmetic
	xf := b.FloatCast(y, tileir.Tensor(shape, tileir.F32))
	e5 := b.FpToFp(xf, tileir.Tensor(shape, tileir.F8E5M2), "rtne")
	back := b.FpToFp(e5, tileir.Tensor(shape, tileir.F32), "")
	t := b.Trans(back, 1, 0)                                                             // 64x32
	r := b.Reshape(t, []int64{32, 64}, false)                                            // 32x64
	j := b.Join(r, xf)                                                                   // 32x64x2
	lo, hi := b.Split(j)                                                                 // 32x64 each
	c := b.Cat(b.Reshape(lo, []int64{2048}, false), b.Reshape(hi, []int64{2048}, false)) // 4096
	idx := b.MakeRange(0, 4096)
	best := b.Reduce([]*tileir.Value{c, idx}, 0, func(b *tileir.Builder, l, r []*tileir.Value) []*tileir.Value {
		gt := b.CmpF("ogt", l[0], r[0])
		return []*tileir.Value{b.Select(gt, l[0], r[0]), b.Select(gt, l[1], r[1])}
	})
	small := []int64{16, 16}
	a16 := b.Reshape(b.Reshape(lo, []int64{2048}, false), []int64{2048}, false)
	_ = a16
	sq := b.Splat(best[0], small)
	acc := b.Dot(sq, sq, b.Zero(tileir.Tensor(small, tileir.F32)), "ieee", 0)
	mm := []int64{32, 32}
	tf := b.Dot(b.Splat(best[0], mm), b.Splat(best[0], mm), b.Zero(tileir.Tensor(mm, tileir.F32)), "tf32", 0)
	sum := b.Reduce([]*tileir.Value{acc}, 1, func(b *tileir.Builder, l, r []*tileir.Value) []*tileir.Value {
		return []*tileir.Value{b.AddF(l[0], r[0])}
	})[0]
	tsum := b.Reduce([]*tileir.Value{b.Reshape(tf, []int64{1024}, false)}, 0, func(b *tileir.Builder, l, r []*tileir.Value) []*tileir.Value {
		return []*tileir.Value{b.AddF(l[0], r[0])}
	})[0]
	pid := b.GetProgramID(0)
	sel := b.If(b.CmpI("eq", pid, b.ConstInt(0, tileir.I32)), []tileir.Type{sum.Type},
		func(b *tileir.Builder) []*tileir.Value { return []*tileir.Value{sum} },
		func(b *tileir.Builder) []*tileir.Value { return []*tileir.Value{b.NegF(sum)} })[0]
	out16 := b.AddPtr(b.Splat(f.Arg(1), []int64{16}), b.MakeRange(0, 16))
	b.AtomicRMW("fadd", out16, b.AddF(sel, b.Splat(tsum, []int64{16})), nil, "acq_rel", "gpu")
	lock := f.Arg(2)
	b.While([]*tileir.Value{b.ConstInt(0, tileir.I32)}, []tileir.Type{tileir.I32},
		func(b *tileir.Builder, args []*tileir.Value) (*tileir.Value, []*tileir.Value) {
			old := b.AtomicCAS(lock, b.ConstInt(0, tileir.I32), b.ConstInt(1, tileir.I32), "acquire", "gpu")
			return b.CmpI("eq", old, b.ConstInt(1, tileir.I32)), []*tileir.Value{args[0]}
		},
		func(b *tileir.Builder, args []*tileir.Value) []*tileir.Value {
			return []*tileir.Value{b.AddI(args[0], b.ConstInt(1, tileir.I32))}
		})
	b.AtomicRMW("exch", lock, b.ConstInt(0, tileir.I32), nil, "release", "gpu")
	b.Store(b.AddPtr(f.Arg(1), best[1]), best[0], nil, tileir.MemOpts{})
	// a cumulative sum, forward and reversed
	cs := b.Scan([]*tileir.Value{x}, 1, false, func(b *tileir.Builder, l, r []*tileir.Value) []*tileir.Value {
		return []*tileir.Value{b.AddF(l[0], r[0])}
	})[0]
	rs := b.Scan([]*tileir.Value{cs}, 0, true, func(b *tileir.Builder, l, r []*tileir.Value) []*tileir.Value {
		return []*tileir.Value{b.Binary("arith.maxnumf", l[0], r[0])}
	})[0]
	b.Store(b.AddPtr(b.Splat(f.Arg(0), shape), offs), rs, mask, tileir.MemOpts{})
	// a block pointer walked along a loop, loads padded with NaN
	i64 := func(v int64) *tileir.Value { return b.ConstInt(v, tileir.I64) }
	zero := b.ConstInt(0, tileir.I32)
	n64 := b.IntCast(f.Arg(3), tileir.I64, false)
	bp := b.MakeTensorPtr(f.Arg(1), []*tileir.Value{n64, i64(64)}, []*tileir.Value{i64(64), i64(1)}, []*tileir.Value{zero, zero}, []int64{16, 64}, []int32{1, 0})
	b.For(zero, f.Arg(3), b.ConstInt(16, tileir.I32), []*tileir.Value{bp}, func(b *tileir.Builder, iv *tileir.Value, args []*tileir.Value) []*tileir.Value {
		v := b.Load(args[0], nil, nil, tileir.MemOpts{BoundaryCheck: []int32{0, 1}, Padding: 2})
		b.Store(args[0], b.MulF(v, v), nil, tileir.MemOpts{BoundaryCheck: []int32{0}})
		return []*tileir.Value{b.Advance(args[0], []*tileir.Value{b.ConstInt(16, tileir.I32), zero})}
	})
	b.Return()
	return m
}

func TestFeatures(t *testing.T) {
	m := featureKernel()
	if err := tileir.Verify(m); err != nil {
		t.Fatalf("verify: %v\n%s", err, m)
	}
	mod, md, err := Lower(m, target.Default, Options{Options: isa.Options{NumWarps: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if md.SharedBytes == 0 {
		t.Error("no shared memory recorded")
	}
	ll := mod.String()
	for _, want := range []string{"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "atom.global.gpu.acq_rel.add.f32",
		"atom.global.acquire.gpu.cas.b32", "cvt.rn.satfinite.e5m2x2.f32", "llvm.nvvm.shfl.sync.bfly.i32", "llvm.fmuladd.f32"} {
		if !strings.Contains(ll, want) {
			t.Errorf("the module lacks %s", want)
		}
	}
	bin := llc(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "k.ll")
	if err := os.WriteFile(in, []byte(ll), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "-march=nvptx64", "-mcpu=sm_90", "-mattr=+ptx84", in, "-o", filepath.Join(dir, "k.ptx")).CombinedOutput(); err != nil {
		t.Fatalf("llc-22: %v\n%s", err, out)
	}
}
