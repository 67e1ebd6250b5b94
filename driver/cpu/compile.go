package cpu

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/gotriton/gotriton/tileir"
)

// tile is the run-time value of one SSA value. Exactly one field is in use, fixed by the
// value's type: i for integers (sign-extended to their width) and pointers (addresses),
// f for floats, bp for block pointers, td for tensor descriptors. Scalars are tiles of one
// element. Elements are in row-major order.
type tile struct {
	i  []int64
	f  []float64
	bp *blockPtr
	td *tensorDesc
}

// copyFrom copies src's contents into t's own storage.
func (t *tile) copyFrom(src *tile) {
	copy(t.i, src.i)
	copy(t.f, src.f)
	t.bp, t.td = src.bp, src.td
}

// instance is one program instance of a launch.
type instance struct {
	l   *launch
	pid [3]int
}

// frame holds the value slots of one activation of a compiled function.
type frame struct {
	v    []tile
	inst *instance
}

// step executes one op.
type step func(fr *frame) error

// fn is a compiled function.
type fn struct {
	name   string
	src    *tileir.Func
	slots  []slotInfo
	params []int
	body   []step
	inits  []func(fr *frame) // fill constants when a frame is made
	rets   []int             // slots of the values tt.return returns
	frames sync.Pool
}

// slotInfo says how to allocate a slot's storage.
type slotInfo struct {
	float bool
	n     int // elements; 0 for block pointers and descriptors
}

func (f *fn) newFrame(inst *instance) *frame {
	if fr, ok := f.frames.Get().(*frame); ok {
		fr.inst = inst
		return fr
	}
	fr := &frame{v: make([]tile, len(f.slots)), inst: inst}
	for i, s := range f.slots {
		switch {
		case s.n == 0:
		case s.float:
			fr.v[i].f = make([]float64, s.n)
		default:
			fr.v[i].i = make([]int64, s.n)
		}
	}
	for _, f := range f.inits {
		f(fr)
	}
	return fr
}

func (f *fn) release(fr *frame) {
	fr.inst = nil
	f.frames.Put(fr)
}

// run executes the function body in fr.
func (f *fn) run(fr *frame) error { return runSteps(f.body, fr) }

func runSteps(steps []step, fr *frame) error {
	for _, s := range steps {
		if err := s(fr); err != nil {
			return err
		}
	}
	return nil
}

// compiler turns a module's functions into closures.
type compiler struct {
	mod    *tileir.Module
	fns    map[*tileir.Func]*fn
	active map[*tileir.Func]bool // functions being compiled, to reject recursion
}

// fnc compiles one function.
type fnc struct {
	c     *compiler
	fn    *fn
	slot  map[*tileir.Value]int
	users map[*tileir.Value][]use // every use of every value of the function
}

// use is one use of a value: operand i of op.
type use struct {
	op *tileir.Op
	i  int
}

// collectUses records the uses of values by the ops of the blocks of r, recursively.
func collectUses(r *tileir.Region, users map[*tileir.Value][]use) {
	for _, b := range r.Blocks {
		for _, op := range b.Ops {
			for i, v := range op.Operands {
				users[v] = append(users[v], use{op, i})
			}
			for _, sub := range op.Regions {
				collectUses(sub, users)
			}
		}
	}
}

// onlyUsedAs reports whether every use of v is operand i of an op named name (and v has
// uses), so that such ops may read v's definition directly and v need not be computed.
func (fc *fnc) onlyUsedAs(v *tileir.Value, name string, i int) bool {
	us := fc.users[v]
	for _, u := range us {
		if u.op.Name != name || u.i != i {
			return false
		}
	}
	return len(us) > 0
}

// opFunc compiles one op into a step.
type opFunc func(fc *fnc, op *tileir.Op) (step, error)

// opTable maps each op name the interpreter runs to its compiler. It is filled by init
// functions of the files that implement each family of ops.
var opTable = map[string]opFunc{}

func register(f opFunc, names ...string) {
	for _, n := range names {
		opTable[n] = f
	}
}

