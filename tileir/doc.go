// Package tileir is gotriton's SSA tile IR, modelled on Triton 3.6's TTIR: the MLIR dialects
// tt, arith, math, scf (and gpu.barrier, llvm.intr.assume) with the op names, operands,
// attributes and printed form that Triton prints after make_ttir, so that our output can be
// diffed against Triton's.
//
// # Structure
//
// A Module holds Funcs (tt.func). A Func's Body is a Region of Blocks; the entry block's
// arguments are the function's parameters. A Block is a list of Ops ending in a terminator.
// An Op has a Name ("arith.addi", "tt.load", "scf.for" ...), Operands and Results (*Value,
// each with a Type), a sorted attribute dictionary, nested Regions and a source Loc.
//
// Types are interned, so they compare with ==: the Scalar constants (I1 ... F64 and the fp8
// types), Ptr(elem), Tensor(shape, elem), TensorDesc(block). Integers are signless; the
// frontend chooses the unsigned op variants (IntOp("div", true) is "arith.divui",
// IntPredicate("<", true) is "ult", IntCast/IntToFloat/FloatToInt take an unsigned flag).
//
// Every op name lives in one catalogue (Op.Def, Op.Has): its traits (Pure, Commutative,
// Elementwise, SameType, Terminator, MemRead, MemWrite), its printed syntax, its verifier
// and its constant folder. Ops outside the catalogue still print and parse in MLIR's
// generic form ("dialect.op"(%a) <{...}> : (T) -> R).
//
// # Building
//
// A Builder inserts ops at an insertion point and stamps them with its Loc. The vector-add
// kernel of Triton's first tutorial:
//
//	m := &tileir.Module{}
//	f32p := tileir.Ptr(tileir.F32)
//	f := m.NewFunc("add_kernel", "public", []tileir.Type{f32p, f32p, f32p, tileir.I32}, nil)
//	for i := range 3 {
//		f.SetArgAttr(i, "tt.divisibility", tileir.IntAttr{V: 16, T: tileir.I32})
//	}
//	b := tileir.NewBuilder(f)
//	b.SetLoc("add.py", 30, 10)
//	pid := b.GetProgramID(0)
//	start := b.MulI(pid, b.ConstInt(1024, tileir.I32))
//	offs := b.AddI(b.Splat(start, []int64{1024}), b.MakeRange(0, 1024))
//	mask := b.CmpI("slt", offs, b.Splat(f.Arg(3), []int64{1024}))
//	ptrs := func(p *tileir.Value) *tileir.Value { return b.AddPtr(b.Splat(p, []int64{1024}), offs) }
//	x := b.Load(ptrs(f.Arg(0)), mask, nil, tileir.MemOpts{})
//	y := b.Load(ptrs(f.Arg(1)), mask, nil, tileir.MemOpts{})
//	b.Store(ptrs(f.Arg(2)), b.AddF(x, y), mask, tileir.MemOpts{})
//	b.Return()
//
// Region-building calls take callbacks that receive a Builder positioned inside the region
// and return the values to yield:
//
//	acc := b.For(lb, ub, step, []*tileir.Value{zero}, func(b *tileir.Builder, k *tileir.Value, args []*tileir.Value) []*tileir.Value {
//		return []*tileir.Value{b.Dot(a, bt, args[0], "", 0)}
//	})[0]
//	r := b.If(cond, []tileir.Type{tileir.I32},
//		func(b *tileir.Builder) []*tileir.Value { return []*tileir.Value{one} },
//		func(b *tileir.Builder) []*tileir.Value { return []*tileir.Value{two} })
//	mx := b.Reduce([]*tileir.Value{x}, 1, func(b *tileir.Builder, l, r []*tileir.Value) []*tileir.Value {
//		return []*tileir.Value{b.Binary("arith.maxnumf", l[0], r[0])}
//	})[0]
//
// While builds scf.while from a "before" callback (returning the condition and forwarded
// values) and an "after" callback. Create builds any op by name for the cases the typed
// helpers do not cover.
//
// # Names
//
// Values print as MLIR numbers them (%0, %arg3, %10:2 used as %10#1), constants as
// %c1024_i32, %cst, %true, and any value with a Hint under that name (%acc, then %acc_3 on a
// conflict), which is how Triton 3.6 prints values named after Python variables. Set
// f.Arg(i).Hint to the parameter names and v.Hint to the variable a value is assigned to.
// PrintOptions.IgnoreHints numbers everything instead.
//
// # Printing, parsing, verifying, passes
//
// Module.String (or Print with PrintOptions{Debuginfo: true} for inline loc(...)
// annotations) gives TTIR text. Parse reads it back, and also reads Triton's own dumps with
// #loc aliases, named locations and callsites (locations resolve to the first file position
// found; value names become Hints); print → parse → print is the identity, and for Triton's
// TTIR of our kernels the printed text equals Triton's, locations aside. Parse errors are
// *ParseError with file:line:col.
//
// Verify checks dominance, terminators and each op's type rules and returns a *VerifyError
// such as "k.py:3:7: 'arith.addi' op operand #1 has type i64, expected i32". Run applies
// named passes from the Passes table (fold, canonicalize, cse, licm, dce), verifying after
// each when asked:
//
//	err := tileir.Run(m, []string{"canonicalize", "cse", "licm", "dce"}, true)
package tileir
