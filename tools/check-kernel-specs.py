#!/usr/bin/env python3
"""Static check of conformance/kernels/specs.json against the kernel files (no Triton needed).

    python3 tools/check-kernel-specs.py [conformance/kernels]

For every spec: the file parses, the kernel is a @triton.jit function (possibly under
@triton.autotune), the signature has one entry per parameter, constexpr parameters get
constant values and the other parameters get types (`*fp16:16`, `i32`, `i32:1`, `fp32`,
`tensordesc<...>`), and (file, kernel, variant) is unique. It also lists the top-level
statements that tools/triton_ref.py would not execute when it loads a file.
Exit status 1 on any error.
"""
import ast, json, os, sys

TYPES = {"i1", "i8", "i16", "i32", "i64", "u1", "u8", "u16", "u32", "u64", "fp16", "bf16", "fp32", "fp64",
         "fp8e4nv", "fp8e5", "fp8e4b15", "fp8e4b8", "fp8e5b16"}
KEEP_LOWER = {"configs", "properties", "target", "kernels", "libdir", "extern_libs"}


def split_top(sig):
    out, depth, cur, quote = [], 0, "", None
    for ch in sig:
        if quote:
            cur += ch
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "<[(":
            depth += 1
        elif ch in ">])":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def entry_kind(e):
    """'type' or 'const'; raises ValueError on nonsense."""
    if e.startswith("tensordesc<"):
        inner = e[len("tensordesc<"):-1].replace(" ", "")
        dt, _, rest = inner.partition("[")
        if dt not in TYPES or not rest.endswith("]"):
            raise ValueError(f"bad tensor descriptor {e!r}")
        [int(x) for x in rest[:-1].split(",")]
        return "type"
    base = e[1:] if e.startswith("*") else e
    ty, _, hint = base.partition(":")
    if ty in TYPES:
        if hint not in ("", "1", "16"):
            raise ValueError(f"bad hint in {e!r}")
        return "type"
    ast.literal_eval(e)
    return "const"


def is_jit(dec):
    text = ast.unparse(dec)
    return text.startswith("triton.jit")


def is_constexpr(arg):
    return arg.annotation is not None and "constexpr" in ast.unparse(arg.annotation)


def skipped_statements(tree):
    out = []
    for node in tree.body:
        keep = isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.If))
        if isinstance(node, ast.If) and "__name__" in ast.unparse(node.test):
            continue
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            keep = any(n.isupper() or n in KEEP_LOWER for n in names)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            keep = True  # docstring
        if not keep:
            out.append(f"line {node.lineno}: {ast.unparse(node).splitlines()[0][:80]}")
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "conformance", "kernels")
    specs = json.load(open(os.path.join(root, "specs.json")))
    errors, seen, trees = [], set(), {}
    for i, s in enumerate(specs):
        where = f"spec {i} ({s.get('file')}:{s.get('kernel')}:{s.get('variant')})"
        for key in ("file", "kernel", "signature", "num_warps", "num_stages", "grid"):
            if key not in s:
                errors.append(f"{where}: missing {key}")
        ident = (s.get("file"), s.get("kernel"), s.get("variant", "default"))
        if ident in seen:
            errors.append(f"{where}: duplicate")
        seen.add(ident)
        path = os.path.join(root, s["file"])
        if s["file"] not in trees:
            try:
                trees[s["file"]] = ast.parse(open(path).read(), path)
            except (OSError, SyntaxError) as e:
                errors.append(f"{where}: {e}")
                trees[s["file"]] = None
        tree = trees[s["file"]]
        if tree is None:
            continue
        fns = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        fn = fns.get(s["kernel"])
        if fn is None or not any(is_jit(d) for d in fn.decorator_list):
            errors.append(f"{where}: no @triton.jit function {s['kernel']}")
            continue
        params = fn.args.args
        entries = split_top(s["signature"])
        if len(entries) != len(params):
            errors.append(f"{where}: {len(entries)} signature entries for {len(params)} parameters")
            continue
        for p, e in zip(params, entries):
            try:
                kind = entry_kind(e)
            except (ValueError, SyntaxError) as ex:
                errors.append(f"{where}: parameter {p.arg}: {ex}")
                continue
            if is_constexpr(p) and kind != "const":
                errors.append(f"{where}: constexpr parameter {p.arg} given a type {e!r}")
            if not is_constexpr(p) and kind == "const":
                errors.append(f"{where}: runtime parameter {p.arg} given a constant {e!r}")
        if not (isinstance(s["num_warps"], int) and isinstance(s["num_stages"], int)):
            errors.append(f"{where}: num_warps/num_stages must be integers")
    for name, tree in sorted(trees.items()):
        if tree is not None:
            for line in skipped_statements(tree):
                print(f"note: {name}: triton_ref.py would not run {line}")
    for e in errors:
        print("error:", e)
    print(f"{len(specs)} specs, {len(trees)} files, {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