func (c *compiler) function(f *tileir.Func) (*fn, error) {
	if cf, ok := c.fns[f]; ok {
		return cf, nil
	}
	if c.active[f] {
		return nil, fmt.Errorf("recursive call of %s is not supported", f.Name)
	}
	c.active[f] = true
	defer delete(c.active, f)
	fc := &fnc{c: c, fn: &fn{name: f.Name, src: f}, slot: map[*tileir.Value]int{}, users: map[*tileir.Value][]use{}}
	collectUses(f.Body, fc.users)
	for _, a := range f.Args() {
		s, err := fc.def(a)
		if err != nil {
			return nil, err
		}
		fc.fn.params = append(fc.fn.params, s)
	}
	body, term, err := fc.block(f.Body.Entry())
	if err != nil {
		return nil, err
	}
	if term == nil || term.Name != "tt.return" {
		return nil, fmt.Errorf("%s: function %s does not end in tt.return", where(f.Loc), f.Name)
	}
	fc.fn.body = body
	fc.fn.rets = fc.uses(term.Operands)
	c.fns[f] = fc.fn
	return fc.fn, nil
}

// def allocates the slot of a newly defined value.
func (fc *fnc) def(v *tileir.Value) (int, error) {
	info, err := slotOf(v.Type)
	if err != nil {
		return 0, err
	}
	s := len(fc.fn.slots)
	fc.fn.slots = append(fc.fn.slots, info)
	fc.slot[v] = s
	return s, nil
}

func slotOf(t tileir.Type) (slotInfo, error) {
	n := 1
	if tt, ok := t.(*tileir.TensorType); ok {
		n = int(tt.NumElements())
	}
	switch e := tileir.ElemType(t).(type) {
	case tileir.Scalar:
		return slotInfo{float: e.IsFloat(), n: n}, nil
	case *tileir.PtrType:
		if _, block := e.Elem().(*tileir.TensorType); block {
			return slotInfo{}, nil
		}
		return slotInfo{n: n}, nil
	case *tileir.TensorDescType:
		return slotInfo{}, nil
	}
	return slotInfo{}, fmt.Errorf("unsupported type %s", t)
}

// use returns the slot of an operand.
func (fc *fnc) use(v *tileir.Value) int { return fc.slot[v] }

func (fc *fnc) uses(vs []*tileir.Value) []int {
	out := make([]int, len(vs))
	for i, v := range vs {
		out[i] = fc.use(v)
	}
	return out
}

// block compiles b's ops up to its terminator, which it returns uncompiled.
func (fc *fnc) block(b *tileir.Block) ([]step, *tileir.Op, error) {
	var steps []step
	for i, op := range b.Ops {
		if i == len(b.Ops)-1 && op.Has(tileir.Terminator) {
			return steps, op, nil
		}
		s, err := fc.op(op)
		if err != nil {
			return nil, nil, err
		}
		if s != nil {
			steps = append(steps, s)
		}
	}
	return steps, nil, nil
}

// region compiles a one-block region whose entry arguments get fresh slots.
func (fc *fnc) region(r *tileir.Region) (args []int, steps []step, term *tileir.Op, err error) {
	if len(r.Blocks) != 1 {
		return nil, nil, nil, fmt.Errorf("regions of %d blocks are not supported", len(r.Blocks))
	}
	for _, a := range r.Entry().Args {
		s, err := fc.def(a)
		if err != nil {
			return nil, nil, nil, err
		}
		args = append(args, s)
	}
	steps, term, err = fc.block(r.Entry())
	return args, steps, term, err
}

func (fc *fnc) op(op *tileir.Op) (step, error) {
	impl, ok := opTable[op.Name]
	if !ok {
		return nil, fmt.Errorf("%s: the cpu interpreter does not support %s", where(op.Loc), op.Name)
	}
	for _, r := range op.Results {
		if _, err := fc.def(r); err != nil {
			return nil, fmt.Errorf("%s: %s: %v", where(op.Loc), op.Name, err)
		}
	}
	s, err := impl(fc, op)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %v", where(op.Loc), op.Name, err)
	}
	return s, nil
}

// copySlots copies tiles src[i] into dst[i].
func copySlots(fr *frame, dst, src []int) {
	for i, d := range dst {
		fr.v[d].copyFrom(&fr.v[src[i]])
	}
}

func init() {
	register(compileFor, "scf.for")
	register(compileIf, "scf.if")
	register(compileWhile, "scf.while")
	register(compileCall, "tt.call")
	register(func(*fnc, *tileir.Op) (step, error) { return nil, nil }, "gpu.barrier")
	register(func(*fnc, *tileir.Op) (step, error) { return nil, nil }, "ub.poison") // any value will do
}

