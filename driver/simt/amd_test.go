package simt

import (
	"math"
	"testing"

	"github.com/llir/llvm/asm"

	"github.com/gotriton/gotriton/driver"
)

// A wavefront sum by butterfly ds_bpermute, then wave 1 adds wave 0's sum through LDS.
const wave64Kernel = `
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare void @llvm.amdgcn.s.barrier()
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
@global_smem = external addrspace(3) global [0 x i8], align 16

define void @k(i32 addrspace(1)* %out, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.amdgcn.workitem.id.x()
	%pid = call i32 @llvm.amdgcn.workgroup.id.x()
	%v0 = add i32 %tid, %pid
	br label %loop
loop:
	%step = phi i32 [ 1, %entry ], [ %step2, %loop ]
	%v = phi i32 [ %v0, %entry ], [ %v2, %loop ]
	%src = xor i32 %tid, %step
	%bytes = shl i32 %src, 2
	%other = call i32 @llvm.amdgcn.ds.bpermute(i32 %bytes, i32 %v)
	%v2 = add i32 %v, %other
	%step2 = shl i32 %step, 1
	%more = icmp ult i32 %step2, 64
	br i1 %more, label %loop, label %done
done:
	%lds = bitcast [0 x i8] addrspace(3)* @global_smem to i32 addrspace(3)*
	%wave = lshr i32 %tid, 6
	%slot = getelementptr i32, i32 addrspace(3)* %lds, i32 %wave
	%lane = and i32 %tid, 63
	%first = icmp eq i32 %lane, 0
	br i1 %first, label %write, label %sync
write:
	store i32 %v2, i32 addrspace(3)* %slot, align 4
	br label %sync
sync:
	call void @llvm.amdgcn.s.barrier()
	%a = load i32, i32 addrspace(3)* %lds, align 4
	%bp = getelementptr i32, i32 addrspace(3)* %lds, i32 1
	%b = load i32, i32 addrspace(3)* %bp, align 4
	%total = add i32 %a, %b
	%po = getelementptr i32, i32 addrspace(1)* %out, i32 %pid
	%isfirst = icmp eq i32 %tid, 0
	br i1 %isfirst, label %store, label %end
store:
	store i32 %total, i32 addrspace(1)* %po, align 4
	br label %end
end:
	ret void
}
`

// TestAMDWaveSum runs the butterfly sum and LDS exchange on the AMD table's 64-lane
// wavefronts.
func TestAMDWaveSum(t *testing.T) {
	m, err := asm.ParseString("k.ll", wave64Kernel)
	if err != nil {
		t.Fatal(err)
	}
	d := New(AMD, Options{Workers: 2})
	k, err := d.Load(m, "k", LoadOptions{NumWarps: 2, SharedBytes: 8})
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.Alloc(3 * 4)
	if err != nil {
		t.Fatal(err)
	}
	out := b.(*Buffer)
	if err := k.Launch(driver.Grid{3, 1, 1}, out); err != nil {
		t.Fatal(err)
	}
	for p, got := range download[int32](t, out) {
		want := int32(127*128/2 + 128*p) // the sum of tid + pid over both wavefronts
		if got != want {
			t.Errorf("program %d: %d, want %d", p, got, want)
		}
	}
	if d.Name() != "simt amd (2 workers)" {
		t.Errorf("name %q", d.Name())
	}
}

