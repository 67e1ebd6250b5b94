package aot

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/gotriton/gotriton/lower"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

// Launcher is what triton.tools.compile writes for one specialization when given a grid:
// a C file that embeds the kernel binary with load_/unload_ functions and a launch
// function, and a header whose `// tt-linker:` line tells the linker about it. The names
// follow compile.py: the launch function is OUTNAME_SIGHASH_SUFFIX, where SIGHASH is the
// first 8 hex digits of the SHA-256 of the signature entries and
// "warps{W}xstages{S}" joined by spaces, and SUFFIX lists each parameter's index followed
// by "c" for a :1 hint or "d" for a :16 hint.
type Launcher struct {
	// Name is the launch function's name, FuncName below.
	Name string
	// SigHash and Suffix are the two parts of Name after the out-name.
	SigHash, Suffix string
	// C and H are the texts of the two files of a C launcher, Go the file of a Go one.
	C, H, Go string
}

// LaunchSpec is what a launcher is made from.
type LaunchSpec struct {
	// OutName is the launcher's base name (compile.py's --out-name; default the kernel name).
	OutName string
	// Kernel is the PTX entry the launcher looks up (Triton's metadata name).
	Kernel string
	// Params are the kernel's parameters after specialization, in order.
	Params []semantic.BoundParam
	// Given is how many of Params the signature gave (the rest came from autotune
	// configs, heuristics or defaults).
	Given int
	// NumWarps, NumStages and WarpSize are the launch options.
	NumWarps, NumStages, WarpSize int
	// Shared is the dynamic shared memory, in bytes, each program needs.
	Shared int
	// Grid is compile.py's --grid: three C expressions over the launcher's runtime
	// parameters (constexpr names are replaced by their values).
	Grid string
	// Binary is the cubin, or the PTX with a final NUL for the driver to compile.
	Binary []byte
	// BinaryKind says what Binary is ("cubin" or "ptx"), for the comment in the C file.
	BinaryKind string
	// Source names the kernel's file, for the comment in the C file.
	Source string
	// TMA says that the target passes host tensor descriptors as CUtensorMaps (sm_90 and
	// later).
	TMA bool
	// TensorMaps are the tensor maps (box and swizzle) that the host tensor descriptor
	// parameters take, in order (lower.Metadata.TensorMaps); where there are none, each
	// takes its block without swizzle.
	TensorMaps []lower.TensorMap
}

// cParam is one kernel parameter as the C launcher sees it.
type cParam struct {
	name string
	// text is the signature entry as written (for a parameter the signature left off, its
	// value), what the signature hash covers.
	text string
	// ctype is the launcher's type of a runtime parameter; "" for a constexpr.
	ctype string
	// hint is 1 or 16 for a ":1" or ":16" hint, else 0.
	hint int
	// value is a constexpr's value as Python's str() writes it.
	value string
	// desc is the block type of a host tensor descriptor, nil for other parameters, and
	// tmap the tensor map the kernel expects for it.
	desc *semantic.DescType
	tmap lower.TensorMap
}

// lang is a launcher language's types for the kernel's runtime parameters.
type lang struct {
	name string
	// ptr is a pointer's type, oneHint the type of a parameter hinted :1 (which the
	// linker's dispatcher compares with 1).
	ptr, oneHint string
	// scalars maps signature scalar types to the language's.
	scalars map[string]string
}

// cLang is C as Triton's ty_to_cpp writes it (floats travel as doubles through the
// launcher's C signature).
var cLang = &lang{name: "C", ptr: "CUdeviceptr", oneHint: "int32_t", scalars: map[string]string{
	"i1": "int8_t", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t", "i64": "int64_t",
	"u1": "uint8_t", "u8": "uint8_t", "u16": "uint16_t", "u32": "uint32_t", "u64": "uint64_t",
	"fp16": "double", "bf16": "double", "fp32": "double", "f32": "double", "fp64": "double",
}}

// goLang is Go over driver/cuda: a 16-bit float travels as its bits.
var goLang = &lang{name: "Go", ptr: "*cuda.Buffer", oneHint: "int32", scalars: map[string]string{
	"i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
	"u1": "bool", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
	"fp16": "uint16", "bf16": "uint16", "fp32": "float32", "f32": "float32", "fp64": "float64",
}}

