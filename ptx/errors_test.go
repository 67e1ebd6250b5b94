package ptx

import (
	"strconv"
	"strings"
	"testing"

	"github.com/llir/llvm/asm"
)

// TestUnsupported checks that IR outside the accepted subset is a clear
// error naming the function and the instruction or intrinsic, never a panic.
func TestUnsupported(t *testing.T) {
	const head = "target datalayout = \"e-p3:32:32-i64:64\"\n"
	tests := []struct {
		name, body, want string
	}{
		{"alloca outside the entry block", `define ptx_kernel void @k() {
  br label %b
b:
  %a = alloca i32
  ret void
}`, "@k: %a = alloca i32: alloca outside the entry block is not supported"},
		{"extern call with a 16-bit argument", `declare i32 @f(i16)
define ptx_kernel void @k(i16 %x) {
  %r = call i32 @f(i16 %x)
  ret void
}`, "function @f: parameter 0: i16: only 32- and 64-bit scalars and pointers are passed to external functions"},
		{"unknown intrinsic", `declare float @llvm.nvvm.fancy.f(float)
define ptx_kernel void @k(float %x) {
  %y = call float @llvm.nvvm.fancy.f(float %x)
  ret void
}`, "@k: %y = call float @llvm.nvvm.fancy.f(float %x): intrinsic @llvm.nvvm.fancy.f is not supported"},
		{"device call", `define void @helper() {
  ret void
}
define ptx_kernel void @k() {
  call void @helper()
  ret void
}`, "function @helper: only kernels"},
		{"half fdiv", `define ptx_kernel void @k(half %x) {
  %y = fdiv half %x, %x
  ret void
}`, "fdiv on half is not supported"},
		{"dynamic extractelement", `define ptx_kernel void @k(<4 x i32> addrspace(1)* %p, i32 %i) {
  %v = load <4 x i32>, <4 x i32> addrspace(1)* %p
  %e = extractelement <4 x i32> %v, i32 %i
  ret void
}`, "extractelement needs a constant index"},
		{"i128", `define ptx_kernel void @k(i128 %x) {
  ret void
}`, "@k: parameter 0: type i128 has no PTX register class"},
		{"asm constraint", `define ptx_kernel void @k(i32 %x) {
  call void asm sideeffect "st.u32 [$0], 0;", "m"(i32 %x)
  ret void
}`, `inline asm input constraint "m" is not supported`},
		{"asm operand", `define ptx_kernel void @k(i32 %x) {
  call void asm sideeffect "mov.u32 $1, 0;", "r"(i32 %x)
  ret void
}`, "refers to operand $1 of 1"},
		{"bitcast i1 vector", `define ptx_kernel void @k(i8 %x) {
  %v = bitcast i8 %x to <8 x i1>
  ret void
}`, "bitcast from 1 x i8 to 8 x i1 is not supported"},
		{"return value", `define ptx_kernel i32 @k(i32 %x) {
  ret i32 %x
}`, "kernels must return void"},
		{"byval without grid_constant", `define ptx_kernel void @k(i8* byval([128 x i8]) align 64 %d) {
  ret void
}`, `@k: parameter 0: byval parameter without "nvvm.grid_constant" is not supported`},
		{"byval non-pointer", `define ptx_kernel void @k(i8 addrspace(1)* byval(i8) "nvvm.grid_constant" %d) {
  ret void
}`, "@k: parameter 0: byval parameter of type i8 addrspace(1)* is not supported (want a 64-bit generic pointer)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := asm.ParseString(tc.name, head+tc.body)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			_, err = Compile(m, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestOptions(t *testing.T) {
	m, err := asm.ParseString("empty", `define ptx_kernel void @k() {
  ret void
}
define ptx_kernel void @b(i8* byval([128 x i8]) align 64 "nvvm.grid_constant" %d) {
  ret void
}
`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		opts Options
		want string // in the PTX, or in the error
		fail bool
	}{
		{Options{}, ".version 8.4\n.target sm_90a\n", false},
		{Options{Arch: "sm_80", PTXVersion: 78}, ".version 7.8\n.target sm_80\n", false},
		{Options{Arch: "sm_90", PTXVersion: 87}, ".version 8.7\n.target sm_90\n", false},
		{Options{Arch: "sm_90a", PTXVersion: 78}, "sm_90a needs PTX ISA 8.0 or later", true},
		{Options{Arch: "sm_75"}, `unsupported architecture "sm_75"`, true},
		{Options{Arch: "sm_80", PTXVersion: 77}, ".param .align 64 .b8 b_param_0[128]", false},
		{Options{Arch: "sm_80", PTXVersion: 76}, "@b: parameter 0: byval parameters need PTX ISA 7.7 or later (cvta.param), not 7.6", true},
	} {
		out, err := Compile(m, tc.opts)
		if tc.fail {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%+v: got %v, want error %q", tc.opts, err, tc.want)
			}
			continue
		}
		if err != nil || !strings.Contains(out, tc.want) {
			t.Errorf("%+v: got %q, %v; want %q", tc.opts, out, err, tc.want)
		}
	}
}

func TestHalfBits(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want uint16
	}{
		{1, 0x3c00}, {0.5, 0x3800}, {-2, 0xc000}, {65504, 0x7bff}, {65520, 0x7c00},
		{0x1p-24, 0x0001}, {0x1p-14, 0x0400}, {0.1, 0x2e66}, {1.0009765625, 0x3c01}, {0, 0},
	} {
		if got := halfBits(tc.f); got != tc.want {
			t.Errorf("halfBits(%g) = %#04x, want %#04x", tc.f, got, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r2, %tid.x;\n}\n", "register %r2 is not declared"},
		{"{\n\tbra.uni $L__BB0_9;\n}\n", "undefined label $L__BB0_9"},
		{"{\n{\n}\n", "unbalanced braces"},
		{"{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %ctaid.y;\n$L:\n\tbra.uni $L;\n}\n", ""},
	} {
		err := Check(tc.src)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("Check(%q) = %v, want %q", tc.src, err, tc.want)
		}
	}
}

// TestPanicSite checks that an emitter panic, turned into an error by Compile, names the
// function and line that panicked.
func TestPanicSite(t *testing.T) {
	site := func() (s string) {
		defer func() {
			recover()
			s = panicSite()
		}()
		var p *int
		return strconv.Itoa(*p)
	}()
	if !strings.Contains(site, "TestPanicSite") || !strings.Contains(site, "errors_test.go:") {
		t.Errorf("panicSite() = %q, want the test function and its line", site)
	}
}

// TestRecoveredPanicNamesConstruct checks that an emitter panic (here on an extractelement
// whose constant index is past the vector) comes back as an error naming the kernel, the
// instruction and its source position, before the emitter's own site.
func TestRecoveredPanicNamesConstruct(t *testing.T) {
	src := `target datalayout = "e-p3:32:32-i64:64"
define ptx_kernel void @k() {
  %x = extractelement <4 x float> undef, i32 9, !dbg !4
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!5}
!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "k.py", directory: "/src")
!2 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 1, unit: !0)
!4 = !DILocation(line: 7, column: 9, scope: !2)
!5 = !{i32 2, !"Debug Info Version", i32 3}
`
	m, err := asm.ParseString("k.ll", src)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(m, Options{Arch: "sm_90"})
	want := "ptx: function @k: instruction `%x = extractelement <4 x float> undef, i32 9, !dbg !4` (from /src/k.py:7:9): the PTX emitter failed (a gotriton bug, please report it): runtime error: "
	if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "internal error") {
		t.Errorf("got %v\nwant the prefix %s", err, want)
	}
}
