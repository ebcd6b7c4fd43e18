# The result cache: where it goes (.oomlint_cache in the project root,
# --cache-dir, OOMLINT_CACHE_DIR) and how it is marked; that a warm run
# prints byte for byte what a cold one did; that edits, --select and the
# configuration file are seen; that a damaged cache file, --fix, stdin and
# concurrent runs never give wrong diagnostics; --no-cache writes nothing.
# Usage: bash test_cache.sh PATH_TO_OOMLINT
. "$(dirname "$0")/lib.sh" "$@"

FIXTURES=$SRC_DIR/tests/fixtures
VERSION=$("$OOMLINT" --version | cut -d' ' -f2)
OLD='2020-01-02 03:04:05'

# a fresh project folder per case
project() {
  cd "$SCRATCH" && rm -rf proj && mkdir proj && cd proj || exit 2
}

# a copy of the rule fixtures, with old modification times, so that the
# cache trusts them (a file written in the last 2 s is hashed instead)
copy_tree() {
  cp -r "$FIXTURES" tree
  find tree -type f -exec touch -d "$OLD" {} +
}

# the output of oomlint ARGS without a cache, as the reference: RC and file
reference() {
  oom --no-cache "$@"
  REF_RC=$RC
  cp "$RES/out" "$SCRATCH/ref.out"
}
want_reference() {
  [ "$RC" = "$REF_RC" ] || fail "exit status $RC, without the cache $REF_RC"
  cmp -s "$SCRATCH/ref.out" "$RES/out" ||
    fail "output differs from a run without the cache: $(diff "$SCRATCH/ref.out" "$RES/out" | head -6 | tr '\n' ' ')"
}
cache_files() { # the cache files (not markers) under DIR
  find "$1" -path "*/$VERSION/*" -type f 2>/dev/null | grep -v '/\.tmp-' | sort
}

# --- where it goes ------------------------------------------------------------

begin "a run makes .oomlint_cache in the current folder, marked like Ruff's"
project
write_bad bad.py
oom --isolated bad.py
want_rc 1
[ -d .oomlint_cache ] || fail "no .oomlint_cache folder"
[ "$(grep -vc '^#' .oomlint_cache/.gitignore 2>/dev/null)" = 1 ] && grep -qx '\*' .oomlint_cache/.gitignore ||
  fail ".gitignore does not hold *: $(cat .oomlint_cache/.gitignore 2>&1)"
head -1 .oomlint_cache/CACHEDIR.TAG 2>/dev/null | grep -qx 'Signature: 8a477f597d28d172789f06886806bc55' ||
  fail "CACHEDIR.TAG lacks the signature"
[ "$(cache_files .oomlint_cache | wc -l)" = 1 ] || fail "expected one cache file under $VERSION/: $(find .oomlint_cache)"
end

begin "the project root is the configuration file's folder, not the current one"
project
mkdir -p sub/deeper
printf 'select = ["OOM5"]\n' >oomlint.toml
write_bad sub/deeper/bad.py
cd sub/deeper || exit 2
oom bad.py
want_rc 1
cd ../.. || exit 2
[ -d .oomlint_cache ] || fail "no cache in the project root"
[ -e sub/deeper/.oomlint_cache ] && fail "a cache in the current folder"
end

begin "--cache-dir and OOMLINT_CACHE_DIR move it; --cache-dir wins"
project
write_bad bad.py
oom --isolated --cache-dir elsewhere/c bad.py
want_rc 1
[ -n "$(cache_files elsewhere/c)" ] || fail "nothing in --cache-dir"
[ -e .oomlint_cache ] && fail "a .oomlint_cache beside it"
OOMLINT_CACHE_DIR=$PWD/fromenv oom --isolated bad.py
[ -n "$(cache_files fromenv)" ] || fail "nothing in OOMLINT_CACHE_DIR"
OOMLINT_CACHE_DIR=$PWD/fromenv oom --isolated --cache-dir flag bad.py
[ -n "$(cache_files flag)" ] || fail "--cache-dir lost to the environment"
[ -e .oomlint_cache ] && fail "a .oomlint_cache beside them"
end

begin "--no-cache writes nothing"
project
write_bad bad.py
oom --isolated --no-cache bad.py
want_rc 1
[ -z "$(ls -A)" ] || [ "$(ls -A)" = bad.py ] || fail "files appeared: $(ls -A | tr '\n' ' ')"
OOMLINT_CACHE_DIR=$PWD/env oom --isolated --no-cache --cache-dir flag bad.py
[ "$(ls -A)" = bad.py ] || fail "files appeared: $(ls -A | tr '\n' ' ')"
end

