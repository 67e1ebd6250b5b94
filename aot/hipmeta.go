package aot

import (
	"encoding/json"
	"strings"

	"github.com/gotriton/gotriton/amdgcn"
	"github.com/gotriton/gotriton/compiler"
)

// HIPMetadata is the kernel metadata Triton 3.6's hip backend stores beside a code object:
// the HIPOptions fields (third_party/amd/backend/compiler.py) in their order, then what
// make_llir and make_amdgcn learned. ExternLibs is empty where Triton names its ocml and
// ockl bitcode: gotriton links no device library. GotritonVersion, Params and CodeObject
// (the registers, LDS, scratch and kernarg layout read back from the HSACO) are gotriton's.
type HIPMetadata struct {
	Hash                          string           `json:"hash"`
	Target                        TargetMeta       `json:"target"`
	NumWarps                      int              `json:"num_warps"`
	WavesPerEU                    int              `json:"waves_per_eu"`
	NumStages                     int              `json:"num_stages"`
	NumCTAs                       int              `json:"num_ctas"`
	ExternLibs                    [][2]string      `json:"extern_libs"`
	Debug                         bool             `json:"debug"`
	SanitizeOverflow              bool             `json:"sanitize_overflow"`
	Arch                          string           `json:"arch"`
	SupportedFP8Dtypes            []string         `json:"supported_fp8_dtypes"`
	DeprecatedFP8DotOperandDtypes []string         `json:"deprecated_fp8_dot_operand_dtypes"`
	DefaultDotInputPrecision      string           `json:"default_dot_input_precision"`
	AllowedDotInputPrecisions     []string         `json:"allowed_dot_input_precisions"`
	EnableFPFusion                bool             `json:"enable_fp_fusion"`
	LaunchCooperativeGrid         bool             `json:"launch_cooperative_grid"`
	MatrixInstrNonKDim            int              `json:"matrix_instr_nonkdim"`
	KPack                         int              `json:"kpack"`
	AllowFlushDenorm              bool             `json:"allow_flush_denorm"`
	MaxNumImpreciseAccDefault     int              `json:"max_num_imprecise_acc_default"`
	BackendName                   string           `json:"backend_name"`
	InstrumentationMode           string           `json:"instrumentation_mode"`
	ScheduleHint                  string           `json:"schedule_hint"`
	WarpSize                      int              `json:"warp_size"`
	TritonVersion                 string           `json:"triton_version"`
	TensordescMeta                []TensordescMeta `json:"tensordesc_meta"`
	Shared                        int              `json:"shared"`
	GlobalScratchSize             int              `json:"global_scratch_size"`
	GlobalScratchAlign            int              `json:"global_scratch_align"`
	ProfileScratchSize            int              `json:"profile_scratch_size"`
	ProfileScratchAlign           int              `json:"profile_scratch_align"`
	Name                          string           `json:"name"`
	GotritonVersion               string           `json:"gotriton_version"`
	Params                        []ParamMeta      `json:"params"`
	CodeObject                    *amdgcn.Kernel   `json:"code_object,omitempty"`
}

// NewHIPMetadata describes r, compiled for an AMD target (to HSACO for CodeObject), with
// the cache key hash. It shares the target, parameters and descriptors with NewMetadata.
func NewHIPMetadata(r *compiler.Result, hash string) *HIPMetadata {
	md := NewMetadata(r, hash)
	return &HIPMetadata{
		Hash: hash, Target: md.Target, NumWarps: md.NumWarps, NumStages: md.NumStages, NumCTAs: 1,
		ExternLibs: [][2]string{}, Debug: md.Debug, SanitizeOverflow: true, Arch: r.Target.Arch,
		SupportedFP8Dtypes:            []string{"fp8e4b8", "fp8e4nv", "fp8e5", "fp8e5b16"},
		DeprecatedFP8DotOperandDtypes: []string{}, DefaultDotInputPrecision: "ieee", AllowedDotInputPrecisions: r.Target.DotInputPrecisions(),
		EnableFPFusion: md.EnableFPFusion, MatrixInstrNonKDim: r.MatrixInstrNonKDim, KPack: 1, BackendName: "hip", ScheduleHint: "none", WarpSize: r.Target.WarpSize,
		TritonVersion: TritonVersion, TensordescMeta: md.TensordescMeta,
		Shared: md.Shared, GlobalScratchSize: md.GlobalScratchSize, GlobalScratchAlign: 1,
		ProfileScratchSize: md.ProfileScratchSize, ProfileScratchAlign: 1,
		Name: md.Name, GotritonVersion: md.GotritonVersion, Params: md.Params, CodeObject: r.AMDKernel,
	}
}

// JSON returns md indented, with a final newline.
func (md *HIPMetadata) JSON() string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(md); err != nil {
		panic(err) // every field is a plain value
	}
	return b.String()
}

// MetadataJSON is the kernel's metadata JSON for its backend: Triton's cuda keys on NVIDIA
// targets, its hip keys on AMD ones.
func (c *Compiled) MetadataJSON() string {
	if !c.Result.Target.IsNVIDIA() {
		return NewHIPMetadata(c.Result, c.Key).JSON()
	}
	return c.Metadata().JSON()
}
