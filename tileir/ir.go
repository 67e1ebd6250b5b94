package tileir

import (
	"slices"
	"strconv"
	"sync"
)

// Loc is a source location: File, 1-based Line, 1-based Col, as MLIR's FileLineColLoc.
// The zero Loc is unknown.
type Loc struct {
	File      string
	Line, Col int
}

// String returns the location as MLIR prints it: loc("file":line:col) or loc(unknown).
func (l Loc) String() string {
	if l == (Loc{}) {
		return "loc(unknown)"
	}
	return "loc(" + quote(l.File) + ":" + strconv.Itoa(l.Line) + ":" + strconv.Itoa(l.Col) + ")"
}

// Value is an SSA value: an op result or a block argument.
type Value struct {
	// Type is the value's type.
	Type Type
	// Hint, when set, names the value in printed IR (%acc, or %acc_3 when acc is taken),
	// as Triton names values after Python variables. For an op with several results, the
	// first result's Hint names the group (%acc:2).
	Hint string

	def   *Op
	block *Block
	index int32
	// slot is scratch for passes: a value's position in a pass's own table, valid only
	// when the table's entry at slot-1 is the value itself (a sparse set), so that no
	// pass needs to clear it.
	slot int32
}

// Def returns the op that defines v, or nil for a block argument.
func (v *Value) Def() *Op { return v.def }

// Block returns the block of which v is an argument, or nil for an op result.
func (v *Value) Block() *Block { return v.block }

// Index returns v's position among its op's results or its block's arguments.
func (v *Value) Index() int { return int(v.index) }

// Op is one operation: a name from the catalogue (or any dialect.name, printed generically),
// operands, results, a sorted attribute dictionary and nested regions.
type Op struct {
	Name     string
	Operands []*Value
	Results  []*Value
	Attrs    []NamedAttr // sorted by name; use Attr / SetAttr
	Regions  []*Region
	Loc      Loc

	block *Block
	// def caches the catalogue entry of Name (checked against Name, which may change).
	def *OpDef
	// props lists, for an op outside the catalogue, which attributes the generic form
	// printed as properties <{...}>, so that they print back the same way.
	props []string
}

// Block returns the block that contains op, or nil when it is detached.
func (op *Op) Block() *Block { return op.block }

// Result returns result i.
func (op *Op) Result(i int) *Value { return op.Results[i] }

// Attr returns the attribute called name, or nil.
func (op *Op) Attr(name string) Attr { return getAttr(op.Attrs, name) }

// SetAttr sets (or replaces) attribute name.
func (op *Op) SetAttr(name string, v Attr) { op.Attrs = setAttr(op.Attrs, name, v) }

// RemoveAttr deletes attribute name, if present.
func (op *Op) RemoveAttr(name string) { op.Attrs = removeAttr(op.Attrs, name) }

// IntAttr returns the integer value of attribute name (0 when absent).
func (op *Op) IntAttr(name string) int64 {
	if a, ok := op.Attr(name).(IntAttr); ok {
		return a.V
	}
	return 0
}

// EnumAttr returns the keyword of enum attribute name ("" when absent).
func (op *Op) EnumAttr(name string) string {
	if a, ok := op.Attr(name).(EnumAttr); ok {
		return string(a)
	}
	return ""
}

// Def returns the catalogue entry for op, or nil for an unknown op.
func (op *Op) Def() *OpDef {
	if d := op.def; d != nil && d.Name == op.Name {
		return d
	}
	op.def = opDefs[op.Name]
	return op.def
}

// Has reports whether op's catalogue entry has all the traits in t.
func (op *Op) Has(t Trait) bool {
	d := op.Def()
	return d != nil && d.Traits&t == t
}

// oneResult is the storage of a single-result op's result and result list, allocated
// together: most ops have exactly one result.
type oneResult struct {
	v    Value
	list [1]*Value
}

// addResults appends results of the given types, allocated together.
func (op *Op) addResults(types ...Type) {
	if len(types) == 1 && len(op.Results) == 0 {
		r := &oneResult{v: Value{Type: types[0], def: op}}
		r.list[0] = &r.v
		op.Results = r.list[:]
		return
	}
	vals := make([]Value, len(types))
	op.Results = slices.Grow(op.Results, len(types))
	for i, t := range types {
		vals[i] = Value{Type: t, def: op, index: int32(len(op.Results))}
		op.Results = append(op.Results, &vals[i])
	}
}

// Region is a list of blocks owned by an op (or a function body).
type Region struct {
	Blocks []*Block
	op     *Op
}

// Op returns the op that owns the region (nil for a function body).
func (r *Region) Op() *Op { return r.op }

// Entry returns the first block.
func (r *Region) Entry() *Block { return r.Blocks[0] }

// Block is a list of ops; the last is its terminator once the block is complete.
type Block struct {
	Args   []*Value
	Ops    []*Op
	region *Region
}

// Region returns the region that contains b.
func (b *Block) Region() *Region { return b.region }

// Terminator returns the last op, or nil when the block is empty.
func (b *Block) Terminator() *Op {
	if len(b.Ops) == 0 {
		return nil
	}
	return b.Ops[len(b.Ops)-1]
}

