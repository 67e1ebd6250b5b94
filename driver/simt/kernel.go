package simt

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// LoadOptions is the launch metadata of a lowered kernel (lower.Metadata's launch fields).
type LoadOptions struct {
	// NumWarps gives the block size: NumWarps * the ISA's warp size threads.
	NumWarps int
	// SharedBytes is the dynamic shared memory each program gets.
	SharedBytes int
	// GlobalScratchBytes and ProfileScratchBytes are the bytes per program behind the two
	// trailing scratch pointers (zero: the pointers are null).
	GlobalScratchBytes, ProfileScratchBytes int
}

// Kernel is a kernel compiled for the interpreter: its blocks as closures over numbered
// value slots. It implements driver.Kernel.
type Kernel struct {
	d     *Device
	isa   *ISA
	name  string
	opts  LoadOptions
	lanes int // threads per program
	// regs is the number of uint64 slots a frame holds: each value has elements x lanes.
	regs   int
	consts []constSlot
	params []operand
	entry  *block
}

// operand is a value's place in a frame: element e of lane l is regs[off+e*lanes+l].
type operand struct {
	off   int
	kinds []kind
	typ   types.Type
}

func (o operand) n() int { return len(o.kinds) }

// constSlot is a constant broadcast into every lane of its slot when a frame is made.
type constSlot struct {
	o     operand
	elems []uint64
}

// op runs one instruction for all lanes of a frame.
type op func(f *frame) error

// block is a compiled basic block.
type block struct {
	name  string
	ops   []op
	insts []ir.Instruction // for error messages, parallel to ops
	// term decides the successor (nil: return) and is the block's last step.
	term     func(f *frame) (*block, error)
	termInst ir.Terminator
	// phis are the moves into this block's phi slots, by predecessor.
	phis map[*block][]move
}

// move copies the value of src into dst (a phi's incoming value).
type move struct{ dst, src operand }

// Load compiles the kernel named kernel of m (an LLVM IR module that package lower made
// for the device's ISA).
func (d *Device) Load(m *ir.Module, kernel string, opts LoadOptions) (*Kernel, error) {
	var fn *ir.Func
	for _, f := range m.Funcs {
		if f.Name() == kernel && len(f.Blocks) > 0 {
			fn = f
		}
	}
	if fn == nil {
		return nil, fmt.Errorf("simt: the module has no kernel @%s", kernel)
	}
	if opts.NumWarps <= 0 {
		opts.NumWarps = 4
	}
	if err := fn.AssignIDs(); err != nil {
		return nil, fmt.Errorf("simt: @%s: %v", kernel, err)
	}
	k := &Kernel{d: d, isa: d.isa, name: kernel, opts: opts, lanes: opts.NumWarps * d.isa.WarpSize}
	b := &builder{k: k, slots: map[value.Value]operand{}, blocks: map[*ir.Block]*block{}}
	if err := b.function(fn); err != nil {
		return nil, fmt.Errorf("simt: @%s: %w", kernel, err)
	}
	return k, nil
}

// builder compiles one function.
type builder struct {
	k      *Kernel
	slots  map[value.Value]operand
	blocks map[*ir.Block]*block
}

// alloc gives a value of type t its slots.
func (b *builder) alloc(t types.Type) (operand, error) {
	ks, err := flatten(t)
	if err != nil {
		return operand{}, err
	}
	o := operand{off: b.k.regs, kinds: ks, typ: t}
	b.k.regs += len(ks) * b.k.lanes
	return o, nil
}

func (b *builder) function(fn *ir.Func) error {
	for _, p := range fn.Params {
		o, err := b.alloc(p.Typ)
		if err != nil {
			return fmt.Errorf("parameter %s: %v", p.Ident(), err)
		}
		b.slots[p] = o
		b.k.params = append(b.k.params, o)
	}
	for _, blk := range fn.Blocks {
		b.blocks[blk] = &block{name: blk.Ident(), phis: map[*block][]move{}}
		for _, inst := range blk.Insts {
			v, ok := inst.(value.Value)
			if !ok {
				continue
			}
			if _, void := v.Type().(*types.VoidType); void {
				continue
			}
			o, err := b.alloc(v.Type())
			if err != nil {
				return fmt.Errorf("%s: %v", inst.LLString(), err)
			}
			b.slots[v] = o
		}
	}
	for _, blk := range fn.Blocks {
		cb := b.blocks[blk]
		for _, inst := range blk.Insts {
			if phi, ok := inst.(*ir.InstPhi); ok {
				if err := b.phi(phi, cb); err != nil {
					return fmt.Errorf("%s: %v", inst.LLString(), err)
				}
				continue
			}
			o, err := b.inst(inst)
			if err != nil {
				return fmt.Errorf("%s: %v", inst.LLString(), err)
			}
			if o != nil {
				cb.ops = append(cb.ops, o)
				cb.insts = append(cb.insts, inst)
			}
		}
		t, err := b.term(blk.Term)
		if err != nil {
			return fmt.Errorf("%s: %v", blk.Term.LLString(), err)
		}
		cb.term, cb.termInst = t, blk.Term
	}
	b.k.entry = b.blocks[fn.Blocks[0]]
	return nil
}

