package ptx

import (
	"slices"
	"testing"
)

// TestInlineAsmNarrowInts: an i8 operand of an "r" constraint goes zero-extended into a
// 32-bit register, and an i8 result of "=r" is that register's low bits (Triton's
// inline_asm_elementwise with int8 values, test_inline_asm_with_pointers).
func TestInlineAsmNarrowInts(t *testing.T) {
	_, got := kernelLines(t, "i8 addrspace(1)* %p, i8 %x", `
  %y = call i8 asm sideeffect "add.u32 $0, $1, 1;", "=r,r"(i8 %x)
  store i8 %y, i8 addrspace(1)* %p
  ret void`)
	want := []string{
		"cvt.u32.u8 %r2, %rs1;",
		"// begin inline asm",
		"add.u32 %r1, %r2, 1;",
		"// end inline asm",
		"cvt.u16.u32 %rs2, %r1;",
		"st.global.u8 [%rd1], %rs2;",
		"ret;",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// TestTiedAccumulatorStaysInPhi: a loop's accumulator, waited on, scaled and added to by
// tied inline asm (attention's deferred PV wgmma: wait, acc * alpha, wgmma) stays in the
// phi's register from end to end: the fmul writes its operand's register, the tied
// output is that register, and the back edge copies nothing (ptxas serializes wgmma
// whose in-flight accumulator the back edge would copy).
func TestTiedAccumulatorStaysInPhi(t *testing.T) {
	_, got := kernelLines(t, "float addrspace(1)* %p, float %alpha, i32 %n", `
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %acc = phi float [ 0.0, %entry ], [ %next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %done
body:
  %w = call { float } asm sideeffect "wait;", "=f,0"(float %acc)
  %a = extractvalue { float } %w, 0
  %s = fmul float %a, %alpha
  %m = call { float } asm sideeffect "mma $0;", "=f,0"(float %s)
  %next = extractvalue { float } %m, 0
  %i1 = add i32 %i, 1
  br label %head
done:
  store float %acc, float addrspace(1)* %p
  ret void`)
	want := []string{
		"mov.b32 %r2, 0;",
		"mov.f32 %f2, 0f00000000;",
		"$L__BB0_1:",
		"setp.lt.s32 %p1, %r2, %r1;",
		"@!%p1 bra $L__BB0_3;",
		"$L__BB0_2:",
		"// begin inline asm",
		"wait;",
		"// end inline asm",
		"mul.rn.f32 %f2, %f2, %f1;",
		"// begin inline asm",
		"mma %f2;",
		"// end inline asm",
		"add.s32 %r3, %r2, 1;",
		"mov.b32 %r2, %r3;",
		"bra.uni $L__BB0_1;",
		"$L__BB0_3:",
		"st.global.f32 [%rd1], %f2;",
		"ret;",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