// cParams describes spec's parameters for a launcher in l.
func cParams(spec *LaunchSpec, l *lang) ([]cParam, error) {
	out := make([]cParam, len(spec.Params))
	descs := 0 // the host tensor descriptors so far
	for i, p := range spec.Params {
		e := p.Entry
		cp := cParam{name: p.Name, text: e.Text}
		switch {
		case i >= spec.Given:
			cp.text, cp.value = pyStr(e.Value), pyStr(e.Value)
		case isOneHint(e):
			cp.hint, cp.value, cp.ctype = 1, "1", l.oneHint
		case e.IsConstexpr():
			cp.value = pyStr(e.Value)
		default:
			t := sigType(e)
			if e.Divisibility == 16 {
				cp.hint = 16
			}
			switch {
			case strings.HasPrefix(t, "*"):
				cp.ctype = l.ptr
			case l.scalars[t] != "":
				cp.ctype = l.scalars[t]
			case strings.HasPrefix(t, "tensordesc<"):
				d := e.Type.(*semantic.DescType)
				if l != cLang || !spec.TMA {
					return nil, fmt.Errorf("parameter '%s' is a host tensor descriptor (%s): only C launchers for targets with TMA (sm_90 and later) take them; pass the tensor's pointer, shape and strides and make the descriptor in the kernel (tl.make_tensor_descriptor)", p.Name, t)
				}
				cp.ctype, cp.desc = descTypeName(len(d.Block.Shape)), d
				cp.tmap = tensorMap(spec.TensorMaps, descs, d)
				descs++
			default:
				return nil, fmt.Errorf("parameter '%s': type %s has no %s launcher type", p.Name, t, l.name)
			}
		}
		out[i] = cp
	}
	return out, nil
}

