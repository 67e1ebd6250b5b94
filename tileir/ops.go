package tileir

// Trait is a set of op properties that passes and the verifier consult.
type Trait uint32

// Op traits.
const (
	// Pure ops have no side effects: CSE may merge them, DCE may drop them, LICM may hoist them.
	Pure Trait = 1 << iota
	// Commutative binary ops: canonicalization moves a constant operand to the right.
	Commutative
	// Elementwise ops apply per element; tensor operands and results share one shape.
	Elementwise
	// SameType ops have all operands and results of one type.
	SameType
	// Terminator ops end a block.
	Terminator
	// MemRead ops read global memory.
	MemRead
	// MemWrite ops write global memory (or have other visible effects, like printing).
	MemWrite
)

// OpDef is one entry of the op catalogue.
type OpDef struct {
	Name   string
	Traits Trait

	syntax  syntax
	generic bool // printed in MLIR's generic form ("tt.reduce"(...) <{...}> ({...}))
	props   []string
	verify  func(c *checker, op *Op) string
	fold    func(op *Op, in []Attr) Attr
	hints   func(op *Op) []string
	// canon is canonicalizers[Name], attached once by canonicalizersOf.
	canon []func(rw *rewriter, op *Op) bool
}

var opDefs = map[string]*OpDef{}

const pureEW = Pure | Elementwise

