package ptx

import (
	"strings"
	"testing"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
)

// TestBuiltModule compiles a module made with llir/llvm's builder, as the
// lower package makes them (no textual IR, unnamed values, debug locations
// attached in Go), and checks the interesting lines.
func TestBuiltModule(t *testing.T) {
	m := ir.NewModule()
	m.DataLayout = "e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
	gptr := types.NewPointer(types.Float)
	gptr.AddrSpace = 1
	x, y := ir.NewParam("", gptr), ir.NewParam("", gptr)
	n := ir.NewParam("", types.I32)
	f := m.NewFunc("scale", types.Void, x, y, n)
	f.CallingConv = enum.CallingConvPTXKernel
	f.FuncAttrs = append(f.FuncAttrs, ir.AttrPair{Key: "nvvm.reqntid", Value: "128"})
	tid := m.NewFunc("llvm.nvvm.read.ptx.sreg.tid.x", types.I32)

	file := &metadata.DIFile{MetadataID: -1, Filename: "k.py", Directory: "/src"}
	sp := &metadata.DISubprogram{MetadataID: -1, Name: "scale", File: file}
	at := func(line int64) ir.Metadata {
		return ir.Metadata{{Name: "dbg", Node: &metadata.DILocation{MetadataID: -1, Line: line, Column: 5, Scope: sp}}}
	}

	entry, body, exit := f.NewBlock(""), f.NewBlock(""), f.NewBlock("")
	i := entry.NewCall(tid)
	i.Metadata = at(3)
	in := entry.NewICmp(enum.IPredSLT, i, n)
	entry.NewCondBr(in, body, exit)
	i64 := body.NewSExt(i, types.I64)
	px := body.NewGetElementPtr(types.Float, x, i64)
	v := body.NewLoad(types.Float, px)
	v.Align = 4
	v.Metadata = at(4)
	w := body.NewFMul(v, constant.NewFloat(types.Float, 2))
	w.Metadata = at(5)
	py := body.NewGetElementPtr(types.Float, y, i64)
	st := body.NewStore(w, py)
	st.Metadata = at(6)
	body.NewBr(exit)
	exit.NewRet(nil)

	out, err := Compile(m, Options{Arch: "sm_80", PTXVersion: 78})
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		".target sm_80", `.file	1 "/src/k.py"`, ".reqntid 128, 1, 1",
		".loc	1 3 5", "mov.u32 	%r2, %tid.x;", "mul.wide.s32 	%rd3, %r2, 4;",
		".loc	1 4 5", "ld.global.f32 	%f1, [%rd4];", "mul.rn.f32 	%f2, %f1, 0f40000000;",
		".loc	1 6 5", "st.global.f32 	[%rd5], %f2;",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

func TestTemplate(t *testing.T) {
	ops := []string{"%r1", "%rd1", "%p1", "a", "b", "c", "d", "e", "f", "g", "%r9"}
	tmpl := parseTemplate("  @$2 ld.b32 ${0}, [$1+0]; // $$ ${10:x}\n\t\n $3\t\n  {\n")
	var b textBuf
	tmpl.write(&b, ops)
	if want := "\t@%p1 ld.b32 %r1, [%rd1+0]; // $ %r9\n\ta\n\t{\n"; tmpl.check(len(ops)) != nil || string(b.b) != want {
		t.Errorf("template = %q, %v; want %q", b.b, tmpl.check(len(ops)), want)
	}
	for _, bad := range []string{"$", "${1", "$x", "$1"} {
		if err := parseTemplate(bad).check(1); err == nil {
			t.Errorf("template %q did not fail", bad)
		}
	}
}

// TestBuiltModuleError checks errors on a builder-made module, whose values
// have no names.
func TestBuiltModuleError(t *testing.T) {
	m := ir.NewModule()
	f := m.NewFunc("k", types.Void)
	f.CallingConv = enum.CallingConvPTXKernel
	b := f.NewBlock("")
	b.NewVAArg(constant.NewNull(types.NewPointer(types.I8)), types.I32)
	b.NewRet(nil)
	_, err := Compile(m, Options{})
	if err == nil || !strings.Contains(err.Error(), "function @k") || !strings.Contains(err.Error(), "va_arg i8* null, i32: instruction is not supported") {
		t.Fatalf("got %v", err)
	}
}
