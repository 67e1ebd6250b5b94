// Package ast defines the syntax tree of Python 3.12 source, shaped like CPython's ast
// module: one Go struct per CPython node class, with the same fields (Go-cased) in the same
// order. Classes that carry position attributes in CPython embed Pos.
//
// Optional fields (CPython's "?") are nil pointers or interfaces, or "" for identifiers;
// lists are slices (nil and empty mean the same).
package ast

// Pos is the source range of a node, with CPython's conventions: 1-based lines, 0-based
// column offsets counted in UTF-8 bytes, the end column exclusive.
type Pos struct {
	Lineno, ColOffset, EndLineno, EndColOffset int32 // int32 halves every node's position
}

// Position returns the node's range.
func (p Pos) Position() Pos { return p }

// Node is any syntax tree node. Position returns the zero Pos for classes without position
// attributes (comprehension, arguments, withitem, match_case).
type Node interface {
	Position() Pos
}

// Expr is an expression node (CPython's expr).
type Expr interface {
	Node
	exprNode()
}

// Stmt is a statement node (CPython's stmt).
type Stmt interface {
	Node
	stmtNode()
}

// Pattern is a match-statement pattern node (CPython's pattern).
type Pattern interface {
	Node
	patternNode()
}

// TypeParam is a type parameter of a generic function, class or type alias (CPython's
// type_param).
type TypeParam interface {
	Node
	typeParamNode()
}

// noPos is embedded by classes without position attributes.
type noPos struct{}

// Position returns the zero Pos.
func (noPos) Position() Pos { return Pos{} }

// Module is a whole source file.
type Module struct {
	noPos
	Body        []Stmt
	TypeIgnores []*TypeIgnore
}

// TypeIgnore is a "# type: ignore" comment (never produced by gotriton's parser).
type TypeIgnore struct {
	noPos
	Lineno int
	Tag    string
}

// ---- statements ----

// FunctionDef is a def statement.
type FunctionDef struct {
	Name          string
	Args          *Arguments
	Body          []Stmt
	DecoratorList []Expr
	Returns       Expr
	TypeComment   string
	TypeParams    []TypeParam
	Pos
}

// AsyncFunctionDef is an async def statement.
type AsyncFunctionDef struct {
	Name          string
	Args          *Arguments
	Body          []Stmt
	DecoratorList []Expr
	Returns       Expr
	TypeComment   string
	TypeParams    []TypeParam
	Pos
}

// ClassDef is a class statement.
type ClassDef struct {
	Name          string
	Bases         []Expr
	Keywords      []*Keyword
	Body          []Stmt
	DecoratorList []Expr
	TypeParams    []TypeParam
	Pos
}

// Return is a return statement.
type Return struct {
	Value Expr
	Pos
}

// Delete is a del statement.
type Delete struct {
	Targets []Expr
	Pos
}

// Assign is an assignment with one or more targets: a = b = value.
type Assign struct {
	Targets     []Expr
	Value       Expr
	TypeComment string
	Pos
}

// TypeAlias is a type statement: type X[T] = value.
type TypeAlias struct {
	Name       Expr
	TypeParams []TypeParam
	Value      Expr
	Pos
}

// AugAssign is an augmented assignment: target op= value.
type AugAssign struct {
	Target Expr
	Op     Operator
	Value  Expr
	Pos
}

// AnnAssign is an annotated assignment: target: annotation [= value]. Simple is 1 for a
// bare name target that was not parenthesized.
type AnnAssign struct {
	Target     Expr
	Annotation Expr
	Value      Expr
	Simple     int
	Pos
}

// For is a for loop.
type For struct {
	Target      Expr
	Iter        Expr
	Body        []Stmt
	Orelse      []Stmt
	TypeComment string
	Pos
}

// AsyncFor is an async for loop.
type AsyncFor struct {
	Target      Expr
	Iter        Expr
	Body        []Stmt
	Orelse      []Stmt
	TypeComment string
	Pos
}

// While is a while loop.
type While struct {
	Test   Expr
	Body   []Stmt
	Orelse []Stmt
	Pos
}

