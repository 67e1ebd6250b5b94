package simt

import (
	"fmt"
	"slices"
	"strings"
)

// wgmma runs the warpgroup matrix instructions of sm_90a asynchronously, as the hardware
// may: a wgmma.mma_async (with f32 or f16 accumulators) captures its register operands
// when it is issued, but reads its shared-memory operands and computes only when a
// wgmma.wait_group completes its group (the latest the hardware may read them), and until
// then its destination registers hold tags, NaNs that stand for its results. Another
// wgmma.mma_async may add to a tag (the hardware chains accumulators); anything else that
// reads one computes with a NaN, so a missing wait shows in the results, and so does a
// shared-memory operand overwritten before its wait. wait_group N completes all groups
// but the newest N and gives back, in the registers tied to its asm's outputs, the
// results behind their tags. s32 accumulators (integer NaNs do not exist) complete when
// issued.
func (c *asmCtx) wgmma(st pStmt) (asmStep, error) {
	q := st.opcode[1:]
	if len(q) >= 3 && q[1] == "sync" && q[2] == "aligned" {
		switch {
		case q[0] == "mma_async":
			return c.mmaAsync(st)
		case len(q) == 3 && q[0] == "fence" && len(st.args) == 0:
			return c.perWarp(func(*frame, int) error { return nil }), nil
		case len(q) == 3 && q[0] == "commit_group" && len(st.args) == 0:
			return c.perWarp(func(f *frame, base int) error { f.wgmmaQueue(base).commit(); return nil }), nil
		case len(q) == 3 && q[0] == "wait_group" && len(st.args) == 1 && st.args[0].kind == pImm && st.args[0].imm >= 0:
			n := int(st.args[0].imm)
			return c.perWarp(func(f *frame, base int) error {
				w := f.wgmmaQueue(base)
				if err := w.complete(n); err != nil {
					return err
				}
				for r := range c.outs {
					for l := base; l < base+c.warp; l++ {
						if v, ok := w.results[tagKey(l, c.get(f, r, l))]; ok {
							c.set(f, r, l, v)
						}
					}
				}
				return nil
			}), nil
		}
	}
	return nil, fmt.Errorf("wgmma form %s is not supported", strings.Join(st.opcode, "."))
}

// wgmmaQueue is one warp's asynchronous wgmma.mma_async instructions, and the results
// of the completed ones by lane and tag (tagKey).
type wgmmaQueue struct {
	asyncQueue
	results map[uint64]uint64
	tags    uint64 // tags handed out
}

// wgmmaQueue returns the queue of the warp whose first lane is base.
func (f *frame) wgmmaQueue(base int) *wgmmaQueue {
	if f.wgmma == nil {
		f.wgmma = map[int]*wgmmaQueue{}
	}
	w := f.wgmma[base]
	if w == nil {
		w = &wgmmaQueue{results: map[uint64]uint64{}}
		f.wgmma[base] = w
	}
	return w
}

// tag returns a fresh tag for an accumulator register of type acc: a quiet f32 NaN, or two
// f16 NaNs, whose payload numbers it (never a canonical NaN's).
func (w *wgmmaQueue) tag(acc string) uint64 {
	w.tags++
	if acc == "f16" {
		n := w.tags%(1<<18-2) + 1
		return (0x7E00|n>>9&0x1FF)<<16 | 0x7E00 | n&0x1FF
	}
	return 0x7FC00000 | (w.tags%(1<<22-2) + 1)
}

func tagKey(lane int, v uint64) uint64 { return uint64(lane)<<32 | v&0xFFFFFFFF }

// wgmmaType is an input type of wgmma.mma_async: its class (the types one instruction
// may combine), element bytes, the instruction's K and how an element decodes.
type wgmmaType struct {
	class  string
	bytes  int
	k      int
	decode func(uint64) float64
}

