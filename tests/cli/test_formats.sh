# Output formats (full, concise, json, json-lines, github), --statistics,
# --color, --quiet, and rule selection (--select, --ignore, --extend-select).
# Usage: bash test_formats.sh PATH_TO_OOMLINT
. "$(dirname "$0")/lib.sh" "$@"

write_bad bad.py
write_clean clean.py
# OOM501 at 7:5, OOM502 at 8:5, OOM303 at 9:9
cat >multi.py <<'EOF'
import gc
import torch

for batch in train_loader:
    x = batch[0]
    y = batch[1]
    torch.cuda.empty_cache()
    gc.collect()
state = torch.load(p)
EOF
# OOM303 at 2:1 .. 2:14
printf 'import torch\ntorch.load(p)\n' >col1.py
# OOM303 after CJK text: code-point column 16 (byte column 22)
printf 'import torch\ns = "日本語"; t = torch.load(p)\n' >cjk.py
# OOM303 after an emoji: code-point column 14 (UTF-16 column 15, byte column 17)
printf 'import torch\ns = "😀"; t = torch.load(p)\n' >emoji.py
printf 'import torch\ndef f(:\n    pass\n' >syntax.py

KEYS="cell,code,end_location,filename,fix,location,message,name,noqa_row,severity,url"

# --- json --------------------------------------------------------------------

begin "json: valid JSON"
oom --output-format json multi.py
want_rc 1 && want_json
end

begin "json: an array with one object per finding"
oom --output-format json multi.py
want_js 'Array.isArray(a) && a.length' 3
end

begin "json: each object has exactly the documented keys"
oom --output-format json multi.py syntax.py
want_js 'a.every((d) => Object.keys(d).sort().join(",") === "'"$KEYS"'")' true
end

begin "json: codes, names and severities"
oom --output-format json multi.py
want_js 'a.map((d) => [d.code, d.name, d.severity].join(" ")).join("; ")' \
  "OOM501 empty-cache-in-loop warning; OOM502 gc-collect-in-loop info; OOM303 load-without-map-location warning"
end

begin "json: cell null, url null or a string, message a non-empty string"
oom --output-format json multi.py
want_js 'a.every((d) => d.cell === null && (d.url === null || typeof d.url === "string") && typeof d.message === "string" && d.message.length > 0)' true
end

begin "json: filename as given on the command line"
oom --output-format json multi.py
want_js '[...new Set(a.map((d) => d.filename))].join()' "multi.py"
end

begin "json: location and end_location are {row, column} integers"
oom --output-format json multi.py
want_js 'a.every((d) => [d.location, d.end_location].every((l) => Object.keys(l).sort().join() === "column,row" && Number.isInteger(l.row) && Number.isInteger(l.column)))' true
end

begin "json: rows and columns 1-based (finding at the start of line 2)"
oom --output-format json col1.py
want_js '[a[0].location.row, a[0].location.column, a[0].end_location.row, a[0].end_location.column].join(":")' "2:1:2:14"
end

begin "json: positions of every finding"
oom --output-format json multi.py
want_js 'a.map((d) => d.location.row + ":" + d.location.column + "-" + d.end_location.row + ":" + d.end_location.column).join(" ")' \
  "7:5-7:29 8:5-8:17 9:9-9:22"
end

begin "json: noqa_row is the row of the finding"
oom --output-format json multi.py
want_js 'a.every((d) => d.noqa_row === d.location.row)' true
end

begin "json: columns counted in code points (CJK before the finding)"
oom --output-format json cjk.py
want_js '[a[0].location.column, a[0].end_location.column].join()' "16,29"
end

begin "json: columns counted in code points (emoji outside the BMP)"
oom --output-format json emoji.py
want_js '[a[0].location.column, a[0].end_location.column].join()' "14,27"
end

begin "json: fix edit of OOM303 adds map_location"
oom --output-format json col1.py
want_js 'a[0].fix.edits.some((e) => e.content.includes("map_location"))' true
end

begin "json: fix object shape (applicability, message, edits with locations)"
oom --output-format json col1.py
want_js 'const f = a[0].fix; Object.keys(f).sort().join() + " " + f.applicability + " " + f.edits.every((e) => Object.keys(e).sort().join() === "content,end_location,location")' \
  "applicability,edits,message safe true"
end

begin "json: OOM303 edit inserted before the closing parenthesis"
oom --output-format json col1.py
want_js 'const e = a[0].fix.edits[0]; [e.location.row, e.location.column, e.end_location.row, e.end_location.column].join(":")' "2:13:2:13"
end

begin "json: OOM303 fix applied gives torch.load(p, map_location=...)"
oom --output-format json col1.py
want_js 'const e = a[0].fix.edits[0]; const line = "torch.load(p)"; line.slice(0, e.location.column - 1) + e.content + line.slice(e.end_location.column - 1)' \
  'torch.load(p, map_location="cpu")'
end

begin "json: fix edit columns in code points after CJK text"
oom --output-format json cjk.py
want_js 'a[0].fix.edits[0].location.column' 28
end

