#!/usr/bin/env python3
"""Time the conformance suite's launches with real Triton (on the GPU machine).

    gotriton conformance --export-launches launches.json [--tutorials DIR]
    python3 tools/triton-times.py launches.json -o triton-times.json [--tutorials DIR] [--run REGEX]

For every case of the export, it loads the kernel file with Triton 3.6 (executing only the
module's imports, definitions, top-level ifs and UPPER_CASE assignments, as
tools/triton_ref.py does), rebuilds equivalent torch tensors (small inputs exactly, larger
ones from the exported distribution; the values need not be identical for timing), runs the
case's launches once in order, then times each launch:

  ms           the same method as `gotriton conformance --time`: CUDA events around each
               run, 10 warm-up runs, the median of 50, a 256 MiB buffer zeroed before each
               timed run to flush the L2 cache (so host launch overhead hides behind it);
  do_bench_ms  triton.testing.do_bench(fn, return_mode="median") as a cross-check
               (--no-do-bench leaves it out).

Each launch is `jit[grid](**args, num_warps=W, num_stages=S)` with every argument, constexprs
included, passed by keyword under the kernel's parameter names (positionally when a parameter
is named like a launch option, as tutorial 02's num_stages is; see make_call). Autotuned and heuristic
kernels are unwrapped to their @triton.jit function so that both compilers run the same
specialization. Host tensor descriptors are triton.tools.tensor_descriptor.TensorDescriptor;
device-side ones allocate through triton.set_allocator. The output is rewritten after every
case, so a run cut short by a time limit still leaves the launches done so far.
"""
import argparse, ast, inspect, json, os, re, statistics, sys, time, traceback, types, zlib

KEEP_LOWER = {"configs", "properties", "target", "kernels", "libdir", "extern_libs"}


def load_module(path, whole=False):
    """Loads a kernel file as tools/triton_ref.py does (our team's loader, copied, plus names
    that decorators use)."""
    mod = types.ModuleType(os.path.splitext(os.path.basename(path))[0].replace("-", "_"))
    mod.__file__ = path
    sys.modules[mod.__name__] = mod
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    src = open(path).read()
    if whole:
        exec(compile(src, path, "exec"), mod.__dict__)
        return mod
    body = ast.parse(src).body
    # Beyond triton_ref.py's rule: also keep assignments to names that decorators use
    # (tutorial 08's `tma_configs = [...]` feeds @triton.autotune(tma_configs, ...)).
    in_decorators = {n.id for node in body if isinstance(node, (ast.FunctionDef, ast.ClassDef))
                     for d in node.decorator_list for n in ast.walk(d) if isinstance(n, ast.Name)}
    for node in body:
        keep = isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.If))
        if isinstance(node, ast.If) and "__name__" in ast.unparse(node.test):
            keep = False
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            keep = any(n.isupper() or n in KEEP_LOWER or n in in_decorators for n in names)
        if keep:
            try:
                exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), mod.__dict__)
            except Exception as e:  # host-only code that cannot run here
                print(f"note: {path}:{node.lineno} skipped: {type(e).__name__}: {e}", file=sys.stderr)
    return mod


def torch_dtypes(torch):
    return {
        "fp64": torch.float64, "fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16,
        "fp8e4nv": torch.float8_e4m3fn, "fp8e5": torch.float8_e5m2,
        "i1": torch.bool, "i8": torch.int8, "i16": torch.int16, "i32": torch.int32, "i64": torch.int64,
        "u8": torch.uint8, "u16": torch.uint16, "u32": torch.uint32, "u64": torch.uint64,
    }


def build_tensors(torch, specs, seed):
    """Makes a torch tensor on the GPU per exported TensorSpec."""
    DT = torch_dtypes(torch)
    gen = torch.Generator(device="cuda")
    gen.manual_seed(seed)
    out = {}
    for name in sorted(specs):
        s = specs[name]
        if s["init"] == "addr_of":
            continue
        dt, shape, init = DT[s["dtype"]], list(s["shape"]), s["init"]
        is_int = not dt.is_floating_point
        if init == "empty":
            t = torch.empty(shape, dtype=dt, device="cuda")
        elif init == "zeros":
            t = torch.zeros(shape, dtype=dt, device="cuda")
        elif init == "data":
            if is_int:
                t = torch.tensor([int(v) for v in s["data"]], dtype=torch.int64).reshape(shape).to("cuda").to(dt)
            else:
                t = torch.tensor(s["data"], dtype=torch.float64).reshape(shape).to("cuda").to(dt)
        elif init == "randint":
            lo, hi = int(s["min"]), int(s["max"])
            t = torch.randint(lo, hi + 1, shape, generator=gen, device="cuda", dtype=torch.int64).to(dt)
        elif init == "normal":
            x = torch.randn(shape, generator=gen, device="cuda", dtype=torch.float32) * s["std"] + s["mean"]
            t = x.clamp(s["min"], s["max"]).to(dt)
        else:
            raise ValueError(f"tensor {name}: unknown init {init!r}")
        out[name] = t
    for name, s in specs.items():
        if s["init"] == "addr_of":
            out[name] = torch.tensor([out[o].data_ptr() for o in s["addr_of"]], dtype=torch.int64, device="cuda")
    return out


