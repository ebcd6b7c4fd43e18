# CI output formats: SARIF 2.1.0 (structure; the schema check is ci.sarif_schema),
# GitLab Code Quality (its documented required fields, stable fingerprints)
# and JUnit XML.
# Usage: bash test_formats_ci.sh PATH_TO_OOMLINT
. "$(dirname "$0")/lib.sh" "$@"

write_bad bad.py
write_clean clean.py
# OOM501 at 7:5, OOM502 at 8:5, OOM303 at 9:9
cat >multi.py <<'EOF2'
import gc
import torch

for batch in train_loader:
    x = batch[0]
    y = batch[1]
    torch.cuda.empty_cache()
    gc.collect()
state = torch.load(p)
EOF2
printf 'import torch\ns = "日本語"; t = torch.load(p)\n' >cjk.py
printf 'import torch\ndef f(:\n    pass\n' >syntax.py

# --- sarif ---------------------------------------------------------------------

begin "sarif: valid JSON, version 2.1.0, one run, exit 1 on findings"
oom --output-format sarif multi.py
want_rc 1 && want_json && want_js 'a.version + " " + a.runs.length + " " + typeof a["$schema"]' "2.1.0 1 string"
end

begin "sarif: the driver names oomlint and its version"
oom --output-format sarif multi.py
want_js 'const d = a.runs[0].tool.driver; d.name + " " + /^[0-9]+\.[0-9]+\.[0-9]+$/.test(d.version)' "oomlint true"
end

begin "sarif: every enabled rule described (id, name, descriptions, help from the doc, level)"
oom --output-format sarif multi.py
want_js 'const r = a.runs[0].tool.driver.rules; r.length > 20 && r.every((x) => /^OOM[0-9]{3}$/.test(x.id) && x.name && x.shortDescription.text && x.fullDescription.text && x.help.text.includes("## Why is this bad?") && x.help.markdown && ["error", "warning", "note"].includes(x.defaultConfiguration.level))' true
end

begin "sarif: rule levels follow severities"
oom --output-format sarif multi.py
want_js 'const r = a.runs[0].tool.driver.rules; ["OOM000", "OOM501", "OOM502"].map((c) => r.find((x) => x.id === c).defaultConfiguration.level).join()' "error,warning,note"
end

begin "sarif: --select limits the rules described"
oom --output-format sarif --select OOM5 multi.py
want_js 'a.runs[0].tool.driver.rules.map((x) => x.id).join()' "OOM000,OOM501,OOM502"
end

begin "sarif: results with ruleId, ruleIndex, level and message"
oom --output-format sarif multi.py
want_js 'const run = a.runs[0]; run.results.map((x) => x.ruleId + "/" + (run.tool.driver.rules[x.ruleIndex].id === x.ruleId) + "/" + x.level + "/" + (x.message.text.length > 0)).join(" ")' \
  "OOM501/true/warning/true OOM502/true/note/true OOM303/true/warning/true"
end

begin "sarif: physical locations, 1-based regions"
oom --output-format sarif multi.py
want_js 'a.runs[0].results.map((x) => { const l = x.locations[0].physicalLocation; const g = l.region; return l.artifactLocation.uri + ":" + g.startLine + ":" + g.startColumn + "-" + g.endLine + ":" + g.endColumn; }).join(" ")' \
  "multi.py:7:5-7:29 multi.py:8:5-8:17 multi.py:9:9-9:22"
end

begin "sarif: columns in code points (columnKind unicodeCodePoints)"
oom --output-format sarif cjk.py
want_js 'const g = a.runs[0].results[0].locations[0].physicalLocation.region; a.runs[0].columnKind + " " + g.startColumn + "," + g.endColumn' "unicodeCodePoints 16,29"
end

begin "sarif: fixes with artifactChanges and replacements"
oom --output-format sarif cjk.py
want_js 'const f = a.runs[0].results[0].fixes[0]; const c = f.artifactChanges[0]; const r = c.replacements[0]; [f.description.text.length > 0, c.artifactLocation.uri, r.deletedRegion.startLine, r.deletedRegion.startColumn, r.deletedRegion.endColumn, r.insertedContent.text].join("|")' \
  'true|cjk.py|2|28|28|, map_location="cpu"'
end

