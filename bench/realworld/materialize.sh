#!/usr/bin/env bash
# Writes the Python files of every repository commit named in manifest.tsv
# (or in the TSV given with -m) under OUT, one project folder per commit:
#
#   OUT/<owner>+<name>@<commit 12>/<every *.py of the repository at that commit>
#
# Whole repositories, not only the labeled files, so that oomlint's project
# index can resolve each file's imports inside its project. Each folder gets
# an empty `.git` folder: the marker that makes it the project root.
#
# The code comes from bare mirrors (the `fetch` tool's layout:
# MIRROR/<owner>+<name>/repo[/.git]). MIRROR is the second argument, else
# $OOMLINT_MIRROR, else ../.mirror beside the repository root. Repositories
# missing from MIRROR are listed at the end (exit 1); the others are written.
#
# usage: bench/realworld/materialize.sh [-m MANIFEST] OUT [MIRROR]
# (a MANIFEST may have only the repo and commit columns: precision_pool.tsv)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
manifest=$here/manifest.tsv
if [[ ${1:-} == -m ]]; then
  manifest=$2
  shift 2
fi
[[ $# -ge 1 ]] || {
  echo "usage: $0 [-m MANIFEST] OUT [MIRROR]" >&2
  exit 2
}
out=$1
root=$(cd "$here/../.." && pwd)
mirror=${2:-${OOMLINT_MIRROR:-$root/../.mirror}}
[[ -d $mirror ]] || {
  echo "no mirror folder at $mirror (pass it as the second argument or set OOMLINT_MIRROR)" >&2
  exit 2
}
mkdir -p "$out"

missing=()
written=0
kept=0
# Unique repository/commit pairs, in manifest order.
while IFS=$'\t' read -r repo commit; do
  base=$mirror/${repo/\//+}/repo
  gitdir=$base
  [[ -d $base/.git ]] && gitdir=$base/.git
  if [[ ! -d $gitdir/objects ]]; then
    missing+=("$repo")
    continue
  fi
  if ! git --git-dir="$gitdir" cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "$repo: commit $commit is not in the mirror (fetch a newer snapshot)" >&2
    missing+=("$repo@$commit")
    continue
  fi
  dest=$out/${repo/\//+}@${commit:0:12}
  # A finished folder holds its commit in .materialized; anything else is redone.
  if [[ -f $dest/.materialized && $(<"$dest/.materialized") == "$commit" ]]; then
    kept=$((kept + 1))
    continue
  fi
  rm -rf "$dest"
  mkdir -p "$dest/.git"
  # Snapshots lack their largest blobs, and `git archive` stops at the first
  # one it cannot read: what it wrote is kept and the rest of the Python files
  # come one by one from `git show` below.
  git --git-dir="$gitdir" archive --format=tar "$commit" 2>/dev/null |
    tar -x -C "$dest" --wildcards --no-anchored '*.py' 2>/dev/null || true
  while IFS= read -r -d '' path; do
    # A link the archive already wrote (perhaps dangling, its target not
    # written yet) is kept: writing through it would fail or land elsewhere.
    [[ -f $dest/$path || -L $dest/$path ]] && continue
    mkdir -p "$dest/$(dirname -- "$path")"
    git --git-dir="$gitdir" show "$commit:$path" >"$dest/$path"
  done < <(git --git-dir="$gitdir" ls-tree -r -z --name-only "$commit" | grep -z '\.py$' || true)
  printf '%s\n' "$commit" >"$dest/.materialized"
  written=$((written + 1))
done < <(awk -F'\t' 'NR > 1 && !seen[$1 "\t" $2]++ { print $1 "\t" $2 }' "$manifest")

# Every labeled file must now exist.
absent=0
while IFS=$'\t' read -r repo commit path; do
  dest=$out/${repo/\//+}@${commit:0:12}
  [[ -d $dest && -n $path ]] || continue
  if [[ ! -f $dest/$path ]]; then
    echo "labeled file missing after materializing: $repo@${commit:0:12} $path" >&2
    absent=$((absent + 1))
  fi
done < <(awk -F'\t' 'NR > 1 { print $1 "\t" $2 "\t" $3 }' "$manifest")

echo "materialized under $out: $written written, $kept already there"
if ((${#missing[@]})); then
  echo "fetch these repositories first (into $mirror):"
  printf '  %s\n' "${missing[@]}" | sort -u
  exit 1
fi
((absent == 0)) || exit 1
