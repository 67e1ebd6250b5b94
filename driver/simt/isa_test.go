package simt

import (
	"testing"

	"github.com/llir/llvm/asm"

	"github.com/gotriton/gotriton/driver"
)

// wave64 is an ISA table in the shape an AMD one will take (64-lane wavefronts, LDS in
// address space 3, llvm.amdgcn.* intrinsics): the interpreter runs it unchanged.
var wave64 = &ISA{
	Name:     "wave64-test",
	WarpSize: 64,
	Shared:   3,
	Global:   map[int]bool{0: true, 1: true},
	Narrow:   map[int]bool{3: true, 5: true},
	Intrinsics: map[string]intrinsic{
		"llvm.amdgcn.workitem.id.x":  sreg(func(_ *frame, l int) int { return l }),
		"llvm.amdgcn.workgroup.id.x": sreg(func(f *frame, _ int) int { return f.ctaid[0] }),
		"llvm.amdgcn.s.barrier":      barrier,
		"llvm.amdgcn.ds.bpermute":    bpermute,
	},
}

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

func TestWave64ISA(t *testing.T) {
	m, err := asm.ParseString("k.ll", wave64Kernel)
	if err != nil {
		t.Fatal(err)
	}
	d := New(wave64, Options{Workers: 2})
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
	if d.Name() != "simt wave64-test (2 workers)" {
		t.Errorf("name %q", d.Name())
	}
}
