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
