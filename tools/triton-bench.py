#!/usr/bin/env python3
"""Time real Triton on exactly the launches of `gotriton bench` (on the GPU machine).

    gotriton bench --export cases.json --tutorials DIR [--quick] [--autotune]
    python3 tools/triton-bench.py cases.json -o triton.json [--run REGEX] [--warmup 10] [--reps 50]
    gotriton bench --table ours.json --triton triton.json

For every exported case it rebuilds the same tensors on the GPU (hashed inputs are
generated bit for bit as gotriton generates them: see bench_hash), loads the kernel file with
Triton (tools/triton-times.py's loader), launches each step once in order as
`jit[grid](**args, num_warps=W, num_stages=S)` with every argument by keyword (autotuned
and heuristic kernels unwrapped, so that both compilers run the same config), checks the
sampled outputs against the float64 reference values gotriton exported (relative L2 error
under the exported tolerance, no NaN), then times every step the way gotriton does: CUDA
events around each run, warm-up runs, the median of --reps, a 256 MiB buffer zeroed before
each timed run to flush the L2 cache. The case's time is the sum of its timed steps. For
the matmul cases it also times torch.matmul (cuBLAS) on the same operands (cublas_ms;
--no-cublas leaves it out).

The output (the same JSON shape as `gotriton bench --json`) is rewritten after every case,
so a run cut short by a time limit keeps what it measured. A case that fails, raises or
runs past --case-timeout seconds (host side) is recorded with its error and the run goes
on. With --resume, the cases already in the output are skipped; a case is recorded as failed
("did not finish") before it starts, so that a run killed inside one case resumes after it.

    python3 tools/triton-bench.py --merge cases.json -o ours.json part1.json part2.json ...

merges results files (e.g. one per case) into one, in the export's order, and records every
exported case that has no result as failed. `--hash-selftest SEED N` prints bench_hash(SEED, i)
for i < N. Neither needs torch.
"""
import argparse, importlib.util, json, math, os, re, signal, sys, time, traceback


def bench_hash(seed, i):
    """gotriton's benchHash: an integer in [-256, 256] for element i of stream seed. Works on
    Python ints and on torch int64 tensors alike (no product reaches 2^63)."""
    m32 = 0xFFFFFFFF
    h = (i * 0x9E3779B1 + seed) & m32
    h = h ^ (h >> 16)
    h = (h * 0x45D9F3B) & m32
    h = h ^ (h >> 16)
    h = (h * 0x45D9F3B) & m32
    h = h ^ (h >> 16)
    return h % 513 - 256


