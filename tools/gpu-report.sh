#!/usr/bin/env bash
# One GPU run that produces everything docs/conformance.md needs. Run it on the GPU machine
# (H200, Triton 3.6 + torch, ptxas, compute-sanitizer) from the repository root:
#
#     OUT=/some/dir tools/gpu-report.sh
#
# It needs .build/gotriton, cross-built here with
#     CGO_ENABLED=0 go build -buildvcs=true -o .build/gotriton ./cmd/gotriton
# and, for the official tutorials' cases, a folder of them (.tutorials, .build/tutorials,
# or TUTORIALS=DIR / GOTRITON_TUTORIALS=DIR).
#
# Steps (each one's failure leaves the others running; each has a time limit, and the
# whole run stays under DEADLINE seconds, 540 by default):
#   1. gotriton conformance --dump-ptx $OUT/ptx and --export-launches $OUT/launches.json (no GPU)
#   2. gotriton conformance --device cuda --time --json $OUT/ours.json        (GPU, timed)
#   3. python3 tools/triton-times.py $OUT/launches.json -o $OUT/triton-times.json  (GPU, timed)
#   4. at once, nothing timed any more: compute-sanitizer memcheck, racecheck and synccheck over
#      gotriton conformance --device cuda, ptxas over every PTX of step 1, and the --via-llc
#      run when llc-22 or llc is on PATH (else a note), and the real-sizes comparison:
#      gotriton conformance --device cuda --real-sizes --compare-cpu --json $OUT/compare.json
#      (every case, ours and the tutorials', plus the tutorials' real sizes, each output
#      checked against the reference on the GPU and on the CPU interpreter, and the two compared),
#      and device_print's lines on the GPU against the CPU interpreter's
#   5. python3 tools/conformance-report.py -> $OUT/conformance.md
# Logs are $OUT/<step>.txt; $OUT/steps.txt has each step's exit status and seconds.
#
# Settings (environment):
#   RUN=REGEX            only cases matching REGEX, in every step (default: all)
#   MEMCHECK_RUN=REGEX   cases for memcheck (default: $RUN)
#   RACECHECK_RUN=REGEX  cases for racecheck and synccheck (default: the kernels that use shared memory)
#   T_OURS=120 T_TRITON=260 T_MEMCHECK=150 T_RACECHECK=150 T_SYNCCHECK=150 T_PTXAS=120 T_LLC=150 T_COMPARE=240
#                        per-step limits (s)
#   NO_COMPARE=1         skip the real-sizes GPU/CPU comparison
#   DEADLINE=540         limit for the whole script (s)
#   GOTRITON=.build/gotriton  PTXAS=ptxas  SANITIZER=compute-sanitizer  PYTHON=python3
#   PTXAS_ARCH=          ptxas -arch (default: each file's own .target, sm_90a for sm_90)
#   NO_DO_BENCH=1        skip triton.testing.do_bench's cross-check figure
#   LLC_PTX_DIR=DIR      run the --via-llc step from llc's PTX made elsewhere
#                        (gotriton conformance --dump-ptx DIR --via-llc where llc-22 is)
#   KEEP_PTX=1           keep $OUT/ptx (the PTX files) and $OUT/ptxas (per-file ptxas logs);
#                        by default only $OUT/ptx-index.tsv stays
set -u
: "${OUT:?set OUT to the output folder}"
mkdir -p "$OUT"
START=$(date +%s)
DEADLINE=${DEADLINE:-540}
GT=${GOTRITON:-.build/gotriton}
# The commit the binary was built from, as its --version says (built with -buildvcs=true),
# else this checkout's HEAD (on the GPU machine a copy that may predate the build).
COMMIT=${COMMIT:-$("$GT" --version 2>/dev/null | sed -n 's/.*, commit \([0-9a-f]*\(-dirty\)\{0,1\}\).*/\1/p')}
COMMIT=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
PY=${PYTHON:-python3}
PTXAS=${PTXAS:-ptxas}
SAN=${SANITIZER:-compute-sanitizer}
RUN=${RUN:-}
MEMCHECK_RUN=${MEMCHECK_RUN:-$RUN}
RACECHECK_RUN=${RACECHECK_RUN:-softmax|matmul|gemm|attn|attention|layer_norm|language_features|tutorial/0[235689]/}
T_OURS=${T_OURS:-120}; T_TRITON=${T_TRITON:-260}; T_MEMCHECK=${T_MEMCHECK:-150}
T_RACECHECK=${T_RACECHECK:-150}; T_SYNCCHECK=${T_SYNCCHECK:-150}; T_PTXAS=${T_PTXAS:-120}; T_LLC=${T_LLC:-150}; T_COMPARE=${T_COMPARE:-240}

