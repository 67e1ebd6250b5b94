package simt

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/driver"
	"github.com/llir/llvm/asm"
)

// The tests below lay A and B out in shared memory by the PTX ISA's definitions of the
// wgmma operand layouts (written here apart from the simulator's), run a K loop of
// wgmma.mma_async on one warpgroup and check every lane's D against a float64 matmul,
// rounded to the accumulator after each instruction as the hardware's accumulator is.

// wgTile is how an operand lies in shared memory: K-major or MN-major (imm-trans 1),
// swizzled by sw bytes (0: none).
type wgTile struct {
	sw      int
	mnMajor bool
}

// place lays out an operand of mns rows along M or N and ks along K, eb bytes an element:
// the byte offset (before the swizzle) of element (mn, k) from the tile's start, and the
// descriptor's leading and stride dimension byte offsets.
func (t wgTile) place(mns, ks, eb int) (at func(mn, k int) int, lbo, sbo int) {
	s := t.sw
	switch {
	case s > 0 && !t.mnMajor:
		// Lines of s bytes along K, one per row; 8 lines make an atom, atoms follow
		// each other along MN at SBO; a K wider than a line takes further columns of
		// atoms, each mns lines. LBO is unused (encoded 1).
		return func(mn, k int) int {
			return k*eb/s*(mns*s) + mn%8*s + mn/8*(8*s) + k*eb%s
		}, 16, 8 * s
	case s > 0:
		// Lines of s bytes along MN, one per k; 8 lines make an atom, atoms follow each
		// other along K at SBO, and the next s bytes of MN start LBO further (after all K).
		return func(mn, k int) int {
			return mn*eb/s*(ks*s) + mn*eb%s + k%8*s + k/8*(8*s)
		}, ks * s, 8 * s
	case !t.mnMajor:
		// Core matrices of 8 rows × 16 bytes (K inside); along K at LBO, the next 8
		// rows at SBO.
		return func(mn, k int) int {
			return mn%8*16 + mn/8*(ks*eb/16*128) + k*eb/16*128 + k*eb%16
		}, 128, ks * eb / 16 * 128
	}
	// Core matrices of 8 k × 16 bytes (MN inside): the next 16 bytes of MN at SBO, the
	// next 8 k at LBO.
	return func(mn, k int) int {
		return mn*eb%16 + mn*eb/16*128 + k%8*16 + k/8*(mns*eb/16*128)
	}, mns * eb / 16 * 128, 128
}

// swizzled is where the byte at logical shared address x is stored: its 16-byte chunk
// number, within a line of sw bytes, exclusive-or'd with the address's 128-byte line
// number modulo sw/16.
func swizzled(x, sw int) int {
	if sw == 0 {
		return x
	}
	chunks := sw / 16
	return x ^ (x/128%chunks)*16
}

// wgCase is one instruction form: types, N and K, accumulator, how A (regA: registers)
// and B lie, imm-scale-a and -b, and the K of the tiles (ks/K instructions).
type wgCase struct {
	name           string
	atype, btype   string
	acc            string
	sat            bool
	n, k, ks       int
	regA           bool
	a, b           wgTile
	scaleA, scaleB int // 0 for integers, which have none
}

func (c wgCase) eb() int {
	switch c.atype {
	case "f16", "bf16":
		return 2
	case "tf32":
		return 4
	}
	return 1
}

// trans is a layout's imm-trans.
func trans(t wgTile) int {
	if t.mnMajor {
		return 1
	}
	return 0
}

func (c wgCase) nD() int {
	if c.acc == "f16" {
		return c.n / 4
	}
	return c.n / 2
}

