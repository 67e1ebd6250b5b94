package tileir

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Pass is a named transformation of one function. It reports whether it changed anything.
type Pass struct {
	Name string
	Fn   func(f *Func) bool
}

// Passes is the pass table, in a sensible default order.
var Passes = []Pass{
	{"fold", foldPass},
	{"rewrite_tensor_pointer", rewriteTensorPointer},
	{"canonicalize", canonicalize},
	{"combine", combineOps},
	{"reorder_broadcast", reorderBroadcast},
	{"cse", cse},
	{"licm", licm},
	{"dce", dce},
	{"decompose_dot_scaled", decomposeDotScaledPass},
	{"f32_dot_tc", f32DotTCPass},
	{"f32_dot_tc_bf16", f32DotTCBF16Pass},
}

// Run applies the named passes in order to every function of m. With verifyEach, the
// verifier runs before the first pass and after each one, and its first complaint is
// returned, naming the pass that broke the IR.
func Run(m *Module, passes []string, verifyEach bool) error {
	if verifyEach {
		if err := Verify(m); err != nil {
			return fmt.Errorf("before passes: %w", err)
		}
	}
	for _, name := range passes {
		i := slices.IndexFunc(Passes, func(p Pass) bool { return p.Name == name })
		if i < 0 {
			return fmt.Errorf("unknown pass %q", name)
		}
		for _, f := range m.Funcs {
			Passes[i].Fn(f)
		}
		if verifyEach {
			if err := Verify(m); err != nil {
				return fmt.Errorf("after pass %s: %w", name, err)
			}
		}
	}
	return nil
}

// rewriter carries value replacements through one walk: ops visited later (every use comes
// after its definition) have their operands redirected before they are looked at.
type rewriter struct {
	repl    map[*Value]*Value
	changed bool
	in      []Attr // tryFold's scratch: the constant operands of the op being folded
}

func newRewriter() *rewriter { return &rewriter{repl: map[*Value]*Value{}} }

func (rw *rewriter) resolve(v *Value) *Value {
	for {
		r, ok := rw.repl[v]
		if !ok {
			return v
		}
		v = r
	}
}

// update redirects op's operands to their replacements.
func (rw *rewriter) update(op *Op) {
	for i, v := range op.Operands {
		op.Operands[i] = rw.resolve(v)
	}
}

// replace makes every use of op's results use vals instead, and erases op.
func (rw *rewriter) replace(op *Op, vals ...*Value) {
	for i, r := range op.Results {
		rw.repl[r] = vals[i]
	}
	op.Erase()
	rw.changed = true
}

// walk visits every op of f (see Region.Walk), updating operands first.
func (rw *rewriter) walk(f *Func, visit func(op *Op)) {
	f.Walk(func(op *Op) bool {
		rw.update(op)
		if op.block != nil { // not erased meanwhile
			visit(op)
		}
		return op.block != nil
	})
}

// constOf returns the constant value of v, or nil.
func constOf(v *Value) Attr {
	if d := v.def; d != nil && d.Name == "arith.constant" {
		return d.Attr("value")
	}
	return nil
}

// newConst inserts arith.constant a just before op and returns its result.
func newConst(op *Op, a Attr) *Value {
	c := &Op{Name: "arith.constant", Loc: op.Loc}
	c.SetAttr("value", a)
	c.addResults(attrType(a))
	op.block.Insert(op.block.indexOf(op), c)
	return c.Results[0]
}

// tryFold replaces op by a constant if its fold hook can compute it.
func (rw *rewriter) tryFold(op *Op) bool {
	d := op.Def()
	if d == nil || d.fold == nil || op.Name == "arith.constant" || len(op.Results) != 1 {
		return false
	}
	rw.in = rw.in[:0]
	for _, v := range op.Operands {
		rw.in = append(rw.in, constOf(v))
	}
	a := d.fold(op, rw.in)
	if a == nil {
		return false
	}
	// newConst before op, then replace(op, ...): the constant takes op's place in its
	// block, found once.
	c := &Op{Name: "arith.constant", Loc: op.Loc}
	c.SetAttr("value", a)
	c.addResults(attrType(a))
	b := op.block
	b.Ops[b.indexOf(op)] = c
	c.block, op.block = b, nil
	rw.repl[op.Results[0]] = c.Results[0]
	rw.changed = true
	return true
}

// foldPass folds every op whose operands are constants into a constant.
func foldPass(f *Func) bool {
	rw := newRewriter()
	rw.walk(f, func(op *Op) { rw.tryFold(op) })
	return rw.changed
}

