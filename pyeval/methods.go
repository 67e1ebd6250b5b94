package pyeval

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gotriton/gotriton/ast"
)

// methodNames lists, per type, the methods of Python's builtin types. Those callMethod
// does not evaluate give an Unknown; any other name is an AttributeError.
var methodNames = map[string]string{
	"str": "capitalize casefold center count encode endswith expandtabs find format format_map index " +
		"isalnum isalpha isascii isdecimal isdigit isidentifier islower isnumeric isprintable isspace " +
		"istitle isupper join ljust lower lstrip maketrans partition removeprefix removesuffix replace " +
		"rfind rindex rjust rpartition rsplit rstrip split splitlines startswith strip swapcase title " +
		"translate upper zfill",
	"list":      "append clear copy count extend index insert pop remove reverse sort",
	"tuple":     "count index",
	"dict":      "clear copy fromkeys get items keys pop popitem setdefault update values",
	"set":       "add clear copy difference difference_update discard intersection intersection_update isdisjoint issubset issuperset pop remove symmetric_difference symmetric_difference_update union update",
	"frozenset": "copy difference intersection isdisjoint issubset issuperset symmetric_difference union",
	"int":       "bit_count bit_length conjugate to_bytes as_integer_ratio is_integer",
	"float":     "as_integer_ratio conjugate hex is_integer",
}

// typeMethod returns T.name for a builtin type T (str.join, dict.fromkeys): a function
// whose first argument is the receiver.
func typeMethod(t *Builtin, name string) (Value, bool) {
	if !builtinTypes[t.Name] || !strings.Contains(" "+methodNames[t.Name]+" ", " "+name+" ") {
		return nil, false
	}
	return &Builtin{t.Name + "." + name, func(ev *evaluator, args []Value, kwargs *Dict) (Value, error) {
		if t.Name == "dict" && name == "fromkeys" {
			return dictMethod(&Dict{}, name, args, kwargs)
		}
		if len(args) == 0 || args[0].TypeName() != t.Name {
			return nil, typeError("unbound method %s.%s() needs an argument", t.Name, name)
		}
		return ev.callMethod(boundMethod{args[0], name}, args[1:], kwargs, ev.pos)
	}}, true
}

// valueMethod returns obj.name for a method of a builtin value.
func valueMethod(obj Value, name string) (Value, bool) {
	switch obj.(type) {
	case Str, *List, Tuple, *Dict, *Set, Int, Float:
	default:
		return nil, false
	}
	for _, m := range strings.Fields(methodNames[obj.TypeName()]) {
		if m == name {
			return boundMethod{obj, name}, true
		}
	}
	return nil, false
}

func (ev *evaluator) callMethod(m boundMethod, args []Value, kwargs *Dict, pos ast.Pos) (Value, error) {
	ev.pos = pos
	v, err := ev.method(m, args, kwargs)
	if err != nil {
		return nil, ev.fail(pos, err)
	}
	if v == nil {
		return unknownf("%s.%s() is not evaluated offline", m.recv.TypeName(), m.name), nil
	}
	return v, nil
}

// method runs a method of a builtin value; nil, nil means it is not modelled.
func (ev *evaluator) method(m boundMethod, args []Value, kwargs *Dict) (Value, error) {
	if u, ok := unknownIn(args...); ok && m.name != "append" && m.name != "get" {
		return u, nil
	}
	switch r := m.recv.(type) {
	case Str:
		return ev.strMethod(string(r), m.name, args, kwargs)
	case TorchVersionStr:
		return ev.strMethod(r.S, m.name, args, kwargs)
	case *List:
		return ev.listMethod(r, m.name, args, kwargs)
	case Tuple:
		return seqMethod([]Value(r), "tuple", m.name, args)
	case *Dict:
		return dictMethod(r, m.name, args, kwargs)
	case *Set:
		return setMethod(r, m.name, args)
	case Int:
		switch m.name {
		case "bit_length":
			return NewInt(int64(r.V.BitLen())), nil
		case "bit_count":
			n := 0
			for _, w := range r.V.Bits() {
				for ; w != 0; w &= w - 1 {
					n++
				}
			}
			return NewInt(int64(n)), nil
		}
	case Float:
		if m.name == "is_integer" {
			return Bool(float64(r) == float64(int64(r))), nil
		}
	}
	return nil, nil
}

