# Applying fixes: --fix (atomic write, mode kept, exit status as Ruff),
# --unsafe-fixes, --diff, --show-fixes, stdin, CRLF, `[*]` marks and the
# summary's hints, and a fix that would break the syntax.
# Usage: bash test_fix.sh PATH_TO_OOMLINT
. "$(dirname "$0")/lib.sh" "$@"

# OOM303 (safe fix) at 2:5
write_safe() {
  printf 'import torch\nx = torch.load(p)\n' >"$1"
}
SAFE_FIXED='import torch
x = torch.load(p, map_location="cpu")'

# OOM303 (safe) at 9:9 plus OOM501 (unsafe) at 7:5 and OOM502 (unsafe) at 8:5
write_multi() {
  cat >"$1" <<'EOF'
import gc
import torch

for batch in train_loader:
    loss = model(batch)
    loss.backward()
    torch.cuda.empty_cache()
    gc.collect()
state = torch.load(p)
EOF
}

no_temp_files() { # no .oomlint-* left in a folder
  local left
  left=$(find "${1:-.}" -maxdepth 1 -name '.oomlint-*' | head -1)
  [ -z "$left" ] || fail "temporary file left behind: $left"
}

# --- --fix writes -------------------------------------------------------------

begin "--fix writes the fixed file"
write_safe a.py
oom --fix a.py
want_rc 0 && [ "$(cat a.py)" = "$SAFE_FIXED" ] || fail "a.py is $(_show "$(cat a.py)")"
end

begin "--fix keeps the file's mode"
write_safe mode.py
chmod 640 mode.py
oom --fix mode.py
want_rc 0
m=$(stat -c %a mode.py)
[ "$m" = 640 ] || fail "mode $m, expected 640"
grep -q map_location mode.py || fail "mode.py was not fixed"
end

begin "--fix leaves no temporary file"
write_safe tmpcheck.py
oom --fix tmpcheck.py
want_rc 0 && no_temp_files .
end

begin "--fix: summary says how many were fixed and remain"
write_safe s.py
oom --fix s.py
want_rc 0 && want_out "Found 1 problem (1 fixed, 0 remaining)."
end

begin "--fix: exit 0 when everything reported was fixed"
write_multi all.py
oom --fix --unsafe-fixes all.py
want_rc 0 && want_out "Found 3 problems (3 fixed, 0 remaining)." && want_no_out "all.py:"
grep -q empty_cache all.py && fail "OOM501's call is still there"
end

begin "--fix: exit 1 when something remains, and the rest is listed"
write_multi some.py
oom --fix --output-format concise some.py
want_rc 1 && want_out "Found 3 problems (1 fixed, 2 remaining)." && want_line '^some\.py:7:5: OOM501 ' &&
  want_line '^some\.py:8:5: OOM502 '
grep -q 'map_location="cpu"' some.py || fail "the safe fix was not written"
end

begin "--fix twice: the second run changes nothing"
write_multi twice.py
oom --fix --unsafe-fixes twice.py
cp twice.py twice.first
oom --fix --unsafe-fixes twice.py
want_rc 0 && cmp -s twice.py twice.first || fail "the second --fix changed the file"
want_out "All checks passed"
end

begin "--fix on a clean file leaves it untouched"
write_clean clean.py
cp clean.py clean.orig
touch -d '2001-01-01' clean.py
oom --fix clean.py
want_rc 0 && cmp -s clean.py clean.orig || fail "clean.py changed"
[ "$(stat -c %Y clean.py)" = "$(date -d 2001-01-01 +%s)" ] || fail "clean.py was rewritten"
end

begin "--fix through a symbolic link: the link stays a link"
mkdir -p real
write_safe real/target.py
ln -s real/target.py link.py
oom --fix link.py
want_rc 0
[ -L link.py ] || fail "link.py is no longer a symbolic link"
grep -q map_location real/target.py || fail "the target was not fixed"
end

begin "--no-fix after --fix: nothing written"
write_safe nofix.py
oom --fix --no-fix nofix.py
want_rc 1 && grep -q map_location nofix.py && fail "nofix.py was written"
end

