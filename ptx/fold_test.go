package ptx

import (
	"strings"
	"testing"

	"github.com/llir/llvm/asm"
)

// compileChecked compiles an LLVM IR module to PTX with the default options and checks
// the result with Check; any error fails the test.
func compileChecked(t *testing.T, src string) string {
	t.Helper()
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
	return out
}

// kernelLines compiles one kernel written as LLVM IR (the kernel's parameters
// and body; the module header and intrinsic declarations are added) and
// returns its parameter declarations and its instruction lines after the
// parameter loads, trimmed.
func kernelLines(t *testing.T, params, body string) (decls, lines []string) {
	t.Helper()
	src := `target datalayout = "e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
@global_smem = external addrspace(3) global [0 x i8], align 16
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
define ptx_kernel void @k(` + params + `) {
` + body + `
}
`
	out := compileChecked(t, src)
	head, text, _ := strings.Cut(out, "\n{\n") // the kernel's body
	_, text, _ = strings.Cut(text, "\n\n")     // after the .reg declarations
	_, head, _ = strings.Cut(head, ".entry k(\n")
	head, _, _ = strings.Cut(head, "\n)")
	for _, l := range strings.Split(head, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			decls = append(decls, l)
		}
	}
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l == "}" || strings.HasPrefix(l, "ld.param") {
			continue
		}
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	return decls, lines
}