// wgElem draws an element of type ty: its bits and its value. The values keep every
// float64 sum exact, so that only the accumulator's rounding counts.
func wgElem(rng *rand.Rand, ty string) (uint64, float64) {
	switch ty {
	case "f16":
		v := float64(rng.IntN(65)-32) / 8
		return fromFloat(kF16, v), v
	case "bf16":
		v := float64(rng.IntN(33)-16) / 4
		return fromFloat(kBF16, v), v
	case "tf32": // the low 13 bits are not part of the value
		v := float64(rng.IntN(129)-64) / 16
		return uint64(math.Float32bits(float32(v))) | rng.Uint64N(1<<13), v
	case "e4m3":
		for {
			b := rng.Uint64N(256)
			if b&0x7F != 0x7F {
				return b, e4m3.decode(b)
			}
		}
	case "e5m2": // exponents 8..22 (of 0..31)
		b := rng.Uint64N(2)<<7 | (8+rng.Uint64N(15))<<2 | rng.Uint64N(4)
		return b, e5m2.decode(b)
	case "s8":
		v := rng.IntN(256) - 128
		return uint64(uint8(int8(v))), float64(v)
	}
	v := rng.IntN(256)
	return uint64(v), float64(v)
}

// roundAcc rounds x to the accumulator type.
func (c wgCase) roundAcc(x float64) float64 {
	switch c.acc {
	case "f16":
		return toFloat(kF16, fromFloat(kF16, x))
	case "s32":
		if c.sat {
			x = max(min(x, math.MaxInt32), math.MinInt32)
		}
		return x
	}
	return float64(float32(x))
}

// accBits and accValue encode and decode an accumulator element.
func (c wgCase) accBits(x float64) uint32 {
	switch c.acc {
	case "f16":
		return uint32(fromFloat(kF16, x))
	case "s32":
		return uint32(int32(x))
	}
	return math.Float32bits(float32(x))
}

func (c wgCase) accValue(b uint32) float64 {
	switch c.acc {
	case "f16":
		return toFloat(kF16, uint64(b&0xFFFF))
	case "s32":
		return float64(int32(b))
	}
	return float64(math.Float32frombits(b))
}

// fragment lists the elements of warp w's lane (g, t) in its accumulator registers: row,
// column, register and the bit of the register the element starts at.
func (c wgCase) fragment(w, lane int) (rows, cols, regs, shifts []int) {
	g, t := lane/4, lane%4
	for i := range c.n / 2 {
		reg, shift := i, 0
		if c.acc == "f16" {
			reg, shift = i/2, 16*(i%2)
		}
		rows = append(rows, 16*w+g+8*(i/2%2))
		cols = append(cols, 8*(i/4)+2*t+i%2)
		regs, shifts = append(regs, reg), append(shifts, shift)
	}
	return
}

func (c wgCase) inst() string {
	sat := ""
	if c.sat {
		sat = ".satfinite"
	}
	return fmt.Sprintf("wgmma.mma_async.sync.aligned.m64n%dk%d%s.%s.%s.%s", c.n, c.k, sat, c.acc, c.atype, c.btype)
}

// descHigh is a descriptor's fields other than the start address.
func descHigh(lbo, sbo, sw int) int64 {
	mode := map[int]uint64{0: 0, 128: 1, 64: 2, 32: 3}[sw]
	return int64(uint64(lbo>>4)<<16 | uint64(sbo>>4)<<32 | mode<<62)
}