begin "json: unsafe fix for OOM501"
oom --output-format json bad.py
want_js 'a[0].fix.applicability' unsafe
end

begin "json: fix null for a rule without a fix (OOM000)"
oom --output-format json syntax.py
want_js 'a.filter((d) => d.code === "OOM000").map((d) => d.fix).join()' ""
want_js 'a.filter((d) => d.code === "OOM000" && d.fix === null).length' 1
end

begin "json: clean file gives [] and exit 0"
oom --output-format json clean.py
want_rc 0 && want_js 'JSON.stringify(a)' '[]'
end

begin "json: no summary line"
oom --output-format json multi.py
want_no_out "Found " && want_no_out "All checks"
end

begin "json: several files in one array, sorted by file"
cp bad.py zz.py
oom --output-format json zz.py clean.py multi.py bad.py
want_js 'a.map((d) => d.filename + ":" + d.code).join(" ")' "bad.py:OOM501 multi.py:OOM501 multi.py:OOM502 multi.py:OOM303 zz.py:OOM501"
end

begin "json: --color always adds no escape sequences"
oom --output-format json --color always multi.py
want_json && want_no_out $'\e'
end

# --- json-lines ------------------------------------------------------------

begin "json-lines: one valid JSON object per line"
oom --output-format json-lines multi.py
want_rc 1 && want_js 'lines.length === 3 && lines.every((l) => { const o = JSON.parse(l); return o !== null && typeof o === "object" && !Array.isArray(o); })' true
end

begin "json-lines: same objects as json"
oom --output-format json multi.py bad.py
cp "$RES/out" json.out
oom --output-format json-lines multi.py bad.py
want_js 'JSON.stringify(lines.map((l) => JSON.parse(l))) === JSON.stringify(JSON.parse(require("fs").readFileSync("json.out", "utf8")))' true
end

begin "json-lines: clean file prints nothing"
oom --output-format json-lines clean.py
want_rc 0 && want_empty_out
end

# --- concise -------------------------------------------------------------------

begin "concise: every line is path:row:col: CODE message"
oom -q --output-format concise multi.py syntax.py
want_rc 1
while IFS= read -r line; do
  [[ $line =~ ^[^:]+:[0-9]+:[0-9]+:\ OOM[0-9]{3}\ .+ ]] || { fail "line $(_show "$line")"; break; }
done <"$RES/out"
want_count . 4
end

begin "concise: exact positions"
oom --output-format concise multi.py
want_line '^multi\.py:7:5: OOM501 ' && want_line '^multi\.py:8:5: OOM502 ' && want_line '^multi\.py:9:9: OOM303 '
end

begin "concise: the message follows the code"
oom --output-format concise bad.py
want_line '^bad\.py:6:5: OOM501 `torch\.cuda\.empty_cache\(\)`'
end

begin "concise: columns in code points after CJK text"
oom --output-format concise cjk.py
want_line '^cjk\.py:2:16: OOM303 '
end

begin "concise: summary line"
oom --output-format concise multi.py
want_line '^Found 3 problems in 1 file \(0 errors, 2 warnings, 1 info\)\.$'
end

begin "concise: findings in file order within a file"
oom --output-format concise multi.py
want_js 'lines.slice(0, 3).map((l) => l.split(":")[1]).join()' "7,8,9"
end

# --- full ----------------------------------------------------------------------

begin "full: header line, source line and carets"
oom bad.py
want_rc 1 && want_out "bad.py:6:5: OOM501 " && want_out "6 |     torch.cuda.empty_cache()" &&
  want_out "  |     ^^^^^^^^^^^^^^^^^^^^^^^^ OOM501"
end

begin "full: fix suggestion shown"
oom bad.py
want_line '= help: .+'
end

begin "full: summary line"
oom multi.py
want_line '^Found 3 problems in 1 file'
end

# --- github --------------------------------------------------------------------

begin "github: workflow command with file, line, col, endLine, endColumn"
oom --output-format github bad.py
want_rc 1 && want_line '^::warning title=oomlint \(OOM501\),file=bad\.py,line=6,col=5,endLine=6,endColumn=29::.+'
end

begin "github: message carries path:row:col: CODE"
oom --output-format github bad.py
want_line '::bad\.py:6:5: OOM501 '
end

begin "github: error severity is ::error, info is ::notice"
oom --output-format github syntax.py multi.py
want_line '^::error title=oomlint \(OOM000\),file=syntax\.py,line=2,' && want_line '^::notice title=oomlint \(OOM502\),file=multi\.py,line=8,col=5,'
end

begin "github: one line per finding, no summary"
oom --output-format github multi.py
want_count '^::' 3 && want_count . 3
end

begin "github: columns in code points"
oom --output-format github cjk.py
want_line ',line=2,col=16,endLine=2,endColumn=29::'
end

