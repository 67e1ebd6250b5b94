package simt

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gotriton/gotriton/driver"
)

// AMD is the ISA table of what package lower emits for AMD targets (hip:gfx942:64,
// gfx90a): 64-lane wavefronts, LDS in address space 3, 32-bit private (scratch) pointers
// in address space 5, the constant address space 4 for the implicit kernel arguments of
// code object version 5, and the llvm.amdgcn.* intrinsics lower calls.
var AMD = &ISA{
	Name:           "amd",
	WarpSize:       64,
	Shared:         3,
	Private:        5,
	Global:         map[int]bool{0: true, 1: true, 4: true},
	Narrow:         map[int]bool{2: true, 3: true, 5: true, 6: true},
	ImplicitArgs:   amdImplicitArgs,
	BufferedPrintf: true,
}

func init() {
	AMD.Intrinsics = map[string]intrinsic{
		"llvm.trap":                  trap,
		"llvm.amdgcn.workitem.id.x":  sreg(func(_ *frame, l int) int { return l }),
		"llvm.amdgcn.workitem.id.y":  sreg(func(*frame, int) int { return 0 }),
		"llvm.amdgcn.workitem.id.z":  sreg(func(*frame, int) int { return 0 }),
		"llvm.amdgcn.workgroup.id.x": sreg(func(f *frame, _ int) int { return f.ctaid[0] }),
		"llvm.amdgcn.workgroup.id.y": sreg(func(f *frame, _ int) int { return f.ctaid[1] }),
		"llvm.amdgcn.workgroup.id.z": sreg(func(f *frame, _ int) int { return f.ctaid[2] }),
		"llvm.amdgcn.implicitarg.ptr": func(s *site) (op, error) {
			dst := s.dst
			return func(f *frame) error {
				d := f.regs[dst.off : dst.off+f.lanes]
				for l := range d {
					d[l] = f.implicitArgs
				}
				return nil
			}, nil
		},
		// The fences around it are no-ops of the core; the lanes run in lockstep.
		"llvm.amdgcn.s.barrier":   barrier,
		"llvm.amdgcn.ds.bpermute": bpermute,
		// v_exp_f32 and v_rcp_f32 are computed exactly, then rounded to f32.
		"llvm.amdgcn.exp2.f32": unary(math.Exp2),
		"llvm.amdgcn.rcp.f32":  unary(func(x float64) float64 { return 1 / x }),
		// fp8 conversions (amdfp8.go).
		"llvm.amdgcn.s.setreg":       setreg,
		"llvm.amdgcn.cvt.f32.fp8":    cvtFromFP8(e4m3fnuz),
		"llvm.amdgcn.cvt.f32.bf8":    cvtFromFP8(e5m2fnuz),
		"llvm.amdgcn.cvt.pk.fp8.f32": cvtPkToFP8(e4m3fnuz),
		"llvm.amdgcn.cvt.pk.bf8.f32": cvtPkToFP8(e5m2fnuz),
	}
}

// implicitArgBytes is the size of code object v5's hidden kernel arguments.
const implicitArgBytes = 256

// amdImplicitArgs lays out the hidden arguments lower reads: hidden_block_count_x, _y,
// _z (u32 at bytes 0, 4, 8) and hidden_group_size_x, _y, _z (u16 at 12, 14, 16); the
// remainders (18, 20, 22) are 0, every work group being full.
func amdImplicitArgs(grid driver.Grid, blockSize int) []byte {
	b := make([]byte, implicitArgBytes)
	for i, n := range grid {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(n))
	}
	binary.LittleEndian.PutUint16(b[12:], uint16(blockSize))
	binary.LittleEndian.PutUint16(b[14:], 1)
	binary.LittleEndian.PutUint16(b[16:], 1)
	return b
}

// bpermute is ds_bpermute(byte address, value): each lane reads the value of lane
// (address / 4) mod 64 of its wavefront, which must be on the same path.
func bpermute(s *site) (op, error) {
	if len(s.args) != 2 {
		return nil, fmt.Errorf("ds.bpermute with %d operands", len(s.args))
	}
	idx, val, dst, wave := s.args[0], s.args[1], s.dst, s.b.k.isa.WarpSize
	return func(f *frame) error {
		for l := range f.lanes {
			if !f.on(l) {
				continue
			}
			src := l - l%wave + int(f.regs[idx.off+l]/4%uint64(wave))
			if !f.on(src) {
				return laneErr(f, l, fmt.Errorf("ds.bpermute: source lane %d is on another path", src%wave))
			}
			f.regs[dst.off+l] = f.regs[val.off+src]
		}
		return nil
	}, nil
}
