# Exit statuses (0 nothing reported, 1 something reported, 2 usage or I/O
# error), usage errors, --version/--help, and the `rule` / `rules` commands.
# Usage: bash test_exit_status.sh PATH_TO_OOMLINT
. "$(dirname "$0")/lib.sh" "$@"

write_clean clean.py
write_bad bad.py
cat >info.py <<'EOF'
import gc

for batch in train_loader:
    x = batch[0]
    y = batch[1]
    gc.collect()
EOF
printf 'import torch\nfor batch in train_loader\n    x = 1\n' >syntax.py

# --- check: exit status ------------------------------------------------------

begin "clean file: exit 0 and 'All checks passed'"
oom clean.py
want_rc 0 && want_out "All checks passed" && want_empty_err
end

begin "clean file: the summary counts one file"
oom clean.py
want_out "All checks passed (1 file)."
end

begin "file with a finding: exit 1"
oom bad.py
want_rc 1 && want_out "OOM501" && want_out "Found 1 problem in 1 file"
end

begin "explicit check subcommand: exit 1"
oom check bad.py
want_rc 1 && want_out "bad.py:6:5: OOM501"
end

begin "explicit check subcommand on a clean file: exit 0"
oom check clean.py
want_rc 0
end

begin "info-severity finding alone still exits 1"
oom info.py
want_rc 1 && want_out "OOM502"
end

begin "syntax error alone exits 1"
oom syntax.py
want_rc 1 && want_out "OOM000"
end

begin "finding in one of two files: exit 1"
oom clean.py bad.py
want_rc 1 && want_out "in 2 files"
end

begin "--exit-zero with a finding: exit 0, finding still printed"
oom --exit-zero bad.py
want_rc 0 && want_out "OOM501"
end

begin "options may follow paths (--exit-zero after the path)"
oom bad.py --exit-zero
want_rc 0 && want_out "OOM501"
end

begin "--exit-zero on a clean file: exit 0"
oom --exit-zero clean.py
want_rc 0
end

begin "--quiet keeps exit 1 for a finding"
oom -q bad.py
want_rc 1
end

begin "--statistics keeps exit 1 for a finding"
oom --statistics bad.py
want_rc 1
end

begin "default path is the current folder"
mkdir -p cwd && cp bad.py cwd/train.py
(cd cwd && oom --output-format concise && printf '%s\n%s\n%s' "$RC" "$OUT" "$ERR" >../cwd.res)
RC=$(head -n 1 cwd.res); OUT=$(sed -n '2p' cwd.res)
want_rc 1 && want_out "train.py:6:5: OOM501"
end

# --- I/O errors ------------------------------------------------------------

begin "missing path: exit 2, path named on stderr"
oom does-not-exist.py
want_rc 2 && want_err "does-not-exist.py"
end

begin "missing folder: exit 2, path named on stderr"
oom no/such/folder
want_rc 2 && want_err "no/such/folder"
end

begin "missing path beside a good file: exit 2, the good file still linted"
oom bad.py missing.py
want_rc 2 && want_err "missing.py" && want_out "bad.py:6:5: OOM501"
end

begin "missing path with --exit-zero: still exit 2"
oom --exit-zero missing.py
want_rc 2 && want_err "missing.py"
end

# --- usage errors --------------------------------------------------------

begin "unknown long option: exit 2, option named"
oom --bogus-option bad.py
want_rc 2 && want_err "--bogus-option" && want_empty_out
end

begin "unknown short option: exit 2"
oom -Z bad.py
want_rc 2 && want_err "-Z" && want_empty_out
end

begin "option missing its argument: exit 2"
oom bad.py --select
want_rc 2 && want_empty_out
end

begin "bad --output-format: exit 2, value named"
oom --output-format xml bad.py
want_rc 2 && want_err "xml" && want_empty_out
end

begin "empty --output-format: exit 2"
oom --output-format "" bad.py
want_rc 2 && want_empty_out
end

begin "bad --select XYZ1: exit 2, selector named"
oom --select XYZ1 bad.py
want_rc 2 && want_err "XYZ1" && want_empty_out
end

begin "bad --select with four digits: exit 2"
oom --select OOM5011 bad.py
want_rc 2 && want_err "OOM5011"
end

begin "bad selector later in a list: exit 2"
oom --select OOM501,BAD bad.py
want_rc 2 && want_err "BAD"
end

begin "bad --ignore: exit 2"
oom --ignore E501 bad.py
want_rc 2 && want_err "E501"
end

begin "bad --extend-select: exit 2"
oom --extend-select foo bad.py
want_rc 2 && want_err "foo"
end