// wgKernel is one warpgroup that copies img (words 32-bit words) into shared memory and
// runs c's K loop: instruction s reads A from startsA[s] (or lane l's registers
// areg[4(S·l+s)..+3], S the instructions) and B from startsB[s], the descriptors built
// from the shared address;
// the first takes scale-d from %scale, the others accumulate. Lane l's accumulators come
// from c[nD·l...] and go to d[nD·l...].
func wgKernel(c wgCase, words int, startsA, startsB []int, hiA, hiB int64) string {
	nD := c.nD()
	ty := "i32"
	out := "=r"
	if c.acc == "f32" {
		ty, out = "float", "=f"
	}
	var fields []string
	for range nD {
		fields = append(fields, ty)
	}
	ret := "{" + strings.Join(fields, ", ") + "}"
	var b strings.Builder
	b.WriteString(header + `
define void @k(i32 addrspace(1)* %img, i32 addrspace(1)* %areg, i32 addrspace(1)* %c, i32 addrspace(1)* %d, i1 %scale, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%smem = bitcast [0 x i8] addrspace(3)* @global_smem to i32 addrspace(3)*
	br label %copy
copy:
	%i = phi i32 [ %tid, %entry ], [ %next, %copy ]
	%src = getelementptr i32, i32 addrspace(1)* %img, i32 %i
	%word = load i32, i32 addrspace(1)* %src, align 4
	%dst = getelementptr i32, i32 addrspace(3)* %smem, i32 %i
	store i32 %word, i32 addrspace(3)* %dst, align 4
	%next = add i32 %i, 128
`)
	fmt.Fprintf(&b, "\t%%more = icmp ult i32 %%next, %d\n", words)
	b.WriteString(`	br i1 %more, label %copy, label %mma
mma:
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
	call void asm sideeffect "fence.proxy.async.shared::cta;", ""()
	%base = ptrtoint [0 x i8] addrspace(3)* @global_smem to i64
`)
	load := func(buf string, n int, ty string) []string {
		var vals []string
		fmt.Fprintf(&b, "\t%%%s.base = mul i32 %%tid, %d\n", buf, n)
		for i := range n {
			fmt.Fprintf(&b, "\t%%%s.i%d = add i32 %%%s.base, %d\n", buf, i, buf, i)
			fmt.Fprintf(&b, "\t%%%s.p%d = getelementptr i32, i32 addrspace(1)* %%%s, i32 %%%s.i%d\n", buf, i, buf, buf, i)
			fmt.Fprintf(&b, "\t%%%s.w%d = load i32, i32 addrspace(1)* %%%s.p%d, align 4\n", buf, i, buf, i)
			v := fmt.Sprintf("%%%s.w%d", buf, i)
			if ty == "float" {
				fmt.Fprintf(&b, "\t%%%s.f%d = bitcast i32 %s to float\n", buf, i, v)
				v = fmt.Sprintf("%%%s.f%d", buf, i)
			}
			vals = append(vals, ty+" "+v)
		}
		return vals
	}
	acc := load("c", nD, ty)
	var aRegs []string
	if c.regA {
		aRegs = load("areg", 4*c.ks/c.k, "i32")
	}
	desc := func(name string, start int, hi int64) string {
		fmt.Fprintf(&b, "\t%%%s.a = add i64 %%base, %d\n", name, start)
		fmt.Fprintf(&b, "\t%%%s.s = lshr i64 %%%s.a, 4\n", name, name)
		fmt.Fprintf(&b, "\t%%%s.m = and i64 %%%s.s, 16383\n", name, name)
		fmt.Fprintf(&b, "\t%%%s = or i64 %%%s.m, %d\n", name, name, hi)
		return "i64 %" + name
	}
	regs := func(from, n int) string {
		var s []string
		for i := range n {
			s = append(s, fmt.Sprintf("$%d", from+i))
		}
		return "{" + strings.Join(s, ",") + "}"
	}
	outs := strings.Repeat(out+",", nD)
	var ties []string
	for i := range nD {
		ties = append(ties, fmt.Sprint(i))
	}
	tied := strings.Join(ties, ",")
	for s := range c.ks / c.k {
		var ins, cons []string
		text := c.inst() + " " + regs(0, nD) + ", "
		next := nD
		if c.regA {
			ins, cons = slices.Clone(aRegs[4*s:4*s+4]), []string{"r", "r", "r", "r"}
			text += regs(nD, 4)
			next += 4
		} else {
			ins, cons = []string{desc(fmt.Sprintf("da%d", s), startsA[s], hiA)}, []string{"l"}
			text += fmt.Sprintf("$%d", nD)
			next++
		}
		ins = append(ins, desc(fmt.Sprintf("db%d", s), startsB[s], hiB))
		pred := "i1 %scale"
		if s > 0 {
			pred = "i1 true"
		}
		ins, cons = append(ins, pred), append(cons, "l", "b")
		text += fmt.Sprintf(", $%d, $%d", next, next+1)
		switch c.atype {
		case "f16", "bf16":
			text += fmt.Sprintf(", %d, %d", c.scaleA, c.scaleB)
			if !c.regA {
				text += fmt.Sprintf(", %d", trans(c.a))
			}
			text += fmt.Sprintf(", %d", trans(c.b))
		case "tf32", "e4m3", "e5m2":
			text += fmt.Sprintf(", %d, %d", c.scaleA, c.scaleB)
		}
		b.WriteString("\tcall void asm sideeffect \"wgmma.fence.sync.aligned;\", \"~{memory}\"()\n") // a clobber, ignored
		fmt.Fprintf(&b, "\t%%r%d = call %s asm sideeffect \"%s;\", \"%s%s,%s\"(%s, %s)\n", s, ret, text, outs, strings.Join(cons, ","), tied,
			strings.Join(ins, ", "), strings.Join(acc, ", "))
		b.WriteString("\tcall void asm sideeffect \"wgmma.commit_group.sync.aligned;\", \"\"()\n")
		for i := range nD {
			fmt.Fprintf(&b, "\t%%r%d.%d = extractvalue %s %%r%d, %d\n", s, i, ret, s, i)
			acc[i] = fmt.Sprintf("%s %%r%d.%d", ty, s, i)
		}
	}
	fmt.Fprintf(&b, "\t%%w = call %s asm sideeffect \"wgmma.wait_group.sync.aligned 0;\", \"%s%s\"(%s)\n", ret, outs, tied, strings.Join(acc, ", "))
	fmt.Fprintf(&b, "\t%%d.base = mul i32 %%tid, %d\n", nD)
	for i := range nD {
		fmt.Fprintf(&b, "\t%%d%d = extractvalue %s %%w, %d\n", i, ret, i)
		v := fmt.Sprintf("%%d%d", i)
		if ty == "float" {
			fmt.Fprintf(&b, "\t%%d%d.i = bitcast float %s to i32\n", i, v)
			v += ".i"
		}
		fmt.Fprintf(&b, "\t%%d.i%d = add i32 %%d.base, %d\n", i, i)
		fmt.Fprintf(&b, "\t%%d.p%d = getelementptr i32, i32 addrspace(1)* %%d, i32 %%d.i%d\n", i, i)
		fmt.Fprintf(&b, "\tstore i32 %s, i32 addrspace(1)* %%d.p%d, align 4\n", v, i)
	}
	b.WriteString("\tret void\n}\n")
	return b.String()
}