// Per thread of a 3x7 grid: the grid and block size from the implicit arguments, a private (addrspace 5)
// slot written and read back, an atomic add of 1 to a counter (whose old values number
// the threads), a cmpxchg of 0 to its old count + 1 that only the thread finding 0 wins, and fences around them.
const amdMemoryKernel = `
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare i8 addrspace(4)* @llvm.amdgcn.implicitarg.ptr()

define amdgpu_kernel void @k(i32 addrspace(1)* %out, i32 addrspace(1)* %counter, i32 addrspace(1)* %flag, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%slot = alloca i32, align 4, addrspace(5)
	%tid = call i32 @llvm.amdgcn.workitem.id.x()
	%pid = call i32 @llvm.amdgcn.workgroup.id.x()
	%pidy = call i32 @llvm.amdgcn.workgroup.id.y()
	%args = call i8 addrspace(4)* @llvm.amdgcn.implicitarg.ptr()
	%pxi = bitcast i8 addrspace(4)* %args to i32 addrspace(4)*
	%nx = load i32, i32 addrspace(4)* %pxi, align 4
	%py = getelementptr i8, i8 addrspace(4)* %args, i32 4
	%pyi = bitcast i8 addrspace(4)* %py to i32 addrspace(4)*
	%ny = load i32, i32 addrspace(4)* %pyi, align 4
	%pg = getelementptr i8, i8 addrspace(4)* %args, i32 12
	%pgi = bitcast i8 addrspace(4)* %pg to i16 addrspace(4)*
	%gs = load i16, i16 addrspace(4)* %pgi, align 2
	%gs32 = zext i16 %gs to i32
	%v = mul i32 %tid, 3
	store i32 %v, i32 addrspace(5)* %slot, align 4
	fence syncscope("agent") release
	%back = load i32, i32 addrspace(5)* %slot, align 4
	%old = atomicrmw add i32 addrspace(1)* %counter, i32 1 syncscope("agent") acq_rel
	%mark = add i32 %old, 1
	%x = cmpxchg i32 addrspace(1)* %flag, i32 0, i32 %mark syncscope("agent") acq_rel acquire
	%won = extractvalue { i32, i1 } %x, 1
	%w32 = zext i1 %won to i32
	fence syncscope("agent") acquire
	%rows = mul i32 %pidy, %nx
	%lin = add i32 %rows, %pid
	%block = mul i32 %lin, %gs32
	%g = add i32 %block, %tid
	%base = mul i32 %g, 5
	%p0 = getelementptr i32, i32 addrspace(1)* %out, i32 %base
	store i32 %ny, i32 addrspace(1)* %p0, align 4
	%p1 = getelementptr i32, i32 addrspace(1)* %p0, i32 1
	store i32 %gs32, i32 addrspace(1)* %p1, align 4
	%p2 = getelementptr i32, i32 addrspace(1)* %p0, i32 2
	store i32 %back, i32 addrspace(1)* %p2, align 4
	%p3 = getelementptr i32, i32 addrspace(1)* %p0, i32 3
	store i32 %old, i32 addrspace(1)* %p3, align 4
	%p4 = getelementptr i32, i32 addrspace(1)* %p0, i32 4
	store i32 %w32, i32 addrspace(1)* %p4, align 4
	ret void
}
`

func TestAMDMemory(t *testing.T) {
	m, err := asm.ParseString("k.ll", amdMemoryKernel)
	if err != nil {
		t.Fatal(err)
	}
	d := New(AMD, Options{Workers: 2})
	k, err := d.Load(m, "k", LoadOptions{NumWarps: 1})
	if err != nil {
		t.Fatal(err)
	}
	const programs, lanes = 3 * 7, 64
	out := upload(t, d, make([]int32, 5*programs*lanes))
	counter, flag := upload(t, d, []int32{0}), upload(t, d, []int32{0})
	if err := k.Launch(driver.Grid{3, 7, 1}, out, counter, flag); err != nil {
		t.Fatal(err)
	}
	got := download[int32](t, out)
	seen := map[int32]bool{}
	winners, mark := 0, int32(0)
	for g := range programs * lanes {
		r := got[5*g : 5*g+5]
		if r[0] != 7 || r[1] != lanes || r[2] != int32(3*(g%lanes)) {
			t.Errorf("thread %d: grid y %d, group size %d, private %d; want 7, %d, %d", g, r[0], r[1], r[2], lanes, 3*(g%lanes))
		}
		seen[r[3]] = true
		if r[4] == 1 {
			winners, mark = winners+1, r[3]+1
		}
	}
	if n := download[int32](t, counter)[0]; n != programs*lanes {
		t.Errorf("counter %d, want %d", n, programs*lanes)
	}
	if f := download[int32](t, flag)[0]; winners != 1 || f != mark {
		t.Errorf("%d cmpxchg winners, flag %d; want 1 and the winner's %d", winners, f, mark)
	}
	if len(seen) != programs*lanes {
		t.Errorf("%d distinct old counter values, want %d", len(seen), programs*lanes)
	}
}

