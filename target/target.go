// Package target describes the GPU that a kernel is compiled for: the facts that lowering
// consults (warp size, shared memory, matrix-multiply shapes). It is the only place where
// such facts live.
//
// A Target is named as triton.tools.compile's -t flag names it: "cuda:90", "cuda:90:32",
// "cuda:sm_90a", "hip:gfx942:64".
package target

import (
	"fmt"
	"strconv"
	"strings"
)

// Backend is the GPU vendor's toolchain: CUDA or HIP.
type Backend string

// The supported backends.
const (
	CUDA Backend = "cuda"
	HIP  Backend = "hip"
)

// MMAKind is a family of tensor-core matrix instructions.
type MMAKind string

// The matrix instruction families that lowering knows.
const (
	// MMASync is NVIDIA's warp-level mma.sync (sm_80 and later).
	MMASync MMAKind = "mma.sync"
	// MFMA is AMD's matrix fused multiply-add (CDNA).
	MFMA MMAKind = "mfma"
	// WGMMA is NVIDIA's warpgroup-level wgmma.mma_async (sm_90a): four warps compute
	// M = 64 rows, N up to 256 (the largest shape is listed), reading B, and A unless it
	// comes from registers, from shared memory.
	WGMMA MMAKind = "wgmma"
)

// MMAShape is one matrix instruction shape: an M×N×K product of A (M×K, type In) and
// B (K×N, type In) accumulated into an M×N tile of type Acc, executed by one warp (by a
// warpgroup of four for WGMMA).
type MMAShape struct {
	Kind    MMAKind
	M, N, K int
	In, Acc string // element types as tile IR names them: "f16", "bf16", "f32" (tf32), "f8E4M3FN" ...
}

// Target is one GPU architecture.
type Target struct {
	Backend Backend
	// Arch is the architecture as its vendor names it: "sm_90a", "sm_80", "gfx942".
	Arch string
	// Capability is NVIDIA's compute capability times ten (90 for sm_90); 0 for AMD.
	Capability int
	// WarpSize is the number of threads in a warp (32) or wavefront (64 on CDNA).
	WarpSize int
	// NumSMs is the number of streaming multiprocessors (or compute units) of the
	// reference part of this architecture (H200 for sm_90, A100 for sm_80, MI300X for gfx942).
	NumSMs int
	// SharedPerBlock is the most shared memory (LDS) one block may use, in bytes.
	SharedPerBlock int
	// MMA lists the matrix instruction shapes available, best first.
	MMA []MMAShape
}

// String returns the target in triton.tools.compile's syntax: "cuda:90:32".
func (t Target) String() string {
	if t.Backend == CUDA {
		return fmt.Sprintf("cuda:%d:%d", t.Capability, t.WarpSize)
	}
	return fmt.Sprintf("%s:%s:%d", t.Backend, t.Arch, t.WarpSize)
}

// IsNVIDIA reports whether t is a CUDA target.
func (t Target) IsNVIDIA() bool { return t.Backend == CUDA }

// JITNumStages is the num_stages a launch compiles with when neither it nor an autotune
// config gives one: the backend's default (Triton 3.6's CUDAOptions 3, HIPOptions 2).
func (t Target) JITNumStages() int {
	if t.Backend == HIP {
		return 2
	}
	return 3
}

// HasMMA reports whether t has a matrix instruction of kind with inputs of type in.
func (t Target) HasMMA(kind MMAKind, in string) (MMAShape, bool) {
	for _, s := range t.MMA {
		if s.Kind == kind && s.In == in {
			return s, true
		}
	}
	return MMAShape{}, false
}

// Default is the H200: cuda:90:32.
var Default = mustParse("cuda:90:32")

func mustParse(s string) Target {
	t, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return t
}

// Parse reads a target in triton.tools.compile's -t syntax: backend:arch[:warpsize].
// The arch of a CUDA target is a compute capability ("90", "sm_90", "sm_90a", "80");
// of a HIP target a gfx name ("gfx90a", "gfx942"). The warp size, when given, must be
// the architecture's own.
func Parse(s string) (Target, error) {
	parts := strings.Split(strings.TrimSpace(s), ":")
	if len(parts) < 2 || len(parts) > 3 {
		return Target{}, fmt.Errorf("target %q: want backend:arch[:warpsize], e.g. cuda:90:32 or hip:gfx942:64", s)
	}
	var t Target
	var err error
	switch Backend(parts[0]) {
	case CUDA:
		t, err = cudaTarget(parts[1])
	case HIP:
		t, err = hipTarget(parts[1])
	default:
		return Target{}, fmt.Errorf("target %q: unknown backend %q (want cuda or hip)", s, parts[0])
	}
	if err != nil {
		return Target{}, fmt.Errorf("target %q: %v", s, err)
	}
	if len(parts) == 3 {
		ws, err := strconv.Atoi(parts[2])
		if err != nil || ws != t.WarpSize {
			return Target{}, fmt.Errorf("target %q: warp size %q, but %s has %d", s, parts[2], t.Arch, t.WarpSize)
		}
	}
	return t, nil
}

