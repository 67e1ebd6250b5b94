package aot

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/lower"
	"github.com/gotriton/gotriton/ptx"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
	"github.com/gotriton/gotriton/target"
)

// TritonVersion is the Triton release whose kernel ABI and metadata gotriton follows.
const TritonVersion = "3.6.0"

// Metadata is the kernel metadata Triton 3.6 stores beside a compiled kernel (its cache's
// NAME.json): the CUDAOptions fields, then what the backend learned while compiling, under
// Triton's key names and in Triton's order. Launchers read shared, the scratch sizes,
// num_warps, num_ctas, name and tensordesc_meta. GotritonVersion and Params are gotriton's
// additions.
type Metadata struct {
	Hash                          string           `json:"hash"`
	Target                        TargetMeta       `json:"target"`
	NumWarps                      int              `json:"num_warps"`
	NumCTAs                       int              `json:"num_ctas"`
	NumStages                     int              `json:"num_stages"`
	WarpSize                      int              `json:"warp_size"`
	MaxNReg                       *int             `json:"maxnreg"`
	PTXVersion                    int              `json:"ptx_version"`
	PTXOptions                    *string          `json:"ptx_options"`
	IROverride                    *string          `json:"ir_override"`
	EnableFPFusion                bool             `json:"enable_fp_fusion"`
	EnableReflectFTZ              bool             `json:"enable_reflect_ftz"`
	LaunchCooperativeGrid         bool             `json:"launch_cooperative_grid"`
	LaunchPDL                     bool             `json:"launch_pdl"`
	SupportedFP8Dtypes            []string         `json:"supported_fp8_dtypes"`
	DeprecatedFP8DotOperandDtypes []string         `json:"deprecated_fp8_dot_operand_dtypes"`
	DefaultDotInputPrecision      string           `json:"default_dot_input_precision"`
	AllowedDotInputPrecisions     []string         `json:"allowed_dot_input_precisions"`
	MaxNumImpreciseAccDefault     int              `json:"max_num_imprecise_acc_default"`
	Debug                         bool             `json:"debug"`
	BackendName                   string           `json:"backend_name"`
	SanitizeOverflow              bool             `json:"sanitize_overflow"`
	Arch                          string           `json:"arch"`
	InstrumentationMode           string           `json:"instrumentation_mode"`
	TritonVersion                 string           `json:"triton_version"`
	TensordescMeta                []TensordescMeta `json:"tensordesc_meta"`
	Shared                        int              `json:"shared"`
	TmemSize                      int              `json:"tmem_size"`
	GlobalScratchSize             int              `json:"global_scratch_size"`
	GlobalScratchAlign            int              `json:"global_scratch_align"`
	ProfileScratchSize            int              `json:"profile_scratch_size"`
	ProfileScratchAlign           int              `json:"profile_scratch_align"`
	Name                          string           `json:"name"`
	GotritonVersion               string           `json:"gotriton_version"`
	Params                        []ParamMeta      `json:"params"`
}

// TargetMeta is Triton's GPUTarget: arch is the compute capability (an int) on CUDA and
// the gfx name on HIP.
type TargetMeta struct {
	Backend  string `json:"backend"`
	Arch     any    `json:"arch"`
	WarpSize int    `json:"warp_size"`
}

// TensordescMeta describes the CUtensorMap that the kernel expects for one host tensor
// descriptor parameter, as Triton's launcher reads it (make_tensordesc_arg in
// third_party/nvidia/backend/driver.py): swizzle is the CUtensorMapSwizzle mode, elem_type
// Triton's device-side TMA element type (the launcher maps it to the host enum). On targets
// without TMA, only block_size and elem_bits are given, as Triton gives them.
type TensordescMeta struct {
	Swizzle   *int  `json:"swizzle,omitempty"`
	ElemSize  int   `json:"elem_size,omitempty"`
	ElemType  *int  `json:"elem_type,omitempty"`
	BlockSize []int `json:"block_size"`
	FP4Padded *bool `json:"fp4_padded,omitempty"`
	ElemBits  int   `json:"elem_bits,omitempty"`
}

// ParamMeta is one kernel parameter after specialization. Type is the signature type of a
// runtime parameter ("*fp32", "i32", "tensordesc<fp16[64, 64]>") or "constexpr"; Hint is
// 16 (tt.divisibility) or 1 (folded to the constant 1, as triton.tools.compile does);
// Value is a constexpr's value (a dtype as its name, "fp16").
type ParamMeta struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Hint  int    `json:"hint,omitempty"`
	Value *any   `json:"value,omitempty"` // nil for a runtime parameter
}

// tmaElemTypes are Triton's device-side TMA element types (TMAUtilities.cpp), by dtype. An
// integer type is signless there, so 32- and 64-bit integers are the unsigned codes.
var tmaElemTypes = map[semantic.DType]int{
	semantic.FP16: 6, semantic.FP32: 7, semantic.FP64: 9, semantic.BF16: 10,
}

// tmaElemType returns Triton's TMA element type code for d.
func tmaElemType(d semantic.DType) int {
	if c, ok := tmaElemTypes[d]; ok {
		return c
	}
	return map[int]int{8: 0, 16: 1, 32: 2, 64: 4}[d.Bits()]
}

