package simt

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
)

// maxAsmSteps bounds the statements one inline asm call may run (its own loops, such as
// an mbarrier wait, always end in the simulator).
const maxAsmSteps = 1 << 16

// asmCtx is a compiled inline asm call: the parsed template and where each of its
// registers lives in a frame.
type asmCtx struct {
	prog  *pProgram
	offs  []int // frame offset of each register's lanes
	outs  int   // the asm's outputs: its first registers
	lanes int
	warp  int
	d     *Device
}

func (c *asmCtx) get(f *frame, r, l int) uint64 { return f.regs[c.offs[r]+l] }

func (c *asmCtx) set(f *frame, r, l int, v uint64) {
	f.regs[c.offs[r]+l] = v & mask(c.prog.regs[r])
}

// value reads a register or immediate operand.
func (c *asmCtx) value(f *frame, a pArg, l int) uint64 {
	if a.kind == pImm {
		return uint64(a.imm)
	}
	return c.get(f, a.reg, l)
}

// regsOf lists the registers of a vector operand (or of a single register).
func regsOf(a pArg) []pArg {
	if a.kind == pVec {
		return a.elems
	}
	return []pArg{a}
}

// constraintBits is the width of an NVPTX inline asm constraint's register.
var constraintBits = map[byte]int{'b': 1, 'c': 8, 'h': 16, 'r': 32, 'f': 32, 'l': 64, 'd': 64}

// nvAsm compiles a call of inline PTX: each statement runs for all lanes of the program
// (warp-wide instructions, mma.sync and ldmatrix, warp by warp). An input constraint "N"
// ties the input to output N (one register, holding the input when the asm starts);
// clobbers ("~{memory}") are ignored.
func nvAsm(s *site, asm *ir.InlineAsm) (op, error) {
	var cons []string
	if asm.Constraint != "" {
		cons = strings.Split(asm.Constraint, ",")
	}
	cons = slices.DeleteFunc(cons, func(c string) bool { return strings.HasPrefix(c, "~") }) // clobbers
	k := s.b.k
	var offs, widths []int
	// A vector operand or result of narrow elements (Triton's packed inline asm: four i8
	// in one "r") is one register: packed from its elements before the asm runs, and
	// unpacked into them after.
	var packIn, packOut []packedReg
	vector := func(elems []int, elemBits int, c string) {
		tmp := k.regs
		k.regs += k.lanes
		offs = append(offs, tmp)
		widths = append(widths, constraintBits[strings.TrimPrefix(c, "=")[0]])
		pr := packedReg{tmp: tmp, elems: elems, bits: elemBits}
		if strings.HasPrefix(c, "=") {
			packOut = append(packOut, pr)
		} else {
			packIn = append(packIn, pr)
		}
	}
	fields := []types.Type{s.dst.typ}
	if st, ok := s.dst.typ.(*types.StructType); ok {
		fields = st.Fields
	}
	out, leaf := 0, 0
	for _, c := range cons {
		if !strings.HasPrefix(c, "=") {
			continue
		}
		if out >= len(fields) || leaf >= s.dst.n() || len(c) != 2 || constraintBits[c[1]] == 0 {
			return nil, fmt.Errorf("inline asm output %q does not match its result %s", c, s.dst.typ)
		}
		n := 1
		if vt, ok := fields[out].(*types.VectorType); ok {
			n = int(vt.Len)
		}
		if n == 1 {
			offs = append(offs, s.dst.off+leaf*k.lanes)
			widths = append(widths, s.dst.kinds[leaf].bits())
		} else {
			elems := make([]int, n)
			for e := range elems {
				elems[e] = s.dst.off + (leaf+e)*k.lanes
			}
			vector(elems, s.dst.kinds[leaf].bits(), c)
		}
		out++
		leaf += n
	}
	for i, c := range cons[out:] {
		if o, err := strconv.Atoi(c); err == nil && o < out && i < len(s.args) {
			// tied to output o: the same register, which holds the input when the asm starts
			a := s.args[i]
			elems := make([]int, a.n())
			for e := range elems {
				elems[e] = a.off + e*k.lanes
			}
			bits := widths[o]
			if a.n() > 1 {
				bits = a.kinds[0].bits()
			}
			packIn = append(packIn, packedReg{tmp: offs[o], elems: elems, bits: bits})
			offs = append(offs, offs[o])
			widths = append(widths, widths[o])
			continue
		}
		if len(c) != 1 || constraintBits[c[0]] == 0 || i >= len(s.args) {
			return nil, fmt.Errorf("inline asm constraint %q is not supported", c)
		}
		if a := s.args[i]; a.n() > 1 {
			elems := make([]int, a.n())
			for e := range elems {
				elems[e] = a.off + e*k.lanes
			}
			vector(elems, a.kinds[0].bits(), c)
			continue
		}
		offs = append(offs, s.args[i].off)
		widths = append(widths, constraintBits[c[0]])
	}
	prog, err := parsePTX(asm.Asm, widths)
	if err != nil {
		return nil, err
	}
	for range prog.regs[len(offs):] { // declared registers get frame slots too
		offs = append(offs, k.regs)
		k.regs += k.lanes
	}
	c := &asmCtx{prog: prog, offs: offs, outs: out, lanes: k.lanes, warp: k.isa.WarpSize, d: k.d}
	steps := make([]asmStep, len(prog.stmts))
	for i, st := range prog.stmts {
		if steps[i], err = c.compile(st); err != nil {
			return nil, fmt.Errorf("PTX %q: %v", st.text, err)
		}
	}
	return func(f *frame) error {
		for _, p := range packIn {
			p.pack(f, k.lanes)
		}
		defer func() {
			for _, p := range packOut {
				p.unpack(f, k.lanes)
			}
		}()
		for pc, n := 0, 0; pc < len(steps); n++ {
			if n == maxAsmSteps {
				return fmt.Errorf("inline asm ran %d statements", n)
			}
			st := &prog.stmts[pc]
			next, err := steps[pc](f, st)
			if err != nil {
				return fmt.Errorf("PTX %q: %w", st.text, err)
			}
			if next < 0 {
				next = pc + 1
			}
			pc = next
		}
		return nil
	}, nil
}