// AddArg appends a block argument of type t.
func (b *Block) AddArg(t Type) *Value {
	v := &Value{Type: t, block: b, index: int32(len(b.Args))}
	b.Args = append(b.Args, v)
	return v
}

// Insert places op at position i of b.
func (b *Block) Insert(i int, op *Op) {
	op.block = b
	b.Ops = slices.Insert(b.Ops, i, op)
}

// indexOf returns op's position in b, or -1.
func (b *Block) indexOf(op *Op) int { return slices.Index(b.Ops, op) }

// Erase removes op from its block. Its results must have no remaining uses.
func (op *Op) Erase() {
	if b := op.block; b != nil {
		i := b.indexOf(op)
		b.Ops = slices.Delete(b.Ops, i, i+1)
		op.block = nil
	}
}

// dropOps removes the ops of b that are in drop, keeping the others in order.
func (b *Block) dropOps(drop map[*Op]bool) {
	b.Ops = slices.DeleteFunc(b.Ops, func(op *Op) bool {
		if drop[op] {
			op.block = nil
			return true
		}
		return false
	})
}

func newRegion(op *Op, argTypes ...Type) *Region {
	r := &Region{op: op}
	blk := &Block{region: r}
	for _, t := range argTypes {
		blk.AddArg(t)
	}
	r.Blocks = []*Block{blk}
	return r
}

// ParentOp returns the op whose region contains op, or nil at function level.
func (op *Op) ParentOp() *Op {
	if op.block == nil || op.block.region == nil {
		return nil
	}
	return op.block.region.op
}

// Walk calls f on every op of the region in order, parents before the ops they contain.
// f returning false skips the op's regions.
func (r *Region) Walk(f func(*Op) bool) {
	w, _ := walkers.Get().(*walker)
	if w == nil {
		w = &walker{}
	}
	w.visit = f
	w.region(r, 0)
	w.visit = nil
	for _, b := range w.bufs { // drop the op pointers before the buffers go back
		clear(b[:cap(b)])
	}
	walkers.Put(w)
}

// walkers holds walkers whose buffers later walks reuse.
var walkers sync.Pool

// walker is one Walk. It visits a copy of each block's op list, so that visits may insert
// and erase ops; the copies reuse one buffer per nesting depth.
type walker struct {
	visit func(*Op) bool
	bufs  [][]*Op
}

func (w *walker) region(r *Region, depth int) {
	if depth == len(w.bufs) {
		w.bufs = append(w.bufs, nil)
	}
	for _, b := range r.Blocks {
		ops := append(w.bufs[depth][:0], b.Ops...)
		w.bufs[depth] = ops
		for _, op := range ops {
			if w.visit(op) {
				for _, sub := range op.Regions {
					w.region(sub, depth+1)
				}
			}
		}
	}
}

// Func is a tt.func: a symbol with typed arguments (its entry block's arguments),
// per-argument attributes, result types and a body.
type Func struct {
	Name string
	// Visibility is "public" (a kernel) or "private"; "" prints none.
	Visibility string
	ArgAttrs   [][]NamedAttr // per argument, sorted by name; may be shorter than Args
	Results    []Type
	Attrs      []NamedAttr // function attributes, e.g. noinline = false
	Body       *Region
	Loc        Loc
	// ArgLocs are the argument locations, when known.
	ArgLocs []Loc
}

// Args returns the function's arguments.
func (f *Func) Args() []*Value { return f.Body.Entry().Args }

// Arg returns argument i.
func (f *Func) Arg(i int) *Value { return f.Body.Entry().Args[i] }

// SetArgAttr sets attribute name on argument i, e.g. SetArgAttr(0, "tt.divisibility", IntAttr{16, I32}).
func (f *Func) SetArgAttr(i int, name string, v Attr) {
	for len(f.ArgAttrs) <= i {
		f.ArgAttrs = append(f.ArgAttrs, nil)
	}
	f.ArgAttrs[i] = setAttr(f.ArgAttrs[i], name, v)
}

// SetAttr sets a function attribute.
func (f *Func) SetAttr(name string, v Attr) { f.Attrs = setAttr(f.Attrs, name, v) }

// Walk calls f on every op in the function body (see Region.Walk).
func (f *Func) Walk(fn func(*Op) bool) { f.Body.Walk(fn) }

// Module is a list of functions with optional module attributes.
type Module struct {
	Attrs []NamedAttr
	Funcs []*Func
	Loc   Loc
}

// Func returns the function called name, or nil.
func (m *Module) Func(name string) *Func {
	for _, f := range m.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// NewFunc appends a function with the given argument and result types and an empty entry
// block, and returns it. Kernels are "public"; helper functions kept out of line "private".
func (m *Module) NewFunc(name, visibility string, args []Type, results []Type) *Func {
	f := &Func{Name: name, Visibility: visibility, Results: results}
	f.Body = newRegion(nil, args...)
	f.Attrs = setAttr(f.Attrs, "noinline", BoolAttr(false))
	m.Funcs = append(m.Funcs, f)
	return f
}
