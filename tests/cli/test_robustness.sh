# Bad and extreme input never crashes or hangs: every run must exit 0, 1 or 2
# (never a signal) with no sanitizer report, and what parses is still linted.
# Usage: bash test_robustness.sh PATH_TO_OOMLINT
. "$(dirname "$0")/lib.sh" "$@"

LOOP_TAIL='for batch in train_loader:
    x = batch[0]
    y = batch[1]
    torch.cuda.empty_cache()
'

# OOM000 lines in concise output
want_oom000() { want_count ': OOM000 ' "$1"; }

# --- encodings ---------------------------------------------------------------

{ printf 'import torch\nx = "\xff\xfe"\n'; printf '%s' "$LOOP_TAIL"; } >invalid_utf8.py

begin "invalid UTF-8: exactly one OOM000"
oom --output-format concise invalid_utf8.py
want_rc 1 && want_oom000 1
end

begin "invalid UTF-8: the OOM000 names invalid UTF-8"
oom --output-format concise invalid_utf8.py
want_line ': OOM000 .*UTF-8'
end

begin "invalid UTF-8: OOM000 at the bad byte"
oom --output-format concise invalid_utf8.py
want_where OOM000 "invalid_utf8.py:2:6"
end

begin "invalid UTF-8: the rest of the file is still linted"
oom --output-format concise invalid_utf8.py
want_where OOM501 "invalid_utf8.py:6:5"
end

begin "invalid UTF-8: json output is still valid JSON"
oom --output-format json invalid_utf8.py
want_json && want_js 'a.map((d) => d.code).join(",")' "OOM000,OOM501"
end

begin "invalid UTF-8: json-lines output is valid JSON per line"
oom --output-format json-lines invalid_utf8.py
want_js 'lines.every((l) => { JSON.parse(l); return true; }) && lines.length' 2
end

begin "invalid UTF-8: full output does not crash"
oom invalid_utf8.py
want_rc 1 && want_out "OOM000"
end

{ printf 'import torch\na = "\xff"\nb = "\xc0\xaf"\nc = "\xed\xa0\x80"\nd = "\xf4\x90\x80\x80"\ne = "\xe6\x97"\n'; printf '%s' "$LOOP_TAIL"; } >many_invalid.py

begin "several invalid sequences (overlong, surrogate, > U+10FFFF, truncated): one OOM000"
oom --output-format concise many_invalid.py
want_rc 1 && want_oom000 1 && want_where OOM501 "many_invalid.py:10:5"
end

printf 'import torch\nx = "\xe6\x97' >truncated_utf8.py

begin "file ending inside a UTF-8 sequence"
oom --output-format concise truncated_utf8.py
want_rc 1 && want_oom000 1
end

printf 'import torch\nx = "\xff"\nfor batch in train_loader:\n    torch.cuda.empty_cache()\n' >invalid_github.py

begin "invalid UTF-8: github output does not crash"
oom --output-format github invalid_github.py
want_rc 1 && want_line '^::error title=oomlint \(OOM000\)'
end

{ printf 'import torch\nx = 1\0\n'; printf '%s' "$LOOP_TAIL"; } >nul.py

begin "NUL byte: exactly one OOM000"
oom --output-format concise nul.py
want_rc 1 && want_oom000 1
end

begin "NUL byte: the OOM000 names the NUL byte"
oom --output-format concise nul.py
want_line ': OOM000 .*NUL'
end

begin "NUL byte: the rest of the file is still linted"
oom --output-format concise nul.py
want_where OOM501 "nul.py:6:5"
end

begin "NUL byte: json output valid"
oom --output-format json nul.py
want_json
end

{ printf 'import torch\n\0\0\0x = 1\0\n# \0\n'; printf '%s' "$LOOP_TAIL"; } >many_nul.py

begin "many NUL bytes: one OOM000"
oom --output-format concise many_nul.py
want_rc 1 && want_oom000 1
end

begin "binary garbage (the oomlint executable itself)"
head -c 300000 "$OOMLINT" >garbage.py
oom --output-format concise garbage.py
want_oom000 1
end

begin "binary garbage: json valid"
oom --output-format json garbage.py
want_json
end

# --- syntax errors ---------------------------------------------------------

cat >syntax.py <<'EOF'
import torch