TUT=${TUTORIALS:-${GOTRITON_TUTORIALS:-}}
if [ -z "$TUT" ]; then
  for d in .tutorials .build/tutorials; do [ -f "$d/01-vector-add.py" ] && TUT=$d && break; done
fi
TUTARGS=(); [ -n "$TUT" ] && TUTARGS=(--tutorials "$TUT")
RUNARGS=(); [ -n "$RUN" ] && RUNARGS=(--run "$RUN")

: > "$OUT/steps.txt"
# limit T: T, or what is left before DEADLINE less a reserve for the report, at least 10 s.
limit() {
  local left=$(( DEADLINE - ($(date +%s) - START) - ${2:-15} ))
  [ "$left" -lt "$1" ] && { [ "$left" -lt 10 ] && echo 10 || echo "$left"; } || echo "$1"
}
# step NAME LIMIT CMD...: runs CMD with output in $OUT/NAME.txt, and records its status.
step() {
  local name=$1 t; t=$(limit "$2"); shift 2
  local s=$(date +%s)
  echo "== $name (limit ${t}s): $*" >&2
  { echo "\$ $*"; echo; } > "$OUT/$name.txt"
  timeout -k 10 "$t" "$@" >> "$OUT/$name.txt" 2>&1
  local rc=$?
  local note=""; [ $rc -eq 124 ] || [ $rc -eq 137 ] && note=" (time limit ${t}s)"
  printf '%-12s exit %3d  %4ds%s\n' "$name" "$rc" "$(( $(date +%s) - s ))" "$note" >> "$OUT/steps.txt"
  echo "== $name: exit $rc$note" >&2
  return 0
}

# ---- the machine ----
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
  nvidia-smi 2>/dev/null | grep -o 'CUDA Version: [0-9.]*' | sed 's/^/driver /'
  "$PTXAS" --version 2>&1 | tail -1 | sed 's/^/ptxas: /'
  "$SAN" --version 2>&1 | grep -i version | head -1 | sed 's/^/compute-sanitizer: /'
  "$PY" -c 'import sys, torch, triton; print("python", sys.version.split()[0], "| torch", torch.__version__, "| torch cuda", torch.version.cuda, "| triton", triton.__version__)' 2>&1 | tail -1
  echo "gotriton: $GT $(ls -l "$GT" 2>&1 | awk '{print $5, $6, $7, $8}')"
  echo "commit: $COMMIT"
  echo "tutorials: ${TUT:-none (official tutorial cases not run)}"
} > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt" >&2
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
DRV=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)
CUDA=$(nvidia-smi 2>/dev/null | grep -o 'CUDA Version: [0-9.]*' | awk '{print $3}')

# ---- 1. offline: PTX and the launch export ----
step export 60 "$GT" conformance "${TUTARGS[@]}" "${RUNARGS[@]}" --export-launches "$OUT/launches.json" --dump-ptx "$OUT/ptx"

# ---- 2. ours, timed (alone on the GPU) ----
step ours "$T_OURS" "$GT" conformance --device cuda --time --json "$OUT/ours.json" "${TUTARGS[@]}" "${RUNARGS[@]}"

# ---- 3. Triton, timed (alone on the GPU) ----
TTARGS=(); [ -n "$TUT" ] && TTARGS+=(--tutorials "$TUT"); [ -n "$RUN" ] && TTARGS+=(--run "$RUN")
[ -n "${NO_DO_BENCH:-}" ] && TTARGS+=(--no-do-bench)
step triton-times "$T_TRITON" "$PY" tools/triton-times.py "$OUT/launches.json" -o "$OUT/triton-times.json" "${TTARGS[@]}"

