#!/usr/bin/env python3
"""Record the specializations real Triton 3.6 compiles while running a script.

Run on the GPU machine (Triton 3.6, torch):

    python tools/triton_launch_specs.py 01-vector-add.py > launch/testdata/triton/01-vector-add.txt

It runs FILE as `python FILE` would (`__name__ == "__main__"`, sys.argv = [FILE]) with
Triton's jit_cache_hook installed, and prints every kernel it compiles, in gotriton's
signature syntax, one line per specialization, sorted:

    add_kernel
      *fp32:16, *fp32:16, *fp32:16, i32:16, 1024 | num_warps=4 num_stages=3

launch/TestTritonReference compares these files with what `gotriton check` infers.

triton.testing.do_bench and do_bench_cudagraph run the measured function once and report
1 ms, so that the benchmarks at the end of the tutorials (and the autotuner, which uses
do_bench) launch every specialization they would launch, in seconds instead of minutes.
"""
import collections
import runpy
import sys

import triton
import triton.language as tl
import triton.testing

specs = collections.defaultdict(set)


TORCH_TO_TL = {"float8_e4m3fn": "float8e4nv", "float8_e5m2": "float8e5", "float8_e4m3fnuz": "float8e4b8",
               "float8_e5m2fnuz": "float8e5b16", "bool": "int1"}


def value_text(v):
    """A constexpr as gotriton's signature spells it (dtypes by their triton.language name)."""
    if isinstance(v, tl.dtype):
        name = v.name
        if name == "bf16":
            return "tl.bfloat16"
        if name.startswith("fp"):
            return "tl.float" + name[2:]
        return "tl." + name
    if str(v).startswith("torch."):  # a torch dtype
        name = str(v)[len("torch."):]
        return "tl." + TORCH_TO_TL.get(name, name)
    return repr(v)


def hook(key, repr, fn, compile, is_manual_warmup, already_compiled):
    params = fn.jit_function.params
    signature = compile["signature"]
    constants = compile["constants"]
    attrs = compile["configs"][0]
    entries = []
    for i, p in enumerate(params):
        ty = signature[p.name]
        if ty == "constexpr":
            v = constants[(i, )]
            if p.is_constexpr:
                entries.append(value_text(v))
            else:
                entries.append("i32:1")  # an int equal to 1, specialized
            continue
        hints = attrs.get((i, ), [])
        if ["tt.divisibility", 16] in [list(h) for h in hints]:
            ty += ":16"
        entries.append(ty)
    specs[fn.name].add(f"{', '.join(entries)} | num_warps={compile['num_warps']} num_stages={compile['num_stages']}")
    return False


def bench_once(fn, *args, quantiles=None, return_mode="mean", **kwargs):
    """do_bench that launches fn once: the same specializations, no timing loop."""
    fn()
    return [1.0] * len(quantiles) if quantiles else 1.0


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: triton_launch_specs.py FILE")
    path = sys.argv[1]
    triton.knobs.runtime.jit_cache_hook = hook
    triton.testing.do_bench = bench_once
    triton.testing.do_bench_cudagraph = bench_once
    sys.argv = [path]
    out, sys.stdout = sys.stdout, sys.stderr  # the script's own prints go to stderr
    try:
        runpy.run_path(path, run_name="__main__")
    finally:
        sys.stdout = out
        for name in sorted(specs):
            print(name)
            for line in sorted(specs[name]):
                print("  " + line)


if __name__ == "__main__":
    main()
