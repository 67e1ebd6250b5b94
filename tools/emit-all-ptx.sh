#!/usr/bin/env bash
# emit-all-ptx.sh OUTDIR: for every specialization in conformance/kernels/specs.json, write
#   OUTDIR/<file>.<kernel>.<variant>.ll        our LLVM IR (--emit llvm)
#   OUTDIR/<file>.<kernel>.<variant>.ptx       our PTX (gotriton's own emitter)
#   OUTDIR/<file>.<kernel>.<variant>.llc.ptx   llc-22's PTX for the same IR (when llc is found)
#   OUTDIR/<file>.<kernel>.<variant>.err       the error, when a stage fails
# and OUTDIR/index.tsv (name, signature, num_warps, status of llvm / ptx / llc).
# On the GPU machine, check and compare them in one go, e.g.
#   for f in OUTDIR/*.ptx; do ptxas -arch=sm_90a "$f" -o /dev/null || echo "FAIL $f"; done
# Needs jq. GOTRITON (default: build ./cmd/gotriton into .build/) and LLC (default: llc-22,
# then llc, on PATH; "none" skips the llc output) may be set.
set -euo pipefail

out=${1:?usage: tools/emit-all-ptx.sh OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
specs=$root/conformance/kernels/specs.json
command -v jq >/dev/null || { echo "emit-all-ptx.sh: jq is needed (apt-get install jq)" >&2; exit 2; }

gotriton=${GOTRITON:-}
if [[ -z $gotriton ]]; then
	(cd "$root" && go build -o .build/gotriton ./cmd/gotriton)
	gotriton=$root/.build/gotriton
fi
llc=${LLC:-$(command -v llc-22 || command -v llc || true)}
[[ $llc == none ]] && llc=
mkdir -p "$out"

index=$out/index.tsv
printf 'name\tsignature\tnum_warps\tllvm\tptx\tllc\n' >"$index"
n=0 nptx=0 nllc=0
while IFS=$'\t' read -r file kernel variant sig warps stages; do
	name=${file%.py}.$kernel.$variant
	base=$out/$name
	args=("$root/conformance/kernels/$file" -n "$kernel" -s "$sig" -w "$warps" --ns "$stages")
	rm -f "$base.err"
	n=$((n + 1))
	st_llvm=fail st_ptx=- st_llc=-
	if "$gotriton" compile "${args[@]}" --emit llvm -o "$base.ll" 2>>"$base.err"; then
		st_llvm=ok st_ptx=fail
		if "$gotriton" compile "${args[@]}" --emit ptx -o "$base.ptx" 2>>"$base.err"; then
			st_ptx=ok nptx=$((nptx + 1))
		fi
		if [[ -n $llc ]]; then
			st_llc=fail
			if "$gotriton" compile "${args[@]}" --emit ptx --via-llc --llc "$llc" -o "$base.llc.ptx" 2>>"$base.err"; then
				st_llc=ok nllc=$((nllc + 1))
			fi
		fi
	fi
	[[ -s $base.err ]] || rm -f "$base.err"
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$sig" "$warps" "$st_llvm" "$st_ptx" "$st_llc" >>"$index"
done < <(jq -r '.[] | [.file, .kernel, .variant, .signature, (.num_warps|tostring), (.num_stages|tostring)] | @tsv' "$specs")
echo "emit-all-ptx.sh: $n specializations; our PTX for $nptx, llc's PTX for $nllc; see $index"
