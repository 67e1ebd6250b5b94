#!/usr/bin/env python3
"""Compile every sampled specialization with real Triton 3.6 (on the GPU machine) and, with -g, gotriton.

    python3 tools/realworld-triton.py [-r CORPUS] [-g .build/gotriton] [-o OUT.jsonl]

The specs are conformance/realworld/specs.jsonl (files in CORPUS: $GOTRITON_REALWORLD, else
.realworld, made by conformance/realworld/extract.sh) and conformance/realworld/inductor/specs.jsonl
(our Inductor-shaped examples). For each spec: import the kernel's module as its package would
(see load_kernel; third-party modules that are not installed become permissive stubs), build
triton.compiler.ASTSource(fn, signature, constexprs, attrs) from the spec's gotriton-style
signature and compile it for GPUTarget("cuda", 90, 32) with the spec's num_warps and num_stages.
With -g the same spec is compiled by gotriton (`--emit tileir`, then `--emit ptx`) and the two
TTIR op multisets are compared. Writes one JSON line per spec (file, kernel, signature, triton:
ok/stage/error/ops, gotriton: ok/stage/error/ops, same_ops) and prints a summary: how many of the
specs that Triton compiles gotriton compiles too. Needs no network; tools/realworld-triton.sh runs it.
"""
import argparse, ast, collections, importlib, json, os, re, subprocess, sys, time, traceback, types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCALARS = {"i1", "i8", "i16", "i32", "i64", "u1", "u8", "u16", "u32", "u64", "fp16", "bf16", "fp32", "fp64"}
OP = re.compile(r'^\s*(?:%[\w#:]+(?:\s*,\s*%[\w#:]+)*\s*=\s*)?"?([a-z_]+\.[a-z_0-9.]+)')


def split_entries(sig):
    """Top-level comma-separated entries of a signature (commas inside <>, [], (), quotes stay)."""
    out, depth, cur, quote = [], 0, "", None
    for ch in sig:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
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
    return out + ([cur.strip()] if cur.strip() else [])


def ast_source_args(arg_names, sig):
    """(signature, constexprs, attrs) for ASTSource, with Triton 3.6's rules: `:16` is tt.divisibility,
    an int known to be 1 and every bare value are constexprs."""
    entries = split_entries(sig)
    if len(entries) != len(arg_names):
        raise ValueError(f"signature has {len(entries)} entries, kernel has {len(arg_names)} parameters {arg_names}")
    signature, constexprs, attrs = {}, {}, {}
    for i, (name, e) in enumerate(zip(arg_names, entries)):
        ty, _, hint = e.partition(":")
        if e.startswith("tensordesc<"):
            signature[name] = e.replace(" ", "")
        elif e.startswith("*") or ty in SCALARS:
            if hint == "1":
                signature[name], constexprs[name] = "constexpr", 1
                continue
            signature[name] = ty
            if hint == "16":
                attrs[(i,)] = [["tt.divisibility", 16]]
        else:
            signature[name], constexprs[name] = "constexpr", ast.literal_eval(e)
    return signature, constexprs, attrs


def op_multiset(ttir):
    """Counts of each op name in a TTIR (or gotriton tile IR) listing, module and function ops excluded."""
    c = collections.Counter()
    for line in ttir.splitlines():
        m = OP.match(line)
        if m and m.group(1) not in {"builtin.module", "module"}:
            c[m.group(1)] += 1
    return dict(sorted(c.items()))


class _Stub(types.ModuleType):
    """A stand-in for a module that is not installed: every attribute is a permissive object."""

    def __getattr__(self, name):
        if name == "__version__":
            return "0.0.0"
        if name.startswith("__"):
            raise AttributeError(name)
        return _Anything(f"{self.__name__}.{name}")


class _Anything:
    """Callable, subscriptable, usable as a decorator or a base class; never a kernel."""

    def __init__(self, name="stub"):
        self._name = name

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]
        return _Anything(self._name + "()")

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Anything(f"{self._name}.{name}")

    def __getitem__(self, key):
        return _Anything(self._name + "[]")

    def __mro_entries__(self, bases):
        return (object,)

    def __bool__(self):
        return False