def const_value(text, tl):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        if text.startswith("tl."):  # a dtype constexpr, e.g. tl.float16
            return getattr(tl, text[3:])
        raise ValueError(f"constexpr {text!r} is not a Python literal")


def build_args(launch, tensors, tl, TensorDescriptor):
    vals = []
    for a in launch["args"]:
        k = a["kind"]
        if k == "ptr":
            vals.append(tensors[a["tensor"]])
        elif k == "int":
            vals.append(int(a["value"]))
        elif k == "float":
            vals.append(float(a["value"]))
        elif k == "const":
            vals.append(const_value(a["value"], tl))
        elif k == "null":
            vals.append(None)
        elif k == "desc":
            vals.append(TensorDescriptor(tensors[a["tensor"]], list(a["shape"]), list(a["strides"]), list(a["block"])))
        else:
            raise ValueError(f"unknown argument kind {k!r}")
    return vals


def jit_function(mod, name, JITFunction):
    fn = getattr(mod, name)
    while not isinstance(fn, JITFunction) and hasattr(fn, "fn"):  # Autotuner, Heuristics
        fn = fn.fn
    if not isinstance(fn, JITFunction):
        raise TypeError(f"{name} is not a @triton.jit function: {type(fn).__name__}")
    return fn


# Triton reads launch options from the same keyword arguments as the kernel's parameters.
LAUNCH_OPTIONS = {"num_warps": 4, "num_stages": 3}  # and Triton's defaults on NVIDIA


def make_call(fn, grid, vals, num_warps, num_stages, row):
    """Returns fn[grid](...) with every argument by keyword and the options by keyword. A
    kernel with a parameter named like a launch option (tutorial 02's num_stages) gets its
    arguments positionally instead and that option left out, which then takes Triton's
    default; the row notes when that default differs from the case's value."""
    opts = {"num_warps": num_warps, "num_stages": num_stages}
    clash = [n for n in fn.arg_names if n in opts]
    if not clash:
        kw = dict(zip(fn.arg_names, vals))
        return lambda: fn[grid](**kw, **opts)
    for n in clash:
        if opts[n] != LAUNCH_OPTIONS[n]:
            row["note"] = f"parameter {n} clashes with the launch option; option left at Triton's default {LAUNCH_OPTIONS[n]}, not {opts[n]}"
        del opts[n]
    return lambda: fn[grid](*vals, **opts)


def row_of(rows, launch):
    return next(r for r in rows if r["step"] == launch["step"])