func argStr(name string, args []Value, i int) (string, error) {
	if i >= len(args) {
		return "", typeError("%s() takes at least %d argument(s) (%d given)", name, i+1, len(args))
	}
	s, ok := args[i].(Str)
	if !ok {
		return "", typeError("%s() argument must be str, not %s", name, args[i].TypeName())
	}
	return string(s), nil
}

func strList(parts []string) *List {
	out := make([]Value, len(parts))
	for i, p := range parts {
		out[i] = Str(p)
	}
	return &List{out}
}

func (ev *evaluator) strMethod(s, name string, args []Value, kwargs *Dict) (Value, error) {
	switch name {
	case "upper":
		return Str(strings.ToUpper(s)), nil
	case "lower", "casefold":
		return Str(strings.ToLower(s)), nil
	case "capitalize":
		if s == "" {
			return Str(""), nil
		}
		r := []rune(strings.ToLower(s))
		r[0] = unicode.ToUpper(r[0])
		return Str(string(r)), nil
	case "title":
		prev := false
		var b strings.Builder
		for _, c := range s {
			if unicode.IsLetter(c) {
				if prev {
					b.WriteRune(unicode.ToLower(c))
				} else {
					b.WriteRune(unicode.ToUpper(c))
				}
				prev = true
			} else {
				b.WriteRune(c)
				prev = false
			}
		}
		return Str(b.String()), nil
	case "swapcase":
		return Str(strings.Map(func(c rune) rune {
			if unicode.IsUpper(c) {
				return unicode.ToLower(c)
			}
			return unicode.ToUpper(c)
		}, s)), nil
	case "strip", "lstrip", "rstrip":
		cut := " \t\n\r\v\f"
		if len(args) > 0 && args[0] != None {
			c, err := argStr(name, args, 0)
			if err != nil {
				return nil, err
			}
			cut = c
		}
		switch name {
		case "lstrip":
			return Str(strings.TrimLeft(s, cut)), nil
		case "rstrip":
			return Str(strings.TrimRight(s, cut)), nil
		}
		return Str(strings.Trim(s, cut)), nil
	case "startswith", "endswith":
		if len(args) == 0 {
			return nil, typeError("%s() takes at least 1 argument (0 given)", name)
		}
		var options []Value
		switch a := args[0].(type) {
		case Str:
			options = []Value{a}
		case Tuple:
			options = a
		default:
			return nil, typeError("%s first arg must be str or a tuple of str, not %s", name, a.TypeName())
		}
		for _, o := range options {
			p, ok := o.(Str)
			if !ok {
				return nil, typeError("tuple for %s must only contain str, not %s", name, o.TypeName())
			}
			if (name == "startswith" && strings.HasPrefix(s, string(p))) || (name == "endswith" && strings.HasSuffix(s, string(p))) {
				return Bool(true), nil
			}
		}
		return Bool(false), nil
	case "removeprefix", "removesuffix":
		a, err := argStr(name, args, 0)
		if err != nil {
			return nil, err
		}
		if name == "removeprefix" {
			return Str(strings.TrimPrefix(s, a)), nil
		}
		return Str(strings.TrimSuffix(s, a)), nil
	case "replace":
		old, err := argStr(name, args, 0)
		if err != nil {
			return nil, err
		}
		repl, err := argStr(name, args, 1)
		if err != nil {
			return nil, err
		}
		n := -1
		if c, ok := kw(args, kwargs, 2, "count").(Int); ok {
			n = int(c.V.Int64())
		}
		return Str(strings.Replace(s, old, repl, n)), nil
	case "split", "rsplit":
		n := -1
		if c, ok := kw(args, kwargs, 1, "maxsplit").(Int); ok {
			n = int(c.V.Int64())
		}
		sep := kw(args, kwargs, 0, "sep")
		if sep == nil || sep == None {
			fields := strings.Fields(s)
			if n >= 0 && len(fields) > n {
				return unknownf("%s with maxsplit and no separator", name), nil
			}
			return strList(fields), nil
		}
		sp, ok := sep.(Str)
		if !ok {
			return nil, typeError("must be str or None, not %s", sep.TypeName())
		}
		if sp == "" {
			return nil, &Error{"ValueError", "empty separator"}
		}
		if n < 0 {
			return strList(strings.Split(s, string(sp))), nil
		}
		if name == "split" {
			return strList(strings.SplitN(s, string(sp), n+1)), nil
		}
		parts := strings.Split(s, string(sp))
		if len(parts) > n+1 {
			head := strings.Join(parts[:len(parts)-n], string(sp))
			parts = append([]string{head}, parts[len(parts)-n:]...)
		}
		return strList(parts), nil
	case "splitlines":
		return strList(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })), nil
	case "join":
		if len(args) != 1 {
			return nil, typeError("str.join() takes exactly one argument (%d given)", len(args))
		}
		it, u, err := items("join", args[0])
		if u != nil || err != nil {
			return u, err
		}
		parts := make([]string, len(it))
		for i, x := range it {
			p, ok := x.(Str)
			if !ok {
				if u, isU := x.(Unknown); isU {
					return u, nil
				}
				return nil, typeError("sequence item %d: expected str instance, %s found", i, x.TypeName())
			}
			parts[i] = string(p)
		}
		return Str(strings.Join(parts, s)), nil
	case "find", "rfind", "index", "rindex", "count":
		sub, err := argStr(name, args, 0)
		if err != nil {
			return nil, err
		}
		switch name {
		case "count":
			return NewInt(int64(strings.Count(s, sub))), nil
		case "find", "index":
			i := strings.Index(s, sub)
			if i < 0 && name == "index" {
				return nil, &Error{"ValueError", "substring not found"}
			}
			return NewInt(int64(i)), nil
		}
		i := strings.LastIndex(s, sub)
		if i < 0 && name == "rindex" {
			return nil, &Error{"ValueError", "substring not found"}
		}
		return NewInt(int64(i)), nil
	case "partition", "rpartition":
		sep, err := argStr(name, args, 0)
		if err != nil {
			return nil, err
		}
		i := strings.Index(s, sep)
		if name == "rpartition" {
			i = strings.LastIndex(s, sep)
		}
		if i < 0 {
			if name == "rpartition" {
				return Tuple{Str(""), Str(""), Str(s)}, nil
			}
			return Tuple{Str(s), Str(""), Str("")}, nil
		}
		return Tuple{Str(s[:i]), Str(sep), Str(s[i+len(sep):])}, nil
	case "zfill", "ljust", "rjust", "center":
		w, ok := kw(args, kwargs, 0, "width").(Int)
		if !ok {
			return nil, typeError("%s() takes an integer width", name)
		}
		fill := " "
		if len(args) > 1 {
			f, err := argStr(name, args, 1)
			if err != nil {
				return nil, err
			}
			fill = f
		}
		width := int(w.V.Int64())
		if marg := width - utf8.RuneCountInString(s); name == "center" && marg > 0 {
			left := marg/2 + (marg & width & 1) // CPython's rounding, unlike format's '^'
			return Str(strings.Repeat(fill, left) + s + strings.Repeat(fill, marg-left)), nil
		}
		align := map[string]byte{"zfill": '=', "ljust": '<', "rjust": '>', "center": '^'}[name]
		if name == "zfill" {
			fill = "0"
		}
		return Str(pad(s, width, align, fill)), nil
	case "isdigit", "isdecimal", "isnumeric", "isalpha", "isalnum", "isspace", "isupper", "islower", "isidentifier", "isascii":
		return Bool(strPredicate(s, name)), nil
	case "format":
		return formatString(s, args, kwargs)
	case "format_map":
		if d, ok := kw(args, kwargs, 0, "mapping").(*Dict); ok {
			return formatString(s, nil, d)
		}
	case "encode":
		return unknownf("bytes are not modelled"), nil
	}
	return nil, nil
}

