#!/usr/bin/env bash
# ptxas -v over every PTX file of a folder (default .build/ptx: gotriton conformance
# --dump-ptx DIR writes one), one line each: registers, spill stores, the HGMMA count of
# the SASS (cuobjdump -sass) and ptxas' wgmma warnings (C7514: wgmmas serialized; C7519:
# an extra HGMMA for an empty commit_group). Run it on the GPU machine (ptxas, cuobjdump):
#
#     tools/ptxas-report.sh [DIR] > ptxas.txt
#
# Each file is assembled for its own .target (sm_90a for wgmma).
D=${1:-.build/ptx}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$D"/*.ptx; do
  b=$(basename "$f" .ptx)
  arch=$(grep -m1 '^\.target' "$f" | awk '{print $2}' | tr -d ,)
  ptxas -v -arch="$arch" -o "$tmp/$b.cubin" "$f" > "$tmp/$b.log" 2>&1
  rc=$?
  regs=$(grep -o 'Used [0-9]* registers' "$tmp/$b.log" | head -1)
  spill=$(grep -o '[0-9]* bytes spill stores' "$tmp/$b.log" | head -1)
  warn=$(grep -o 'C75[0-9]*' "$tmp/$b.log" | sort | uniq -c | tr '\n' ' ')
  hg=$(cuobjdump -sass "$tmp/$b.cubin" 2>/dev/null | grep -c HGMMA)
  echo "$b rc=$rc $regs | $spill | hgmma=$hg | $warn"
done
