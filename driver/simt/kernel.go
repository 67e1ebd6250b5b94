package simt

import (
	"fmt"
	"math/bits"

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
	// globals hold the kernel's initialized global variables.
	globals []*Buffer
	// localBytes is the private memory (allocas) of one thread.
	localBytes int
	// printf holds the module's printf formats by hash (ISA.BufferedPrintf), nil when
	// the kernel prints nothing.
	printf map[uint64]string
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
	// The terminator: ret, or the successors and, when there are several, sel, which
	// picks lane l's (an index into succ).
	ret      bool
	succ     []*block
	sel      func(f *frame, l int) int
	termInst ir.Terminator
	// ipdom is the immediate post-dominator, where lanes that diverged at this block's
	// branch meet again (nil: only at the return).
	ipdom *block
	// phis are the moves into this block's phi slots, by predecessor.
	phis map[*block][]move
}

// move copies the value of src into dst (a phi's incoming value).
type move struct{ dst, src operand }

// Load compiles the kernel named kernel of m (an LLVM IR module that package lower made
// for the device's ISA).
func (d *Device) Load(m *ir.Module, kernel string, opts LoadOptions) (k *Kernel, err error) {
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
	defer func() { // malformed IR must come out as an error, not a crash
		if r := recover(); r != nil {
			k, err = nil, fmt.Errorf("simt: @%s: internal error: %v", kernel, r)
		}
	}()
	k = &Kernel{d: d, isa: d.isa, name: kernel, opts: opts, lanes: opts.NumWarps * d.isa.WarpSize}
	b := &builder{k: k, slots: map[value.Value]operand{}, blocks: map[*ir.Block]*block{}, globals: map[*ir.Global]*Buffer{}}
	if err := b.function(fn); err != nil {
		return nil, fmt.Errorf("simt: @%s: %w", kernel, err)
	}
	if d.isa.BufferedPrintf {
		if k.printf, err = printfFormats(m); err != nil {
			return nil, fmt.Errorf("simt: @%s: %w", kernel, err)
		}
	}
	return k, nil
}

// builder compiles one function.
type builder struct {
	k       *Kernel
	slots   map[value.Value]operand
	blocks  map[*ir.Block]*block
	globals map[*ir.Global]*Buffer
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
		if err := b.term(cb, blk.Term); err != nil {
			return fmt.Errorf("%s: %v", blk.Term.LLString(), err)
		}
		cb.termInst = blk.Term
	}
	blocks := make([]*block, len(fn.Blocks))
	for i, blk := range fn.Blocks {
		blocks[i] = b.blocks[blk]
	}
	postDominators(blocks)
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

func (b *builder) term(cb *block, t ir.Terminator) error {
	switch t := t.(type) {
	case *ir.TermRet:
		cb.ret = true
		return nil
	case *ir.TermBr:
		to, err := b.target(t.Target)
		cb.succ = []*block{to}
		return err
	case *ir.TermCondBr:
		c, err := b.val(t.Cond)
		if err != nil {
			return err
		}
		yes, err := b.target(t.TargetTrue)
		if err != nil {
			return err
		}
		no, err := b.target(t.TargetFalse)
		if err != nil {
			return err
		}
		cb.succ = []*block{yes, no}
		cb.sel = func(f *frame, l int) int { return int(1 - f.regs[c.off+l]&1) }
		return nil
	case *ir.TermSwitch:
		x, err := b.val(t.X)
		if err != nil {
			return err
		}
		def, err := b.target(t.TargetDefault)
		if err != nil {
			return err
		}
		cb.succ = []*block{def}
		cases := map[uint64]int{}
		for _, c := range t.Cases {
			cc, ok := c.X.(constant.Constant)
			if !ok {
				return fmt.Errorf("switch case %s is not a constant", c.X.Ident())
			}
			e, err := b.constElems(cc)
			if err != nil {
				return err
			}
			to, err := b.target(c.Target)
			if err != nil {
				return err
			}
			cases[e[0]] = len(cb.succ)
			cb.succ = append(cb.succ, to)
		}
		cb.sel = func(f *frame, l int) int { return cases[f.regs[x.off+l]] }
		return nil
	}
	return fmt.Errorf("terminator %T is not supported", t)
}

// postDominators sets each block's immediate post-dominator (iteratively, on bit sets:
// pdom(b) = {b} plus the intersection of its successors' sets; a return's is {b}).
func postDominators(blocks []*block) {
	n := len(blocks)
	index := map[*block]int{}
	for i, b := range blocks {
		index[b] = i
	}
	words := (n + 63) / 64
	pd := make([][]uint64, n)
	for i := range pd {
		pd[i] = make([]uint64, words)
		for w := range pd[i] {
			pd[i][w] = ^uint64(0)
		}
	}
	tmp := make([]uint64, words)
	for changed := true; changed; {
		changed = false
		for i := n - 1; i >= 0; i-- {
			b := blocks[i]
			for w := range tmp {
				tmp[w] = 0
			}
			if len(b.succ) > 0 && !b.ret {
				for w := range tmp {
					tmp[w] = ^uint64(0)
				}
				for _, s := range b.succ {
					for w := range tmp {
						tmp[w] &= pd[index[s]][w]
					}
				}
			}
			tmp[i/64] |= 1 << (i % 64)
			for w := range tmp {
				if tmp[w] != pd[i][w] {
					copy(pd[i], tmp)
					changed = true
					break
				}
			}
		}
	}
	count := func(s []uint64) int {
		c := 0
		for _, w := range s {
			c += bits.OnesCount64(w)
		}
		return c
	}
	for i, b := range blocks {
		size := count(pd[i])
		for j := range n {
			if j != i && pd[i][j/64]>>(j%64)&1 != 0 && count(pd[j]) == size-1 {
				b.ipdom = blocks[j]
			}
		}
	}
}
