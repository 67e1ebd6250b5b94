package pyeval

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/gotriton/gotriton/ast"
)

// stmt executes one statement inside a function or at module level.
func (ev *evaluator) stmt(st ast.Stmt, s *scope) (flow, error) {
	switch st := st.(type) {
	case *ast.ExprStmt:
		_, err := ev.expr(st.Value, s)
		return flowNext, err
	case *ast.Assign:
		v, err := ev.expr(st.Value, s)
		if err != nil {
			return flowNext, err
		}
		for _, t := range st.Targets {
			if err := ev.assign(t, v, s); err != nil {
				return flowNext, err
			}
		}
	case *ast.AnnAssign:
		if st.Value == nil {
			return flowNext, nil
		}
		v, err := ev.expr(st.Value, s)
		if err != nil {
			return flowNext, err
		}
		return flowNext, ev.assign(st.Target, v, s)
	case *ast.AugAssign:
		cur, err := ev.expr(st.Target, s)
		if err != nil {
			return flowNext, err
		}
		rhs, err := ev.expr(st.Value, s)
		if err != nil {
			return flowNext, err
		}
		if l, ok := cur.(*List); ok && st.Op == ast.Add { // list += iterable extends in place
			items, err := iterate(rhs)
			if err != nil {
				return flowNext, err
			}
			l.Elems = append(l.Elems, items...)
			return flowNext, nil
		}
		if r, ok := refOperand(cur, rhs); ok {
			return flowNext, ev.assign(st.Target, unknownf("%s: the value of %s is not modelled", ev.mod.Text(st.Pos), r.Path), s)
		}
		v, err := BinOp(st.Op.Symbol(), cur, rhs)
		if err != nil {
			return flowNext, ev.fail(st.Pos, err)
		}
		return flowNext, ev.assign(st.Target, v, s)
	case *ast.Return:
		ev.retval = None
		if st.Value != nil {
			v, err := ev.expr(st.Value, s)
			if err != nil {
				return flowNext, err
			}
			ev.retval = v
		}
		return flowReturn, nil
	case *ast.If:
		truth, err := ev.condition(st.Test, s)
		if err != nil {
			return flowNext, err
		}
		if truth {
			return ev.block(st.Body, s)
		}
		return ev.block(st.Orelse, s)
	case *ast.For:
		it, err := ev.expr(st.Iter, s)
		if err != nil {
			return flowNext, err
		}
		items, err := iterate(it)
		if err != nil {
			return flowNext, ev.fail(st.Iter.Position(), err)
		}
		for _, item := range items {
			if err := ev.assign(st.Target, item, s); err != nil {
				return flowNext, err
			}
			f, err := ev.block(st.Body, s)
			if err != nil || f == flowReturn {
				return f, err
			}
			if f == flowBreak {
				return flowNext, nil
			}
		}
		return ev.block(st.Orelse, s)
	case *ast.While:
		for {
			truth, err := ev.condition(st.Test, s)
			if err != nil {
				return flowNext, err
			}
			if !truth {
				return ev.block(st.Orelse, s)
			}
			f, err := ev.block(st.Body, s)
			if err != nil || f == flowReturn {
				return f, err
			}
			if f == flowBreak {
				return flowNext, nil
			}
		}
	case *ast.FunctionDef:
		return flowNext, ev.defineFunction(st, s)
	case *ast.Import:
		for _, a := range st.Names {
			name, path := a.Asname, a.Name
			if name == "" { // `import a.b.c` binds `a`
				name, _, _ = cutDot(a.Name)
				path = name
			}
			mod, err := ev.importModule(st, a.Name, 0)
			if err == nil && a.Asname == "" {
				mod, err = ev.importModule(st, name, 0)
			}
			if err != nil {
				ev.bindFailedImport(s, name, path, int(a.Lineno), err)
				return flowNext, err
			}
			ev.bindImport(s, name, path, int(a.Lineno), mod)
		}
	case *ast.ImportFrom:
		mod, err := ev.importModule(st, st.Module, st.Level)
		for _, a := range st.Names {
			if a.Name == "*" {
				if m, ok := mod.(*Module); ok {
					for _, n := range m.publicNames() {
						v, _ := m.Lookup(n)
						ev.bindImport(s, n, m.Name+"."+n, int(a.Lineno), v)
					}
				}
				continue
			}
			name := cmpOr(a.Asname, a.Name)
			path := a.Name
			if st.Module != "" {
				path = st.Module + "." + a.Name
			}
			path = repeatDots(st.Level) + path
			v := mod
			if err == nil {
				v, err = ev.importFrom(st, mod, path, a.Name)
			}
			if err != nil {
				ev.bindFailedImport(s, name, path, int(a.Lineno), err)
				return flowNext, err
			}
			ev.bindImport(s, name, path, int(a.Lineno), v)
		}
	case *ast.ClassDef:
		if ev.inScript() {
			return ev.extraStmt(st, s)
		}
		return flowNext, ev.defineClass(st, s)
	case *ast.Delete:
		if ev.inScript() {
			return ev.extraStmt(st, s)
		}
		for _, t := range st.Targets {
			if err := ev.delete(t, s); err != nil {
				return flowNext, err
			}
		}
	case *ast.With:
		if ev.inScript() {
			return ev.extraStmt(st, s)
		}
		if err := ev.withItems(st.Items, s); err != nil {
			return flowNext, err
		}
		return ev.block(st.Body, s)
	case *ast.Pass, *ast.Global, *ast.Nonlocal:
	case *ast.Break:
		return flowBreak, nil
	case *ast.Continue:
		return flowContinue, nil
	case *ast.Assert:
		truth, err := ev.condition(st.Test, s)
		if err != nil {
			return flowNext, err
		}
		if !truth {
			msg := ""
			if st.Msg != nil {
				m, err := ev.expr(st.Msg, s)
				if err != nil {
					return flowNext, err
				}
				msg = ToStr(m)
			}
			return flowNext, raisedByCode(ev.raise(st.Pos, "AssertionError", "%s", msg))
		}
	case *ast.Raise:
		return flowNext, ev.raiseStmt(st, s)
	case *ast.Try:
		return ev.tryStmt(st, s, ev.block)
	default:
		if ev.inScript() {
			return ev.extraStmt(st, s)
		}
		return flowNext, ev.errorf(st.Position(), "host code statement %T is not evaluated at compile time", st)
	}
	return flowNext, nil
}