var wgmmaTypes = map[string]wgmmaType{
	"f16":  {"f16", 2, 16, func(v uint64) float64 { return toFloat(kF16, v) }},
	"bf16": {"bf16", 2, 16, func(v uint64) float64 { return toFloat(kBF16, v) }},
	"tf32": {"tf32", 4, 8, func(v uint64) float64 { return toFloat(kF32, v&^0x1FFF) }}, // the low 13 mantissa bits are ignored
	"e4m3": {"fp8", 1, 32, e4m3.decode},
	"e5m2": {"fp8", 1, 32, e5m2.decode},
	"s8":   {"int", 1, 32, func(v uint64) float64 { return float64(int8(v)) }},
	"u8":   {"int", 1, 32, func(v uint64) float64 { return float64(uint8(v)) }},
}

// wgmmaAcc lists the accumulator types of each input class, and wgmmaImms the immediates
// that follow scale-d when A comes from a descriptor.
var (
	wgmmaAcc  = map[string][]string{"f16": {"f16", "f32"}, "bf16": {"f32"}, "tf32": {"f32"}, "fp8": {"f16", "f32"}, "int": {"s32"}}
	wgmmaImms = map[string]int{"f16": 4, "bf16": 4, "tf32": 2, "fp8": 2, "int": 0}
)

// smemDesc is a decoded shared memory matrix descriptor: start address, leading and
// stride dimension byte offsets, and the swizzle's bytes (0: none).
type smemDesc struct {
	start, lbo, sbo, swizzle int
}

func decodeDesc(v uint64) (smemDesc, error) {
	if base := v >> 49 & 7; base != 0 {
		return smemDesc{}, fmt.Errorf("matrix descriptor %#x: base offset %d is not supported", v, base)
	}
	field := func(at int) int { return int(v>>at&0x3FFF) << 4 }
	return smemDesc{start: field(0), lbo: field(16), sbo: field(32), swizzle: [4]int{0, 128, 64, 32}[v>>62]}, nil
}

// addr is the shared address of element (mn, k) of an operand of eb-byte elements, in the
// PTX ISA's canonical layouts (in CuTe's notation, T elements make 16 bytes): K-major, or
// MN-major (imm-trans 1), then swizzled as TMA copies swizzle (swizzle, s bytes).
func (d smemDesc) addr(mn, k, eb int, mnMajor bool) int {
	s := d.swizzle
	var x int
	switch {
	case s == 0 && !mnMajor: // ((8,m),(T,2k)):((1T,SBO),(1,LBO))
		x = d.start + mn%8*16 + mn/8*d.sbo + k*eb/16*d.lbo + k*eb%16
	case s == 0: // ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
		x = d.start + mn*eb%16 + mn*eb/16*d.sbo + k%8*16 + k/8*d.lbo
	case !mnMajor: // ((8,m),(T,2k)):((cT,SBO),(1,T)), c = s/16
		x = d.start + mn%8*s + mn/8*d.sbo + k*eb
	default: // ((T,c,m),(8,k)):((1,T,LBO),(cT,SBO))
		x = d.start + mn*eb%s + mn*eb/s*d.lbo + k%8*s + k/8*d.sbo
	}
	return int(swizzle(uint64(x), s))
}

