package simt

import (
	"fmt"
	"math"
)

// NVIDIA is the ISA table of what package lower emits for NVIDIA targets: 32-lane warps,
// shared memory in address space 3, the llvm.nvvm.* intrinsics and the inline PTX subset
// (predicated vector ld/st.global, atom, cvt of packed fp8/f16, mma.sync, ldmatrix,
// sm_90a's wgmma, mbarrier and TMA copies, fences and griddepcontrol).
var NVIDIA = &ISA{
	Name:     "nvidia",
	WarpSize: 32,
	Shared:   3,
	Global:   map[int]bool{0: true, 1: true},
	Narrow:   map[int]bool{3: true, 4: true, 5: true},
	Asm:      nvAsm,
}

func init() {
	t := map[string]intrinsic{
		"llvm.nvvm.read.ptx.sreg.tid.x":    sreg(func(f *frame, l int) int { return l }),
		"llvm.nvvm.read.ptx.sreg.tid.y":    sreg(func(*frame, int) int { return 0 }),
		"llvm.nvvm.read.ptx.sreg.tid.z":    sreg(func(*frame, int) int { return 0 }),
		"llvm.nvvm.read.ptx.sreg.ntid.x":   sreg(func(f *frame, _ int) int { return f.lanes }),
		"llvm.nvvm.read.ptx.sreg.ntid.y":   sreg(func(*frame, int) int { return 1 }),
		"llvm.nvvm.read.ptx.sreg.ntid.z":   sreg(func(*frame, int) int { return 1 }),
		"llvm.nvvm.read.ptx.sreg.laneid":   sreg(func(_ *frame, l int) int { return l % 32 }),
		"llvm.nvvm.read.ptx.sreg.warpid":   sreg(func(_ *frame, l int) int { return l / 32 }),
		"llvm.nvvm.read.ptx.sreg.ctaid.x":  sreg(func(f *frame, _ int) int { return f.ctaid[0] }),
		"llvm.nvvm.read.ptx.sreg.ctaid.y":  sreg(func(f *frame, _ int) int { return f.ctaid[1] }),
		"llvm.nvvm.read.ptx.sreg.ctaid.z":  sreg(func(f *frame, _ int) int { return f.ctaid[2] }),
		"llvm.nvvm.read.ptx.sreg.nctaid.x": sreg(func(f *frame, _ int) int { return f.nctaid[0] }),
		"llvm.nvvm.read.ptx.sreg.nctaid.y": sreg(func(f *frame, _ int) int { return f.nctaid[1] }),
		"llvm.nvvm.read.ptx.sreg.nctaid.z": sreg(func(f *frame, _ int) int { return f.nctaid[2] }),

		// All threads of a program run in lockstep: a barrier holds by construction.
		"llvm.nvvm.barrier.cta.sync.aligned.all": barrier,
		"llvm.nvvm.barrier0":                     barrier,
		"llvm.nvvm.barrier.sync":                 barrier,

		"llvm.nvvm.shfl.sync.bfly.i32": shuffle(shflBfly),
		"llvm.nvvm.shfl.sync.bfly.f32": shuffle(shflBfly),
		"llvm.nvvm.shfl.sync.idx.i32":  shuffle(shflIdx),
		"llvm.nvvm.shfl.sync.idx.f32":  shuffle(shflIdx),
		"llvm.nvvm.shfl.sync.up.i32":   shuffle(shflUp),
		"llvm.nvvm.shfl.sync.up.f32":   shuffle(shflUp),
		"llvm.nvvm.shfl.sync.down.i32": shuffle(shflDown),
		"llvm.nvvm.shfl.sync.down.f32": shuffle(shflDown),

		// Approximate hardware functions are computed exactly (then rounded to f32).
		"llvm.nvvm.ex2.approx.f":     unary(math.Exp2),
		"llvm.nvvm.ex2.approx.ftz.f": unary(ftz(math.Exp2)),
		"llvm.nvvm.rcp.approx.ftz.f": unary(ftz(func(x float64) float64 { return 1 / x })),
		"llvm.nvvm.lg2.approx.f":     unary(math.Log2),
		"llvm.nvvm.lg2.approx.ftz.f": unary(ftz(math.Log2)),
		"llvm.nvvm.sqrt.approx.f":    unary(math.Sqrt),
		"llvm.nvvm.rsqrt.approx.f":   unary(func(x float64) float64 { return 1 / math.Sqrt(x) }),
		"llvm.nvvm.sin.approx.f":     unary(math.Sin),
		"llvm.nvvm.cos.approx.f":     unary(math.Cos),
		// div.full.f32 is within 2 ulp; the simulator gives the correctly rounded quotient
		// (f64 division of f32 operands, rounded to f32, rounds correctly: 53 >= 2*24+2).
		"llvm.nvvm.div.full":  floatFn(func(a []float64) float64 { return a[0] / a[1] }),
		"llvm.nvvm.fmax.f":    floatFn(maxNum),
		"llvm.nvvm.fmin.f":    floatFn(minNum),
		"llvm.nvvm.mulhi.ui":  intFn(func(x, y uint64, _ int) uint64 { return x * y >> 32 }),
		"llvm.nvvm.mulhi.i":   intFn(func(x, y uint64, _ int) uint64 { return uint64(sext(x, 32) * sext(y, 32) >> 32) }),
		"llvm.nvvm.mulhi.ull": intFn(mulhiU64),
		"llvm.nvvm.mulhi.ll":  intFn(mulhiS64),
		"vprintf":             vprintf,
		"__assertfail":        assertFail,
	}
	NVIDIA.Intrinsics = t
}

