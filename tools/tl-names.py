#!/usr/bin/env python3
"""Lists every public name of the Triton language modules of a Triton release, one
"module<TAB>name" line each, for docs/language-coverage.md (semantic's TestLanguageCoverage
reads the list from semantic/testdata/tl-names-3.6.txt).

    python3 tools/tl-names.py [GIT_DIR [REF]] > semantic/testdata/tl-names-3.6.txt

GIT_DIR is a clone (or bare mirror) of triton-lang/triton or a fork, REF its branch
(default release/3.6.x). Modules with an __all__ list give that list; the others
(math, random, the libdevice stubs) give their top-level functions that do not start
with an underscore. Only the Python standard library is needed.
"""
import ast, subprocess, sys

SOURCES = [
    ("triton.language", "python/triton/language/__init__.py"),
    ("triton.language.math", "python/triton/language/math.py"),
    ("triton.language.random", "python/triton/language/random.py"),
    ("triton.language.extra.libdevice", "python/triton/language/extra/libdevice.py"),
    ("triton.language.extra.cuda", "third_party/nvidia/language/cuda/__init__.py"),
    ("triton.language.extra.cuda.libdevice", "third_party/nvidia/language/cuda/libdevice.py"),
]


def public_names(src):
    tree = ast.parse(src)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return [e.value for e in node.value.elts]
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")]


def main():
    git_dir = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/woct0rdho+triton-windows/repo"
    ref = sys.argv[2] if len(sys.argv) > 2 else "release/3.6.x"
    for module, path in SOURCES:
        src = subprocess.run(["git", "-C", git_dir, "show", f"{ref}:{path}"], check=True, capture_output=True,
                             text=True).stdout
        for name in public_names(src):
            print(f"{module}\t{name}")


if __name__ == "__main__":
    main()
