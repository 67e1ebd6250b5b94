package tileir

import "math"

// Hand-built kernels shared by the golden, round-trip, pass and benchmark tests.

var builtKernels = []struct {
	name  string
	build func() *Module
}{
	{"vector_add", vectorAdd},
	{"softmax_row", softmaxRow},
	{"matmul_loop", matmulLoop},
	{"control_flow", controlFlow},
	{"all_ops", allOps},
}

// vectorAdd is Triton's tutorial 01 kernel.
func vectorAdd() *Module {
	m := &Module{}
	f32p := Ptr(F32)
	f := m.NewFunc("add_kernel", "public", []Type{f32p, f32p, f32p, I32}, nil)
	for i := range 3 {
		f.SetArgAttr(i, "tt.divisibility", IntAttr{16, I32})
	}
	b := NewBuilder(f)
	b.SetLoc("add.py", 30, 10)
	pid := b.GetProgramID(0)
	start := b.MulI(pid, b.ConstInt(1024, I32))
	offs := b.AddI(b.Splat(start, []int64{1024}), b.MakeRange(0, 1024))
	mask := b.CmpI("slt", offs, b.Splat(f.Arg(3), []int64{1024}))
	ptrs := func(p *Value) *Value { return b.AddPtr(b.Splat(p, []int64{1024}), offs) }
	x := b.Load(ptrs(f.Arg(0)), mask, nil, MemOpts{})
	y := b.Load(ptrs(f.Arg(1)), mask, nil, MemOpts{})
	b.Store(ptrs(f.Arg(2)), b.AddF(x, y), mask, MemOpts{})
	b.Return()
	return m
}

func vals(v ...*Value) []*Value { return v }

func maxnumf(b *Builder, l, r []*Value) []*Value { return vals(b.Binary("arith.maxnumf", l[0], r[0])) }
func addf(b *Builder, l, r []*Value) []*Value    { return vals(b.AddF(l[0], r[0])) }

// softmaxRow is a one-row softmax with two reductions.
func softmaxRow() *Module {
	m := &Module{}
	f := m.NewFunc("softmax_kernel", "public", []Type{Ptr(F32), Ptr(F32), I32, I32}, nil)
	b := NewBuilder(f)
	b.SetLoc("softmax.py", 10, 4)
	shape := []int64{128}
	row := b.GetProgramID(0)
	cols := b.MakeRange(0, 128)
	mask := b.CmpI("slt", cols, b.Splat(f.Arg(3), shape))
	src := b.AddPtr(b.Splat(b.AddPtr(f.Arg(1), b.MulI(row, f.Arg(2))), shape), cols)
	x := b.Load(src, mask, b.ConstFloat(math.Inf(-1), Tensor(shape, F32)), MemOpts{})
	mx := b.Reduce(vals(x), 0, maxnumf)[0]
	num := b.Math("exp", b.SubF(x, b.Splat(mx, shape)))
	den := b.Reduce(vals(num), 0, addf)[0]
	dst := b.AddPtr(b.Splat(b.AddPtr(f.Arg(0), b.MulI(row, f.Arg(2))), shape), cols)
	b.Store(dst, b.DivF(num, b.Splat(den, shape)), mask, MemOpts{})
	b.Return()
	return m
}

