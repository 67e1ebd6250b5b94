#!/usr/bin/env python3
"""The oracle for kernel discovery: every Triton jit function of a Python file, found with CPython's ast.

    python3 tools/realworld_jit.py FILE...      # one JSON line per file: {"file", "kernels": [{"qualname", "line"}]}

A jit function is a `def` (at any depth: module level, inside functions, inside classes) with a
decorator that names `triton.jit`, called or not (`@triton.jit`, `@triton.jit(do_not_specialize=...)`),
through whatever name the file's imports give it: `import triton as tr` (`@tr.jit`),
`from triton import jit` or `from triton.runtime.jit import jit` (`@jit`, or an alias), plus a
`def` wrapped later in the same scope as `NAME = triton.jit(fn)`. Gluon's `@gluon.jit` is a
different language and does not count. `line` is the line of the `def` keyword, `qualname` is
Python's `__qualname__` (`outer.<locals>.kernel`, `Class.kernel`).
"""
import ast, json, sys

TRITON_JIT_MODULES = {"triton", "triton.runtime", "triton.runtime.jit"}


def jit_names(tree):
    """The names bound to the triton module and to triton.jit by the file's imports (at any depth)."""
    modules, jits = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "triton":
                    modules.add(a.asname or "triton")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in TRITON_JIT_MODULES:
            for a in node.names:
                if a.name == "jit":
                    jits.add(a.asname or "jit")
    return modules, jits


def names_triton_jit(expr, modules, jits):
    """True when expr (a decorator with its call stripped, or a called function) is triton.jit."""
    if isinstance(expr, ast.Call):
        expr = expr.func
    if isinstance(expr, ast.Name):
        return expr.id in jits
    return isinstance(expr, ast.Attribute) and expr.attr == "jit" and isinstance(expr.value, ast.Name) and expr.value.id in modules


def wrapped_names(body, modules, jits):
    """Names of functions wrapped in this scope as X = triton.jit(fn)."""
    out = set()
    for stmt in body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            if not isinstance(call.func, ast.Call) and names_triton_jit(call.func, modules, jits):
                if call.args and isinstance(call.args[0], ast.Name):
                    out.add(call.args[0].id)
    return out


def kernels(src, filename="<file>"):
    """[(qualname, line)] of every jit function in src, in source order."""
    tree = ast.parse(src, filename)
    modules, jits = jit_names(tree)
    found = []

    def visit(body, prefix):
        wrapped = wrapped_names(body, modules, jits)
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                qual = prefix + stmt.name
                if stmt.name in wrapped or any(names_triton_jit(d, modules, jits) for d in stmt.decorator_list):
                    found.append((qual, stmt.lineno))
                visit(stmt.body, qual + ".<locals>.")
            elif isinstance(stmt, ast.ClassDef):
                visit(stmt.body, prefix + stmt.name + ".")
            else:
                # compound statements (if/for/while/with/try/match) keep the enclosing scope
                for field in ("body", "orelse", "finalbody"):
                    visit(getattr(stmt, field, []) or [], prefix)
                for h in getattr(stmt, "handlers", []) or []:
                    visit(h.body, prefix)
                for c in getattr(stmt, "cases", []) or []:
                    visit(c.body, prefix)

    visit(tree.body, "")
    found.sort(key=lambda k: k[1])
    return found


def main():
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            src = f.read()
        ks = [{"qualname": q, "line": l} for q, l in kernels(src, path)]
        print(json.dumps({"file": path, "kernels": ks}))


if __name__ == "__main__":
    main()
