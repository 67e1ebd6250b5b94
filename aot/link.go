package aot

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// LinkedKernel is one compiled launcher as its header's `// tt-linker:` line describes it,
// read as Triton's link.py reads it.
type LinkedKernel struct {
	// Name, SigHash and Suffix make up the launcher's name NAME_SIGHASH_SUFFIX.
	Name, SigHash, Suffix string
	// Algo is NAME_ALGOINFO: launchers with the same one differ only in their hints.
	Algo string
	// ArgTypes and ArgNames are the full signature, hinted :1 parameters included.
	ArgTypes, ArgNames []string
	// Hints are each argument's hint: 1, 16 or 0.
	Hints []int
	// NumSpecs counts the hinted arguments.
	NumSpecs int
}

var (
	linkerLine   = regexp.MustCompile(`^//\s*tt-linker:\s*(\w+):(.+):(.+)`)
	launcherName = regexp.MustCompile(`^(\w+)_(\w+)_(\w+)$`)
	cArg         = regexp.MustCompile(`\s*(\w+)\s(\w+),?`)
)

// ParseHeader reads the tt-linker lines of a header written by `gotriton compile -g` or by
// triton.tools.compile.
func ParseHeader(path, text string) ([]LinkedKernel, error) {
	var out []LinkedKernel
	for n, line := range strings.Split(text, "\n") {
		m := linkerLine.FindStringSubmatch(strings.TrimRight(line, "\r"))
		if m == nil {
			continue
		}
		k, err := parseLinkerLine(m[1], m[2], m[3])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: error: %v", path, n+1, err)
		}
		out = append(out, k)
	}
	return out, nil
}

func parseLinkerLine(launcher, sig, algoInfo string) (LinkedKernel, error) {
	m := launcherName.FindStringSubmatch(launcher)
	if m == nil {
		return LinkedKernel{}, fmt.Errorf("%s is not a valid kernel name (want NAME_SIGHASH_SUFFIX)", launcher)
	}
	// link.py names the algorithm NAME_ALGOINFO as it stands, which is no C name when a
	// constant is a float or negative ("0.5", "-1"); those characters become '_'.
	k := LinkedKernel{Name: m[1], SigHash: m[2], Suffix: m[3], Algo: identSafe(m[1] + "_" + algoInfo)}
	for _, a := range cArg.FindAllStringSubmatch(sig, -1) {
		k.ArgTypes = append(k.ArgTypes, a[1])
		k.ArgNames = append(k.ArgNames, a[2])
	}
	if len(k.ArgNames) == 0 {
		return LinkedKernel{}, fmt.Errorf("%s is not a valid argument signature", sig)
	}
	var err error
	k.Hints, k.NumSpecs, err = suffixHints(k.Suffix, len(strings.Split(sig, ",")))
	return k, err
}

// suffixHints reads the hints of nargs arguments from a launcher suffix such as
// "0d1d2c3": link.py finds each index in turn and reads the letter after it.
func suffixHints(suffix string, nargs int) ([]int, int, error) {
	hints := make([]int, nargs)
	specs := 0
	rest := suffix
	for i := 0; i < nargs; i++ {
		idx := strconv.Itoa(i)
		pos := strings.Index(rest, idx)
		if pos < 0 {
			return nil, 0, fmt.Errorf("%s is not a valid kernel suffix", suffix)
		}
		pos += len(idx)
		if pos < len(rest) && (rest[pos] == 'c' || rest[pos] == 'd') {
			hints[i] = map[byte]int{'c': 1, 'd': 16}[rest[pos]]
			specs++
			pos++
		}
		rest = rest[pos:]
	}
	return hints, specs, nil
}

// algo is the launchers of one NAME_ALGOINFO.
type algo struct {
	name     string
	variants []LinkedKernel
}

// family is every algorithm of one kernel name, in the order first seen.
type family struct {
	name  string
	algos []*algo
}

