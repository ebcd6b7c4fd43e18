# The pre-commit hook end to end: Debian's `pre-commit try-repo` runs this
# repository's .pre-commit-hooks.yaml (the oomlint on PATH: the one under test)
# in a scratch git repository. A leaky file fails with the rule code; a clean
# one passes; non-Python files are not passed to the hook.
# Usage: bash test_precommit.sh PATH_TO_OOMLINT
. "$(dirname "$0")/lib.sh" "$@"

if ! command -v pre-commit >/dev/null 2>&1 || ! command -v git >/dev/null 2>&1; then
  skip "pre-commit try-repo" "pre-commit or git is not installed (scripts/setup installs them)"
  finish
fi

export PATH="$(dirname "$OOMLINT"):$PATH"
export PRE_COMMIT_HOME=$SCRATCH/pre-commit-cache
export GIT_CONFIG_NOSYSTEM=1 HOME=$SCRATCH
git config --global user.email test@example.invalid
git config --global user.name test
git config --global init.defaultBranch main
git config --global --add safe.directory '*'

mkdir work && cd work && git init -q . || exit 2
write_bad leaky.py
write_clean clean.py
printf 'torch.cuda.empty_cache() is fine in prose\n' >notes.txt
git add leaky.py clean.py notes.txt

# try_repo FILE...: sets RC and OUT (stdout and stderr together)
try_repo() {
  LAST_CMD="pre-commit try-repo $SRC_DIR oomlint --files $*"
  OUT=$(timeout 300 pre-commit try-repo "$SRC_DIR" oomlint --files "$@" 2>&1)
  RC=$?
}

begin "the hook definition is where pre-commit looks for it"
[ -f "$SRC_DIR/.pre-commit-hooks.yaml" ] || fail "no .pre-commit-hooks.yaml at the repository root"
grep -q '^  language: system$' "$SRC_DIR/.pre-commit-hooks.yaml" || fail "language is not system"
grep -qE '^ *stages:' "$SRC_DIR/.pre-commit-hooks.yaml" && fail "stages: is set (Debian's pre-commit rejects newer names)"
end

begin "pre-commit try-repo: a leaky file fails the hook with the rule code"
try_repo leaky.py
[ "$RC" -ne 0 ] || fail "hook passed on a leaky file: $(_show "$OUT")"
want_out "oomlint" && want_out "Failed" && want_out "leaky.py:6:5: OOM501"
end

begin "pre-commit try-repo: a clean file passes"
try_repo clean.py
[ "$RC" -eq 0 ] || fail "hook failed on a clean file (exit $RC): $(_show "$OUT")"
want_out "Passed"
end

begin "pre-commit try-repo: a non-Python file is not linted"
try_repo notes.txt
[ "$RC" -eq 0 ] || fail "hook failed on a text file (exit $RC): $(_show "$OUT")"
want_no_out "OOM501"
end

begin "pre-commit try-repo: a configuration file in the repository applies"
printf '[tool.oomlint]\nignore = ["OOM501"]\n' >pyproject.toml
git add pyproject.toml
try_repo leaky.py
[ "$RC" -eq 0 ] || fail "the hook ignored pyproject.toml (exit $RC): $(_show "$OUT")"
end

finish
