# Shared helpers for the command-line end-to-end tests (tests/cli/test_*.sh).
#
# A test script sources this file with the path of the oomlint binary as its
# first argument:
#
#   . "$(dirname "$0")/lib.sh" "$@"
#
# and then runs cases:
#
#   begin "clean file exits 0"
#   oom clean.py                 # runs oomlint; sets RC, OUT, ERR
#   want_rc 0
#   want_out "All checks passed"
#   end
#
# The `want_*` checks record the first failure of the case; `end` prints
# `ok - NAME` or `not ok - NAME: why`. Every `oom` run is also checked for a
# crash (an exit status other than 0, 1 or 2, a timeout, or a sanitizer report
# on stderr), whatever the case expects. `finish` prints `N passed, M failed`
# and exits non-zero when a case failed.
#
# The current directory is a scratch folder made by `mktemp -d` and removed on
# exit, so cases write their inputs with relative names.

set -u

if [ $# -lt 1 ] || [ -z "$1" ]; then
  echo "usage: bash $0 PATH_TO_OOMLINT" >&2
  exit 2
fi
OOMLINT=$1
case $OOMLINT in
  /*) ;;
  *) OOMLINT=$PWD/$OOMLINT ;;
esac
if [ ! -x "$OOMLINT" ]; then
  echo "$0: $OOMLINT is not an executable" >&2
  exit 2
fi
SRC_DIR=${OOM_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
export LC_ALL=C
unset NO_COLOR

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/oomlint-cli.XXXXXX") || exit 2
# chmod first: a case may leave a folder unreadable
trap 'chmod -R u+rwx "$SCRATCH" 2>/dev/null; rm -rf "$SCRATCH"' EXIT
# make a signal run the EXIT trap too
trap "exit 129" HUP
trap "exit 130" INT
trap "exit 143" TERM
cd "$SCRATCH" || exit 2
RES=$SCRATCH/.results
mkdir "$RES"

PASSED=0
FAILED=0
CASE=""
WHY=""
RC=0
OUT=""
ERR=""


# A short, one-line rendering of some text, for failure messages.
_show() {
  local s=${1//$'\n'/\\n}
  s=${s//$'\e'/\\e}
  if [ ${#s} -gt 300 ]; then s="${s:0:300}..."; fi
  printf '%s' "[$s]"
}

begin() {
  CASE=$1
  WHY=""
}

fail() {
  if [ -z "$WHY" ]; then WHY=$1; fi
  return 1
}

end() {
  if [ -z "$WHY" ]; then
    echo "ok - $CASE"
    PASSED=$((PASSED + 1))
  else
    echo "not ok - $CASE: $WHY"
    FAILED=$((FAILED + 1))
  fi
  CASE=""
  WHY=""
}

skip() {
  echo "ok - $1 # SKIP $2"
}

finish() {
  echo "$PASSED passed, $FAILED failed"
  if [ "$FAILED" -ne 0 ]; then exit 1; fi
  exit 0
}


# oom [--timeout SECONDS] [--stdin FILE] [--as-nobody] ARGS...
# Runs oomlint with ARGS (stdin from FILE, else /dev/null); sets RC, OUT, ERR.
LAST_CMD=""
oom() {
  local limit=60 input=/dev/null
  local -a prefix=()
  while [ $# -gt 0 ]; do
    case $1 in
      --timeout) limit=$2; shift 2 ;;
      --stdin) input=$2; shift 2 ;;
      --as-nobody) prefix=(setpriv --reuid=65534 --regid=65534 --clear-groups); shift ;;
      *) break ;;
    esac
  done
  LAST_CMD="oomlint $*"
  timeout "$limit" "${prefix[@]}" "$OOMLINT" "$@" <"$input" >"$RES/out" 2>"$RES/err"
  RC=$?
  OUT=$(tr -d '\000' <"$RES/out")
  ERR=$(tr -d '\000' <"$RES/err")
  want_sane
}

# the last run did not crash, hang or trip a sanitizer
want_sane() {
  case $RC in
    0 | 1 | 2) ;;
    124) fail "timed out: $LAST_CMD"; return 1 ;;
    *)
      if [ "$RC" -ge 128 ]; then fail "killed by signal $((RC - 128)) (exit $RC); stderr: $(_show "$ERR")"
      else fail "exit status $RC is not 0, 1 or 2; stderr: $(_show "$ERR")"; fi
      return 1
      ;;
  esac
  case $ERR in
    *AddressSanitizer* | *LeakSanitizer* | *"runtime error"*)
      fail "sanitizer report on stderr: $(_show "$ERR")"; return 1 ;;
  esac
  return 0
}

want_rc() {
  [ "$RC" = "$1" ] || fail "exit status $RC, expected $1; stdout: $(_show "$OUT"); stderr: $(_show "$ERR")"
}

# stdout / stderr contains (or lacks) a fixed string
want_out() {
  case $OUT in *"$1"*) return 0 ;; esac
  fail "stdout lacks $(_show "$1"); stdout: $(_show "$OUT")"
}
want_no_out() {
  case $OUT in *"$1"*) fail "stdout contains $(_show "$1"); stdout: $(_show "$OUT")" ;; esac
  return 0
}
want_err() {
  case $ERR in *"$1"*) return 0 ;; esac
  fail "stderr lacks $(_show "$1"); stderr: $(_show "$ERR")"
}
want_empty_out() {
  [ -z "$OUT" ] || fail "stdout not empty: $(_show "$OUT")"
}
want_empty_err() {
  [ -z "$ERR" ] || fail "stderr not empty: $(_show "$ERR")"
}

# the number of stdout lines matching an extended regex
count_out() {
  local n
  n=$(grep -cE -- "$1" "$RES/out")
  echo "${n:-0}"
}
want_count() { # want_count REGEX N
  local n
  n=$(count_out "$1")
  [ "$n" = "$2" ] || fail "$n stdout line(s) match /$1/, expected $2; stdout: $(_show "$OUT")"
}
# some stdout line matches an extended regex
want_line() {
  grep -qE -- "$1" "$RES/out" || fail "no stdout line matches /$1/; stdout: $(_show "$OUT")"
}

# stdout is exactly this text (trailing newlines ignored)
want_exact() {
  [ "$OUT" = "$1" ] || fail "stdout $(_show "$OUT"), expected $(_show "$1")"
}

# js EXPR: evaluates a JavaScript expression with `a` bound to stdout parsed as
# JSON and `lines` to stdout's lines; prints the result (objects as JSON).
js() {
  node -e '
    const fs = require("fs");
    const text = fs.readFileSync(process.argv[1], "utf8");
    const lines = text.split("\n").filter((l) => l.length > 0);
    let a;
    try { a = JSON.parse(text); } catch (e) { a = undefined; }
    const r = eval(process.argv[2]);
    process.stdout.write(typeof r === "string" ? r : JSON.stringify(r));
  ' "$RES/out" "$1" 2>&1
}
# want_js EXPR EXPECTED: the expression's value (as js prints it) equals EXPECTED
want_js() {
  local got
  got=$(js "$1")
  [ "$got" = "$2" ] || fail "$1 is $(_show "$got"), expected $(_show "$2")"
}
# stdout is one valid JSON document
want_json() {
  node -e 'JSON.parse(require("fs").readFileSync(0, "utf8"))' <"$RES/out" 2>"$RES/json-err" ||
    fail "stdout is not valid JSON ($(head -c 200 "$RES/json-err" | tr '\n' ' ')); stdout: $(_show "$OUT")"
}

# concise output lines of one code, as `path:row:col`
where() {
  grep -E -- ": $1 " "$RES/out" | cut -d: -f1-3
}
want_where() { # want_where CODE "path:row:col[ path:row:col...]"
  local got
  got=$(where "$1" | tr '\n' ' ')
  got=${got% }
  [ "$got" = "$2" ] || fail "$1 reported at $(_show "$got"), expected $(_show "$2")"
}


# A file with one finding: OOM501 at 6:5 (torch.cuda.empty_cache() in the
# batch loop), 24 characters long.
write_bad() {
  cat >"$1" <<'EOF'
import torch

for batch in train_loader:
    x = batch[0]
    y = batch[1]
    torch.cuda.empty_cache()
EOF
}

# A file with no finding.
write_clean() {
  cat >"$1" <<'EOF'
import torch

model = torch.nn.Linear(4, 2)
for batch in train_loader:
    x = batch[0]
    y = batch[1]
torch.cuda.empty_cache()
EOF
}
