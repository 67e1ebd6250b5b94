package simt

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/driver"
)

// tmaSwizzleLoad: thread 0 copies the box at (x, y) of the map into shared memory at off
// (the mbarrier at 0), then the warp dumps the first words 32-bit words of shared memory
// to out.
const tmaSwizzleLoad = header + `
define void @k(i8* %desc, i32 %off, i32 %x, i32 %y, i32 %words, i32 addrspace(1)* %out, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%bar = bitcast [0 x i8] addrspace(3)* @global_smem to i64 addrspace(3)*
	%box = getelementptr [0 x i8], [0 x i8] addrspace(3)* @global_smem, i32 0, i32 %off
	call void asm sideeffect "{\0A.reg .pred p;\0Asetp.eq.u32 p, $0, 0;\0A@p mbarrier.init.shared::cta.b64 [$1], 1;\0A}", "r,r"(i32 %tid, i64 addrspace(3)* %bar)
	call void asm sideeffect "{\0A.reg .pred p;\0A.reg .b64 state;\0Asetp.eq.u32 p, $0, 0;\0A@p mbarrier.arrive.expect_tx.shared::cta.b64 state, [$1], 1024;\0A@!p mbarrier.arrive.shared::cta.b64 state, [$1];\0A@p cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$2], [$3, {$4, $5}], [$1];\0Atma_wait_1:\0Ambarrier.try_wait.shared::cta.b64 p, [$1], state;\0A@!p bra tma_wait_1;\0A}", "r,r,r,l,r,r"(i32 %tid, i64 addrspace(3)* %bar, i8 addrspace(3)* %box, i8* %desc, i32 %x, i32 %y)
	%smem = bitcast [0 x i8] addrspace(3)* @global_smem to i32 addrspace(3)*
	br label %loop
loop:
	%i = phi i32 [ %tid, %entry ], [ %next, %body ]
	%more = icmp ult i32 %i, %words
	br i1 %more, label %body, label %done
body:
	%ps = getelementptr i32, i32 addrspace(3)* %smem, i32 %i
	%v = load i32, i32 addrspace(3)* %ps, align 4
	%po = getelementptr i32, i32 addrspace(1)* %out, i32 %i
	store i32 %v, i32 addrspace(1)* %po, align 4
	%next = add i32 %i, 32
	br label %loop
done:
	ret void
}
`

// tmaSwizzleStore: the warp fills the first words 32-bit words of shared memory from in,
// then thread 0 copies the box at shared offset off to (x, y) of the map.
const tmaSwizzleStore = header + `
define void @k(i8* %desc, i32 %off, i32 %x, i32 %y, i32 %words, i32 addrspace(1)* %in, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%smem = bitcast [0 x i8] addrspace(3)* @global_smem to i32 addrspace(3)*
	br label %loop
loop:
	%i = phi i32 [ %tid, %entry ], [ %next, %body ]
	%more = icmp ult i32 %i, %words
	br i1 %more, label %body, label %done
body:
	%pi = getelementptr i32, i32 addrspace(1)* %in, i32 %i
	%v = load i32, i32 addrspace(1)* %pi, align 4
	%ps = getelementptr i32, i32 addrspace(3)* %smem, i32 %i
	store i32 %v, i32 addrspace(3)* %ps, align 4
	%next = add i32 %i, 32
	br label %loop
done:
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
	call void asm sideeffect "fence.proxy.async.shared::cta;", ""()
	%box = getelementptr [0 x i8], [0 x i8] addrspace(3)* @global_smem, i32 0, i32 %off
	call void asm sideeffect "{\0A.reg .pred p;\0Asetp.eq.u32 p, $0, 0;\0A@p cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$3, $4}], [$2];\0A@p cp.async.bulk.commit_group;\0A@p cp.async.bulk.wait_group.read 0;\0A}", "r,l,r,r,r"(i32 %tid, i8* %desc, i8 addrspace(3)* %box, i32 %x, i32 %y)
	ret void
}
`

// swizzledAt is where the hardware puts the byte that a row-major box has at shared
// address a, with a swizzle of span bytes (CUTLASS's Swizzle<log2(span/16), 4, 3>): in
// each 128-byte row of shared memory, the 16-byte chunk number c becomes c XOR the row's
// number modulo span/16.
func swizzledAt(a, span int) int {
	row, chunk := a/128, a/16%8
	return row*128 + (chunk^(row%(span/16)))*16 + a%16
}