// compileFor: the results hold the carried values between iterations, so that a yield that
// permutes the block arguments reads them before they are overwritten.
func compileFor(fc *fnc, op *tileir.Op) (step, error) {
	lb, ub, stp := fc.use(op.Operands[0]), fc.use(op.Operands[1]), fc.use(op.Operands[2])
	inits, res := fc.uses(op.Operands[3:]), fc.uses(op.Results)
	args, body, term, err := fc.region(op.Regions[0])
	if err != nil {
		return nil, err
	}
	yields := fc.uses(term.Operands)
	iv, carried := args[0], args[1:]
	wrap := wrapper(tileir.ScalarOf(op.Operands[0].Type))
	unsigned := op.Attr("unsignedCmp") != nil
	return func(fr *frame) error {
		copySlots(fr, res, inits)
		lo, hi, st := fr.v[lb].i[0], fr.v[ub].i[0], fr.v[stp].i[0]
		if st <= 0 {
			return fr.fail(op, -1, "scf.for step %d is not positive", st)
		}
		less := func(a int64) bool { return a < hi }
		if unsigned {
			less = func(a int64) bool { return uint64(a) < uint64(hi) }
		}
		for i := lo; less(i); i = wrap(i + st) {
			fr.v[iv].i[0] = i
			copySlots(fr, carried, res)
			if err := runSteps(body, fr); err != nil {
				return err
			}
			copySlots(fr, res, yields)
		}
		return nil
	}, nil
}

func compileIf(fc *fnc, op *tileir.Op) (step, error) {
	cond, res := fc.use(op.Operands[0]), fc.uses(op.Results)
	type branch struct {
		steps  []step
		yields []int
	}
	var br [2]branch
	for i, r := range op.Regions {
		if len(r.Blocks) == 0 {
			continue
		}
		_, steps, term, err := fc.region(r)
		if err != nil {
			return nil, err
		}
		br[i] = branch{steps, fc.uses(term.Operands)}
	}
	return func(fr *frame) error {
		b := &br[1]
		if fr.v[cond].i[0] != 0 {
			b = &br[0]
		}
		if err := runSteps(b.steps, fr); err != nil {
			return err
		}
		copySlots(fr, res, b.yields)
		return nil
	}, nil
}

func compileWhile(fc *fnc, op *tileir.Op) (step, error) {
	inits, res := fc.uses(op.Operands), fc.uses(op.Results)
	before, bsteps, cterm, err := fc.region(op.Regions[0])
	if err != nil {
		return nil, err
	}
	after, asteps, yterm, err := fc.region(op.Regions[1])
	if err != nil {
		return nil, err
	}
	cond, fwd := fc.use(cterm.Operands[0]), fc.uses(cterm.Operands[1:])
	yields := fc.uses(yterm.Operands)
	return func(fr *frame) error {
		copySlots(fr, before, inits)
		for n := 1; ; n++ {
			if err := runSteps(bsteps, fr); err != nil {
				return err
			}
			if fr.v[cond].i[0] == 0 {
				copySlots(fr, res, fwd)
				return nil
			}
			copySlots(fr, after, fwd)
			if err := runSteps(asteps, fr); err != nil {
				return err
			}
			copySlots(fr, before, yields)
			if n%1024 == 0 {
				runtime.Gosched() // let a program that holds a spin lock run
			}
		}
	}, nil
}

func compileCall(fc *fnc, op *tileir.Op) (step, error) {
	name, _ := op.Attr("callee").(tileir.SymbolRefAttr)
	f := fc.c.mod.Func(string(name))
	if f == nil {
		return nil, fmt.Errorf("no function @%s", name)
	}
	callee, err := fc.c.function(f)
	if err != nil {
		return nil, err
	}
	args, res := fc.uses(op.Operands), fc.uses(op.Results)
	return func(fr *frame) error {
		cf := callee.newFrame(fr.inst)
		defer callee.release(cf)
		for i, a := range args {
			cf.v[callee.params[i]].copyFrom(&fr.v[a])
		}
		if err := callee.run(cf); err != nil {
			return err
		}
		for i, r := range res {
			fr.v[r].copyFrom(&cf.v[callee.rets[i]])
		}
		return nil
	}, nil
}
