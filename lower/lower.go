package lower

import (
	"fmt"
	"path"
	"reflect"
	"slices"
	"sync"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// Options are the launch parameters that shape the lowering.
type Options struct {
	// isa.Options: NumWarps (4 when zero), and the backend options the ISA reads
	// (MatrixInstrNonKDim, DisableMMAv3).
	isa.Options
	// NumStages is Triton's software-pipelining depth (a loop's tt.num_stages overrides
	// it): loops whose loads feed warpgroup dots keep that many stages of them in flight
	// (pipeline.go).
	NumStages int
	// NoReflectFTZ is Triton's enable_reflect_ftz=False: the libdevice functions keep
	// subnormals. By default (Triton's), tl.math.exp2 on f32 is __nv_exp2f's __CUDA_FTZ
	// path on NVIDIA, ex2.approx.ftz.f32.
	NoReflectFTZ bool
}

// Metadata describes the lowered kernel for the launcher, as Triton's compiled-kernel
// metadata does.
type Metadata struct {
	// Name is the kernel's symbol.
	Name string
	// SharedBytes is the dynamic shared memory the kernel needs (Triton's "shared").
	SharedBytes int
	// NumWarps and ThreadsPerWarp give the block size.
	NumWarps, ThreadsPerWarp int
	// NumStages echoes Options.NumStages.
	NumStages int
	// Target is the target in triton.tools.compile's syntax.
	Target string
	// GlobalScratchSize and ProfileScratchSize are the bytes per program the two trailing
	// scratch pointers must provide (zero: the pointers may be null), GlobalScratchAlign
	// the alignment of each program's global scratch (0 when there is none).
	GlobalScratchSize, ProfileScratchSize int
	GlobalScratchAlign                    int
	// TensorMaps are the tensor maps the launcher must encode for the host tensor
	// descriptor parameters, one per such parameter in order, on targets with TMA (nil
	// elsewhere): what Triton's metadata calls tensordesc_meta.
	TensorMaps []TensorMap
}

// TensorMap is how a host tensor descriptor parameter's CUtensorMap must be encoded: Box
// is the tile one TMA copy moves (outermost first; the descriptor's block, or a slab of
// it), Swizzle the span of the swizzle in bytes (0: none; 32, 64 or 128: the maps'
// CU_TENSOR_MAP_SWIZZLE_32B, 64B, 128B). Out-of-bounds elements read as zeros.
type TensorMap struct {
	Swizzle int
	Box     []int
}

// Lower turns the public kernel of m (exactly one tt.func public) into an LLVM IR module for
// t. Unsupported ops are errors naming the op and its location.
func Lower(m *tileir.Module, t target.Target, opts Options) (mod *ir.Module, md Metadata, err error) {
	if opts.NumWarps == 0 {
		opts.NumWarps = 4
	}
	if opts.NumWarps&(opts.NumWarps-1) != 0 || opts.NumWarps > 32 {
		return nil, Metadata{}, fmt.Errorf("lower: num_warps must be a power of two up to 32, not %d", opts.NumWarps)
	}
	arch, err := archOf(t)
	if err != nil {
		return nil, Metadata{}, err
	}
	var kernel *tileir.Func
	for _, f := range m.Funcs {
		if f.Visibility == "public" {
			if kernel != nil {
				return nil, Metadata{}, fmt.Errorf("lower: module has two public kernels, @%s and @%s", kernel.Name, f.Name)
			}
			kernel = f
		}
	}
	if kernel == nil {
		return nil, Metadata{}, fmt.Errorf("lower: module has no public kernel")
	}
	g := newGen(arch, t, opts, kernel)
	defer func() { // a lowering bug must come out as a located error, not a crash
		if r := recover(); r != nil {
			mod, md, err = nil, Metadata{}, fmt.Errorf("@%s: internal error: %v", kernel.Name, r)
			if op := g.curOp; op != nil {
				err = g.errorf(op, "internal error: %v", r)
			}
		}
	}()
	if err := g.kernel(); err != nil {
		return nil, Metadata{}, err
	}
	// When the buffers and the scratch buffer together do not fit, lower without the
	// invariant operands' buffers, then without the pipelines' rings too.
	again := func(noPipelines bool) error {
		g = newGen(arch, t, opts, kernel)
		g.noInvariants, g.noPipelines = true, noPipelines
		return g.kernel()
	}
	if g.smemBytes > t.SharedPerBlock && g.invariants != nil {
		if err := again(false); err != nil {
			return nil, Metadata{}, err
		}
	}
	if g.smemBytes > t.SharedPerBlock && g.pipelines != nil {
		if err := again(true); err != nil {
			return nil, Metadata{}, err
		}
	}
	for _, f := range g.m.Funcs {
		removeDeadCode(f)
		sinkPure(f)
	}
	if err := g.m.AssignMetadataIDs(); err != nil {
		return nil, Metadata{}, err
	}
	md = Metadata{Name: kernel.Name, SharedBytes: g.smemBytes, NumWarps: opts.NumWarps, ThreadsPerWarp: t.WarpSize,
		NumStages: opts.NumStages, Target: t.String(), TensorMaps: g.tensorMaps(), GlobalScratchSize: g.globalScratch}
	if g.globalScratch > 0 {
		md.GlobalScratchAlign = isa.MapBytes
	}
	return g.m, md, nil
}

// gen holds the state of lowering one kernel.
type gen struct {
	t   target.Target
	isa isa.ISA
	// archName names the ISA's family in messages.
	archName string
	opts     Options
	tf       *tileir.Func
	m        *ir.Module
	f        *ir.Func
	cur      *ir.Block

	axes *axisAnalysis
	enc  map[*tileir.Value]encoding
	vals map[*tileir.Value][]value.Value
	// scopes memoizes layout conversions per structured region, innermost last.
	scopes  []map[string][]value.Value // keys: memoText
	layouts layouts

	curOp           *tileir.Op // the op being lowered, for error messages
	tid, lane, warp value.Value
	// tmaBarrier is the mbarrier of TMA loads (see tma.go), nil when the kernel has none;
	// what follows it starts at tmaScratchStart: the scratch buffer, at scratchStart, and
	// from there the rings of pipelined loops (pipelines) and the buffers of
	// asynchronous dots (asyncDots); while a loop runs, the scratch buffer starts after
	// that loop's buffers (loopScratch).
	tmaBarrier      value.Value
	tmaScratchStart int
	scratchStart    int
	pipelines       map[*tileir.Op]*pipeline      // by scf.for
	pipelinedLoads  map[*tileir.Op]*pipelinedLoad // by tt.load or tt.descriptor_load
	noPipelines     bool                          // set when the rings do not fit (Lower)
	noInvariants    bool                          // set when the invariant operands' buffers do not fit (Lower)
	swizzledMaps    map[*tileir.Value]TensorMap   // descriptors whose loads feed dots from stages
	kernelMaps      map[*tileir.Value]int         // in-kernel descriptors that are tensor maps: their offset in global scratch
	globalScratch   int                           // the bytes of global scratch memory per program
	mapScratch      value.Value                   // this program's global scratch memory, when kernelMaps has any
	loopBuffers     map[*tileir.Op]int            // by scf.for: the end of its buffers in shared memory (loopScratch)
	invariants      []*invariantOperand           // loop-invariant operands of warpgroup dots
	asyncDots       map[*tileir.Op]asyncDot
	waitBefore      map[*tileir.Op]*tileir.Value // an op that must wait for the instructions of the asynchronous dot whose accumulators are this iteration argument
	sharedAlign     int                          // the alignment that shared memory's uses need, beyond 16 and tmaScratchStart
	smem            *ir.Global
	smemBytes       int
	uses            map[*tileir.Value]bool         // values some op uses (see used)
	users           map[*tileir.Value][]*tileir.Op // the ops that use each value (assignLayouts)
	dotUsers        map[*tileir.Value][]*tileir.Op // the same, for chainDot (made before assignLayouts ends)
	plans           map[*tileir.Op]plan            // planMMA's plans
	ptrNeeds        map[*tileir.Value][]bool       // see ptrRegsNeeded
	decls           map[string]*ir.Func
	asms            map[asmKey][]*ir.InlineAsm     // see asm
	exchanges       map[exchangeKey]exchangeBuffer // exchangeStrides' choices
	vecTypes        map[typeKey]*types.VectorType
	ptrTypes        map[typeKey]*types.PointerType

	sp    *metadata.DISubprogram
	files map[string]*metadata.DIFile
	locs  map[tileir.Loc]*metadata.DILocation
	dbgs  map[*metadata.DILocation]ir.Metadata // see stamp
	// stamped holds, per block, a range of its instructions that all have !dbg.
	stamped [][2]int

	ar arena // instructions by the chunk (alloc.go)
}

// newGen starts lowering f with an ISA of arch.
func newGen(arch isa.Arch, t target.Target, opts Options, f *tileir.Func) *gen {
	g := &gen{t: t, archName: arch.Name, opts: opts, tf: f, m: ir.NewModule(), enc: map[*tileir.Value]encoding{},
		vals: map[*tileir.Value][]value.Value{}, layouts: newLayouts(), decls: map[string]*ir.Func{}, asms: map[asmKey][]*ir.InlineAsm{},
		vecTypes: map[typeKey]*types.VectorType{}, ptrTypes: map[typeKey]*types.PointerType{},
		files: map[string]*metadata.DIFile{}, locs: map[tileir.Loc]*metadata.DILocation{},
		dbgs: map[*metadata.DILocation]ir.Metadata{}}
	g.isa = arch.New(g, t, opts.Options)
	return g
}

func (g *gen) errorf(op *tileir.Op, format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: error: '%s' op: %s", op.Loc.File, op.Loc.Line, op.Loc.Col, op.Name, fmt.Sprintf(format, args...))
}

// kernel builds the LLVM function: the user's non-constexpr parameters, then the global
// and profile scratch pointers, defined as the ISA's kernel.
func (g *gen) kernel() error {
	g.isa.InitModule(g.m)
	var params []*ir.Param
	args := g.tf.Args()
	for i, a := range args {
		if d, ok := a.Type.(*tileir.TensorDescType); ok {
			if err := hostDescParams(args[i+1:], len(d.Block().Shape())); err != nil {
				return fmt.Errorf("%s: @%s argument %d (%s): %v", g.tf.Loc, g.tf.Name, i, a.Type, err)
			}
			params = append(params, g.hostDescParam())
			continue
		}
		pt, err := g.llType(a.Type)
		if err != nil {
			return fmt.Errorf("%s: @%s argument %d: %v", g.tf.Loc, g.tf.Name, i, err)
		}
		params = append(params, ir.NewParam("", pt))
	}
	scratch := types.NewPointer(types.I8)
	scratch.AddrSpace = 1
	params = append(params, ir.NewParam("", scratch), ir.NewParam("", scratch))
	g.f = g.m.NewFunc(g.tf.Name, types.Void, params...)
	g.isa.DefineKernel(g.f)
	g.debugInfo()
	g.cur = g.f.NewBlock("")
	for i, a := range args {
		g.vals[a] = []value.Value{g.f.Params[i]}
		if d, ok := a.Type.(*tileir.TensorDescType); ok {
			// A host descriptor's registers: its base, then the shape and strides that
			// follow it as parameters (see the package doc's ABI note).
			rank := len(d.Block().Shape())
			for _, p := range g.f.Params[i+1 : i+1+2*rank] {
				g.vals[a] = append(g.vals[a], p)
			}
		}
	}
	g.axes = analyzeAxes(g.tf)
	assignLayouts(g)
	g.planKernelMaps()
	g.threadIDs()
	if g.kernelMaps != nil {
		g.programScratch()
	}
	if g.usesTMA() {
		g.initTMABarrier()
	}
	g.planPipelines()
	g.planInvariantOperands()
	g.settleDirectLoads()
	g.planAsyncDots()
	g.scopes = []map[string][]value.Value{{}}
	if err := g.region(g.tf.Body.Entry()); err != nil {
		return err
	}
	if g.smem != nil {
		g.smem.Align = ir.Align(max(16, g.tmaScratchStart, g.sharedAlign))
	}
	return nil
}

// globalI8Ptr is i8 addrspace(1)*, a .u64 global address in PTX.
func globalI8Ptr() *types.PointerType {
	p := types.NewPointer(types.I8)
	p.AddrSpace = 1
	return p
}

// hostDescParams checks that a host tensor descriptor parameter of the given rank is
// followed by its shape (rank i32) and strides (rank i64), as Triton 3.6 flattens them.
func hostDescParams(next []*tileir.Value, rank int) error {
	if len(next) < 2*rank {
		return fmt.Errorf("a descriptor of rank %d needs %d shape and stride parameters after it, %d follow", rank, 2*rank, len(next))
	}
	for i, a := range next[:2*rank] {
		want := tileir.Scalar(tileir.I32)
		if i >= rank {
			want = tileir.I64
		}
		if a.Type != want {
			return fmt.Errorf("parameter %d after the descriptor is %s, want %s (shape i32, then strides i64)", i+1, a.Type, want)
		}
	}
	return nil
}

// threadIDs reads the thread's id and splits it into lane and warp.
func (g *gen) threadIDs() {
	g.tid = g.isa.ThreadID()
	ws := int64(g.t.WarpSize)
	g.lane = g.cur.NewAnd(g.tid, i32c(ws-1))
	g.warp = g.cur.NewLShr(g.tid, i32c(int64(log2(int(ws)))))
}

// region lowers the ops of a block (the terminator included).
func (g *gen) region(b *tileir.Block) error {
	for _, op := range b.Ops {
		if err := g.op(op); err != nil {
			return err
		}
	}
	return nil
}

// lowerFn lowers one op.
type lowerFn func(g *gen, op *tileir.Op) error

// lowerings is the op table; it is filled by the files that implement each family.
var lowerings = map[string]lowerFn{}

func (g *gen) op(op *tileir.Op) error {
	fn, ok := lowerings[op.Name]
	if !ok {
		return g.errorf(op, "not supported by the %s lowering yet", g.archName)
	}
	outer := g.curOp
	g.curOp = op // left set when fn panics, so that the error names this op
	startBlock, startInst := len(g.f.Blocks)-1, len(g.cur.Insts)
	curIdx := slices.Index(g.f.Blocks, g.cur)
	if curIdx >= 0 {
		startBlock = curIdx
	}
	if v, ok := g.waitBefore[op]; ok {
		g.vals[v] = g.isa.(isa.WarpGroupMMA).MMAWait(g.vals[v], 0)
	}
	if err := fn(g, op); err != nil {
		return err
	}
	g.curOp = outer
	g.stamp(op.Loc, startBlock, startInst)
	return nil
}

// ---- debug information -------------------------------------------------------------

func (g *gen) addMD(d metadata.Definition) {
	d.SetID(-1)
	g.m.MetadataDefs = append(g.m.MetadataDefs, d)
}

func (g *gen) diFile(name string) *metadata.DIFile {
	if f, ok := g.files[name]; ok {
		return f
	}
	f := &metadata.DIFile{Filename: path.Base(name), Directory: path.Dir(name)}
	g.addMD(f)
	g.files[name] = f
	return f
}

// debugInfo writes the compile unit and the kernel's subprogram (line tables only).
func (g *gen) debugInfo() {
	file := g.diFile(g.tf.Loc.File)
	cu := &metadata.DICompileUnit{Distinct: true, Language: enum.DwarfLangC, File: file, Producer: "gotriton",
		IsOptimized: true, EmissionKind: enum.EmissionKindLineTablesOnly}
	g.addMD(cu)
	st := &metadata.DISubroutineType{CC: enum.DwarfCCNormal, Types: &metadata.Tuple{MetadataID: -1}}
	g.addMD(st.Types)
	g.addMD(st)
	g.sp = &metadata.DISubprogram{Distinct: true, Name: g.tf.Name, LinkageName: g.tf.Name, Scope: file, File: file,
		Line: int64(g.tf.Loc.Line), Type: st, ScopeLine: int64(g.tf.Loc.Line),
		SPFlags: enum.DISPFlagDefinition | enum.DISPFlagOptimized, Unit: cu}
	g.addMD(g.sp)
	g.f.Metadata = append(g.f.Metadata, &metadata.Attachment{Name: "dbg", Node: g.sp})
	ver := &metadata.Tuple{Fields: []metadata.Field{i32md(2), &metadata.String{Value: "Debug Info Version"}, i32md(3)}}
	g.addMD(ver)
	g.m.NamedMetadataDefs["llvm.dbg.cu"] = &metadata.NamedDef{Name: "llvm.dbg.cu", Nodes: []metadata.Node{cu}}
	g.m.NamedMetadataDefs["llvm.module.flags"] = &metadata.NamedDef{Name: "llvm.module.flags", Nodes: []metadata.Node{ver}}
}

// i32md is an integer operand of a metadata tuple (printed "i32 2").
func i32md(v int64) metadata.Field { return constant.NewInt(types.I32, v) }

func (g *gen) diLoc(l tileir.Loc) *metadata.DILocation {
	if l == (tileir.Loc{}) {
		l = tileir.Loc{File: g.tf.Loc.File, Line: 0, Col: 0}
	}
	if d, ok := g.locs[l]; ok {
		return d
	}
	var scope metadata.Field = g.sp
	if l.File != g.tf.Loc.File {
		lbf := &metadata.DILexicalBlockFile{Scope: g.sp, File: g.diFile(l.File)}
		g.addMD(lbf)
		scope = lbf
	}
	d := &metadata.DILocation{Line: int64(l.Line), Column: int64(l.Col), Scope: scope}
	g.addMD(d)
	g.locs[l] = d
	return d
}

// stamp gives every instruction emitted since (startBlock, startInst) that has no !dbg
// yet the location l; nested ops stamp theirs first.
func (g *gen) stamp(l tileir.Loc, startBlock, startInst int) {
	d := g.diLoc(l)
	// One attachment list per location, of length and capacity 1, shared by every
	// instruction that gets no other metadata: an append to it elsewhere copies it.
	dbg, ok := g.dbgs[d]
	if !ok {
		dbg = ir.Metadata{&metadata.Attachment{Name: "dbg", Node: d}}
		g.dbgs[d] = dbg
	}
	for len(g.stamped) < len(g.f.Blocks) {
		g.stamped = append(g.stamped, [2]int{})
	}
	for bi := startBlock; bi < len(g.f.Blocks); bi++ {
		b := g.f.Blocks[bi]
		n := len(b.Insts)
		from := 0
		if bi == startBlock {
			from = min(startInst, n)
		}
		// Skip the instructions that an op nested in this one has stamped already
		// (stamped[bi] is a range of b's instructions that all have !dbg).
		lo, hi := g.stamped[bi][0], g.stamped[bi][1]
		if hi > n || lo >= hi {
			lo, hi = n, n
		}
		if lo >= from {
			for _, inst := range b.Insts[from:lo] {
				setDbg(inst, dbg)
			}
			for _, inst := range b.Insts[hi:] {
				setDbg(inst, dbg)
			}
		} else {
			for _, inst := range b.Insts[from:] {
				setDbg(inst, dbg)
			}
			if hi >= from {
				from = lo
			}
		}
		g.stamped[bi] = [2]int{from, n}
		if b.Term != nil {
			setDbg(b.Term, dbg)
		}
	}
}

// setDbg attaches !dbg (dbg, a one-element list) to an instruction unless it has one.
// llir/llvm keeps metadata in a Metadata field of every instruction type, without a
// common setter.
func setDbg(inst any, dbg ir.Metadata) {
	md := metadataOf(inst)
	if md == nil {
		return
	}
	for _, a := range *md {
		if a.Name == "dbg" {
			return
		}
	}
	if len(*md) == 0 {
		*md = dbg[:1:1]
		return
	}
	*md = append(*md, dbg[0])
}

// mdField caches, per instruction type, the index path of its Metadata field (nil: none).
var mdField sync.Map // reflect.Type -> []int

// metadataOf returns a pointer to inst's Metadata field, or nil when it has none.
func metadataOf(inst any) *ir.Metadata {
	switch i := inst.(type) { // the instructions we emit, without reflection
	case *ir.InstAShr:
		return &i.Metadata
	case *ir.InstAdd:
		return &i.Metadata
	case *ir.InstAddrSpaceCast:
		return &i.Metadata
	case *ir.InstAlloca:
		return &i.Metadata
	case *ir.InstAnd:
		return &i.Metadata
	case *ir.InstAtomicRMW:
		return &i.Metadata
	case *ir.InstBitCast:
		return &i.Metadata
	case *ir.InstCall:
		return &i.Metadata
	case *ir.InstCmpXchg:
		return &i.Metadata
	case *ir.InstExtractElement:
		return &i.Metadata
	case *ir.InstExtractValue:
		return &i.Metadata
	case *ir.InstFAdd:
		return &i.Metadata
	case *ir.InstFCmp:
		return &i.Metadata
	case *ir.InstFDiv:
		return &i.Metadata
	case *ir.InstFMul:
		return &i.Metadata
	case *ir.InstFNeg:
		return &i.Metadata
	case *ir.InstFPExt:
		return &i.Metadata
	case *ir.InstFPToSI:
		return &i.Metadata
	case *ir.InstFPToUI:
		return &i.Metadata
	case *ir.InstFPTrunc:
		return &i.Metadata
	case *ir.InstFRem:
		return &i.Metadata
	case *ir.InstFSub:
		return &i.Metadata
	case *ir.InstFence:
		return &i.Metadata
	case *ir.InstFreeze:
		return &i.Metadata
	case *ir.InstGetElementPtr:
		return &i.Metadata
	case *ir.InstICmp:
		return &i.Metadata
	case *ir.InstInsertElement:
		return &i.Metadata
	case *ir.InstInsertValue:
		return &i.Metadata
	case *ir.InstIntToPtr:
		return &i.Metadata
	case *ir.InstLShr:
		return &i.Metadata
	case *ir.InstLoad:
		return &i.Metadata
	case *ir.InstMul:
		return &i.Metadata
	case *ir.InstOr:
		return &i.Metadata
	case *ir.InstPhi:
		return &i.Metadata
	case *ir.InstPtrToInt:
		return &i.Metadata
	case *ir.InstSDiv:
		return &i.Metadata
	case *ir.InstSExt:
		return &i.Metadata
	case *ir.InstSIToFP:
		return &i.Metadata
	case *ir.InstSRem:
		return &i.Metadata
	case *ir.InstSelect:
		return &i.Metadata
	case *ir.InstShl:
		return &i.Metadata
	case *ir.InstShuffleVector:
		return &i.Metadata
	case *ir.InstStore:
		return &i.Metadata
	case *ir.InstSub:
		return &i.Metadata
	case *ir.InstTrunc:
		return &i.Metadata
	case *ir.InstUDiv:
		return &i.Metadata
	case *ir.InstUIToFP:
		return &i.Metadata
	case *ir.InstURem:
		return &i.Metadata
	case *ir.InstXor:
		return &i.Metadata
	case *ir.InstZExt:
		return &i.Metadata
	case *ir.TermBr:
		return &i.Metadata
	case *ir.TermCondBr:
		return &i.Metadata
	case *ir.TermRet:
		return &i.Metadata
	case *ir.TermSwitch:
		return &i.Metadata
	case *ir.TermUnreachable:
		return &i.Metadata
	}
	v := reflect.ValueOf(inst).Elem()
	t := v.Type()
	idx, ok := mdField.Load(t)
	if !ok {
		var path []int
		if sf, found := t.FieldByName("Metadata"); found && sf.Type == reflect.TypeFor[ir.Metadata]() {
			path = sf.Index
		}
		mdField.Store(t, path)
		idx = path
	}
	path := idx.([]int)
	if path == nil {
		return nil
	}
	return v.FieldByIndex(path).Addr().Interface().(*ir.Metadata)
}

// ---- types and constants ---------------------------------------------------------------

// llScalar maps a tile IR element type to LLVM. bf16 and the fp8 types have no LLVM type in
// llir/llvm: they travel as i16 and i8 bit patterns.
func llScalar(s tileir.Scalar) types.Type {
	switch s {
	case tileir.I1:
		return types.I1
	case tileir.I8:
		return types.I8
	case tileir.I16, tileir.BF16:
		return types.I16
	case tileir.I32:
		return types.I32
	case tileir.I64:
		return types.I64
	case tileir.F16:
		return types.Half
	case tileir.F32:
		return types.Float
	case tileir.F64:
		return types.Double
	}
	return types.I8 // fp8
}

// llType maps the element type of t (a scalar, pointer, or tensor of them) to LLVM.
func (g *gen) llType(t tileir.Type) (types.Type, error) {
	switch e := tileir.ElemType(t).(type) {
	case tileir.Scalar:
		return llScalar(e), nil
	case *tileir.PtrType:
		var elem types.Type = types.I8
		if s, ok := e.Elem().(tileir.Scalar); ok {
			elem = memType(s)
		} else if _, ok := e.Elem().(*tileir.PtrType); ok {
			elem = types.NewPointer(types.I8)
			elem.(*types.PointerType).AddrSpace = 1
		} else {
			return nil, fmt.Errorf("type %s not supported yet", t)
		}
		p := types.NewPointer(elem)
		p.AddrSpace = types.AddrSpace(e.AddrSpace())
		return p, nil
	}
	return nil, fmt.Errorf("type %s not supported yet", t)
}

// memType is the in-memory LLVM type of a scalar (i1 is stored as a byte).
func memType(s tileir.Scalar) types.Type {
	if s == tileir.I1 {
		return types.I8
	}
	return llScalar(s)
}

func i32c(v int64) *constant.Int { return isa.I32(v) }

// typeEqual is types.Equal without printing pointer types (llir compares those by their
// text).
func typeEqual(a, b types.Type) bool {
	if a == b {
		return true
	}
	pa, aPtr := a.(*types.PointerType)
	pb, bPtr := b.(*types.PointerType)
	if aPtr || bPtr {
		return aPtr && bPtr && pa.AddrSpace == pb.AddrSpace && typeEqual(pa.ElemType, pb.ElemType)
	}
	return a.Equal(b)
}

// typeKey names a derived type: a vector of n elem, or an elem pointer in address space n.
type typeKey struct {
	elem types.Type
	n    int
}

// vecType returns <n x elem>, one value per kernel.
func (g *gen) vecType(n int, elem types.Type) *types.VectorType {
	k := typeKey{elem, n}
	t, ok := g.vecTypes[k]
	if !ok {
		t = types.NewVector(uint64(n), elem)
		g.vecTypes[k] = t
	}
	return t
}

// ptrType returns elem addrspace(space)*, one value per kernel.
func (g *gen) ptrType(elem types.Type, space int) *types.PointerType {
	k := typeKey{elem, space}
	t, ok := g.ptrTypes[k]
	if !ok {
		t = types.NewPointer(elem)
		t.AddrSpace = types.AddrSpace(space)
		g.ptrTypes[k] = t
	}
	return t
}

// extract emits extractvalue agg, i; the index list is shared (fields up to 63).
func (g *gen) Extract(agg value.Value, i int) *ir.InstExtractValue {
	if i < len(fieldIndices) {
		inst := g.ar.extractValue.next()
		inst.X, inst.Indices = agg, fieldIndices[i:i+1]
		inst.Type()
		g.cur.Insts = append(g.cur.Insts, inst)
		return inst
	}
	return g.cur.NewExtractValue(agg, uint64(i))
}

// fieldIndices are the small extractvalue indices, which instructions share.
var fieldIndices = func() (x [64]uint64) {
	for i := range x {
		x[i] = uint64(i)
	}
	return x
}()

// gep emits getelementptr elem, src, idx. When src points to elem, the result has src's
// type, which spares llir from building it.
func (g *gen) gep(elem types.Type, src, idx value.Value) *ir.InstGetElementPtr {
	gi := g.ar.gep.next()
	gi.idx[0] = idx
	inst := &gi.inst
	inst.ElemType, inst.Src, inst.Indices = elem, src, gi.idx[:]
	if pt, ok := src.Type().(*types.PointerType); ok && typeEqual(pt.ElemType, elem) {
		inst.Typ = pt
	}
	inst.Type() // computed when not set
	g.cur.Insts = append(g.cur.Insts, inst)
	return inst
}

// ---- intrinsics (gen is the isa.Builder of its ISA) ----------------------------------

// Module is the module being built.
func (g *gen) Module() *ir.Module { return g.m }

// Block is the basic block that instructions go to now.
func (g *gen) Block() *ir.Block { return g.cur }

// NewBlock adds a basic block to the kernel.
func (g *gen) NewBlock() *ir.Block { return g.f.NewBlock("") }

// SetBlock makes b the current block.
func (g *gen) SetBlock(b *ir.Block) { g.cur = b }

// declare returns the declaration of an external function (an intrinsic), creating it once.
func (g *gen) Declare(name string, ret types.Type, params ...types.Type) *ir.Func {
	if f, ok := g.decls[name]; ok {
		return f
	}
	ps := make([]*ir.Param, len(params))
	for i, p := range params {
		ps[i] = ir.NewParam("", p)
	}
	f := g.m.NewFunc(name, ret, ps...)
	g.decls[name] = f
	return f
}

// call emits a call of an intrinsic whose parameter types are those of args.
func (g *gen) Call(name string, ret types.Type, args ...value.Value) *ir.InstCall {
	pts := make([]types.Type, len(args))
	for i, a := range args {
		pts[i] = a.Type()
	}
	return g.newCall(g.Declare(name, ret, pts...), args)
}

// asm emits a side-effecting inline-asm call, as Triton's PTXBuilder does. Calls of the
// same text and constraints with the same types share one InlineAsm value.
func (g *gen) Asm(ret types.Type, text, constraints string, args ...value.Value) *ir.InstCall {
	key := asmKey{text, constraints}
	for _, fn := range g.asms[key] {
		if asmFits(fn, ret, args) {
			return g.newCall(fn, args)
		}
	}
	pts := make([]types.Type, len(args))
	for i, a := range args {
		pts[i] = a.Type()
	}
	fn := ir.NewInlineAsm(types.NewPointer(types.NewFunc(ret, pts...)), text, constraints)
	fn.SideEffect = true
	g.asms[key] = append(g.asms[key], fn)
	return g.newCall(fn, args)
}

// asmKey identifies inline asm by its text and constraints.
type asmKey struct{ text, constraints string }

// asmFits reports whether inline asm fn returns ret and takes arguments of args' types.
func asmFits(fn *ir.InlineAsm, ret types.Type, args []value.Value) bool {
	sig := fn.Typ.(*types.PointerType).ElemType.(*types.FuncType)
	if len(sig.Params) != len(args) || !typeEqual(sig.RetType, ret) {
		return false
	}
	for i, a := range args {
		if !typeEqual(sig.Params[i], a.Type()) {
			return false
		}
	}
	return true
}

// barrier synchronizes the block (bar.sync 0), ordering every memory access before it
// against every one after it, in all threads. It is left out when the current basic block
// already has a barrier after which nothing has touched memory.
func (g *gen) barrier() {
	if g.quietSinceBarrier(g.touchesMemory) {
		return
	}
	g.isa.Barrier()
}

// smemBarrier is the barrier that starts every use of the shared scratch buffer (an
// exchange, a reduction, a scan): no thread may write scratch while another may still
// read or write it for an earlier use. It is left out when the current basic block
// already has a barrier after which nothing has touched shared memory: every thread runs
// the same straight-line code since that barrier, so every earlier use is over.
func (g *gen) smemBarrier() {
	if g.quietSinceBarrier(g.touchesShared) {
		return
	}
	g.isa.Barrier()
}

// quietSinceBarrier reports whether the current basic block has a barrier after which no
// instruction does what touches reports, or is the function's entry block and has no
// such instruction at all (before it, no thread has done anything).
func (g *gen) quietSinceBarrier(touches func(ir.Instruction) bool) bool {
	for i := len(g.cur.Insts) - 1; i >= 0; i-- {
		inst := g.cur.Insts[i]
		if g.isa.IsBarrier(inst) {
			return true
		}
		if touches(inst) {
			return false
		}
	}
	return len(g.f.Blocks) > 0 && g.f.Blocks[0] == g.cur
}

// touchesMemory reports whether inst may access memory: loads, stores, atomics, fences
// and every call (inline asm included) except reads of special registers.
func (g *gen) touchesMemory(inst ir.Instruction) bool {
	switch inst := inst.(type) {
	case *ir.InstLoad, *ir.InstStore, *ir.InstAtomicRMW, *ir.InstCmpXchg, *ir.InstFence:
		return true
	case *ir.InstCall:
		return !g.isa.ReadsSpecialRegister(inst)
	}
	return false
}

// touchesShared reports whether inst may access shared memory (address space 3): loads,
// stores and atomics through such pointers, inline asm that the ISA says may (NVIDIA's
// names .shared), and calls given such a pointer.
func (g *gen) touchesShared(inst ir.Instruction) bool {
	shared := func(v value.Value) bool {
		p, ok := v.Type().(*types.PointerType)
		return ok && p.AddrSpace == 3
	}
	switch inst := inst.(type) {
	case *ir.InstLoad:
		return shared(inst.Src)
	case *ir.InstStore:
		return shared(inst.Dst)
	case *ir.InstAtomicRMW:
		return shared(inst.Dst)
	case *ir.InstCmpXchg:
		return shared(inst.Ptr)
	case *ir.InstFence:
		return true
	case *ir.InstCall:
		if a, ok := inst.Callee.(*ir.InlineAsm); ok && g.isa.AsmTouchesShared(a.Asm) {
			return true
		}
		for _, arg := range inst.Args {
			if shared(arg) {
				return true
			}
		}
	}
	return false
}

// used reports whether any op of the kernel uses v.
func (g *gen) used(v *tileir.Value) bool {
	if g.uses == nil {
		g.uses = map[*tileir.Value]bool{}
		g.tf.Walk(func(op *tileir.Op) bool {
			for _, o := range op.Operands {
				g.uses[o] = true
			}
			return true
		})
	}
	return g.uses[v]
}

// sharedBase returns the shared scratch buffer as an i8 pointer, and records that n bytes
// of it are used. It is global_smem, the kernel's dynamic shared memory, from
// scratchStart on: after the TMA mbarrier and the buffers of asynchronous dots, when the
// kernel has them.
func (g *gen) sharedBase(n int) value.Value { return g.sharedAt(g.scratchStart, n) }

// sharedAt returns global_smem plus off bytes as an i8 pointer, and records that n bytes
// from there are used.
func (g *gen) sharedAt(off, n int) value.Value {
	if g.smem == nil {
		g.smem = g.m.NewGlobal("global_smem", types.NewArray(0, types.I8))
		g.smem.Linkage = enum.LinkageExternal
		g.smem.AddrSpace = 3
		g.smem.Typ = types.NewPointer(g.smem.ContentType)
		g.smem.Typ.AddrSpace = 3
	}
	p := types.NewPointer(types.I8)
	p.AddrSpace = 3
	base := constant.NewBitCast(g.smem, p)
	g.smemBytes = max(g.smemBytes, off+n)
	if off == 0 {
		return base
	}
	return constant.NewGetElementPtr(types.I8, base, i32c(int64(off)))
}

func constantI64(v int64) *constant.Int { return constant.NewInt(types.I64, v) }
