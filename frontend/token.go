package frontend

import "github.com/gotriton/gotriton/ast"

// tokKind classifies tokens the way CPython's tokenizer does.
type tokKind uint8

const (
	tkEnd     tokKind = iota // ENDMARKER
	tkNewline                // NEWLINE
	tkIndent
	tkDedent
	tkName
	tkNumber
	tkString  // a complete non-f string literal, prefix and quotes included
	tkFStart  // f-string prefix and opening quote(s)
	tkFMiddle // literal text of an f-string (braces already undoubled by the token's range)
	tkFEnd    // f-string closing quote(s)
	tkOp      // operators, delimiters, and keywords (see op)
	tkError   // stands where tokenizing stopped on an error
)

// op identifies an operator or a keyword.
type op uint8

const (
	opNone op = iota
	opLpar
	opRpar
	opLsqb
	opRsqb
	opLbrace
	opRbrace
	opColon
	opComma
	opSemi
	opPlus
	opMinus
	opStar
	opSlash
	opVbar
	opAmper
	opLess
	opGreater
	opEqual
	opDot
	opPercent
	opEqEqual
	opNotEqual
	opLessEqual
	opGreaterEqual
	opTilde
	opCircumflex
	opLeftShift
	opRightShift
	opDoubleStar
	opPlusEq
	opMinusEq
	opStarEq
	opSlashEq
	opPercentEq
	opAmperEq
	opVbarEq
	opCircumflexEq
	opLeftShiftEq
	opRightShiftEq
	opDoubleStarEq
	opDoubleSlash
	opDoubleSlashEq
	opAt
	opAtEq
	opRarrow
	opEllipsis
	opColonEq
	opExclamation
	opUnknown // a character that is no Python token ($, ?, `)

	kwFalse
	kwNone
	kwTrue
	kwAnd
	kwAs
	kwAssert
	kwAsync
	kwAwait
	kwBreak
	kwClass
	kwContinue
	kwDef
	kwDel
	kwElif
	kwElse
	kwExcept
	kwFinally
	kwFor
	kwFrom
	kwGlobal
	kwIf
	kwImport
	kwIn
	kwIs
	kwLambda
	kwNonlocal
	kwNot
	kwOr
	kwPass
	kwRaise
	kwReturn
	kwTry
	kwWhile
	kwWith
	kwYield
)

var keywords = map[string]op{
	"False": kwFalse, "None": kwNone, "True": kwTrue, "and": kwAnd, "as": kwAs,
	"assert": kwAssert, "async": kwAsync, "await": kwAwait, "break": kwBreak,
	"class": kwClass, "continue": kwContinue, "def": kwDef, "del": kwDel, "elif": kwElif,
	"else": kwElse, "except": kwExcept, "finally": kwFinally, "for": kwFor, "from": kwFrom,
	"global": kwGlobal, "if": kwIf, "import": kwImport, "in": kwIn, "is": kwIs,
	"lambda": kwLambda, "nonlocal": kwNonlocal, "not": kwNot, "or": kwOr, "pass": kwPass,
	"raise": kwRaise, "return": kwReturn, "try": kwTry, "while": kwWhile, "with": kwWith,
	"yield": kwYield,
}

// token is one token. start and end are byte offsets into the (normalized) source; line
// and col follow CPython (1-based lines, 0-based byte columns).
type token struct {
	kind                       tokKind
	op                         op
	start, end                 int32
	line, col, endLine, endCol int32
}

// pos is the token's range as a syntax tree position.
func (t *token) pos() ast.Pos {
	return ast.Pos{Lineno: int(t.line), ColOffset: int(t.col), EndLineno: int(t.endLine), EndColOffset: int(t.endCol)}
}
