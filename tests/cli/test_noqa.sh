# Suppression comments: `# noqa: CODE` on a line, blanket `# noqa`, file-wide
# `# oomlint: noqa[: CODES]`, and unused suppressions reported as OOM001.
# Usage: bash test_noqa.sh PATH_TO_OOMLINT
. "$(dirname "$0")/lib.sh" "$@"

# loop_with COMMENT: OOM501 at 6:5 with COMMENT after it on the same line
loop_with() {
  printf 'import torch\n\nfor batch in train_loader:\n    x = batch[0]\n    y = batch[1]\n    torch.cuda.empty_cache()%s\n' "$1"
}

codes_of() { grep -oE ': OOM[0-9]{3} ' "$RES/out" | tr -d ': ' | tr '\n' ' ' | sed 's/ $//'; }
want_codes() {
  local got
  got=$(codes_of)
  [ "$got" = "$1" ] || fail "codes $(_show "$got"), expected $(_show "$1")"
}

loop_with '' >plain.py

begin "without noqa: OOM501 reported (control)"
oom -q --output-format concise plain.py
want_rc 1 && want_codes "OOM501"
end

# --- line suppression -------------------------------------------------------

loop_with '  # noqa: OOM501' >noqa_code.py
begin "# noqa: OOM501 silences that line"
oom noqa_code.py
want_rc 0 && want_out "All checks passed"
end

begin "# noqa: OOM501 used: no OOM001"
oom -q --output-format concise noqa_code.py
want_codes ""
end

loop_with '  # noqa' >noqa_blanket.py
begin "blanket # noqa silences the line"
oom noqa_blanket.py
want_rc 0 && want_out "All checks passed"
end

loop_with '  # noqa' >noqa_blanket_unused_elsewhere.py
printf 'x = 1  # noqa\n' >>noqa_blanket_unused_elsewhere.py
begin "unused blanket # noqa is not reported"
oom -q --output-format concise noqa_blanket_unused_elsewhere.py
want_rc 0 && want_codes ""
end

loop_with '  #noqa:OOM501' >noqa_nospace.py
begin "#noqa:OOM501 without spaces"
oom -q --output-format concise noqa_nospace.py
want_rc 0 && want_codes ""
end

loop_with '  # NOQA: OOM501' >noqa_upper.py
begin "# NOQA: OOM501 (case-insensitive keyword)"
oom -q --output-format concise noqa_upper.py
want_rc 0 && want_codes ""
end

loop_with '  # NoQA' >noqa_mixed.py
begin "# NoQA blanket (case-insensitive keyword)"
oom -q --output-format concise noqa_mixed.py
want_rc 0 && want_codes ""
end

loop_with '  # noqa: OOM303, OOM501' >noqa_list.py
begin "# noqa with a list of codes"
oom -q --output-format concise noqa_list.py
want_codes "OOM001"
want_line '^noqa_list\.py:6:[0-9]+: OOM001 .*OOM303'
end

loop_with '  # noqa: E501, OOM501' >noqa_other_tool.py
begin "# noqa: E501, OOM501: silenced, E501 left alone"
oom -q --output-format concise noqa_other_tool.py
want_rc 0 && want_codes ""
end

loop_with '  # some note  # noqa: OOM501' >noqa_after_comment.py
begin "# noqa after another comment on the line"
oom -q --output-format concise noqa_after_comment.py
want_rc 0 && want_codes ""
end

loop_with '  # noqa: OOM303' >noqa_wrong_code.py
begin "# noqa for another code: the finding stays"
oom -q --output-format concise noqa_wrong_code.py
want_rc 1 && want_where OOM501 "noqa_wrong_code.py:6:5"
end

begin "# noqa for another code: reported as unused (OOM001)"
oom -q --output-format concise noqa_wrong_code.py
want_where OOM001 "noqa_wrong_code.py:6:31"
end

cat >noqa_other_line.py <<'EOF'
import torch

for batch in train_loader:
    x = batch[0]  # noqa: OOM501
    y = batch[1]
    torch.cuda.empty_cache()
EOF
begin "# noqa on another line does not silence"
oom -q --output-format concise noqa_other_line.py
want_rc 1 && want_where OOM501 "noqa_other_line.py:6:5" && want_where OOM001 "noqa_other_line.py:4:19"
end

cat >noqa_in_string.py <<'EOF'
import torch

for batch in train_loader:
    x = batch[0]
    y = batch[1]
    torch.cuda.empty_cache(); note = "# noqa: OOM501"
EOF
begin "noqa text inside a string literal is not a suppression"
oom -q --output-format concise noqa_in_string.py
want_rc 1 && want_where OOM501 "noqa_in_string.py:6:5"
end

cat >noqa_two.py <<'EOF'
import gc
import torch

for batch in train_loader:
    x = batch[0]
    y = batch[1]
    torch.cuda.empty_cache()  # noqa: OOM501
    gc.collect()
    torch.cuda.empty_cache()
EOF
begin "# noqa silences only its own line"
oom -q --output-format concise noqa_two.py
want_rc 1 && want_codes "OOM502 OOM501" && want_where OOM501 "noqa_two.py:9:5"
end

# --- unused suppressions ----------------------------------------------------

printf 'import torch\nx = 1  # noqa: OOM501\n' >unused.py
begin "unused # noqa: OOM501 is reported as OOM001, exit 1"
oom -q --output-format concise unused.py
want_rc 1 && want_codes "OOM001"
end

begin "OOM001 points at the comment and names the code"
oom -q --output-format concise unused.py
want_where OOM001 "unused.py:2:8" && want_line ': OOM001 .*OOM501'
end