// pyStr writes a constexpr as Python's str() does.
func pyStr(v semantic.Value) string {
	switch v := v.(type) {
	case semantic.Const:
		return pyeval.ToStr(v.V)
	case semantic.DTypeVal:
		return v.T.String()
	case semantic.Tuple:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = pyStr(e)
		}
		if len(parts) == 1 {
			return "(" + parts[0] + ",)"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	return fmt.Sprint(v)
}

// SigHash is compile.py's hash_signature: the first 8 hex digits of the SHA-256 of the
// signature entries and "warps{W}xstages{S}", joined by single spaces.
func SigHash(entries []string, numWarps, numStages int) string {
	sum := sha256.Sum256([]byte(strings.Join(append(append([]string{}, entries...), fmt.Sprintf("warps%dxstages%d", numWarps, numStages)), " ")))
	return hex.EncodeToString(sum[:])[:8]
}

// OutputPath is where compile.py writes a launcher file: prefix with its last suffix
// replaced by ".SIGHASH_SUFFIX.EXT".
func OutputPath(prefix, sigHash, suffix, ext string) string {
	return WithSuffix(prefix, "."+sigHash+"_"+suffix+"."+ext)
}

// WithSuffix replaces the last suffix of path's final element (".py" of "a.py", nothing
// of ".bashrc" or "a.") by suffix, as Python's pathlib.PurePath.with_suffix does.
func WithSuffix(path, suffix string) string {
	dir, name := filepath.Split(strings.TrimRight(path, "/"))
	if i := strings.LastIndexByte(name, '.'); i > 0 && i < len(name)-1 {
		name = name[:i]
	}
	return dir + name + suffix
}

// identRE matches a name in a C expression (not the x of 0x10 or the u of 16u).
var identRE = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]*`)

// gridExprs splits the grid into three C expressions, replacing constexpr names by their
// values; any other name must be a runtime parameter of the launcher.
func gridExprs(grid string, params []cParam) ([3]string, error) {
	var out [3]string
	parts := strings.Split(grid, ",")
	if len(parts) != 3 {
		return out, fmt.Errorf("grid %q: want three comma-separated expressions, e.g. \"n_elements/1024, 1, 1\"", grid)
	}
	runtime, constants := []string{}, map[string]string{}
	for _, p := range params {
		if p.ctype != "" && p.hint != 1 {
			runtime = append(runtime, p.name)
		} else if _, err := strconv.ParseInt(p.value, 0, 64); err == nil {
			constants[p.name] = p.value
		}
	}
	var bad error
	for i, e := range parts {
		e = strings.TrimSpace(e)
		if e == "" {
			return out, fmt.Errorf("grid %q: expression %d is empty", grid, i+1)
		}
		out[i] = identRE.ReplaceAllStringFunc(e, func(id string) string {
			if v, ok := constants[id]; ok {
				return v
			}
			for _, r := range runtime {
				if r == id {
					return id
				}
			}
			if bad == nil {
				bad = fmt.Errorf("grid %q names '%s', which is not a runtime parameter of the launcher (those are: %s)", grid, id, strings.Join(runtime, ", "))
			}
			return id
		})
	}
	return out, bad
}

// plan is what the C and Go launchers of a specialization share: its parameters, names
// and grid.
type plan struct {
	params []cParam
	grid   [3]string
	// sigHash, suffix and name as the Launcher fields of the same names.
	sigHash, suffix, name string
	// algoInfo is the tt-linker line's last field: the constants joined by "x", then
	// "warps{W}xstages{S}".
	algoInfo string
	// doc is the constants and launch options as compile.py lists them in the C file.
	doc []string
}

// newPlan names spec's launcher as compile.py does.
func newPlan(spec *LaunchSpec, l *lang) (*plan, error) {
	params, err := cParams(spec, l)
	if err != nil {
		return nil, err
	}
	grid, err := gridExprs(spec.Grid, params)
	if err != nil {
		return nil, err
	}
	p := &plan{params: params, grid: grid}
	var entries []string
	var suffix strings.Builder
	for i, cp := range params {
		entries = append(entries, cp.text)
		suffix.WriteString(strconv.Itoa(i))
		switch cp.hint {
		case 1:
			suffix.WriteByte('c')
		case 16:
			suffix.WriteByte('d')
		}
	}
	p.sigHash, p.suffix = SigHash(entries, spec.NumWarps, spec.NumStages), suffix.String()
	p.name = spec.OutName + "_" + p.sigHash + "_" + p.suffix

	// The constants in compile.py's order: bare constexprs in parameter order, then the
	// parameters hinted :1.
	var consts []cParam
	for _, cp := range params {
		if cp.ctype == "" {
			consts = append(consts, cp)
		}
	}
	for _, cp := range params {
		if cp.hint == 1 {
			consts = append(consts, cp)
		}
	}
	var constSig []string
	for _, cp := range consts {
		constSig = append(constSig, algoText(cp.value))
		p.doc = append(p.doc, cp.name+"="+cp.value)
	}
	p.doc = append(p.doc, fmt.Sprintf("num_warps=%d", spec.NumWarps), fmt.Sprintf("num_stages=%d", spec.NumStages))
	p.algoInfo = strings.Join(constSig, "x") + "_" + fmt.Sprintf("warps%dxstages%d", spec.NumWarps, spec.NumStages)
	return p, nil
}

// NewLauncher writes the C launcher and header for spec.
func NewLauncher(spec *LaunchSpec) (*Launcher, error) {
	p, err := newPlan(spec, cLang)
	if err != nil {
		return nil, err
	}
	l := &Launcher{Name: p.name, SigHash: p.sigHash, Suffix: p.suffix}
	var launchArgs, fullArgs, argPtrs, doc []string
	var encodeDefs, prologue strings.Builder
	for _, cp := range p.params {
		switch {
		case cp.hint == 1:
			fullArgs = append(fullArgs, cp.ctype+" "+cp.name)
		case cp.desc != nil:
			def, lines, err := encodeFunc(l.Name, cp)
			if err != nil {
				return nil, err
			}
			encodeDefs.WriteString(def)
			prologue.WriteString(lines)
			launchArgs = append(launchArgs, cp.ctype+" "+cp.name)
			fullArgs = append(fullArgs, cp.ctype+" "+cp.name)
			argPtrs = append(argPtrs, descArgPtrs(cp.name, len(cp.desc.Block.Shape))...)
		case cp.ctype != "":
			launchArgs = append(launchArgs, cp.ctype+" "+cp.name)
			fullArgs = append(fullArgs, cp.ctype+" "+cp.name)
			argPtrs = append(argPtrs, "&"+cp.name)
		}
	}
	argPtrs = append(argPtrs, "&global_scratch", "&profile_scratch")
	typedefs := descTypedefs(strings.Join(fullArgs, ", "))
	for _, d := range p.doc {
		doc = append(doc, pyRepr(d))
	}
	proto := fmt.Sprintf("CUresult %s(%s)", l.Name, strings.Join(append([]string{"CUstream stream"}, launchArgs...), ", "))

	l.H = fmt.Sprintf(`#ifndef TT_KERNEL_INCLUDES
#define TT_KERNEL_INCLUDES

