package pyeval

import (
	"strings"

	"github.com/gotriton/gotriton/ast"
)

// Class is a class defined in host code: a plain namespace of constants and functions, an
// enum (a subclass of enum.Enum, IntEnum, ...), or a dataclass or NamedTuple whose fields
// are its annotated names.
type Class struct {
	Name   string
	Bases  []*Class
	NS     *scope
	Kind   ClassKind
	Fields []string // dataclass and NamedTuple fields, in order
	// Members lists an enum's members in definition order.
	Members []*Instance
	// Library names a base class that is not modelled (torch.autograd.Function): the
	// attributes the class inherits from it are Unknown rather than missing.
	Library string
}

// ClassKind says how a class builds its instances.
type ClassKind int

// The kinds of classes host code defines.
const (
	PlainClass ClassKind = iota
	EnumClass
	IntEnumClass // IntEnum and IntFlag: members are ints too
	DataClass    // @dataclass and NamedTuple
)

func (*Class) TypeName() string { return "type" }
func (c *Class) String() string { return "<class '" + c.Name + "'>" }

// Instance is an object of a host-code class (an enum member too).
type Instance struct {
	Class *Class
	Attrs *scope
}

func (i *Instance) TypeName() string { return i.Class.Name }
func (i *Instance) String() string {
	if i.Class.Kind == EnumClass || i.Class.Kind == IntEnumClass {
		name, _ := i.Attrs.get("name")
		return i.Class.Name + "." + ToStr(name)
	}
	if i.Class.Kind == DataClass {
		parts := make([]string, len(i.Class.Fields))
		for k, f := range i.Class.Fields {
			v, _ := i.Attrs.get(f)
			parts[k] = f + "=" + Repr(v)
		}
		return i.Class.Name + "(" + strings.Join(parts, ", ") + ")"
	}
	return "<" + i.Class.Name + " object>"
}

// enumValue returns the value of an enum member, and whether i is one.
func (i *Instance) enumValue() (Value, bool) {
	if i.Class.Kind != EnumClass && i.Class.Kind != IntEnumClass {
		return nil, false
	}
	v, ok := i.Attrs.get("value")
	return v, ok
}

// method is a function bound to an instance (or, for a classmethod, to its class).
type method struct {
	fn   Value
	self Value
}

func (method) TypeName() string { return "method" }

// descriptor wraps a function defined with @staticmethod, @classmethod or @property.
type descriptor struct {
	kind string // "staticmethod", "classmethod", "property"
	fn   Value
}

func (d descriptor) TypeName() string { return d.kind }

// lookup finds name in the class or its bases, in Python's order for single inheritance
// (depth first, left to right, which is the MRO for the hierarchies host code builds).
func (c *Class) lookup(name string) (Value, bool) {
	if i := c.NS.find(name); i >= 0 {
		return c.NS.vals[i], true
	}
	for _, b := range c.Bases {
		if v, ok := b.lookup(name); ok {
			return v, true
		}
	}
	return nil, false
}

// libraryBase returns the unmodelled library class that c derives from, or "".
func (c *Class) libraryBase() string {
	if c.Library != "" {
		return c.Library
	}
	for _, b := range c.Bases {
		if l := b.libraryBase(); l != "" {
			return l
		}
	}
	return ""
}

// isSubclassOf reports whether c is other or derives from it.
func (c *Class) isSubclassOf(other *Class) bool {
	if c == other {
		return true
	}
	for _, b := range c.Bases {
		if b.isSubclassOf(other) {
			return true
		}
	}
	return false
}

// enumBases are the base classes of the enum module and what they make.
var enumBases = map[string]ClassKind{
	"enum.Enum": EnumClass, "enum.StrEnum": EnumClass, "enum.Flag": EnumClass,
	"enum.IntEnum": IntEnumClass, "enum.IntFlag": IntEnumClass,
	"typing.NamedTuple": DataClass,
}