# --- unsafe fixes ----------------------------------------------------------------

begin "an unsafe fix is applied only with --unsafe-fixes"
write_bad unsafe.py
oom --fix unsafe.py
want_rc 1
grep -q empty_cache unsafe.py || fail "applied without --unsafe-fixes"
want_out "1 hidden fix can be enabled with the \`--unsafe-fixes\` option"
oom --fix --unsafe-fixes unsafe.py
want_rc 0
grep -q empty_cache unsafe.py && fail "not applied with --unsafe-fixes"
end

begin "[*] marks safe fixes; unsafe ones only with --unsafe-fixes"
write_multi marks.py
oom --output-format concise marks.py
want_rc 1 && want_line '^marks\.py:9:9: OOM303 \[\*\] ' && want_line '^marks\.py:7:5: OOM501 `' &&
  want_line '^marks\.py:8:5: OOM502 `'
oom --output-format concise --unsafe-fixes marks.py
want_line '^marks\.py:7:5: OOM501 \[\*\] ' && want_line '^marks\.py:8:5: OOM502 \[\*\] '
end

begin "[*] in full output too"
write_safe full.py
oom full.py
want_rc 1 && want_line '^full\.py:2:5: OOM303 \[\*\] '
end

begin "summary: fixable count and hidden unsafe fixes"
write_multi hint.py
oom hint.py
want_out "[*] 1 fixable with the \`--fix\` option (2 hidden fixes can be enabled with the \`--unsafe-fixes\` option)."
oom --unsafe-fixes hint.py
want_out "[*] 3 fixable with the \`--fix\` option." && want_no_out "hidden"
write_bad hidden.py
oom hidden.py
want_out "No fixes available (1 hidden fix can be enabled with the \`--unsafe-fixes\` option)."
end

begin "--unsafe-fixes without --fix writes nothing"
write_bad nowrite.py
cp nowrite.py nowrite.orig
oom --unsafe-fixes nowrite.py
want_rc 1 && cmp -s nowrite.py nowrite.orig || fail "the file changed"
end

# --- --diff ------------------------------------------------------------------

begin "--diff prints a unified diff, leaves the file, exits 1"
write_safe d.py
cp d.py d.orig
oom --diff d.py
want_rc 1 && want_line '^--- a/d\.py$' && want_line '^\+\+\+ b/d\.py$' && want_line '^@@ -1,2 \+1,2 @@$' &&
  want_line '^-x = torch\.load\(p\)$' && want_line '^\+x = torch\.load\(p, map_location="cpu"\)$' &&
  want_line '^ import torch$'
cmp -s d.py d.orig || fail "--diff changed the file"
want_no_out "OOM303" && want_err "Would fix 1 problem."
end

begin "--diff output applies with patch(1)"
if command -v patch >/dev/null; then
  write_multi p.py
  oom --diff --unsafe-fixes p.py
  cp "$RES/out" p.diff
  cp p.py p.expected
  oom --fix --unsafe-fixes p.expected
  patch -s p.py <p.diff >/dev/null 2>&1 || fail "patch refused the diff: $(cat p.diff)"
  cmp -s p.py p.expected || fail "patched file differs from --fix's"
else
  WHY=""
fi
end

begin "--diff with nothing to fix: exit 0, no diff"
write_clean dclean.py
oom --diff dclean.py
want_rc 0 && want_empty_out
end

begin "--diff with only unsafe fixes and no --unsafe-fixes: exit 0"
write_bad dunsafe.py
oom --diff dunsafe.py
want_rc 0 && want_empty_out
end

begin "--diff takes precedence over --fix"
write_safe both.py
cp both.py both.orig
oom --fix --diff both.py
want_rc 1 && want_line '^--- a/both\.py$'
cmp -s both.py both.orig || fail "--fix --diff wrote the file"
end

# --- --show-fixes ------------------------------------------------------------

begin "--show-fixes lists what was fixed per file and rule"
write_multi show.py
oom --fix --unsafe-fixes --show-fixes show.py
want_rc 0 && want_out "Fixed 3 problems:" && want_line '^- show\.py:$' &&
  want_line '^    1 x OOM303 \(load-without-map-location\)$' && want_line '^    1 x OOM501 \(empty-cache-in-loop\)$'