// canonicalize folds constants and applies the local simplifications in canonicalizers,
// until nothing changes.
func canonicalize(f *Func) bool {
	changed := false
	for range 16 {
		rw := newRewriter()
		rw.walk(f, func(op *Op) {
			if rw.tryFold(op) {
				return
			}
			for _, r := range canonicalizersOf(op) {
				if r(rw, op) {
					rw.changed = true
					return
				}
			}
		})
		if !rw.changed {
			break
		}
		changed = true
	}
	return changed
}

var attachCanon sync.Once

// canonicalizersOf returns canonicalizers[op.Name], from op's catalogue entry when it has
// one (the table is complete once every init has run; the entries take it then).
func canonicalizersOf(op *Op) []func(rw *rewriter, op *Op) bool {
	attachCanon.Do(func() {
		for name, rs := range canonicalizers {
			if d := opDefs[name]; d != nil {
				d.canon = rs
			}
		}
	})
	if d := op.Def(); d != nil {
		return d.canon
	}
	return canonicalizers[op.Name]
}

// isSplatOf reports whether constant a is (a splat of) the number n.
func isSplatOf(a Attr, n float64) bool {
	switch s := splatOf(a).(type) {
	case IntAttr:
		return float64(s.V) == n
	case FloatAttr:
		return s.V == n
	}
	return false
}

// identity returns a canonicalizer for x op c == x when operand 1 is the constant n.
func identity(n float64) func(rw *rewriter, op *Op) bool {
	return func(rw *rewriter, op *Op) bool {
		if isSplatOf(constOf(op.Operands[1]), n) && op.Operands[0].Type == op.Results[0].Type {
			rw.replace(op, op.Operands[0])
			return true
		}
		return false
	}
}

// absorb returns a canonicalizer for x op 0 == 0 (integers).
func absorb(rw *rewriter, op *Op) bool {
	if c := constOf(op.Operands[1]); isSplatOf(c, 0) {
		rw.replace(op, op.Operands[1])
		return true
	}
	return false
}

// constantRight moves the constant operand of a commutative op to the right.
func constantRight(rw *rewriter, op *Op) bool {
	if constOf(op.Operands[0]) != nil && constOf(op.Operands[1]) == nil {
		op.Operands[0], op.Operands[1] = op.Operands[1], op.Operands[0]
		return true
	}
	return false
}

// sameTypeNoop drops a shape op whose result has its operand's type.
func sameTypeNoop(rw *rewriter, op *Op) bool {
	if op.Operands[0].Type == op.Results[0].Type {
		rw.replace(op, op.Operands[0])
		return true
	}
	return false
}

// splatThrough turns a shape op of a splat into one splat of the scalar.
func splatThrough(rw *rewriter, op *Op) bool {
	src := op.Operands[0].def
	if src == nil || src.Name != "tt.splat" {
		return false
	}
	op.Name = "tt.splat"
	op.Operands = []*Value{src.Operands[0]}
	op.Attrs = nil
	return true
}

// broadcastOfBroadcast broadcasts the inner source directly.
func broadcastOfBroadcast(rw *rewriter, op *Op) bool {
	if src := op.Operands[0].def; src != nil && src.Name == "tt.broadcast" {
		op.Operands[0] = src.Operands[0]
		return true
	}
	return false
}

// selectConst picks the arm of a select with a constant condition, or the common arm.
func selectConst(rw *rewriter, op *Op) bool {
	if op.Operands[1] == op.Operands[2] {
		rw.replace(op, op.Operands[1])
		return true
	}
	if c, ok := splatOf(constOf(op.Operands[0])).(IntAttr); ok {
		rw.replace(op, op.Operands[2-int(c.V)])
		return true
	}
	return false
}

// cmpSelf folds x cmp x for integers.
func cmpSelf(rw *rewriter, op *Op) bool {
	if op.Operands[0] != op.Operands[1] {
		return false
	}
	v := slices.Contains([]string{"eq", "sle", "sge", "ule", "uge"}, op.EnumAttr("predicate"))
	rw.replace(op, newConst(op, wrap(IntAttr{boolInt(v), I1}, op.Results[0].Type)))
	return true
}

// dropTrueMask removes a mask that is constant true from tt.load (with its other) and
// tt.store; maskIndex is the mask's operand position.
func dropTrueMask(maskIndex int) func(rw *rewriter, op *Op) bool {
	return func(rw *rewriter, op *Op) bool {
		if len(op.Operands) > maskIndex && isSplatOf(constOf(op.Operands[maskIndex]), 1) {
			op.Operands = op.Operands[:maskIndex]
			return true
		}
		return false
	}
}