// Link writes the dispatcher that Triton's link.py writes for the launchers of kernels:
// for each NAME_ALGOINFO a function trying its hint variants, most specialized first;
// for each kernel name a table of those, NAME(stream, args..., algo_id),
// NAME_default (algorithm 0), NAME_get_num_algos, and load_/unload_ functions. prefix
// comes before every name the dispatcher defines.
func Link(kernels []LinkedKernel, prefix string) (h, c string, err error) {
	if len(kernels) == 0 {
		return "", "", fmt.Errorf("no // tt-linker: lines in the headers")
	}
	var fams []*family
	byName := map[string]*family{}
	algos := map[string]*algo{}
	for _, k := range kernels {
		a := algos[k.Algo]
		if a == nil {
			f := byName[k.Name]
			if f == nil {
				f = &family{name: k.Name}
				byName[k.Name] = f
				fams = append(fams, f)
			}
			a = &algo{name: k.Algo}
			algos[k.Algo] = a
			f.algos = append(f.algos, a)
		} else if last := a.variants[len(a.variants)-1]; strings.Join(last.ArgTypes, ",") != strings.Join(k.ArgTypes, ",") {
			return "", "", fmt.Errorf("mismatched signature for kernel %s:\n\texisting sig is: %s\n\tcurrent is: %s", k.Algo, strings.Join(last.ArgTypes, ","), strings.Join(k.ArgTypes, ","))
		}
		a.variants = append(a.variants, k)
	}
	for _, f := range fams {
		first := f.algos[0].variants[0]
		for _, a := range f.algos[1:] {
			if got := a.variants[0]; strings.Join(got.ArgTypes, ",") != strings.Join(first.ArgTypes, ",") {
				return "", "", fmt.Errorf("kernel %s: algorithm %s takes (%s) but %s takes (%s); one dispatcher needs one signature",
					f.name, a.name, strings.Join(got.ArgTypes, ", "), f.algos[0].name, strings.Join(first.ArgTypes, ", "))
			}
		}
	}

	var sigs []string
	for _, k := range kernels {
		sigs = append(sigs, fullSig(k))
	}
	typedefs := descTypedefs(strings.Join(sigs, ", ")) // host tensor descriptors
	var hb, cb strings.Builder
	hb.WriteString("#include <cuda.h>\n" + typedefs)
	cb.WriteString("#include <cuda.h>\n#include <stdint.h>\n" + typedefs)
	for _, f := range fams {
		writeFamily(&hb, &cb, f, prefix)
	}
	return hb.String(), cb.String(), nil
}