# ---- 4. correctness tools, at once ----
# ptxas_one ARCH FILE: assembles one PTX file, log in $OUT/ptxas/NAME.log.
ptxas_one() {
  local b; b=$(basename "$2")
  if "$PTXAS" -arch="$1" -v -o /dev/null "$2" > "$OUT/ptxas/$b.log" 2>&1; then echo "ok $b $1"; else echo "FAIL $b $1"; fi
}
ptxas_all() {
  local dir=$1 n=0 bad=0 f arch log
  mkdir -p "$OUT/ptxas"
  for f in "$dir"/*.ptx; do
    [ -e "$f" ] || continue
    arch=${PTXAS_ARCH:-$(awk '/^\.target/ {gsub(",", "", $2); print $2; exit}' "$f")}
    echo "$arch $f"
  done | xargs -P 8 -L 1 bash -c 'ptxas_one "$@"' _ > "$OUT/ptxas/status.txt"
  n=$(wc -l < "$OUT/ptxas/status.txt"); bad=$(grep -c '^FAIL' "$OUT/ptxas/status.txt")
  echo "ptxas accepted $((n - bad)) of $n PTX files (-arch: ${PTXAS_ARCH:-the .target of each file}; -v resource usage below)"
  echo
  for f in $(grep '^FAIL' "$OUT/ptxas/status.txt" | awk '{print $2}'); do
    echo "---- FAIL $f"; cat "$OUT/ptxas/$f.log"
  done
  echo "---- compile failures of gotriton itself (no PTX; from index.tsv)"
  awk -F'\t' 'NR > 1 && $7 != "ok" {print $3 " [" $4 "] w=" $5 " s=" $6 ": " $7}' "$dir/index.tsv" 2>/dev/null
  echo "---- resource usage (ptxas -v)"
  for f in $(sort -k2 "$OUT/ptxas/status.txt" | grep '^ok' | awk '{print $2}'); do
    printf '%s: %s\n' "$f" "$(grep -h -E 'Used [0-9]+ registers|bytes spill' "$OUT/ptxas/$f.log" | sed 's/^ptxas info *: *//' | tr '\n' ' ')"
  done
  [ "$bad" -eq 0 ]
}
export -f ptxas_all ptxas_one
export OUT PTXAS PTXAS_ARCH
MEMARGS=(); [ -n "$MEMCHECK_RUN" ] && MEMARGS=(--run "$MEMCHECK_RUN")
RACEARGS=(); [ -n "$RACECHECK_RUN" ] && RACEARGS=(--run "$RACECHECK_RUN")
step memcheck "$T_MEMCHECK" "$SAN" --tool memcheck --print-limit 100 "$GT" conformance --device cuda "${TUTARGS[@]}" "${MEMARGS[@]}" &
step racecheck "$T_RACECHECK" "$SAN" --tool racecheck --print-limit 100 "$GT" conformance --device cuda "${TUTARGS[@]}" "${RACEARGS[@]}" &
step synccheck "$T_SYNCCHECK" "$SAN" --tool synccheck --print-limit 100 "$GT" conformance --device cuda "${TUTARGS[@]}" "${RACEARGS[@]}" &
step ptxas "$T_PTXAS" bash -c 'ptxas_all "$0"' "$OUT/ptx" &
LLC=$(command -v llc-22 || command -v llc || true)
if [ -n "${LLC_PTX_DIR:-}" ]; then
  # llc's PTX made where LLVM is installed: gotriton conformance --dump-ptx DIR --via-llc
  step via-llc "$T_LLC" "$GT" conformance --device cuda --ptx-dir "$LLC_PTX_DIR" --json "$OUT/via-llc.json" "${TUTARGS[@]}" "${RUNARGS[@]}" &
elif [ -n "$LLC" ]; then
  step via-llc "$T_LLC" "$GT" conformance --device cuda --via-llc --json "$OUT/via-llc.json" "${TUTARGS[@]}" "${RUNARGS[@]}" &
else
  echo "llc-22 / llc not found on this machine: the --via-llc run was skipped (run it where LLVM 22 is installed)" > "$OUT/via-llc.txt"
  printf '%-12s skipped: no llc on PATH\n' via-llc >> "$OUT/steps.txt"
