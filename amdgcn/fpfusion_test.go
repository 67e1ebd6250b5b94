package amdgcn

import (
	"regexp"
	"testing"
)

// mulAdd is x * 1.5 + 1.0 over one float per work-item (Triton's test_enable_fp_fusion).
const mulAdd = `target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @mul_add(ptr addrspace(1) inreg %p) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr float, ptr addrspace(1) %p, i32 %tid
  %x = load float, ptr addrspace(1) %q, align 4
  %m = fmul float %x, 1.5
  %s = fadd float %m, 1.0
  store float %s, ptr addrspace(1) %q, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
`

// TestFPFusion compiles mulAdd with Triton's enable_fp_fusion on (the default: one fused
// multiply-add) and off (NoFPFusion: a multiply and an add).
func TestFPFusion(t *testing.T) {
	needTools(t)
	fma := regexp.MustCompile(`(?m)^\s*v_(fma|fmac|fmamk|fmaak|mad|madmk|madak)\w*_f32`)
	mul, add := regexp.MustCompile(`(?m)^\s*v_mul_f32`), regexp.MustCompile(`(?m)^\s*v_add_f32`)
	for _, arch := range []string{"gfx90a", "gfx942"} {
		for _, off := range []bool{false, true} {
			asm, err := Assembly(mulAdd, hip(t, arch), Options{Name: "mul_add.ll", NoFPFusion: off})
			if err != nil {
				t.Fatal(err)
			}
			fused, split := fma.MatchString(asm), mul.MatchString(asm) && add.MatchString(asm)
			if fused == off || split != off {
				t.Errorf("%s, NoFPFusion %v: fused multiply-add %v, v_mul_f32 and v_add_f32 %v:\n%s", arch, off, fused, split, asm)
			}
		}
	}
}
