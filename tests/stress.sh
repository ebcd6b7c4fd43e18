# Command-line stress (issue 8): a tree of many generated files, one very
# large generated file of ordinary code, and two `-j 2` runs at once over
# the same tree (sharing the result cache). Asserts no crash, a bounded peak
# RSS (printed, from /usr/bin/time -f %M), and output identical to a
# single-threaded run without the cache. The CLI prints files in path order
# whatever -j, so outputs are compared as they are, unsorted.
#
#   bash tests/stress.sh PATH_TO_OOMLINT
#
# Sizes (environment): STRESS_FILES (10000 files), STRESS_BIG_MB (50 MB),
# STRESS_TREE_RSS_MB (peak RSS allowed for a tree run, 512), STRESS_BIG_RSS_X
# (peak RSS allowed for the large file, as a multiple of its size, 80).
# ctest runs a small variant (stress.small); the full size takes minutes.
. "$(dirname "$0")/cli/lib.sh" "$@"

N=${STRESS_FILES:-10000}
BIG_MB=${STRESS_BIG_MB:-50}
TREE_RSS_MB=${STRESS_TREE_RSS_MB:-512}
BIG_RSS_X=${STRESS_BIG_RSS_X:-80}
GEN=$SRC_DIR/tests/gen_python.awk
[ -x /usr/bin/time ] || { echo "stress.sh: needs /usr/bin/time (Debian package time)"; exit 2; }

FIGURES=()
now_ms() { date +%s%N | cut -c1-13; }
# timed NAME OUTFILE ARGS...: oomlint ARGS under /usr/bin/time; sets RC, MS, RSS_KB
timed() {
  local name=$1 out=$2
  shift 2
  local t0
  t0=$(now_ms)
  /usr/bin/time -f %M -o "$RES/rss" "$OOMLINT" "$@" >"$out" 2>"$RES/err"
  RC=$?
  MS=$(($(now_ms) - t0))
  RSS_KB=$(tail -1 "$RES/rss")
  ERR=$(head -c 2000 "$RES/err")
  FIGURES+=("$(printf '%-40s %8d ms  peak RSS %8d KB  exit %d' "$name" "$MS" "${RSS_KB:-0}" "$RC")")
}
want_ok_rc() { # 0 or 1: linted, findings or not; anything else is a crash or an error
  case $RC in 0 | 1) ;; *) fail "$1: exit status $RC; stderr: $(_show "$ERR")" ;; esac
  case $ERR in *Sanitizer* | *"runtime error"*) fail "$1: sanitizer report: $(_show "$ERR")" ;; esac
}
want_rss_below() { # want_rss_below KB WHAT
  [ "${RSS_KB:-0}" -gt 0 ] && [ "$RSS_KB" -le "$1" ] || fail "$2: peak RSS ${RSS_KB:-?} KB, limit $1 KB"
}

# --- the inputs ---------------------------------------------------------------------

mkdir tree
t0=$(now_ms)
# 100 files a folder; 2 to 25 functions each (1-12 KB), some with findings
awk -v n="$N" -v gen="$GEN" 'BEGIN {
  for (i = 0; i < n; i++) {
    dir = sprintf("tree/d%03d", int(i / 100))
    if (i % 100 == 0) system("mkdir -p " dir)
    printf "awk -v seed=%d -v funcs=%d -f %s </dev/null >%s/m%05d.py\n", i, 2 + (i * 7) % 24, gen, dir, i
  }
}' </dev/null | bash
tree_files=$(find tree -name '*.py' | wc -l)
tree_kb=$(du -sk tree | cut -f1)
funcs=$((BIG_MB * 1820)) # about 550 bytes a function
awk -v seed=424242 -v funcs="$funcs" -f "$GEN" </dev/null >big.py
big_bytes=$(wc -c <big.py)
FIGURES+=("$(printf 'inputs: %d files (%d KB), big.py %d bytes, made in %d ms' "$tree_files" "$tree_kb" "$big_bytes" \
  $(($(now_ms) - t0)))")

# --- a tree of many files -------------------------------------------------------------