var wgCases = []wgCase{
	{name: "f16 128B", atype: "f16", btype: "f16", acc: "f32", n: 64, k: 16, ks: 64,
		a: wgTile{128, false}, b: wgTile{128, true}, scaleA: 1, scaleB: 1},
	{name: "f16 N=256", atype: "f16", btype: "f16", acc: "f32", n: 256, k: 16, ks: 64,
		a: wgTile{128, false}, b: wgTile{128, true}, scaleA: 1, scaleB: 1},
	{name: "f16 64B", atype: "f16", btype: "f16", acc: "f32", n: 64, k: 16, ks: 64,
		a: wgTile{64, false}, b: wgTile{64, true}, scaleA: 1, scaleB: -1},
	{name: "f16 32B K-major B", atype: "f16", btype: "f16", acc: "f32", n: 24, k: 16, ks: 32,
		a: wgTile{32, false}, b: wgTile{32, false}, scaleA: -1, scaleB: 1},
	{name: "f16 no swizzle", atype: "f16", btype: "f16", acc: "f32", n: 16, k: 16, ks: 32,
		a: wgTile{0, false}, b: wgTile{0, true}, scaleA: 1, scaleB: 1},
	{name: "f16 no swizzle MN-major A", atype: "f16", btype: "f16", acc: "f32", n: 16, k: 16, ks: 32,
		a: wgTile{0, true}, b: wgTile{0, false}, scaleA: 1, scaleB: 1},
	{name: "f16 register A, f16 acc", atype: "f16", btype: "f16", acc: "f16", n: 32, k: 16, ks: 64,
		regA: true, b: wgTile{128, true}, scaleA: -1, scaleB: 1},
	{name: "bf16 MN-major A", atype: "bf16", btype: "bf16", acc: "f32", n: 128, k: 16, ks: 64,
		a: wgTile{128, true}, b: wgTile{128, false}, scaleA: 1, scaleB: -1},
	{name: "tf32", atype: "tf32", btype: "tf32", acc: "f32", n: 8, k: 8, ks: 32,
		a: wgTile{128, false}, b: wgTile{128, false}, scaleA: 1, scaleB: 1},
	{name: "tf32 register A 64B", atype: "tf32", btype: "tf32", acc: "f32", n: 16, k: 8, ks: 16,
		regA: true, b: wgTile{64, false}, scaleA: 1, scaleB: -1},
	{name: "e4m3", atype: "e4m3", btype: "e4m3", acc: "f32", n: 32, k: 32, ks: 128,
		a: wgTile{128, false}, b: wgTile{128, false}, scaleA: 1, scaleB: 1},
	{name: "e4m3 e5m2 register A, f16 acc", atype: "e4m3", btype: "e5m2", acc: "f16", n: 16, k: 32, ks: 64,
		regA: true, b: wgTile{64, false}, scaleA: 1, scaleB: -1},
	{name: "s8 satfinite", atype: "s8", btype: "s8", acc: "s32", sat: true, n: 48, k: 32, ks: 64,
		a: wgTile{64, false}, b: wgTile{128, false}},
	{name: "u8 s8 register A", atype: "u8", btype: "s8", acc: "s32", n: 24, k: 32, ks: 32,
		regA: true, b: wgTile{32, false}},
}