// defineClass evaluates a class body in its own namespace and binds the class, after its
// decorators.
func (ev *evaluator) defineClass(def *ast.ClassDef, s *scope) error {
	c := &Class{Name: def.Name, NS: newScope(s)}
	for _, b := range def.Bases {
		v, err := ev.expr(b, s)
		if err != nil {
			return err
		}
		switch b := v.(type) {
		case *Class:
			c.Bases = append(c.Bases, b)
			if b.Kind != PlainClass {
				c.Kind = b.Kind
				c.Fields = append(c.Fields, b.Fields...)
			}
		case Ref:
			if k, ok := enumBases[b.Path]; ok {
				c.Kind = k
			} else {
				c.Library = b.Path
			}
		case Unknown:
			ev.bindClassUnknown(def, s, b.Why)
			return nil
		}
	}
	c.NS.set("__name__", Str(def.Name))
	c.NS.set("__qualname__", Str(def.Name))
	c.NS.set("__module__", Str(ev.mod.Name))
	body := c.NS
	if _, err := ev.block(def.Body, body); err != nil {
		return err
	}
	for k, v := range body.vals {
		if f, ok := v.(*Function); ok && f.scope == body {
			body.vals[k] = f.rescoped(s) // a method does not see the class's names
		}
	}
	for _, st := range def.Body {
		if a, ok := st.(*ast.AnnAssign); ok {
			if n, ok := a.Target.(*ast.Name); ok {
				c.Fields = append(c.Fields, n.ID)
			}
		}
	}
	if c.Kind == EnumClass || c.Kind == IntEnumClass {
		c.makeMembers()
	}
	var v Value = c
	for i := len(def.DecoratorList) - 1; i >= 0; i-- {
		dec, err := ev.expr(def.DecoratorList[i], s)
		if err != nil {
			return err
		}
		if v, err = ev.call(dec, []Value{v}, nil, def.DecoratorList[i].Position()); err != nil {
			return err
		}
	}
	s.set(def.Name, v)
	return nil
}

// bindClassUnknown binds a class whose base cannot be known offline.
func (ev *evaluator) bindClassUnknown(def *ast.ClassDef, s *scope, why string) {
	s.set(def.Name, unknownf("class %s (line %d) derives from a value not known offline: %s", def.Name, def.Lineno, why))
}

// enumAuto is the value enum.auto() returns: the member gets the last int value plus one.
type enumAuto struct{}

func (enumAuto) TypeName() string { return "auto" }

// dataField is what dataclasses.field() returns: a field's default, or the function that
// makes it.
type dataField struct{ def, factory Value }

func (dataField) TypeName() string { return "Field" }

// makeMembers turns an enum class's constants into its members.
func (c *Class) makeMembers() {
	last := int64(0)
	for i, name := range c.NS.names {
		v := c.NS.vals[i]
		if strings.HasPrefix(name, "_") {
			continue
		}
		switch v.(type) {
		case *Function, descriptor, *Builtin:
			continue
		case enumAuto:
			v = NewInt(last + 1)
		}
		if n, ok := v.(Int); ok && n.V.IsInt64() {
			last = n.V.Int64()
		}
		m := &Instance{Class: c, Attrs: newScope(nil)}
		m.Attrs.set("name", Str(name))
		m.Attrs.set("value", v)
		c.NS.vals[i] = m
		c.Members = append(c.Members, m)
	}
}

// instantiate calls a class: an enum looks its member up by value; a dataclass binds its
// fields; a plain class runs __init__.
func (ev *evaluator) instantiate(c *Class, args []Value, kwargs *Dict, pos ast.Pos) (Value, error) {
	switch c.Kind {
	case EnumClass, IntEnumClass:
		if len(args) == 1 {
			for _, m := range c.Members {
				if v, _ := m.enumValue(); Equal(v, args[0]) {
					return m, nil
				}
			}
		}
		return nil, ev.raise(pos, "ValueError", "%s is not a valid %s", reprArgs(args), c.Name)
	}
	inst := &Instance{Class: c, Attrs: newScope(nil)}
	if _, custom := c.lookup("__init__"); c.Kind == DataClass && !custom {
		return inst, ev.initFields(c, inst, args, kwargs, pos)
	}
	if init, ok := c.lookup("__init__"); ok {
		if _, err := ev.call(init, append([]Value{inst}, args...), kwargs, pos); err != nil {
			return nil, err
		}
	} else if lib := c.libraryBase(); lib != "" {
		return unknownf("an instance of %s, which derives from %s", c.Name, lib), nil
	} else if len(args) > 0 || len(kwargs.Keys) > 0 {
		return nil, ev.raise(pos, "TypeError", "%s() takes no arguments", c.Name)
	}
	return inst, nil
}