// If is an if statement; elif chains nest as a single If in Orelse.
type If struct {
	Test   Expr
	Body   []Stmt
	Orelse []Stmt
	Pos
}

// With is a with statement.
type With struct {
	Items       []*WithItem
	Body        []Stmt
	TypeComment string
	Pos
}

// AsyncWith is an async with statement.
type AsyncWith struct {
	Items       []*WithItem
	Body        []Stmt
	TypeComment string
	Pos
}

// Match is a match statement.
type Match struct {
	Subject Expr
	Cases   []*MatchCase
	Pos
}

// Raise is a raise statement.
type Raise struct {
	Exc   Expr
	Cause Expr
	Pos
}

// Try is a try statement with except clauses.
type Try struct {
	Body      []Stmt
	Handlers  []*ExceptHandler
	Orelse    []Stmt
	Finalbody []Stmt
	Pos
}

// TryStar is a try statement with except* clauses.
type TryStar struct {
	Body      []Stmt
	Handlers  []*ExceptHandler
	Orelse    []Stmt
	Finalbody []Stmt
	Pos
}

// Assert is an assert statement.
type Assert struct {
	Test Expr
	Msg  Expr
	Pos
}

// Import is an import statement.
type Import struct {
	Names []*Alias
	Pos
}

// ImportFrom is a from ... import statement. Module is "" for "from . import x".
type ImportFrom struct {
	Module string
	Names  []*Alias
	Level  int
	Pos
}

// Global is a global statement.
type Global struct {
	Names []string
	Pos
}

// Nonlocal is a nonlocal statement.
type Nonlocal struct {
	Names []string
	Pos
}

// ExprStmt is an expression statement (CPython's Expr class).
type ExprStmt struct {
	Value Expr
	Pos
}

// Pass is a pass statement.
type Pass struct{ Pos }

// Break is a break statement.
type Break struct{ Pos }

// Continue is a continue statement.
type Continue struct{ Pos }

// ---- expressions ----

// BoolOp is a chain of and or or: Values has two or more operands.
type BoolOp struct {
	Op     BoolOperator
	Values []Expr
	Pos
}

// NamedExpr is an assignment expression: target := value.
type NamedExpr struct {
	Target Expr
	Value  Expr
	Pos
}

// BinOp is a binary operation.
type BinOp struct {
	Left  Expr
	Op    Operator
	Right Expr
	Pos
}

// UnaryOp is a unary operation.
type UnaryOp struct {
	Op      UnaryOperator
	Operand Expr
	Pos
}

// Lambda is a lambda expression.
type Lambda struct {
	Args *Arguments
	Body Expr
	Pos
}

// IfExp is a conditional expression: body if test else orelse.
type IfExp struct {
	Test   Expr
	Body   Expr
	Orelse Expr
	Pos
}

// Dict is a dict display. A nil key marks a **mapping unpacking in Values.
type Dict struct {
	Keys   []Expr
	Values []Expr
	Pos
}

// Set is a set display.
type Set struct {
	Elts []Expr
	Pos
}

// ListComp is a list comprehension.
type ListComp struct {
	Elt        Expr
	Generators []*Comprehension
	Pos
}

// SetComp is a set comprehension.
type SetComp struct {
	Elt        Expr
	Generators []*Comprehension
	Pos
}

// DictComp is a dict comprehension.
type DictComp struct {
	Key        Expr
	Value      Expr
	Generators []*Comprehension
	Pos
}

// GeneratorExp is a generator expression.
type GeneratorExp struct {
	Elt        Expr
	Generators []*Comprehension
	Pos
}

// Await is an await expression.
type Await struct {
	Value Expr
	Pos
}

// Yield is a yield expression.
type Yield struct {
	Value Expr
	Pos
}

// YieldFrom is a yield from expression.
type YieldFrom struct {
	Value Expr
	Pos
}

// Compare is a (possibly chained) comparison: left ops[0] comparators[0] ...
type Compare struct {
	Left        Expr
	Ops         []CmpOp
	Comparators []Expr
	Pos
}