begin "stdin is never cached"
project
write_bad bad.py
oom --stdin bad.py --isolated --stdin-filename bad.py
want_rc 1 && want_line '^bad\.py:6:5: OOM501'
[ -e .oomlint_cache ] && fail "a cache was made for stdin"
end

begin "a cache folder that cannot be made: linted as without one, silently"
project
write_bad bad.py
: >afile
oom --isolated --cache-dir afile/cache --output-format concise bad.py
want_rc 1 && want_line '^bad\.py:6:5: OOM501' && want_empty_err
end

# --- warm runs print what cold runs did ----------------------------------------

for format in full concise json json-lines sarif github gitlab junit; do
  begin "warm run, $format: byte-identical to the cold run and to --no-cache"
  project
  copy_tree
  reference --isolated --output-format "$format" tree
  oom --isolated --output-format "$format" tree
  want_reference
  oom --isolated --output-format "$format" tree
  want_reference
  end
done

begin "warm run with --statistics and --unsafe-fixes: identical"
project
copy_tree
reference --isolated --statistics tree
oom --isolated --statistics tree
oom --isolated --statistics tree
want_reference
reference --isolated --unsafe-fixes tree
oom --isolated --unsafe-fixes tree
oom --isolated --unsafe-fixes tree
want_reference
end

begin "warm run on -j 1 and -j 2: identical"
project
copy_tree
reference --isolated -j 1 tree
oom --isolated -j 2 tree
want_reference
oom --isolated -j 1 tree
want_reference
oom --isolated -j 2 tree
want_reference
end

begin "an unchanged clean file is not read again (stat alone)"
project
write_clean f.py
touch -d "$OLD" f.py
oom --isolated --output-format concise f.py
want_rc 0
# the same bytes in another order (empty_cache moved into the loop: OOM501)
# with the same size and time: only a run that reads the file can tell. As
# with Ruff and make, such a rewrite goes unseen; `touch` shows it.
printf 'import torch\n\nmodel = torch.nn.Linear(4, 2)\nfor batch in train_loader:\n    x = batch[0]\n    torch.cuda.empty_cache()\ny = batch[1]\n' >g.py
[ "$(wc -c <g.py)" = "$(wc -c <f.py)" ] || fail "test set-up: sizes differ"
cat g.py >f.py
touch -d "$OLD" f.py
oom --isolated --output-format concise f.py
want_rc 0 && want_no_out OOM501
oom --isolated --no-cache --output-format concise f.py
want_rc 1 && want_line '^f\.py:6:5: OOM501'
touch f.py
oom --isolated --output-format concise f.py
want_rc 1 && want_line '^f\.py:6:5: OOM501'
end

begin "edits are seen at once, even at the same size within the same second"
project
write_bad f.py
oom --isolated --output-format concise f.py
want_rc 1 && want_line '^f\.py:6:5: OOM501'
# same size: empty_cache -> empty_cachf is no finding
sed -i 's/empty_cache()/empty_cachf()/' f.py
oom --isolated --output-format concise f.py
want_rc 0 && want_no_out OOM501
sed -i 's/empty_cachf()/empty_cache()/' f.py
oom --isolated --output-format concise f.py
want_rc 1 && want_line '^f\.py:6:5: OOM501'
end

begin "edits to old files are seen (changed time and size)"
project
copy_tree
oom --isolated --output-format concise tree
f=tree/OOM501/flags_batch_loop.py
printf 'x = 1\n' >"$f"
reference --isolated --output-format concise tree
oom --isolated --output-format concise tree
want_reference
grep -q 'OOM501/flags_batch_loop' "$RES/out" && fail "the emptied file still reported"
end

begin "an edit of an imported module changes the importer's result (the project index)"
project
cat >losses.py <<'PY'
import torch.nn.functional as F


def aux(pred, target):
    return F.mse_loss(pred, target)
PY
cat >train.py <<'PY'
import torch
import torch.nn as nn
from losses import aux

model = nn.Linear(4, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
running = 0.0
for x, y in loader:
    opt.zero_grad()
    out = model(x)
    loss = (out - y).pow(2).mean()
    loss.backward()
    opt.step()
    running += aux(out, y)
PY
touch -d "$OLD" losses.py train.py
oom --isolated --output-format concise train.py
want_rc 1 && want_line '^train\.py:14:5: OOM101'
# aux now returns a float: the importer's entry must not be taken
sed -i 's/target)$/target).item()/' losses.py
reference --isolated --output-format concise train.py
oom --isolated --output-format concise train.py
want_reference && want_no_out OOM101
# back, with the old time again: stat alone cannot tell, the hash does
sed -i 's/target).item()$/target)/' losses.py
touch -d "$OLD" losses.py
oom --isolated --output-format concise train.py
want_rc 1 && want_line '^train\.py:14:5: OOM101'
oom --isolated --output-format concise train.py
want_rc 1 && want_line '^train\.py:14:5: OOM101'
# the module deleted: the import no longer resolves, nothing is known of aux
rm losses.py
reference --isolated --output-format concise train.py
oom --isolated --output-format concise train.py
want_reference && want_no_out OOM101
end

begin "an edit of a script importing the file changes its result (callers under no_grad)"
project
cat >model.py <<'PY'
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)

    def inference(self, loader):
        self.eval()
        outs = []
        for x in loader:
            outs.append(self(x))
        return torch.cat(outs)