func strPredicate(s, name string) bool {
	if s == "" {
		return name == "isascii"
	}
	cased := false
	for i, c := range s {
		ok := true
		switch name {
		case "isdigit", "isdecimal", "isnumeric":
			ok = unicode.IsDigit(c)
		case "isalpha":
			ok = unicode.IsLetter(c)
		case "isalnum":
			ok = unicode.IsLetter(c) || unicode.IsDigit(c)
		case "isspace":
			ok = unicode.IsSpace(c)
		case "isupper":
			ok = !unicode.IsLower(c)
			cased = cased || unicode.IsUpper(c)
		case "islower":
			ok = !unicode.IsUpper(c)
			cased = cased || unicode.IsLower(c)
		case "isidentifier":
			ok = c == '_' || unicode.IsLetter(c) || (i > 0 && unicode.IsDigit(c))
		case "isascii":
			ok = c < 128
		}
		if !ok {
			return false
		}
	}
	if name == "isupper" || name == "islower" {
		return cased
	}
	return true
}

// seqMethod runs count and index, which lists and tuples share.
func seqMethod(elems []Value, typ, name string, args []Value) (Value, error) {
	switch name {
	case "count":
		if len(args) != 1 {
			return nil, typeError("count() takes exactly one argument (%d given)", len(args))
		}
		n := 0
		for _, e := range elems {
			if Equal(e, args[0]) {
				n++
			}
		}
		return NewInt(int64(n)), nil
	case "index":
		if len(args) < 1 {
			return nil, typeError("index expected at least 1 argument, got 0")
		}
		for i, e := range elems {
			if Equal(e, args[0]) {
				return NewInt(int64(i)), nil
			}
		}
		if typ == "tuple" {
			return nil, &Error{"ValueError", "tuple.index(x): x not in tuple"}
		}
		return nil, &Error{"ValueError", Repr(args[0]) + " is not in list"}
	}
	return nil, nil
}

