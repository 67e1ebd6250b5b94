package pyeval

import "math"

// JSON converts v to a value encoding/json writes naturally: numbers, strings, bools, null,
// arrays and objects (dict keys as their str()). Unknowns become {"unknown": why}; floats
// that JSON cannot hold (inf, nan) become their Python repr.
func JSON(v Value) any {
	switch v := v.(type) {
	case NoneValue:
		return nil
	case Bool:
		return bool(v)
	case Int:
		if n, ok := v.Int64(); ok {
			return n
		}
		return v.V.String()
	case Float:
		if math.IsInf(float64(v), 0) || math.IsNaN(float64(v)) {
			return FloatRepr(float64(v))
		}
		return float64(v)
	case Str:
		return string(v)
	case Tuple:
		return jsonSeq(v)
	case *List:
		return jsonSeq(v.Elems)
	case *Dict:
		m := make(map[string]any, len(v.Keys))
		for i, k := range v.Keys {
			m[ToStr(k)] = JSON(v.Vals[i])
		}
		return m
	case Unknown:
		return map[string]any{"unknown": v.Why}
	case *Config:
		return map[string]any{
			"kwargs": JSON(v.Kwargs), "num_warps": JSON(v.NumWarps), "num_stages": JSON(v.NumStages),
			"num_ctas": JSON(v.NumCtas), "maxnreg": JSON(v.Maxnreg),
		}
	}
	return Repr(v)
}

func jsonSeq(vs []Value) []any {
	out := make([]any, len(vs))
	for i, e := range vs {
		out[i] = JSON(e)
	}
	return out
}