def bench_events(torch, fn, warmup, reps, flush):
    """gotriton's method: events around each run, warm-ups, median, L2 flushed before each."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(reps):
        flush.zero_()
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends))


def short_error(e):
    msg = f"{type(e).__name__}: {e}".strip()
    lines = [l for l in msg.splitlines() if l.strip()]
    msg = " | ".join(lines[:3] + (["..."] + lines[-2:] if len(lines) > 5 else lines[3:]))
    return msg[:600]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("launches", help="the JSON of gotriton conformance --export-launches")
    ap.add_argument("-o", "--out", required=True, help="where to write the times (JSON)")
    ap.add_argument("--tutorials", default=os.environ.get("GOTRITON_TUTORIALS", ""),
                    help="the official tutorials folder, for cases the export could not resolve")
    ap.add_argument("--run", default="", help="only cases whose name matches REGEX")
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--no-do-bench", action="store_true", help="skip the triton.testing.do_bench cross-check")
    ap.add_argument("--exec-module", action="store_true", help="execute kernel files whole")
    a = ap.parse_args()

    t_start = time.time()
    import torch
    import triton
    import triton.language as tl
    import triton.testing
    from triton.runtime.jit import JITFunction
    from triton.tools.tensor_descriptor import TensorDescriptor

    # Device-side descriptors (tl.make_tensor_descriptor) and global scratch allocate here.
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, dtype=torch.int8, device="cuda"))

    ex = json.load(open(a.launches))
    flt = re.compile(a.run) if a.run else None
    flush = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    props = torch.cuda.get_device_properties(0)
    doc = {
        "format": 1,
        "env": {
            "triton": triton.__version__, "torch": torch.__version__, "cuda": torch.version.cuda,
            "device": props.name, "python": sys.version.split()[0],
        },
        "method": f"CUDA events around each run; {a.warmup} warm-up runs, median of {a.reps}; "
                  "L2 flushed (256 MiB zeroed) before each timed run; do_bench_ms: "
                  "triton.testing.do_bench(return_mode='median')",
        "results": [],
        "done": False,
    }

    def save():
        tmp = a.out + ".tmp"
        with open(tmp, "w") as f:
            json.dump(doc, f, indent=1)
        os.replace(tmp, a.out)

    save()
    modules = {}
    n_ok = n_err = 0
    for case in ex["cases"]:
        name = case["case"]
        if flt and not flt.search(name):
            continue
        path = case.get("path") or ""
        if not path and case["source"] == "tutorial" and a.tutorials:
            path = os.path.join(a.tutorials, case["file"])
        rows = [{"case": name, "step": l["step"], "kernel": l["kernel"], "signature": l.get("signature", ""),
                 "grid": l["grid"], "num_warps": l["num_warps"], "num_stages": l["num_stages"],
                 "ms": None, "do_bench_ms": None, "error": None, "note": None} for l in case["launches"]]
        doc["results"].extend(rows)
        t0 = time.time()
        try:
            if not path or not os.path.exists(path):
                raise FileNotFoundError(case.get("not_run") or f"kernel file {case['file']} not found")
            if path not in modules:
                modules[path] = load_module(path, a.exec_module)
            mod = modules[path]
            tensors = build_tensors(torch, case["tensors"], zlib.crc32(name.encode()))
            calls = []
            for l in case["launches"]:
                fn = jit_function(mod, l["kernel"], JITFunction)
                vals = build_args(l, tensors, tl, TensorDescriptor)
                # parameters past the given values take their defaults, as in the launch
                defaulted = all(p.default is not inspect.Parameter.empty for p in fn.params[len(vals):])
                if len(vals) > len(fn.arg_names) or not defaulted:
                    raise TypeError(f"{l['kernel']}: {len(vals)} arguments for parameters {fn.arg_names}")
                calls.append(make_call(fn, tuple(l["grid"]), vals, l["num_warps"], l["num_stages"], row_of(rows, l)))
            # Run the case once, in order (compiles, and fills what later steps read).
            for row, call in zip(rows, calls):
                try:
                    call()
                except Exception as e:
                    row["error"] = "launch: " + short_error(e)
            torch.cuda.synchronize()
            for row, call in zip(rows, calls):
                if row["error"]:
                    continue
                try:
                    row["ms"] = bench_events(torch, call, a.warmup, a.reps, flush)
                    if not a.no_do_bench:
                        row["do_bench_ms"] = triton.testing.do_bench(call, return_mode="median")
                except Exception as e:
                    row["error"] = "timing: " + short_error(e)
            del tensors, calls
        except Exception as e:
            msg = short_error(e)
            if not isinstance(e, FileNotFoundError):
                traceback.print_exc()
            for row in rows:
                row["error"] = row["error"] or msg
        for row in rows:
            if row["error"]:
                n_err += 1
                print(f"{name} [{row['step']}] {row['kernel']}: ERROR {row['error']}", flush=True)
            else:
                n_ok += 1
                db = f"  do_bench {row['do_bench_ms']:.4f} ms" if row["do_bench_ms"] is not None else ""
                print(f"{name} [{row['step']}] {row['kernel']}: {row['ms']:.4f} ms{db}", flush=True)
        doc["elapsed_s"] = round(time.time() - t_start, 1)
        save()
        if time.time() - t0 > 30:
            print(f"note: {name} took {time.time() - t0:.0f} s", file=sys.stderr)
    doc["done"] = True
    save()
    print(f"{n_ok} launches timed, {n_err} not ({time.time() - t_start:.0f} s) -> {a.out}")


if __name__ == "__main__":
    main()
