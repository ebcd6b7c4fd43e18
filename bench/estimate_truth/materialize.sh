#!/bin/sh
# Write every script of scripts.tsv, and the files it needs, under fetched/NAME/
# at its pinned commit, keeping the repository's layout (so a script's imports
# resolve as they do in its repository).  The files are never committed
# (fetched/ is ignored).
#
# Environment: MIRRORS, a folder of owner+name/repo bare git directories to
# read the commits from; without it (or when a repository is missing there),
# a blob-less bare clone under CLONES (default /tmp/oomlint-truth-git).
# TRUTH_FETCHED: where to write (default: fetched/ next to this script).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dest=${TRUTH_FETCHED:-$here/fetched}
clones=${CLONES:-/tmp/oomlint-truth-git}

git_dir() {
  flat=$(printf %s "$1" | tr / +)
  if [ -n "${MIRRORS:-}" ] && [ -d "$MIRRORS/$flat/repo" ]; then
    printf %s "$MIRRORS/$flat/repo"
    return
  fi
  if [ ! -d "$clones/$flat.git" ]; then
    mkdir -p "$clones"
    git clone -q --bare --filter=blob:none "https://github.com/$1" "$clones/$flat.git" >&2
  fi
  printf %s "$clones/$flat.git"
}

tail -n +2 "$here/scripts.tsv" | while IFS="$(printf '\t')" read -r name repo commit script needs args case assume models notes; do
  gd=$(git_dir "$repo")
  if ! git --git-dir="$gd" cat-file -e "$commit^{commit}" 2>/dev/null; then
    git --git-dir="$gd" fetch -q origin "$commit" >&2 || { echo "materialize: $repo has no commit $commit" >&2; exit 1; }
  fi
  rm -rf "$dest/$name"
  mkdir -p "$dest/$name"
  files=$script
  [ "$needs" = "-" ] || files="$files $(printf %s "$needs" | tr , ' ')"
  for f in $files; do
    mkdir -p "$dest/$name/$(dirname "$f")"
    git --git-dir="$gd" show "$commit:$f" > "$dest/$name/$f"
  done
  echo "materialize: $name ($repo@$(printf %.12s "$commit")): $files"
done
