package simt

import (
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
