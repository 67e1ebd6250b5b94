package amdgcn

import (
	"testing"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
)

// TestCompileModule compiles an llir/llvm module as package lower builds them (typed
// pointers, which LLVM 22 still reads): out[workitem] = 1.0 in a 64-lane workgroup.
func TestCompileModule(t *testing.T) {
	needTools(t)
	m := ir.NewModule()
	m.TargetTriple = Triple
	global := types.NewPointer(types.Float)
	global.AddrSpace = 1
	out := ir.NewParam("out", global)
	f := m.NewFunc("ones", types.Void, out)
	f.CallingConv = enum.CallingConvAMDGPUKernel
	f.FuncAttrs = append(f.FuncAttrs, ir.AttrPair{Key: "amdgpu-flat-work-group-size", Value: "1,64"})
	tid := m.NewFunc("llvm.amdgcn.workitem.id.x", types.I32)
	b := f.NewBlock("entry")
	i := b.NewZExt(b.NewCall(tid), types.I64)
	p := b.NewGetElementPtr(types.Float, out, i)
	b.NewStore(constant.NewFloat(types.Float, 1), p)
	b.NewRet(nil)

	for _, arch := range []string{"gfx90a", "gfx942"} {
		r, err := CompileModule(m, hip(t, arch), Options{})
		if err != nil {
			t.Fatalf("%s: %v\n%s", arch, err, m)
		}
		k := r.Kernel
		if k.Name != "ones" || k.Symbol != "ones.kd" || k.MaxFlatWorkgroupSize != 64 || k.WavefrontSize != 64 {
			t.Errorf("%s: kernel %+v", arch, k)
		}
		args := k.ExplicitArgs()
		if len(args) != 1 || args[0] != (Arg{Name: "out", Offset: 0, Size: 8, ValueKind: "global_buffer", AddressSpace: "global"}) {
			t.Errorf("%s: explicit args %+v", arch, args)
		}
		if len(k.Args) != len(args) { // opt -O3's attributor finds no use of the implicit arguments
			t.Errorf("%s: hidden arguments %+v in a kernel that reads none", arch, k.Args[len(args):])
		}
	}
}
