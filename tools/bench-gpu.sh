#!/usr/bin/env bash
# gotriton bench and real Triton 3.6 on the same launches, in one GPU run, and one table.
# Run it on the GPU machine (H200, Triton 3.6 + torch) from the repository root:
#
#     OUT=/some/dir tools/bench-gpu.sh [--quick] [--autotune] [--run REGEX]
#
# It needs .build/gotriton, cross-built here with
#     CGO_ENABLED=0 go build -buildvcs=true -o .build/gotriton ./cmd/gotriton
# and the official tutorials (.tutorials, .build/tutorials, or TUTORIALS=DIR /
# GOTRITON_TUTORIALS=DIR). docs/performance.md describes the cases and the table.
#
# Steps (a failing step or case leaves the others running; the whole run stays under
# DEADLINE seconds, 480 by default):
#   1. gotriton bench --list and --export $OUT/cases.json (no GPU)
#   2. gotriton bench, one process per case (a case past T_CASE seconds is killed and
#      recorded as failed; a CUDA fault cannot spoil the next case) -> $OUT/ours.json
#   3. python3 tools/triton-bench.py $OUT/cases.json -> $OUT/triton.json (per-case limit
#      T_CASE; if the process dies or hits its limit it resumes after the case it was in)
#   4. gotriton bench --table -> $OUT/table.md, printed at the end with the machine's details
# Logs: $OUT/ours.txt, $OUT/triton.txt; $OUT/env.txt the machine.
#
# Settings (environment): DEADLINE=480 T_CASE=60 T_TRITON=300 GOTRITON=.build/gotriton
# PYTHON=python3 WARMUP=10 REPS=50 COMMIT=<git rev> (default: the one gotriton --version names)
set -u
: "${OUT:?set OUT to the output folder}"
mkdir -p "$OUT"
START=$(date +%s)
DEADLINE=${DEADLINE:-480}
T_CASE=${T_CASE:-60}
T_TRITON=${T_TRITON:-300}
GT=${GOTRITON:-.build/gotriton}
# The commit the binary was built from, as its --version says (built with -buildvcs=true),
# else this checkout's HEAD (on the GPU machine a copy that may predate the build).
COMMIT=${COMMIT:-$("$GT" --version 2>/dev/null | sed -n 's/.*, commit \([0-9a-f]*\(-dirty\)\{0,1\}\).*/\1/p')}
COMMIT=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
PY=${PYTHON:-python3}
WARMUP=${WARMUP:-10}
REPS=${REPS:-50}

FLAGS=()
while [ $# -gt 0 ]; do
  case $1 in
    --quick|--autotune) FLAGS+=("$1") ;;
    --run) FLAGS+=(--run "$2"); shift ;;
    *) echo "bench-gpu.sh: unknown argument $1 (want --quick, --autotune, --run REGEX)" >&2; exit 2 ;;
  esac
  shift
done
TUT=${TUTORIALS:-${GOTRITON_TUTORIALS:-}}
if [ -z "$TUT" ]; then
  for d in .tutorials .build/tutorials; do [ -f "$d/01-vector-add.py" ] && TUT=$d && break; done
fi
[ -z "$TUT" ] && { echo "bench-gpu.sh: no tutorials folder (set TUTORIALS=DIR)" >&2; exit 2; }
ARGS=(--tutorials "$TUT" "${FLAGS[@]}")

# left LIMIT: LIMIT, or what is left before DEADLINE less 20 s for the table, at least 5 s.
left() {
  local l=$(( DEADLINE - ($(date +%s) - START) - 20 ))
  [ "$l" -lt "$1" ] && { [ "$l" -lt 5 ] && echo 5 || echo "$l"; } || echo "$1"
}

{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
  nvidia-smi 2>/dev/null | grep -o 'CUDA Version: [0-9.]*' | sed 's/^/driver /'
  "$PY" -c 'import sys, torch, triton; print("python", sys.version.split()[0], "| torch", torch.__version__, "| torch cuda", torch.version.cuda, "| triton", triton.__version__)' 2>&1 | tail -1
  echo "commit: $COMMIT"
  echo "flags: ${FLAGS[*]:-(none)}; warm-up $WARMUP, median of $REPS"
} > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt" >&2

# ---- 1. the cases ----
if ! "$GT" bench "${ARGS[@]}" --list > "$OUT/cases.txt" 2> "$OUT/list.txt" ||
   ! timeout -k 5 "$(left 180)" "$GT" bench "${ARGS[@]}" --export "$OUT/cases.json" >> "$OUT/list.txt" 2>&1; then
  cat "$OUT/list.txt" >&2
  echo "bench-gpu.sh: could not list or export the cases" >&2
  exit 1
fi
echo "== $(wc -l < "$OUT/cases.txt") cases ($(( $(date +%s) - START ))s)" >&2

# ---- 2. gotriton, one process per case ----
mkdir -p "$OUT/ours"
: > "$OUT/ours.txt"
i=0
while IFS=$'\t' read -r name _; do
  i=$((i + 1))
  t=$(left "$T_CASE")
  re=$(printf '%s' "$name" | sed 's/[][\.*^$+?(){}|]/\\&/g')
  timeout -k 5 "$t" "$GT" bench "${ARGS[@]}" --run "^${re}\$" --warmup "$WARMUP" --reps "$REPS" \
    --json "$OUT/ours/$i.json" >> "$OUT/ours.txt" 2>&1 < /dev/null
  rc=$?
  { [ $rc -eq 124 ] || [ $rc -eq 137 ]; } && echo "$name: killed at the ${t}s limit" >> "$OUT/ours.txt"
done < "$OUT/cases.txt"
"$PY" tools/triton-bench.py --merge "$OUT/cases.json" "$OUT"/ours/*.json -o "$OUT/ours.json" --log "$OUT/ours.txt" >&2
echo "== gotriton done ($(( $(date +%s) - START ))s)" >&2

# ---- 3. Triton, resuming after a case that killed the process ----
: > "$OUT/triton.txt"
rm -f "$OUT/triton-run.json"
TSTART=$(date +%s)
for attempt in 1 2 3 4 5; do
  t=$(left $(( T_TRITON - ($(date +%s) - TSTART) )))
  [ "$t" -le 5 ] && break
  resume=(); [ "$attempt" -gt 1 ] && resume=(--resume)
  timeout -k 5 "$t" "$PY" tools/triton-bench.py "$OUT/cases.json" -o "$OUT/triton-run.json" "${resume[@]}" \
    --warmup "$WARMUP" --reps "$REPS" --case-timeout "$T_CASE" >> "$OUT/triton.txt" 2>&1 < /dev/null
  [ -f "$OUT/triton-run.json" ] || { echo "== triton-bench.py wrote nothing (see $OUT/triton.txt)" >&2; break; }
  "$PY" -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1])).get("done") else 1)' "$OUT/triton-run.json" 2>/dev/null && break
  echo "== triton-bench.py stopped early (attempt $attempt); resuming" >&2
done
"$PY" tools/triton-bench.py --merge "$OUT/cases.json" "$OUT/triton-run.json" -o "$OUT/triton.json" --log "$OUT/triton.txt" >&2
echo "== Triton done ($(( $(date +%s) - START ))s)" >&2

# ---- 4. the table ----
"$GT" bench --table "$OUT/ours.json" --triton "$OUT/triton.json" -o "$OUT/table.md"
{
  echo
  sed 's/^/    /' "$OUT/env.txt"
  echo
  cat "$OUT/table.md"
} | tee "$OUT/report.md"
echo "== done in $(( $(date +%s) - START ))s: $OUT/report.md" >&2
