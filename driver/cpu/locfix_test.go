package cpu

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/tileir"
)

// The tileir parser reads only inline loc("file":line:col) and loc(unknown). Triton's dumps
// use #loc aliases, named locations and call sites, so flattenLocs rewrites each location
// to the plain form before parsing (the innermost callee's file position).

var locDef = regexp.MustCompile(`(?m)^(#loc[0-9]*) = loc\((.*)\)\s*$`)

// flattenLocs rewrites src's locations to loc("file":line:col) or loc(unknown).
func flattenLocs(src string) (string, error) {
	defs := map[string]string{}
	for _, m := range locDef.FindAllStringSubmatch(src, -1) {
		defs[m[1]] = m[2]
	}
	src = locDef.ReplaceAllString(src, "")
	memo := map[string]string{}
	var resolve func(expr string, depth int) (string, error)
	resolve = func(expr string, depth int) (string, error) {
		expr = strings.TrimSpace(expr)
		if depth > 100 {
			return "", fmt.Errorf("location cycle at %s", expr)
		}
		switch {
		case expr == "unknown":
			return "unknown", nil
		case strings.HasPrefix(expr, "#loc"):
			if r, ok := memo[expr]; ok {
				return r, nil
			}
			d, ok := defs[expr]
			if !ok {
				return "", fmt.Errorf("undefined location %s", expr)
			}
			r, err := resolve(d, depth+1)
			memo[expr] = r
			return r, err
		case strings.HasPrefix(expr, "callsite("):
			inner := strings.TrimSuffix(strings.TrimPrefix(expr, "callsite("), ")")
			callee, _, ok := strings.Cut(inner, " at ")
			if !ok {
				return "", fmt.Errorf("bad callsite %s", expr)
			}
			return resolve(callee, depth+1)
		case strings.HasPrefix(expr, "fused["):
			first, _, _ := strings.Cut(strings.TrimPrefix(expr, "fused["), ",")
			return resolve(strings.TrimSuffix(first, "]"), depth+1)
		case strings.HasPrefix(expr, `"`):
			end := strings.Index(expr[1:], `"`) + 1
			rest := expr[end+1:]
			switch {
			case strings.HasPrefix(rest, "("): // a named location
				return resolve(rest[1:len(rest)-1], depth+1)
			case rest == "": // a bare name
				return "unknown", nil
			}
			return expr, nil // "file":line:col
		}
		return "", fmt.Errorf("unsupported location %s", expr)
	}
	var out strings.Builder
	for i := 0; i < len(src); {
		j := strings.Index(src[i:], "loc(")
		if j < 0 || (i+j > 0 && isIdent(src[i+j-1])) {
			if j < 0 {
				out.WriteString(src[i:])
				break
			}
			out.WriteString(src[i : i+j+4])
			i += j + 4
			continue
		}
		out.WriteString(src[i : i+j])
		start := i + j + 4
		depth, k := 1, start
		for ; k < len(src) && depth > 0; k++ {
			switch src[k] {
			case '(':
				depth++
			case ')':
				depth--
			case '"':
				k += strings.IndexByte(src[k+1:], '"') + 1
			}
		}
		r, err := resolve(src[start:k-1], 0)
		if err != nil {
			return "", err
		}
		out.WriteString("loc(" + r + ")")
		i = k
	}
	return out.String(), nil
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// parseTTIR reads a golden TTIR file.
func parseTTIR(path string) (*tileir.Module, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	flat, err := flattenLocs(string(src))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return tileir.Parse(path, flat)
}

// Every golden kernel parses and compiles for the interpreter.
func TestLoadAllGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.ttir"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden TTIR: %v", err)
	}
	dev := New(Options{})
	for _, f := range files {
		m, err := parseTTIR(f)
		if err != nil {
			t.Errorf("parse: %v", err)
			continue
		}
		if _, err := dev.Load(m, kernelOf(m), LoadOptions{}); err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
		}
	}
}