PY
cat >run.py <<'PY'
import torch
from model import Net

net = Net()
with torch.no_grad():
    preds = net.inference(loader)
PY
touch -d "$OLD" model.py run.py
oom --isolated --output-format concise --select OOM102 model.py
want_rc 0 && want_no_out OOM102
# the script now calls it with gradients on as well: model.py's entry must
# not be taken, though model.py did not change
printf 'more = net.inference(loader)\n' >>run.py
reference --isolated --output-format concise --select OOM102 model.py
oom --isolated --output-format concise --select OOM102 model.py
want_reference && want_line '^model\.py:17:13: OOM102'
# a new script beside it that never calls it: the answer stays
printf 'import model\n' >other.py
oom --isolated --output-format concise --select OOM102 model.py
want_rc 1 && want_line '^model\.py:17:13: OOM102'
end

begin "a file touched without a change: same output, entry refreshed"
project
copy_tree
reference --isolated tree
oom --isolated tree
touch tree/OOM303/*.py
oom --isolated tree
want_reference
end

begin "a deleted and a new file"
project
copy_tree
oom --isolated --output-format concise tree
rm tree/OOM303/flags_load.py
cp "$FIXTURES/OOM303/flags_load.py" tree/OOM501/new_file.py
reference --isolated --output-format concise tree
oom --isolated --output-format concise tree
want_reference
end

# --- settings ------------------------------------------------------------------

begin "--select, --ignore and --gpu-memory: each its own results"
project
copy_tree
for args in "" "--select OOM303" "--select OOM5" "--ignore OOM501" "--gpu-memory 1GiB" ""; do
  # shellcheck disable=SC2086
  reference --isolated --output-format concise $args tree
  # shellcheck disable=SC2086
  oom --isolated --output-format concise $args tree
  want_reference
done
end

begin "changing the configuration file invalidates"
project
copy_tree
printf 'select = ["OOM5"]\n' >oomlint.toml
reference --output-format concise tree
oom --output-format concise tree
want_reference
printf 'select = ["OOM3"]\n' >oomlint.toml
reference --output-format concise tree
oom --output-format concise tree
want_reference
grep -q ' OOM3' "$RES/out" || fail "no OOM3 finding after the change"
printf 'select = ["OOM3"]\n[per-file-ignores]\n"tree/OOM303/*" = ["OOM303"]\n' >oomlint.toml
reference --output-format concise tree
oom --output-format concise tree
want_reference
grep -q 'OOM303/flags_load' "$RES/out" && fail "per-file-ignores not applied to a cached result"
end

begin "a rules-dir file edited: invalidates"
project
copy_tree
mkdir myrules
sed 's/^; code: OOM501/; code: OOM901/; s/^; name: .*/; name: my-rule/' \
  "$SRC_DIR"/rules/OOM501-*.scm >myrules/OOM901-my-rule.scm
oom --isolated --rules-dir myrules --output-format concise tree
oom --isolated --rules-dir myrules --output-format concise tree
grep -q ' OOM901 ' "$RES/out" || fail "the rules-dir rule reported nothing"
sed -i 's/^; severity: .*/; severity: info/; s/^; message: /; message: changed: /' myrules/OOM901-my-rule.scm
reference --isolated --rules-dir myrules --output-format concise tree
oom --isolated --rules-dir myrules --output-format concise tree
want_reference
grep -q 'changed: ' "$RES/out" || fail "the edited message is not used"
end

begin "a broken rule file is reported before anything is printed, cache or not"
project
copy_tree
oom --isolated tree
mkdir broken
printf '; code: OOM902\n; name: broken\n; severity: info\n; message: m\n; doc:\n;   d\n(call @report\n' >broken/OOM902-broken.scm
for round in 1 2; do
  oom --isolated --rules-dir broken tree
  want_rc 2 && want_empty_out && want_err "OOM902-broken.scm"
done
mkdir empty
oom --isolated --rules-dir broken empty
want_rc 2 && want_err "OOM902-broken.scm"
end

# --- damage ----------------------------------------------------------------------

