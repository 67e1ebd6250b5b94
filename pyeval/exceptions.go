package pyeval

import (
	"errors"
	"fmt"

	"github.com/gotriton/gotriton/ast"
)

// Error is a Python exception raised while evaluating, e.g. ZeroDivisionError. Kind is the
// name of its class. It is also the value `except ... as e` binds.
type Error struct {
	Kind, Msg string
}

// Error is the exception as messages show it: "ZeroDivisionError: division by zero". The
// kinds whose messages gotriton's kernel errors also give, in the same words, without the
// kind ("name 'x' is not defined") are shown the same way.
func (e *Error) Error() string {
	switch {
	case e.Msg == "":
		return e.Kind
	case e.Kind == "NameError" || e.Kind == "TypeError" || e.Kind == "AttributeError":
		return e.Msg
	}
	return e.Kind + ": " + e.Msg
}

// TypeName makes a raised exception a Python value.
func (e *Error) TypeName() string { return e.Kind }

func (e *Error) String() string { return e.Kind + "(" + StrRepr(e.Msg) + ")" }

func typeError(format string, args ...any) *Error {
	return &Error{"TypeError", fmt.Sprintf(format, args...)}
}

// ExceptionClass is a builtin exception class (ImportError, KeyError, ...), as except
// clauses name them and raise statements instantiate them.
type ExceptionClass struct{ Name string }

func (ExceptionClass) TypeName() string { return "type" }
func (c ExceptionClass) String() string { return "<class '" + c.Name + "'>" }

// exceptionBases maps each builtin exception class to its base class.
var exceptionBases = map[string]string{
	"Exception": "BaseException", "KeyboardInterrupt": "BaseException", "SystemExit": "BaseException",
	"GeneratorExit":   "BaseException",
	"ArithmeticError": "Exception", "AssertionError": "Exception", "AttributeError": "Exception",
	"BufferError": "Exception", "EOFError": "Exception", "ImportError": "Exception",
	"LookupError": "Exception", "MemoryError": "Exception", "NameError": "Exception",
	"OSError": "Exception", "ReferenceError": "Exception", "RuntimeError": "Exception",
	"StopIteration": "Exception", "SyntaxError": "Exception", "SystemError": "Exception",
	"TypeError": "Exception", "ValueError": "Exception", "Warning": "Exception",
	"FloatingPointError": "ArithmeticError", "OverflowError": "ArithmeticError",
	"ZeroDivisionError": "ArithmeticError", "ModuleNotFoundError": "ImportError",
	"IndexError": "LookupError", "KeyError": "LookupError", "UnboundLocalError": "NameError",
	"FileNotFoundError": "OSError", "PermissionError": "OSError", "TimeoutError": "OSError",
	"NotImplementedError": "RuntimeError", "RecursionError": "RuntimeError",
	"UnicodeError": "ValueError", "DeprecationWarning": "Warning", "UserWarning": "Warning",
	"RuntimeWarning": "Warning", "FutureWarning": "Warning", "EnvironmentError": "OSError",
	"IOError": "OSError", "PendingDeprecationWarning": "Warning", "SyntaxWarning": "Warning",
	"ImportWarning": "Warning", "UnicodeWarning": "Warning", "BytesWarning": "Warning",
	"ResourceWarning": "Warning", "EncodingWarning": "Warning", "StopAsyncIteration": "Exception",
	"ExceptionGroup": "BaseExceptionGroup", "BaseExceptionGroup": "BaseException",
	"ConnectionError": "OSError", "BlockingIOError": "OSError", "ChildProcessError": "OSError",
	"FileExistsError": "OSError", "InterruptedError": "OSError", "IsADirectoryError": "OSError",
	"NotADirectoryError": "OSError", "ProcessLookupError": "OSError", "BrokenPipeError": "ConnectionError",
	"ConnectionAbortedError": "ConnectionError", "ConnectionRefusedError": "ConnectionError",
	"ConnectionResetError": "ConnectionError", "IndentationError": "SyntaxError", "TabError": "IndentationError",
	"UnicodeDecodeError": "UnicodeError", "UnicodeEncodeError": "UnicodeError",
	"UnicodeTranslateError": "UnicodeError",
}

// isSubclass reports whether exception class kind is class or derives from it.
func isSubclass(kind, class string) bool {
	for k := kind; k != ""; k = exceptionBases[k] {
		if k == class {
			return true
		}
	}
	return false
}

// posError is an error at a place in a module's source. It wraps the Python exception it
// reports, if any, so that except clauses can catch it.
type posError struct {
	msg string
	err error
	// byCode is set for an exception that a raise or assert statement raised, rather than
	// one that an operation raised: a script run never skips past it.
	byCode bool
}

func (e *posError) Error() string { return e.msg }
func (e *posError) Unwrap() error { return e.err }

// errorf returns an error at pos that no except clause catches: a limit of offline
// evaluation rather than an exception Python would raise.
func (ev *evaluator) errorf(pos ast.Pos, format string, args ...any) error {
	return &posError{msg: ev.where(pos) + fmt.Sprintf(format, args...)}
}

// raisedByCode marks err (a positioned exception) as raised by a raise or assert
// statement.
func raisedByCode(err error) error {
	if pe, ok := err.(*posError); ok {
		pe.byCode = true
	}
	return err
}

// isRaisedByCode reports whether err is an exception a raise or assert statement raised.
func isRaisedByCode(err error) bool {
	var pe *posError
	return errors.As(err, &pe) && pe.byCode
}

// raise returns the Python exception kind at pos.
func (ev *evaluator) raise(pos ast.Pos, kind, format string, args ...any) error {
	return ev.fail(pos, &Error{kind, fmt.Sprintf(format, args...)})
}

// fail positions err at pos, unless it already has a position.
func (ev *evaluator) fail(pos ast.Pos, err error) error {
	var pe *posError
	if errors.As(err, &pe) || err == errBudget {
		return err
	}
	return &posError{msg: ev.where(pos) + err.Error(), err: err}
}

func (ev *evaluator) where(pos ast.Pos) string {
	return fmt.Sprintf("%s:%d:%d: ", ev.mod.File, pos.Lineno, pos.ColOffset+1)
}

// exception returns the Python exception that err reports, or nil when err is a limit of
// offline evaluation.
func exception(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// handles reports whether an except clause's class (a class, a tuple of classes, or nil
// for a bare except) catches exc; known is false when the clause's class is not known.
func handles(class Value, exc *Error) (catches, known bool) {
	switch c := class.(type) {
	case nil:
		return true, true
	case ExceptionClass:
		return isSubclass(exc.Kind, c.Name), true
	case Tuple:
		for _, e := range c {
			if catches, known := handles(e, exc); !known || catches {
				return catches, known
			}
		}
		return false, true
	case Ref, *Class:
		// A library's or the module's own class is never a base of a builtin exception.
		return false, true
	}
	return false, false
}

// raiseValue turns the operand of a raise statement into the exception it raises.
func raiseValue(v Value) (*Error, bool) {
	switch v := v.(type) {
	case ExceptionClass:
		return &Error{Kind: v.Name}, true
	case *Error:
		return v, true
	}
	return nil, false
}
