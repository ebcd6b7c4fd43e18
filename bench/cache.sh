#!/usr/bin/env bash
# The result cache's figure: a ~50 MB tree of .py files linted cold (empty
# cache) and re-linted warm (nothing changed), each timed with /usr/bin/time,
# and the ratio. Also: warm on one thread, and warm after one file changed.
#
#   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release && cmake --build build-bench
#   bench/cache.sh
#
# Settings (environment): BUILD (default build-bench), TREE (the tree to make,
# default /tmp/oomlint-cache-bench), SIZE_MB (50), SOURCE (a folder whose .py
# files are copied, round after round, to make the tree; by default the tree
# is modules made by tests/gen_python.awk plus copies of tests/fixtures and
# examples), WARM_RUNS (5).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${BUILD:-build-bench}
OOMLINT=$ROOT/$BUILD/oomlint
TREE=${TREE:-/tmp/oomlint-cache-bench}
SIZE_MB=${SIZE_MB:-50}
WARM_RUNS=${WARM_RUNS:-5}
[ -x "$OOMLINT" ] || { echo "bench/cache.sh: build $BUILD first (Release)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/cache.sh: needs /usr/bin/time (Debian package time)" >&2; exit 2; }

want=$((SIZE_MB * 1024 * 1024))
tree_bytes() { find "$TREE" -name '*.py' -printf '%s\n' | awk '{s += $1} END {print s + 0}'; }

rm -rf "$TREE"
mkdir -p "$TREE"
round=0
while [ "$(tree_bytes)" -lt "$want" ]; do
  round=$((round + 1))
  dir=$TREE/part$round
  mkdir -p "$dir"
  if [ -n "${SOURCE:-}" ]; then
    (cd "$SOURCE" && find . -name '*.py' -print0 | cpio -p0dm --quiet "$dir")
  else
    # per round: 100 generated modules (about 2 MB) and the fixtures and
    # example (about 0.9 MB, findings of every rule)
    for i in $(seq 1 100); do
      awk -v seed=$((round * 1000 + i)) -v funcs=$((20 + (round * 7 + i) % 60)) \
        -f tests/gen_python.awk </dev/null >"$dir/module_$i.py"
    done
    cp -r tests/fixtures "$dir/fixtures"
    cp examples/*.py "$dir/"
  fi
done
files=$(find "$TREE" -name '*.py' | wc -l)
mb=$(awk -v b="$(tree_bytes)" 'BEGIN {printf "%.1f", b / 1048576}')
# the cache trusts a file's time only 2 s after it was written (a write in
# the same clock tick could hide); a tree just made would be hashed instead
sleep 3

now_ms() { date +%s%N | cut -c1-13; }
# run NAME ARGS...: one timed run; prints a line, sets MS, RSS, RC
run() {
  local name=$1
  shift
  local t0 t1
  t0=$(now_ms)
  set +e
  local slug=${name//[^a-z0-9]/_}
  /usr/bin/time -f '%e %M' -o "$TREE.time" "$OOMLINT" "$@" "$TREE" >"$TREE.$slug.out" 2>"$TREE.$slug.err"
  RC=$?
  set -e
  t1=$(now_ms)
  MS=$((t1 - t0))
  # the last line: /usr/bin/time puts "Command exited with ..." before it
  RSS=$(tail -1 "$TREE.time" | awk '{print $2}')
  printf '  %-28s %8d ms  (/usr/bin/time: %s s)  peak RSS %6d KB  exit %d\n' "$name" "$MS" \
    "$(tail -1 "$TREE.time" | awk '{print $1}')" "$RSS" "$RC"
  [ "$RC" -le 1 ] || { echo "bench/cache.sh: $name exited $RC: $(head -3 "$TREE.$slug.err")" >&2; exit 1; }
  OUTFILE=$TREE.$slug.out
}

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit+changes"
echo "oomlint $("$OOMLINT" --version | cut -d' ' -f2) (commit $commit), $(date -u +%Y-%m-%dT%H:%M:%SZ)," \
  "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tree: $files files, $mb MB in $TREE"
CACHE=$TREE.cache
export OOMLINT_CACHE_DIR=$CACHE
rm -rf "$CACHE"
echo "runs: oomlint --isolated TREE (default full output to a file; threads: one per core)"
run cold --isolated
cold_ms=$MS
cold_out=$OUTFILE
best=
for i in $(seq 1 "$WARM_RUNS"); do
  run "warm $i" --isolated
  cmp -s "$cold_out" "$OUTFILE" || { echo "bench/cache.sh: warm output differs from cold" >&2; exit 1; }
  if [ -z "$best" ] || [ "$MS" -lt "$best" ]; then best=$MS; fi
done
run "warm, -j 1" --isolated -j 1
cmp -s "$cold_out" "$OUTFILE" || { echo "bench/cache.sh: -j 1 output differs" >&2; exit 1; }
echo 'x = 1' >>"$(find "$TREE" -name '*.py' | sort | head -1)"
run "warm, one file edited" --isolated
run "no cache (--no-cache)" --isolated --no-cache
cache_kb=$(du -sk "$CACHE" | cut -f1)
echo "cache folder: $cache_kb KB"
awk -v c="$cold_ms" -v w="$best" 'BEGIN {printf "cold / best warm: %d ms / %d ms = %.0fx\n", c, w, c / (w ? w : 1)}'
rm -f "$TREE".*.out "$TREE".*.err "$TREE.time"
