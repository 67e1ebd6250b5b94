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

// keyword returns the keyword op that name spells, or opNone (keywords' entries, without
// a map lookup: most names are not keywords, and a switch rejects them by length).
func keyword(name []byte) op {
	if len(name) < 2 || len(name) > 8 {
		return opNone
	}
	switch string(name) {
	case "False":
		return kwFalse
	case "None":
		return kwNone
	case "True":
		return kwTrue
	case "and":
		return kwAnd
	case "as":
		return kwAs
	case "assert":
		return kwAssert
	case "async":
		return kwAsync
	case "await":
		return kwAwait
	case "break":
		return kwBreak
	case "class":
		return kwClass
	case "continue":
		return kwContinue
	case "def":
		return kwDef
	case "del":
		return kwDel
	case "elif":
		return kwElif
	case "else":
		return kwElse
	case "except":
		return kwExcept
	case "finally":
		return kwFinally
	case "for":
		return kwFor
	case "from":
		return kwFrom
	case "global":
		return kwGlobal
	case "if":
		return kwIf
	case "import":
		return kwImport
	case "in":
		return kwIn
	case "is":
		return kwIs
	case "lambda":
		return kwLambda
	case "nonlocal":
		return kwNonlocal
	case "not":
		return kwNot
	case "or":
		return kwOr
	case "pass":
		return kwPass
	case "raise":
		return kwRaise
	case "return":
		return kwReturn
	case "try":
		return kwTry
	case "while":
		return kwWhile
	case "with":
		return kwWith
	case "yield":
		return kwYield
	}
	return opNone
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
	return ast.Pos{Lineno: t.line, ColOffset: t.col, EndLineno: t.endLine, EndColOffset: t.endCol}
}