begin "github: comma and colon in a file name are escaped"
write_bad 'a,b:c.py'
oom --output-format github 'a,b:c.py'
want_line '^::warning title=oomlint \(OOM501\),file=a%2Cb%3Ac\.py,line=6,'
end

begin "github: clean file prints nothing"
oom --output-format github clean.py
want_rc 0 && want_empty_out
end

# --- statistics ----------------------------------------------------------------

begin "--statistics: a count per code"
oom --statistics multi.py bad.py
want_rc 1 && want_line '^ *2[[:space:]]+OOM501[[:space:]]+empty-cache-in-loop$' &&
  want_line '^ *1[[:space:]]+OOM502[[:space:]]' && want_line '^ *1[[:space:]]+OOM303[[:space:]]'
end

begin "--statistics: no individual findings listed"
oom --statistics multi.py
want_no_out "multi.py:"
end

begin "--statistics: codes not found are not listed"
oom --statistics bad.py
want_count 'OOM[0-9]{3}' 1
end

begin "--statistics on a clean file: exit 0, no counts"
oom --statistics clean.py
want_rc 0 && want_count 'OOM[0-9]{3}' 0
end

# --- colour ----------------------------------------------------------------------

begin "--color always: escape sequences"
oom --color always bad.py
want_out $'\e['
end

begin "--color always with concise: escape sequences"
oom --color always --output-format concise bad.py
want_out $'\e['
end

begin "--color never: no escape sequences"
oom --color never bad.py
want_no_out $'\e'
end

begin "default (auto) to a pipe: no escape sequences"
oom bad.py
want_no_out $'\e'
end

begin "--color auto to a pipe: no escape sequences"
oom --color auto --output-format concise bad.py
want_no_out $'\e'
end

begin "--color never then always: the last one wins"
oom --color never --color always bad.py
want_out $'\e['
end

# --- selection -------------------------------------------------------------------

codes_of() { grep -oE ': OOM[0-9]{3} ' "$RES/out" | tr -d ': ' | tr '\n' ' ' | sed 's/ $//'; }
want_codes() {
  local got
  got=$(codes_of)
  [ "$got" = "$1" ] || fail "codes $(_show "$got"), expected $(_show "$1")"
}

begin "no selection: every rule"
oom --output-format concise multi.py
want_codes "OOM501 OOM502 OOM303"
end

begin "--select OOM5: only OOM5xx"
oom --output-format concise --select OOM5 multi.py
want_rc 1 && want_codes "OOM501 OOM502"
end

begin "--select OOM50: prefix of three digits"
oom --output-format concise --select OOM50 multi.py
want_codes "OOM501 OOM502"
end

begin "--select OOM303: one code"
oom --output-format concise --select OOM303 multi.py
want_codes "OOM303"
end

begin "--select a list with a comma"
oom --output-format concise --select OOM501,OOM303 multi.py
want_codes "OOM501 OOM303"
end

begin "--select ALL"
oom --output-format concise --select ALL multi.py
want_codes "OOM501 OOM502 OOM303"
end

begin "--select a code not in the file: exit 0"
oom --output-format concise --select OOM603 multi.py
want_rc 0 && want_codes ""
end

begin "--ignore OOM501: the rest still reported"
oom --output-format concise --ignore OOM501 multi.py
want_rc 1 && want_codes "OOM502 OOM303"
end

begin "--ignore every code found: exit 0"
oom --output-format concise --ignore OOM5,OOM303 multi.py
want_rc 0 && want_codes ""
end

begin "--extend-select adds to --select"
oom --output-format concise --select OOM5 --extend-select OOM303 multi.py
want_codes "OOM501 OOM502 OOM303"
end

begin "--select OOM5 --ignore OOM501: the more specific ignore wins"
oom --output-format concise --select OOM5 --ignore OOM501 multi.py
want_codes "OOM502"
end

begin "--select OOM501 --ignore OOM5: the more specific select wins"
oom --output-format concise --select OOM501 --ignore OOM5 multi.py
want_codes "OOM501"
end

begin "--ignore OOM5 --select OOM501: order does not matter"
oom --output-format concise --ignore OOM5 --select OOM501 multi.py
want_codes "OOM501"
end

begin "--select ALL --ignore OOM5"
oom --output-format concise --select ALL --ignore OOM5 multi.py
want_codes "OOM303"
end

begin "selection applies to json"
oom --output-format json --select OOM303 multi.py
want_js 'a.map((d) => d.code).join()' "OOM303"
end

begin "selection applies to --statistics"
oom --statistics --ignore OOM501 multi.py
want_no_out "OOM501" && want_out "OOM502"
end

# --- quiet ---------------------------------------------------------------------

begin "-q: findings but no summary line"
oom -q bad.py
want_rc 1 && want_out "bad.py:6:5: OOM501" && want_no_out "Found "
end

begin "--quiet with concise: findings but no summary line"
oom --quiet --output-format concise multi.py
want_count . 3 && want_no_out "Found "
end

begin "-q on a clean file: no output at all"
oom -q clean.py
want_rc 0 && want_empty_out && want_empty_err
end

finish