fi
# device_print: the CPU interpreter's and the GPU's lines must be the same (the GPU prints
# an element once per thread holding it, so distinct lines are compared).
print_check() {
  local k=conformance/kernels/language_features.py dev
  "$PY" -c 'import struct, sys
v = [1.5, -2.0, 0.25, 3.0, 4.5, -0.125, 7.0, 8.25, 9.5, -10.0]
h = "{\x27descr\x27: \x27<f4\x27, \x27fortran_order\x27: False, \x27shape\x27: (%d,), }" % len(v)
h += " " * (64 - 10 - len(h) - 1) + "\n"
sys.stdout.buffer.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() + struct.pack("<%df" % len(v), *v))' > "$OUT/print-x.npy" || return 1
  for dev in cpu cuda; do
    cp "$OUT/print-x.npy" "$OUT/print-x-$dev.npy"
    "$GT" run "$k" -n print_kernel -s "*fp32:16, i32, 8" -g "cdiv(n,8),1,1" -w 1 --device $dev --args "$OUT/print-x-$dev.npy,10" \
      | grep '^pid' | sort -u > "$OUT/print-$dev.txt" || return 1
  done
  rm -f "$OUT"/print-x*.npy
  echo "device_print (print_kernel, n=10, BLOCK=8, 2 programs): $(wc -l < "$OUT/print-cpu.txt") distinct lines on the CPU, $(wc -l < "$OUT/print-cuda.txt") on the GPU"
  diff "$OUT/print-cpu.txt" "$OUT/print-cuda.txt" && echo "the same lines"
}
export -f print_check
export GT PY
step print 60 bash -c print_check &
if [ -z "${NO_COMPARE:-}" ]; then
  step compare "$T_COMPARE" "$GT" conformance --device cuda --real-sizes --compare-cpu --json "$OUT/compare.json" "${TUTARGS[@]}" "${RUNARGS[@]}" &
fi
wait

# ---- 5. the report ----
SECTIONS=(
  --section "gotriton conformance --device cuda --time (log)=$OUT/ours.txt"
  --section "ptxas over every PTX gotriton emits=$OUT/ptxas.txt"
  --section "compute-sanitizer --tool memcheck=$OUT/memcheck.txt"
  --section "compute-sanitizer --tool racecheck (${RACECHECK_RUN:-all cases})=$OUT/racecheck.txt"
  --section "compute-sanitizer --tool synccheck (${RACECHECK_RUN:-all cases})=$OUT/synccheck.txt"
  --section "gotriton conformance --device cuda --via-llc=$OUT/via-llc.txt"
  --section "gotriton conformance --device cuda --real-sizes --compare-cpu (log)=$OUT/compare.txt"
  --section "tl.device_print on the GPU and on the CPU interpreter=$OUT/print.txt"
  --section "tools/triton-times.py (log)=$OUT/triton-times.txt"
  --section "the machine=$OUT/env.txt"
  --section "steps (exit status, seconds)=$OUT/steps.txt"
)
LLCJSON=(); [ -f "$OUT/via-llc.json" ] && LLCJSON=(--via-llc "$OUT/via-llc.json")
[ -f "$OUT/compare.json" ] && LLCJSON+=(--compare "$OUT/compare.json")
"$PY" tools/conformance-report.py --ours "$OUT/ours.json" --triton "$OUT/triton-times.json" "${LLCJSON[@]}" \
  --date "$(date -u +%F)" --machine "$GPU" --driver "$DRV" --cuda "$CUDA" --commit "$COMMIT" \
  "${SECTIONS[@]}" -o "$OUT/conformance.md" 2>&1 | tee "$OUT/report.txt"
# The PTX can be made again anywhere (--dump-ptx needs no GPU); keep only its index.
if [ -z "${KEEP_PTX:-}" ]; then
  cp "$OUT/ptx/index.tsv" "$OUT/ptx-index.tsv" 2>/dev/null
  rm -rf "$OUT/ptx" "$OUT/ptxas"
fi
echo "== done in $(( $(date +%s) - START ))s; $OUT/conformance.md" >&2
cat "$OUT/steps.txt" >&2