def broken(:
    pass

for batch in train_loader:
    x = batch[0]
    y = batch[1]
    torch.cuda.empty_cache()
EOF

begin "syntax error: exactly one OOM000"
oom --output-format concise syntax.py
want_rc 1 && want_oom000 1
end

begin "syntax error: OOM000 on the broken line"
oom --output-format concise syntax.py
want_line '^syntax\.py:3:[0-9]+: OOM000 '
end

begin "syntax error: findings after the error still reported"
oom --output-format concise syntax.py
want_where OOM501 "syntax.py:9:5"
end

cat >syntax_many.py <<'EOF'
import torch
def f(:
    pass
x = = 1
class :
    pass
state = torch.load(path)
for batch in train_loader:
    x = batch[0]
    y = batch[1]
    torch.cuda.empty_cache()
EOF

begin "several syntax errors: still exactly one OOM000"
oom --output-format concise syntax_many.py
want_rc 1 && want_oom000 1
end

begin "several syntax errors: the loop after them still linted"
oom --output-format concise syntax_many.py
want_where OOM303 "syntax_many.py:7:9" && want_where OOM501 "syntax_many.py:11:5"
end

printf 'import torch\nx = """never closed\n\nfor batch in train_loader:\n    torch.cuda.empty_cache()\n' >unterminated.py

begin "unterminated triple-quoted string: one OOM000"
oom --output-format concise unterminated.py
want_rc 1 && want_oom000 1
end

printf 'import torch\nx = (1,\n' >eof_in_parens.py

begin "file ends inside parentheses: one OOM000"
oom --output-format concise eof_in_parens.py
want_rc 1 && want_oom000 1
end

printf 'x = 1 \\' >eof_backslash.py

begin "file ends with a line continuation"
oom --output-format concise eof_backslash.py
want_oom000 1
end

printf ')))]]]}}}\n' >closers.py

begin "only closing brackets: one OOM000"
oom --output-format concise closers.py
want_rc 1 && want_oom000 1
end

# --- sizes and depths ------------------------------------------------------

# 10 MB single line: a string literal, then a finding on the same line
{
  printf 'import torch\nx = "'
  head -c 10000000 /dev/zero | tr '\0' 'a'
  printf '"; state = torch.load(path)\n'
} >long_line.py

begin "10 MB single line: finding after it at the right column"
oom --timeout 120 --output-format concise long_line.py
want_rc 1 && want_where OOM303 "long_line.py:2:10000017"
end

{
  printf 'import torch\n# '
  head -c 10000000 /dev/zero | tr '\0' '#'
  printf '\nstate = torch.load(path)\n'
} >long_comment.py

begin "10 MB comment line: next line still linted"
oom --timeout 120 --output-format concise long_comment.py
want_rc 1 && want_where OOM303 "long_comment.py:3:9"
end

begin "10 MB single line: full output does not crash"
oom --timeout 120 long_line.py
want_rc 1 && want_out "OOM303"
end

deep_parens() { # deep_parens N INNER
  local n=$1 open close
  open=$(head -c "$n" /dev/zero | tr '\0' '(')
  close=$(head -c "$n" /dev/zero | tr '\0' ')')
  printf 'import torch\nx = %s%s%s\n' "$open" "$2" "$close"
}
# Nesting this deep cannot be compiled by CPython either: oomlint may lint the
# file or report one OOM000 about the depth, but must not crash or hang.
want_deep_ok() {
  want_sane && [ "$(count_out ': OOM000 ')" -le 1 ] || fail "$(count_out ': OOM000 ') OOM000 diagnostics"
}

deep_parens 20000 1 >deep_parens.py
deep_parens 20000 'torch.load(path)' >deep_parens_finding.py
deep_parens 1000 'torch.load(path)' >parens_1000.py

begin "20,000-deep nested parentheses: no crash, at most one OOM000"
oom --output-format concise deep_parens.py
want_deep_ok
end

begin "20,000-deep nested parentheses around a finding: no crash"
oom --output-format concise deep_parens_finding.py
want_deep_ok
end

begin "20,000-deep nested parentheses: json still valid"
oom --output-format json deep_parens_finding.py
want_json
end

begin "1,000-deep nested parentheses: finding inside at the right column"
oom --output-format concise parens_1000.py
want_rc 1 && want_count ': OOM000 ' 0 && want_where OOM303 "parens_1000.py:2:1005"
end

{
  printf 'import torch\nx = '
  head -c 20000 /dev/zero | sed 's/\x0/f(/g'
  printf '1'
  head -c 20000 /dev/zero | tr '\0' ')'
  printf '\n'
} >deep_calls.py

begin "20,000-deep nested calls: no crash, at most one OOM000"
oom --output-format concise deep_calls.py
want_deep_ok
end

{
  printf 'import torch\nx = '
  head -c 20000 /dev/zero | tr '\0' '['
  head -c 20000 /dev/zero | tr '\0' ']'
  printf '\n'
} >deep_lists.py

begin "20,000-deep nested lists: no crash, at most one OOM000"
oom --output-format concise deep_lists.py
want_deep_ok
end

{
  printf 'import torch\nx = 1'
  head -c 200000 /dev/zero | sed 's/\x0/ + 1/g'
  printf '\nstate = torch.load(path)\n'
} >long_sum.py

begin "200,000-term sum (a very deep binary tree): no crash, at most one OOM000"
oom --timeout 120 --output-format concise long_sum.py
want_deep_ok
end

{
  printf 'import torch\nx = torch'
  head -c 50000 /dev/zero | sed 's/\x0/.a/g'
  printf '\n'
} >long_chain.py

begin "50,000-long attribute chain: no crash, at most one OOM000"
oom --output-format concise long_chain.py
want_deep_ok
end

nested_ifs() { # nested_ifs N: N nested `if` blocks, a finding after them
  local i
  printf 'import torch\n'
  for ((i = 0; i < $1; i++)); do printf '%*sif x:\n' "$i" ''; done
  printf '%*spass\n' "$1" ''
  printf 'state = torch.load(path)\n'
}
nested_ifs 5000 >nested_ifs.py

begin "5,000 nested if blocks: no crash"
oom --output-format concise nested_ifs.py
want_sane
end

begin "5,000 nested if blocks: at most one OOM000"
oom --output-format concise nested_ifs.py
n=$(count_out ': OOM000 ')
[ "$n" -le 1 ] || fail "$n OOM000 diagnostics"
end

begin "5,000 nested if blocks: the finding after them still reported"
oom --output-format concise nested_ifs.py
want_where OOM303 "nested_ifs.py:5003:9"
end

nested_ifs 90 >nested_ifs_90.py

begin "90 nested if blocks (valid Python): no OOM000, finding reported"
oom --output-format concise nested_ifs_90.py
want_rc 1 && want_oom000 0 && want_where OOM303 "nested_ifs_90.py:93:9"
end

{
  printf 'import torch\n'
  for ((i = 0; i < 2000; i++)); do printf '%*sdef f%d():\n' "$i" '' "$i"; done
  printf '%*spass\n' 2000 ''
} >nested_defs.py

begin "2,000 nested function definitions: no crash"
oom --output-format concise nested_defs.py
want_sane
end

# 100,000 lines: 12,500 functions, each with one OOM501
{
  printf 'import torch\n\n'
  for ((i = 1; i <= 12500; i++)); do
    printf 'def step%d(loader):\n    for batch in loader:\n        x = batch[0]\n        y = x + 1\n        print(y)\n        torch.cuda.empty_cache()\n    return y\n\n' "$i"
  done
} >lines_100k.py

begin "100,000-line file: every finding reported"
oom --timeout 200 --statistics lines_100k.py
want_rc 1 && want_line '^ *12500[[:space:]]+OOM501[[:space:]]'
end

begin "100,000-line file: first and last finding positions"
oom --timeout 200 --output-format concise lines_100k.py
first=$(where OOM501 | head -n 1)
last=$(where OOM501 | tail -n 1)
[ "$first $last" = "lines_100k.py:8:9 lines_100k.py:100000:9" ] || fail "first/last OOM501 at $first / $last"
end

seq 1 100000 | sed 's/^/x = /' >assign_100k.py

begin "100,000 short lines: clean"
oom --timeout 200 assign_100k.py
want_rc 0 && want_out "All checks passed"
end

# --- degenerate files --------------------------------------------------------

: >empty.py
begin "empty file: exit 0"
oom empty.py
want_rc 0 && want_out "All checks passed (1 file)."
end

begin "empty file: json is an empty array"
oom --output-format json empty.py
want_rc 0 && want_js 'JSON.stringify(a)' '[]'
end

printf '\xef\xbb\xbf' >bom_only.py
begin "file of only a BOM: exit 0"
oom bom_only.py
want_rc 0 && want_out "All checks passed"
end

{ printf '\xef\xbb\xbfimport torch\n'; printf '%s' "$LOOP_TAIL"; } >bom_code.py
begin "BOM then code: linted, no OOM000, positions from line 2 on unaffected"
oom --output-format concise bom_code.py
want_rc 1 && want_oom000 0 && want_where OOM501 "bom_code.py:5:5"
end

printf '\n\n\n' >newlines_only.py
begin "file of only newlines: exit 0"
oom newlines_only.py
want_rc 0
end

printf '# just a comment' >comment_no_newline.py
begin "single comment without a newline: exit 0"
oom comment_no_newline.py
want_rc 0
end

printf 'import torch\nstate = torch.load(path)' >no_trailing_newline.py
begin "no trailing newline: finding still reported"
oom --output-format concise no_trailing_newline.py
want_rc 1 && want_where OOM303 "no_trailing_newline.py:2:9"
end

# --- line endings and whitespace ------------------------------------------

printf 'import torch\r\n\r\nfor batch in train_loader:\r\n    x = batch[0]\r\n    y = batch[1]\r\n    torch.cuda.empty_cache()\r\nstate = torch.load(path)\r\n' >crlf.py

begin "CRLF line endings: no OOM000"
oom --output-format concise crlf.py
want_rc 1 && want_oom000 0
end

begin "CRLF line endings: path:row:col still right"
oom --output-format concise crlf.py
want_where OOM501 "crlf.py:6:5" && want_where OOM303 "crlf.py:7:9"
end

begin "CRLF line endings: json end_location still right"
oom --output-format json crlf.py
want_js 'a.filter((d) => d.code === "OOM501").map((d) => [d.location.row, d.location.column, d.end_location.row, d.end_location.column].join(":")).join()' "6:5:6:29"
end

begin "CRLF line endings: full output has no carriage return"
oom crlf.py
case $OUT in *$'\r'*) fail "a carriage return in the output" ;; esac
want_out "6 |     torch.cuda.empty_cache()"
end

# A lone carriage return ends a line too (old Mac files, or a stray one), as
# it does for CPython: the same findings as the file with "\n", at the same
# rows and columns. The twin has several findings on lines of their own,
# a multi-line statement and a string, so that a row off by one shows.
lf_twin() {
  printf 'import torch\n\ntotal = 0\nfor x in loader:\n    loss = model(x).sum()\n    loss.backward()\n    total += loss\n    torch.cuda.empty_cache()\nstate = torch.load(\n    path)\nname = "a b"; other = torch.load(p)\n'
}
lf_twin >lf.py
lf_twin | tr '\n' '\r' >cr.py
# one stray "\r" in an otherwise "\n" file
lf_twin | awk 'NR == 3 { printf "%s\r", $0; next } { print }' >mixed.py
concise_of() { sed "s/^$1://" "$RES/out"; }

begin "lone CR line endings: no OOM000"
oom --output-format concise cr.py
want_rc 1 && want_oom000 0
end

begin "lone CR line endings: the findings of the LF twin, row and column"
oom --output-format concise lf.py
want_lf=$(concise_of lf.py)
oom --output-format concise cr.py
got_cr=$(concise_of cr.py)
[ -n "$want_lf" ] && [ "$got_cr" = "$want_lf" ] || fail "cr.py: $(_show "$got_cr"), lf.py: $(_show "$want_lf")"
want_where OOM101 "cr.py:7:5" && want_where OOM501 "cr.py:8:5"
end

begin "one stray CR in an LF file: the findings of the LF twin"
oom --output-format concise mixed.py
got_mixed=$(concise_of mixed.py)
[ -n "$want_lf" ] && [ "$got_mixed" = "$want_lf" ] || fail "mixed.py: $(_show "$got_mixed"), lf.py: $(_show "$want_lf")"
want_oom000 0
end

begin "lone CR line endings: json locations and end_locations"
oom --output-format json lf.py
want_json_lf=$(js 'a.map((d) => [d.code, d.location.row, d.location.column, d.end_location.row, d.end_location.column, d.noqa_row].join(":")).join()')
oom --output-format json cr.py
want_js 'a.map((d) => [d.code, d.location.row, d.location.column, d.end_location.row, d.end_location.column, d.noqa_row].join(":")).join()' "$want_json_lf"
end

begin "lone CR line endings: full output shows the one line, no carriage return"
oom cr.py
case $OUT in *$'\r'*) fail "a carriage return in the output" ;; esac
want_out "8 |     torch.cuda.empty_cache()" && want_out "7 |     total += loss"
want_no_out "import torch??"
end