func (ev *evaluator) listMethod(l *List, name string, args []Value, kwargs *Dict) (Value, error) {
	switch name {
	case "append":
		if len(args) != 1 {
			return nil, typeError("list.append() takes exactly one argument (%d given)", len(args))
		}
		l.Elems = append(l.Elems, args[0])
		return None, nil
	case "extend":
		if len(args) != 1 {
			return nil, typeError("list.extend() takes exactly one argument (%d given)", len(args))
		}
		it, u, err := items("extend", args[0])
		if u != nil || err != nil {
			return u, err
		}
		l.Elems = append(l.Elems, it...)
		return None, nil
	case "insert":
		if len(args) != 2 {
			return nil, typeError("insert expected 2 arguments, got %d", len(args))
		}
		i, ok := args[0].(Int)
		if !ok {
			return nil, typeError("'%s' object cannot be interpreted as an integer", args[0].TypeName())
		}
		n := int64(len(l.Elems))
		at := i.V.Int64()
		if at < 0 {
			at = max(at+n, 0)
		}
		at = min(at, n)
		l.Elems = append(l.Elems[:at], append([]Value{args[1]}, l.Elems[at:]...)...)
		return None, nil
	case "pop":
		if len(l.Elems) == 0 {
			return nil, &Error{"IndexError", "pop from empty list"}
		}
		at := len(l.Elems) - 1
		if len(args) > 0 {
			i, err := index(args[0], len(l.Elems))
			if err != nil {
				return nil, prefixed("pop ", err)
			}
			at = i
		}
		v := l.Elems[at]
		l.Elems = append(l.Elems[:at:at], l.Elems[at+1:]...)
		return v, nil
	case "remove":
		for i, e := range l.Elems {
			if len(args) == 1 && Equal(e, args[0]) {
				l.Elems = append(l.Elems[:i:i], l.Elems[i+1:]...)
				return None, nil
			}
		}
		return nil, &Error{"ValueError", "list.remove(x): x not in list"}
	case "clear":
		l.Elems = nil
		return None, nil
	case "copy":
		return &List{append([]Value{}, l.Elems...)}, nil
	case "reverse":
		for i, j := 0, len(l.Elems)-1; i < j; i, j = i+1, j-1 {
			l.Elems[i], l.Elems[j] = l.Elems[j], l.Elems[i]
		}
		return None, nil
	case "sort":
		rev, _ := Truth(orDefault(kwargs.Get(Str("reverse")), Bool(false)))
		if err := sortValues(ev, l.Elems, kwargs.Get(Str("key")), rev); err != nil {
			if exception(err) == nil {
				return unknownf("list.sort(): %v", err), nil
			}
			return nil, err
		}
		return None, nil
	}
	return seqMethod(l.Elems, "list", name, args)
}