// swizzleCase is a 2-D box of rows × cols elements of size bytes, at shared offset off,
// copied at (x, y) of a rows0 × cols0 tensor.
type swizzleCase struct {
	name                   string
	size, span             int
	rows, cols, off        int
	rows0, cols0, x, y     int
	wantErr, wantLaunchErr string
}

var swizzleCases = []swizzleCase{
	{name: "128B fp16 8x64 at 1024", size: 2, span: 128, rows: 8, cols: 64, off: 1024, rows0: 16, cols0: 128, x: 64, y: 4},
	// The swizzle follows the absolute address: a box from 128-byte row 9 starts at chunk
	// permutation 1.
	{name: "128B fp16 16x64 at 1152", size: 2, span: 128, rows: 16, cols: 64, off: 1152, rows0: 32, cols0: 64, x: 0, y: 3},
	// Rows narrower than the span: four 32-byte rows to a 128-byte row, the last one
	// partial; the last two rows are outside the tensor.
	{name: "128B fp16 5x16 at 384", size: 2, span: 128, rows: 5, cols: 16, off: 384, rows0: 4, cols0: 32, x: 16, y: 1},
	{name: "64B fp32 8x16 at 512", size: 4, span: 64, rows: 8, cols: 16, off: 512, rows0: 8, cols0: 32, x: 16, y: 0},
	{name: "32B i8 8x32 at 256", size: 1, span: 32, rows: 8, cols: 32, off: 256, rows0: 16, cols0: 64, x: 32, y: 8},
	{name: "64B fp64 4x8 at 640", size: 8, span: 64, rows: 4, cols: 8, off: 640, rows0: 4, cols0: 8},
	{name: "no swizzle fp16 4x24 at 208", size: 2, rows: 4, cols: 24, off: 208, rows0: 8, cols0: 24, y: 1},
	{name: "misaligned", size: 2, span: 128, rows: 8, cols: 64, off: 1040, rows0: 8, cols0: 64,
		wantLaunchErr: "a copy with a 128-byte swizzle at shared address 0x410, which is not 128-byte aligned"},
	{name: "row wider than the span", size: 2, span: 64, rows: 8, cols: 64, rows0: 8, cols0: 64,
		wantErr: "a box row of 128 bytes with a 64-byte swizzle (TMA: a multiple of 16 bytes up to the swizzle's span)"},
	{name: "row of 8 bytes", size: 2, span: 32, rows: 8, cols: 4, rows0: 8, cols0: 64,
		wantErr: "a box row of 8 bytes with a 32-byte swizzle (TMA: a multiple of 16 bytes up to the swizzle's span)"},
	{name: "swizzle of 16", size: 2, span: 16, rows: 8, cols: 8, rows0: 8, cols0: 64, wantErr: "a swizzle of 16 bytes (TMA: 0, 32, 64 or 128)"},
	{name: "box of 512 rows", size: 2, rows: 512, cols: 8, rows0: 512, cols0: 64, wantErr: "box dimension 1 (innermost first) is 512 (TMA: 1 to 256)"},
}

// window is the shared memory the case's kernels dump or fill: the box's rows rounded up
// to 128 bytes, from 0.
func (c swizzleCase) window() int {
	return c.off + (c.rows*c.cols*c.size+127)/128*128
}

// tensorBytes is a rows0 × cols0 tensor with distinct nonzero bytes.
func (c swizzleCase) tensorBytes() []uint8 {
	out := make([]uint8, c.rows0*c.cols0*c.size)
	for i := range out {
		out[i] = uint8(i%251 + 1)
	}
	return out
}

// forBox calls f with the shared offset of each byte of the box and its tensor offset, or
// -1 where the byte lies outside the tensor.
func (c swizzleCase) forBox(f func(shared, global int)) {
	for r := range c.rows {
		for col := range c.cols {
			gr, gc := c.y+r, c.x+col
			for k := range c.size {
				a := c.off + (r*c.cols+col)*c.size + k
				if c.span != 0 {
					a = swizzledAt(a, c.span)
				}
				g := -1
				if gr < c.rows0 && gc < c.cols0 {
					g = (gr*c.cols0+gc)*c.size + k
				}
				f(a, g)
			}
		}
	}
}