// cudaArchs holds the facts of the NVIDIA architectures that gotriton targets.
var cudaArchs = map[int]struct{ sms, smem int }{
	80:  {108, 166912}, // A100
	86:  {84, 101376},  // RTX 3090 / A10
	89:  {128, 101376}, // L40 / RTX 4090
	90:  {132, 232448}, // H100 / H200 SXM
	100: {148, 232448}, // B200
}

func cudaTarget(arch string) (Target, error) {
	name := strings.TrimPrefix(arch, "sm_")
	suffix := ""
	if strings.HasSuffix(name, "a") {
		name, suffix = strings.TrimSuffix(name, "a"), "a"
	}
	cc, err := strconv.Atoi(name)
	if err != nil {
		return Target{}, fmt.Errorf("bad compute capability %q", arch)
	}
	facts, ok := cudaArchs[cc]
	if !ok {
		return Target{}, fmt.Errorf("unsupported compute capability %d (want 80, 86, 89, 90 or 100)", cc)
	}
	if suffix == "" && cc >= 90 {
		suffix = "a" // Triton compiles sm_90 and sm_100 kernels for sm_90a and sm_100a
	}
	t := Target{Backend: CUDA, Arch: fmt.Sprintf("sm_%d%s", cc, suffix), Capability: cc, WarpSize: 32,
		NumSMs: facts.sms, SharedPerBlock: facts.smem}
	t.MMA = []MMAShape{
		{MMASync, 16, 8, 16, "f16", "f32"},
		{MMASync, 16, 8, 16, "bf16", "f32"},
		{MMASync, 16, 8, 8, "f32", "f32"}, // tf32
		{MMASync, 16, 8, 16, "f16", "f16"},
		{MMASync, 16, 8, 32, "i8", "i32"},
	}
	if cc >= 89 {
		t.MMA = append(t.MMA,
			MMAShape{MMASync, 16, 8, 32, "f8E4M3FN", "f32"},
			MMAShape{MMASync, 16, 8, 32, "f8E5M2", "f32"})
	}
	if cc == 90 {
		t.MMA = append([]MMAShape{
			{WGMMA, 64, 256, 16, "f16", "f32"},
			{WGMMA, 64, 256, 16, "bf16", "f32"},
			{WGMMA, 64, 256, 8, "f32", "f32"}, // tf32
			{WGMMA, 64, 256, 16, "f16", "f16"},
			{WGMMA, 64, 256, 32, "f8E4M3FN", "f32"},
			{WGMMA, 64, 256, 32, "f8E5M2", "f32"},
			{WGMMA, 64, 256, 32, "f8E4M3FN", "f16"},
			{WGMMA, 64, 256, 32, "f8E5M2", "f16"},
			{WGMMA, 64, 224, 32, "i8", "i32"},
		}, t.MMA...)
	}
	return t, nil
}

// hipArchs holds the facts of the AMD CDNA architectures that gotriton targets.
var hipArchs = map[string]struct{ cus int }{
	"gfx90a": {110}, // MI210/MI250X (per GCD)
	"gfx942": {304}, // MI300X
	"gfx950": {256}, // MI355X
}

func hipTarget(arch string) (Target, error) {
	facts, ok := hipArchs[arch]
	if !ok {
		return Target{}, fmt.Errorf("unsupported AMD architecture %q (want gfx90a, gfx942 or gfx950)", arch)
	}
	t := Target{Backend: HIP, Arch: arch, WarpSize: 64, NumSMs: facts.cus, SharedPerBlock: 65536}
	if arch == "gfx950" {
		t.SharedPerBlock = 163840
	}
	t.MMA = []MMAShape{
		{MFMA, 32, 32, 8, "f16", "f32"},
		{MFMA, 32, 32, 8, "bf16", "f32"},
		{MFMA, 32, 32, 2, "f32", "f32"},
	}
	switch arch {
	case "gfx942":
		t.MMA = append(t.MMA, MMAShape{MFMA, 32, 32, 16, "f8E4M3FNUZ", "f32"}, MMAShape{MFMA, 32, 32, 16, "f8E5M2FNUZ", "f32"})
	case "gfx950": // CDNA4 takes the OCP fp8 formats
		t.MMA = append(t.MMA, MMAShape{MFMA, 32, 32, 64, "f8E4M3FN", "f32"}, MMAShape{MFMA, 32, 32, 64, "f8E5M2", "f32"})
	}
	return t, nil
}

// HasTMA reports whether t has the Tensor Memory Accelerator (sm_90 and later). On such a
// target a host-side tensor descriptor parameter is a CUtensorMap passed by value, as
// Triton 3.6 passes it, and descriptor loads and stores are TMA copies.
func (t Target) HasTMA() bool { return t.Backend == CUDA && t.Capability >= 90 }

// DotInputPrecisions are the input_precision values tl.dot accepts for t, in the order
// Triton 3.6's backend options list them (allowed_dot_input_precisions): NVIDIA's five;
// AMD's ieee, bf16x3 and bf16x6, with tf32 (XF32) added and the list sorted on CDNA3.
func (t Target) DotInputPrecisions() []string {
	switch {
	case t.IsNVIDIA():
		return []string{"tf32", "tf32x3", "ieee", "bf16x3", "bf16x6"}
	case t.Arch == "gfx942":
		return []string{"bf16x3", "bf16x6", "ieee", "tf32"}
	default:
		return []string{"ieee", "bf16x3", "bf16x6"}
	}
}
