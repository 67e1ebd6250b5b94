#!/usr/bin/env bash
# Compile every kernel specialization in conformance/kernels/specs.json with real Triton
# (tools/triton_ref.py) and keep every stage it produces (ttir, ttgir, llir, ptx, ...).
#
# Runs on the GPU machine (python3 with Triton 3.6 and torch). From the repository root:
#
#     tools/gen-ttir.sh [-o OUTDIR] [-t TARGET] [-j JOBS] [-k PATTERN] [-T SECONDS]
#
#   -o OUTDIR   where to write (default: .build/ttir, git-ignored)
#   -t TARGET   triton_ref.py target (default: cuda:90:32, i.e. sm_90 like an H200)
#   -j JOBS     compile this many specializations at once (default: 1)
#   -k PATTERN  only specs whose "file:kernel:variant" contains PATTERN
#   -T SECONDS  per-specialization time limit (default: 600)
#
# Output layout: the first ("default") variant of each kernel goes to OUTDIR/<file-stem>/
# (OUTDIR/<file-stem>/<kernel>.ttir, .json, ...); every other variant to
# OUTDIR/<file-stem>/<variant>/. The log of each compile is OUTDIR/logs/<stem>.<kernel>.<variant>.log.
# Prints one OK/FAIL line per specialization, keeps going after failures, and exits 1
# if any failed. OUTDIR/summary.tsv records status, seconds and the command for each.
set -u

OUTDIR=.build/ttir
TARGET=cuda:90:32
JOBS=1
PATTERN=
LIMIT=600
while getopts "o:t:j:k:T:h" opt; do
  case "$opt" in
    o) OUTDIR=$OPTARG ;;
    t) TARGET=$OPTARG ;;
    j) JOBS=$OPTARG ;;
    k) PATTERN=$OPTARG ;;
    T) LIMIT=$OPTARG ;;
    *) sed -n '2,20p' "$0"; exit 2 ;;
  esac
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
SPECS=conformance/kernels/specs.json
REF=tools/triton_ref.py
[ -f "$SPECS" ] || { echo "missing $SPECS" >&2; exit 2; }
[ -f "$REF" ] || { echo "missing $REF (copy it from shared/tools/triton_ref.py)" >&2; exit 2; }
mkdir -p "$OUTDIR/logs"

exec python3 - "$SPECS" "$REF" "$OUTDIR" "$TARGET" "$JOBS" "$PATTERN" "$LIMIT" <<'PY'
import json, os, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor

specs_path, ref, outdir, target, jobs, pattern, limit = sys.argv[1:8]
jobs, limit = max(1, int(jobs)), int(limit)
specs = json.load(open(specs_path))
kernel_dir = os.path.dirname(specs_path)

work = []
for s in specs:
    variant = s.get("variant", "default")
    ident = f"{s['file']}:{s['kernel']}:{variant}"
    if pattern and pattern not in ident:
        continue
    stem = os.path.splitext(s["file"])[0]
    dest = os.path.join(outdir, stem) if variant == "default" else os.path.join(outdir, stem, variant)
    cmd = ["python3", ref, os.path.join(kernel_dir, s["file"]), "-n", s["kernel"], "-s", s["signature"],
           "-w", str(s["num_warps"]), "-ns", str(s["num_stages"]), "-t", target, "-o", dest]
    log = os.path.join(outdir, "logs", f"{stem}.{s['kernel']}.{variant}.log")
    work.append((ident, cmd, log))


def run(item):
    ident, cmd, log = item
    t0 = time.time()
    with open(log, "w") as fh:
        fh.write("$ " + " ".join(repr(c) if " " in c else c for c in cmd) + "\n")
        fh.flush()
        try:
            rc = subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT, timeout=limit).returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
    secs = time.time() - t0
    status = "OK" if rc == 0 else "FAIL"
    reason = ""
    if status == "FAIL":
        lines = [l.strip() for l in open(log, errors="replace") if l.strip()]
        reason = f"rc={rc}: " + (lines[-1][:160] if len(lines) > 1 else "no output")
    line = f"{status} {ident} ({secs:.1f} s){'  ' + reason if reason else ''}"
    print(line, flush=True)
    return ident, status, secs, rc, cmd


with ThreadPoolExecutor(jobs) as pool:
    results = list(pool.map(run, work))

with open(os.path.join(outdir, "summary.tsv"), "w") as fh:
    fh.write("status\tspec\tseconds\trc\tcommand\n")
    for ident, status, secs, rc, cmd in results:
        fh.write(f"{status}\t{ident}\t{secs:.1f}\t{rc}\t{' '.join(cmd)}\n")
ok = sum(1 for r in results if r[1] == "OK")
print(f"gen-ttir: {ok} OK, {len(results) - ok} FAIL of {len(results)} (target {target}) -> {outdir}")
sys.exit(0 if ok == len(results) else 1)
PY