begin "lone CR line endings: github annotations name the LF twin's lines"
oom --output-format github lf.py
want_gh=$(sed 's/lf\.py/F/g' "$RES/out")
oom --output-format github cr.py
got_gh=$(sed 's/cr\.py/F/g' "$RES/out")
[ "$got_gh" = "$want_gh" ] || fail "cr.py: $(_show "$got_gh"), lf.py: $(_show "$want_gh")"
end

printf 'import torch\n\nfor batch in train_loader:\n\tx = batch[0]\n\ty = batch[1]\n\ttorch.cuda.empty_cache()\n' >tabs.py

begin "tab indentation: no OOM000, finding at column 2"
oom --output-format concise tabs.py
want_rc 1 && want_oom000 0 && want_where OOM501 "tabs.py:6:2"
end

begin "tab indentation: full output keeps the tab under the caret"
oom tabs.py
want_out $'6 | \ttorch.cuda.empty_cache()' && want_out $'  | \t^^^^^^^^^^^^^^^^^^^^^^^^'
end

printf 'import torch\nx = 1;\t\tstate = torch.load(path)\n' >tabs_inline.py
begin "tabs before a finding count as one column each"
oom --output-format concise tabs_inline.py
want_where OOM303 "tabs_inline.py:2:17"
end

printf 'import torch\n\x0c\nstate = torch.load(path)\n' >formfeed.py
begin "form feed line: finding still reported"
oom --output-format concise formfeed.py
want_rc 1 && want_where OOM303 "formfeed.py:3:9"
end

