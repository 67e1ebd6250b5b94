#!/usr/bin/env python3
"""Choose the real-world corpus and write conformance/realworld/PROVENANCE.md.

    python3 tools/realworld-select.py [MIRRORS_DIR] > conformance/realworld/PROVENANCE.md

MIRRORS_DIR (default /work/.mirror) holds one git dir per repository as OWNER+NAME/repo.
The corpus is every .py file under each source's folders (tests and docs left out) with at
least one Triton jit function (tools/realworld_jit.py decides), plus the support files they
need: the modules they import from the same repository, transitively, and the __init__.py
of every package they live in or import through, with everything those import (Python runs a
package's whole __init__.py when a kernel imports one name from it; tools/realworld-triton.py
imports the kernels that way on the GPU machine). A top-level package's __init__.py is the
exception: only the names imported from it are followed (fla/__init__.py imports every model
and layer; the kernels need none of them, and tools/realworld-triton.py skips that file). Each file is listed
with its repository, commit, path and sha256; conformance/realworld/extract.sh copies them.
"""
import ast, hashlib, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import realworld_jit  # noqa: E402

# name, owner/repo, commit (or branch), package root inside the repository, folders to take kernels from
SOURCES = [
    ("fla", "fla-org/flash-linear-attention", "HEAD", "", ["fla/"]),
    ("attorch", "BobMcDear/attorch", "HEAD", "", ["attorch/"]),
    ("tritonbench", "meta-pytorch/tritonbench", "HEAD", "", ["tritonbench/kernels/", "tritonbench/operators/"]),
    ("triton_kernels", "woct0rdho/triton-windows", "release/3.6.x", "python/triton_kernels/",
     ["python/triton_kernels/triton_kernels/", "python/triton_kernels/tests/"]),
]


def git(gitdir, *args):
    return subprocess.run(["git", "--git-dir", gitdir, *args], check=True, capture_output=True).stdout


def module_file(tree, root, dotted):
    """The repository path of module `dotted` under root, or None."""
    base = root + dotted.replace(".", "/")
    for cand in (base + ".py", base + "/__init__.py"):
        if cand in tree:
            return cand
    return None


def imports(path, src, tree, root, only=None):
    """What this file's imports need from the same repository: a list of (repository path, names),
    names being the set of names imported from a package's __init__.py (None: the whole module).
    With `only`, just the import statements that bind one of those names (or import *) count:
    that is how an __init__.py re-exports."""
    out = []
    try:
        mod = ast.parse(src)
    except SyntaxError:
        return out
    pkg = path[len(root):].split("/")[:-1]  # the file's package, as path segments
    for node in ast.walk(mod):
        if isinstance(node, ast.Import):
            if only is None:
                for a in node.names:
                    parts = a.name.split(".")
                    for i in range(1, len(parts) + 1):
                        f = module_file(tree, root, ".".join(parts[:i]))
                        if f:
                            out.append((f, set() if i < len(parts) else None))
            continue
        if not isinstance(node, ast.ImportFrom):
            continue
        names = [a for a in node.names if only is None or a.name == "*" or (a.asname or a.name) in only]
        if not names:
            continue
        if node.level:
            up = pkg[: len(pkg) - (node.level - 1)] if node.level > 1 else pkg
            base = ".".join(up + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        parts = base.split(".") if base else []
        for i in range(1, len(parts)):  # the package inits on the way: nothing imported from them
            f = module_file(tree, root, ".".join(parts[:i]))
            if f:
                out.append((f, set()))
        f = module_file(tree, root, base) if base else None
        if f:
            out.append((f, {a.name for a in names} if f.endswith("__init__.py") else None))
        for a in names:  # from package import submodule
            sub = module_file(tree, root, f"{base}.{a.name}" if base else a.name)
            if sub:
                out.append((sub, None))
    return out


def select(mirrors):
    rows = []
    for name, repo, rev, root, folders in SOURCES:
        gitdir = os.path.join(mirrors, repo.replace("/", "+"), "repo")
        commit = git(gitdir, "rev-parse", rev).decode().strip()
        tree = set(git(gitdir, "ls-tree", "-r", "--name-only", commit).decode().split("\n"))
        srcs = {}

        def read(p):
            if p not in srcs:
                srcs[p] = git(gitdir, "show", f"{commit}:{p}")
            return srcs[p]

        kernels = {}
        for p in sorted(tree):
            if not p.endswith(".py") or not any(p.startswith(f) for f in folders):
                continue
            data = read(p)
            if b"jit" not in data:
                continue
            ks = realworld_jit.kernels(data.decode("utf-8"), p)
            if ks:
                kernels[p] = len(ks)
        # path -> the names needed from it (None: the whole module, all its imports followed)
        chosen, todo = {}, [(p, None) for p in kernels]
        while todo:
            p, names = todo.pop()
            if p in chosen and (chosen[p] is None or (names is not None and names <= chosen[p])):
                continue
            if p.endswith("__init__.py") and p.count("/") > root.count("/") + 1:
                names = None  # Python runs a package's whole __init__.py, so all of it must import
            new = None if names is None or chosen.get(p, set()) is None else chosen.get(p, set()) | names
            chosen[p] = new
            only = new if p.endswith("__init__.py") else None
            folder = os.path.dirname(p)
            while len(folder) >= len(root.rstrip("/")) and folder:  # the packages the file lives in
                if folder + "/__init__.py" in tree:
                    todo.append((folder + "/__init__.py", set()))
                folder = os.path.dirname(folder)
            todo.extend(imports(p, read(p).decode("utf-8", "replace"), tree, root, only))
        for p in sorted(chosen):
            rows.append((name, repo, commit, p, hashlib.sha256(read(p)).hexdigest(), kernels.get(p, 0)))
    return rows


def main():
    mirrors = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror"
    rows = select(mirrors)
    total = sum(r[5] for r in rows)
    print("# Real-world corpus: provenance\n")
    print("Third-party Triton code, not part of this repository. `extract.sh` copies each file below from")
    print("the named repository at the named commit into `OUT/NAME/PATH` and checks its sha256.")
    print("Written by `tools/realworld-select.py`; `jit` is the number of Triton jit functions in the file")
    print("(CPython's ast, `tools/realworld_jit.py`), 0 for a support file that kernels import.\n")
    print(f"{sum(1 for r in rows if r[5])} kernel files, {sum(1 for r in rows if not r[5])} support files, {total} jit functions.\n")
    print("| name | repository | commit | path | sha256 | jit |")
    print("|---|---|---|---|---|---|")
    for name, repo, commit, p, sha, n in rows:
        print(f"| {name} | {repo} | {commit} | `{p}` | {sha} | {n} |")


if __name__ == "__main__":
    main()