func dictMethod(d *Dict, name string, args []Value, kwargs *Dict) (Value, error) {
	switch name {
	case "get":
		if len(args) == 0 || len(args) > 2 {
			return nil, typeError("get expected at most 2 arguments, got %d", len(args))
		}
		if u, ok := args[0].(Unknown); ok {
			return u, nil
		}
		if v := d.Get(args[0]); v != nil {
			return v, nil
		}
		if len(args) > 1 {
			return args[1], nil
		}
		return None, nil
	case "keys":
		return &List{append([]Value{}, d.Keys...)}, nil
	case "values":
		return &List{append([]Value{}, d.Vals...)}, nil
	case "items":
		out := make([]Value, len(d.Keys))
		for i := range d.Keys {
			out[i] = Tuple{d.Keys[i], d.Vals[i]}
		}
		return &List{out}, nil
	case "copy":
		return &Dict{append([]Value{}, d.Keys...), append([]Value{}, d.Vals...)}, nil
	case "clear":
		d.Keys, d.Vals = nil, nil
		return None, nil
	case "update":
		for _, a := range args {
			src, err := builtinDict(nil, []Value{a}, &Dict{})
			if err != nil {
				return nil, err
			}
			s, ok := src.(*Dict)
			if !ok {
				return src, nil
			}
			for i, k := range s.Keys {
				d.Set(k, s.Vals[i])
			}
		}
		for i, k := range kwargs.Keys {
			d.Set(k, kwargs.Vals[i])
		}
		return None, nil
	case "setdefault":
		if len(args) == 0 {
			return nil, typeError("setdefault expected at least 1 argument, got 0")
		}
		if v := d.Get(args[0]); v != nil {
			return v, nil
		}
		def := Value(None)
		if len(args) > 1 {
			def = args[1]
		}
		d.Set(args[0], def)
		return def, nil
	case "pop":
		if len(args) == 0 {
			return nil, typeError("pop expected at least 1 argument, got 0")
		}
		for i, k := range d.Keys {
			if Equal(k, args[0]) {
				v := d.Vals[i]
				d.Keys = append(d.Keys[:i:i], d.Keys[i+1:]...)
				d.Vals = append(d.Vals[:i:i], d.Vals[i+1:]...)
				return v, nil
			}
		}
		if len(args) > 1 {
			return args[1], nil
		}
		return nil, &Error{"KeyError", Repr(args[0])}
	case "fromkeys":
		it, u, err := items("fromkeys", orDefault(kw(args, kwargs, 0, "iterable"), Tuple{}))
		if u != nil || err != nil {
			return u, err
		}
		out := &Dict{}
		for _, k := range it {
			out.Set(k, orDefault(kw(args, kwargs, 1, "value"), None))
		}
		return out, nil
	}
	return nil, nil
}

func setMethod(s *Set, name string, args []Value) (Value, error) {
	other := func() (*Set, error) {
		if len(args) != 1 {
			return nil, typeError("%s() takes exactly one argument (%d given)", name, len(args))
		}
		it, err := iterate(args[0])
		if err != nil {
			return nil, err
		}
		return newSet(it, false), nil
	}
	switch name {
	case "add":
		if len(args) != 1 {
			return nil, typeError("set.add() takes exactly one argument (%d given)", len(args))
		}
		s.add(args[0])
		return None, nil
	case "discard", "remove":
		for i, e := range s.Elems {
			if len(args) == 1 && Equal(e, args[0]) {
				s.Elems = append(s.Elems[:i:i], s.Elems[i+1:]...)
				return None, nil
			}
		}
		if name == "remove" && len(args) == 1 {
			return nil, &Error{"KeyError", Repr(args[0])}
		}
		return None, nil
	case "copy":
		return &Set{append([]Value{}, s.Elems...), s.Frozen}, nil
	case "union", "intersection", "difference", "symmetric_difference":
		o, err := other()
		if err != nil {
			return nil, err
		}
		op := map[string]string{"union": "|", "intersection": "&", "difference": "-", "symmetric_difference": "^"}[name]
		out, _ := setOp(op, s, o)
		return out, nil
	case "update":
		o, err := other()
		if err != nil {
			return nil, err
		}
		for _, e := range o.Elems {
			s.add(e)
		}
		return None, nil
	case "issubset", "issuperset", "isdisjoint":
		o, err := other()
		if err != nil {
			return nil, err
		}
		a, b := s, o
		if name == "issuperset" {
			a, b = o, s
		}
		for _, e := range a.Elems {
			if containsSeq(b.Elems, e) == (name == "isdisjoint") {
				return Bool(false), nil
			}
		}
		return Bool(true), nil
	}
	return nil, nil
}