// packedReg is an inline asm register (frame offset tmp) that holds the elements at
// frame offsets elems, bits each, the first in the low bits (in the enabled lanes).
type packedReg struct {
	tmp   int
	elems []int
	bits  int
}

func (p packedReg) pack(f *frame, lanes int) {
	for l := range lanes {
		if !f.on(l) {
			continue
		}
		v := uint64(0)
		for e, off := range p.elems {
			v |= (f.regs[off+l] & mask(p.bits)) << (e * p.bits)
		}
		f.regs[p.tmp+l] = v
	}
}

func (p packedReg) unpack(f *frame, lanes int) {
	for l := range lanes {
		if !f.on(l) {
			continue
		}
		for e, off := range p.elems {
			f.regs[off+l] = f.regs[p.tmp+l] >> (e * p.bits) & mask(p.bits)
		}
	}
}

// asmStep runs one statement for all lanes; it returns the next statement's index, or -1
// for the following one.
type asmStep func(f *frame, st *pStmt) (int, error)

// on reports whether a statement's guard lets lane l run it.
func (c *asmCtx) on(f *frame, st *pStmt, l int) bool {
	if st.guard < 0 {
		return true
	}
	return (c.get(f, st.guard, l)&1 != 0) != st.negGuard
}

// perLane makes a step that runs fn in every lane its guard enables.
func (c *asmCtx) perLane(fn func(f *frame, l int) error) asmStep {
	return func(f *frame, st *pStmt) (int, error) {
		for l := range c.lanes {
			if f.on(l) && c.on(f, st, l) {
				if err := fn(f, l); err != nil {
					return 0, laneErr(f, l, err)
				}
			}
		}
		return -1, nil
	}
}

// perWarp makes a step for a warp-wide instruction: every lane must take part.
func (c *asmCtx) perWarp(fn func(f *frame, base int) error) asmStep {
	return func(f *frame, st *pStmt) (int, error) {
		if err := f.converged("a warp-wide instruction"); err != nil {
			return 0, err
		}
		for l := range c.lanes {
			if !c.on(f, st, l) {
				return 0, laneErr(f, l, fmt.Errorf("a warp-wide instruction with lane %d disabled", l%c.warp))
			}
		}
		for base := 0; base < c.lanes; base += c.warp {
			if err := fn(f, base); err != nil {
				return 0, err
			}
		}
		return -1, nil
	}
}

// warpAligned makes a step for a .sync.aligned instruction: fn runs in every lane its guard
// enables, which must be whole warps.
func (c *asmCtx) warpAligned(fn func(f *frame, l int) error) asmStep {
	each := c.perLane(fn)
	return func(f *frame, st *pStmt) (int, error) {
		for base := 0; base < c.lanes; base += c.warp {
			n := 0
			for l := base; l < base+c.warp; l++ {
				if f.on(l) && c.on(f, st, l) {
					n++
				}
			}
			if n != 0 && n != c.warp {
				return 0, fmt.Errorf("a warp-collective instruction run by %d of warp %d's %d lanes", n, base/c.warp, c.warp)
			}
		}
		return each(f, st)
	}
}

func nop(*frame, int) error { return nil }

func (c *asmCtx) compile(st pStmt) (asmStep, error) {
	op, q := st.opcode[0], st.opcode[1:]
	has := func(s string) bool { return slices.Contains(q, s) }
	switch op {
	case "mov":
		if len(st.args) != 2 {
			return nil, fmt.Errorf("operands")
		}
		d, a := st.args[0], st.args[1]
		switch {
		case d.kind == pVec: // mov.b32 {lo, …, hi}, x: x's bits split, the first lowest
			return c.perLane(func(f *frame, l int) error {
				v, at := c.value(f, a, l), 0
				for _, e := range d.elems {
					c.set(f, e.reg, l, v>>at)
					at += c.prog.regs[e.reg]
				}
				return nil
			}), nil
		case d.kind == pReg && a.kind == pVec: // mov.b32 x, {lo, …, hi}
			return c.perLane(func(f *frame, l int) error {
				v, at := uint64(0), 0
				for _, e := range a.elems {
					v |= c.value(f, e, l) & mask(c.prog.regs[e.reg]) << at
					at += c.prog.regs[e.reg]
				}
				c.set(f, d.reg, l, v)
				return nil
			}), nil
		case d.kind != pReg:
			return nil, fmt.Errorf("operands")
		}
		return c.perLane(func(f *frame, l int) error { c.set(f, d.reg, l, c.value(f, a, l)); return nil }), nil
	case "max", "min":
		return c.minMax(st)
	case "setp":
		return c.setp(st)
	case "ld", "st":
		return c.ldst(st, op == "st")
	case "createpolicy":
		return c.createPolicy(st)
	case "atom", "red":
		return c.atom(st, op == "red")
	case "cvt":
		return c.cvt(st)
	case "mma":
		return c.mma(st)
	case "wgmma":
		return c.wgmma(st)
	case "ldmatrix":
		return c.ldmatrix(st)
	case "bra":
		target := c.prog.labels[st.args[0].name]
		return func(f *frame, st *pStmt) (int, error) {
			n, enabled := 0, 0
			for l := range c.lanes {
				if f.on(l) {
					enabled++
					if c.on(f, st, l) {
						n++
					}
				}
			}
			switch n {
			case 0:
				return -1, nil
			case enabled:
				return target, nil
			}
			return 0, fmt.Errorf("divergent branch inside inline asm")
		}, nil
	case "add", "and", "or", "xor", "shl", "shr":
		return c.bitOp(st)
	case "fence", "griddepcontrol":
		return c.perLane(nop), nil
	case "bar":
		if len(q) == 2 && q[0] == "warp" && q[1] == "sync" {
			return c.perLane(nop), nil // the lanes of a warp run in lockstep
		}
	case "tensormap":
		switch {
		case has("replace"):
			return c.tensorMapReplace(st)
		case has("cp_fenceproxy"):
			return c.tensorMapCopy(st)
		}
	case "mbarrier":
		return c.mbarrier(st)
	case "cp":
		switch {
		case len(q) >= 3 && q[0] == "async" && q[1] == "bulk" && q[2] == "tensor":
			return c.tensorCopy(st)
		case len(q) >= 3 && q[0] == "async" && q[1] == "bulk" && (q[2] == "commit_group" || q[2] == "wait_group"):
			return c.perLane(nop), nil
		case len(q) >= 2 && q[0] == "async" && q[1] == "commit_group" && len(st.args) == 0:
			return c.perLane(func(f *frame, l int) error { f.cpQueue(l).commit(); return nil }), nil
		case len(q) >= 2 && q[0] == "async" && (q[1] == "wait_group" && len(st.args) == 1 && st.args[0].kind == pImm || q[1] == "wait_all" && len(st.args) == 0):
			all, keep := q[1] == "wait_all", 0 // wait_all: every copy, committed or not
			if !all {
				keep = int(st.args[0].imm)
			}
			return c.perLane(func(f *frame, l int) error {
				cq := f.cpQueue(l)
				if all {
					cq.commit()
				}
				return cq.complete(keep)
			}), nil
		case len(q) >= 2 && q[0] == "async" && (has("ca") || has("cg")):
			return c.cpAsync(st)
		}
	}
	return nil, fmt.Errorf("instruction %s is not supported", strings.Join(st.opcode, "."))
}

