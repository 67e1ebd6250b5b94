#!/usr/bin/env bash
# Copy the real-world corpus (third-party Triton kernels, never committed) into a folder that git
# ignores, checking every file's sha256 against PROVENANCE.md next to this script.
#   conformance/realworld/extract.sh OUT_DIR [MIRRORS_DIR]
# MIRRORS_DIR (default /work/.mirror) holds one git dir per repository as OWNER+NAME/repo, e.g.
#   git clone --bare https://github.com/fla-org/flash-linear-attention MIRRORS_DIR/fla-org+flash-linear-attention/repo
# Each file lands at OUT_DIR/NAME/PATH (NAME and PATH as in PROVENANCE.md), with each
# repository's LICENSE at OUT_DIR/NAME/LICENSE. Then run the tests with GOTRITON_REALWORLD=OUT_DIR.
set -euo pipefail
out=${1:?usage: extract.sh OUT_DIR [MIRRORS_DIR]}
mirrors=${2:-/work/.mirror}
prov="$(cd "$(dirname "$0")" && pwd)/PROVENANCE.md"
bad=0; n=0
declare -A licensed
while IFS='|' read -r _ name repo commit path sha _; do
  name=$(echo "$name" | tr -d ' '); repo=$(echo "$repo" | tr -d ' '); commit=$(echo "$commit" | tr -d ' ')
  path=$(echo "$path" | tr -d ' `'); sha=$(echo "$sha" | tr -d ' ')
  gitdir="$mirrors/${repo/\//+}/repo"
  dest="$out/$name/$path"
  mkdir -p "$(dirname "$dest")"
  git --git-dir="$gitdir" show "$commit:$path" > "$dest"
  n=$((n+1))
  got=$(sha256sum "$dest" | cut -d' ' -f1)
  [ "$got" = "$sha" ] || { echo "sha256 mismatch: $name/$path" >&2; bad=1; }
  if [ -z "${licensed[$name]:-}" ]; then
    licensed[$name]=1
    lic=$(git --git-dir="$gitdir" ls-tree --name-only "$commit" | grep -m1 -iE '^(LICENSE|LICENCE|COPYING)' || true)
    [ -n "$lic" ] && git --git-dir="$gitdir" show "$commit:$lic" > "$out/$name/LICENSE"
  fi
done < <(grep -E '^\| [a-z_]+ \| [^ ]+/[^ ]+ \| [0-9a-f]{40} \|' "$prov")
echo "$n files written to $out"
exit $bad