#include <cuda.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#endif
%[5]s
void unload_%[1]s(void);
void load_%[1]s(void);
// tt-linker: %[1]s:%[2]s:%[3]s
%[4]s;
`, l.Name, strings.Join(fullArgs, ", "), p.algoInfo, proto, typedefs)

	var c strings.Builder
	fmt.Fprintf(&c, `/* Kernel %s of %s, launcher written by gotriton as triton.tools.compile writes it.
   The embedded binary is %s. */
#include <cuda.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Prints a failed driver call and exits, as Triton's generated launchers do. */
static inline void gpuAssert(CUresult code, const char *file, int line) {
  if (code != CUDA_SUCCESS) {
    const char *msg = NULL;
    cuGetErrorString(code, &msg);
    printf("Triton Error [CUDA]: %%s (%%s:%%d)\n", msg ? msg : "unknown error", file, line);
    exit(code);
  }
}
#define CUDA_CHECK(ans) gpuAssert((ans), __FILE__, __LINE__)
%[6]s
#define CUBIN_NAME %[4]s_cubin
CUmodule %[4]s_mod = NULL;
CUfunction %[4]s_func = NULL;
unsigned char CUBIN_NAME[%[5]d] = {
`, spec.Kernel, spec.Source, spec.BinaryKind, l.Name, len(spec.Binary), typedefs)
	writeBytes(&c, spec.Binary)
	fmt.Fprintf(&c, `};

void unload_%[1]s(void) {
  CUDA_CHECK(cuModuleUnload(%[1]s_mod));
  %[1]s_mod = NULL;
  %[1]s_func = NULL;
}

void load_%[1]s(void) {
  int dev = 0;
  int shared = %[2]d;
  int shared_optin = 0;
  CUDA_CHECK(cuModuleLoadData(&%[1]s_mod, (const void *)CUBIN_NAME));
  CUDA_CHECK(cuModuleGetFunction(&%[1]s_func, %[1]s_mod, "%[3]s"));
  /* More than 48 KiB of dynamic shared memory must be opted into. */
  CUDA_CHECK(cuDeviceGetAttribute(&shared_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev));
  if (shared > 49152 && shared_optin > 49152) {
    CUDA_CHECK(cuFuncSetCacheConfig(%[1]s_func, CU_FUNC_CACHE_PREFER_SHARED));
    CUDA_CHECK(cuFuncSetAttribute(%[1]s_func, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared_optin));
  }
}
%[13]s
/*
[%[4]s]
*/
%[5]s {
  if (%[1]s_func == NULL)
    load_%[1]s();
  unsigned int gX = %[6]s;
  unsigned int gY = %[7]s;
  unsigned int gZ = %[8]s;
  CUdeviceptr global_scratch = 0;
  CUdeviceptr profile_scratch = 0;
%[14]s  void *args[%[9]d] = { %[10]s };
  if (gX * gY * gZ == 0)
    return CUDA_SUCCESS;
  return cuLaunchKernel(%[1]s_func, gX, gY, gZ, %[11]d * %[12]d, 1, 1, %[2]d, stream, args, NULL);
}
`, l.Name, spec.Shared, spec.Kernel, strings.Join(doc, ", "), proto, p.grid[0], p.grid[1], p.grid[2], len(argPtrs), strings.Join(argPtrs, ", "), spec.NumWarps, spec.WarpSize, encodeDefs.String(), prologue.String())
	l.C = c.String()
	return l, nil
}

// writeBytes writes b as C hex literals, 16 a line.
func writeBytes(w *strings.Builder, b []byte) {
	for i, x := range b {
		if i%16 == 0 {
			w.WriteString("  ")
		}
		fmt.Fprintf(w, "0x%02x,", x)
		if i%16 == 15 || i == len(b)-1 {
			w.WriteByte('\n')
		} else {
			w.WriteByte(' ')
		}
	}
}

// algoText is a constant as the tt-linker line lists it: a number as Python's str()
// writes it, as compile.py does; any other value (gotriton's extension) made safe for the
// line and for C names.
func algoText(v string) string {
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return v
	}
	return identSafe(v)
}

// identSafe makes text usable in a C identifier: characters other than letters, digits
// and '_' become '_'.
func identSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}

// pyRepr writes a string as Python's repr() does (single quotes unless the string has a
// single quote and no double quote).
func pyRepr(s string) string {
	q := "'"
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = `"`
	}
	s = strings.ReplaceAll(s, `\`, `\\`)
	if q == "'" {
		s = strings.ReplaceAll(s, "'", `\'`)
	}
	return q + s + q
}
