# Inputs: stdin (`-`, --stdin-filename), folder walks (order, skipped folders,
# symlinks), files named explicitly, unreadable paths.
# Usage: bash test_inputs.sh PATH_TO_OOMLINT
. "$(dirname "$0")/lib.sh" "$@"

write_bad bad.py
write_clean clean.py
: >empty.py

# --- stdin -------------------------------------------------------------------

begin "stdin via '-': finding reported, exit 1"
oom --stdin bad.py --output-format concise -
want_rc 1 && want_out ":6:5: OOM501"
end

begin "stdin via '-': shown as '-'"
oom --stdin bad.py --output-format concise -
want_line '^-:6:5: OOM501 '
end

begin "stdin via --stdin-filename: the name appears in the output"
oom --stdin bad.py --output-format concise --stdin-filename train.py
want_rc 1 && want_line '^train\.py:6:5: OOM501 '
end

begin "stdin via --stdin-filename: full output names it too"
oom --stdin bad.py --stdin-filename train.py
want_rc 1 && want_out "train.py:6:5:" && want_no_out "-:6:5"
end

begin "stdin via --stdin-filename: json filename field"
oom --stdin bad.py --output-format json --stdin-filename sub/train.py
want_json && want_js '[...new Set(a.map((d) => d.filename))].join(",")' "sub/train.py"
end

begin "--stdin-filename with '-' as well: linted once"
oom --stdin bad.py --output-format concise --stdin-filename train.py -
want_count 'OOM501' 1 && want_line '^train\.py:6:5: '
end

begin "--stdin-filename names a file that does not exist: no I/O error"
oom --stdin clean.py --stdin-filename no/such/dir/x.py
want_rc 0 && want_empty_err
end

begin "stdin clean: exit 0, one file"
oom --stdin clean.py -
want_rc 0 && want_out "All checks passed (1 file)."
end

begin "stdin empty: exit 0"
oom --stdin empty.py -
want_rc 0 && want_out "All checks passed"
end

begin "stdin and a file together: both linted"
cp bad.py other.py
oom --stdin bad.py --output-format concise --stdin-filename train.py other.py
want_rc 1 && want_line '^train\.py:6:5: OOM501' && want_line '^other\.py:6:5: OOM501'
end

# --- folder walk ------------------------------------------------------------

# tree/ holds Python files in created-out-of-order folders, and everything
# the walk must skip.
mk() { mkdir -p "$(dirname "$1")" && write_bad "$1"; }
mk tree/zeta/z.py
mk tree/m.py
mk tree/b.py
mk tree/alpha/sub/deep.py
mk tree/alpha/a.py
mk tree/alpha/B.py
mk tree/.hidden/h.py
mk tree/.venv/v.py
mk tree/node_modules/pkg/n.py
mk tree/__pycache__/c.py
mk tree/venv/lib/v.py
mk tree/myenv/lib/e.py
printf 'home = /usr/bin\n' >tree/myenv/pyvenv.cfg
write_bad tree/notes.txt
write_bad tree/script
write_bad tree/alpha/stub.pyc

walked="tree/alpha/B.py tree/alpha/a.py tree/alpha/sub/deep.py tree/b.py tree/m.py tree/zeta/z.py"

files_of() { # the distinct files of concise output, in order of appearance
  cut -d: -f1 "$RES/out" | grep -vE '^(Found|All checks|\[\*\] |No fixes available)' | uniq | tr '\n' ' ' | sed 's/ $//'
}
want_files() {
  local got
  got=$(files_of)
  [ "$got" = "$1" ] || fail "files $(_show "$got"), expected $(_show "$1")"
}

begin "folder: every *.py file linted, in sorted order"
oom --output-format concise tree
want_rc 1 && want_files "$walked"
end

begin "folder: summary counts the walked files"
oom tree
want_out "in 6 files"
end

begin "folder: output is byte-stable across runs"
oom --output-format concise tree
first=$OUT
oom --output-format concise tree
[ "$OUT" = "$first" ] || fail "second run differs"
oom --output-format json tree
first=$OUT
oom --output-format json tree
[ "$OUT" = "$first" ] || fail "json: second run differs"
end

begin "folder: order does not depend on creation order"
mk order/c.py
mk order/a.py
mk order/b/x.py
mk order/ab.py
oom --output-format concise order
want_files "order/a.py order/ab.py order/b/x.py order/c.py"
end

begin "folder: JSON lists files in the same order"
oom --output-format json tree
want_js '[...new Set(a.map((d) => d.filename))].join(" ")' "$walked"
end

begin "folder: hidden folders skipped"
oom --output-format concise tree
want_no_out ".hidden" && want_no_out ".venv"
end

begin "folder: node_modules skipped"
oom --output-format concise tree
want_no_out "node_modules"
end

begin "folder: __pycache__ skipped"
oom --output-format concise tree
want_no_out "__pycache__"
end

begin "folder: a folder with pyvenv.cfg skipped, whatever its name"
oom --output-format concise tree
want_no_out "myenv"
end

begin "folder: a folder named venv skipped"
oom --output-format concise tree
want_no_out "tree/venv/"
end

begin "folder: non-.py files not linted by the walk"
oom --output-format concise tree
want_no_out "notes.txt" && want_no_out "tree/script" && want_no_out ".pyc"
end

begin "folder with a trailing slash: same files"
oom --output-format concise tree/
want_files "$walked"
end

