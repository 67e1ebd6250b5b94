package semantic

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/gotriton/gotriton/pyeval"
)

// SigEntry is one parameter of a specialization, as triton.tools.compile's --signature
// gives it: a runtime argument of Type (with an optional divisibility hint), or a constexpr
// Value.
type SigEntry struct {
	Text string // the entry as written, trimmed
	// Type is the runtime argument's type; nil for a constexpr.
	Type Type
	// Divisibility is 16 for a ":16" hint (tt.divisibility = 16), else 0.
	Divisibility int
	// Value is the constexpr's value (an int, float, bool, str, None or a dtype); nil for a
	// runtime argument.
	Value Value
}

// IsConstexpr reports whether the entry binds a compile-time constant.
func (e SigEntry) IsConstexpr() bool { return e.Value != nil }

// ParseSignature parses a comma-separated signature in triton.tools.compile's syntax,
// extended with True/False, None, quoted strings, dtypes (tl.bfloat16) and tensor descriptors
// (tensordesc<fp16[128, 64]>). An empty entry is not allowed.
func ParseSignature(sig string) ([]SigEntry, error) {
	parts, err := splitTopLevel(sig)
	if err != nil {
		return nil, err
	}
	out := make([]SigEntry, 0, len(parts))
	for i, p := range parts {
		e, err := parseSigEntry(p)
		if err != nil {
			return nil, fmt.Errorf("signature entry %d (%q): %v", i+1, strings.TrimSpace(p), err)
		}
		out = append(out, e)
	}
	return out, nil
}

// splitTopLevel splits on commas outside brackets and quotes.
func splitTopLevel(s string) ([]string, error) {
	var parts []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '[' || c == '<' || c == '(':
			depth++
		case c == ']' || c == '>' || c == ')':
			depth--
		case c == ',' && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("signature has an unterminated string")
	}
	if depth != 0 {
		return nil, fmt.Errorf("signature has unbalanced brackets")
	}
	parts = append(parts, s[start:])
	if len(parts) == 1 && strings.TrimSpace(parts[0]) == "" {
		return nil, nil
	}
	return parts, nil
}

func parseSigEntry(p string) (SigEntry, error) {
	p = strings.TrimSpace(p)
	e := SigEntry{Text: p}
	if p == "" {
		return e, fmt.Errorf("empty entry")
	}
	if v, ok := parseConstLiteral(p); ok {
		e.Value = v
		return e, nil
	}
	base, hint, hasHint := strings.Cut(p, ":")
	if strings.HasPrefix(p, "tensordesc<") {
		base, hasHint = p, false
	}
	t, err := parseTypeName(base)
	if err != nil {
		return e, err
	}
	if hasHint {
		h := strings.TrimSpace(hint)
		switch h {
		case "16":
			e.Divisibility = 16
		case "1":
			if _, ok := t.(DType); !ok || !t.(DType).IsInt() {
				return e, fmt.Errorf("hint :1 applies to integers only")
			}
			e.Value = Const{pyeval.NewInt(1)}
			return e, nil
		default:
			return e, fmt.Errorf("only 1 and 16 are valid hints, got %s", h)
		}
		if _, ok := t.(*DescType); ok {
			return e, fmt.Errorf("a tensor descriptor takes no hint")
		}
		if d, ok := t.(DType); ok && !d.IsInt() {
			return e, fmt.Errorf("a divisibility hint applies to pointers and integers only")
		}
	}
	e.Type = t
	return e, nil
}

// parseConstLiteral parses a bare constexpr: an int or float (as Python's int() and float()
// read them), True, False, None, a quoted string, or a dtype (tl.float16,
// triton.language.int64).
func parseConstLiteral(s string) (Value, bool) {
	switch s {
	case "True":
		return Const{pyeval.Bool(true)}, true
	case "False":
		return Const{pyeval.Bool(false)}, true
	case "None":
		return Const{pyeval.None}, true
	}
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return Const{pyeval.Str(s[1 : len(s)-1])}, true
	}
	for _, prefix := range []string{"tl.", "triton.language.", "torch."} {
		if name, ok := strings.CutPrefix(s, prefix); ok {
			if d, ok := dtypeByName[name]; ok {
				return DTypeVal{d}, true
			}
			if prefix == "torch." {
				continue
			}
			// a tl function passed as a constexpr (func=tl.extra.cuda.globaltimer)
			switch v := resolveRef("triton.language." + name).(type) {
			case BuiltinRef, JITRef:
				return v, true
			}
		}
	}
	digits := strings.ReplaceAll(s, "_", "")
	if n, ok := new(big.Int).SetString(digits, 10); ok && !strings.HasPrefix(s, "_") {
		return Const{pyeval.Int{V: n}}, true
	}
	if f, err := strconv.ParseFloat(digits, 64); err == nil && !strings.ContainsAny(s, "xXpP") {
		return Const{pyeval.Float(f)}, true
	}
	return nil, false
}