func init() {
	var (
		same     = simple(resSame, nil)
		cmp      = simple(resBool, []string{"predicate"})
		programs = simple(resSame, []string{"axis"})
		term     = variadic(true)
		ret      = variadic(false)
		plain    = arrow(nil, nil)
	)
	defs := []OpDef{
		{Name: "arith.constant", Traits: Pure, syntax: constantSyntax, verify: verifyConstant, hints: constantHints, fold: foldConstant},
		{Name: "arith.select", Traits: pureEW, syntax: selectSyntax, verify: verifySelect, fold: foldSelect},
		{Name: "arith.cmpi", Traits: pureEW, syntax: cmp, verify: verifyCmp(IsIntLike, intPredicates), fold: foldCmp},
		{Name: "arith.cmpf", Traits: pureEW, syntax: cmp, verify: verifyCmp(IsFloatLike, floatPredicates), fold: foldCmp},
		{Name: "arith.negf", Traits: pureEW | SameType, syntax: same, verify: verifyKind(IsFloatLike, 1), fold: foldArith},
		{Name: "tt.get_program_id", Traits: Pure, syntax: programs, verify: verifyProgramAxis},
		{Name: "tt.get_num_programs", Traits: Pure, syntax: programs, verify: verifyProgramAxis},
		{Name: "tt.make_range", Traits: Pure, syntax: same, verify: verifyMakeRange},
		{Name: "tt.splat", Traits: Pure, syntax: plain, verify: verifySplat, fold: foldSplat},
		{Name: "tt.broadcast", Traits: Pure, syntax: plain, verify: verifyBroadcast, fold: foldSplat},
		{Name: "tt.expand_dims", Traits: Pure, syntax: plain, verify: verifyExpandDims, fold: foldSplat},
		{Name: "tt.reshape", Traits: Pure, syntax: arrow([]string{"allow_reorder", "efficient_layout"}, nil), verify: verifyReshape, fold: foldSplat},
		{Name: "tt.trans", Traits: Pure, syntax: plain, verify: verifyTrans, fold: foldSplat},
		{Name: "tt.join", syntax: plain, verify: verifyJoin},
		{Name: "tt.split", syntax: plain, verify: verifySplit, hints: func(*Op) []string { return []string{"outLHS", "outRHS"} }},
		{Name: "tt.cat", syntax: plain, verify: verifyCat},
		{Name: "tt.addptr", Traits: pureEW, syntax: operandTypesSyntax, verify: verifyAddPtr},
		{Name: "tt.int_to_ptr", Traits: pureEW, syntax: plain, verify: verifyCast(IsIntLike, IsPtrLike, castAny)},
		{Name: "tt.ptr_to_int", Traits: pureEW, syntax: plain, verify: verifyCast(IsPtrLike, IsIntLike, castAny)},
		{Name: "tt.bitcast", Traits: pureEW, syntax: plain, verify: verifyCast(anyType, anyType, castSameWidth)},
		{Name: "tt.fp_to_fp", Traits: pureEW, syntax: arrow(nil, &trailAttr{"rounding", "rounding"}), verify: verifyCast(IsFloatLike, IsFloatLike, castAny)},
		{Name: "tt.clampf", Traits: pureEW | SameType, syntax: simple(resSame, nil, trailAttr{"propagateNan", "propagateNan"}), verify: verifyKind(IsFloatLike, 3)},
		{Name: "tt.precise_sqrt", Traits: pureEW | SameType, syntax: same, verify: verifyKind(IsFloatLike, 1)},
		{Name: "tt.precise_divf", Traits: pureEW | SameType, syntax: same, verify: verifyKind(IsFloatLike, 2)},
		{Name: "tt.mulhiui", Traits: pureEW | SameType, syntax: same, verify: verifyKind(IsIntLike, 2)},
		{Name: "tt.histogram", Traits: Pure, syntax: plain, verify: verifyHistogram},
		{Name: "tt.gather", Traits: Pure, syntax: gatherSyntax, verify: verifyGather},
		{Name: "ub.poison", Traits: Pure, syntax: simple(resSame, nil)},
		{Name: "tt.unsplat", Traits: Pure, syntax: unsplatSyntax, verify: verifyUnsplat},
		{Name: "tt.load", Traits: MemRead, syntax: mem(true), verify: verifyLoad},
		{Name: "tt.store", Traits: MemWrite, syntax: mem(false), verify: verifyStore},
		{Name: "tt.atomic_rmw", Traits: MemRead | MemWrite, syntax: functional("atomic_rmw_op", "sem", "scope"), verify: verifyAtomicRMW},
		{Name: "tt.atomic_cas", Traits: MemRead | MemWrite, syntax: functional("sem", "scope"), verify: verifyAtomicCAS},
		{Name: "tt.dot", Traits: Pure, syntax: dotSyntax, verify: verifyDot},
		{Name: "tt.reduce", Traits: Pure, syntax: genericSyntax, generic: true, props: []string{"axis"}, verify: verifyReduce},
		{Name: "tt.reduce.return", Traits: Pure | Terminator, syntax: ret},
		{Name: "tt.scan", Traits: Pure, syntax: genericSyntax, generic: true, props: []string{"axis", "reverse"}, verify: verifyScan},
		{Name: "tt.scan.return", Traits: Pure | Terminator, syntax: ret},
		{Name: "tt.map_elementwise", syntax: genericSyntax, generic: true, props: []string{"pack"}, verify: verifyMapElementwise},
		{Name: "tt.map_elementwise.return", Traits: Pure | Terminator, syntax: ret},
		{Name: "tt.make_tensor_ptr", Traits: Pure, syntax: bracketed(3, false), verify: verifyMakeTensorPtr},
		{Name: "tt.advance", Traits: Pure, syntax: bracketed(1, false), verify: verifyAdvance},
		{Name: "tt.make_tensor_descriptor", Traits: Pure, syntax: bracketed(2, true), verify: verifyMakeTensorDesc},
		{Name: "tt.descriptor_load", Traits: MemRead, syntax: descLoadSyntax, verify: verifyDescriptorLoad},
		{Name: "tt.descriptor_store", Traits: MemRead | MemWrite, syntax: descStoreSyntax, verify: verifyDescriptorStore},
		{Name: "tt.extern_elementwise", Traits: Elementwise, syntax: functional(), verify: verifyExtern},
		{Name: "tt.elementwise_inline_asm", Traits: Elementwise, syntax: inlineAsmSyntax, verify: verifyInlineAsm},
		{Name: "tt.print", Traits: MemWrite, syntax: printOpSyntax, verify: verifyPrint},
		{Name: "tt.assert", Traits: MemWrite, syntax: simple(resNone, nil, trailAttr{"message", ""}), verify: verifyAssert},
		{Name: "tt.call", Traits: MemRead | MemWrite, syntax: callSyntax, verify: verifyCall},
		{Name: "tt.return", Traits: Pure | Terminator, syntax: term, verify: verifyReturn},
		{Name: "scf.for", syntax: forSyntax, verify: verifyFor},
		{Name: "scf.if", syntax: ifSyntax, verify: verifyIf},
		{Name: "scf.while", syntax: whileSyntax, verify: verifyWhile},
		{Name: "scf.yield", Traits: Pure | Terminator, syntax: term, verify: verifyYield},
		{Name: "scf.condition", Traits: Pure | Terminator, syntax: conditionSyntax, verify: verifyCondition},
		{Name: "gpu.barrier", Traits: MemRead | MemWrite, syntax: ret},
		{Name: "llvm.intr.assume", Traits: MemWrite, syntax: ret, verify: verifyAssume},
	}
	intBinary := map[string]Trait{
		"addi": Commutative, "subi": 0, "muli": Commutative, "divsi": 0, "divui": 0, "remsi": 0, "remui": 0,
		"andi": Commutative, "ori": Commutative, "xori": Commutative, "shli": 0, "shrsi": 0, "shrui": 0,
		"maxsi": Commutative, "minsi": Commutative, "maxui": Commutative, "minui": Commutative,
		"ceildivsi": 0, "ceildivui": 0, "floordivsi": 0,
	}
	for n, t := range intBinary {
		defs = append(defs, OpDef{Name: "arith." + n, Traits: pureEW | SameType | t, syntax: same, verify: verifyKind(IsIntLike, 2), fold: foldArith})
	}
	floatBinary := map[string]Trait{
		"addf": Commutative, "subf": 0, "mulf": Commutative, "divf": 0, "remf": 0,
		"maxnumf": Commutative, "minnumf": Commutative, "maximumf": Commutative, "minimumf": Commutative,
	}
	for n, t := range floatBinary {
		defs = append(defs, OpDef{Name: "arith." + n, Traits: pureEW | SameType | t, syntax: same, verify: verifyKind(IsFloatLike, 2), fold: foldArith})
	}
	casts := map[string]func(*checker, *Op) string{
		"extsi": verifyCast(IsIntLike, IsIntLike, castWiden), "extui": verifyCast(IsIntLike, IsIntLike, castWiden),
		"trunci": verifyCast(IsIntLike, IsIntLike, castNarrow), "sitofp": verifyCast(IsIntLike, IsFloatLike, castAny),
		"uitofp": verifyCast(IsIntLike, IsFloatLike, castAny), "fptosi": verifyCast(IsFloatLike, IsIntLike, castAny),
		"fptoui": verifyCast(IsFloatLike, IsIntLike, castAny), "extf": verifyCast(IsFloatLike, IsFloatLike, castWiden),
		"truncf": verifyCast(IsFloatLike, IsFloatLike, castNarrow), "bitcast": verifyCast(anyScalar, anyScalar, castSameWidth),
	}
	for n, v := range casts {
		defs = append(defs, OpDef{Name: "arith." + n, Traits: pureEW, syntax: castSyntax, verify: v, fold: foldCast})
	}
	for _, n := range []string{"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tan", "absf", "floor",
		"ceil", "erf", "tanh", "trunc", "round", "roundeven", "log1p", "expm1", "fma"} {
		arity := 1
		if n == "fma" {
			arity = 3
		}
		defs = append(defs, OpDef{Name: "math." + n, Traits: pureEW | SameType, syntax: same, verify: verifyKind(IsFloatLike, arity), fold: foldArith})
	}
	defs = append(defs, OpDef{Name: "math.absi", Traits: pureEW | SameType, syntax: same, verify: verifyKind(IsIntLike, 1), fold: foldArith})
	for i := range defs {
		d := defs[i]
		opDefs[d.Name] = &d
	}
}