// TestEmittedLines checks the exact instructions of small kernels, one per
// rule that keeps emitter artefacts out of the PTX.
func TestEmittedLines(t *testing.T) {
	for _, tc := range []struct {
		name, params, body string
		decls              []string // the parameter declarations, when not nil
		want               []string
	}{{
		name:   "a loop-carried phi dies at its tied asm operand though the code after the loop reads it",
		params: "float addrspace(1)* %p, i32 %n",
		body: `  br label %h
h:
  %acc = phi float [ 0.0, %0 ], [ %next, %body ]
  %i = phi i32 [ 0, %0 ], [ %i1, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %next = call float asm sideeffect "add.f32 $0, $0, 0f3F800000;", "=f,0"(float %acc)
  %i1 = add i32 %i, 1
  br label %h
exit:
  store float %acc, float addrspace(1)* %p, align 4
  ret void`,
		want: []string{
			"mov.f32 %f1, 0f00000000;",
			"mov.b32 %r2, 0;",
			"$L__BB0_1:",
			"setp.lt.s32 %p1, %r2, %r1;",
			"@!%p1 bra $L__BB0_3;",
			"$L__BB0_2:",
			"// begin inline asm",
			"add.f32 %f1, %f1, 0f3F800000;", // no mov into a register of its own
			"// end inline asm",
			"add.s32 %r3, %r2, 1;",
			"mov.b32 %r2, %r3;",
			"bra.uni $L__BB0_1;",
			"$L__BB0_3:",
			"st.global.f32 [%rd1], %f1;",
			"ret;",
		},
	}, {
		name:   "a phi read after its tied asm operand keeps its register",
		params: "float addrspace(1)* %p, i32 %n",
		body: `  br label %h
h:
  %acc = phi float [ 0.0, %0 ], [ %next, %body ]
  %i = phi i32 [ 0, %0 ], [ %i1, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %next = call float asm sideeffect "add.f32 $0, $0, 0f3F800000;", "=f,0"(float %acc)
  store float %acc, float addrspace(1)* %p, align 4
  %i1 = add i32 %i, 1
  br label %h
exit:
  store float %acc, float addrspace(1)* %p, align 4
  ret void`,
		want: []string{
			"mov.f32 %f1, 0f00000000;",
			"mov.b32 %r2, 0;",
			"$L__BB0_1:",
			"setp.lt.s32 %p1, %r2, %r1;",
			"@!%p1 bra $L__BB0_3;",
			"$L__BB0_2:",
			"mov.f32 %f2, %f1;",
			"// begin inline asm",
			"add.f32 %f2, %f2, 0f3F800000;",
			"// end inline asm",
			"st.global.f32 [%rd1], %f1;",
			"add.s32 %r3, %r2, 1;",
			"mov.f32 %f1, %f2;",
			"mov.b32 %r2, %r3;",
			"bra.uni $L__BB0_1;",
			"$L__BB0_3:",
			"st.global.f32 [%rd1], %f1;",
			"ret;",
		},
	}, {
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
	}, {
		name:   "constant index offsets fold into [reg+imm] on one base+index*stride register",
		params: "i32 %x",
		body: `  %s = bitcast [0 x i8] addrspace(3)* @global_smem to half addrspace(3)*
  %i1 = add i32 %x, 64
  %p1 = getelementptr half, half addrspace(3)* %s, i32 %i1
  %a = load half, half addrspace(3)* %p1, align 2
  %i2 = add i32 %x, -4
  %p2 = getelementptr half, half addrspace(3)* %s, i32 %i2
  store half %a, half addrspace(3)* %p2, align 2
  %p3 = getelementptr half, half addrspace(3)* %s, i32 %x
  %v = bitcast half addrspace(3)* %p3 to <2 x half> addrspace(3)*
  %b = load <2 x half>, <2 x half> addrspace(3)* %v, align 4
  %p4 = getelementptr half, half addrspace(3)* %s, i32 8
  %c = extractelement <2 x half> %b, i32 1
  store half %c, half addrspace(3)* %p4, align 2
  ret void`,
		want: []string{
			"mov.u32 %r2, global_smem;",
			"shl.b32 %r3, %r1, 1;",
			"add.s32 %r4, %r2, %r3;",
			"ld.shared.b16 %h1, [%r4+128];",
			"st.shared.b16 [%r4+-8], %h1;",
			"ld.shared.v2.b16 {%h2, %h3}, [%r4];",
			"st.shared.b16 [%r2+16], %h3;",
			"ret;",
		},
	}, {
		name:   "an i32 index extended to i64 folds into mul.wide, shared by the geps of a block",
		params: "float addrspace(1)* %p, float addrspace(1)* %q, i32 %x",
		body: `  %w = sext i32 %x to i64
  %pp = getelementptr float, float addrspace(1)* %p, i64 %w
  %a = load float, float addrspace(1)* %pp, align 4
  %qq = getelementptr float, float addrspace(1)* %q, i64 %w
  store float %a, float addrspace(1)* %qq, align 4
  ret void`,
		want: []string{
			"mul.wide.s32 %rd3, %r1, 4;",
			"add.s64 %rd4, %rd1, %rd3;",
			"ld.global.f32 %f1, [%rd4];",
			"add.s64 %rd5, %rd2, %rd3;",
			"st.global.f32 [%rd5], %f1;",
			"ret;",
		},
	}, {
		name:   "a gep with a use other than an address is computed, once",
		params: "i32 addrspace(1)* %out, i32 %x",
		body: `  %s = bitcast [0 x i8] addrspace(3)* @global_smem to i32 addrspace(3)*
  %i = add i32 %x, 2
  %p = getelementptr i32, i32 addrspace(3)* %s, i32 %i
  %v = load i32, i32 addrspace(3)* %p, align 4
  %n = ptrtoint i32 addrspace(3)* %p to i32
  %r = add i32 %v, %n
  store i32 %r, i32 addrspace(1)* %out, align 4
  ret void`,
		want: []string{
			"mov.u32 %r2, global_smem;",
			"shl.b32 %r3, %r1, 2;",
			"add.s32 %r4, %r2, %r3;",
			"add.s32 %r5, %r4, 8;",
			"ld.shared.b32 %r6, [%r5];",
			"add.s32 %r7, %r6, %r5;",
			"st.global.b32 [%rd1], %r7;",
			"ret;",
		},
	}, {
		name:   "an index add with another use is emitted once and still folded",
		params: "i32 addrspace(1)* %out, i32 %x",
		body: `  %s = bitcast [0 x i8] addrspace(3)* @global_smem to i32 addrspace(3)*
  %i = add i32 %x, 2
  %p = getelementptr i32, i32 addrspace(3)* %s, i32 %i
  %v = load i32, i32 addrspace(3)* %p, align 4
  %r = add i32 %v, %i
  store i32 %r, i32 addrspace(1)* %out, align 4
  ret void`,
		want: []string{
			"mov.u32 %r2, global_smem;",
			"add.s32 %r3, %r1, 2;",
			"shl.b32 %r4, %r1, 2;",
			"add.s32 %r5, %r2, %r4;",
			"ld.shared.b32 %r6, [%r5+8];",
			"add.s32 %r7, %r6, %r3;",
			"st.global.b32 [%rd1], %r7;",
			"ret;",
		},
	}, {
		name:   "a byval parameter is a .param array whose generic address is taken once",
		params: `i8* byval([128 x i8]) align 64 "nvvm.grid_constant" %desc, i32 addrspace(1)* %p`,
		body: `  %v = load i32, i32 addrspace(1)* %p, align 4
  call void asm sideeffect "prefetch.tensormap [$0];", "l"(i8* %desc)
  %q = bitcast i8* %desc to i32*
  %w = load i32, i32* %q, align 4
  %s = add i32 %v, %w
  store i32 %s, i32 addrspace(1)* %p, align 4
  ret void`,
		decls: []string{
			".param .align 64 .b8 k_param_0[128],",
			".param .u64 .ptr .global .align 1 k_param_1",
		},
		want: []string{
			"mov.b64 %rd1, k_param_0;",
			"cvta.param.u64 %rd2, %rd1;",
			"ld.global.b32 %r1, [%rd3];",
			"// begin inline asm",
			"prefetch.tensormap [%rd2];",
			"// end inline asm",
			"ld.b32 %r2, [%rd2];",
			"add.s32 %r3, %r1, %r2;",
			"st.global.b32 [%rd3], %r3;",
			"ret;",
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			decls, got := kernelLines(t, tc.params, tc.body)
			if tc.decls != nil && strings.Join(decls, "\n") != strings.Join(tc.decls, "\n") {
				t.Errorf("got declarations:\n\t%s\nwant:\n\t%s", strings.Join(decls, "\n\t"), strings.Join(tc.decls, "\n\t"))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
		})
	}
}