def package_of(path):
    """(folder to put on sys.path, dotted module name) of a file: its package is rooted at the highest
    ancestor folder with an __init__.py (folders without one below it are namespace portions)."""
    folder = os.path.dirname(os.path.abspath(path))
    top, d = None, folder
    while os.path.dirname(d) != d:
        if os.path.exists(os.path.join(d, "__init__.py")):
            top = d
        d = os.path.dirname(d)
    base = os.path.dirname(top) if top else folder
    rel = os.path.relpath(os.path.splitext(os.path.abspath(path))[0], base)
    return base, rel.replace(os.sep, ".")


class _Version:
    """packaging.version.Version for numeric versions, when packaging is not installed."""

    def __init__(self, text):
        self.key = tuple(int(x) for x in re.findall(r"\d+", str(text).split("+")[0])[:3])

    def __lt__(self, other):
        return self.key < other.key

    def __le__(self, other):
        return self.key <= other.key

    def __gt__(self, other):
        return self.key > other.key

    def __ge__(self, other):
        return self.key >= other.key

    def __eq__(self, other):
        return self.key == other.key


def stub_module(name):
    """A stand-in for a module that is not installed (packaging.version gets a working Version)."""
    mod = _Stub(name)
    if name == "packaging.version":
        mod.Version = mod.parse = _Version
    return mod


def import_with_stubs(modname, own):
    """Imports modname, replacing each third-party module that is not installed by a _Stub."""
    for _ in range(30):
        try:
            return importlib.import_module(modname)
        except ModuleNotFoundError as e:
            missing = e.name
            if not missing or missing.split(".")[0] in {own, "torch", "triton"} or missing in sys.modules:
                raise
            parts = missing.split(".")
            if parts[0] == "packaging":
                parts = ["packaging", "version"]
            for i in range(1, len(parts) + 1):
                name = ".".join(parts[:i])
                if name not in sys.modules:
                    sys.modules[name] = stub_module(name)
                    if i > 1:
                        setattr(sys.modules[".".join(parts[:i - 1])], parts[i - 1], sys.modules[name])
    raise ImportError(f"too many missing modules importing {modname}")


def namespace_package(name, folder):
    """An empty package for folder that stands in for its __init__.py, keeping only the __init__.py's
    assignments of literals (fla.utils imports __version__ from fla)."""
    pkg = types.ModuleType(name)
    pkg.__path__ = [folder]
    init = os.path.join(folder, "__init__.py")
    if os.path.exists(init):
        for node in ast.parse(open(init, encoding="utf-8").read()).body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                try:
                    setattr(pkg, node.targets[0].id, ast.literal_eval(node.value))
                except ValueError:
                    pass
    return pkg


def load_kernel(path, qualname):
    """The JITFunction `qualname` of the file at path. The file is imported through its packages with
    the top-level package's __init__.py skipped; if that fails, with every package __init__.py skipped."""
    folder, modname = package_of(path)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    parts = modname.split(".")
    mod, first_error = None, None
    for skipped in sorted({min(1, len(parts) - 1), len(parts) - 1}):  # enclosing packages made empty namespaces
        for m in [m for m in sys.modules if m == parts[0] or m.startswith(parts[0] + ".")]:
            del sys.modules[m]
        for i in range(1, skipped + 1):
            sys.modules[".".join(parts[:i])] = namespace_package(".".join(parts[:i]), os.path.join(folder, *parts[:i]))
        try:
            mod = import_with_stubs(modname, parts[0])
            break
        except Exception as e:  # host code that does not run here: try the other way, then report both
            first_error = f"{first_error}; then {type(e).__name__}: {e}" if first_error else f"{type(e).__name__}: {e}"
    if mod is None:
        raise ImportError(first_error)
    fn = mod
    for part in qualname.split("."):
        fn = getattr(fn, part)
    from triton.runtime.jit import JITFunction
    for _ in range(8):  # Autotuner, Heuristics, Inductor's CachingAutotuner wrap the JITFunction as .fn
        if isinstance(fn, JITFunction):
            return fn
        fn = getattr(fn, "fn", None)
    raise TypeError(f"{qualname} is not a Triton jit function here")