func repeatDots(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '.'
	}
	return string(b)
}

func cutDot(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// bindImport binds a name an import statement defines to v.
func (ev *evaluator) bindImport(s *scope, name, path string, line int, v Value) {
	s.set(name, v)
	if s == ev.mod.globals {
		ev.mod.Imports = append(ev.mod.Imports, Import{Name: name, Path: path, Line: line})
	}
}

// bindFailedImport records an import that raised. The name becomes an Unknown with the
// reason, unless an earlier statement bound it, as a failed import binds nothing.
func (ev *evaluator) bindFailedImport(s *scope, name, path string, line int, err error) {
	if v, ok := s.get(name); ok {
		if _, unknown := v.(Unknown); !unknown {
			if s == ev.mod.globals {
				ev.mod.Imports = append(ev.mod.Imports, Import{Name: name, Path: path, Line: line})
			}
			return
		}
	}
	ev.bindImport(s, name, path, line, Unknown{err.Error()})
}

func (ev *evaluator) block(body []ast.Stmt, s *scope) (flow, error) {
	for _, st := range body {
		f, err := ev.stmt(st, s)
		if err != nil && ev.tolerate(err) {
			ev.skip(st, s, err)
			continue
		}
		if err != nil || f != flowNext {
			return f, err
		}
	}
	return flowNext, nil
}

func (ev *evaluator) condition(e ast.Expr, s *scope) (bool, error) {
	v, err := ev.expr(e, s)
	if err != nil {
		return false, err
	}
	truth, known := Truth(v)
	if !known {
		why := "the truth value of a tensor"
		if u, ok := v.(Unknown); ok {
			why = u.Why
		}
		return false, ev.errorf(e.Position(), "condition %q depends on host state: %s", ev.quoteText(e), why)
	}
	return truth, nil
}

// refOperand returns the operand that is a modelled name (a constant of a library, such as
// triton.language.core.TRITON_MAX_TENSOR_NUMEL): host code cannot do arithmetic on it
// offline, though Python could.
func refOperand(a, b Value) (Ref, bool) {
	if r, ok := a.(Ref); ok {
		return r, true
	}
	r, ok := b.(Ref)
	return r, ok
}

// isOrdering reports whether a comparison orders its operands (<, <=, >, >=).
func isOrdering(op ast.CmpOp) bool {
	switch op {
	case ast.Lt, ast.LtE, ast.Gt, ast.GtE:
		return true
	}
	return false
}

// tryStmt runs a try statement. run executes a block: ev.block inside functions, the
// module form (which recovers from limits of offline evaluation) at module level. An
// exception the body raises goes to the first handler whose class matches, as in Python;
// a limit of evaluation is not caught.
func (ev *evaluator) tryStmt(st *ast.Try, s *scope, run func([]ast.Stmt, *scope) (flow, error)) (flow, error) {
	f, err := run(st.Body, s)
	switch exc := exception(err); {
	case err == nil && f == flowNext:
		f, err = run(st.Orelse, s)
	case exc != nil:
		for _, h := range st.Handlers {
			var class Value
			if h.Type != nil {
				c, cerr := ev.expr(h.Type, s)
				if cerr != nil {
					return flowNext, cerr
				}
				class = c
			}
			catches, known := handles(class, exc)
			if !known {
				return flowNext, ev.errorf(h.Pos, "whether `except %s` catches %s is not known offline (%s)", ev.quoteText(h.Type), exc.Kind, err)
			}
			if catches {
				if h.Name != "" {
					s.set(h.Name, exc)
				}
				f, err = run(h.Body, s)
				break
			}
		}
	}
	if len(st.Finalbody) > 0 {
		if f2, err2 := run(st.Finalbody, s); err2 != nil || f2 != flowNext {
			return f2, err2
		}
	}
	return f, err
}

// raiseStmt evaluates a raise statement to the exception it raises.
func (ev *evaluator) raiseStmt(st *ast.Raise, s *scope) error {
	if st.Exc == nil {
		return raisedByCode(ev.errorf(st.Pos, "a bare raise is not evaluated offline"))
	}
	v, err := ev.expr(st.Exc, s)
	if err != nil {
		return err
	}
	exc, ok := raiseValue(v)
	if !ok {
		return raisedByCode(ev.errorf(st.Pos, "raise %s: the exception is not known offline", ev.quoteText(st.Exc)))
	}
	return raisedByCode(&posError{msg: ev.where(st.Pos) + exc.Error(), err: exc})
}

// delete runs `del target`.
func (ev *evaluator) delete(t ast.Expr, s *scope) error {
	switch t := t.(type) {
	case *ast.Name:
		if i := s.find(t.ID); i >= 0 {
			s.set(t.ID, unknownf("%s was deleted (line %d)", t.ID, t.Lineno))
			return nil
		}
		return ev.raise(t.Pos, "NameError", "name '%s' is not defined", t.ID)
	case *ast.Subscript:
		obj, err := ev.expr(t.Value, s)
		if err != nil {
			return err
		}
		key, err := ev.expr(t.Slice, s)
		if err != nil {
			return err
		}
		switch o := obj.(type) {
		case *Dict:
			if _, err := dictMethod(o, "pop", []Value{key}, &Dict{}); err != nil {
				return ev.fail(t.Pos, err)
			}
		case *List:
			if _, err := ev.listMethod(o, "pop", []Value{key}, &Dict{}); err != nil {
				return ev.fail(t.Pos, err)
			}
		}
	case *ast.Tuple:
		for _, e := range t.Elts {
			if err := ev.delete(e, s); err != nil {
				return err
			}
		}
	}
	return nil
}

// defineFunction binds a def, applying its decorators innermost first.
func (ev *evaluator) defineFunction(def *ast.FunctionDef, s *scope) error {
	var v Value = &Function{Name: def.Name, Def: def, Module: ev.mod, scope: s}
	decorators := make([]Decorator, len(def.DecoratorList))
	for i, d := range def.DecoratorList {
		decorators[i] = Decorator{Text: ev.mod.Text(d.Position()), Line: int(d.Position().Lineno)}
		callee := d
		if c, ok := d.(*ast.Call); ok {
			callee = c.Func
		}
		if r, err := ev.expr(callee, s); err == nil {
			if ref, ok := r.(Ref); ok {
				decorators[i].Path = ref.Path
			}
		}
	}
	for i := len(def.DecoratorList) - 1; i >= 0; i-- {
		dec, err := ev.expr(def.DecoratorList[i], s)
		if err != nil {
			return err
		}
		out, err := ev.call(dec, []Value{v}, nil, def.DecoratorList[i].Position())
		if err != nil {
			return err
		}
		if _, isJIT := v.(*JITFunction); isJIT {
			if _, stillJIT := out.(*JITFunction); !stillJIT {
				// Project-specific wrappers (caches, custom autotuners) around a jit
				// function are recorded and otherwise ignored.
				out = v
			}
		}
		v = out
	}
	if j, ok := v.(*JITFunction); ok {
		j.Decorators = decorators
	}
	s.set(def.Name, v)
	return nil
}

// assign binds v to a target expression.
func (ev *evaluator) assign(t ast.Expr, v Value, s *scope) error {
	switch t := t.(type) {
	case *ast.Name:
		s.set(t.ID, v)
		return nil
	case *ast.Tuple, *ast.List:
		var elts []ast.Expr
		if tt, ok := t.(*ast.Tuple); ok {
			elts = tt.Elts
		} else {
			elts = t.(*ast.List).Elts
		}
		if u, ok := v.(Unknown); ok {
			for _, n := range namesOf(elts) {
				s.set(n, u)
			}
			return nil
		}
		items, err := iterate(v)
		if err != nil {
			return ev.fail(t.Position(), err)
		}
		if len(items) != len(elts) {
			return ev.raise(t.Position(), "ValueError", "cannot unpack %d values into %d targets", len(items), len(elts))
		}
		for i, e := range elts {
			if err := ev.assign(e, items[i], s); err != nil {
				return err
			}
		}
		return nil
	case *ast.Subscript:
		obj, err := ev.expr(t.Value, s)
		if err != nil {
			return err
		}
		key, err := ev.expr(t.Slice, s)
		if err != nil {
			return err
		}
		switch o := obj.(type) {
		case *Dict:
			o.Set(key, v)
			return nil
		case *List:
			i, err := index(key, len(o.Elems))
			if err != nil {
				return ev.fail(t.Position(), err)
			}
			o.Elems[i] = v
			return nil
		}
		return nil // assignments into host objects (tensors, ...) have no compile-time effect
	case *ast.Attribute:
		if ev.inScript() {
			return ev.setAttr(t, v, s)
		}
		obj, err := ev.expr(t.Value, s)
		if err != nil {
			return err
		}
		return ev.setAttribute(obj, t.Attr, v, t.Pos)
	}
	return ev.errorf(t.Position(), "cannot assign to %T", t)
}

// expr evaluates an expression.
func (ev *evaluator) expr(e ast.Expr, s *scope) (Value, error) {
	ev.steps--
	if ev.steps < 0 {
		return nil, errBudget
	}
	switch e := e.(type) {
	case *ast.Constant:
		return ConstantValue(e.Value), nil
	case *ast.Name:
		if v, ok := s.get(e.ID); ok {
			return v, nil
		}
		if b, ok := scriptBuiltins[e.ID]; ok && ev.inScript() { // a script run's own models first
			return b, nil
		}
		if b, ok := builtins[e.ID]; ok {
			return b, nil
		}
		return nil, ev.raise(e.Pos, "NameError", "name '%s' is not defined", e.ID)
	case *ast.Attribute:
		obj, err := ev.expr(e.Value, s)
		if err != nil {
			return nil, err
		}
		return ev.attr(obj, e.Attr, e.Pos)
	case *ast.BinOp:
		l, err := ev.expr(e.Left, s)
		if err != nil {
			return nil, err
		}
		r, err := ev.expr(e.Right, s)
		if err != nil {
			return nil, err
		}
		if r, ok := refOperand(l, r); ok {
			return unknownf("%s: the value of %s is not modelled", ev.quoteText(e), r.Path), nil
		}
		v, err := BinOp(e.Op.Symbol(), l, r)
		if err != nil {
			return nil, ev.fail(e.Pos, err)
		}
		return v, nil
	case *ast.UnaryOp:
		v, err := ev.expr(e.Operand, s)
		if err != nil {
			return nil, err
		}
		sym := map[ast.UnaryOperator]string{ast.Invert: "~", ast.Not: "not", ast.UAdd: "+", ast.USub: "-"}[e.Op]
		out, err := UnaryOp(sym, v)
		if err != nil {
			return nil, ev.fail(e.Pos, err)
		}
		return out, nil
	case *ast.BoolOp:
		var v Value
		for _, operand := range e.Values {
			var err error
			if v, err = ev.expr(operand, s); err != nil {
				return nil, err
			}
			truth, known := Truth(v)
			if !known {
				return v, nil
			}
			if truth == (e.Op == ast.Or) {
				return v, nil
			}
		}
		return v, nil
	case *ast.Compare:
		left, err := ev.expr(e.Left, s)
		if err != nil {
			return nil, err
		}
		for i, op := range e.Ops {
			right, err := ev.expr(e.Comparators[i], s)
			if err != nil {
				return nil, err
			}
			if ref, ok := refOperand(left, right); ok && isOrdering(op) {
				return unknownf("%s: the value of %s is not modelled", ev.quoteText(e), ref.Path), nil
			}
			r, err := Compare(op.Symbol(), left, right)
			if err != nil {
				return nil, ev.fail(e.Pos, err)
			}
			if truth, known := Truth(r); !known || !truth {
				return r, nil
			}
			left = right
		}
		return Bool(true), nil
	case *ast.IfExp:
		truth, err := ev.condition(e.Test, s)
		if err != nil {
			return nil, err
		}
		if truth {
			return ev.expr(e.Body, s)
		}
		return ev.expr(e.Orelse, s)
	case *ast.Tuple:
		items, err := ev.exprList(e.Elts, s)
		return Tuple(items), err
	case *ast.List:
		items, err := ev.exprList(e.Elts, s)
		return &List{items}, err
	case *ast.Dict:
		d := newDict(len(e.Keys))
		for i, ke := range e.Keys {
			v, err := ev.expr(e.Values[i], s)
			if err != nil {
				return nil, err
			}
			if ke == nil { // {**other}
				other, ok := v.(*Dict)
				if !ok {
					return unknownf("%s is not a dict", ev.quoteText(e.Values[i])), nil
				}
				for j, k := range other.Keys {
					d.Set(k, other.Vals[j])
				}
				continue
			}
			k, err := ev.expr(ke, s)
			if err != nil {
				return nil, err
			}
			d.Set(k, v)
		}
		return d, nil
	case *ast.Set:
		items, err := ev.exprList(e.Elts, s)
		return newSet(items, false), err
	case *ast.SetComp:
		l, err := ev.listComp(e.Elt, e.Generators, s)
		if err != nil {
			return nil, err
		}
		return newSet(l.(*List).Elems, false), nil
	case *ast.ListComp:
		return ev.listComp(e.Elt, e.Generators, s)
	case *ast.GeneratorExp: // consumed whole by list(), filter(), ... so a list serves
		return ev.listComp(e.Elt, e.Generators, s)
	case *ast.DictComp:
		d := &Dict{}
		err := ev.comprehend(e.Generators, s, func(inner *scope) error {
			k, err := ev.expr(e.Key, inner)
			if err != nil {
				return err
			}
			v, err := ev.expr(e.Value, inner)
			d.Set(k, v)
			return err
		})
		return d, err
	case *ast.Subscript:
		obj, err := ev.expr(e.Value, s)
		if err != nil {
			return nil, err
		}
		if sl, ok := e.Slice.(*ast.Slice); ok {
			return ev.slice(obj, sl, s)
		}
		key, err := ev.expr(e.Slice, s)
		if err != nil {
			return nil, err
		}
		if ev.inScript() {
			if v, ok := ev.scriptSubscript(obj, key); ok {
				return v, nil
			}
		}
		v, err := subscript(obj, key)
		if err != nil {
			return nil, ev.fail(e.Pos, err)
		}
		return v, nil
	case *ast.Call:
		fn, err := ev.expr(e.Func, s)
		if err != nil {
			return nil, err
		}
		var args []Value
		if len(e.Args) > 0 {
			args = make([]Value, 0, len(e.Args))
		}
		for _, a := range e.Args {
			if st, ok := a.(*ast.Starred); ok {
				v, err := ev.expr(st.Value, s)
				if err != nil {
					return nil, err
				}
				items, err := iterate(v)
				if err != nil {
					return unknownf("*%s", ev.quoteText(st.Value)), nil
				}
				args = append(args, items...)
				continue
			}
			v, err := ev.expr(a, s)
			if err != nil {
				return nil, err
			}
			args = append(args, v)
		}
		kwargs := newDict(len(e.Keywords))
		for _, k := range e.Keywords {
			v, err := ev.expr(k.Value, s)
			if err != nil {
				return nil, err
			}
			if k.Arg == "" {
				d, ok := v.(*Dict)
				if !ok {
					return unknownf("**%s", ev.quoteText(k.Value)), nil
				}
				for i, key := range d.Keys {
					kwargs.Set(key, d.Vals[i])
				}
				continue
			}
			kwargs.Set(Str(k.Arg), v)
		}
		if ev.inScript() {
			ev.mod.script.calls = append(ev.mod.script.calls, e)
			defer func() { ev.mod.script.calls = ev.mod.script.calls[:len(ev.mod.script.calls)-1] }()
		}
		return ev.call(fn, args, kwargs, e.Pos)
	case *ast.Lambda:
		return &Function{Name: "<lambda>", Lambda: e, Module: ev.mod, scope: s}, nil
	case *ast.JoinedStr:
		out := ""
		for _, part := range e.Values {
			v, err := ev.expr(part, s)
			if err != nil {
				return nil, err
			}
			if u, ok := v.(Unknown); ok {
				return u, nil
			}
			out += ToStr(v)
		}
		return Str(out), nil
	case *ast.FormattedValue:
		v, err := ev.expr(e.Value, s)
		if err != nil {
			return nil, err
		}
		if u, ok := v.(Unknown); ok {
			return u, nil
		}
		switch e.Conversion {
		case 'r', 'a':
			v = Str(Repr(v))
		case 's':
			v = Str(ToStr(v))
		}
		spec := ""
		if e.FormatSpec != nil {
			sv, err := ev.expr(e.FormatSpec, s)
			if err != nil {
				return nil, err
			}
			if u, ok := sv.(Unknown); ok {
				return u, nil
			}
			spec = ToStr(sv)
		}
		out, err := formatValue(v, spec)
		if err != nil {
			return nil, ev.fail(e.Pos, err)
		}
		return out, nil
	case *ast.NamedExpr:
		v, err := ev.expr(e.Value, s)
		if err != nil {
			return nil, err
		}
		return v, ev.assign(e.Target, v, s)
	case *ast.Starred:
		return nil, ev.errorf(e.Pos, "can't use starred expression here")
	case *ast.Slice:
		if ev.inScript() {
			return ev.sliceObject(e, s)
		}
	}
	return unknownf("%s", ev.quoteText(e)), nil
}

func (ev *evaluator) exprList(elts []ast.Expr, s *scope) ([]Value, error) {
	out := make([]Value, 0, len(elts))
	for _, e := range elts {
		if st, ok := e.(*ast.Starred); ok {
			v, err := ev.expr(st.Value, s)
			if err != nil {
				return nil, err
			}
			items, err := iterate(v)
			if err != nil {
				return nil, ev.fail(st.Pos, err)
			}
			out = append(out, items...)
			continue
		}
		v, err := ev.expr(e, s)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// listComp evaluates [elt for ... in ... if ...].
func (ev *evaluator) listComp(elt ast.Expr, gens []*ast.Comprehension, s *scope) (Value, error) {
	var out []Value
	err := ev.comprehend(gens, s, func(inner *scope) error {
		v, err := ev.expr(elt, inner)
		out = append(out, v)
		return err
	})
	return &List{out}, err
}

// comprehend runs body once per element produced by the generators, in a fresh scope.
func (ev *evaluator) comprehend(gens []*ast.Comprehension, s *scope, body func(*scope) error) error {
	inner := newScope(s)
	var loop func(i int) error
	loop = func(i int) error {
		if i == len(gens) {
			return body(inner)
		}
		g := gens[i]
		it, err := ev.expr(g.Iter, inner)
		if err != nil {
			return err
		}
		items, err := iterate(it)
		if err != nil {
			return ev.fail(g.Iter.Position(), err)
		}
	next:
		for _, item := range items {
			if err := ev.assign(g.Target, item, inner); err != nil {
				return err
			}
			for _, cond := range g.Ifs {
				truth, err := ev.condition(cond, inner)
				if err != nil {
					return err
				}
				if !truth {
					continue next
				}
			}
			if err := loop(i + 1); err != nil {
				return err
			}
		}
		return nil
	}
	return loop(0)
}

func (ev *evaluator) slice(obj Value, sl *ast.Slice, s *scope) (Value, error) {
	if t, ok := obj.(TorchVersionStr); ok {
		obj = Str(t.S)
	}
	obj = plain(obj)
	bound := func(e ast.Expr) (*int64, error) {
		if e == nil {
			return nil, nil
		}
		v, err := ev.expr(e, s)
		if err != nil {
			return nil, err
		}
		i, ok := v.(Int)
		if !ok {
			return nil, ev.raise(e.Position(), "TypeError", "slice indices must be integers or None")
		}
		n, _ := i.Int64()
		return &n, nil
	}
	lo, err := bound(sl.Lower)
	if err != nil {
		return nil, err
	}
	hi, err := bound(sl.Upper)
	if err != nil {
		return nil, err
	}
	step, err := bound(sl.Step)
	if err != nil {
		return nil, err
	}
	pick := func(n int) ([]int, error) {
		st := int64(1)
		if step != nil {
			st = *step
		}
		if st == 0 {
			return nil, ev.raise(sl.Pos, "ValueError", "slice step cannot be zero")
		}
		norm := func(p *int64, def int64) int64 {
			if p == nil {
				return def
			}
			v := *p
			if v < 0 {
				v += int64(n)
			}
			if st > 0 {
				return max(0, min(v, int64(n)))
			}
			return max(-1, min(v, int64(n)-1))
		}
		var idx []int
		if st > 0 {
			for i := norm(lo, 0); i < norm(hi, int64(n)); i += st {
				idx = append(idx, int(i))
			}
		} else {
			for i := norm(lo, int64(n)-1); i > norm(hi, -1); i += st {
				idx = append(idx, int(i))
			}
		}
		return idx, nil
	}
	switch o := obj.(type) {
	case Tuple, *List:
		items, _ := iterate(o)
		idx, err := pick(len(items))
		if err != nil {
			return nil, err
		}
		out := make([]Value, len(idx))
		for i, j := range idx {
			out[i] = items[j]
		}
		if _, ok := o.(Tuple); ok {
			return Tuple(out), nil
		}
		return &List{out}, nil
	case Str:
		idx, err := pick(len(o))
		if err != nil {
			return nil, err
		}
		b := make([]byte, len(idx))
		for i, j := range idx {
			b[i] = o[j]
		}
		return Str(b), nil
	case Unknown:
		return o, nil
	}
	if ev.inScript() {
		return ev.scriptSlice(obj, sl, s)
	}
	return unknownf("slice of %s", obj.TypeName()), nil
}

// ConstantValue converts an ast.Constant's value to a Value.
func ConstantValue(v any) Value {
	switch v := v.(type) {
	case nil:
		return None
	case bool:
		return Bool(v)
	case int64:
		return NewInt(v)
	case *big.Int:
		return Int{v}
	case float64:
		return Float(v)
	case string:
		return Str(v)
	case ast.EllipsisType:
		return EllipsisValue{}
	}
	return unknownf("constant %v", v)
}

func iterate(v Value) ([]Value, error) {
	switch v := plain(v).(type) {
	case Tuple:
		return v, nil
	case *List:
		return v.Elems, nil
	case *Dict:
		return v.Keys, nil
	case Str:
		out := make([]Value, 0, len(v))
		for _, r := range string(v) {
			out = append(out, Str(string(r)))
		}
		return out, nil
	case *Set:
		return v.Elems, nil
	case *Class:
		if v.Members != nil {
			return instancesOf(v.Members), nil
		}
	case Unknown:
		return nil, fmt.Errorf("cannot iterate: %s", v.Why)
	}
	return nil, typeError("'%s' object is not iterable", v.TypeName())
}

func instancesOf(ms []*Instance) []Value {
	out := make([]Value, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

func index(key Value, n int) (int, error) {
	k, ok := key.(Int)
	if !ok {
		if b, isBool := key.(Bool); isBool {
			k = NewInt(map[bool]int64{false: 0, true: 1}[bool(b)])
		} else {
			return 0, typeError("indices must be integers, not %s", key.TypeName())
		}
	}
	i, _ := k.Int64()
	if i < 0 {
		i += int64(n)
	}
	if i < 0 || i >= int64(n) || !k.V.IsInt64() {
		return 0, &Error{"IndexError", "index out of range"}
	}
	return int(i), nil
}

func subscript(obj, key Value) (Value, error) {
	if t, ok := obj.(TorchVersionStr); ok {
		obj = Str(t.S)
	}
	switch o := plain(obj).(type) {
	case Tuple:
		i, err := index(key, len(o))
		if err != nil {
			return nil, prefixed("tuple ", err)
		}
		return o[i], nil
	case *List:
		i, err := index(key, len(o.Elems))
		if err != nil {
			return nil, prefixed("list ", err)
		}
		return o.Elems[i], nil
	case Str:
		i, err := index(key, len(o))
		if err != nil {
			return nil, prefixed("string ", err)
		}
		return o[i : i+1], nil
	case *Dict:
		if v := o.Get(key); v != nil {
			return v, nil
		}
		return nil, &Error{"KeyError", Repr(key)}
	case *Class:
		if o.Members != nil {
			for _, m := range o.Members {
				if n, _ := m.Attrs.get("name"); Equal(n, key) {
					return m, nil
				}
			}
			return nil, &Error{"KeyError", Repr(key)}
		}
	case Unknown:
		return o, nil
	}
	return unknownf("%s[%s]", Repr(obj), Repr(key)), nil
}

// prefixed puts a prefix before an exception's message ("tuple index out of range").
func prefixed(prefix string, err error) error {
	if e, ok := err.(*Error); ok {
		return &Error{e.Kind, prefix + e.Msg}
	}
	return err
}

// parseIntLiteral converts the argument of int("...").
func parseIntLiteral(s string) (Value, error) {
	n, ok := new(big.Int).SetString(strings.ReplaceAll(s, "_", ""), 10)
	if !ok {
		return nil, &Error{"ValueError", "invalid literal for int() with base 10: " + StrRepr(s)}
	}
	return Int{n}, nil
}