damage_case() { # damage_case NAME COMMAND: COMMAND damages the file in $1
  begin "a damaged cache file ($1) is ignored"
  project
  copy_tree
  reference --isolated --output-format json tree
  oom --isolated --output-format json tree
  local f
  f=$(cache_files .oomlint_cache | head -1)
  [ -n "$f" ] || fail "no cache file"
  [ -n "$f" ] && $2 "$f"
  oom --isolated --output-format json tree
  want_reference
  oom --isolated --output-format json tree
  want_reference
  end
}
flip_middle() { printf '\xff' | dd of="$1" bs=1 seek=$(($(wc -c <"$1") / 2)) conv=notrunc status=none; }
flip_each_kib() {
  local n i
  n=$(wc -c <"$1")
  for ((i = 40; i < n; i += 1024)); do printf '\x5a' | dd of="$1" bs=1 seek=$i conv=notrunc status=none; done
}
cut_half() { truncate -s $(($(wc -c <"$1") / 2)) "$1"; }
emptied() { : >"$1"; }
garbage() { head -c 4096 /dev/urandom >"$1"; }
header() { printf 'OOMCACHF' | dd of="$1" bs=1 conv=notrunc status=none; }
damage_case "one byte flipped" flip_middle
damage_case "a byte in every KiB" flip_each_kib
damage_case "cut in half" cut_half
damage_case "empty" emptied
damage_case "random bytes" garbage
damage_case "bad header" header

begin "a cache file that is a folder, or unreadable: ignored"
project
copy_tree
reference --isolated --output-format concise tree
oom --isolated --output-format concise tree
f=$(cache_files .oomlint_cache | head -1)
rm -f "$f" && mkdir "$f"
oom --isolated --output-format concise tree
want_reference
want_empty_err
end

# --- fixes -------------------------------------------------------------------------

begin "--fix neither reads nor writes the cache, and its changes are seen next"
project
printf 'import torch\nstate = torch.load(p)\n' >fixme.py
touch -d "$OLD" fixme.py
oom --isolated --output-format concise fixme.py
want_rc 1 && want_line 'OOM303'
before=$(cache_files .oomlint_cache | xargs cat | cksum)
oom --isolated --fix -q fixme.py
want_rc 0
grep -q map_location fixme.py || fail "fix not written"
after=$(cache_files .oomlint_cache | xargs cat | cksum)
[ "$before" = "$after" ] || fail "--fix changed the cache"
oom --isolated --output-format concise fixme.py
want_rc 0 && want_no_out OOM303
end

begin "--diff after a cached run: the diff is still printed"
project
printf 'import torch\nstate = torch.load(p)\n' >fixme.py
oom --isolated fixme.py
oom --isolated fixme.py
oom --isolated --diff fixme.py
want_rc 1 && want_out '+state = torch.load(p, map_location='
end

# --- concurrency ----------------------------------------------------------------------

begin "two concurrent runs over the same tree: both right, cold and warm"
project
copy_tree
reference --isolated --output-format concise -j 2 tree
for round in cold warm warm-after-edit; do
  if [ "$round" = warm-after-edit ]; then
    printf 'x = 1\n' >tree/OOM501/flags_batch_loop.py
    reference --isolated --output-format concise -j 2 tree
  fi
  "$OOMLINT" --isolated --output-format concise -j 2 tree >a.out 2>a.err &
  pa=$!
  "$OOMLINT" --isolated --output-format concise -j 2 tree >b.out 2>b.err &
  pb=$!
  wait $pa
  ra=$?
  wait $pb
  rb=$?
  [ "$ra" = "$REF_RC" ] && [ "$rb" = "$REF_RC" ] || fail "$round: exit $ra and $rb, expected $REF_RC"
  cmp -s a.out "$SCRATCH/ref.out" || fail "$round: first run's output differs"
  cmp -s b.out "$SCRATCH/ref.out" || fail "$round: second run's output differs"
  [ -s a.err ] || [ -s b.err ] && fail "$round: stderr: $(cat a.err b.err | head -3)"
done
oom --isolated --output-format concise -j 2 tree
want_reference
[ -z "$(find .oomlint_cache -name '.tmp-*')" ] || fail "temporary files left"
end

begin "eight concurrent runs, some editing between: every output right"
project
copy_tree
reference --isolated --output-format concise tree
pids=()
for i in 1 2 3 4 5 6 7 8; do
  "$OOMLINT" --isolated --output-format concise -j 2 tree >"run$i.out" 2>"run$i.err" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
for i in 1 2 3 4 5 6 7 8; do
  cmp -s "run$i.out" "$SCRATCH/ref.out" || fail "run $i output differs"
done
oom --isolated --output-format concise tree
want_reference
end

finish