def load_triton_times():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "triton-times.py")
    spec = importlib.util.spec_from_file_location("triton_times", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class CaseTimeout(Exception):
    pass


def on_alarm(signum, frame):
    raise CaseTimeout("past the --case-timeout limit")


def build_tensors(torch, DT, specs):
    out = {}
    chunk = 1 << 24
    for name in sorted(specs):
        s = specs[name]
        init, shape = s["init"], list(s["shape"])
        if init == "addr_of":
            continue
        dt = DT[s["dtype"]]
        n = math.prod(shape)
        if init == "empty":
            t = torch.empty(shape, dtype=dt, device="cuda")
        elif init == "zeros":
            t = torch.zeros(shape, dtype=dt, device="cuda")
        elif init == "data":
            src = torch.tensor(s["data"], dtype=torch.float64)
            if not dt.is_floating_point:
                src = src.to(torch.int64)
            t = src.reshape(shape).to("cuda").to(dt)
        elif init == "hash":
            flat = torch.empty(n, dtype=dt, device="cuda")
            for lo in range(0, n, chunk):
                i = torch.arange(lo, min(lo + chunk, n), dtype=torch.int64, device="cuda")
                k = bench_hash(int(s.get("seed", 0)), i).to(torch.float64)
                flat[lo:lo + len(i)] = (s.get("mean", 0.0) + s.get("scale", 0.0) * k / 256).to(dt)
                del i, k
            t = flat.reshape(shape)
        else:
            raise ValueError(f"tensor {name}: unknown init {init!r}")
        out[name] = t
    for name, s in specs.items():
        if s["init"] == "addr_of":
            out[name] = torch.tensor([out[o].data_ptr() for o in s["addr_of"]], dtype=torch.int64, device="cuda")
    return out


def make_call(fn, grid, vals, num_warps, num_stages):
    """fn[grid](...) with every argument by keyword. A kernel parameter named like a launch
    option (tutorial 02's num_stages) takes the option's value too, as in the tutorial; it must
    then equal the launch's option."""
    kw = dict(zip(fn.arg_names, vals))
    opts = {"num_warps": num_warps, "num_stages": num_stages}
    for name in [n for n in opts if n in kw]:
        if kw[name] != opts[name]:
            raise ValueError(f"parameter {name}={kw[name]!r} differs from the launch option {name}={opts[name]}; Triton would use one value for both")
        del opts[name]
    return lambda: fn[grid](**kw, **opts)


def check(torch, tensors, chk):
    t = tensors[chk["tensor"]].reshape(-1)
    idx = torch.tensor(chk["index"], dtype=torch.int64, device=t.device)
    got = t[idx].to(torch.float64).cpu().tolist()
    want = chk["want"]
    if any(math.isnan(g) or (math.isinf(g) and not math.isinf(w)) for g, w in zip(got, want)):
        return None, "NaN or inf"
    if not chk["float"]:
        bad = sum(1 for g, w in zip(got, want) if g != w)
        return 0.0, (f"{bad} of {len(got)} sampled elements differ" if bad else None)
    num = sum((g - w) ** 2 for g, w in zip(got, want))
    den = sum(w * w for w in want)
    rel = math.sqrt(num) / math.sqrt(den) if den > 0 else math.sqrt(num)
    return rel, (None if rel < chk["tol"] else f"relative L2 error {rel:.3g} over {len(got)} sampled elements (tolerance {chk['tol']:g})")


def merge(cases_path, out_path, parts, log=""):
    """Joins results files in the export's case order; an exported case without a result
    is recorded as failed."""
    ex = json.load(open(cases_path))
    docs = [json.load(open(p)) for p in parts if os.path.exists(p)]
    by_case = {}
    for d in docs:
        for r in d.get("results", []):
            by_case[r["case"]] = r
    merged = {"format": 1, "compiler": docs[0]["compiler"] if docs else "", "env": docs[0].get("env", {}) if docs else {},
              "method": docs[0].get("method", "") if docs else "", "results": [], "done": True}
    missing = 0
    for c in ex["cases"]:
        r = by_case.get(c["case"])
        if r is None:
            missing += 1
            r = {k: c[k] for k in ("case", "group", "label", "config", "unit", "work")}
            r.update(ms=0.0, status="FAIL", error="no result: the run was killed (time limit), crashed or could not start" + (f" (see {log})" if log else ""))
        merged["results"].append(r)
    with open(out_path, "w") as f:
        json.dump(merged, f, indent=1)
    print(f"{len(merged['results'])} cases merged from {len(docs)} files, {missing} without a result -> {out_path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("export", nargs="?", help="the JSON of gotriton bench --export")
    ap.add_argument("-o", "--out", help="where to write the results (JSON)")
    ap.add_argument("--run", default="", help="only cases whose name matches REGEX")
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--case-timeout", type=int, default=90, help="seconds per case (host side)")
    ap.add_argument("--no-cublas", action="store_true", help="do not time torch.matmul beside the matmul cases")
    ap.add_argument("--resume", action="store_true", help="keep the results already in the output and skip their cases")
    ap.add_argument("--merge", nargs="+", metavar=("CASES", "PART"), help="merge results files PART... in the order of CASES into -o")
    ap.add_argument("--log", default="", help="with --merge: the log to point missing results to")
    ap.add_argument("--hash-selftest", nargs=2, type=int, metavar=("SEED", "N"))
    a = ap.parse_args()
    if a.merge:
        if not a.out or len(a.merge) < 1:
            ap.error("--merge CASES PART... needs -o")
        merge(a.merge[0], a.out, a.merge[1:], a.log)
        return
    if a.hash_selftest:
        seed, n = a.hash_selftest
        print(" ".join(str(bench_hash(seed, i)) for i in range(n)))
        return
    if not a.export or not a.out:
        ap.error("EXPORT and -o are required")

    t_start = time.time()
    tt = load_triton_times()
    import torch
    import triton
    import triton.language as tl
    from triton.runtime.jit import JITFunction
    from triton.tools.tensor_descriptor import TensorDescriptor

    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    DT = tt.torch_dtypes(torch)
    ex = json.load(open(a.export))
    flt = re.compile(a.run) if a.run else None
    flush = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    props = torch.cuda.get_device_properties(0)
    doc = {
        "format": 1, "compiler": "triton",
        "env": {"triton": triton.__version__, "torch": torch.__version__, "cuda": str(torch.version.cuda),
                "device": props.name, "sms": str(props.multi_processor_count), "python": sys.version.split()[0]},
        "method": f"CUDA events around each run; {a.warmup} warm-up runs, median of {a.reps}; L2 flushed "
                  "(256 MiB zeroed) before each timed run; multi-step cases add their timed steps' medians",
        "results": [], "done": False,
    }
    done = set()
    if a.resume and os.path.exists(a.out):
        prev = json.load(open(a.out))
        doc["results"] = prev.get("results", [])
        done = {r["case"] for r in doc["results"]}

    def save():
        with open(a.out + ".tmp", "w") as f:
            json.dump(doc, f, indent=1)
        os.replace(a.out + ".tmp", a.out)

    save()
    signal.signal(signal.SIGALRM, on_alarm)
    modules = {}
    failed = 0
    for case in ex["cases"]:
        name = case["case"]
        if flt and not flt.search(name) or name in done:
            continue
        res = {k: case[k] for k in ("case", "group", "label", "config", "unit", "work")}
        res.update(ms=0.0, step_ms=[], status="FAIL", rel_l2={}, error="did not finish (killed or crashed in this case)")
        doc["results"].append(res)
        save()
        t0 = time.time()
        tensors = calls = None
        signal.alarm(a.case_timeout)
        res["error"] = ""
        try:
            if case.get("not_run"):
                res["status"], res["error"] = "not run", case["not_run"]
                raise StopIteration
            path = case["path"]
            if path not in modules:
                modules[path] = tt.load_module(path)
            tensors = build_tensors(torch, DT, case["tensors"])
            calls = []
            for l in case["launches"]:
                if l.get("error"):
                    raise ValueError(f"{l['kernel']}: {l['error']}")
                fn = tt.jit_function(modules[path], l["kernel"], JITFunction)
                vals = tt.build_args(l, tensors, tl, TensorDescriptor)
                if len(vals) != len(fn.arg_names):
                    raise TypeError(f"{l['kernel']}: {len(vals)} arguments for parameters {fn.arg_names}")
                calls.append(make_call(fn, tuple(l["grid"]), vals, l["num_warps"], l["num_stages"]))
            for call in calls:
                call()
            torch.cuda.synchronize()
            errs = []
            for chk in case["checks"]:
                rel, err = check(torch, tensors, chk)
                if rel is not None:
                    res["rel_l2"][chk["tensor"]] = rel
                if err:
                    errs.append(f"{chk['tensor']}: {err}")
            if errs:
                raise AssertionError("; ".join(errs))
            res["step_ms"] = [tt.bench_events(torch, call, a.warmup, a.reps, flush) for call in calls]
            res["ms"] = sum(res["step_ms"][i] for i in case["timed"])
            res["status"] = "pass"
            if case.get("cublas") and not a.no_cublas:
                pairs = [(tensors[m["a"]], tensors[m["b"]].T if m["b_nk"] else tensors[m["b"]]) for m in case["cublas"]]
                try:
                    res["cublas_ms"] = tt.bench_events(torch, lambda: [torch.matmul(x, y) for x, y in pairs], a.warmup, a.reps, flush)
                except Exception as e:
                    res["cublas_error"] = tt.short_error(e)
        except StopIteration:
            pass
        except Exception as e:
            if not isinstance(e, (AssertionError, CaseTimeout)):
                traceback.print_exc()
            res["error"] = tt.short_error(e)
        finally:
            signal.alarm(0)
        del tensors, calls
        torch.cuda.empty_cache()
        if res["status"] != "pass":
            failed += 1
        rate = ""
        if res["ms"] > 0:
            r = res["work"] / (res["ms"] * 1e-3) / (1e12 if res["unit"] == "TFLOP/s" else 1e9)
            rate = f"{r:.1f} {res['unit']}"
        print(f"{name}: {res['status']} {res['ms']:.4f} ms {rate} {res['error']} ({time.time() - t0:.1f} s)", flush=True)
        doc["elapsed_s"] = round(time.time() - t_start, 1)
        save()
    doc["done"] = True
    save()
    print(f"{len(doc['results'])} cases, {failed} failed ({time.time() - t_start:.0f} s) -> {a.out}")


if __name__ == "__main__":
    main()