// matmulLoop is a 64x64 tile matmul with a K loop carrying the accumulator and pointers.
func matmulLoop() *Module {
	m := &Module{}
	f := m.NewFunc("matmul_kernel", "public", []Type{Ptr(F16), Ptr(F16), Ptr(F32), I32}, nil)
	b := NewBuilder(f)
	b.SetLoc("matmul.py", 20, 8)
	ptrs := func(base *Value, rows, cols int64) *Value {
		r := b.ExpandDims(b.MakeRange(0, int32(rows)), 1)
		c := b.ExpandDims(b.MakeRange(0, int32(cols)), 0)
		shape := []int64{rows, cols}
		off := b.AddI(b.Broadcast(b.MulI(r, b.ConstInt(cols, r.Type)), shape), b.Broadcast(c, shape))
		return b.AddPtr(b.Splat(base, shape), off)
	}
	a0, b0 := ptrs(f.Arg(0), 64, 32), ptrs(f.Arg(1), 32, 64)
	zero, step := b.ConstInt(0, I32), b.ConstInt(32, I32)
	res := b.For(zero, f.Arg(3), step, vals(b.Zero(Tensor([]int64{64, 64}, F32)), a0, b0),
		func(b *Builder, k *Value, args []*Value) []*Value {
			x := b.Load(args[1], nil, nil, MemOpts{})
			y := b.Load(args[2], nil, nil, MemOpts{})
			acc := b.Dot(x, y, args[0], "", 0)
			da := b.Splat(b.ConstInt(32, I32), []int64{64, 32})
			db := b.Splat(b.MulI(b.ConstInt(32, I32), b.ConstInt(64, I32)), []int64{32, 64})
			return vals(acc, b.AddPtr(args[1], da), b.AddPtr(args[2], db))
		})
	b.Store(ptrs(f.Arg(2), 64, 64), res[0], nil, MemOpts{})
	b.Return()
	return m
}

// controlFlow has scf.if with and without results, scf.while, a spin lock and a call.
func controlFlow() *Module {
	m := &Module{}
	helper := m.NewFunc("clamp_add", "private", []Type{I32, I32}, []Type{I32})
	helper.SetAttr("noinline", BoolAttr(true))
	hb := NewBuilder(helper)
	hb.Return(hb.Binary("arith.maxsi", hb.AddI(helper.Arg(0), helper.Arg(1)), hb.ConstInt(0, I32)))

	f := m.NewFunc("control_kernel", "public", []Type{Ptr(I32), I32, Ptr(I32)}, nil)
	b := NewBuilder(f)
	pid := b.GetProgramID(0)
	one := b.ConstInt(1, I32)
	c := b.CmpI(IntPredicate(">", false), pid, f.Arg(1))
	v := b.If(c, []Type{I32},
		func(b *Builder) []*Value { return vals(b.AddI(pid, one)) },
		func(b *Builder) []*Value { return vals(b.SubI(pid, one)) })[0]
	b.If(c, nil, func(b *Builder) []*Value {
		b.Store(f.Arg(0), v, nil, MemOpts{})
		return nil
	}, nil)
	zero := b.ConstInt(0, I32)
	sum := b.While(vals(v, zero), []Type{I32, I32},
		func(b *Builder, args []*Value) (*Value, []*Value) {
			return b.CmpI("sgt", args[0], zero), args
		},
		func(b *Builder, args []*Value) []*Value {
			return vals(b.SubI(args[0], one), b.AddI(args[1], args[0]))
		})[1]
	b.While(nil, nil, func(b *Builder, _ []*Value) (*Value, []*Value) {
		old := b.AtomicCAS(f.Arg(2), zero, one, "acq_rel", "gpu")
		return b.CmpI("eq", old, one), nil
	}, func(b *Builder, _ []*Value) []*Value { return nil })
	b.Store(f.Arg(0), b.Call(helper, sum, pid)[0], nil, MemOpts{})
	b.AtomicRMW("exch", f.Arg(2), zero, nil, "acq_rel", "gpu")
	b.Return()
	return m
}