// tensorMap is the case's map of b.
func (c swizzleCase) tensorMap(b *Buffer) (*TensorMap, error) {
	return NewTensorMap(b, c.size, []int64{int64(c.rows0), int64(c.cols0)}, []int64{int64(c.cols0), 1},
		[]int64{int64(c.rows), int64(c.cols)}, c.span)
}

// TestTensorMapSwizzleLoad: a TMA load through a swizzled map puts each byte of the box
// where the hardware's swizzle does, and nothing elsewhere; the map's rules are errors.
func TestTensorMapSwizzleLoad(t *testing.T) {
	for _, c := range swizzleCases {
		t.Run(c.name, func(t *testing.T) {
			d, k := load(t, nil, tmaSwizzleLoad, 1, c.window())
			data := c.tensorBytes()
			m, err := c.tensorMap(upload(t, d, data))
			if c.wantErr != "" {
				if err == nil || !strings.HasSuffix(err.Error(), c.wantErr) {
					t.Fatalf("NewTensorMap: got error %v, want one ending %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			out := upload(t, d, make([]uint8, c.window()))
			err = k.Launch(driver.Grid{1, 1, 1}, m, int32(c.off), int32(c.x), int32(c.y), int32(c.window()/4), out)
			if c.wantLaunchErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantLaunchErr) {
					t.Fatalf("launch: got error %v, want one with %q", err, c.wantLaunchErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// Shared memory starts as all ones; the box's bytes outside the tensor are zeros.
			want := bytes.Repeat([]uint8{0xFF}, c.window())
			c.forBox(func(s, g int) {
				want[s] = 0
				if g >= 0 {
					want[s] = data[g]
				}
			})
			got := download[uint8](t, out)
			for a := 8; a < len(want); a++ { // the mbarrier aside
				if got[a] != want[a] {
					t.Fatalf("shared byte %#x = %d, want %d", a, got[a], want[a])
				}
			}
		})
	}
}

// TestTensorMapSwizzleStore: a TMA store through a swizzled map reads each byte of the box
// from where the hardware's swizzle puts it, and writes the part of the box inside the
// tensor row-major.
func TestTensorMapSwizzleStore(t *testing.T) {
	for _, c := range swizzleCases {
		if c.wantErr != "" {
			continue // TestTensorMapSwizzleLoad covers the map's rules
		}
		t.Run(c.name, func(t *testing.T) {
			d, k := load(t, nil, tmaSwizzleStore, 1, c.window())
			want := c.tensorBytes()
			smem, out := make([]uint8, c.window()), make([]uint8, len(want))
			c.forBox(func(s, g int) {
				if g >= 0 {
					smem[s], out[g] = want[g], want[g]
				} else {
					smem[s] = 0xEE // a byte no store may write
				}
			})
			dst := upload(t, d, make([]uint8, len(want)))
			m, err := c.tensorMap(dst)
			if err != nil {
				t.Fatal(err)
			}
			err = k.Launch(driver.Grid{1, 1, 1}, m, int32(c.off), int32(c.x), int32(c.y), int32(c.window()/4), upload(t, d, smem))
			if c.wantLaunchErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantLaunchErr) {
					t.Fatalf("launch: got error %v, want one with %q", err, c.wantLaunchErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := download[uint8](t, dst)
			for i := range out {
				if got[i] != out[i] {
					t.Fatalf("tensor byte %d (element %d) = %d, want %d", i, i/c.size, got[i], out[i])
				}
			}
		})
	}
}

// TestSwizzledAt pins the test's formula to the pattern's documented shape: with 128-byte
// swizzle, 128-byte row r of each 1024 bytes has its 16-byte chunks in the order c ^ r.
func TestSwizzledAt(t *testing.T) {
	var rows []string
	for r := range 8 {
		var chunks []string
		for c := range 8 {
			chunks = append(chunks, fmt.Sprint((swizzledAt(r*128+c*16, 128)-r*128)/16))
		}
		rows = append(rows, strings.Join(chunks, ""))
	}
	if got, want := strings.Join(rows, " "), "01234567 10325476 23016745 32107654 45670123 54761032 67452301 76543210"; got != want {
		t.Errorf("128B swizzle chunk order by row: %s, want %s", got, want)
	}
	if got := swizzledAt(128+16, 32); got != 128 {
		t.Errorf("32B swizzle moves byte 0x90 to %#x, want 0x80", got)
	}
	if got := swizzledAt(3*128+16, 64); got != 3*128+32 {
		t.Errorf("64B swizzle moves byte 0x190 to %#x, want 0x1a0", got)
	}
}

// tmaBuiltLoad: the kernel builds a tensor map (the asm BUILD, see builtMapCase.asm) of
// the 2-D tensor at a, d0 × d1 elements (innermost first) with rows stride apart, in
// shared memory at 0, and copies it to its global scratch; thread 0 loads the box at (x,
// y) through it into shared memory at 1024 (the mbarrier at 128), then both warps dump the
// first words 32-bit words of the box to out.
const tmaBuiltLoad = header + `
define void @k(i8 addrspace(1)* %a, i32 %d0, i32 %d1, i64 %stride, i32 %x, i32 %y, i32 %words, i32 addrspace(1)* %out, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%map = getelementptr [0 x i8], [0 x i8] addrspace(3)* @global_smem, i32 0, i32 0
	call void asm sideeffect "BUILD", "r,r,l,l,r,r,l"(i32 %tid, i8 addrspace(3)* %map, i8 addrspace(1)* %s0, i8 addrspace(1)* %a, i32 %d0, i32 %d1, i64 %stride)
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
	%b8 = getelementptr [0 x i8], [0 x i8] addrspace(3)* @global_smem, i32 0, i32 128
	%bar = bitcast i8 addrspace(3)* %b8 to i64 addrspace(3)*
	%box = getelementptr [0 x i8], [0 x i8] addrspace(3)* @global_smem, i32 0, i32 1024
	call void asm sideeffect "{\0A.reg .pred p;\0Asetp.eq.u32 p, $0, 0;\0A@p mbarrier.init.shared::cta.b64 [$1], 1;\0A}", "r,r"(i32 %tid, i64 addrspace(3)* %bar)
	call void asm sideeffect "{\0A.reg .pred p;\0A.reg .b64 state;\0Asetp.eq.u32 p, $0, 0;\0A@p mbarrier.arrive.expect_tx.shared::cta.b64 state, [$1], 1024;\0A@!p mbarrier.arrive.shared::cta.b64 state, [$1];\0A@p cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$2], [$3, {$4, $5}], [$1];\0Atma_wait_1:\0Ambarrier.try_wait.shared::cta.b64 p, [$1], state;\0A@!p bra tma_wait_1;\0A}", "r,r,r,l,r,r"(i32 %tid, i64 addrspace(3)* %bar, i8 addrspace(3)* %box, i8 addrspace(1)* %s0, i32 %x, i32 %y)
	%smem = bitcast i8 addrspace(3)* %box to i32 addrspace(3)*
	br label %loop
loop:
	%i = phi i32 [ %tid, %entry ], [ %next, %body ]
	%more = icmp ult i32 %i, %words
	br i1 %more, label %body, label %done
body:
	%ps = getelementptr i32, i32 addrspace(3)* %smem, i32 %i
	%v = load i32, i32 addrspace(3)* %ps, align 4
	%po = getelementptr i32, i32 addrspace(1)* %out, i32 %i
	store i32 %v, i32 addrspace(1)* %po, align 4
	%next = add i32 %i, 64
	br label %loop
done:
	ret void
}
`

// builtMapCase is a map that tmaBuiltLoad builds for a rows × cols tensor of elements of
// type typ (a tensormap.replace .elemtype, of size bytes) with rows pitch elements apart,
// and the box of boxRows × boxCols it loads at (x, y).
type builtMapCase struct {
	name                   string
	typ, size              int
	rows, cols, pitch      int
	boxRows, boxCols, x, y int
	swizzle                int    // the swizzle mode: 0 none, 3 128 bytes
	nanFill                bool   // fill mode 1
	fill                   uint64 // the bits of the elements outside the tensor
	// unbuilt leaves the map zeros; extra are replacements after the others (a field
	// set again), global ones of the map in global memory after the copy; copyGuard is
	// the predicate of the copy to global memory ("w", warp 0, when empty).
	unbuilt       bool
	extra, global []string
	copyGuard     string
	wantErr       string
}

var builtMapCases = []builtMapCase{
	{name: "fp16", typ: 6, size: 2, rows: 37, cols: 50, pitch: 64, boxRows: 8, boxCols: 16, x: 40, y: 32},
	{name: "fp16 128B swizzle", typ: 6, size: 2, rows: 37, cols: 50, pitch: 64, boxRows: 8, boxCols: 64, y: 33, swizzle: 3},
	{name: "fp32 NaN fill at (-3, -1)", typ: 7, size: 4, rows: 37, cols: 50, pitch: 64, boxRows: 4, boxCols: 8, x: -3, y: -1, nanFill: true, fill: 0x7FC00000},
	{name: "fp32 128B swizzle NaN fill", typ: 7, size: 4, rows: 37, cols: 50, pitch: 64, boxRows: 8, boxCols: 32, x: 32, y: 34, swizzle: 3, nanFill: true, fill: 0x7FC00000},
	{name: "fp16 fill mode set in global memory", typ: 6, size: 2, rows: 37, cols: 50, pitch: 64, boxRows: 8, boxCols: 16, x: 40, y: 32, fill: 0x7E00,
		global: []string{"fill_mode.global.b1024.b32 [$2], 1"}},
	{name: "unbuilt", typ: 6, size: 2, rows: 37, cols: 50, pitch: 64, boxRows: 8, boxCols: 16, unbuilt: true,
		wantErr: "the global address is 0 (was the map built?)"},
	{name: "element stride 2", typ: 6, size: 2, rows: 37, cols: 50, pitch: 64, boxRows: 8, boxCols: 16,
		extra: []string{"element_stride.shared::cta.b1024.b32 [$1], 1, 2"}, wantErr: "tensor map element_stride 2 (the simulator takes 1)"},
	{name: "NaN fill of u16", typ: 1, size: 2, rows: 37, cols: 50, pitch: 64, boxRows: 8, boxCols: 16, nanFill: true,
		wantErr: "a NaN fill of integer elements (type 1; TMA: float types only)"},
	{name: "copy by thread 0 only", typ: 6, size: 2, rows: 37, cols: 50, pitch: 64, boxRows: 8, boxCols: 16, copyGuard: "p",
		wantErr: "a warp-collective instruction run by 1 of warp 0's 32 lanes"},
}

// asm is the case's map building for tmaBuiltLoad, as Triton 3.6 emits it: warp 0 zeroes
// the map in shared memory, thread 0 sets its fields (the element type after the
// strides), warp 0 copies it to global memory and fences it.
func (c builtMapCase) asm() string {
	fill := 0
	if c.nanFill {
		fill = 1
	}
	var fields []string
	if !c.unbuilt {
		fields = []string{
			"global_address.shared::cta.b1024.b64 [$1], $3",
			"rank.shared::cta.b1024.b32 [$1], 1",
			fmt.Sprintf("box_dim.shared::cta.b1024.b32 [$1], 0, %d", c.boxCols),
			"box_dim.shared::cta.b1024.b32 [$1], 1, v",
			"global_dim.shared::cta.b1024.b32 [$1], 0, $4",
			"global_dim.shared::cta.b1024.b32 [$1], 1, $5",
			"global_stride.shared::cta.b1024.b64 [$1], 0, $6",
			"element_stride.shared::cta.b1024.b32 [$1], 0, 1",
			"element_stride.shared::cta.b1024.b32 [$1], 1, 1",
			fmt.Sprintf("elemtype.shared::cta.b1024.b32 [$1], %d", c.typ),
			"interleave_layout.shared::cta.b1024.b32 [$1], 0",
			fmt.Sprintf("swizzle_mode.shared::cta.b1024.b32 [$1], %d", c.swizzle),
			fmt.Sprintf("fill_mode.shared::cta.b1024.b32 [$1], %d", fill),
		}
	}
	guard := c.copyGuard
	if guard == "" {
		guard = "w"
	}
	lines := []string{"{", ".reg .pred p", ".reg .pred w", ".reg .b32 a", ".reg .b32 v",
		"setp.lt.u32 w, $0, 32", "setp.eq.u32 p, $0, 0", "shl.b32 a, $0, 2", "add.u32 a, a, $1",
		"@w st.shared.b32 [a], 0", "bar.warp.sync -1", fmt.Sprintf("mov.b32 v, %d", c.boxRows)}
	for _, f := range append(fields, c.extra...) {
		lines = append(lines, "@p tensormap.replace.tile."+f)
	}
	lines = append(lines, "@"+guard+" tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [$2], [$1], 128")
	for _, f := range c.global {
		lines = append(lines, "@p tensormap.replace.tile."+f)
	}
	lines = append(lines, "@w fence.proxy.tensormap::generic.acquire.gpu [$2], 128", "@w cp.async.bulk.commit_group",
		"@w cp.async.bulk.wait_group.read 0", "}")
	return strings.Join(lines, `;\0A`)
}

// TestTensorMapBuilt: a map that the kernel builds with tensormap.replace and copies to
// global memory serves TMA loads: the box's elements inside the tensor (not its rows'
// padding), zeros or NaNs outside, swizzled as host maps' boxes are; a map not built, or a field the simulator does not take, is an
// error.
func TestTensorMapBuilt(t *testing.T) {
	for _, c := range builtMapCases {
		t.Run(c.name, func(t *testing.T) {
			window := (c.boxRows*c.boxCols*c.size + 127) / 128 * 128
			src := strings.Replace(tmaBuiltLoad, "BUILD", c.asm(), 1)
			d, k := loadWith(t, nil, src, LoadOptions{NumWarps: 2, SharedBytes: 1024 + window, GlobalScratchBytes: tensorMapBytes})
			data := make([]uint8, c.rows*c.pitch*c.size)
			for i := range data {
				data[i] = uint8(i%251 + 1)
			}
			stride := int64(c.pitch * c.size)
			out := upload(t, d, make([]uint8, window))
			err := k.Launch(driver.Grid{1, 1, 1}, upload(t, d, data), int32(c.cols), int32(c.rows), stride, int32(c.x), int32(c.y), int32(window/4), out)
			if c.wantErr != "" {
				var e *Error
				if !errors.As(err, &e) || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("got error %v, want an *Error with %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := bytes.Repeat([]uint8{0xFF}, window) // shared memory's bytes past the box
			for r := range c.boxRows {
				for col := range c.boxCols {
					a := (r*c.boxCols + col) * c.size
					if c.swizzle != 0 {
						a = swizzledAt(1024+a, 128) - 1024
					}
					gr, gc := c.y+r, c.x+col
					for k := range c.size {
						want[a+k] = uint8(c.fill >> (8 * k))
						if gr >= 0 && gr < c.rows && gc >= 0 && gc < c.cols {
							want[a+k] = data[(gr*c.pitch+gc)*c.size+k]
						}
					}
				}
			}
			got := download[uint8](t, out)
			for a := range want {
				if got[a] != want[a] {
					t.Fatalf("box byte %#x = %#x, want %#x", a, got[a], want[a])
				}
			}
		})
	}
}

// TestTMALoadLandsAtWait: a TMA load's box holds all-ones bytes until a thread waits on
// its mbarrier; without the wait, a read of the box gets them and not the tensor's bytes.
func TestTMALoadLandsAtWait(t *testing.T) {
	c := swizzleCases[0]
	noWait := strings.Replace(tmaSwizzleLoad, `tma_wait_1:\0Ambarrier.try_wait.shared::cta.b64 p, [$1], state;\0A@!p bra tma_wait_1;\0A`, "", 1)
	if noWait == tmaSwizzleLoad {
		t.Fatal("the kernel has no wait to take out")
	}
	d, k := load(t, nil, noWait, 1, c.window())
	m, err := c.tensorMap(upload(t, d, c.tensorBytes()))
	if err != nil {
		t.Fatal(err)
	}
	out := upload(t, d, make([]uint8, c.window()))
	if err := k.Launch(driver.Grid{1, 1, 1}, m, int32(c.off), int32(c.x), int32(c.y), int32(c.window()/4), out); err != nil {
		t.Fatal(err)
	}
	got, n := download[uint8](t, out), 0
	c.forBox(func(s, _ int) {
		if n++; got[s] != 0xFF {
			t.Fatalf("shared byte %#x = %d before the wait, want 255", s, got[s])
		}
	})
	if n == 0 {
		t.Fatal("an empty box")
	}
}
