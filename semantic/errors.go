package semantic

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/diag"
	"github.com/gotriton/gotriton/pyeval"
)

// semError is a compile error raised while generating code; gen methods panic with it and
// the kernel entry point recovers it into a *diag.Error.
type semError struct{ d *diag.Error }

// frame is one jit function being generated: its module (for positions and globals) and
// the call that reached it.
type frame struct {
	name string
	mod  *pyeval.Module
	call ast.Node // the call expression in the caller; nil for the kernel
	// kind names the function in notes: "jit function", or "function" for a plain Python
	// function run at compile time.
	kind string
}

// spanOf converts an AST position to a diagnostic span.
func spanOf(n ast.Node) diag.Span {
	if n == nil {
		return diag.Span{Line: 1}
	}
	p := n.Position()
	return diag.Span{Line: int(p.Lineno), Col: int(p.ColOffset), EndLine: int(p.EndLineno), EndCol: int(p.EndColOffset)}
}

// errorAt builds a diagnostic at node n of the current function, with the jit call chain
// as notes.
func (g *gen) errorAt(n ast.Node, format string, args ...any) *diag.Error {
	frames := g.frames
	// An error inside gotriton's prelude (Triton's own jit code) is the user's call's.
	for i, f := range frames {
		if i > 0 && prelude.mod != nil && f.mod == prelude.mod {
			n, frames = f.call, frames[:i]
			break
		}
	}
	top := frames[len(frames)-1]
	d := diag.New(top.mod.File, top.mod.Src, spanOf(n), format, args...)
	for i := len(frames) - 1; i > 0; i-- {
		f, caller := frames[i], frames[i-1]
		p := f.call.Position()
		kind := f.kind
		if kind == "" {
			kind = "jit function"
		}
		d.Notes = append(d.Notes, fmt.Sprintf("%s:%d:%d: note: in %s '%s' called from '%s'",
			caller.mod.File, p.Lineno, p.ColOffset+1, kind, f.name, caller.name))
	}
	return d
}

// fail aborts code generation with an error at node n.
func (g *gen) fail(n ast.Node, format string, args ...any) {
	panic(semError{g.errorAt(n, format, args...)})
}

// recoverTo turns a semError panic into *err; any other panic (a bug of gotriton) becomes
// a diagnostic at the node being generated, so that a compiler bug never crashes the caller.
// Its Go stack is added only when GOTRITON_TRACEBACK=1, for gotriton's developers.
func (g *gen) recoverTo(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if se, ok := r.(semError); ok {
		*err = se.d
		return
	}
	d := g.errorAt(g.node, "gotriton cannot compile this yet (a bug in gotriton, please report it: %v)", r)
	if os.Getenv("GOTRITON_TRACEBACK") == "1" {
		d.Notes = append(d.Notes, "note: Go stack:\n"+string(debug.Stack()))
	}
	*err = d
}
