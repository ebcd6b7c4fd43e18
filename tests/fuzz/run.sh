#!/usr/bin/env bash
# Runs every libFuzzer target built in BUILD_DIR for SECONDS each (default 60),
# seeded from tests/fixtures; a crash, leak or timeout fails the run.
# Usage: tests/fuzz/run.sh BUILD_DIR/tests/fuzz [SECONDS] [TARGET...]
# A target's verdict on an input must not depend on the inputs the process
# ran before it: fuzz_fix once aborted now and then with a crash file that
# did not reproduce alone, because tree-sitter-python's scanner carried an
# f-string flag from one parse into the next (src/parse/parse.c now starts
# every parse with a fresh scanner). To replay such a finding, run the target
# on the inputs in the order the process ran them (files given as arguments
# run in order, in one process).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$(dirname "$here")")
bin=${1:?usage: run.sh FUZZ_BUILD_DIR [SECONDS] [TARGET...]}
secs=${2:-60}
shift $(($# < 2 ? $# : 2))
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(fuzz_lint fuzz_lsp_read fuzz_fix fuzz_config fuzz_notebook)
work=${FUZZ_WORK:-$(mktemp -d)}
status=0
for t in "${targets[@]}"; do
  [[ -x $bin/$t ]] || { echo "$t: not built, skipped"; continue; }
  corpus=$work/$t
  mkdir -p "$corpus"
  case $t in
  fuzz_lint | fuzz_fix) seeds=("$root"/tests/fixtures "$here"/seeds/lint) ;;
  fuzz_lsp_read) seeds=("$here"/seeds/lsp) ;;
  fuzz_config) seeds=("$here"/seeds/config) ;;
  fuzz_notebook) seeds=("$root"/tests/fixtures) ;; # the *.ipynb fixtures (the *.py ones fail fast)
  esac
  # seeds are read, never written: new inputs go to the work corpus
  log=$work/$t.log
  if "$bin/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$work/$t-" "$corpus" "${seeds[@]}" >"$log" 2>&1; then
    echo "$t: ok, $(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}') executions in ${secs}s"
  else
    status=1
    echo "$t: FAILED (log $log; artifacts $work/$t-*)"
    grep -m5 -E 'ERROR|SUMMARY|runtime error' "$log" || tail -20 "$log"
  fi
done
exit $status
