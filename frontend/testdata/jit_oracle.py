"""Kernel-discovery oracle: lists the jit functions of files as CPython sees them.

Reads one path per line on stdin. Writes a first line "version MAJOR.MINOR", then one JSON
object per file:
{"path": ..., "kernels": [[qualname, line, col], ...]} or {"path": ..., "error": message}.

A jit function is a def with a decorator that names triton.jit (triton.runtime.jit,
triton.runtime.jit.jit), bare or called with options, through the file's imports
(`import triton as tr`, `from triton import jit as J`, wherever they stand), or a def that
an assignment in its scope wraps: `name = triton.jit(fn, ...)` or `triton.jit(...)(fn)`.
Its qualname is the __qualname__ CPython compiles for it (the code object's co_qualname),
and line and col are those of its `def`. A file that parses but does not compile (CPython's
symbol table rejects it) gives null qualnames.
"""
import ast
import json
import sys

JIT = {"triton.jit", "triton.runtime.jit", "triton.runtime.jit.jit"}


def import_aliases(tree):
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                name = a.asname or a.name.split(".")[0]
                aliases.setdefault(name, set()).add(a.name if a.asname else name)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for a in node.names:
                if a.name != "*":
                    aliases.setdefault(a.asname or a.name, set()).add(node.module + "." + a.name)
    return aliases


def names_jit(expr, aliases):
    parts = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return False
    tail = "".join("." + p for p in reversed(parts))
    return any(root + tail in JIT for root in aliases.get(expr.id, {expr.id}))


def wrapped_name(value, aliases):
    if not isinstance(value, ast.Call) or not value.args or not isinstance(value.args[0], ast.Name):
        return None
    callee = value.func
    if isinstance(callee, ast.Call) and not callee.args:
        callee = callee.func
    return value.args[0].id if names_jit(callee, aliases) else None


def code_qualnames(code, out):
    out.setdefault((code.co_firstlineno, code.co_name), []).append(code.co_qualname)
    for c in code.co_consts:
        if hasattr(c, "co_qualname"):
            code_qualnames(c, out)


def jit_defs(tree, aliases):
    """The jit defs of a module, each scope's statements walked in order."""
    found = []

    def scope(body):
        defs = {}

        def block(stmts):
            for st in stmts:
                if isinstance(st, ast.FunctionDef):
                    defs[st.name] = st
                    if any(names_jit(d.func if isinstance(d, ast.Call) else d, aliases) for d in st.decorator_list):
                        found.append(st)
                    scope(st.body)
                elif isinstance(st, (ast.AsyncFunctionDef, ast.ClassDef)):
                    defs[st.name] = None
                    scope(st.body)
                elif isinstance(st, ast.Assign):
                    fn = wrapped_name(st.value, aliases)
                    if fn and defs.get(fn) is not None:
                        found.append(defs[fn])
                else:
                    for field in ("body", "orelse", "finalbody"):
                        block(getattr(st, field, []))
                    for h in getattr(st, "handlers", []):
                        block(h.body)
                    for c in getattr(st, "cases", []):
                        block(c.body)

        block(body)

    scope(tree.body)
    return found


def kernels(path):
    with open(path, "rb") as f:
        src = f.read()
    tree = ast.parse(src, path)
    qualnames = {}
    try:
        code_qualnames(compile(tree, path, "exec", dont_inherit=True), qualnames)
    except SyntaxError:
        pass  # parses but does not compile (a parser test): the qualnames are unknown
    out, seen = [], set()
    for d in jit_defs(tree, import_aliases(tree)):
        if id(d) in seen:
            continue
        seen.add(id(d))
        first = d.decorator_list[0].lineno if d.decorator_list else d.lineno
        (qualname,) = qualnames.get((first, d.name), [None])
        out.append([qualname, d.lineno, d.col_offset])
    return out


def main():
    print("version %d.%d" % sys.version_info[:2])
    for line in sys.stdin:
        path = line.rstrip("\n")
        if not path:
            continue
        try:
            res = {"path": path, "kernels": kernels(path)}
        except SyntaxError as e:
            res = {"path": path, "error": str(e)}
        print(json.dumps(res))


if __name__ == "__main__":
    main()