begin "OOM001 is info severity with a safe fix"
oom --output-format json unused.py
want_js '[a[0].code, a[0].name, a[0].severity, a[0].fix && a[0].fix.applicability].join()' "OOM001,unused-suppression,info,safe"
end

apply_fix_js='const e = a[0].fix.edits[0]; const line = require("fs").readFileSync(process.env.FILE, "utf8").split("\n")[e.location.row - 1]; e.location.row === e.end_location.row ? line.slice(0, e.location.column - 1) + e.content + line.slice(e.end_location.column - 1) : "multi-line edit"'

begin "OOM001 fix removes the whole unused comment"
oom --output-format json unused.py
FILE=unused.py want_js "$apply_fix_js" "x = 1"
end

printf 'import torch\nstate = torch.load(p)  # noqa: OOM501, OOM303\n' >unused_one_of_two.py
begin "OOM001 when one code of two is unused: names that code"
oom -q --output-format concise unused_one_of_two.py
want_rc 1 && want_codes "OOM001" && want_line ': OOM001 .*OOM501'
end

begin "OOM001 fix keeps the used code"
oom --output-format json unused_one_of_two.py
FILE=unused_one_of_two.py want_js "$apply_fix_js" "state = torch.load(p)  # noqa: OOM303"
end

printf 'x = 1  # noqa: E501\n' >other_tool_only.py
begin "# noqa with only another tool's code: not reported"
oom -q --output-format concise other_tool_only.py
want_rc 0 && want_codes ""
end

begin "--ignore OOM001 hides unused suppressions"
oom -q --output-format concise --ignore OOM001 unused.py
want_rc 0 && want_codes ""
end

# --- file-wide suppression --------------------------------------------------

{ printf '# oomlint: noqa\n'; loop_with ''; printf 'state = torch.load(p)\n'; } >file_noqa.py
begin "# oomlint: noqa silences the whole file"
oom file_noqa.py
want_rc 0 && want_out "All checks passed"
end

{ loop_with ''; printf 'state = torch.load(p)\n# oomlint: noqa\n'; } >file_noqa_bottom.py
begin "# oomlint: noqa at the end of the file"
oom -q --output-format concise file_noqa_bottom.py
want_rc 0 && want_codes ""
end

{ printf '# OOMLINT: NOQA\n'; loop_with ''; } >file_noqa_upper.py
begin "# OOMLINT: NOQA (case-insensitive)"
oom -q --output-format concise file_noqa_upper.py
want_rc 0 && want_codes ""
end

{ printf '# oomlint: noqa: OOM303\n'; loop_with ''; printf 'state = torch.load(p)\n'; } >file_noqa_code.py
begin "# oomlint: noqa: OOM303 silences only that code, in the whole file"
oom -q --output-format concise file_noqa_code.py
want_rc 1 && want_codes "OOM501"
end

{ printf '# oomlint: noqa: OOM502\n'; printf 'import torch\nstate = torch.load(p)\n'; } >file_noqa_unused.py
begin "unused file-wide # oomlint: noqa: OOM502 is reported as OOM001"
oom -q --output-format concise file_noqa_unused.py
want_rc 1 && want_codes "OOM001 OOM303" && want_where OOM001 "file_noqa_unused.py:1:1"
end

{ printf '# oomlint: noqa\n'; printf 'x = 1  # noqa: OOM501\n'; } >file_noqa_blanket.py
begin "file-wide blanket noqa also silences OOM001"
oom -q --output-format concise file_noqa_blanket.py
want_rc 0 && want_codes ""
end

# --- lone carriage returns end lines ----------------------------------------

# the loop of loop_with with "\r" line endings (old Mac files): a noqa applies
# to its own line, not to the file read as one line
cr_loop_with() { loop_with "$1" | tr '\n' '\r'; }

cr_loop_with '  # noqa: OOM501' >cr_noqa.py
begin "CR line endings: # noqa: OOM501 silences its line"
oom -q --output-format concise cr_noqa.py
want_rc 0 && want_codes ""
end

{ printf 'import torch  # noqa: OOM501\r'; loop_with '' | tail -n +2 | tr '\n' '\r'; } >cr_noqa_elsewhere.py
begin "CR line endings: # noqa on another line silences nothing there"
oom -q --output-format concise cr_noqa_elsewhere.py
want_rc 1 && want_codes "OOM001 OOM501" && want_where OOM501 "cr_noqa_elsewhere.py:6:5" &&
  want_where OOM001 "cr_noqa_elsewhere.py:1:15"
end

begin "CR line endings: --fix removes an unused noqa and keeps the \r endings"
oom -q --fix cr_noqa_elsewhere.py
want_rc 1
[ "$(od -c <cr_noqa_elsewhere.py)" = "$(loop_with '' | tr '\n' '\r' | od -c)" ] ||
  fail "cr_noqa_elsewhere.py: $(od -c <cr_noqa_elsewhere.py | head -5)"
end

# --- noqa with other formats -------------------------------------------------

begin "suppressed findings are absent from json"
oom --output-format json noqa_code.py
want_rc 0 && want_js 'JSON.stringify(a)' '[]'
end

begin "suppressed findings are absent from --statistics"
oom --statistics noqa_code.py
want_rc 0 && want_no_out "OOM501"
end

begin "--stdin-filename: noqa works on stdin"
oom --stdin noqa_code.py --output-format concise -q --stdin-filename train.py
want_rc 0 && want_empty_out
end

finish