// mmaAsync runs wgmma.mma_async.sync.aligned.m64nNkK[.satfinite].dtype.atype.btype d,
// a-desc|{a}, b-desc, scale-d[, imm-scale-a, imm-scale-b[, imm-trans-a], imm-trans-b].
// Warp w of a warpgroup computes rows 16(w%4)..+15 of D on its own, from its rows of A (of
// the warpgroup's 64×K tile behind a-desc, or its 16×K fragment in registers, in
// mma.sync's A layout) and all of B (K×N); its fragment of D has, for f32 and s32, in
// register i of lane (g, t) = (lane/4, lane%4), row g+8(i/2%2), column 8(i/4)+2t+i%2, and
// for f16 the pairs i = 2j, 2j+1 in register j, the first in the low half. Products are
// summed in float64 with D when scale-d is set and rounded once to the accumulator type
// (s32: the exact sum, wrapped, or clamped with .satfinite); imm-scale -1 negates that
// operand.
func (c *asmCtx) mmaAsync(st pStmt) (asmStep, error) {
	form := strings.Join(st.opcode, ".")
	o := st.opcode
	sat := len(o) == 9 && o[5] == "satfinite"
	if sat {
		o = slices.Delete(slices.Clone(o), 5, 6)
	}
	if len(o) != 8 {
		return nil, fmt.Errorf("wgmma form %s is not supported", form)
	}
	shape, acc := o[4], o[5]
	at, aok := wgmmaTypes[o[6]]
	bt, bok := wgmmaTypes[o[7]]
	if !aok || !bok || at.class != bt.class || !slices.Contains(wgmmaAcc[at.class], acc) {
		return nil, fmt.Errorf("wgmma.mma_async with %s and %s inputs into %s is not supported", o[6], o[7], acc)
	}
	if sat && acc != "s32" {
		return nil, fmt.Errorf("wgmma.mma_async .satfinite is for s32 accumulators only")
	}
	var n, kdim int
	if _, err := fmt.Sscanf(shape, "m64n%dk%d", &n, &kdim); err != nil || shape != fmt.Sprintf("m64n%dk%d", n, kdim) ||
		kdim != at.k || n < 8 || n > 256 || n%8 != 0 || at.class == "int" && n > 24 && n%16 != 0 {
		return nil, fmt.Errorf("wgmma.mma_async shape %s is not supported for %s inputs", shape, o[6])
	}
	if c.lanes%(4*c.warp) != 0 {
		return nil, fmt.Errorf("wgmma.mma_async needs whole warpgroups of 4 warps, the program has %d warps", c.lanes/c.warp)
	}
	args := st.args
	if len(args) < 4 {
		return nil, fmt.Errorf("operands")
	}
	regA := args[1].kind == pVec
	imms := wgmmaImms[at.class]
	if regA && imms == 4 {
		imms = 3 // no imm-trans-a
	}
	if len(args) != 4+imms {
		return nil, fmt.Errorf("%d operands, want %d", len(args), 4+imms)
	}
	reg := func(a pArg, bits int) bool { return a.kind == pReg && c.prog.regs[a.reg] == bits }
	nD := n / 2 // accumulator registers; f16 ones hold two each
	if acc == "f16" {
		nD = n / 4
	}
	d := regsOf(args[0])
	if args[0].kind != pVec || len(d) != nD || slices.ContainsFunc(d, func(a pArg) bool { return !reg(a, 32) }) {
		return nil, fmt.Errorf("d must be %d 32-bit registers", nD)
	}
	aRegs := regsOf(args[1])
	if regA && (len(aRegs) != 4 || slices.ContainsFunc(aRegs, func(a pArg) bool { return !reg(a, 32) })) {
		return nil, fmt.Errorf("a must be 4 32-bit registers")
	}
	if !regA && !reg(args[1], 64) || !reg(args[2], 64) {
		return nil, fmt.Errorf("matrix descriptors must be 64-bit registers")
	}
	if k := args[3].kind; k != pReg && k != pImm {
		return nil, fmt.Errorf("scale-d must be a predicate")
	}
	scale := [2]float64{1, 1}
	trans := [2]bool{}
	for i, a := range args[4:] {
		switch {
		case a.kind != pImm:
			return nil, fmt.Errorf("operand %d must be an immediate", 5+i)
		case i < 2 && a.imm != 1 && a.imm != -1:
			return nil, fmt.Errorf("imm-scale %d is not 1 or -1", a.imm)
		case i < 2:
			scale[i] = float64(a.imm)
		case a.imm != 0 && a.imm != 1:
			return nil, fmt.Errorf("imm-trans %d is not 0 or 1", a.imm)
		default:
			trans[i+2-imms] = a.imm == 1 // the last is imm-trans-b
		}
	}
	uniform := []pArg{args[2], args[3]} // the warpgroup's threads must agree on these
	if !regA {
		uniform = append(uniform, args[1])
	}
	getAcc := func(v uint64) float64 {
		switch acc {
		case "f16":
			return toFloat(kF16, v)
		case "s32":
			return float64(int32(v))
		}
		return toFloat(kF32, v)
	}
	encode := func(x float64) uint64 { return encodeAcc(acc, sat, x) }
	eb, shared := at.bytes, c.d.isa.Shared
	return c.perWarp(func(f *frame, base int) error {
		w := f.wgmmaQueue(base)
		group := 4 * c.warp
		if base%group == 0 {
			for _, a := range uniform {
				for l := base; l < base+group; l++ {
					if c.value(f, a, l) != c.value(f, a, base) {
						return laneErr(f, l, fmt.Errorf("the threads of a warpgroup pass different descriptors or scale-d"))
					}
				}
			}
		}
		// operand reads element (mn, k) of the operand behind desc.
		operand := func(desc smemDesc, t wgmmaType, mn, k int, mnMajor bool) (float64, error) {
			b, err := f.mem(shared, uint64(desc.addr(mn, k, eb, mnMajor)), eb, eb, base, read)
			if err != nil {
				return 0, laneErr(f, base, err)
			}
			return t.decode(readLE(b)), nil
		}
		A := make([]float64, 16*kdim) // the warp's rows, A[i*kdim+k]
		if regA {                     // registers are read when the instruction is issued
			per := 4 / eb // elements a register packs
			for lane := range c.warp {
				g, t := lane/4, lane%4
				for r, a := range aRegs {
					v := c.value(f, a, base+lane)
					for e := range per {
						A[(g+8*(r%2))*kdim+per*t+e+kdim/2*(r/2)] = at.decode(v >> (8 * eb * e) & mask(8*eb))
					}
				}
			}
		}
		var aDesc smemDesc
		if !regA {
			var err error
			if aDesc, err = decodeDesc(c.value(f, args[1], base)); err != nil {
				return laneErr(f, base, err)
			}
		}
		bDesc, err := decodeDesc(c.value(f, args[2], base))
		if err != nil {
			return laneErr(f, base, err)
		}
		scaleD := c.value(f, args[3], base) != 0
		in := make([]uint64, c.warp*nD) // the accumulators it adds to, by lane: values or tags
		for lane := range c.warp {
			for r := range nD {
				in[lane*nD+r] = c.value(f, d[r], base+lane)
			}
		}
		out := make([]uint64, c.warp*nD) // its results, and the tags that stand for them
		var tags []uint64
		if acc != "s32" {
			tags = make([]uint64, len(out))
			for i := range tags {
				tags[i] = w.tag(acc)
			}
		}
		run := func() error {
			if !regA {
				rows := 16 * (base / c.warp % 4)
				for i := range 16 {
					for k := range kdim {
						x, err := operand(aDesc, at, rows+i, k, trans[0])
						if err != nil {
							return err
						}
						A[i*kdim+k] = x
					}
				}
			}
			B := make([]float64, kdim*n) // B[k*n+j]
			for j := range n {
				for k := range kdim {
					x, err := operand(bDesc, bt, j, k, trans[1])
					if err != nil {
						return err
					}
					B[k*n+j] = x
				}
			}
			clear(out)
			for lane := range c.warp {
				l, g, t := base+lane, lane/4, lane%4
				for i := range n / 2 {
					row, col := g+8*(i/2%2), 8*(i/4)+2*t+i%2
					r, shift := i, 0
					if acc == "f16" {
						r, shift = i/2, 16*(i%2)
					}
					s := 0.0
					if scaleD {
						v := in[lane*nD+r]
						if real, ok := w.results[tagKey(l, v)]; ok { // an earlier instruction's, chained
							v = real
						}
						s = getAcc(v >> shift)
					}
					for k := range kdim {
						s += scale[0] * A[row*kdim+k] * scale[1] * B[k*n+col]
					}
					out[lane*nD+r] |= encode(s) << shift
				}
			}
			for i, tg := range tags {
				w.results[tagKey(base+i/nD, tg)] = out[i]
			}
			return nil
		}
		if tags == nil {
			if err := run(); err != nil {
				return err
			}
		} else {
			w.open = append(w.open, run)
		}
		for lane := range c.warp {
			for r := range nD {
				v := out[lane*nD+r]
				if tags != nil {
					v = tags[lane*nD+r]
				}
				c.set(f, d[r].reg, base+lane, v)
			}
		}
		return nil
	}), nil
}
