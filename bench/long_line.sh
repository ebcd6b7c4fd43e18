#!/usr/bin/env bash
# Benchmark (not a test): one list literal of ITEMS items on one line
# (`x = [loss, loss, ...]`, 12 MB by default), linted against the tree-sitter
# parse of the same file; prints both times and their ratio. See README.md.
#
#   BUILD=build-bench bench/long_line.sh          # ITEMS=2000000 RUNS=3
#
# BASELINE=path/to/another/oomlint adds a row for that build (an older
# commit's, say) measured in the same run.
#
# Each figure is the fastest of RUNS runs; "cpu" is user + system time,
# which a machine busy with other work inflates less than the wall time.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
BUILD=${BUILD:-$root/build-bench} # a -DCMAKE_BUILD_TYPE=Release build
ITEMS=${ITEMS:-2000000}
RUNS=${RUNS:-3}
work=${WORK_DIR:-/tmp/oomlint-bench}
mkdir -p "$work"
say() { printf '%s\n' "$*" >&2; }

grammar=$BUILD/grammars/node_modules/tree-sitter-python/src
[[ -x $BUILD/oomlint ]] || { say "no $BUILD/oomlint: cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release && cmake --build build-bench"; exit 2; }
[[ -x /usr/bin/time ]] || { say "needs /usr/bin/time (Debian package time)"; exit 2; }
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$grammar" -o "$work/parse_floor" "$here/parse_floor.c" \
  "$grammar/parser.c" "$grammar/scanner.c" $(pkg-config --cflags --libs tree-sitter)

file=$work/long_line_$ITEMS.py
[[ -f $file ]] || awk -v n="$ITEMS" 'BEGIN {
  printf "x = ["
  for (i = 0; i < n; i++) printf "%sloss", (i ? ", " : "")
  print "]"
}' </dev/null >"$file"
bytes=$(wc -c <"$file")
cat "$file" >/dev/null # in the page cache before either is timed

best() { # best CMD...: "wall cpu" of the fastest of RUNS runs, in seconds
  local w c bw="" bc=""
  for ((i = 0; i < RUNS; i++)); do
    /usr/bin/time -f '%e %U %S' -o "$work/time.txt" "$@" >/dev/null 2>&1 </dev/null || true
    read -r w u s <"$work/time.txt"
    c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
    if [[ -z $bw ]] || awk -v a="$w" -v b="$bw" 'BEGIN { exit !(a < b) }'; then bw=$w; fi
    if [[ -z $bc ]] || awk -v a="$c" -v b="$bc" 'BEGIN { exit !(a < b) }'; then bc=$c; fi
  done
  echo "$bw $bc"
}

read -r pw pc < <(best sh -c "echo '$file' | '$work/parse_floor' parse")
read -r lw lc < <(best "$BUILD/oomlint" check --no-cache --isolated -q "$file")
if [[ -n ${BASELINE:-} ]]; then read -r bw bc < <(best "$BASELINE" check --no-cache --isolated -q "$file"); fi
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
printf '%s: %d items, %.1f MB, fastest of %d runs\n' "${file##*/}" "$ITEMS" "$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')" "$RUNS"
printf '%-28s %8s %8s\n' "" "wall s" "cpu s"
printf '%-28s %8s %8s\n' "tree-sitter parse only" "$pw" "$pc"
printf '%-28s %8s %8s\n' "oomlint check" "$lw" "$lc"
printf '%-28s %8s %8s\n' "  x parse" "$(ratio "$lw" "$pw")" "$(ratio "$lc" "$pc")"
if [[ -n ${BASELINE:-} ]]; then
  printf '%-28s %8s %8s\n' "baseline (BASELINE)" "$bw" "$bc"
  printf '%-28s %8s %8s\n' "  x parse" "$(ratio "$bw" "$pw")" "$(ratio "$bc" "$pc")"
fi