// NewMetadata describes r, compiled at least to LLVM IR, with the cache key hash.
func NewMetadata(r *compiler.Result, hash string) *Metadata {
	t := r.Target
	md := &Metadata{
		Hash: hash, NumWarps: r.NumWarps, NumCTAs: 1, NumStages: r.NumStages, WarpSize: t.WarpSize,
		EnableFPFusion: !r.NoFPFusion, EnableReflectFTZ: !r.NoReflectFTZ,
		DefaultDotInputPrecision: "tf32", AllowedDotInputPrecisions: t.DotInputPrecisions(),
		Debug: r.Debug, BackendName: string(t.Backend), SanitizeOverflow: true, TritonVersion: TritonVersion,
		TensordescMeta: []TensordescMeta{},
		Shared:         r.Meta.SharedBytes, GlobalScratchSize: r.Meta.GlobalScratchSize, GlobalScratchAlign: 1,
		ProfileScratchSize: r.Meta.ProfileScratchSize, ProfileScratchAlign: 1,
		Name: r.Meta.Name, GotritonVersion: Version(), Params: []ParamMeta{},
	}
	if a := r.Meta.GlobalScratchAlign; a > 0 {
		md.GlobalScratchAlign = a
	}
	if t.IsNVIDIA() {
		md.Target = TargetMeta{Backend: "cuda", Arch: t.Capability, WarpSize: t.WarpSize}
		md.PTXVersion = ptx.DefaultPTXVersion
		if n := r.MaxNReg; n > 0 {
			md.MaxNReg = &n
		}
		md.Arch = fmt.Sprintf("sm%d", t.Capability)
		md.SupportedFP8Dtypes = []string{"fp8e4b15", "fp8e5"}
		if t.Capability >= 89 {
			md.SupportedFP8Dtypes = []string{"fp8e4b15", "fp8e4nv", "fp8e5"}
		}
		md.DeprecatedFP8DotOperandDtypes = []string{}
		if t.Capability >= 90 {
			md.DeprecatedFP8DotOperandDtypes = []string{"fp8e4b15"}
		}
		if t.Capability == 90 {
			md.MaxNumImpreciseAccDefault = 1 << 30
		}
	} else {
		md.Target = TargetMeta{Backend: string(t.Backend), Arch: t.Arch, WarpSize: t.WarpSize}
		md.Arch = t.Arch
	}
	if r.Spec != nil {
		for _, p := range r.Spec.Params {
			md.Params = append(md.Params, paramMeta(p))
			if d, ok := p.Entry.Type.(*semantic.DescType); ok {
				tm := tensorMap(r.Meta.TensorMaps, len(md.TensordescMeta), d)
				md.TensordescMeta = append(md.TensordescMeta, descMeta(d, tm, t))
			}
		}
	}
	return md
}

// paramMeta describes one bound parameter.
func paramMeta(p semantic.BoundParam) ParamMeta {
	e := p.Entry
	if !e.IsConstexpr() {
		return ParamMeta{Name: p.Name, Type: sigType(e), Hint: e.Divisibility}
	}
	v := constexprJSON(e.Value)
	pm := ParamMeta{Name: p.Name, Type: "constexpr", Value: &v}
	if isOneHint(e) {
		pm.Hint = 1
	}
	return pm
}

// sigType is a runtime entry's type as the signature spells it, without its hint.
func sigType(e semantic.SigEntry) string {
	if strings.HasPrefix(e.Text, "tensordesc<") {
		return e.Text
	}
	base, _, _ := strings.Cut(e.Text, ":")
	return strings.TrimSpace(base)
}

// isOneHint reports whether a constexpr entry is a runtime type with the hint :1 ("i32:1"),
// which triton.tools.compile folds to the constant 1 but keeps in the launcher's full
// signature.
func isOneHint(e semantic.SigEntry) bool {
	_, hint, ok := strings.Cut(e.Text, ":")
	return ok && strings.TrimSpace(hint) == "1" && !strings.HasPrefix(e.Text, "'") && !strings.HasPrefix(e.Text, `"`)
}

// constexprJSON is a constexpr's value as JSON: numbers, strings, bools and null as
// themselves, a dtype as its Triton name, a tuple as an array.
func constexprJSON(v semantic.Value) any {
	switch v := v.(type) {
	case semantic.Const:
		return pyeval.JSON(v.V)
	case semantic.DTypeVal:
		return v.T.String()
	case semantic.JITRef:
		return v.J.Fn.Name
	case semantic.Tuple:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = constexprJSON(e)
		}
		return out
	}
	return fmt.Sprint(v)
}

// descMeta describes the tensor map tm that the kernel expects for descriptor type d:
// swizzle is tm's CUtensorMapSwizzle and block_size its box. Without TMA, block_size is
// d's block, as Triton gives it.
func descMeta(d *semantic.DescType, tm lower.TensorMap, t target.Target) TensordescMeta {
	elem, _ := d.Block.Elem.(semantic.DType)
	if !t.HasTMA() {
		return TensordescMeta{BlockSize: blockShape(d), ElemBits: elem.Bits()}
	}
	swizzle, ok := tmaSwizzles[tm.Swizzle]
	if !ok {
		panic(fmt.Sprintf("aot: a tensor map with a swizzle of %d bytes (lower gives 0, 32, 64 or 128)", tm.Swizzle))
	}
	code, padded := tmaElemType(elem), false
	return TensordescMeta{Swizzle: &swizzle, ElemSize: elem.Bits() / 8, ElemType: &code, BlockSize: slices.Clone(tm.Box), FP4Padded: &padded}
}

// JSON returns md indented, with a final newline.
func (md *Metadata) JSON() string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(md); err != nil {
		panic(err) // every field is a plain value
	}
	return b.String()
}
