"""Writes golden dumps for frontend/testdata/py312/*.py with CPython 3.12.

Run from the repository root with Python 3.12:

    python3.12 frontend/testdata/gen_golden.py

Each X.py gets X.dump: ast.dump(ast.parse(source), include_attributes=True) plus a newline.
These files pin 3.12-only syntax and the exact positions inside f-strings.
"""
import ast
import glob
import os
import sys

if sys.version_info[:2] != (3, 12):
    sys.exit("gen_golden.py needs Python 3.12, this is %d.%d" % sys.version_info[:2])

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "py312")
for path in sorted(glob.glob(os.path.join(here, "*.py"))):
    with open(path, "rb") as f:
        tree = ast.parse(f.read(), path)
    out = path[:-3] + ".dump"
    with open(out, "w", encoding="utf-8") as f:
        f.write(ast.dump(tree, include_attributes=True) + "\n")
    print("wrote", os.path.relpath(out))