// bitOp runs add (.uN, .sN), and, or, xor (.bN, .pred aside) and shl, shr (.bN, .uN, .sN)
// on registers and immediates; shifts (by a .u32 amount) of the width or more give 0 (or
// the sign for shr.sN), as in PTX.
func (c *asmCtx) bitOp(st pStmt) (asmStep, error) {
	if len(st.opcode) != 2 || len(st.args) != 3 || st.args[0].kind != pReg {
		return nil, fmt.Errorf("operands")
	}
	w, err := typeBits(st.opcode[1])
	if err != nil {
		return nil, err
	}
	signed := st.opcode[1][0] == 's'
	fn := map[string]func(a, b uint64) uint64{
		"add": func(a, b uint64) uint64 { return a + b },
		"and": func(a, b uint64) uint64 { return a & b },
		"or":  func(a, b uint64) uint64 { return a | b },
		"xor": func(a, b uint64) uint64 { return a ^ b },
		"shl": func(a, b uint64) uint64 {
			if b >= uint64(w) {
				return 0
			}
			return a << b
		},
		"shr": func(a, b uint64) uint64 {
			n := min(b, uint64(w))
			if signed {
				return uint64(sext(a, w) >> n)
			}
			if n == uint64(w) {
				return 0
			}
			return (a & mask(w)) >> n
		},
	}[st.opcode[0]]
	ym := mask(w)
	if op := st.opcode[0]; op == "shl" || op == "shr" {
		ym = mask(32)
	}
	d, x, y := st.args[0].reg, st.args[1], st.args[2]
	return c.perLane(func(f *frame, l int) error {
		c.set(f, d, l, fn(c.value(f, x, l)&mask(w), c.value(f, y, l)&ym)&mask(w))
		return nil
	}), nil
}

// typeBits is the width of a PTX type suffix such as b32 or f16.
func typeBits(t string) (int, error) {
	if len(t) < 2 {
		return 0, fmt.Errorf("type .%s", t)
	}
	n, err := strconv.Atoi(t[1:])
	if err != nil || !strings.ContainsRune("busf", rune(t[0])) {
		return 0, fmt.Errorf("type .%s", t)
	}
	return n, nil
}

func (c *asmCtx) setp(st pStmt) (asmStep, error) {
	if len(st.opcode) != 3 || len(st.args) != 3 || st.args[0].kind != pReg {
		return nil, fmt.Errorf("setp form")
	}
	w, err := typeBits(st.opcode[2])
	if err != nil {
		return nil, err
	}
	signed := st.opcode[2][0] == 's'
	var cmp func(x, y int64) bool
	switch st.opcode[1] {
	case "eq":
		cmp = func(x, y int64) bool { return x == y }
	case "ne":
		cmp = func(x, y int64) bool { return x != y }
	case "lt":
		cmp = func(x, y int64) bool { return x < y }
	case "le":
		cmp = func(x, y int64) bool { return x <= y }
	case "gt":
		cmp = func(x, y int64) bool { return x > y }
	case "ge":
		cmp = func(x, y int64) bool { return x >= y }
	default:
		return nil, fmt.Errorf("setp comparison %s", st.opcode[1])
	}
	d, a, b := st.args[0].reg, st.args[1], st.args[2]
	conv := func(v uint64) int64 {
		if signed {
			return sext(v, w)
		}
		return int64(v & mask(w)) // unsigned widths below 64 compare as non-negative
	}
	return c.perLane(func(f *frame, l int) error {
		v := uint64(0)
		if cmp(conv(c.value(f, a, l)), conv(c.value(f, b, l))) {
			v = 1
		}
		c.set(f, d, l, v)
		return nil
	}), nil
}

// space is the address space a memory instruction's qualifiers name.
func (c *asmCtx) space(q []string) int {
	isa := c.d.isa
	for _, s := range q {
		if strings.HasPrefix(s, "shared") {
			return isa.Shared
		}
	}
	return 1
}

func vecLen(q []string) int {
	for _, s := range q {
		if len(s) == 2 && s[0] == 'v' && s[1] >= '2' && s[1] <= '8' {
			return int(s[1] - '0')
		}
	}
	return 1
}

func (c *asmCtx) ldst(st pStmt, store bool) (asmStep, error) {
	q := st.opcode[1:]
	w, err := typeBits(q[len(q)-1])
	if err != nil {
		return nil, err
	}
	switch {
	case len(st.args) == 3 && slices.Contains(q, "L2::cache_hint") && st.args[2].kind == pReg:
		// the cache policy only steers the caches
	case len(st.args) != 2:
		return nil, fmt.Errorf("operands")
	}
	memArg, regArg := st.args[1], st.args[0]
	if store {
		memArg, regArg = st.args[0], st.args[1]
	}
	if memArg.kind != pMem {
		return nil, fmt.Errorf("address operand")
	}
	regs := regsOf(regArg)
	if n := vecLen(q); n != len(regs) {
		return nil, fmt.Errorf("%d registers for a .v%d access", len(regs), n)
	}
	size := w / 8
	total := size * len(regs)
	if total > 64 {
		return nil, fmt.Errorf("access of %d bytes", total)
	}
	space := c.space(q)
	return c.perLane(func(f *frame, l int) error {
		addr := c.get(f, memArg.base, l) + uint64(memArg.imm)
		if store {
			var buf [64]byte
			data := buf[:total]
			for i, r := range regs {
				writeLE(data[i*size:(i+1)*size], c.value(f, r, l))
			}
			return f.store(space, addr, data, total, l)
		}
		mem, err := f.mem(space, addr, total, total, l, read)
		if err != nil {
			return err
		}
		for i, r := range regs {
			c.set(f, r.reg, l, readLE(mem[i*size:(i+1)*size]))
		}
		return nil
	}), nil
}