// Call is a call expression.
type Call struct {
	Func     Expr
	Args     []Expr
	Keywords []*Keyword
	Pos
}

// FormattedValue is one replacement field of an f-string. Conversion is -1 (none) or the
// code point of 's', 'r' or 'a'.
type FormattedValue struct {
	Value      Expr
	Conversion int
	FormatSpec Expr
	Pos
}

// JoinedStr is an f-string (or an implicit concatenation involving one).
type JoinedStr struct {
	Values []Expr
	Pos
}

// Constant is a literal. Value holds one of:
//
//	nil (None), bool, int64, *big.Int (only when the value does not fit an int64),
//	float64, complex128 (an imaginary literal), string, []byte, EllipsisType
//
// Strings are UTF-8; a lone surrogate from a \ud800-style escape is kept in its 3-byte
// (WTF-8) encoding. Kind is "u" for u-prefixed strings, else "".
type Constant struct {
	Value any
	Kind  string
	Pos
}

// EllipsisType is the type of the Ellipsis constant (...).
type EllipsisType struct{}

// Ellipsis is the value of the ... literal.
var Ellipsis = EllipsisType{}

// Attribute is an attribute access: value.attr.
type Attribute struct {
	Value Expr
	Attr  string
	Ctx   ExprContext
	Pos
}

// Subscript is a subscription: value[slice].
type Subscript struct {
	Value Expr
	Slice Expr
	Ctx   ExprContext
	Pos
}

// Starred is a starred expression: *value.
type Starred struct {
	Value Expr
	Ctx   ExprContext
	Pos
}

// Name is an identifier.
type Name struct {
	ID  string
	Ctx ExprContext
	Pos
}

// List is a list display.
type List struct {
	Elts []Expr
	Ctx  ExprContext
	Pos
}

// Tuple is a tuple display (parenthesized or not).
type Tuple struct {
	Elts []Expr
	Ctx  ExprContext
	Pos
}

// Slice is a slice inside a subscription: lower:upper:step.
type Slice struct {
	Lower Expr
	Upper Expr
	Step  Expr
	Pos
}

// ---- helper classes ----

// Comprehension is one for clause of a comprehension. IsAsync is 1 for async for.
type Comprehension struct {
	noPos
	Target  Expr
	Iter    Expr
	Ifs     []Expr
	IsAsync int
}

// ExceptHandler is an except (or except*) clause.
type ExceptHandler struct {
	Type Expr
	Name string
	Body []Stmt
	Pos
}

// Arguments is a parameter list. Defaults belong to the last len(Defaults) of
// Posonlyargs+Args; KwDefaults parallels Kwonlyargs, with nil for no default.
type Arguments struct {
	noPos
	Posonlyargs []*Arg
	Args        []*Arg
	Vararg      *Arg
	Kwonlyargs  []*Arg
	KwDefaults  []Expr
	Kwarg       *Arg
	Defaults    []Expr
}

// Arg is one parameter.
type Arg struct {
	Arg         string
	Annotation  Expr
	TypeComment string
	Pos
}

// Keyword is a keyword argument of a call or class; Arg is "" for **value.
type Keyword struct {
	Arg   string
	Value Expr
	Pos
}

// Alias is one name of an import.
type Alias struct {
	Name   string
	Asname string
	Pos
}

// WithItem is one context manager of a with statement.
type WithItem struct {
	noPos
	ContextExpr  Expr
	OptionalVars Expr
}

// MatchCase is one case block of a match statement.
type MatchCase struct {
	noPos
	Pattern Pattern
	Guard   Expr
	Body    []Stmt
}

// ---- patterns ----

// MatchValue matches a value pattern (a literal or dotted name).
type MatchValue struct {
	Value Expr
	Pos
}

// MatchSingleton matches None, True or False; Value is nil, true or false.
type MatchSingleton struct {
	Value any
	Pos
}

// MatchSequence is a sequence pattern.
type MatchSequence struct {
	Patterns []Pattern
	Pos
}

