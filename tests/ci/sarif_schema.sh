#!/usr/bin/env bash
# Lints a few inputs with --output-format sarif and validates each log against
# the SARIF 2.1.0 JSON schema (validate-sarif.js). Run by tests/lsp/npm_test.sh
# in a copy of tests/ci with its packages installed.
# Usage: sarif_schema.sh PATH_TO_OOMLINT FIXTURES_DIR
set -u
oomlint=$1 fixtures=$2
scratch=$(mktemp -d "${TMPDIR:-/tmp}/oomlint-sarif.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
printf 'import torch\nmodel = torch.nn.Linear(4, 2)\n' >"$scratch/clean.py"
printf 'import torch\ns = "日本語"; t = torch.load(p)\n' >"$scratch/with space é.py"
status=0
check() { # check NAME ARGS...
  local name=$1
  shift
  "$oomlint" --isolated --output-format sarif "$@" >"$scratch/out.sarif"
  local rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "not ok - $name: oomlint exited $rc"
    status=1
    return
  fi
  if out=$(node validate-sarif.js "$scratch/out.sarif" 2>&1); then
    echo "ok - $name: $out"
  else
    echo "not ok - $name: $out"
    status=1
  fi
}
check "every rule fixture" "$fixtures"
check "a clean file (no results)" "$scratch/clean.py"
check "a path with a space and non-ASCII text" "$scratch/with space é.py"
check "one rule selected" --select OOM303 "$fixtures"
exit $status