// createPolicy runs createpolicy.fractional.L2::<priority>.b64 d, fraction: the policy is
// opaque to everything but the caches (ld and st with .L2::cache_hint), so d gets the
// fraction's bits.
func (c *asmCtx) createPolicy(st pStmt) (asmStep, error) {
	q := st.opcode[1:]
	if len(q) != 3 || q[0] != "fractional" || q[2] != "b64" ||
		!slices.Contains([]string{"L2::evict_last", "L2::evict_normal", "L2::evict_first", "L2::evict_unchanged"}, q[1]) {
		return nil, fmt.Errorf("form")
	}
	if len(st.args) != 2 || st.args[0].kind != pReg || st.args[1].kind != pImm {
		return nil, fmt.Errorf("operands")
	}
	if f := math.Float64frombits(uint64(st.args[1].imm)); !(f > 0 && f <= 1) {
		return nil, fmt.Errorf("fraction %v outside (0, 1]", f)
	}
	d, frac := st.args[0].reg, uint64(st.args[1].imm)
	return c.perLane(func(f *frame, l int) error { c.set(f, d, l, frac); return nil }), nil
}

// atom runs atom (with a result) and red (without) on global memory, under the device's
// atomic lock.
func (c *asmCtx) atom(st pStmt, red bool) (asmStep, error) {
	q := st.opcode[1:]
	ts := q[len(q)-1]
	w, err := typeBits(ts)
	if err != nil {
		return nil, err
	}
	var opName string
	for _, s := range q {
		switch s {
		case "add", "exch", "cas", "max", "min", "and", "or", "xor", "inc", "dec":
			opName = s
		}
	}
	if opName == "" {
		return nil, fmt.Errorf("atomic operation")
	}
	args := st.args
	dst := -1
	if !red {
		if args[0].kind != pReg {
			return nil, fmt.Errorf("result operand")
		}
		dst, args = args[0].reg, args[1:]
	}
	if len(args) < 2 || args[0].kind != pMem || (opName == "cas") != (len(args) == 3) {
		return nil, fmt.Errorf("operands")
	}
	fk := map[string]kind{"f16": kF16, "bf16": kBF16, "f32": kF32, "f64": kF64}[ts]
	isFloat := ts[0] == 'f' || ts == "bf16"
	signed := ts[0] == 's'
	size := w / 8
	space := c.space(q)
	return c.perLane(func(f *frame, l int) error {
		addr := c.get(f, args[0].base, l) + uint64(args[0].imm)
		c.d.atomic.Lock()
		defer c.d.atomic.Unlock()
		mem, err := f.mem(space, addr, size, size, l, untracked)
		if err != nil {
			return err
		}
		old := readLE(mem)
		b := c.value(f, args[1], l) & mask(w)
		var nv uint64
		switch opName {
		case "exch":
			nv = b
		case "cas":
			nv = old
			if old == b {
				nv = c.value(f, args[2], l)
			}
		case "add":
			if isFloat {
				nv = fromFloat(fk, toFloat(fk, old)+toFloat(fk, b))
			} else {
				nv = old + b
			}
		case "max", "min":
			less := old < b
			if signed {
				less = sext(old, w) < sext(b, w)
			}
			if less == (opName == "max") {
				nv = b
			} else {
				nv = old
			}
		case "and":
			nv = old & b
		case "or":
			nv = old | b
		case "xor":
			nv = old ^ b
		case "inc":
			nv = old + 1
			if old >= b {
				nv = 0
			}
		case "dec":
			nv = old - 1
			if old == 0 || old > b {
				nv = b
			}
		}
		writeLE(mem, nv&mask(w))
		if dst >= 0 {
			c.set(f, dst, l, old)
		}
		return nil
	}), nil
}

// cvt handles the packed conversions lower writes: fp8x2 to f16x2, and two f32 to a
// packed pair (fp8x2, f16x2, bf16x2), the first source in the high half.
func (c *asmCtx) cvt(st pStmt) (asmStep, error) {
	q := st.opcode[1:]
	formats := map[string]minifloat{"e4m3x2": e4m3, "e5m2x2": e5m2, "f16x2": half, "bf16x2": bf16}
	sat := slices.Contains(q, "satfinite")
	last, prev := q[len(q)-1], q[len(q)-2]
	switch to, ok := formats[prev]; {
	case ok && last == "f32" && len(st.args) == 3: // cvt.rn[.satfinite].<x2>.f32 d, hi, lo
		d, hi, lo := st.args[0].reg, st.args[1], st.args[2]
		w := to.bits()
		return c.perLane(func(f *frame, l int) error {
			h := to.encode(toFloat(kF32, c.value(f, hi, l)), sat)
			o := to.encode(toFloat(kF32, c.value(f, lo, l)), sat)
			c.set(f, d, l, h<<w|o)
			return nil
		}), nil
	case ok && len(st.args) == 2: // cvt.rn.f16x2.e4m3x2 d, a: two narrow floats widened
		from, ok := formats[last]
		if !ok {
			break
		}
		d, a := st.args[0].reg, st.args[1]
		fw, tw := from.bits(), to.bits()
		return c.perLane(func(f *frame, l int) error {
			v := c.value(f, a, l)
			lo := to.encode(from.decode(v&mask(fw)), false)
			hi := to.encode(from.decode(v>>fw&mask(fw)), false)
			c.set(f, d, l, hi<<tw|lo)
			return nil
		}), nil
	}
	if len(st.args) == 2 && st.args[0].kind == pReg {
		if conv := scalarConversion(prev, last); conv != nil { // cvt[.rn].to.from d, a
			d, a := st.args[0].reg, st.args[1]
			return c.perLane(func(f *frame, l int) error { c.set(f, d, l, conv(c.value(f, a, l))); return nil }), nil
		}
	}
	return nil, fmt.Errorf("conversion %s is not supported", strings.Join(st.opcode, "."))
}

