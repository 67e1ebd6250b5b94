#!/usr/bin/env bash
# Runs Triton 3.6's own python/test/unit/language/test_core.py (release/3.6.x) on the GPU
# machine with gotriton's PTX in place of Triton's (the pytest plugin triton_suite.py, kept in
# the team's shared/tools), then Triton alone, as the control, on every test that failed although
# gotriton compiled all its kernels.
# tools/triton-suite-report.py turns the results into docs/triton-suite.md.
#
# Run from the repository root on the GPU machine:
#     OUT=/some/dir SUITE=.suite tools/triton-suite.sh
# SUITE holds test_core.py and conftest.py (python/test/unit/language/test_core.py and
# python/test/conftest.py of release/3.6.x), triton_suite.py (the team's shared/tools copy with
# tools/triton_suite.patch applied: `patch -p0 < tools/triton_suite.patch` in SUITE; it copies
# our tensordesc_meta into Triton's metadata, passes the launch's enable_fp_fusion, enable_reflect_ftz
# and maxnreg on as gotriton flags, and leaves out a template's free name that the
# patched source assigns), tools/gt_shard.py and tools/gt_results.py; .build/gotriton is cross-built
# here with CGO_ENABLED=0 go build -o .build/gotriton ./cmd/gotriton.
#
# Settings: SHARD=I/N runs the I-th of N shards of the test functions (gt_shard.py), so
#   that the file fits several device calls; SKIP=FILE leaves out the tests FILE names (one per
#   line, absolute path: those an earlier, stopped call of the same shard finished); ONLY=FILE
#   keeps only the tests FILE names (a rerun of earlier failures); K=EXPR adds a pytest -k filter; JOBS=12 xdist
#   workers; GT_SAMPLE=N keeps N parametrizations of each test function (the plugin's
#   sample; the control reruns its failures whatever the sample); DEADLINE=540 seconds for the whole script (the control gets what is left, at
#   least 60 s).
# Writes to $OUT: gt.jsonl.gz (one line per compile: used / fail / skip), results.jsonl.gz
#   (one line per test outcome, written as the tests end), gt.xml (junit, when pytest ends),
#   control.xml (Triton alone on the failures of tests whose kernels gotriton all compiled),
#   steps.txt.
set -u
: "${OUT:?set OUT to the output folder}"
SUITE=${SUITE:-.suite}
JOBS=${JOBS:-12}
DEADLINE=${DEADLINE:-540}
START=$(date +%s)
GT=$(realpath "${GOTRITON:-.build/gotriton}")
OUTABS=$(realpath "$OUT")
cd "$SUITE" || exit 2
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1 GOTRITON=$GT
export TRITON_CACHE_DIR=$(mktemp -d)

sel=(); [ -n "${K:-}" ] && sel=(-k "$K")
export GT_SHARD=${SHARD:-}
[ -n "${SKIP:-}" ] && export GT_SKIP=$SKIP
[ -n "${ONLY:-}" ] && export GT_ONLY=$ONLY

left() { echo $(( DEADLINE - ($(date +%s) - START) )); }

export GT_LOG=$OUTABS/gt.jsonl GT_RESULTS=$OUTABS/results.jsonl
: > "$GT_LOG"; : > "$GT_RESULTS"
s=$(date +%s)
timeout -k 10 $(( $(left) - 60 )) python3 -m pytest test_core.py -p triton_suite -p gt_shard -p gt_results -n "$JOBS" -q -p no:cacheprovider \
  --junitxml="$OUTABS/gt.xml" "${sel[@]}" > "$OUTABS/gt.txt" 2>&1
echo "gotriton exit $? $(( $(date +%s) - s ))s" >> "$OUTABS/steps.txt"
tail -3 "$OUTABS/gt.txt"

# The control: Triton alone on the tests that failed or errored with gotriton although
# gotriton compiled every kernel they asked for (a refusal fails the test whatever Triton does).
python3 - "$GT_RESULTS" "$GT_LOG" > "$OUTABS/failed.txt" <<'PY'
import json, sys
refused = set()
for line in open(sys.argv[2]):
    r = json.loads(line)
    if r["outcome"] == "fail":
        refused.add(r["test"].split("::", 1)[-1].rsplit(" (", 1)[0])
failed = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["outcome"] == "failed":
        failed[r["test"]] = 1
for name in failed:
    if name not in refused:
        print(name)
PY
nf=$(wc -l < "$OUTABS/failed.txt")
if [ "$nf" -gt 0 ]; then
  s=$(date +%s)
  t=$(left); [ "$t" -lt 60 ] && t=60
  # A fresh kernel cache: Triton's cache key does not see the plugin, so the first run's cache
  # holds kernels built from gotriton's PTX. Only the failed tests are named (naming the file
  # too would collect all of it).
  env -u GT_SHARD -u GT_SAMPLE -u GT_SKIP -u GT_ONLY GT_OFF=1 GT_RESULTS=$OUTABS/control.jsonl TRITON_CACHE_DIR=$(mktemp -d) \
    timeout -k 10 "$t" python3 -m pytest -p triton_suite -n "$JOBS" -q -p no:cacheprovider \
    -p gt_results --junitxml="$OUTABS/control.xml" $(sed 's/^/test_core.py::/' "$OUTABS/failed.txt") \
    > "$OUTABS/control.txt" 2>&1
  echo "control exit $? $(( $(date +%s) - s ))s ($nf tests)" >> "$OUTABS/steps.txt"
fi
gzip -f "$GT_LOG" "$GT_RESULTS"
rm -f "$OUTABS/failed.txt"
cat "$OUTABS/steps.txt"