end

# --- stdin -------------------------------------------------------------------

begin "--fix on stdin prints only the fixed source"
write_safe in.py
oom --stdin in.py --fix -
want_rc 0 && want_exact "$SAFE_FIXED"
end

begin "--fix on stdin with remaining findings: the source, exit 1"
write_bad in_bad.py
oom --stdin in_bad.py --fix --stdin-filename train.py
want_rc 1 && want_no_out "OOM501" && [ "$OUT" = "$(cat in_bad.py)" ] || fail "stdout $(_show "$OUT")"
end

begin "--diff on stdin names the stdin file name"
write_safe in2.py
oom --stdin in2.py --diff --stdin-filename pkg/train.py
want_rc 1 && want_line '^--- a/pkg/train\.py$'
end

# --- line endings, BOM --------------------------------------------------------

begin "CRLF stays CRLF"
printf 'import torch\r\nimport gc\r\nfor batch in train_loader:\r\n    loss = model(batch)\r\n    loss.backward()\r\n    if loss.item() > 1:\r\n        gc.collect()\r\nx = torch.load(p)\r\n' >crlf.py
oom --fix --unsafe-fixes crlf.py
want_rc 0
want_bytes=$(printf 'import torch\r\nimport gc\r\nfor batch in train_loader:\r\n    loss = model(batch)\r\n    loss.backward()\r\n    if loss.item() > 1:\r\n        pass\r\nx = torch.load(p, map_location="cpu")\r\n' | od -c)
[ "$(od -c <crlf.py)" = "$want_bytes" ] || fail "crlf.py: $(od -c <crlf.py | head -20)"
end

begin "lone CR line endings stay CR, and the result parses"
printf 'import torch\rimport gc\rfor batch in train_loader:\r    loss = model(batch)\r    loss.backward()\r    if loss.item() > 1:\r        gc.collect()\r    torch.cuda.empty_cache()\rx = torch.load(p)\r' >cr.py
oom --fix --unsafe-fixes cr.py
want_rc 0
want_bytes=$(printf 'import torch\rimport gc\rfor batch in train_loader:\r    loss = model(batch)\r    loss.backward()\r    if loss.item() > 1:\r        pass\rx = torch.load(p, map_location="cpu")\r' | od -c)
[ "$(od -c <cr.py)" = "$want_bytes" ] || fail "cr.py: $(od -c <cr.py | head -20)"
oom --output-format concise cr.py
want_rc 0 && want_no_out "OOM000"
end

begin "a UTF-8 BOM and the encoding declaration stay"
printf '\xef\xbb\xbf# -*- coding: utf-8 -*-\nimport torch\nx = torch.load(p)\n' >bom.py
oom --fix bom.py
want_rc 0
[ "$(head -c 27 bom.py | od -c)" = "$(printf '\xef\xbb\xbf# -*- coding: utf-8 -*-\n' | od -c)" ] ||
  fail "the first line changed: $(head -1 bom.py | od -c)"
grep -q map_location bom.py || fail "bom.py was not fixed"
end

# --- suppressed diagnostics are never fixed ---------------------------------------

# A project folder whose configuration turns OOM303 off for ign.py and
# OOM501 off for multi.py; other.py is fixed as usual.
suppressed_project() {
  rm -rf pfi && mkdir pfi
  printf '[per-file-ignores]\n"ign.py" = ["OOM303"]\n"multi.py" = ["OOM501"]\n' >pfi/oomlint.toml
  write_safe pfi/ign.py
  write_safe pfi/other.py
  write_multi pfi/multi.py
}

begin "--fix leaves a diagnostic per-file-ignores turns off"
suppressed_project
oom --fix pfi/ign.py pfi/other.py
want_rc 0 && want_out "Found 1 problem (1 fixed, 0 remaining)."
[ "$(cat pfi/ign.py)" = "$(printf 'import torch\nx = torch.load(p)')" ] || fail "ign.py was fixed: $(_show "$(cat pfi/ign.py)")"
[ "$(cat pfi/other.py)" = "$SAFE_FIXED" ] || fail "other.py is $(_show "$(cat pfi/other.py)")"
end