// scalarConversion converts bits of PTX type from to bits of type to, for integers of
// either signedness (extended or truncated) and integers to f32 or f64 (rounded to
// nearest); nil for other pairs.
func scalarConversion(to, from string) func(uint64) uint64 {
	fw, err1 := typeBits(from)
	tw, err2 := typeBits(to)
	if err1 != nil || err2 != nil || from[0] == 'f' {
		return nil
	}
	value := func(v uint64) int64 {
		if from[0] == 's' {
			return sext(v, fw)
		}
		return int64(v & mask(fw))
	}
	switch to[0] {
	case 'u', 's', 'b':
		return func(v uint64) uint64 { return uint64(value(v)) & mask(tw) }
	case 'f':
		k := map[int]kind{32: kF32, 64: kF64}[tw]
		if k == 0 {
			return nil
		}
		if from[0] == 'u' && fw == 64 {
			return func(v uint64) uint64 { return fromFloat(k, float64(v)) }
		}
		return func(v uint64) uint64 { return fromFloat(k, float64(value(v))) }
	}
	return nil
}

// minMax runs max and min on .f32/.f64 (a NaN operand gives the other one, as PTX's do)
// and on .sN/.uN integers.
func (c *asmCtx) minMax(st pStmt) (asmStep, error) {
	if len(st.opcode) != 2 || len(st.args) != 3 || st.args[0].kind != pReg {
		return nil, fmt.Errorf("operands")
	}
	ts := st.opcode[1]
	w, err := typeBits(ts)
	if err != nil {
		return nil, err
	}
	isMax := st.opcode[0] == "max"
	var pick func(a, b uint64) uint64
	switch ts[0] {
	case 'f':
		k := map[int]kind{32: kF32, 64: kF64}[w]
		if k == 0 {
			return nil, fmt.Errorf("type .%s", ts)
		}
		pick = func(a, b uint64) uint64 {
			x, y := toFloat(k, a), toFloat(k, b)
			switch {
			case math.IsNaN(x):
				return b
			case math.IsNaN(y) || (x > y) == isMax:
				return a
			}
			return b
		}
	case 's', 'u':
		pick = func(a, b uint64) uint64 {
			less := a&mask(w) < b&mask(w)
			if ts[0] == 's' {
				less = sext(a, w) < sext(b, w)
			}
			if less == isMax {
				return b
			}
			return a
		}
	default:
		return nil, fmt.Errorf("type .%s", ts)
	}
	d, x, y := st.args[0].reg, st.args[1], st.args[2]
	return c.perLane(func(f *frame, l int) error { c.set(f, d, l, pick(c.value(f, x, l), c.value(f, y, l))); return nil }), nil
}

func (c *asmCtx) mbarrier(st pStmt) (asmStep, error) {
	q := st.opcode[1:]
	var memArg pArg
	var dst = -1
	switch q[0] {
	case "init", "inval":
		memArg = st.args[0]
	case "arrive", "try_wait", "test_wait", "wait":
		memArg = st.args[1]
		dst = st.args[0].reg
	default:
		return nil, fmt.Errorf("mbarrier.%s is not supported", q[0])
	}
	if memArg.kind != pMem {
		return nil, fmt.Errorf("address operand")
	}
	wait := q[0] != "init" && q[0] != "inval" && q[0] != "arrive"
	space := c.space(q)
	// A wait succeeds at once: the TMA loads that complete on the barrier land in shared
	// memory then (landTMA), so every phase has completed by the time a thread waits.
	// The barrier's bytes are checked all the same.
	return c.perLane(func(f *frame, l int) error {
		addr := c.get(f, memArg.base, l) + uint64(memArg.imm)
		if _, err := f.mem(space, addr, 8, 8, l, untracked); err != nil {
			return err
		}
		if wait {
			if err := f.landTMA(addr); err != nil {
				return err
			}
		}
		if dst >= 0 {
			v := uint64(0)
			if wait {
				v = 1
			}
			c.set(f, dst, l, v)
		}
		return nil
	}), nil
}