func TestWGMMA(t *testing.T) {
	for ci, c := range wgCases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(ci), 7))
			eb := c.eb()
			sa, sb := float64(max(c.scaleA, 1)), float64(max(c.scaleB, 1))
			if c.scaleA < 0 {
				sa = -1
			}
			if c.scaleB < 0 {
				sb = -1
			}
			A, Abits := make([][]float64, 64), make([][]uint64, 64)
			for i := range A {
				A[i], Abits[i] = make([]float64, c.ks), make([]uint64, c.ks)
				for k := range c.ks {
					Abits[i][k], A[i][k] = wgElem(rng, c.atype)
				}
			}
			B, Bbits := make([][]float64, c.ks), make([][]uint64, c.ks)
			for k := range B {
				B[k], Bbits[k] = make([]float64, c.n), make([]uint64, c.n)
				for j := range c.n {
					Bbits[k][j], B[k][j] = wgElem(rng, c.btype)
				}
			}
			C := make([][]float64, 64)
			for i := range C {
				C[i] = make([]float64, c.n)
				for j := range C[i] {
					switch c.acc {
					case "s32":
						C[i][j] = float64(rng.IntN(1<<20) - 1<<19)
					case "f16":
						C[i][j] = float64(rng.IntN(257)-128) / 4
					default:
						C[i][j] = float64(rng.IntN(4001)-2000) / 64
					}
				}
			}
			if c.sat { // row 0 times column 0 and row 63 times column 1: large, of opposite signs
				C[0][0], C[63][1] = math.MaxInt32-1000, math.MinInt32+1000
				for k := range c.ks {
					A[0][k], B[k][0], A[63][k], B[k][1] = 100, 100, -100, 100
					Abits[0][k], Bbits[k][0], Abits[63][k], Bbits[k][1] = 100, 100, 0x9C, 100 // -100
				}
			}
			// Shared memory: A's tile (unless A is in registers), then B's at the next
			// 1024 bytes.
			var img []byte
			seen := map[int]bool{}
			put := func(tile wgTile, off, mns int, at func(mn, k int) int, bits func(mn, k int) uint64) []int {
				for mn := range mns {
					for k := range c.ks {
						x := swizzled(off+at(mn, k), tile.sw)
						for e := range eb {
							if seen[x+e] {
								t.Fatalf("the test's layout puts two elements at %#x", x+e)
							}
							seen[x+e] = true
						}
						for len(img) < x+eb {
							img = append(img, 0)
						}
						writeLE(img[x:x+eb], bits(mn, k))
					}
				}
				var starts []int
				for k0 := 0; k0 < c.ks; k0 += c.k {
					starts = append(starts, off+at(0, k0))
				}
				return starts
			}
			var startsA []int
			var hiA int64
			if !c.regA {
				at, lbo, sbo := c.a.place(64, c.ks, eb)
				startsA = put(c.a, 0, 64, at, func(mn, k int) uint64 { return Abits[mn][k] })
				hiA = descHigh(lbo, sbo, c.a.sw)
			}
			offB := (len(img) + 1023) &^ 1023
			at, lbo, sbo := c.b.place(c.n, c.ks, eb)
			startsB := put(c.b, offB, c.n, at, func(mn, k int) uint64 { return Bbits[k][mn] })
			hiB := descHigh(lbo, sbo, c.b.sw)
			for len(img)%(128*4) != 0 {
				img = append(img, 0)
			}
			words := make([]int32, len(img)/4)
			for i := range words {
				words[i] = int32(readLE(img[4*i : 4*i+4]))
			}
			// A's registers, for instruction s at k0 = s·K: lane (g, t) of warp w, register
			// r holds row 16w+g+8(r%2), K from k0+per·t, the second half of K for r >= 2,
			// per elements a register.
			nD, per, steps := c.nD(), 4/eb, c.ks/c.k
			areg := make([]int32, 128*4*steps)
			for l := range 128 {
				w, g, tt := l/32, l%32/4, l%4
				for s := range steps {
					for r := range 4 {
						v := uint64(0)
						for e := range per {
							v |= Abits[16*w+g+8*(r%2)][s*c.k+per*tt+e+c.k/2*(r/2)] << (8 * eb * e)
						}
						areg[4*steps*l+4*s+r] = int32(v)
					}
				}
			}
			cin := make([]int32, 128*nD)
			for l := range 128 {
				rows, cols, regs, shifts := c.fragment(l/32, l%32)
				for i := range rows {
					cin[nD*l+regs[i]] |= int32(c.accBits(C[rows[i]][cols[i]]) << shifts[i])
				}
			}
			d, k := load(t, nil, wgKernel(c, len(words), startsA, startsB, hiA, hiB), 4, len(img))
			for _, scale := range []bool{false, true} {
				out := upload(t, d, make([]int32, len(cin)))
				if err := k.Launch(driver.Grid{1, 1, 1}, upload(t, d, words), upload(t, d, areg), upload(t, d, cin), out, scale); err != nil {
					t.Fatal(err)
				}
				got := download[int32](t, out)
				bad := 0
				for l := range 128 {
					rows, cols, regs, shifts := c.fragment(l/32, l%32)
					for e := range rows {
						i, j := rows[e], cols[e]
						want := 0.0
						if scale {
							want = C[i][j]
						}
						for k0 := 0; k0 < c.ks; k0 += c.k {
							s := want
							for kk := k0; kk < k0+c.k; kk++ {
								s += sa * A[i][kk] * sb * B[kk][j]
							}
							want = c.roundAcc(s)
						}
						if g := c.accValue(uint32(got[nD*l+regs[e]]) >> shifts[e]); g != want && bad < 10 {
							bad++
							t.Errorf("scale-d %v: D[%d][%d] (thread %d) = %v, want %v", scale, i, j, l, g, want)
						}
					}
				}
			}
		})
	}
}

