"""Differential-test oracle: prints CPython's ast.dump(include_attributes=True) for files.

Reads one path per line on stdin. Writes a first line "version MAJOR.MINOR", then one JSON
object per file: {"path": ..., "dump": ...} or {"path": ..., "error": [msg, line, offset]}.

The dump always has Python 3.12's shape. Under 3.11 it adds type_params=[] to
FunctionDef, AsyncFunctionDef and ClassDef, and, because 3.11 places nodes inside
f-strings differently, it zeroes the positions of every node inside a JoinedStr (the Go
test masks its own dump the same way when the version is below 3.12), and it adds the
empty Constant that 3.12 leaves at the end of a format spec ending in a replacement field.
"""
import ast
import json
import sys

OLD = sys.version_info < (3, 12)


def mask(node):
    for child in ast.walk(node):
        if child is node:
            continue
        for a in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
            if a in child._attributes:
                setattr(child, a, 0)


def dump(node):
    """ast.dump(node, include_attributes=True) of 3.12, whatever the running version."""
    if isinstance(node, ast.AST):
        cls = type(node)
        fields = list(node._fields)
        if OLD and cls.__name__ in ("FunctionDef", "AsyncFunctionDef", "ClassDef"):
            fields.append("type_params")
        args = []
        for name in fields:
            value = getattr(node, name, [])
            if value is None and getattr(cls, name, ...) is None:
                continue
            args.append("%s=%s" % (name, dump(value)))
        for name in node._attributes:
            try:
                value = getattr(node, name)
            except AttributeError:
                continue
            if value is None and getattr(cls, name, ...) is None:
                continue
            args.append("%s=%s" % (name, dump(value)))
        return "%s(%s)" % (cls.__name__, ", ".join(args))
    if isinstance(node, list):
        return "[%s]" % ", ".join(dump(x) for x in node)
    return repr(node)


def main():
    print("version %d.%d" % sys.version_info[:2], flush=True)
    for line in sys.stdin:
        path = line.rstrip("\n")
        if not path:
            continue
        try:
            with open(path, "rb") as f:
                tree = ast.parse(f.read(), path)
        except SyntaxError as e:
            print(json.dumps({"path": path, "error": [e.msg, e.lineno, e.offset]}), flush=True)
            continue
        if OLD:
            for n in ast.walk(tree):
                spec = getattr(n, "format_spec", None)
                if isinstance(n, ast.FormattedValue) and spec and spec.values and isinstance(spec.values[-1], ast.FormattedValue):
                    spec.values.append(ast.Constant(value="", lineno=0, col_offset=0, end_lineno=0, end_col_offset=0))
            for n in ast.walk(tree):
                if isinstance(n, ast.JoinedStr):
                    mask(n)
        print(json.dumps({"path": path, "dump": dump(tree)}), flush=True)


if __name__ == "__main__":
    main()