// writeFamily writes the declarations and definitions of one kernel name's dispatcher.
func writeFamily(hb, cb *strings.Builder, f *family, p string) {
	meta := f.algos[0].variants[0]
	full := fullSig(meta)
	args := strings.Join(meta.ArgNames, ", ")
	for _, a := range f.algos {
		fmt.Fprintf(hb, "\nCUresult %s%s(CUstream stream, %s);\nvoid load_%[1]s%[2]s(void);\nvoid unload_%[1]s%[2]s(void);\n", p, a.name, fullSig(a.variants[len(a.variants)-1]))
	}
	fmt.Fprintf(hb, "\nint %s%s_get_num_algos(void);\n", p, f.name)
	fmt.Fprintf(hb, "\nCUresult %s%s_default(CUstream stream, %s);\nCUresult %[1]s%[2]s(CUstream stream, %[3]s, int algo_id);\nvoid load_%[1]s%[2]s(void);\nvoid unload_%[1]s%[2]s(void);\n", p, f.name, full)

	for _, a := range f.algos {
		variants := append([]LinkedKernel(nil), a.variants...)
		sort.SliceStable(variants, func(i, j int) bool { return variants[i].NumSpecs > variants[j].NumSpecs })
		fmt.Fprintf(cb, "\n// launcher for: %s\n", a.name)
		for _, v := range variants {
			fmt.Fprintf(cb, "CUresult %s(%s);\n", launcherOf(v), launchSig(v))
		}
		fmt.Fprintf(cb, "\nCUresult %s%s(CUstream stream, %s) {\n", p, a.name, fullSig(a.variants[len(a.variants)-1]))
		for _, v := range variants {
			var conds, pass []string
			for i, name := range v.ArgNames {
				switch v.Hints[i] {
				case 16:
					conds = append(conds, fmt.Sprintf("(%s %% 16 == 0)", name))
				case 1:
					conds = append(conds, fmt.Sprintf("(%s == 1)", name))
				}
				if v.Hints[i] != 1 {
					pass = append(pass, name)
				}
			}
			if len(conds) == 0 {
				conds = []string{"1"} // no hints: this variant takes everything
			}
			fmt.Fprintf(cb, "  if (%s)\n    return %s(%s);\n", strings.Join(conds, " && "), launcherOf(v), strings.Join(append([]string{"stream"}, pass...), ", "))
		}
		cb.WriteString("\n  return CUDA_ERROR_INVALID_VALUE;\n}\n")
		for _, mode := range []string{"load", "unload"} {
			fmt.Fprintf(cb, "\n// %s for: %s\n", mode, a.name)
			for _, v := range variants {
				fmt.Fprintf(cb, "void %s_%s(void);\n", mode, launcherOf(v))
			}
			fmt.Fprintf(cb, "void %s_%s%s(void) {\n", mode, p, a.name)
			for _, v := range variants {
				fmt.Fprintf(cb, "  %s_%s();\n", mode, launcherOf(v))
			}
			cb.WriteString("}\n")
		}
	}

	table := p + f.name + "_kernels"
	fmt.Fprintf(cb, "\ntypedef CUresult (*%s%s_kernel_func_t)(CUstream stream, %s);\n%[1]s%[2]s_kernel_func_t %[4]s[] = {\n", p, f.name, full, table)
	for _, a := range f.algos {
		fmt.Fprintf(cb, "  %s%s,\n", p, a.name)
	}
	cb.WriteString("};\n")
	fmt.Fprintf(cb, "\nint %s%s_get_num_algos(void) {\n  return (int)(sizeof(%s) / sizeof(%[3]s[0]));\n}\n", p, f.name, table)
	fmt.Fprintf(cb, "\nCUresult %[1]s%[2]s(CUstream stream, %[3]s, int algo_id) {\n  if (algo_id < 0 || algo_id >= %[1]s%[2]s_get_num_algos())\n    return CUDA_ERROR_INVALID_VALUE;\n  return %[4]s[algo_id](stream, %[5]s);\n}\n", p, f.name, full, table, args)
	for _, mode := range []string{"load", "unload"} {
		fmt.Fprintf(cb, "\nvoid %s_%s%s(void) {\n", mode, p, f.name)
		for _, a := range f.algos {
			fmt.Fprintf(cb, "  %s_%s%s();\n", mode, p, a.name)
		}
		cb.WriteString("}\n")
	}
	fmt.Fprintf(cb, "\nCUresult %[1]s%[2]s_default(CUstream stream, %[3]s) {\n  return %[1]s%[2]s(stream, %[4]s, 0);\n}\n", p, f.name, full, args)
}

// launcherOf is the name of the compiled launcher k.
func launcherOf(k LinkedKernel) string { return k.Name + "_" + k.SigHash + "_" + k.Suffix }

// fullSig is k's full C signature, hinted :1 arguments included.
func fullSig(k LinkedKernel) string {
	parts := make([]string, len(k.ArgNames))
	for i := range k.ArgNames {
		parts[i] = k.ArgTypes[i] + " " + k.ArgNames[i]
	}
	return strings.Join(parts, ", ")
}

// launchSig is the C signature of the launcher k itself: the stream, then the arguments
// without the :1 ones.
func launchSig(k LinkedKernel) string {
	parts := []string{"CUstream stream"}
	for i := range k.ArgNames {
		if k.Hints[i] != 1 {
			parts = append(parts, k.ArgTypes[i]+" "+k.ArgNames[i])
		}
	}
	return strings.Join(parts, ", ")
}