begin "$tree_files files, one thread, no cache: linted, RSS bounded"
timed "tree -j 1 --no-cache" ref.out --isolated --no-cache -j 1 --output-format concise tree
REF_RC=$RC
want_ok_rc "-j 1"
want_rss_below $((TREE_RSS_MB * 1024)) "-j 1"
[ "$(grep -c ': OOM' ref.out)" -gt 0 ] || fail "no findings at all: the generator or the linter is off"
end

begin "$tree_files files, -j 2, no cache: same output as one thread"
timed "tree -j 2 --no-cache" j2.out --isolated --no-cache -j 2 --output-format concise tree
want_ok_rc "-j 2"
want_rss_below $((TREE_RSS_MB * 1024)) "-j 2"
[ "$RC" = "$REF_RC" ] || fail "exit $RC, one thread $REF_RC"
cmp -s ref.out j2.out || fail "differs from -j 1: $(diff ref.out j2.out | head -4 | tr '\n' ' ')"
cut -d: -f1 j2.out | grep '^tree/' | sort -c 2>/dev/null || fail "files not in path order"
end

begin "two -j 2 runs at once over the tree (one cache, cold): both right"
export OOMLINT_CACHE_DIR=$SCRATCH/cache
t0=$(now_ms)
/usr/bin/time -f %M -o a.rss "$OOMLINT" --isolated -j 2 --output-format concise tree >a.out 2>a.err &
pa=$!
/usr/bin/time -f %M -o b.rss "$OOMLINT" --isolated -j 2 --output-format concise tree >b.out 2>b.err &
pb=$!
wait $pa
ra=$?
wait $pb
rb=$?
MS=$(($(now_ms) - t0))
for x in a b; do
  RSS_KB=$(tail -1 $x.rss)
  FIGURES+=("$(printf '%-40s %8d ms  peak RSS %8d KB' "tree -j 2, run $x of 2 at once (cold)" "$MS" "$RSS_KB")")
  want_rss_below $((TREE_RSS_MB * 1024)) "concurrent run $x"
done
[ "$ra" = "$REF_RC" ] && [ "$rb" = "$REF_RC" ] || fail "exit $ra and $rb, one thread $REF_RC; $(head -c 300 a.err b.err)"
cmp -s ref.out a.out || fail "run a differs: $(diff ref.out a.out | head -4 | tr '\n' ' ')"
cmp -s ref.out b.out || fail "run b differs: $(diff ref.out b.out | head -4 | tr '\n' ' ')"
end

begin "two -j 2 runs at once again (warm cache), then one alone: all right"
"$OOMLINT" --isolated -j 2 --output-format concise tree >a.out 2>a.err &
pa=$!
"$OOMLINT" --isolated -j 2 --output-format concise tree >b.out 2>b.err &
pb=$!
wait $pa
ra=$?
wait $pb
rb=$?
[ "$ra" = "$REF_RC" ] && [ "$rb" = "$REF_RC" ] || fail "exit $ra and $rb, one thread $REF_RC"
cmp -s ref.out a.out || fail "run a differs"
cmp -s ref.out b.out || fail "run b differs"
timed "tree -j 2, warm cache" warm.out --isolated -j 2 --output-format concise tree
want_ok_rc "warm"
cmp -s ref.out warm.out || fail "warm run differs"
unset OOMLINT_CACHE_DIR
end

# --- one very large file -----------------------------------------------------------------

big_mb=$(awk -v b="$big_bytes" 'BEGIN {printf "%.1f", b / 1048576}')
begin "one $big_mb MB file of ordinary code: linted, RSS bounded"
timed "big.py ($big_mb MB), --no-cache" big.out --isolated --no-cache --output-format concise big.py
want_ok_rc "big.py"
# the syntax tree and the facts take memory in proportion to the source
want_rss_below $((big_bytes / 1024 * BIG_RSS_X + 65536)) "big.py"
[ "$(grep -c '^big\.py:' big.out)" -gt 0 ] || fail "no findings in big.py"
grep -q 'OOM000' big.out && fail "a syntax error reported in generated code: $(grep -m1 OOM000 big.out)"
end

echo "figures:"
for f in "${FIGURES[@]}"; do echo "  $f"; done
finish
