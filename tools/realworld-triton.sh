#!/usr/bin/env bash
# On the GPU machine (Triton 3.6 + torch, no network), from the repository root:
#     OUT=/some/dir tools/realworld-triton.sh
# Compiles every specialization of conformance/realworld/specs.jsonl with Triton 3.6 and with
# gotriton (.build/gotriton, cross-built with CGO_ENABLED=0 go build -o .build/gotriton ./cmd/gotriton)
# over the corpus in $GOTRITON_REALWORLD (default .realworld, made by conformance/realworld/extract.sh).
# Writes $OUT/realworld-triton.jsonl (one line per specialization) and $OUT/realworld-triton.txt (the summary).
set -uo pipefail
out=${OUT:?set OUT to a folder}
mkdir -p "$out"
corpus=${GOTRITON_REALWORLD:-.realworld}
[ -d "$corpus" ] || { echo "no corpus at $corpus: run conformance/realworld/extract.sh first" >&2; exit 2; }
gt=${GOTRITON:-.build/gotriton}
args=(-r "$corpus" -o "$out/realworld-triton.jsonl")
[ -x "$gt" ] && args+=(-g "$gt")
# The kernel cache stays out of $OUT: its hundreds of files would stop the transfer back.
export TRITON_CACHE_DIR=${TRITON_CACHE_DIR:-$(mktemp -d)}
timeout "${DEADLINE:-540}" "${PYTHON:-python3}" tools/realworld-triton.py "${args[@]}" 2> >(tee "$out/realworld-triton.txt" >&2)