// canonicalizers are the local rewrites of the canonicalize pass, by op name. Each returns
// true when it changed the IR.
var canonicalizers = map[string][]func(rw *rewriter, op *Op) bool{
	"arith.addi":     {constantRight, identity(0)},
	"arith.subi":     {identity(0)},
	"arith.muli":     {constantRight, identity(1), absorb},
	"arith.andi":     {constantRight, absorb},
	"arith.ori":      {constantRight, identity(0)},
	"arith.xori":     {constantRight, identity(0)},
	"arith.shli":     {identity(0)},
	"arith.shrsi":    {identity(0)},
	"arith.shrui":    {identity(0)},
	"arith.divsi":    {identity(1)},
	"arith.divui":    {identity(1)},
	"arith.addf":     {constantRight},
	"arith.mulf":     {constantRight, identity(1)},
	"arith.divf":     {identity(1)},
	"arith.maxnumf":  {constantRight},
	"arith.minnumf":  {constantRight},
	"arith.select":   {selectConst},
	"arith.cmpi":     {cmpSelf},
	"tt.addptr":      {identity(0)},
	"tt.broadcast":   {sameTypeNoop, splatThrough, broadcastOfBroadcast},
	"tt.expand_dims": {splatThrough},
	"tt.reshape":     {sameTypeNoop, splatThrough},
	"tt.trans":       {transNoop, splatThrough},
	"tt.load":        {dropTrueMask(1)},
	"tt.store":       {dropTrueMask(2)},
}

// appendOpKey appends to key what pure op computes: name, operands (by id), attributes and
// result types.
func appendOpKey(key []byte, op *Op, id func(*Value) int) []byte {
	key = append(key, op.Name...)
	for _, v := range op.Operands {
		key = append(key, ' ')
		key = strconv.AppendInt(key, int64(id(v)), 10)
	}
	if len(op.Attrs) > 0 { // dictString's text, appended in place
		key = append(key, '{')
		for i, a := range op.Attrs {
			if i > 0 {
				key = append(key, ", "...)
			}
			key = append(key, attrName(a.Name)...)
			if _, unit := a.Value.(UnitAttr); !unit {
				key = append(key, " = "...)
				key = append(key, a.Value.String()...)
			}
		}
		key = append(key, '}')
	}
	for _, r := range op.Results {
		key = append(key, ' ')
		key = append(key, r.Type.String()...)
	}
	return key
}

// cse merges pure ops (without regions, or with one single-block region) that compute the same thing as an op that
// dominates them: one earlier in the same block or in an enclosing one.
func cse(f *Func) bool {
	rw := newRewriter()
	// A value's id is its index in ids, found through its slot.
	var ids []*Value
	id := func(v *Value) int {
		if i := int(v.slot) - 1; i >= 0 && i < len(ids) && ids[i] == v {
			return i
		}
		ids = append(ids, v)
		v.slot = int32(len(ids))
		return len(ids) - 1
	}
	// seen holds the ops of the enclosing regions and of this one so far; each region
	// removes the keys it added when it ends.
	seen := map[string]*Op{}
	var key []byte
	var bufs [][]*Op // copies of the op lists being visited, one buffer per nesting depth
	depth := 0
	var region func(r *Region)
	region = func(r *Region) {
		if depth == len(bufs) {
			bufs = append(bufs, nil)
		}
		depth++
		defer func() { depth-- }()
		var added []string
		for _, b := range r.Blocks {
			ops := append(bufs[depth-1][:0], b.Ops...)
			bufs[depth-1] = ops
			for _, op := range ops {
				rw.update(op)
				// As MLIR's CSE: nested regions are simplified first, and an op with
				// regions is a candidate only when it has a single one-block region
				// (tt.reduce, tt.scan), compared structurally.
				for _, sub := range op.Regions {
					region(sub)
				}
				if IsPure(op) && len(op.Results) > 0 && (len(op.Regions) == 0 ||
					len(op.Regions) == 1 && len(op.Regions[0].Blocks) == 1) {
					key = appendOpKey(key[:0], op, id)
					if len(op.Regions) == 1 {
						key = append(key, regionKey(op.Regions[0], id)...)
					}
					if prev, ok := seen[string(key)]; ok {
						rw.replace(op, prev.Results...)
						continue
					}
					k := string(key)
					seen[k] = op
					added = append(added, k)
				}
			}
		}
		for _, k := range added {
			delete(seen, k)
		}
	}
	region(f.Body)
	return rw.changed
}

