package ast

// ExprContext says whether a Name, Attribute, Subscript, Starred, List or Tuple is read,
// assigned or deleted.
type ExprContext int

// The expression contexts.
const (
	Load ExprContext = iota
	Store
	Del
)

// BoolOperator is the operator of a BoolOp (CPython's boolop).
type BoolOperator int

// The boolean operators.
const (
	And BoolOperator = iota
	Or
)

// Operator is a binary operator (CPython's operator).
type Operator int

// The binary operators.
const (
	Add Operator = iota
	Sub
	Mult
	MatMult
	Div
	Mod
	Pow
	LShift
	RShift
	BitOr
	BitXor
	BitAnd
	FloorDiv
)

// UnaryOperator is a unary operator (CPython's unaryop).
type UnaryOperator int

// The unary operators.
const (
	Invert UnaryOperator = iota
	Not
	UAdd
	USub
)

// CmpOp is a comparison operator.
type CmpOp int

// The comparison operators.
const (
	Eq CmpOp = iota
	NotEq
	Lt
	LtE
	Gt
	GtE
	Is
	IsNot
	In
	NotIn
)

var (
	ctxNames   = [...]string{"Load", "Store", "Del"}
	boolNames  = [...]string{"And", "Or"}
	opNames    = [...]string{"Add", "Sub", "Mult", "MatMult", "Div", "Mod", "Pow", "LShift", "RShift", "BitOr", "BitXor", "BitAnd", "FloorDiv"}
	opSymbols  = [...]string{"+", "-", "*", "@", "/", "%", "**", "<<", ">>", "|", "^", "&", "//"}
	unaryNames = [...]string{"Invert", "Not", "UAdd", "USub"}
	cmpNames   = [...]string{"Eq", "NotEq", "Lt", "LtE", "Gt", "GtE", "Is", "IsNot", "In", "NotIn"}
	cmpSymbols = [...]string{"==", "!=", "<", "<=", ">", ">=", "is", "is not", "in", "not in"}
)

// String returns CPython's class name (Load, Store, Del).
func (c ExprContext) String() string { return ctxNames[c] }

// String returns CPython's class name (And, Or).
func (o BoolOperator) String() string { return boolNames[o] }

// String returns CPython's class name (Add, Sub, ...).
func (o Operator) String() string { return opNames[o] }

// Symbol returns the operator as written in Python source, e.g. "//".
func (o Operator) Symbol() string { return opSymbols[o] }

// String returns CPython's class name (Invert, Not, UAdd, USub).
func (o UnaryOperator) String() string { return unaryNames[o] }

// String returns CPython's class name (Eq, NotEq, ...).
func (o CmpOp) String() string { return cmpNames[o] }

// Symbol returns the operator as written in Python source, e.g. "not in".
func (o CmpOp) Symbol() string { return cmpSymbols[o] }