// initFields binds a dataclass's fields from the call's arguments and the defaults its
// body gives.
func (ev *evaluator) initFields(c *Class, inst *Instance, args []Value, kwargs *Dict, pos ast.Pos) error {
	if len(args) > len(c.Fields) {
		return ev.raise(pos, "TypeError", "%s() takes %d positional arguments but %d were given", c.Name, len(c.Fields)+1, len(args)+1)
	}
	for i, f := range c.Fields {
		var v Value
		switch {
		case i < len(args):
			v = args[i]
		case kwargs.Get(Str(f)) != nil:
			v = kwargs.Get(Str(f))
		default:
			d, ok := c.lookup(f)
			df, isField := d.(dataField)
			if !ok || (isField && df.def == nil && df.factory == nil) {
				return ev.raise(pos, "TypeError", "%s() missing required argument: '%s'", c.Name, f)
			}
			v = d
			if isField {
				if v = df.def; df.factory != nil {
					var err error
					if v, err = ev.call(df.factory, nil, nil, pos); err != nil {
						return err
					}
				}
			}
		}
		inst.Attrs.set(f, v)
	}
	for _, k := range kwargs.Keys {
		if !containsSeq(strs(c.Fields), k) {
			return ev.raise(pos, "TypeError", "%s() got an unexpected keyword argument '%s'", c.Name, ToStr(k))
		}
	}
	return nil
}

func strs(ss []string) []Value {
	out := make([]Value, len(ss))
	for i, s := range ss {
		out[i] = Str(s)
	}
	return out
}

func reprArgs(args []Value) string {
	if len(args) == 1 {
		return Repr(args[0])
	}
	return joinRepr(args)
}

// classAttr evaluates C.name.
func (ev *evaluator) classAttr(c *Class, name string, pos ast.Pos) (Value, error) {
	v, ok := c.lookup(name)
	if !ok {
		if name == "__members__" && c.Members != nil {
			d := &Dict{}
			for _, m := range c.Members {
				n, _ := m.Attrs.get("name")
				d.Set(n, m)
			}
			return d, nil
		}
		if lib := c.libraryBase(); lib != "" {
			return unknownf("%s.%s, inherited from %s", c.Name, name, lib), nil
		}
		return nil, ev.raise(pos, "AttributeError", "type object '%s' has no attribute '%s'", c.Name, name)
	}
	if d, ok := v.(descriptor); ok {
		switch d.kind {
		case "classmethod":
			return method{d.fn, c}, nil
		case "staticmethod":
			return d.fn, nil
		}
	}
	return v, nil
}

// instanceAttr evaluates obj.name for an instance: its own attributes, then its class's
// (functions become methods bound to it, properties are called).
func (ev *evaluator) instanceAttr(i *Instance, name string, pos ast.Pos) (Value, error) {
	if k := i.Attrs.find(name); k >= 0 {
		return i.Attrs.vals[k], nil
	}
	v, ok := i.Class.lookup(name)
	if !ok {
		if lib := i.Class.libraryBase(); lib != "" {
			return unknownf("%s.%s, inherited from %s", i.Class.Name, name, lib), nil
		}
		return nil, ev.raise(pos, "AttributeError", "'%s' object has no attribute '%s'", i.Class.Name, name)
	}
	switch f := v.(type) {
	case *Function:
		return method{f, i}, nil
	case descriptor:
		switch f.kind {
		case "property":
			return ev.call(f.fn, []Value{i}, nil, pos)
		case "classmethod":
			return method{f.fn, i.Class}, nil
		}
		return f.fn, nil
	}
	return v, nil
}