// val returns the slots of v: an instruction's result, a parameter or a constant.
func (b *builder) val(v value.Value) (operand, error) {
	if o, ok := b.slots[v]; ok {
		return o, nil
	}
	c, ok := v.(constant.Constant)
	if !ok {
		return operand{}, fmt.Errorf("operand %s is not supported", v.Ident())
	}
	elems, err := b.constElems(c)
	if err != nil {
		return operand{}, err
	}
	o, err := b.alloc(c.Type())
	if err != nil {
		return operand{}, err
	}
	if len(elems) != o.n() {
		return operand{}, fmt.Errorf("constant %s: %d elements for type %s", c.Ident(), len(elems), c.Type())
	}
	b.slots[v] = o
	b.k.consts = append(b.k.consts, constSlot{o, elems})
	return o, nil
}

func (b *builder) phi(phi *ir.InstPhi, blk *block) error {
	dst := b.slots[phi]
	for _, inc := range phi.Incs {
		pred, ok := inc.Pred.(*ir.Block)
		if !ok {
			return fmt.Errorf("incoming block %s is not a block", inc.Pred.Ident())
		}
		src, err := b.val(inc.X)
		if err != nil {
			return err
		}
		p := b.blocks[pred]
		blk.phis[p] = append(blk.phis[p], move{dst, src})
	}
	return nil
}

func (b *builder) target(v value.Value) (*block, error) {
	if blk, ok := v.(*ir.Block); ok {
		return b.blocks[blk], nil
	}
	return nil, fmt.Errorf("branch target %s is not a block", v.Ident())
}

func (b *builder) term(t ir.Terminator) (func(f *frame) (*block, error), error) {
	switch t := t.(type) {
	case *ir.TermRet:
		return func(*frame) (*block, error) { return nil, nil }, nil
	case *ir.TermBr:
		to, err := b.target(t.Target)
		if err != nil {
			return nil, err
		}
		return func(*frame) (*block, error) { return to, nil }, nil
	case *ir.TermCondBr:
		c, err := b.val(t.Cond)
		if err != nil {
			return nil, err
		}
		yes, err := b.target(t.TargetTrue)
		if err != nil {
			return nil, err
		}
		no, err := b.target(t.TargetFalse)
		if err != nil {
			return nil, err
		}
		return func(f *frame) (*block, error) {
			v, err := f.uniform(c)
			if err != nil {
				return nil, err
			}
			if v&1 != 0 {
				return yes, nil
			}
			return no, nil
		}, nil
	case *ir.TermSwitch:
		x, err := b.val(t.X)
		if err != nil {
			return nil, err
		}
		def, err := b.target(t.TargetDefault)
		if err != nil {
			return nil, err
		}
		cases := map[uint64]*block{}
		for _, c := range t.Cases {
			cc, ok := c.X.(constant.Constant)
			if !ok {
				return nil, fmt.Errorf("switch case %s is not a constant", c.X.Ident())
			}
			e, err := b.constElems(cc)
			if err != nil {
				return nil, err
			}
			if cases[e[0]], err = b.target(c.Target); err != nil {
				return nil, err
			}
		}
		return func(f *frame) (*block, error) {
			v, err := f.uniform(x)
			if err != nil {
				return nil, err
			}
			if to, ok := cases[v]; ok {
				return to, nil
			}
			return def, nil
		}, nil
	case *ir.TermUnreachable:
		return func(*frame) (*block, error) { return nil, fmt.Errorf("reached unreachable") }, nil
	}
	return nil, fmt.Errorf("terminator %T is not supported", t)
}
