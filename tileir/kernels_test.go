package tileir

// Hand-built kernels shared by the golden, round-trip, pass and benchmark tests.

var builtKernels = []struct {
	name  string
	build func() *Module
}{
	{"vector_add", vectorAdd},
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