// operandTypesSyntax: %a, %b attr-dict : type(a), type(b), the result typed like a (tt.addptr).
var operandTypesSyntax = syntax{
	print: func(p *printer, op *Op) {
		p.w(" ")
		p.vals(op.Operands)
		p.attrDict(op)
		p.w(" : " + typeList(valueTypes(op.Operands)))
	},
	parse: func(ps *parser, op *Op, nres int) {
		op.Operands = ps.operands()
		ps.mergeAttrs(op)
		ps.expect(":")
		ps.checkTypes(op.Operands, ps.typeList())
		op.addResults(op.Operands[0].Type)
	},
}

// IsPure reports whether op (with everything nested in it) has no side effects, so that
// it may be removed when unused, merged with an equal op, or moved.
func IsPure(op *Op) bool {
	d := op.Def()
	if d == nil {
		return false
	}
	switch op.Name {
	case "tt.extern_elementwise", "tt.elementwise_inline_asm":
		return op.Attr("pure") == BoolAttr(true)
	case "scf.for", "scf.if", "scf.while", "tt.map_elementwise":
		pure := true
		for _, r := range op.Regions {
			r.Walk(func(in *Op) bool {
				if !in.Has(Terminator) && !IsPure(in) {
					pure = false
				}
				return pure
			})
		}
		return pure && op.Name != "scf.while" // a while loop may not terminate
	}
	return d.Traits&Pure != 0
}
