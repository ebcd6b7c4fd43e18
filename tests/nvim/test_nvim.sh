#!/usr/bin/env bash
# Runs headless Neovim with editors/nvim on a training script and checks that
# `oomlint server`'s diagnostics reach vim.diagnostic.get (test_diagnostics.lua).
# Usage: test_nvim.sh OOMLINT_BINARY; exit 77 (skipped) only when nvim is absent.
set -euo pipefail
bin=$1
if ! command -v nvim >/dev/null 2>&1; then
  echo "SKIPPED: nvim is not installed (Debian: apt-get install neovim, or scripts/setup)"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/project" "$work/home"
touch "$work/project/pyproject.toml"
cp "$here/train.py" "$work/project/train.py"
# a home of its own: no user config, shada or swap files
HOME=$work/home XDG_CONFIG_HOME=$work/home XDG_DATA_HOME=$work/home XDG_STATE_HOME=$work/home \
OOMLINT_BIN=$bin OOM_NVIM_FILE=$work/project/train.py \
  timeout 120 nvim --headless -u NONE -i NONE -n --cmd "set rtp^=$root/editors/nvim" \
  -c "luafile $here/test_diagnostics.lua"
