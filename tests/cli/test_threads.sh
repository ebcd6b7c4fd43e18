# Parallel linting (-j N / --threads N): the same output, in path order,
# whatever the number of threads; bad -j values are usage errors.
# Usage: bash test_threads.sh PATH_TO_OOMLINT
. "$(dirname "$0")/lib.sh" "$@"

FIXTURES=$SRC_DIR/tests/fixtures

same_as_j1() { # same_as_j1 FORMAT N
  oom --isolated -j 1 --output-format "$1" "$FIXTURES"
  local rc1=$RC
  cp "$RES/out" "j1.$1"
  oom --isolated -j "$2" --output-format "$1" "$FIXTURES"
  [ "$RC" = "$rc1" ] || fail "exit status $RC with -j $2, $rc1 with -j 1"
  cmp -s "j1.$1" "$RES/out" || fail "-j $2 output differs from -j 1: $(diff "j1.$1" "$RES/out" | head -5 | tr '\n' ' ')"
}

begin "-j 1 vs -j 2: identical concise output on tests/fixtures"
same_as_j1 concise 2
end

begin "-j 1 vs -j 8: identical full output"
same_as_j1 full 8
end

begin "-j 1 vs --threads 3: identical json"
same_as_j1 json 3
end

begin "-j 1 vs -j 2: identical json-lines"
same_as_j1 json-lines 2
end

begin "default thread count: identical to -j 1"
oom --isolated -j 1 --output-format concise "$FIXTURES"
cp "$RES/out" j1.default
oom --isolated --output-format concise "$FIXTURES"
cmp -s j1.default "$RES/out" || fail "default output differs from -j 1"
end

begin "-j 4 output is sorted by path"
oom --isolated -j 4 -q --output-format concise "$FIXTURES"
cut -d: -f1 "$RES/out" >paths
sort -c paths 2>/dev/null || fail "paths not in sorted order"
[ -s paths ] || fail "no output"
end

begin "more threads than files"
write_bad bad.py
oom -j 64 --output-format concise bad.py
want_rc 1 && want_line '^bad\.py:6:5: OOM501'
end

begin "-j with an unreadable file among others: reported in order, exit 2"
write_bad a.py
write_bad c.py
ln -s nowhere.py b.py
oom -j 3 --output-format concise a.py b.py c.py
want_rc 2 && want_line '^a\.py:6:5:' && want_line '^c\.py:6:5:' && want_err "b.py: No such file"
end

begin "-j 0: usage error"
oom -j 0 bad.py
want_rc 2 && want_err "-j/--threads"
end

begin "--threads abc: usage error"
oom --threads abc bad.py
want_rc 2 && want_err "-j/--threads"
end

begin "-j 2 with --fix: fixes still applied"
printf 'import torch\nstate = torch.load(p)\n' >fixme.py
oom -j 2 --fix -q fixme.py
want_rc 0 && grep -q 'map_location' fixme.py || fail "fix not written"
end

finish