begin "folder given as ./tree: paths keep the prefix"
oom --output-format concise ./tree
want_line '^\./tree/b\.py:6:5: OOM501'
end

begin "a skipped kind of folder named explicitly is linted"
oom --output-format concise tree/node_modules
want_rc 1 && want_files "tree/node_modules/pkg/n.py"
end

begin "a file inside a hidden folder named explicitly is linted"
oom --output-format concise tree/.hidden/h.py
want_rc 1 && want_files "tree/.hidden/h.py"
end

begin "empty folder: exit 0, no files"
mkdir -p emptydir
oom emptydir
want_rc 0 && want_out "All checks passed (0 files)."
end

begin "folder with only skipped content: exit 0"
mk onlyskipped/.git/x.py
mk onlyskipped/__pycache__/y.py
oom onlyskipped
want_rc 0 && want_out "(0 files)"
end

# --- explicit files ---------------------------------------------------------

begin "non-.py file given explicitly is linted"
oom --output-format concise tree/notes.txt
want_rc 1 && want_line '^tree/notes\.txt:6:5: OOM501'
end

begin "extensionless file given explicitly is linted"
oom --output-format concise tree/script
want_rc 1 && want_line '^tree/script:6:5: OOM501'
end

begin "same file twice: linted once"
oom --output-format concise bad.py bad.py
want_count 'OOM501' 1
end

begin "a folder and a file inside it: the file linted once"
oom --output-format concise tree/ tree/b.py
want_count '^tree/b\.py:[0-9]+:[0-9]+: OOM501 ' 1 && want_files "$walked"
end

begin "files given out of order: output sorted"
oom --output-format concise tree/m.py tree/b.py
want_files "tree/b.py tree/m.py"
end

begin "path with spaces and non-ASCII characters"
write_bad "sp ace é.py"
oom --output-format concise "sp ace é.py"
want_rc 1 && want_line '^sp ace é\.py:6:5: OOM501'
end

begin "a folder given as a file name in a list with others"
oom --output-format concise bad.py tree/zeta
want_files "bad.py tree/zeta/z.py"
end

# --- symlinks -----------------------------------------------------------------

mk links/real/r.py
mk outside/o.py
ln -s . links/real/loop
ln -s .. links/real/up
ln -s ../outside links/dirlink
ln -s real/r.py links/filelink.py
ln -s /nonexistent/target.py links/dangling.py

begin "symlink loop: no hang"
oom --timeout 20 --output-format concise links/real
[ "$RC" != 124 ] || fail "timed out"
want_rc 1
end

begin "symlink loop: each file once"
oom --timeout 20 --output-format concise links
want_count '^links/real/r\.py:[0-9]+:[0-9]+: OOM501 ' 1 && want_no_out "loop/" && want_no_out "up/"
end

begin "directory symlink not followed by the walk"
oom --output-format concise links
want_no_out "outside" && want_no_out "dirlink"
end

begin "symlink to a .py file is linted"
oom --output-format concise links
want_line '^links/filelink\.py:6:5: OOM501'
end

begin "dangling symlink in a folder: ignored, no I/O error"
oom --output-format concise links
want_rc 1 && want_no_out "dangling" && want_empty_err
end

begin "walk with symlinks: exact file list"
oom --output-format concise links
want_files "links/filelink.py links/real/r.py"
end

begin "directory symlink named explicitly is walked"
oom --output-format concise links/dirlink
want_rc 1 && want_files "links/dirlink/o.py"
end

begin "dangling symlink named explicitly: exit 2"
oom links/dangling.py
want_rc 2 && want_err "links/dangling.py"
end

# --- unreadable paths ------------------------------------------------------

# Root reads everything: as root, run oomlint as nobody (setpriv) when that
# works, else skip.
as_user=""
if [ "$(id -u)" != 0 ]; then
  as_user=self
elif command -v setpriv >/dev/null 2>&1 &&
  setpriv --reuid=65534 --regid=65534 --clear-groups "$OOMLINT" --version >/dev/null 2>&1; then
  as_user=nobody
  chmod 755 "$SCRATCH"
fi
run_unprivileged() {
  if [ "$as_user" = nobody ]; then oom --as-nobody "$@"; else oom "$@"; fi
}

write_bad locked.py
chmod 000 locked.py
mk lockdir/ok.py
mk lockdir/sub/hidden.py
chmod 000 lockdir/sub

if [ -z "$as_user" ]; then
  skip "unreadable file: exit 2" "running as root and cannot drop privileges"
  skip "unreadable file beside a good one: the good one still linted" "running as root"
  skip "unreadable folder inside a walk: exit 2, the rest linted" "running as root"
else
  begin "unreadable file: exit 2, path named on stderr"
  run_unprivileged locked.py
  want_rc 2 && want_err "locked.py"
  end

  begin "unreadable file beside a good one: the good one still linted"
  run_unprivileged --output-format concise locked.py bad.py
  want_rc 2 && want_line '^bad\.py:6:5: OOM501' && want_no_out "locked.py:"
  end

  begin "unreadable folder inside a walk: exit 2, the rest linted"
  run_unprivileged --output-format concise lockdir
  want_rc 2 && want_err "lockdir/sub" && want_files "lockdir/ok.py"
  end
fi
chmod 755 lockdir/sub
chmod 644 locked.py

begin "--stdin-filename naming a folder: stdin is read, not the folder"
oom --stdin bad.py --output-format concise --stdin-filename tree
want_rc 1 && want_line '^tree:6:5: OOM501'
end

finish