// MatchMapping is a mapping pattern; Rest is the name after **, or "".
type MatchMapping struct {
	Keys     []Expr
	Patterns []Pattern
	Rest     string
	Pos
}

// MatchClass is a class pattern.
type MatchClass struct {
	Cls         Expr
	Patterns    []Pattern
	KwdAttrs    []string
	KwdPatterns []Pattern
	Pos
}

// MatchStar is *name (Name "" for *_) in a sequence pattern.
type MatchStar struct {
	Name string
	Pos
}

// MatchAs is a capture pattern, pattern as name, or the wildcard _ (both fields empty).
type MatchAs struct {
	Pattern Pattern
	Name    string
	Pos
}

// MatchOr is an or-pattern.
type MatchOr struct {
	Patterns []Pattern
	Pos
}

// ---- type parameters ----

// TypeVar is a type parameter T or T: bound.
type TypeVar struct {
	Name  string
	Bound Expr
	Pos
}

// ParamSpec is a type parameter **P.
type ParamSpec struct {
	Name string
	Pos
}

// TypeVarTuple is a type parameter *Ts.
type TypeVarTuple struct {
	Name string
	Pos
}

func (*FunctionDef) stmtNode()      {}
func (*AsyncFunctionDef) stmtNode() {}
func (*ClassDef) stmtNode()         {}
func (*Return) stmtNode()           {}
func (*Delete) stmtNode()           {}
func (*Assign) stmtNode()           {}
func (*TypeAlias) stmtNode()        {}
func (*AugAssign) stmtNode()        {}
func (*AnnAssign) stmtNode()        {}
func (*For) stmtNode()              {}
func (*AsyncFor) stmtNode()         {}
func (*While) stmtNode()            {}
func (*If) stmtNode()               {}
func (*With) stmtNode()             {}
func (*AsyncWith) stmtNode()        {}
func (*Match) stmtNode()            {}
func (*Raise) stmtNode()            {}
func (*Try) stmtNode()              {}
func (*TryStar) stmtNode()          {}
func (*Assert) stmtNode()           {}
func (*Import) stmtNode()           {}
func (*ImportFrom) stmtNode()       {}
func (*Global) stmtNode()           {}
func (*Nonlocal) stmtNode()         {}
func (*ExprStmt) stmtNode()         {}
func (*Pass) stmtNode()             {}
func (*Break) stmtNode()            {}
func (*Continue) stmtNode()         {}

func (*BoolOp) exprNode()         {}
func (*NamedExpr) exprNode()      {}
func (*BinOp) exprNode()          {}
func (*UnaryOp) exprNode()        {}
func (*Lambda) exprNode()         {}
func (*IfExp) exprNode()          {}
func (*Dict) exprNode()           {}
func (*Set) exprNode()            {}
func (*ListComp) exprNode()       {}
func (*SetComp) exprNode()        {}
func (*DictComp) exprNode()       {}
func (*GeneratorExp) exprNode()   {}
func (*Await) exprNode()          {}
func (*Yield) exprNode()          {}
func (*YieldFrom) exprNode()      {}
func (*Compare) exprNode()        {}
func (*Call) exprNode()           {}
func (*FormattedValue) exprNode() {}
func (*JoinedStr) exprNode()      {}
func (*Constant) exprNode()       {}
func (*Attribute) exprNode()      {}
func (*Subscript) exprNode()      {}
func (*Starred) exprNode()        {}
func (*Name) exprNode()           {}
func (*List) exprNode()           {}
func (*Tuple) exprNode()          {}
func (*Slice) exprNode()          {}

func (*MatchValue) patternNode()     {}
func (*MatchSingleton) patternNode() {}
func (*MatchSequence) patternNode()  {}
func (*MatchMapping) patternNode()   {}
func (*MatchClass) patternNode()     {}
func (*MatchStar) patternNode()      {}
func (*MatchAs) patternNode()        {}
func (*MatchOr) patternNode()        {}

func (*TypeVar) typeParamNode()      {}
func (*ParamSpec) typeParamNode()    {}
func (*TypeVarTuple) typeParamNode() {}