// tensorCopy runs a TMA copy between global memory (through a TensorMap) and shared
// memory: a load fills the box, zeros (NaNs with the map's NaN fill) where it leaves the
// tensor, when a thread waits on its mbarrier (all-ones bytes until then); a store writes
// the part of the box inside the tensor at once. The box lies row-major
// (innermost dimension fastest) from the shared address, each 16-byte chunk moved by the
// map's swizzle, if any (which needs a 128-byte-aligned shared address).
func (c *asmCtx) tensorCopy(st pStmt) (asmStep, error) {
	if len(st.args) < 2 || st.args[0].kind != pMem || st.args[1].kind != pMem {
		return nil, fmt.Errorf("operands")
	}
	store := len(st.args[0].elems) > 0
	mapArg, smemArg := st.args[1], st.args[0]
	if store {
		mapArg, smemArg = st.args[0], st.args[1]
	}
	shared := c.d.isa.Shared
	var bar *pArg // a load's mbarrier: its data lands when a thread waits on it
	if !store {
		if len(st.args) != 3 || st.args[2].kind != pMem {
			return nil, fmt.Errorf("a TMA load needs its mbarrier operand")
		}
		bar = &st.args[2]
	}
	return c.perLane(func(f *frame, l int) error {
		m, err := c.d.decodeTensorMap(c.get(f, mapArg.base, l))
		if err != nil {
			return err
		}
		if len(mapArg.elems) != len(m.Dims) {
			return fmt.Errorf("%d coordinates for a rank-%d tensor map", len(mapArg.elems), len(m.Dims))
		}
		coord := make([]int64, len(m.Dims))
		for i, a := range mapArg.elems {
			coord[i] = sext(c.value(f, a, l), 32)
		}
		boxElems := int64(1)
		for _, b := range m.Box {
			boxElems *= b
		}
		es := int64(m.elem().size)
		fill := uint64(0)
		if m.NaNFill {
			fill = m.elem().nan
		}
		acc := asyncWrite
		if store {
			acc = untracked
		}
		base := c.get(f, smemArg.base, l) + uint64(smemArg.imm)
		if m.Swizzle != 0 && base%128 != 0 {
			return fmt.Errorf("a copy with a %d-byte swizzle at shared address %#x, which is not 128-byte aligned", m.Swizzle, base)
		}
		// The box's shared memory in row-major order: in the 16-byte chunks that the
		// swizzle moves, or in one piece without one.
		piece := boxElems * es
		if m.Swizzle != 0 {
			piece = 16
		}
		pieces := make([][]byte, boxElems*es/piece)
		for i := range pieces {
			if pieces[i], err = f.mem(shared, swizzle(base+uint64(int64(i)*piece), m.Swizzle), int(piece), 16, l, acc); err != nil {
				return err
			}
		}
		move := func() error {
			idx := make([]int64, len(m.Dims))
			for e := range boxElems {
				rem, inside, off := e, true, int64(0)
				for i := range idx {
					idx[i] = rem % m.Box[i]
					rem /= m.Box[i]
					g := coord[i] + idx[i]
					inside = inside && g >= 0 && g < m.Dims[i]
					stride := es
					if i > 0 {
						stride = m.Strides[i-1]
					}
					off += g * stride
				}
				s := pieces[e*es/piece][e*es%piece:][:es]
				if !inside {
					if !store {
						writeLE(s, fill)
					}
					continue
				}
				g, err := c.d.resolve(m.Addr+uint64(off), int(es))
				if err != nil {
					return err
				}
				if store {
					copy(g, s)
				} else {
					copy(s, g)
				}
			}
			return nil
		}
		if store {
			return move()
		}
		// A load's box holds all-ones bytes (NaN) from now (the earliest the hardware
		// may write it) until a thread waits on its mbarrier (the latest).
		for _, p := range pieces {
			for i := range p {
				p[i] = 0xFF
			}
		}
		f.landOnWait(c.get(f, bar.base, l)+uint64(bar.imm), move)
		return nil
	}), nil
}

// landOnWait defers a TMA load's move into shared memory until a thread waits on its
// mbarrier at address bar (landTMA).
func (f *frame) landOnWait(bar uint64, move func() error) {
	if f.tma == nil {
		f.tma = map[uint64][]func() error{}
	}
	f.tma[bar] = append(f.tma[bar], move)
}

// landTMA moves the data of the TMA loads that complete on the mbarrier at bar.
func (f *frame) landTMA(bar uint64) error {
	moves := f.tma[bar]
	delete(f.tma, bar)
	for _, move := range moves {
		if err := move(); err != nil {
			return err
		}
	}
	return nil
}

// mapField is a tensor map field that tensormap.replace.tile.<field> sets: size bytes at
// off (0 bytes: a value that is only checked), one per dimension when dims > 0 (from off,
// innermost first); typ is the instruction's type and lo to hi the values it takes
// (described by takes).
type mapField struct {
	off, size, dims int
	typ             string
	lo, hi          uint64
	takes           string
}

// tensorMapFields are the fields by name; element strides and the interleave are the
// simulator's only ones (1 and none).
var tensorMapFields = map[string]mapField{
	"global_address":    {off: tmAddr, size: 8, typ: "b64", hi: math.MaxUint64},
	"rank":              {off: tmRank, size: 4, typ: "b32", hi: 4, takes: "0 to 4 (ranks 1 to 5)"},
	"box_dim":           {off: tmBox, size: 4, dims: 5, typ: "b32", hi: math.MaxUint32},
	"global_dim":        {off: tmDims, size: 8, dims: 5, typ: "b32", hi: math.MaxUint32},
	"global_stride":     {off: tmStrides, size: 8, dims: 4, typ: "b64", hi: math.MaxUint64},
	"element_stride":    {dims: 5, typ: "b32", lo: 1, hi: 1, takes: "1"},
	"elemtype":          {off: tmType, size: 4, typ: "b32", hi: uint64(len(elemTypes) - 1), takes: "0 to 12"},
	"interleave_layout": {typ: "b32", takes: "0 (none)"},
	"swizzle_mode":      {off: tmSwizzle, size: 4, typ: "b32", hi: 3, takes: "0 to 3 (none, 32, 64 or 128 bytes)"},
	"fill_mode":         {off: tmFill, size: 4, typ: "b32", hi: 1, takes: "0 (zeros) or 1 (NaN)"},
}

// tensorMapReplace runs tensormap.replace.tile.<field>.<space>.b1024.<type> [map], [ord,]
// value: it sets one field of the 128-byte map at a shared::cta or global address (see
// TensorMap's encoding). ord, an immediate, is the dimension (innermost first; for global
// strides, that of the dimension after it); a global stride is in bytes (as the CUDA 13
// driver takes it from PTX 8.4; Triton gives the ptxas of PTX 8.5 and earlier releases
// the byte stride over 16), and the rank is the rank less 1.
func (c *asmCtx) tensorMapReplace(st pStmt) (asmStep, error) {
	q := st.opcode[1:]
	if len(q) != 6 || q[0] != "replace" || q[1] != "tile" || q[4] != "b1024" {
		return nil, fmt.Errorf("form")
	}
	name := q[2]
	fd, ok := tensorMapFields[name]
	switch {
	case !ok:
		return nil, fmt.Errorf("tensor map field %s is not supported", name)
	case q[5] != fd.typ:
		return nil, fmt.Errorf("a .%s value for field %s (.%s)", q[5], name, fd.typ)
	}
	args := st.args
	if len(args) == 0 || args[0].kind != pMem {
		return nil, fmt.Errorf("operands")
	}
	off := fd.off
	if fd.dims > 0 {
		if len(args) != 3 || args[1].kind != pImm || args[1].imm < 0 || args[1].imm >= int64(fd.dims) {
			return nil, fmt.Errorf("operands (an immediate dimension of 0 to %d, then the value)", fd.dims-1)
		}
		off += fd.size * int(args[1].imm)
		args = append(args[:1:1], args[2])
	}
	if len(args) != 2 {
		return nil, fmt.Errorf("operands")
	}
	space, at, val := c.space(q), args[0], args[1]
	w, _ := typeBits(fd.typ)
	return c.perLane(func(f *frame, l int) error {
		addr := c.get(f, at.base, l) + uint64(at.imm)
		if _, err := f.mem(space, addr, tensorMapBytes, tensorMapBytes, l, untracked); err != nil {
			return err
		}
		v := c.value(f, val, l) & mask(w)
		if v < fd.lo || v > fd.hi {
			return fmt.Errorf("tensor map %s %d (the simulator takes %s)", name, v, fd.takes)
		}
		if fd.size == 0 {
			return nil
		}
		var data [8]byte
		writeLE(data[:fd.size], v)
		return f.store(space, addr+uint64(off), data[:fd.size], fd.size, l)
	}), nil
}

