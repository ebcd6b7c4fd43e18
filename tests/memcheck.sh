#!/usr/bin/env bash
# valgrind memcheck over the tests of a plain (not sanitized) build: any error
# or leak fails. Usage: tests/memcheck.sh BUILD_DIR [all]
#
# Without `all`: the unit tests and one rule folder through the fixture
# runner (a few minutes). With `all`, the rest of the suite too, each program
# the tests start run under memcheck: every fixture folder, the fixer's pairs,
# the command-line scripts and the language server's Node suite (the last two
# through a wrapper named as the binary, which logs each process apart). That
# takes about an hour on two cores, so CI runs the sanitizers instead and this
# is run by hand before a release.
set -euo pipefail
build=${1:?usage: tests/memcheck.sh BUILD_DIR [all]}
build=$(cd "$build" && pwd)
mode=${2:-}
# with `all`, MEMCHECK_ONLY (a regex) limits the run to the names it matches
# (test_lsp, fixture_runner.OOM101, cli.test_fix, lsp.node, ...)
only=${MEMCHECK_ONLY:-.}
root=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)"; exit 77; }
logs=${MEMCHECK_LOGS:-$(mktemp -d)}
mkdir -p "$logs"
status=0
vg=(valgrind -q --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect,possible
  --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99)
run() { # name command...
  local name=$1
  shift
  [[ $name =~ $only ]] || return 0
  local rc=0
  "${vg[@]}" --log-file="$logs/$name.log" "$@" >"$logs/$name.out" 2>&1 || rc=$?
  if [[ $rc -eq 0 ]]; then
    echo "$name: clean"
  else
    status=1
    echo "$name: FAILED (exit $rc; $logs/$name.log, $logs/$name.out)"
    head -30 "$logs/$name.log"
    tail -5 "$logs/$name.out"
  fi
}
for t in "$build"/tests/test_*; do
  [[ -x $t && ! -d $t ]] && run "$(basename "$t")" "$t"
done
if [[ $mode != all ]]; then
  # one rule folder through the fixture runner: the whole linter, end to end
  run fixture_runner.OOM501 "$build/tests/fixture_runner" "$root/tests/fixtures/OOM501"
  exit $status
fi

for dir in "$root"/tests/fixtures/OOM*; do
  [[ -d $dir ]] && run "fixture_runner.$(basename "$dir")" "$build/tests/fixture_runner" "$dir"
done
run fix_runner.pairs "$build/tests/fix_runner" --pairs "$root/tests/fixtures/fix"
run fix_runner.all "$build/tests/fix_runner" --all "$root/tests/fixtures"

# the scripts start the binary many times: a wrapper of the same name runs
# each start under memcheck, one log per process; a test may also fail from
# valgrind's exit status 99, and a non-empty log is a failure either way.
# The language server's wrapper does not count "possibly lost" blocks: a
# server whose client has gone leaves with _exit when a lint outlasts its
# two-second stop (by design: it cannot interrupt one), and memcheck's
# slowdown makes lints that long; what the still-running lint thread holds
# then is reported as possibly lost. Definite and indirect leaks still count.
wrapper() { # path kinds
  mkdir -p "$(dirname "$1")"
  {
    printf '#!/bin/sh\n'
    printf 'exec'
    printf ' %q' "${vg[@]}"
    printf ' --errors-for-leak-kinds=%s --show-leak-kinds=%s' "$2" "$2"
    printf ' --log-file=%q %q "$@"\n' "$logs/proc/%p.log" "$build/oomlint"
  } >"$1"
  chmod +x "$1"
}
mkdir -p "$logs/proc"
wrapper "$logs/bin/oomlint" definite,indirect,possible
wrapper "$logs/lsp-bin/oomlint" definite,indirect
wrap=$logs/bin
suite() { # name command...
  local name=$1
  shift
  [[ $name =~ $only ]] || return 0
  if "$@" >"$logs/$name.out" 2>&1; then
    echo "$name: passed under memcheck"
  else
    status=1
    echo "$name: FAILED under memcheck ($logs/$name.out)"
    tail -15 "$logs/$name.out"
  fi
}
for script in "$root"/tests/cli/test_*.sh; do
  suite "cli.$(basename "$script" .sh)" env OOM_SOURCE_DIR="$root" bash "$script" "$wrap/oomlint"
done
if command -v npm >/dev/null && command -v node >/dev/null; then
  # the Node suite's timeouts are generous (20 s a wait) for this; the test
  # of a 5 MB document asserts the server answers within seconds, which
  # memcheck's slowdown (30x and more) cannot meet: it is left out here
  suite lsp.node env OOMLINT_BIN="$logs/lsp-bin/oomlint" OOM_SOURCE_DIR="$root" \
    bash "$root/tests/lsp/npm_test.sh" "$root/tests/lsp" "$logs/lsp-node" \
    node --test --test-name-pattern='^(?!a 5 MB document)' e2e.test.js robustness.test.js
fi
dirty=$(find "$logs/proc" -name '*.log' -size +0 | sort)
if [[ -n $dirty ]]; then
  status=1
  echo "memcheck found errors or leaks in $(wc -l <<<"$dirty") of $(find "$logs/proc" -name '*.log' | wc -l) processes:"
  for f in $(head -5 <<<"$dirty"); do
    echo "== $f"
    head -30 "$f"
  done
else
  echo "all $(find "$logs/proc" -name '*.log' | wc -l) processes started by the scripts: clean"
fi
exit $status