begin "bad --color value: exit 2"
oom --color sometimes bad.py
want_rc 2 && want_err "sometimes"
end

begin "usage error beats a finding (bad option after a bad file)"
oom bad.py --output-format nope
want_rc 2
end

# --- --version, --help -----------------------------------------------------

begin "--version: exit 0, 'oomlint X.Y.Z'"
oom --version
want_rc 0 && want_line '^oomlint [0-9]+\.[0-9]+\.[0-9]+' && want_empty_err
end

begin "-V: same as --version"
oom --version
v=$OUT
oom -V
want_rc 0 && want_exact "$v"
end

begin "--help: exit 0, usage on stdout"
oom --help
want_rc 0 && want_out "Usage" && want_out "--select" && want_out "--output-format" && want_empty_err
end

begin "-h: same as --help"
oom --help
h=$OUT
oom -h
want_rc 0 && want_exact "$h"
end

begin "--help wins over a path with findings"
oom bad.py --help
want_rc 0 && want_out "Usage" && want_no_out "bad.py:6:5"
end

# --- rule --------------------------------------------------------------------

begin "rule OOM501: exit 0, doc with '## What it does'"
oom rule OOM501
want_rc 0 && want_out "## What it does" && want_out "OOM501" && want_out "empty-cache-in-loop"
end

begin "rule OOM501: doc has every heading rules/README.md names"
oom rule OOM501
want_out "## What it does" && want_out "## Why is this bad?" && want_out "## Example" &&
  want_out "## Use instead" && want_out "## Fix safety" && want_out "## References"
end

begin "rule NOPE: exit 2, code named on stderr"
oom rule NOPE
want_rc 2 && want_err "NOPE" && want_empty_out
end

begin "rule with a well-formed unknown code: exit 2"
oom rule OOM999
want_rc 2 && want_err "OOM999"
end

begin "rule without a code: exit 2"
oom rule
want_rc 2
end

begin "rule with two codes: exit 2"
oom rule OOM501 OOM303
want_rc 2
end

begin "rule --predicates: lists oom-qualname"
oom rule --predicates
want_rc 0 && want_out "oom-qualname"
end

begin "rule --predicates: lists every predicate of rules/README.md"
oom rule --predicates
listed=0
for p in $(grep -oE '^\| `#oom-[a-z-]+\?' "$SRC_DIR/rules/README.md" | sed 's/^| `#//; s/?$//'); do
  listed=$((listed + 1))
  want_out "$p" || break
done
# an emptied table would pass the loop above
[ "$listed" -ge 20 ] || fail "rules/README.md lists only $listed predicates"
end

# --- rules -------------------------------------------------------------------

codes=$(ls "$SRC_DIR/rules" | grep -oE '^OOM[0-9]{3}' | sort -u)

begin "rules: exit 0"
oom rules
want_rc 0
end

begin "rules: lists every code in rules/"
oom rules
[ -n "$codes" ] || fail "no rules/OOM*.scm under $SRC_DIR"
for c in $codes; do
  want_line "^$c " || break
done
end

begin "rules: lists no code that has no rule file"
oom rules
listed=$(grep -oE '^OOM[0-9]{3}' "$RES/out" | sort -u | tr '\n' ' ')
[ "$listed" = "$(echo $codes) " ] || fail "listed $(_show "$listed"), rule files $(_show "$(echo $codes)")"
end

begin "rules --output-format json: valid JSON"
oom rules --output-format json
want_rc 0 && want_json
end

begin "rules --output-format json: an array of objects with code and name"
oom rules --output-format json
want_js 'Array.isArray(a) && a.length > 0 && a.every((r) => typeof r.code === "string" && typeof r.name === "string")' true
end

begin "rules --output-format json: the codes of rules/"
oom rules --output-format json
want_js 'a.map((r) => r.code).sort().join(" ")' "$(echo $codes)"
end

begin "rules --output-format json: codes unique, names kebab-case"
oom rules --output-format json
want_js 'new Set(a.map((r) => r.code)).size === a.length && a.every((r) => /^OOM\d{3}$/.test(r.code) && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(r.name))' true
end

begin "rules --output-format json: each rule file's name is code-name.scm"
oom rules --output-format json
for f in $(ls "$SRC_DIR/rules" | grep -E '^OOM[0-9]{3}-.*\.scm$'); do
  want_js "a.some((r) => r.code + \"-\" + r.name + \".scm\" === \"$f\")" true || break
done
end

for c in $codes; do
  begin "rule $c: exit 0 with '## What it does'"
  oom rule "$c"
  want_rc 0 && want_out "## What it does" && want_out "($c)"
  end
done

finish