// tensorMapCopy runs tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.
// <scope>.sync.aligned [global], [shared], 128: each lane of the warps that run it copies the
// 128-byte map (the same one: the copies agree) from shared to global memory.
func (c *asmCtx) tensorMapCopy(st pStmt) (asmStep, error) {
	q := st.opcode[1:]
	if len(q) != 8 || q[0] != "cp_fenceproxy" || q[1] != "global" || q[2] != "shared::cta" || q[3] != "tensormap::generic" || q[4] != "release" || q[6] != "sync" || q[7] != "aligned" {
		return nil, fmt.Errorf("form")
	}
	if len(st.args) != 3 || st.args[0].kind != pMem || st.args[1].kind != pMem || st.args[2].kind != pImm || st.args[2].imm != tensorMapBytes {
		return nil, fmt.Errorf("operands ([global], [shared], 128)")
	}
	dst, src, shared := st.args[0], st.args[1], c.d.isa.Shared
	return c.warpAligned(func(f *frame, l int) error {
		m, err := f.mem(shared, c.get(f, src.base, l)+uint64(src.imm), tensorMapBytes, tensorMapBytes, l, read)
		if err != nil {
			return err
		}
		return f.store(1, c.get(f, dst.base, l)+uint64(dst.imm), m, tensorMapBytes, l)
	}), nil
}

// asyncQueue is one thread's or warp's asynchronous operations (cp.async copies, wgmma
// instructions): those issued since its last commit_group (open) and the committed
// groups, oldest first.
type asyncQueue struct {
	open   []func() error
	groups [][]func() error
}

// commit closes the open group (commit_group).
func (q *asyncQueue) commit() { q.groups, q.open = append(q.groups, q.open), nil }

// complete runs the operations of all groups but the newest keep (wait_group keep).
func (q *asyncQueue) complete(keep int) error {
	for len(q.groups) > keep {
		for _, run := range q.groups[0] {
			if err := run(); err != nil {
				return err
			}
		}
		q.groups = q.groups[1:]
	}
	return nil
}

// cpQueue returns lane l's queue of cp.async copies.
func (f *frame) cpQueue(l int) *asyncQueue {
	if f.cp == nil {
		f.cp = make([]asyncQueue, f.lanes)
	}
	return &f.cp[l]
}

// cpAsync copies global to shared memory asynchronously, as the hardware may:
// cp.async.ca|cg.shared.global [dst], [src], size[, src-size] (bytes past src-size are
// zeros) takes its addresses and sizes when issued, fills its destination with all-ones
// bytes (NaN) at once (the earliest the hardware may write it: a thread still reading the
// old contents reads garbage, and the race check sees the write) and copies when a
// wait_group or wait_all completes its group (the latest), so a read of the stage before
// its wait reads garbage too.
func (c *asmCtx) cpAsync(st pStmt) (asmStep, error) {
	if len(st.args) < 3 || st.args[0].kind != pMem || st.args[1].kind != pMem {
		return nil, fmt.Errorf("operands")
	}
	dst, src, size := st.args[0], st.args[1], st.args[2]
	var srcSize *pArg
	if len(st.args) == 4 {
		srcSize = &st.args[3]
	}
	shared := c.d.isa.Shared
	return c.perLane(func(f *frame, l int) error {
		n := int(c.value(f, size, l))
		valid := n
		if srcSize != nil {
			valid = min(n, int(c.value(f, *srcSize, l)))
		}
		from, to := c.get(f, src.base, l)+uint64(src.imm), c.get(f, dst.base, l)+uint64(dst.imm)
		// until the wait, the destination holds what the copy may have written of it:
		// all-ones bytes (NaN), written now, where the race check sees them
		poison := make([]byte, n)
		for i := range poison {
			poison[i] = 0xFF
		}
		if err := f.store(shared, to, poison, n, l); err != nil {
			return err
		}
		q := f.cpQueue(l)
		q.open = append(q.open, func() error {
			data := make([]byte, n)
			if valid > 0 {
				g, err := f.mem(1, from, valid, 1, l, read)
				if err != nil {
					return err
				}
				copy(data, g)
			}
			return f.store(shared, to, data, n, l)
		})
		return nil
	}), nil
}