begin "sarif: no fixes key for a rule without a fix"
oom --output-format sarif syntax.py
want_js 'a.runs[0].results.filter((x) => x.ruleId === "OOM000").every((x) => !("fixes" in x))' true
end

begin "sarif: uri relative, ./ dropped, special characters percent-encoded"
mkdir -p 'sub dir'
write_bad 'sub dir/b#1.py'
oom --output-format sarif .
want_js 'a.runs[0].results.map((x) => x.locations[0].physicalLocation.artifactLocation.uri).sort().join(" ")' "bad.py cjk.py multi.py multi.py multi.py sub%20dir/b%231.py syntax.py"
rm -rf 'sub dir'
end

begin "sarif: clean file: empty results, exit 0, no summary"
oom --output-format sarif clean.py
want_rc 0 && want_js 'a.runs[0].results.length' 0 && want_no_out "All checks passed"
end

# --- gitlab --------------------------------------------------------------------

FIELDS='typeof d.description === "string" && d.description.length > 0 && typeof d.check_name === "string" && typeof d.fingerprint === "string" && ["info", "minor", "major", "critical", "blocker"].includes(d.severity) && typeof d.location.path === "string" && Number.isInteger(d.location.lines.begin) && d.location.lines.begin >= 1'

begin "gitlab: a JSON array of issues with the documented required fields"
oom --output-format gitlab multi.py syntax.py bad.py
want_rc 1 && want_json && want_js 'Array.isArray(a) && a.length === 5 && a.every((d) => '"$FIELDS"')' true
end

begin "gitlab: check_name is the code, path and begin line of each issue"
oom --output-format gitlab multi.py
want_js 'a.map((d) => d.check_name + "@" + d.location.path + ":" + d.location.lines.begin).join(" ")' "OOM501@multi.py:7 OOM502@multi.py:8 OOM303@multi.py:9"
end

begin "gitlab: severities mapped (error major, warning minor, info info)"
oom --output-format gitlab syntax.py multi.py
want_js 'a.map((d) => d.check_name + "=" + d.severity).join(" ")' "OOM501=minor OOM502=info OOM303=minor OOM000=major"
end

begin "gitlab: fingerprints unique"
cp bad.py bad2.py
oom --output-format gitlab multi.py bad.py bad2.py
want_js 'new Set(a.map((d) => d.fingerprint)).size === a.length' true
end

begin "gitlab: fingerprint stable across runs and after lines added above"
oom --output-format gitlab bad.py
first=$(js 'a[0].fingerprint')
{ printf '# a comment\n\n'; cat bad.py; } >moved.py
cp moved.py bad.py
oom --output-format gitlab bad.py
want_js 'a[0].location.lines.begin + " " + a[0].fingerprint' "8 $first"
write_bad bad.py
end

begin "gitlab: two identical lines get different fingerprints"
cat >twice.py <<'EOF2'
import torch

for batch in train_loader:
    torch.cuda.empty_cache()
    torch.cuda.empty_cache()
EOF2
oom --output-format gitlab --select OOM501 twice.py
want_js 'a.length === 2 && a[0].fingerprint !== a[1].fingerprint' true
end

begin "gitlab: clean file gives [] and exit 0"
oom --output-format gitlab clean.py
want_rc 0 && want_js 'JSON.stringify(a)' '[]'
end

# --- junit ---------------------------------------------------------------------

xml_ok() {
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$RES/out" 2>"$RES/xml-err" ||
      fail "not well-formed XML: $(head -c 300 "$RES/xml-err")"
  fi
}

begin "junit: well-formed XML with testsuites and counts"
oom --output-format junit multi.py clean.py
want_rc 1 && xml_ok && want_line '^<\?xml version="1.0" encoding="UTF-8"\?>$' &&
  want_line '<testsuites name="oomlint" tests="4" failures="3" errors="0">'
end

begin "junit: one failing testcase per finding, a passing one per clean file"
oom --output-format junit multi.py clean.py
want_count '<testcase ' 4 && want_count '<failure ' 3 && want_line '<testcase name="OOM501 multi.py:7:5" classname="multi.py"' &&
  want_line '<testsuite name="clean.py" tests="1" failures="0"'
end

begin "junit: special characters escaped"
write_bad 'a&b<c>.py'
oom --output-format junit 'a&b<c>.py'
xml_ok && want_out 'a&amp;b&lt;c&gt;.py'
end

finish
