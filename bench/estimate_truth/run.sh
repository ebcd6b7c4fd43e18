#!/bin/sh
# The comparison table: materialize the pinned scripts if needed, then compare oomlint with the
# stored truth (truth.json).  `run.sh --measure [NAME...]` first measures the truth again with
# PyTorch ($PYTHON: Debian's python3 with python3-torch and python3-torchvision installed).
# OOMLINT: the binary (default build/oomlint at the repository root).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ -d "${TRUTH_FETCHED:-$here/fetched}" ] || "$here/materialize.sh"
exec python3 "$here/compare.py" "$@"