{
  printf 'import torch\n'
  for ((i = 0; i < 5000; i++)); do printf 'state%d = torch.load(path)\n' "$i"; done
} >many_findings.py

begin "5,000 findings in one file: json valid, all there"
oom --output-format json many_findings.py
want_json && want_js 'a.length' 5000
end

# One list, call or tuple of more than 65,536 children (engine/run.c gives
# their children to the query one by one): the same findings as a short
# version, where the wide node is an ordinary one. Each shape is written with
# N items, every EVERY-th a finding; lines stay the same, columns do not.
wide_shape() { # wide_shape SHAPE N EVERY
  awk -v shape="$1" -v n="$2" -v every="$3" 'BEGIN {
    print "import torch"
    print "for batch in loader:"
    print "    loss = model(batch)"
    pre = shape == "list" ? "    history = [" : shape == "call" ? "    log(" : "    "
    post = shape == "list" ? "]" : shape == "call" ? ")" : ""
    printf "%s", pre
    for (i = 0; i < n; i++) printf "%s%s", (i ? ", " : ""), (i % every == every - 1 ? "torch.load(p)" : "loss")
    print post
    print "    torch.cuda.empty_cache()"
    print "x = torch.load(q)"
  }' </dev/null
}
for shape in list call tuple; do
  wide_shape "$shape" 8 2 >"short_$shape.py"
  wide_shape "$shape" 40000 10000 >"wide_$shape.py"
  begin "a $shape of 40,000 items on one line: the findings of a short one"
  oom --output-format concise "short_$shape.py"
  short=$(printf '%s\n' "$OUT" | sed -n 's/^[^:]*:\([0-9]*\):[0-9]*:/\1:/p')
  oom --timeout 120 --output-format concise "wide_$shape.py"
  wide=$(printf '%s\n' "$OUT" | sed -n 's/^[^:]*:\([0-9]*\):[0-9]*:/\1:/p')
  want_rc 1 && want_count ': OOM303 ' 5
  [ "$wide" = "$short" ] || fail "findings differ: $(_show "$wide") against $(_show "$short")"
  end
done

finish