// allOps uses every op of the catalogue that the other kernels leave out, and one op
// outside it.
func allOps() *Module {
	m := &Module{}
	f := m.NewFunc("all_ops", "public", []Type{Ptr(F32), Ptr(I32), Ptr(F16), I64, Ptr(F8E4M3FN)}, nil)
	f.SetArgAttr(0, "tt.divisibility", IntAttr{16, I32})
	f.Arg(0).Hint = "x_ptr"
	b := NewBuilder(f)
	s4, s22 := []int64{4}, []int64{2, 2}
	t4 := Tensor(s4, F32)
	n := b.GetNumPrograms(1)
	r := b.MakeRange(0, 4)
	fr := b.IntToFloat(r, t4, false)
	b.IntToFloat(r, t4, true)
	b.FloatToInt(fr, Tensor(s4, I32), true)
	b.FloatToInt(fr, Tensor(s4, I64), false)
	wide := b.IntCast(r, Tensor(s4, I64), true)
	b.IntCast(wide, Tensor(s4, I32), false)
	b.IntCast(n, I64, false)
	h := b.FloatCast(fr, Tensor(s4, F16))
	b.FloatCast(h, Tensor(s4, BF16))
	b.FloatCast(h, t4)
	f8 := b.FloatCast(fr, Tensor(s4, F8E4M3FN))
	b.FloatCast(f8, t4)
	b.Bitcast(fr, Tensor(s4, I32))
	b.Bitcast(f.Arg(0), Ptr(I32))
	p := b.Cast("tt.int_to_ptr", f.Arg(3), Ptr(F32))
	b.Cast("tt.ptr_to_int", p, I64)
	sq := b.Reshape(fr, s22, true)
	b.Trans(sq, 1, 0)
	j := b.Join(fr, fr)
	lo, hi := b.Split(j)
	b.Cat(lo, hi)
	b.ClampF(fr, b.Splat(b.ConstFloat(0, F32), s4), b.Splat(b.ConstFloat(1, F32), s4), "none")
	b.Unary("tt.precise_sqrt", fr)
	b.Binary("tt.precise_divf", fr, fr)
	b.Binary("tt.mulhiui", r, r)
	b.Histogram(r, 8, nil)
	neg := b.CmpF(FloatPredicate("!="), fr, fr)
	b.Select(neg, fr, fr)
	b.Math("fma", fr, fr, fr)
	b.Math("rsqrt", fr)
	b.Math("absi", r)
	b.Binary(IntOp("div", true), r, r)
	b.Binary(IntOp("rem", false), r, r)
	b.ConstInt(-1, I64)
	b.ConstBool(false)
	b.ConstFloat(0.1, BF16)
	b.ConstFloat(math.NaN(), F16)
	b.ConstInt(1, Tensor(s4, I1))
	ptrs := b.AddPtr(b.Splat(f.Arg(0), s4), r)
	b.AtomicRMW("fadd", ptrs, fr, b.CmpI("slt", r, b.Splat(n, s4)), "relaxed", "gpu")
	x := b.Load(ptrs, nil, nil, MemOpts{Cache: "ca", Evict: "evict_last", Volatile: true})
	b.Store(ptrs, x, nil, MemOpts{Cache: "wb", Evict: "evict_first"})
	c64, c1, c0 := b.ConstInt(64, I64), b.ConstInt(1, I64), b.ConstInt(0, I32)
	bp := b.MakeTensorPtr(f.Arg(2), vals(c64, c64), vals(c64, c1), vals(c0, c0), []int64{16, 16}, []int32{1, 0})
	bt := b.Load(bp, nil, nil, MemOpts{BoundaryCheck: []int32{0, 1}, Padding: 1})
	b.Store(bp, bt, nil, MemOpts{BoundaryCheck: []int32{0}})
	b.Advance(bp, vals(c0, b.ConstInt(16, I32)))
	c64i := b.ConstInt(64, I32)
	d := b.MakeTensorDesc(f.Arg(2), vals(c64i, c64i), vals(c64, c1), []int64{16, 16}, false)
	dt := b.DescriptorLoad(d, vals(c0, c0), MemOpts{})
	b.DescriptorStore(d, dt, vals(c0, c0))
	b.Dot(b.FloatCast(bt, Tensor([]int64{16, 16}, F32)), b.FloatCast(dt, Tensor([]int64{16, 16}, F32)),
		b.Zero(Tensor([]int64{16, 16}, F32)), "tf32", 0)
	b.ExternElementwise("libdevice", "/lib/libdevice.10.bc", "__nv_asinf", true, t4, fr)
	b.InlineAsm("shl.b32 $0, $1, 3;", "=r,r", true, 1, []Type{Tensor(s4, I32)}, r)
	b.Scan(vals(fr), 0, true, addf)
	b.Print(" x: ", false, vals(fr, r), []bool{true, false})
	b.Print("hello", false, nil, nil)
	b.Assert(b.CmpI("sge", r, r), "r \"ok\"\n")
	b.Assume(b.CmpI("sge", n, c0))
	b.Barrier()
	b.Create("tt.experimental_unknown", vals(fr), []Type{t4}, NamedAttr{"flag", UnitAttr{}})
	b.Return()
	return m
}
