#!/usr/bin/env bash
# Runs a Node test suite in a copy of its folder inside the build tree:
# `npm ci` once (again when the lock file changes), then the given command.
# Usage: npm_test.sh SOURCE_DIR WORK_DIR COMMAND... ; exit 77 (skipped) only when npm is absent.
set -euo pipefail
src=$1 work=$2
shift 2
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  echo "SKIPPED: node and npm are not installed; these tests need them (Debian: apt-get install npm, or scripts/setup)"
  exit 77
fi
mkdir -p "$work"
# the sources, not what an earlier run or a developer's install left beside them
(cd "$src" && tar --exclude=./node_modules --exclude=./dist --exclude=./out --exclude='*.vsix' -cf - .) | (cd "$work" && tar -xf -)
stamp=$work/node_modules/.oomlint-stamp
if [ ! -f "$stamp" ] || [ "$src/package-lock.json" -nt "$stamp" ] || [ "$src/package.json" -nt "$stamp" ]; then
  (cd "$work" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  touch "$stamp"
fi
cd "$work"
exec "$@"