// Per lane: x narrowed with -x by v_cvt_pk_fp8_f32 before MODE.fp16_ovfl is set, then
// x with 1.0 by v_cvt_pk_bf8_f32 into the high half after it, and bytes 0 and 2 of that
// widened back by v_cvt_f32_fp8 and v_cvt_f32_bf8.
const amdFP8Kernel = `
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.setreg(i32, i32)
declare i32 @llvm.amdgcn.cvt.pk.fp8.f32(float, float, i32, i1)
declare i32 @llvm.amdgcn.cvt.pk.bf8.f32(float, float, i32, i1)
declare float @llvm.amdgcn.cvt.f32.fp8(i32, i32)
declare float @llvm.amdgcn.cvt.f32.bf8(i32, i32)

define amdgpu_kernel void @k(float addrspace(1)* %in, i32 addrspace(1)* %out, float addrspace(1)* %back, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.amdgcn.workitem.id.x()
	%px = getelementptr float, float addrspace(1)* %in, i32 %tid
	%x = load float, float addrspace(1)* %px, align 4
	%nx = fneg float %x
	%lo = call i32 @llvm.amdgcn.cvt.pk.fp8.f32(float %x, float %nx, i32 0, i1 false)
	call void @llvm.amdgcn.s.setreg(i32 1473, i32 1)
	%w = call i32 @llvm.amdgcn.cvt.pk.bf8.f32(float %x, float 1.0, i32 %lo, i1 true)
	%po = getelementptr i32, i32 addrspace(1)* %out, i32 %tid
	store i32 %w, i32 addrspace(1)* %po, align 4
	%f = call float @llvm.amdgcn.cvt.f32.fp8(i32 %w, i32 0)
	%b = call float @llvm.amdgcn.cvt.f32.bf8(i32 %w, i32 2)
	%i2 = mul i32 %tid, 2
	%pf = getelementptr float, float addrspace(1)* %back, i32 %i2
	store float %f, float addrspace(1)* %pf, align 4
	%pb = getelementptr float, float addrspace(1)* %pf, i32 1
	store float %b, float addrspace(1)* %pb, align 4
	ret void
}
`

// TestAMDFP8 checks CDNA3's FNUZ conversions: rounding to nearest even, NaN (0x80) for
// NaN and for overflow while MODE.fp16_ovfl is clear, the largest value (0x7F) for
// overflow once it is set, no -0, and the packing into old's halves.
func TestAMDFP8(t *testing.T) {
	m, err := asm.ParseString("k.ll", amdFP8Kernel)
	if err != nil {
		t.Fatal(err)
	}
	d := New(AMD, Options{Workers: 1})
	k, err := d.Load(m, "k", LoadOptions{NumWarps: 1})
	if err != nil {
		t.Fatal(err)
	}
	nan := float32(math.NaN())
	tests := []struct {
		x        float32
		word     uint32
		fp8, bf8 float32 // bytes 0 and 2 widened
	}{
		{0.5, 0x403CB838, 0.5, 0.5},
		{1000, 0x40688080, nan, 1024},                   // fp8 overflows to NaN; bf8 rounds to 1024
		{1e6, 0x407F8080, nan, 57344},                   // bf8 saturates
		{240, 0x4060FF7F, 240, 256},                     // fp8's largest; bf8's tie goes to the even 256
		{-1.0 / 4096, 0x40900000, 0, -1.0 / 4096},       // below half of fp8's least, 2^-10: +0 for both signs
		{3.0 / 2048, 0x401A8202, 1.0 / 512, 3.0 / 2048}, // 1.5 fp8 quanta: the tie goes to 2
		{float32(math.Inf(1)), 0x40808080, nan, nan},
		{nan, 0x40808080, nan, nan},
	}
	xs := make([]float32, 64)
	for i := range xs {
		xs[i] = tests[i%len(tests)].x
	}
	in, out, back := upload(t, d, xs), upload(t, d, make([]uint32, 64)), upload(t, d, make([]float32, 128))
	if err := k.Launch(driver.Grid{1, 1, 1}, in, out, back); err != nil {
		t.Fatal(err)
	}
	words, floats := download[uint32](t, out), download[float32](t, back)
	same := func(a, b float32) bool {
		return a == b && math.Signbit(float64(a)) == math.Signbit(float64(b)) || a != a && b != b
	}
	for l := range 64 {
		tc := tests[l%len(tests)]
		if words[l] != tc.word || !same(floats[2*l], tc.fp8) || !same(floats[2*l+1], tc.bf8) {
			t.Errorf("lane %d, x = %v: 0x%08x, widened %v and %v; want 0x%08x, %v and %v", l, tc.x, words[l], floats[2*l], floats[2*l+1], tc.word, tc.fp8, tc.bf8)
		}
	}
}
