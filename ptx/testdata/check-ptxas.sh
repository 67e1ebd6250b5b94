#!/usr/bin/env bash
# Assemble every golden PTX file in this directory with ptxas and report
# pass/fail per file. Run on the GPU machine (CUDA toolkit):
#   ptx/testdata/check-ptxas.sh [-arch=sm_90] [PTXAS]
# The arch defaults to the one each file's .target names (sm_90a -> sm_90a).
# Exit status: 0 when every file assembles, 1 otherwise.
set -u
dir=$(cd "$(dirname "$0")" && pwd)
arch=""
if [[ "${1:-}" == -arch=* ]]; then arch=$1; shift; fi
ptxas=${1:-${PTXAS:-ptxas}}
if ! command -v "$ptxas" >/dev/null 2>&1; then
	echo "check-ptxas: $ptxas not found (install the CUDA toolkit or pass its path)" >&2
	exit 2
fi
"$ptxas" --version | tail -1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
for f in "$dir"/*.ptx; do
	a=$arch
	if [[ -z "$a" ]]; then a=-arch=$(awk '$1 == ".target" {print $2; exit}' "$f"); fi
	if log=$("$ptxas" "$a" -lineinfo -o "$out/$(basename "$f" .ptx).cubin" "$f" 2>&1); then
		echo "PASS $(basename "$f") ($a)"
		pass=$((pass + 1))
	else
		echo "FAIL $(basename "$f") ($a)"
		echo "$log" | sed 's/^/    /'
		fail=$((fail + 1))
	fi
done
echo "check-ptxas: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
