#!/usr/bin/env python3
"""Records the specializations real Triton makes when a file launches its kernels.

    python3 tools/tutorial-specs.py FILE.py... > specs.jsonl

Run on the GPU machine (Triton 3.6, torch). Each file runs as a script (as `python FILE`
would, __main__ included) with Triton's benchmarks turned off (triton.testing.perf_report's
runs and do_bench return at once), and knobs.runtime.jit_cache_hook records every compile:
one JSON line per distinct specialization with the file, the kernel's qualname, the
signature (Triton's type strings, 'constexpr' for constexprs), the constexpr values, the
tt.divisibility hints, num_warps and num_stages. A file that fails part-way keeps what it
compiled before the failure, and the failure is recorded as a line with "error".
"""
import json, os, runpy, sys, traceback

import triton
import triton.testing
from triton import knobs
import triton.language as tl


def _value(v):
    if isinstance(v, tl.constexpr):
        v = v.value
    if isinstance(v, tl.dtype):
        return "tl." + str(v)
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return repr(v)


def main():
    seen = set()
    current = {"file": ""}

    def hook(key, repr, fn, compile, is_manual_warmup, already_compiled):
        sig = compile["signature"]
        consts = {name: _value(compile["constants"].get((i,))) for i, name in enumerate(sig) if (i,) in compile["constants"]}
        attrs = compile["configs"][0] if compile["configs"] else {}
        div = sorted(fn.jit_function.arg_names[k[0]] for k, v in attrs.items() if ["tt.divisibility", 16] in [list(a) for a in v])
        rec = {"file": current["file"], "kernel": fn.name, "signature": {k: str(v) for k, v in sig.items()},
               "constants": consts, "divisibility_16": div, "num_warps": compile["num_warps"], "num_stages": compile["num_stages"]}
        line = json.dumps(rec, sort_keys=True)
        if line not in seen:
            seen.add(line)
            print(line, flush=True)
        return False

    knobs.runtime.jit_cache_hook = hook

    class _NoBench:
        def __init__(self, fn):
            self.fn = fn

        def run(self, *a, **k):
            return None

        def __call__(self, *a, **k):
            return self.fn(*a, **k)

    triton.testing.perf_report = lambda benchmarks: (lambda fn: _NoBench(fn))
    triton.testing.do_bench = lambda *a, **k: 1.0
    for path in sys.argv[1:]:
        current["file"] = os.path.basename(path)
        old = sys.argv
        sys.argv = [path]
        try:
            runpy.run_path(path, run_name="__main__")
        except BaseException as e:  # a tutorial that needs another GPU, or fails
            print(json.dumps({"file": current["file"], "error": f"{type(e).__name__}: {e}"[:300]}), flush=True)
        finally:
            sys.argv = old


if __name__ == "__main__":
    main()