// regionKey describes region r for CSE: its blocks' argument types and ops, values defined
// inside r numbered in order of definition, values from outside by id.
func regionKey(r *Region, id func(*Value) int) string {
	local := map[*Value]int{}
	var b strings.Builder
	name := func(v *Value) string {
		if n, ok := local[v]; ok {
			return "L" + strconv.Itoa(n)
		}
		return strconv.Itoa(id(v))
	}
	var walk func(r *Region)
	walk = func(r *Region) {
		b.WriteString(" {")
		for _, blk := range r.Blocks {
			b.WriteString(" ^(")
			for _, a := range blk.Args {
				local[a] = len(local)
				b.WriteString(" " + a.Type.String())
			}
			b.WriteString(")")
			for _, op := range blk.Ops {
				b.WriteString("; " + op.Name)
				for _, v := range op.Operands {
					b.WriteString(" " + name(v))
				}
				b.WriteString(dictString(op.Attrs))
				for _, res := range op.Results {
					local[res] = len(local)
					b.WriteString(" " + res.Type.String())
				}
				for _, sub := range op.Regions {
					walk(sub)
				}
			}
		}
		b.WriteString(" }")
	}
	walk(r)
	return b.String()
}

// dce removes pure ops whose results are unused, and then the ops that only they used. It
// visits ops last to first, so every user of an op is settled before the op itself: one
// sweep finds them all.
func dce(f *Func) bool {
	// uses[i] counts the uses of vals[i]; a value finds i through its slot.
	var vals []*Value
	var uses []int32
	f.Walk(func(op *Op) bool {
		for _, v := range op.Operands {
			if i := int(v.slot) - 1; i >= 0 && i < len(vals) && vals[i] == v {
				uses[i]++
				continue
			}
			vals = append(vals, v)
			v.slot = int32(len(vals))
			uses = append(uses, 1)
		}
		return true
	})
	used := func(v *Value) bool {
		i := int(v.slot) - 1
		return i >= 0 && i < len(vals) && vals[i] == v && uses[i] > 0
	}
	dead := map[*Op]bool{}
	var unuse func(op *Op)
	unuse = func(op *Op) { // drops the uses of op and of the ops nested in it
		for _, v := range op.Operands {
			uses[v.slot-1]--
		}
		for _, r := range op.Regions {
			for _, b := range r.Blocks {
				for _, in := range b.Ops {
					if !dead[in] {
						unuse(in)
					}
				}
			}
		}
	}
	unused := func(op *Op) bool {
		for _, v := range op.Results {
			if used(v) {
				return false
			}
		}
		return true
	}
	var sweep func(r *Region)
	sweep = func(r *Region) {
		for i := len(r.Blocks) - 1; i >= 0; i-- {
			ops := r.Blocks[i].Ops
			for j := len(ops) - 1; j >= 0; j-- {
				op := ops[j]
				if len(op.Results) > 0 && IsPure(op) && unused(op) {
					dead[op] = true
					unuse(op)
					continue
				}
				for k := len(op.Regions) - 1; k >= 0; k-- {
					sweep(op.Regions[k])
				}
			}
		}
	}
	sweep(f.Body)
	if len(dead) == 0 {
		return false
	}
	var compact func(r *Region)
	compact = func(r *Region) {
		for _, b := range r.Blocks {
			b.dropOps(dead)
			for _, op := range b.Ops {
				for _, sub := range op.Regions {
					compact(sub)
				}
			}
		}
	}
	compact(f.Body)
	return true
}

// inside reports whether v is defined within region r (at any depth).
func inside(v *Value, r *Region) bool {
	b := v.block
	if v.def != nil {
		b = v.def.block
	}
	for b != nil && b.region != nil {
		if b.region == r {
			return true
		}
		p := b.region.op
		if p == nil {
			return false
		}
		b = p.block
	}
	return false
}

// licm hoists pure ops out of scf.for bodies when all their operands are defined outside
// the loop, innermost loops first so that ops can climb several levels.
func licm(f *Func) bool {
	var loops []*Op
	f.Walk(func(op *Op) bool {
		if op.Name == "scf.for" {
			loops = append(loops, op)
		}
		return true
	})
	changed := false
	for _, loop := range slices.Backward(loops) {
		body := loop.Regions[0]
		for _, op := range slices.Clone(body.Entry().Ops) {
			if op.Has(Terminator) || !IsPure(op) || len(op.Regions) > 0 || !speculatable(op) {
				continue
			}
			invariant := true
			for _, v := range op.Operands {
				if inside(v, body) {
					invariant = false
					break
				}
			}
			if !invariant {
				continue
			}
			op.Erase()
			loop.block.Insert(loop.block.indexOf(loop), op)
			changed = true
		}
	}
	return changed
}

// speculatable reports whether op may run even when the loop body would not: integer
// division only by a non-zero constant.
func speculatable(op *Op) bool {
	switch op.Name {
	case "arith.divsi", "arith.divui", "arith.remsi", "arith.remui", "arith.ceildivsi", "arith.ceildivui", "arith.floordivsi":
		c := constOf(op.Operands[1])
		return c != nil && !isSplatOf(c, 0)
	}
	return true
}
