package lower

import (
	"regexp"
	"strconv"
	"testing"
)

// globalAccess matches the ld.global / st.global inline asm of a lowered module, with its
// vector count and word size; asyncCopy matches a cp.async, with its size in bytes.
var (
	globalAccess = regexp.MustCompile(`(ld|st)\.global(?:\.[a-zA-Z0-9_:]+)*?(?:\.v(\d))?\.b(\d+)\b`)
	asyncCopy    = regexp.MustCompile(`cp\.async\.c[ag]\.shared\.global \[\$\d\], \[\$\d\], (\d+)`)
)

// widestAccesses returns the widest global load and store of an LLVM IR module, in bits.
func widestAccesses(ll string) (ld, st int) {
	for _, m := range globalAccess.FindAllStringSubmatch(ll, -1) {
		n, bits := 1, 0
		if m[2] != "" {
			n, _ = strconv.Atoi(m[2])
		}
		bits, _ = strconv.Atoi(m[3])
		if m[1] == "ld" {
			ld = max(ld, n*bits)
		} else {
			st = max(st, n*bits)
		}
	}
	for _, m := range asyncCopy.FindAllStringSubmatch(ll, -1) {
		bytes, _ := strconv.Atoi(m[1])
		ld = max(ld, 8*bytes)
	}
	return ld, st
}

// TestVectorWidths pins the widest global access of every kernel of our own set (that
// Triton does not turn into TMA) to the widest one in the PTX Triton 3.6 made for the same
// specialization (ld.global, st.global and cp.async sizes in .build/triton-ref). Wider
// means alignment was assumed that the axis analysis cannot prove, as in the misaligned
// fp16 matmul with M, N, K = 200, 300, 150 (ragged); narrower means lost bandwidth.
func TestVectorWidths(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ld, st int
	}{
		{"attention.attn_bwd_kernel.default", 128, 128},
		{"attention.attn_bwd_kernel.noncausal", 128, 128},
		{"attention.attn_bwd_preprocess_kernel.default", 128, 32},
		{"dropout.masked_dropout_kernel.default", 128, 128},
		{"dropout.seeded_dropout_kernel.default", 128, 128},
		{"dropout.seeded_dropout_kernel.odd_n", 32, 32},
		{"grouped_gemm.grouped_gemm_kernel.default", 64, 16},
		{"layer_norm.layer_norm_bwd_dwdb_kernel.default", 128, 16},
		{"layer_norm.layer_norm_bwd_dwdb_kernel.ragged", 32, 16},
		{"layer_norm.layer_norm_bwd_dx_kernel.default", 128, 128},
		{"layer_norm.layer_norm_bwd_dx_kernel.ragged", 32, 32},
		{"layer_norm.layer_norm_fwd_kernel.default", 128, 128},
		{"layer_norm.layer_norm_fwd_kernel.ragged", 16, 32},
		{"libdevice_math.asin_kernel.default", 128, 128},
		{"libdevice_math.asin_kernel.fp64", 128, 128},
		{"libdevice_math.gelu_tanh_kernel.default", 128, 128},
		{"libdevice_math.softplus_kernel.default", 128, 128},
		{"libdevice_math.unary_math_kernel.default", 128, 128},
		{"libdevice_math.unary_math_kernel.erf", 128, 128},
		{"libdevice_math.unary_math_kernel.rsqrt", 128, 128},
		{"libdevice_math.unary_math_kernel.tanh", 128, 128},
		{"libdevice_math.unary_math_kernel.tl_exp", 128, 128},
		{"libdevice_math.unary_math_kernel.tl_log", 128, 128},
		{"libdevice_math.unary_math_kernel.tl_sqrt", 128, 128},
		{"matmul.grouped_matmul_kernel.default", 128, 128},
		{"matmul.grouped_matmul_kernel.fp8e5", 128, 128},
		{"matmul.grouped_matmul_kernel.leaky_relu", 128, 128},
		{"matmul.grouped_matmul_kernel.ragged", 16, 16},
		{"pdl_add.pdl_add_kernel.default", 128, 128},
		{"pdl_add.pdl_add_kernel.no_gdc", 128, 128},
		{"persistent_matmul.matmul_persistent_kernel.default", 128, 128},
		{"persistent_matmul.matmul_persistent_kernel.fp8", 128, 128},
		{"persistent_matmul.matmul_tiled_kernel.default", 128, 128},
		{"persistent_matmul.matmul_tiled_kernel.fp8", 128, 128},
		{"softmax.row_softmax_kernel.default", 32, 32},
		{"softmax.row_softmax_kernel.fp16", 16, 16},
		{"softmax.row_softmax_kernel.wide", 128, 128},
		{"vector_add.vector_add_kernel.default", 128, 128},
		{"vector_add.vector_add_kernel.fp16", 128, 128},
		{"vector_add.vector_add_kernel.odd_n", 32, 32},
	} {
		ll, _, err := lowerFile(t, tc.name)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if ld, st := widestAccesses(ll); ld != tc.ld || st != tc.st {
			t.Errorf("%s: widest load %d bits, store %d bits; Triton's are %d and %d", tc.name, ld, st, tc.ld, tc.st)
		}
	}
}
