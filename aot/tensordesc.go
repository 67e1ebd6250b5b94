package aot

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gotriton/gotriton/semantic"
)

// A host tensor descriptor parameter (tensordesc<fp16[64, 64]>) is, in gotriton's and
// Triton's kernel ABI on sm_90 and later, a CUtensorMap by value followed by the tensor's
// shape (int32 each) and strides (int64 each). triton.tools.compile has no way to pass
// one. gotriton's C launcher takes it as one argument of type tt_tensordesc{RANK}, which
// holds all three, and writes encode_LAUNCHER_PARAM to fill one for a tensor: it encodes
// the map the kernel expects (tensordesc_meta in the metadata: no swizzle, zero fill, one
// box per block).

// descTypeName is the C type of a descriptor of rank r.
func descTypeName(r int) string { return "tt_tensordesc" + strconv.Itoa(r) }

// descTypeRE matches the descriptor types in a C signature.
var descTypeRE = regexp.MustCompile(`\btt_tensordesc([1-5])\b`)

// descTypedefs defines the descriptor types that sig names, each once per translation unit.
func descTypedefs(sig string) string {
	var ranks []int
	for _, m := range descTypeRE.FindAllStringSubmatch(sig, -1) {
		r, _ := strconv.Atoi(m[1])
		ranks = append(ranks, r)
	}
	slices.Sort(ranks)
	var b strings.Builder
	for _, r := range slices.Compact(ranks) {
		fmt.Fprintf(&b, `
#ifndef TT_TENSORDESC%[1]d
#define TT_TENSORDESC%[1]d
/* A host tensor descriptor of rank %[1]d as the kernel takes it: the tensor map, then the
   tensor's shape and strides in elements, outermost first. */
typedef struct {
  CUtensorMap map;
  int32_t shape[%[1]d];
  int64_t strides[%[1]d];
} %[2]s;
#endif
`, r, descTypeName(r))
	}
	return b.String()
}

// descArgPtrs are the kernel arguments of descriptor name of rank r.
func descArgPtrs(name string, r int) []string {
	out := []string{"&" + name + ".map"}
	for _, field := range []string{"shape", "strides"} {
		for i := range r {
			out = append(out, fmt.Sprintf("&%s.%s[%d]", name, field, i))
		}
	}
	return out
}

// tmaDataTypes are cuda.h's CUtensorMapDataType names, by element type; fp8 travels as
// bytes.
var tmaDataTypes = map[semantic.DType]string{
	semantic.Int8: "UINT8", semantic.UInt8: "UINT8", semantic.FP8E4NV: "UINT8", semantic.FP8E5: "UINT8",
	semantic.FP8E4B15: "UINT8", semantic.FP8E4B8: "UINT8", semantic.FP8E5B16: "UINT8",
	semantic.Int16: "UINT16", semantic.UInt16: "UINT16", semantic.FP16: "FLOAT16", semantic.BF16: "BFLOAT16",
	semantic.Int32: "INT32", semantic.UInt32: "UINT32", semantic.FP32: "FLOAT32",
	semantic.Int64: "INT64", semantic.UInt64: "UINT64", semantic.FP64: "FLOAT64",
}

// encodeFunc returns the declaration and the definition of the function that fills
// descriptor p of launcher for a tensor.
func encodeFunc(launcher string, p cParam) (decl, def string, err error) {
	elem, _ := p.desc.Block.Elem.(semantic.DType)
	dt, ok := tmaDataTypes[elem]
	if !ok {
		return "", "", fmt.Errorf("parameter '%s': TMA has no %s element type", p.name, elem)
	}
	block := p.desc.Block.Shape
	r := len(block)
	proto := fmt.Sprintf("CUresult encode_%s_%s(%s *desc, CUdeviceptr base, const int64_t shape[%d], const int64_t strides[%d])", launcher, p.name, p.ctype, r, r)
	var dims, box, elemStrides, byteStrides, fields []string
	for i := r - 1; i >= 0; i-- { // the driver takes the innermost dimension first
		dims = append(dims, fmt.Sprintf("(cuuint64_t)shape[%d]", i))
		box = append(box, strconv.FormatInt(block[i], 10))
		elemStrides = append(elemStrides, "1")
		if i < r-1 {
			byteStrides = append(byteStrides, fmt.Sprintf("(cuuint64_t)strides[%d] * %d", i, elem.Bits()/8))
		}
	}
	if len(byteStrides) == 0 {
		byteStrides = []string{"0"} // rank 1: the driver reads none
	}
	for i := range r {
		fields = append(fields, fmt.Sprintf("  desc->shape[%d] = (int32_t)shape[%d];\n  desc->strides[%d] = strides[%[1]d];\n", i, i, i))
	}
	def = fmt.Sprintf(`/* Fills *desc for parameter %[1]s: a row-major tensor at base, with shape and strides in
   elements, outermost first (the last stride must be 1), read in blocks of %[2]s %[3]s.
   The tensor map has no swizzle and fills out-of-bounds elements with zeros, as the kernel
   expects (its metadata's tensordesc_meta). */
%[4]s {
  const cuuint64_t dims[%[5]d] = {%[6]s};
  const cuuint64_t byte_strides[%[7]d] = {%[8]s};
  const cuuint32_t box[%[5]d] = {%[9]s};
  const cuuint32_t elem_strides[%[5]d] = {%[10]s};
%[11]s  return cuTensorMapEncodeTiled(&desc->map, CU_TENSOR_MAP_DATA_TYPE_%[12]s, %[5]d, (void *)base, dims, byte_strides, box, elem_strides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
`, p.name, shapeText(block), elem, proto, r, strings.Join(dims, ", "), len(byteStrides), strings.Join(byteStrides, ", "),
		strings.Join(box, ", "), strings.Join(elemStrides, ", "), strings.Join(fields, ""), dt)
	return proto + ";\n", def, nil
}

// shapeText writes a block shape as [32, 64].
func shapeText(shape []int64) string {
	parts := make([]string, len(shape))
	for i, n := range shape {
		parts[i] = strconv.FormatInt(n, 10)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
