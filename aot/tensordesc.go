package aot

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gotriton/gotriton/lower"
	"github.com/gotriton/gotriton/semantic"
)

// A host tensor descriptor parameter (tensordesc<fp16[64, 64]>) is, in gotriton's and
// Triton's kernel ABI on sm_90 and later, a CUtensorMap by value followed by the tensor's
// shape (int32 each) and strides (int64 each). triton.tools.compile has no way to pass
// one. gotriton's C launcher takes it as one argument of type tt_tensordesc{RANK}: the
// tensor's base address, shape and strides. At each launch it encodes the tensor map the
// kernel expects (lower.Metadata.TensorMaps, tensordesc_meta in the metadata: the box of
// one TMA copy, the block or a slab of it; the swizzle; zero fill), so every algorithm and
// hint variant behind a linked dispatcher gets its own box and swizzle.

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
/* A host tensor descriptor of rank %[1]d: a row-major tensor at base, with its shape and
   strides in elements, outermost first (the last stride must be 1). */
typedef struct {
  CUdeviceptr base;
  int64_t shape[%[1]d];
  int64_t strides[%[1]d];
} %[2]s;
#endif
`, r, descTypeName(r))
	}
	return b.String()
}

// descArgPtrs are the kernel arguments of descriptor name of rank r: the map and the
// 32-bit shape that descPrologue makes, then the strides.
func descArgPtrs(name string, r int) []string {
	out := []string{"&" + name + "_map"}
	for i := range r {
		out = append(out, fmt.Sprintf("&%s_shape[%d]", name, i))
	}
	for i := range r {
		out = append(out, fmt.Sprintf("&%s.strides[%d]", name, i))
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

// tmaSwizzles are the CUtensorMapSwizzle values (cuda.h), by the swizzle's span in bytes,
// and tmaSwizzleNames their names after CU_TENSOR_MAP_SWIZZLE_.
var (
	tmaSwizzles     = map[int]int{0: 0, 32: 1, 64: 2, 128: 3}
	tmaSwizzleNames = []string{"NONE", "32B", "64B", "128B"}
)

// tensorMap is the tensor map the kernel expects for its i-th host descriptor parameter,
// of type d: maps[i] (lower.Metadata.TensorMaps), or d's block without swizzle where maps
// has none (a target without TMA, or a result that was not lowered).
func tensorMap(maps []lower.TensorMap, i int, d *semantic.DescType) lower.TensorMap {
	if i < len(maps) {
		return maps[i]
	}
	return lower.TensorMap{Box: blockShape(d)}
}

// blockShape is d's block shape, outermost first.
func blockShape(d *semantic.DescType) []int {
	out := make([]int, len(d.Block.Shape))
	for i, n := range d.Block.Shape {
		out[i] = int(n)
	}
	return out
}

// encodeFunc returns the launcher's static function that encodes descriptor p's tensor
// map (p.tmap: its box and swizzle) and 32-bit shape, and the launch function's lines that
// call it.
func encodeFunc(launcher string, p cParam) (def, prologue string, err error) {
	elem, _ := p.desc.Block.Elem.(semantic.DType)
	dt, ok := tmaDataTypes[elem]
	if !ok {
		return "", "", fmt.Errorf("parameter '%s': TMA has no %s element type", p.name, elem)
	}
	block := p.desc.Block.Shape
	r := len(block)
	if len(p.tmap.Box) != r {
		return "", "", fmt.Errorf("parameter '%s': a tensor map box of %d dimensions for a block of %d", p.name, len(p.tmap.Box), r)
	}
	swizzle, ok := tmaSwizzles[p.tmap.Swizzle]
	if !ok {
		return "", "", fmt.Errorf("parameter '%s': a tensor map swizzle of %d bytes (TMA: 0, 32, 64 or 128)", p.name, p.tmap.Swizzle)
	}
	layout := "no swizzle"
	if p.tmap.Swizzle != 0 {
		layout = fmt.Sprintf("%d-byte swizzle", p.tmap.Swizzle)
	}
	fn := "encode_" + launcher + "_" + p.name
	var dims, box, elemStrides, byteStrides, shape32 []string
	for i := r - 1; i >= 0; i-- { // the driver takes the innermost dimension first
		dims = append(dims, fmt.Sprintf("(cuuint64_t)desc->shape[%d]", i))
		box = append(box, strconv.Itoa(p.tmap.Box[i]))
		elemStrides = append(elemStrides, "1")
		if i < r-1 {
			byteStrides = append(byteStrides, fmt.Sprintf("(cuuint64_t)desc->strides[%d] * %d", i, elem.Bits()/8))
		}
	}
	if len(byteStrides) == 0 {
		byteStrides = []string{"0"} // rank 1: the driver reads none
	}
	for i := range r {
		shape32 = append(shape32, fmt.Sprintf("  shape32[%d] = (int32_t)desc->shape[%[1]d];\n", i))
	}
	def = fmt.Sprintf(`
/* Encodes the tensor map of parameter %[1]s, a block of %[2]s %[3]s, as the kernel reads it
   (the metadata's tensordesc_meta): a box of %[14]s (outermost first) per copy, %[15]s,
   out-of-bounds elements read as zeros. */
static CUresult %[4]s(CUtensorMap *map, int32_t shape32[%[5]d], const %[6]s *desc) {
  const cuuint64_t dims[%[5]d] = {%[7]s};
  const cuuint64_t byte_strides[%[8]d] = {%[9]s};
  const cuuint32_t box[%[5]d] = {%[10]s};
  const cuuint32_t elem_strides[%[5]d] = {%[11]s};
%[12]s  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_%[13]s, %[5]d, (void *)desc->base, dims, byte_strides, box, elem_strides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_%[16]s, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
`, p.name, shapeText(block), elem, fn, r, p.ctype, strings.Join(dims, ", "), len(byteStrides), strings.Join(byteStrides, ", "),
		strings.Join(box, ", "), strings.Join(elemStrides, ", "), strings.Join(shape32, ""), dt, shapeText(p.tmap.Box), layout, tmaSwizzleNames[swizzle])
	prologue = fmt.Sprintf("  CUtensorMap %[1]s_map;\n  int32_t %[1]s_shape[%[2]d];\n  CUresult %[1]s_err = %[3]s(&%[1]s_map, %[1]s_shape, &%[1]s);\n  if (%[1]s_err != CUDA_SUCCESS)\n    return %[1]s_err;\n", p.name, r, fn)
	return def, prologue, nil
}

// shapeText writes a block or box shape as [32, 64].
func shapeText[T int | int64](shape []T) string {
	parts := make([]string, len(shape))
	for i, n := range shape {
		parts[i] = strconv.FormatInt(int64(n), 10)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
