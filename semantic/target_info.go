package semantic

import (
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/target"
)

// registerTargetInfo registers triton.language.target_info: constexpr functions of the
// target being compiled for, which kernels call to pick an implementation (Triton 3.6
// evaluates them at compile time against the active driver's target).
func registerTargetInfo() {
	def("target_info.current_target", "", func(c *callCtx) Value { return Const{pyeval.GPUTarget(c.target())} })
	def("target_info.is_cuda", "", func(c *callCtx) Value { return Const{pyeval.Bool(c.target().IsNVIDIA())} })
	def("target_info.is_hip", "", func(c *callCtx) Value { return Const{pyeval.Bool(c.target().Backend == target.HIP)} })
	def("target_info.is_hip_cdna3", "", func(c *callCtx) Value { return Const{pyeval.Bool(c.target().Arch == "gfx942")} })
	def("target_info.is_hip_cdna4", "", func(c *callCtx) Value { return Const{pyeval.Bool(c.target().Arch == "gfx950")} })
	def("target_info.cuda_capability_geq", "major, minor=0", func(c *callCtx) Value {
		t := c.target()
		return Const{pyeval.Bool(t.IsNVIDIA() && int64(t.Capability) >= c.constInt("major")*10+c.constInt("minor"))}
	})
}

// target is the target the kernel is compiled for.
func (c *callCtx) target() target.Target {
	if t, err := target.Parse(c.g.opts.Target); err == nil {
		return t
	}
	return target.Default
}