// mma runs mma.sync.aligned.m16n8k{8,16,32}.row.col[.satfinite].{d}.{a}.{b}.{c} for each
// warp, with the fragment layout of the PTX ISA (groupID = lane/4, thread in group =
// lane%4): m16n8k16 f16 and bf16 and m16n8k8 tf32 into f32 (products summed in float64
// and rounded once to f32), m16n8k16 f16 into f16 (likewise rounded once to f16, both
// accumulators in packed pairs) and m16n8k32 s8 into s32 (.satfinite: the exact sum
// clamped to the int32 range).
func (c *asmCtx) mma(st pStmt) (asmStep, error) {
	q := slices.DeleteFunc(slices.Clone(st.opcode), func(s string) bool { return s == "satfinite" })
	sat := len(q) < len(st.opcode)
	if len(q) != 10 || q[1] != "sync" || q[2] != "aligned" || q[4] != "row" || q[5] != "col" || q[6] != q[9] || q[7] != q[8] {
		return nil, fmt.Errorf("mma form %s is not supported", strings.Join(st.opcode, "."))
	}
	in, acc := q[7], q[6]
	var kdim int
	switch form := q[3] + "." + acc + "." + in; form {
	case "m16n8k16.f32.f16", "m16n8k16.f32.bf16", "m16n8k16.f16.f16":
		kdim = 16
	case "m16n8k8.f32.tf32":
		kdim = 8
	case "m16n8k32.s32.s8":
		kdim = 32
	default:
		return nil, fmt.Errorf("mma %s with %s inputs into %s is not supported", q[3], in, acc)
	}
	if sat != (acc == "s32") {
		return nil, fmt.Errorf("mma form %s is not supported", strings.Join(st.opcode, "."))
	}
	if len(st.args) != 4 {
		return nil, fmt.Errorf("operands")
	}
	d, a, b, cin := regsOf(st.args[0]), regsOf(st.args[1]), regsOf(st.args[2]), regsOf(st.args[3])
	nC := 4 // accumulator registers; f16 ones hold two each
	if acc == "f16" {
		nC = 2
	}
	if len(d) != nC || len(a) != 4 || len(b) != 2 || len(cin) != nC {
		return nil, fmt.Errorf("fragment sizes")
	}
	// per is the elements a 32-bit input register packs (1 tf32, 2 f16, 4 s8); elem
	// decodes element i of one.
	per := kdim / 8
	elem := func(v uint64, i int) float64 {
		switch in {
		case "f16":
			return toFloat(kF16, v>>(16*i))
		case "bf16":
			return toFloat(kBF16, v>>(16*i))
		case "s8":
			return float64(int8(v >> (8 * i)))
		}
		return toFloat(kF32, v&^0x1FFF) // tf32: the low 13 mantissa bits are ignored
	}
	// accumulator element r (c0..c3: rows g, g, g+8, g+8; cols 2t, 2t+1) of lane l's
	// registers regs: its value, and how to write it back
	getC := func(f *frame, regs []pArg, r, l int) float64 {
		switch acc {
		case "f16":
			return toFloat(kF16, c.value(f, regs[r/2], l)>>(16*(r%2)))
		case "s32":
			return float64(int32(c.value(f, regs[r], l)))
		}
		return toFloat(kF32, c.value(f, regs[r], l))
	}
	encode := func(x float64) uint64 { return encodeAcc(acc, sat, x) }
	return c.perWarp(func(f *frame, base int) error {
		var A [16][32]float64
		var B [32][8]float64
		var C [16][8]float64
		for lane := range c.warp {
			l := base + lane
			g, t := lane/4, lane%4
			// A's registers: rows g, g+8, g, g+8; K from per·t, and half the K further for
			// the last two; B's: K from per·t, then half the K further; column g
			for r := range 4 {
				av := c.value(f, a[r], l)
				for e := range per {
					A[g+8*(r&1)][per*t+e+kdim/2*(r>>1)] = elem(av, e)
				}
			}
			for r := range 2 {
				bv := c.value(f, b[r], l)
				for e := range per {
					B[per*t+e+kdim/2*r][g] = elem(bv, e)
				}
			}
			for r := range 4 {
				C[g+8*(r>>1)][2*t+(r&1)] = getC(f, cin, r, l)
			}
		}
		var D [16][8]float64
		for i := range 16 {
			for j := range 8 {
				s := C[i][j]
				for kk := range kdim {
					s += A[i][kk] * B[kk][j]
				}
				D[i][j] = s
			}
		}
		for lane := range c.warp {
			g, t := lane/4, lane%4
			if acc == "f16" {
				for r := range 2 {
					lo, hi := encode(D[g+8*r][2*t]), encode(D[g+8*r][2*t+1])
					c.set(f, d[r].reg, base+lane, hi<<16|lo)
				}
				continue
			}
			for r := range 4 {
				c.set(f, d[r].reg, base+lane, encode(D[g+8*(r>>1)][2*t+(r&1)]))
			}
		}
		return nil
	}), nil
}

// encodeAcc encodes x, an exact sum, as an accumulator of type acc ("f16", "s32" or
// "f32"): rounded to the float type, or for s32 wrapped to 32 bits (clamped to the int32
// range when sat).
func encodeAcc(acc string, sat bool, x float64) uint64 {
	switch acc {
	case "f16":
		return fromFloat(kF16, x)
	case "s32":
		if sat {
			x = max(min(x, math.MaxInt32), math.MinInt32)
		}
		return uint64(uint32(int64(x)))
	}
	return fromFloat(kF32, x)
}

// ldmatrix runs ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16 for each warp:
// lanes 8j..8j+7 give the row addresses of matrix j; register j of lane l receives row
// l/4, columns 2(l%4) and 2(l%4)+1 of matrix j (of its transpose with .trans).
func (c *asmCtx) ldmatrix(st pStmt) (asmStep, error) {
	q := st.opcode
	trans := slices.Contains(q, "trans")
	n := 0
	for _, s := range q {
		switch s {
		case "x1":
			n = 1
		case "x2":
			n = 2
		case "x4":
			n = 4
		}
	}
	if len(q) < 5 || q[3] != "m8n8" || n == 0 || q[len(q)-1] != "b16" || len(st.args) != 2 || st.args[1].kind != pMem {
		return nil, fmt.Errorf("ldmatrix form %s is not supported", strings.Join(q, "."))
	}
	d, src := regsOf(st.args[0]), st.args[1]
	if len(d) != n {
		return nil, fmt.Errorf("%d registers for .x%d", len(d), n)
	}
	shared := c.d.isa.Shared
	return c.perWarp(func(f *frame, base int) error {
		var m [4][8][8]uint64
		for j := range n {
			for r := range 8 {
				l := base + 8*j + r
				row, err := f.mem(shared, c.get(f, src.base, l)+uint64(src.imm), 16, 16, l, read)
				if err != nil {
					return laneErr(f, l, err)
				}
				for col := range 8 {
					m[j][r][col] = readLE(row[2*col : 2*col+2])
				}
			}
		}
		for lane := range c.warp {
			for j := range n {
				r, col := lane/4, 2*(lane%4)
				lo, hi := m[j][r][col], m[j][r][col+1]
				if trans {
					lo, hi = m[j][col][r], m[j][col+1][r]
				}
				c.set(f, d[j].reg, base+lane, hi<<16|lo)
			}
		}
		return nil
	}), nil
}