begin "--diff shows no fix for a diagnostic per-file-ignores turns off"
suppressed_project
oom --diff --unsafe-fixes pfi/ign.py
want_rc 0 && want_empty_out && want_err "No problems would be fixed."
end

begin "--fix --unsafe-fixes: per-file-ignores keeps one code, the others are fixed"
suppressed_project
oom --fix --unsafe-fixes --output-format concise pfi/multi.py
want_rc 0 && want_out "Found 2 problems (2 fixed, 0 remaining)."
grep -q 'torch.cuda.empty_cache()' pfi/multi.py || fail "OOM501's call was removed"
grep -q 'gc.collect()' pfi/multi.py && fail "OOM502's call is still there"
grep -q 'map_location="cpu"' pfi/multi.py || fail "OOM303 was not fixed"
end

begin "--fix leaves a diagnostic silenced by # noqa"
printf 'import torch\nx = torch.load(p)  # noqa: OOM303\n' >noqa_fix.py
cp noqa_fix.py noqa_fix.orig
oom --fix noqa_fix.py
want_rc 0 && cmp -s noqa_fix.py noqa_fix.orig || fail "noqa_fix.py changed: $(_show "$(cat noqa_fix.py)")"
end

begin "--fix leaves a code turned off with --ignore"
write_safe ignored_fix.py
cp ignored_fix.py ignored_fix.orig
oom --fix --ignore OOM303 ignored_fix.py
want_rc 0 && cmp -s ignored_fix.py ignored_fix.orig || fail "ignored_fix.py changed"
end

# --- failures ----------------------------------------------------------------

# Root writes anywhere: as root, run oomlint as nobody (setpriv) in a folder
# nobody owns, when that works, else skip.
as_user=""
if [ "$(id -u)" != 0 ]; then
  as_user=self
elif command -v setpriv >/dev/null 2>&1 &&
  setpriv --reuid=65534 --regid=65534 --clear-groups "$OOMLINT" --version >/dev/null 2>&1; then
  as_user=nobody
  chmod 755 "$SCRATCH"
fi

if [ -z "$as_user" ]; then
  skip "a read-only folder: file intact, exit 2" "running as root and cannot drop privileges"
else
  begin "a read-only folder: file intact, exit 2"
  mkdir ro
  write_safe ro/f.py
  cp ro/f.py ro.orig
  chmod 644 ro/f.py
  if [ "$as_user" = nobody ]; then chown -R 65534:65534 ro; fi
  chmod 555 ro
  if [ "$as_user" = nobody ]; then oom --as-nobody --fix ro/f.py; else oom --fix ro/f.py; fi
  chmod 755 ro
  want_rc 2 && want_err "ro/f.py: the fixes were not written" && want_out "ro/f.py:2:5: OOM303"
  cmp -s ro/f.py ro.orig || fail "ro/f.py changed"
  no_temp_files ro
  end
fi

begin "a fix that would leave a syntax error is dropped and reported"
mkdir -p myrules
cat >myrules/OOM990-breaks.scm <<'EOF'
; code: OOM990
; name: breaks
; severity: warning
; message: test rule whose fix breaks the file
; fix: safe: Break it
; edit: replace @report zap(
; doc:
;   ## What it does
;   A rule of the fix tests.
(call function: (identifier) @fn (#eq? @fn "breakme")) @report
EOF
printf 'import torch\nbreakme()\nx = torch.load(p)\n' >broken.py
oom --rules-dir myrules --fix broken.py
want_rc 1 && want_err "oomlint: broken.py:2:1: fix for OOM990 dropped: it would leave a syntax error" &&
  want_out "Found 2 problems (1 fixed, 1 remaining)."
[ "$(cat broken.py)" = "$(printf 'import torch\nbreakme()\nx = torch.load(p, map_location="cpu")')" ] ||
  fail "broken.py is $(_show "$(cat broken.py)")"
end

finish