// sreg is a special register read: fn gives lane l's value.
func sreg(fn func(f *frame, l int) int) intrinsic {
	return func(s *site) (op, error) {
		dst := s.dst
		return func(f *frame) error {
			d := f.regs[dst.off : dst.off+f.lanes]
			for l := range d {
				d[l] = uint64(fn(f, l)) & 0xFFFFFFFF
			}
			return nil
		}, nil
	}
}

// barrier checks that every thread takes part; the lanes run in lockstep, so it holds
// by construction then. It ends the interval in which shared-memory races are checked.
func barrier(*site) (op, error) {
	return func(f *frame) error {
		if err := f.converged("barrier"); err != nil {
			return err
		}
		f.race.barrier()
		return nil
	}, nil
}

// shflSource gives the source lane of a shuffle and whether it is in range: lane is the
// lane within its warp, b the lane operand, c the packed clamp and segment mask.
type shflSource func(lane, b, c int) (int, bool)

func shflBfly(lane, b, c int) (int, bool) {
	seg := c >> 8 & 31
	maxLane := lane&seg | c&31&^seg
	j := lane ^ b
	return j, j <= maxLane
}

func shflIdx(lane, b, c int) (int, bool) {
	seg := c >> 8 & 31
	minLane, maxLane := lane&seg, lane&seg|c&31&^seg
	j := minLane | b&^seg
	return j, j <= maxLane
}

func shflUp(lane, b, c int) (int, bool) {
	seg := c >> 8 & 31
	minLane := lane & seg
	j := lane - b
	return j, j >= minLane|c&31&^seg && j >= 0
}

func shflDown(lane, b, c int) (int, bool) {
	seg := c >> 8 & 31
	maxLane := lane&seg | c&31&^seg
	j := lane + b
	return j, j <= maxLane
}

// shuffle compiles llvm.nvvm.shfl.sync.*(membermask, value, lane, clamp): every lane reads
// the value of its source lane in the same warp, or keeps its own when the source is out
// of range. Each lane must be in the member mask, as are its sources.
func shuffle(src shflSource) intrinsic {
	return func(s *site) (op, error) {
		if len(s.args) != 4 {
			return nil, fmt.Errorf("shfl.sync with %d operands", len(s.args))
		}
		mo, vo, bo, co := s.args[0], s.args[1], s.args[2], s.args[3]
		dst, warp := s.dst, s.b.k.isa.WarpSize
		return func(f *frame) error {
			for l := range f.lanes {
				if !f.on(l) {
					continue
				}
				lane, base := l%warp, l-l%warp
				m := f.regs[mo.off+l]
				j, ok := src(lane, int(f.regs[bo.off+l]&31), int(f.regs[co.off+l]&0x1FFF))
				if !ok {
					j = lane
				}
				if m>>lane&1 == 0 || m>>j&1 == 0 {
					return laneErr(f, l, fmt.Errorf("shfl.sync: lane %d or its source %d is not in the member mask %#x", lane, j, m))
				}
				if !f.on(base + j) {
					return laneErr(f, l, fmt.Errorf("shfl.sync: source lane %d is on another path", j))
				}
				f.regs[dst.off+l] = f.regs[vo.off+base+j]
			}
			return nil
		}, nil
	}
}

func mulhiU64(x, y uint64, _ int) uint64 {
	hi, _ := mul64(x, y)
	return hi
}

func mulhiS64(x, y uint64, _ int) uint64 {
	hi, _ := mul64(x, y)
	if int64(x) < 0 {
		hi -= y
	}
	if int64(y) < 0 {
		hi -= x
	}
	return hi
}

// ftz is fn under PTX's .ftz for f32: subnormal inputs and results are flushed to zero of
// the same sign.
func ftz(fn func(float64) float64) func(float64) float64 {
	flush := func(x float64) float64 {
		if math.Abs(x) < 0x1p-126 {
			return math.Copysign(0, x)
		}
		return x
	}
	return func(x float64) float64 { return flush(fn(flush(x))) }
}
