package ptx

import (
	"strings"
	"testing"

	"github.com/llir/llvm/asm"
)

// bodyLines compiles one kernel written as LLVM IR (the kernel's parameters
// and body; the module header and intrinsic declarations are added) and
// returns its instruction lines, trimmed, after the parameter loads.
func bodyLines(t *testing.T, params, body string) []string {
	t.Helper()
	src := `target datalayout = "e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
@global_smem = external addrspace(3) global [0 x i8], align 16
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
define ptx_kernel void @k(` + params + `) {
` + body + `
}
`
	m, err := asm.ParseString("k.ll", src)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Compile(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(out); err != nil {
		t.Fatal(err)
	}
	_, text, _ := strings.Cut(out, "\n{\n") // the kernel's body
	_, text, _ = strings.Cut(text, "\n\n")  // after the .reg declarations
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l == "}" || strings.HasPrefix(l, "ld.param") {
			continue
		}
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	return lines
}

// TestEmittedLines checks the exact instructions of small kernels, one per
// rule that keeps emitter artefacts out of the PTX.
func TestEmittedLines(t *testing.T) {
	for _, tc := range []struct {
		name, params, body string
		want               []string
	}{{
		name:   "undef lanes overwritten by insertelement cost nothing",
		params: "i32 addrspace(1)* %p, half %a, half %b",
		body: `  %v0 = insertelement <2 x half> undef, half %a, i32 0
  %v1 = insertelement <2 x half> %v0, half %b, i32 1
  %w = bitcast <2 x half> %v1 to i32
  store i32 %w, i32 addrspace(1)* %p, align 4
  ret void`,
		want: []string{
			"mov.b32 %r1, {%h1, %h2};",
			"st.global.b32 [%rd1], %r1;",
			"ret;",
		},
	}, {
		name:   "an undef lane that is read takes the inserted element",
		params: "i32 addrspace(1)* %p, half %a, half %b",
		body: `  %v0 = insertelement <2 x half> undef, half %a, i32 0
  %w0 = bitcast <2 x half> %v0 to i32
  store i32 %w0, i32 addrspace(1)* %p, align 4
  %v1 = insertelement <2 x half> undef, half %b, i32 1
  %w1 = bitcast <2 x half> %v1 to i32
  store i32 %w1, i32 addrspace(1)* %p, align 4
  ret void`,
		want: []string{
			"mov.b32 %r1, {%h1, %h1};",
			"st.global.b32 [%rd1], %r1;",
			"mov.b32 %r2, {%h2, %h2};",
			"st.global.b32 [%rd1], %r2;",
			"ret;",
		},
	}, {
		name:   "undef and f16 constants and globals are materialized once, in the prologue",
		params: "half addrspace(3)* %q",
		body: `  %s = bitcast [0 x i8] addrspace(3)* @global_smem to half addrspace(3)*
  store half 0xH3C00, half addrspace(3)* %s, align 2
  %c = icmp eq half addrspace(3)* %q, null
  br i1 %c, label %a, label %b
a:
  %t = bitcast [0 x i8] addrspace(3)* @global_smem to half addrspace(3)*
  store half 0xH3C00, half addrspace(3)* %t, align 2
  br label %b
b:
  %u = bitcast [0 x i8] addrspace(3)* @global_smem to half addrspace(3)*
  store half undef, half addrspace(3)* %u, align 2
  ret void`,
		want: []string{
			"mov.u32 %r2, global_smem;",
			"mov.b16 %h1, 0x3C00;",
			"mov.b16 %h2, 0x0000;",
			"st.shared.b16 [%r2], %h1;",
			"setp.eq.u32 %p1, %r1, 0;",
			"@!%p1 bra $L__BB0_2;",
			"$L__BB0_1:",
			"st.shared.b16 [%r2], %h1;",
			"$L__BB0_2:",
			"st.shared.b16 [%r2], %h2;",
			"ret;",
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := bodyLines(t, tc.params, tc.body)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
		})
	}
}