def triton_compile(path, spec):
    """Triton 3.6's result for one spec: ok with the TTIR ops, or the stage (load, compile) and error."""
    import triton
    from triton.backends.compiler import GPUTarget
    try:
        fn = load_kernel(path, spec["kernel"])
        signature, constexprs, attrs = ast_source_args(fn.arg_names, spec["signature"])
    except Exception as e:  # the module does not import here, or the spec does not fit the kernel
        return {"ok": False, "stage": "load", "error": f"{type(e).__name__}: {e}".splitlines()[0][:500]}
    target = GPUTarget("cuda", 90, 32)
    src = triton.compiler.ASTSource(fn=fn, signature=signature, constexprs=constexprs, attrs=attrs)
    t0 = time.perf_counter()
    try:
        cc = triton.compile(src, target=target, options={"num_warps": spec.get("num_warps", 4),
                                                         "num_stages": spec.get("num_stages", 3)})
    except Exception as e:  # a compile error is a result
        return {"ok": False, "stage": "compile", "error": f"{type(e).__name__}: {e}".splitlines()[0][:500],
                "where": traceback.format_exc().strip().splitlines()[-3:-1]}
    return {"ok": True, "seconds": round(time.perf_counter() - t0, 3), "ops": op_multiset(cc.asm["ttir"])}


def gotriton_compile(gt, path, spec):
    base = [gt, "compile", path, "-n", spec["kernel"], "-s", spec["signature"],
            "-w", str(spec.get("num_warps", 4)), "-ns", str(spec.get("num_stages", 3))]
    p = subprocess.run(base + ["--emit", "tileir", "-o", "-"], capture_output=True, text=True, timeout=120)
    if p.returncode:
        return {"ok": False, "stage": "tileir", "error": (p.stderr or p.stdout).strip().splitlines()[:1]}
    ops = op_multiset(p.stdout)
    q = subprocess.run(base + ["--emit", "ptx", "-o", os.devnull], capture_output=True, text=True, timeout=120)
    if q.returncode:
        return {"ok": False, "stage": "ptx", "error": (q.stderr or q.stdout).strip().splitlines()[:1], "ops": ops}
    return {"ok": True, "ops": ops}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-r", "--corpus", default=os.environ.get("GOTRITON_REALWORLD", os.path.join(ROOT, ".realworld")))
    ap.add_argument("-g", "--gotriton", help="also compile each spec with this gotriton binary")
    ap.add_argument("-o", "--out", default="-")
    a = ap.parse_args()
    here = os.path.join(ROOT, "conformance", "realworld")
    specs = [(a.corpus, json.loads(l)) for l in open(os.path.join(here, "specs.jsonl")) if l.strip()]
    specs += [(here, json.loads(l)) for l in open(os.path.join(here, "inductor", "specs.jsonl")) if l.strip()]
    out = sys.stdout if a.out == "-" else open(a.out, "w")
    n_tr = n_load = n_both = n_same = 0
    for base, spec in specs:
        path = os.path.join(base, spec["file"])
        row = {k: spec[k] for k in ("file", "kernel", "signature")}
        row["triton"] = triton_compile(path, spec)
        n_tr += row["triton"]["ok"]
        n_load += row["triton"].get("stage") == "load"
        if a.gotriton:
            row["gotriton"] = gotriton_compile(a.gotriton, path, spec)
            if row["triton"]["ok"]:
                n_both += row["gotriton"]["ok"]
                row["same_ops"] = row["gotriton"].get("ops") == row["triton"]["ops"]
                n_same += row["same_ops"]
        out.write(json.dumps(row) + "\n")
        out.flush()
    msg = f"{len(specs)} specializations, Triton 3.6 compiles {n_tr} ({n_load} did not load)"
    if a.gotriton:
        msg += f"; gotriton compiles {n_both} of those to PTX ({100 * n_both / max(n_tr, 1):.1f}%), same TTIR op multiset for {n_same}"
    print(msg, file=sys.stderr)


if __name__ == "__main__":
    main()
