#!/usr/bin/env bash
# valgrind memcheck over the unit tests and the fixture runner of a plain (not
# sanitized) build: any error or leak fails. Usage: tests/memcheck.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: tests/memcheck.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)"; exit 77; }
logs=${MEMCHECK_LOGS:-$(mktemp -d)}
status=0
run() { # name command...
  local name=$1
  shift
  if valgrind -q --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect,possible \
    --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 \
    --log-file="$logs/$name.log" "$@" >"$logs/$name.out" 2>&1; then
    echo "$name: clean"
  else
    status=1
    echo "$name: FAILED (exit $?; $logs/$name.log)"
    head -30 "$logs/$name.log"
  fi
}
for t in "$build"/tests/test_*; do
  [[ -x $t && ! -d $t ]] && run "$(basename "$t")" "$t"
done
# one rule folder through the fixture runner: the whole linter, end to end
run fixture_runner.OOM501 "$build/tests/fixture_runner" "$root/tests/fixtures/OOM501"
exit $status