// TestWGMMAErrors: unsupported forms fail to load, and bad descriptors fail when they run,
// with errors.
func TestWGMMAErrors(t *testing.T) {
	call := func(text, cons string, args string) string {
		return header + `
define void @k(i64 %da, i64 %db, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	` + fmt.Sprintf("%%r = call {float, float, float, float} asm sideeffect \"%s\", \"=f,=f,=f,=f,%s\"(%s)", text, cons, args) + `
	ret void
}
`
	}
	const acc = "float 0.0, float 0.0, float 0.0, float 0.0"
	mma := func(form, rest string) string {
		return call("wgmma.mma_async.sync.aligned."+form+" {$0,$1,$2,$3}, $4, $5, 1"+rest+";", "l,l,0,1,2,3", "i64 %da, i64 %db, "+acc)
	}
	for _, c := range []struct{ src, want string }{
		{mma("m64n8k16.f16.bf16.bf16", ", 1, 1, 0, 0"), "with bf16 and bf16 inputs into f16 is not supported"},
		{mma("m64n8k16.f32.f16.bf16", ", 1, 1, 0, 0"), "with f16 and bf16 inputs into f32 is not supported"},
		{mma("m64n12k16.f32.f16.f16", ", 1, 1, 0, 0"), "shape m64n12k16 is not supported"},
		{mma("m64n8k32.f32.f16.f16", ", 1, 1, 0, 0"), "shape m64n8k32 is not supported"},
		{mma("m64n8k16.f32.f16.f16", ", 1, 1, 0"), "7 operands, want 8"},
		{mma("m64n8k16.f32.f16.f16", ", 1, 2, 0, 0"), "imm-scale 2 is not 1 or -1"},
		{mma("m64n8k16.f32.f16.f16", ", 1, 1, 0, 2"), "imm-trans 2 is not 0 or 1"},
		{mma("m64n8k8.satfinite.f32.tf32.tf32", ", 1, 1"), ".satfinite is for s32 accumulators only"},
		{mma("m64n8k16.f32.f16.f16", ", 1, 1, 0, 0, 0"), "9 operands, want 8"},
		{call("wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {$0,$1,$2,$3}, $4, $5, 1, 1, 1, 0, 0;", "l,l,0,1,2,3", "i64 %da, i64 %db, "+acc), "d must be 8 32-bit registers"},
		{call("wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8 {$0,$1,$2,$3}, $4, $5, 1;", "l,l,0,1,2,3", "i64 %da, i64 %db, "+acc), "shape m64n40k32 is not supported"},
		{call("wgmma.wait_group.sync.aligned $4;", "l,l,0,1,2,3", "i64 %da, i64 %db, "+acc), "wgmma form wgmma.wait_group.sync.aligned is not supported"},
		{call("wgmma.arrive.sync.aligned;", "l,l,0,1,2,3", "i64 %da, i64 %db, "+acc), "wgmma form wgmma.arrive.sync.aligned is not supported"},
	} {
		m, err := asm.ParseString("k.ll", c.src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := New(NVIDIA, Options{}).Load(m, "k", LoadOptions{NumWarps: 4, SharedBytes: 4096}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	ok := mma("m64n8k16.f32.f16.f16", ", 1, 1, 0, 0")
	m, err := asm.ParseString("k.ll", ok)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(NVIDIA, Options{}).Load(m, "k", LoadOptions{NumWarps: 2, SharedBytes: 4096}); err == nil || !strings.Contains(err.Error(), "needs whole warpgroups of 4 warps, the program has 2 warps") {
		t.Errorf("got %v, want an error for 2 warps", err)
	}
	_, k := load(t, nil, ok, 4, 4096)
	for _, c := range []struct {
		da, db int64
		want   string
	}{
		{1 << 49, 0, "base offset 1 is not supported"},
		{0, 4096 >> 4, "is outside the program's 4096 bytes of shared memory"},
	} {
		if err := k.Launch(driver.Grid{1, 1, 1}, c.da, c.db); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("descriptors %#x, %#x: got %v, want %q", c.da, c.db, err, c.want)
		}
	}
	// B's start address from the thread id: the warpgroup's descriptors differ.
	split := strings.Replace(ok, "entry:\n", `entry:
	%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%start = zext i32 %tid to i64
	%dbx = or i64 %db, %start
`, 1)
	split = strings.Replace(split, "i64 %db, float", "i64 %dbx, float", 1)
	_, k = load(t, nil, split, 4, 4096)
	if err := k.Launch(driver.Grid{1, 1, 1}, int64(0), int64(0)); err == nil || !strings.Contains(err.Error(), "thread 1 (warp 0, lane 1)") ||
		!strings.Contains(err.Error(), "the threads of a warpgroup pass different descriptors or scale-d") {
		t.Errorf("got %v, want an error for thread 1's descriptor", err)
	}
}

// storeWords is a loop of the block's 128 threads (from block from) storing v into each
// of the first 1024 words of shared memory (%smem), then block after.
func storeWords(name, from string, v uint32, after string) string {
	return fmt.Sprintf(`	br label %%%[1]s
%[1]s:
	%%%[1]s.i = phi i32 [ %%tid, %%%[2]s ], [ %%%[1]s.n, %%%[1]s ]
	%%%[1]s.p = getelementptr i32, i32 addrspace(3)* %%smem, i32 %%%[1]s.i
	store i32 %[3]d, i32 addrspace(3)* %%%[1]s.p, align 4
	%%%[1]s.n = add i32 %%%[1]s.i, 128
	%%%[1]s.m = icmp ult i32 %%%[1]s.n, 1024
	br i1 %%%[1]s.m, label %%%[1]s, label %%%[4]s
%[4]s:`, name, from, v, after)
}

// asyncKernel fills shared memory with f16 ones, runs one m64n8k16 wgmma on it (every
// result 16) and stores each thread's first result; between its commit and its wait
// (whose asm text is wait), it runs between.
func asyncKernel(between, wait string) string {
	return header + `
define void @k(float addrspace(1)* %out, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%smem = bitcast [0 x i8] addrspace(3)* @global_smem to i32 addrspace(3)*
` + storeWords("fill", "entry", 0x3C003C00, "mma") + `
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
	call void asm sideeffect "fence.proxy.async.shared::cta;", ""()
	%base = ptrtoint [0 x i8] addrspace(3)* @global_smem to i64
	%a = lshr i64 %base, 4
	%m = and i64 %a, 16383
	%desc = or i64 %m, 34360262656
	call void asm sideeffect "wgmma.fence.sync.aligned;", ""()
	%r = call {float, float, float, float} asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0,$1,$2,$3}, $4, $5, 0, 1, 1, 0, 0;", "=f,=f,=f,=f,l,l"(i64 %desc, i64 %desc)
	call void asm sideeffect "wgmma.commit_group.sync.aligned;", ""()
	%r0 = extractvalue {float, float, float, float} %r, 0
	%r1 = extractvalue {float, float, float, float} %r, 1
	%r2 = extractvalue {float, float, float, float} %r, 2
	%r3 = extractvalue {float, float, float, float} %r, 3
` + between + `
	%w = call {float, float, float, float} asm sideeffect "` + wait + `", "=f,=f,=f,=f,0,1,2,3"(float %r0, float %r1, float %r2, float %r3)
	%w0 = extractvalue {float, float, float, float} %w, 0
	%q = getelementptr float, float addrspace(1)* %out, i32 %tid
	store float %w0, float addrspace(1)* %q, align 4
	ret void
}
`
}

// TestWGMMAAsync: a wgmma.mma_async's results reach its registers only through a
// wait_group that completes it, and it reads shared memory as late as that wait.
func TestWGMMAAsync(t *testing.T) {
	zero := storeWords("zero", "mma", 0, "done") + "\n\tcall void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)"
	for _, c := range []struct {
		name, between, wait string
		check               func(float32) bool
	}{
		{"waited", "", "wgmma.wait_group.sync.aligned 0;", func(x float32) bool { return x == 16 }},
		{"not waited", "", "// no wait", func(x float32) bool { return math.IsNaN(float64(x)) }},
		{"wait_group 1 leaves it in flight", "", "wgmma.wait_group.sync.aligned 1;", func(x float32) bool { return math.IsNaN(float64(x)) }},
		{"operands overwritten before the wait", zero, "wgmma.wait_group.sync.aligned 0;", func(x float32) bool { return x == 0 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, k := load(t, nil, asyncKernel(c.between, c.wait), 4, 4096)
			out := upload(t, d, make([]float32, 128))
			if err := k.Launch(driver.Grid{1, 1, 1}, out); err != nil {
				t.Fatal(err)
			}
			for l, x := range download[float32](t, out) {
				if !c.check(x) {
					t.Fatalf("thread %d: %v", l, x)
				}
			}
		})
	}
}
