# Configuration files (pyproject.toml [tool.oomlint], oomlint.toml,
# .oomlint.toml): discovery, keys, errors with file:line:col, precedence of
# flags, per-file-ignores, excludes, --show-settings; and .gitignore walking.
# Usage: bash test_config.sh PATH_TO_OOMLINT
. "$(dirname "$0")/lib.sh" "$@"

# a fresh project folder per case: configuration is searched upwards
project() {
  rm -rf proj && mkdir proj && cd proj || exit 2
}
leave() { cd "$SCRATCH" || exit 2; }

# OOM501 at 7:5, OOM502 at 8:5, OOM303 at 9:9
write_multi() {
  cat >"$1" <<'PY'
import gc
import torch

for batch in train_loader:
    x = batch[0]
    y = batch[1]
    torch.cuda.empty_cache()
    gc.collect()
state = torch.load(p)
PY
}
codes() { grep -oE ': OOM[0-9]{3} ' "$RES/out" | tr -d ': ' | tr '\n' ' ' | sed 's/ $//'; }
want_codes() {
  local got
  got=$(codes)
  [ "$got" = "$1" ] || fail "codes $(_show "$got"), expected $(_show "$1")"
}

# --- discovery -------------------------------------------------------------------

begin "pyproject.toml [tool.oomlint] select applies"
project
write_multi m.py
printf '[project]\nname = "x"\n\n[tool.oomlint]\nselect = ["OOM5"]\n' >pyproject.toml
oom --output-format concise m.py
want_rc 1 && want_codes "OOM501 OOM502"
leave
end

begin "pyproject.toml without [tool.oomlint] is skipped for the one above"
project
write_multi sub.py
printf 'select = ["OOM303"]\n' >oomlint.toml
mkdir pkg && write_multi pkg/m.py
printf '[project]\nname = "x"\n[tool.ruff]\nline-length = 100\n' >pkg/pyproject.toml
oom --output-format concise pkg/m.py
want_codes "OOM303"
leave
end

begin "oomlint.toml found from a nested folder"
project
printf 'ignore = ["OOM501", "OOM502"]\n' >oomlint.toml
mkdir -p a/b && write_multi a/b/m.py
oom --output-format concise a/b/m.py
want_codes "OOM303"
leave
end

begin ".oomlint.toml read"
project
write_multi m.py
printf 'extend-select = ["OOM5"]\nselect = ["OOM303"]\n' >.oomlint.toml
oom --output-format concise m.py
want_codes "OOM501 OOM502 OOM303"
leave
end

begin "the nearest file wins"
project
printf 'select = ["OOM303"]\n' >oomlint.toml
mkdir inner && write_multi inner/m.py && printf 'select = ["OOM501"]\n' >inner/oomlint.toml
oom --output-format concise inner/m.py
want_codes "OOM501"
leave
end

begin "--config PATH reads that file"
project
write_multi m.py
printf 'select = ["OOM303"]\n' >oomlint.toml
printf 'select = ["OOM502"]\n' >other.toml
oom --output-format concise --config other.toml m.py
want_codes "OOM502"
leave
end

begin "--isolated ignores configuration files"
project
write_multi m.py
printf 'select = ["OOM303"]\n' >oomlint.toml
oom --output-format concise --isolated m.py
want_codes "OOM501 OOM502 OOM303"
leave
end

begin "--isolated ignores even a broken file"
project
write_multi m.py
printf 'select = [\n' >oomlint.toml
oom --output-format concise --isolated m.py
want_rc 1
leave
end

# --- precedence ------------------------------------------------------------------

begin "--select beats the file's select"
project
write_multi m.py
printf 'select = ["OOM303"]\n' >oomlint.toml
oom --output-format concise --select OOM501 m.py
want_codes "OOM501"
leave
end

begin "--ignore adds to the file's selection"
project
write_multi m.py
printf 'select = ["OOM5"]\n' >oomlint.toml
oom --output-format concise --ignore OOM502 m.py
want_codes "OOM501"
leave
end

begin "--extend-select adds to the file's"
project
write_multi m.py
printf 'select = ["OOM303"]\n' >oomlint.toml
oom --output-format concise --extend-select OOM502 m.py
want_codes "OOM502 OOM303"
leave
end

begin "--gpu-memory beats gpu-memory"
project
write_multi m.py
printf 'gpu-memory = "24GiB"\nmax-batch-size = 64\n' >oomlint.toml
oom --show-settings --gpu-memory 80GB m.py
want_rc 0 && want_out "gpu-memory = 80000000000" && want_out "max-batch-size = 64"
leave
end

begin "--max-batch-size beats max-batch-size"
project
printf 'max-batch-size = 64\n' >oomlint.toml
oom --show-settings --max-batch-size 512 x.py
want_out "max-batch-size = 512"
leave
end

begin "--max-batch-size rejects a non-number"
oom --max-batch-size lots x.py
want_rc 2 && want_err "--max-batch-size"
end

# --- values ----------------------------------------------------------------------

begin "--show-settings prints the file and resolved values"
project
mkdir myrules
printf '[tool.oomlint]\ngpu-memory = "24GiB"\ntorch-version = "2.4"\nrules-dir = "myrules"\nexclude = ["gen/"]\n' >pyproject.toml
oom --show-settings x.py
want_rc 0 && want_out "config = \"$SCRATCH/proj/pyproject.toml\"" && want_out "gpu-memory = 25769803776" &&
  want_out "torch-version = 2.4" && want_out "rules-dir = $SCRATCH/proj/myrules" && want_out 'exclude = ["gen/"]'
leave
end

begin "torch-version older than 2.4 silences OOM402, OOM603, OOM604"
project
printf 'torch-version = "2.3"\n' >oomlint.toml
oom --show-settings x.py
want_out '"OOM401", "OOM403"' && want_no_out '"OOM402"' && want_no_out '"OOM603"' && want_no_out '"OOM604"'
leave
end

begin "torch-version 2.4 keeps them"
project
printf 'torch-version = "2.4"\n' >oomlint.toml
oom --show-settings x.py
want_out '"OOM402"' && want_out '"OOM603"' && want_out '"OOM604"'
leave
end

begin "torch-version 2.3: a deprecated amp call is not reported"
project
printf 'import torch\nscaler = torch.cuda.amp.GradScaler()\n' >amp.py
oom --output-format concise --isolated amp.py
before=$(codes)
printf 'torch-version = "2.3"\n' >oomlint.toml
oom --output-format concise amp.py
case $before in *OOM402*) want_no_out "OOM402" ;; *) fail "OOM402 not reported without a config: $(_show "$before")" ;; esac
leave
end

begin "rules-dir is relative to the configuration file"
project
mkdir -p cfgdir/myrules sub
cat >cfgdir/myrules/OOM901-print-in-loop.scm <<'SCM'
; code: OOM901
; name: print-in-loop
; severity: info
; message: print in a loop
; doc:
;   ## What it finds
;   A print call.
((call function: (identifier) @f) @report (#eq? @f "print"))
SCM
printf 'rules-dir = "myrules"\n' >cfgdir/oomlint.toml
printf 'print(1)\n' >sub/p.py
oom --output-format concise --config cfgdir/oomlint.toml sub/p.py
want_codes "OOM901"
leave
end

# --- errors ----------------------------------------------------------------------

begin "unknown key: exit 2, file:line:col and the key"
project
printf '# settings\nselect = ["OOM5"]\nselct = ["OOM1"]\n' >oomlint.toml
write_multi m.py
oom m.py
want_rc 2 && want_err "oomlint.toml:3:1: unknown key \`selct\`"
leave
end

begin "unknown key in [tool.oomlint] of pyproject.toml"
project
printf '[project]\nname = "x"\n\n[tool.oomlint]\nfoo = 1\n' >pyproject.toml
oom x.py
want_rc 2 && want_err "pyproject.toml:5:1: unknown key \`foo\`"
leave
end

begin "unknown sub-table of [tool.oomlint]"
project
printf '[tool.oomlint]\nselect = []\n[tool.oomlint.lint]\nx = 1\n' >pyproject.toml
oom x.py
want_rc 2 && want_err "pyproject.toml:3:2: unknown key \`lint\`"
leave
end

begin "wrong type: select as a string"
project
printf 'select = "OOM5"\n' >oomlint.toml
oom x.py
want_rc 2 && want_err "oomlint.toml:1:10: \`select\` must be an array of strings"
leave
end

begin "wrong type: max-batch-size as a string"
project
printf 'max-batch-size = "64"\n' >oomlint.toml
oom x.py
want_rc 2 && want_err "oomlint.toml:1:18: \`max-batch-size\` must be a positive integer"
leave
end

begin "bad value: gpu-memory"
project
printf '\ngpu-memory = "lots"\n' >oomlint.toml
oom x.py
want_rc 2 && want_err "oomlint.toml:2:14: \`gpu-memory\` must be a size"
leave
end

begin "bad value: a rule selector"
project
printf 'ignore = ["OOM501", "E501"]\n' >oomlint.toml
oom x.py
want_rc 2 && want_err "oomlint.toml:1:21: \`ignore\`: invalid rule selector"
leave
end

begin "bad value: torch-version"
project
printf 'torch-version = "latest"\n' >oomlint.toml
oom x.py
want_rc 2 && want_err "oomlint.toml:1:17: \`torch-version\` must be a version"
leave
end

begin "bad glob in exclude"
project
printf 'exclude = ["gen/[abc"]\n' >oomlint.toml
oom x.py
want_rc 2 && want_err "oomlint.toml:1:12: \`exclude\`: invalid glob"
leave
end

begin "bad glob in per-file-ignores"
project
printf '[per-file-ignores]\n"tests/[x" = ["OOM501"]\n' >oomlint.toml
oom x.py
want_rc 2 && want_err "oomlint.toml:2:1: \`per-file-ignores\`: invalid glob"
leave
end

begin "duplicate key"
project
printf 'select = ["OOM5"]\n\nselect = ["OOM3"]\n' >oomlint.toml
oom x.py
want_rc 2 && want_err "oomlint.toml:3:1: duplicate key \`select\`"
leave
end

begin "duplicate per-file-ignores glob"
project
printf 'per-file-ignores = { "a.py" = ["OOM5"], "a.py" = ["OOM3"] }\n' >oomlint.toml
oom x.py
want_rc 2 && want_err "duplicate key \`per-file-ignores.a.py\`"
leave
end

begin "TOML syntax error"
project
printf 'select = ["OOM5"]\nignore = [\n' >oomlint.toml
oom x.py
want_rc 2 && want_err "oomlint.toml:" && want_err "TOML syntax error"
leave
end

begin "--config of a missing file: exit 2"
oom --config nowhere.toml x.py
want_rc 2 && want_err "nowhere.toml"
end

begin "a broken file is an error for every subcommand"
project
printf 'selct = []\n' >oomlint.toml
oom rules
want_rc 2 && want_err "unknown key"
leave
end

# --- per-file-ignores ------------------------------------------------------------

begin "per-file-ignores: a glob with a folder"
project
mkdir tests src
write_multi tests/t.py
write_multi src/m.py
printf '[tool.oomlint.per-file-ignores]\n"tests/*" = ["OOM5"]\n' >pyproject.toml
oom --output-format concise .
want_line '^\./src/m\.py:7:5: OOM501' && want_line '^\./tests/t\.py:9:9: OOM303' && want_no_out "tests/t.py:7:5"
leave
end

begin "per-file-ignores: a base-name glob matches in any folder"
project
mkdir -p a/b
write_multi a/b/test_x.py
printf 'per-file-ignores = { "test_*.py" = ["OOM303", "OOM502"] }\n' >oomlint.toml
oom --output-format concise a/b/test_x.py
want_codes "OOM501"
leave
end

begin "per-file-ignores: an explicit relative path from another folder"
project
mkdir -p tests sub
write_multi tests/t.py
printf '[per-file-ignores]\n"tests/t.py" = ["ALL"]\n' >oomlint.toml
cd sub && oom --output-format concise ../tests/t.py && cd ..
want_rc 0 && want_codes ""
leave
end

begin "per-file-ignores: other files untouched"
project
write_multi a.py
write_multi b.py
printf 'per-file-ignores = { "a.py" = ["ALL"] }\n' >oomlint.toml
oom --output-format concise a.py b.py
want_rc 1 && want_no_out "a.py:" && want_line '^b\.py:7:5: OOM501'
leave
end

begin "per-file-ignores applies to json"
project
write_multi a.py
printf 'per-file-ignores = { "a.py" = ["OOM501"] }\n' >oomlint.toml
oom --output-format json a.py
want_js 'a.map((d) => d.code).join()' "OOM502,OOM303"
leave
end

# --- excludes --------------------------------------------------------------------

begin "exclude: a folder is not walked"
project
mkdir gen src
write_multi gen/g.py
write_multi src/m.py
printf 'exclude = ["gen"]\n' >oomlint.toml
oom --output-format concise .
want_out "src/m.py" && want_no_out "gen/g.py"
leave
end

begin "extend-exclude: a glob"
project
mkdir src
write_multi src/m.py
write_multi src/m_pb2.py
printf 'extend-exclude = ["*_pb2.py"]\n' >oomlint.toml
oom --output-format concise .
want_out "src/m.py" && want_no_out "m_pb2.py"
leave
end

begin "exclude: a file given by name is still linted"
project
mkdir gen
write_multi gen/g.py
printf 'exclude = ["gen"]\n' >oomlint.toml
oom --output-format concise gen/g.py
want_rc 1 && want_out "gen/g.py:7:5: OOM501"
leave
end

begin "exclude and per-file-ignores: folders above the configuration's do not match"
# the project lives in a folder called `gen`; walked by absolute path, its
# files must not match `exclude = ["gen"]` through that parent folder
rm -rf gen && mkdir -p gen/proj/src && cd gen/proj || exit 2
write_multi src/m.py
printf 'exclude = ["gen"]\n[per-file-ignores]\n"gen" = ["OOM5"]\n' >oomlint.toml
oom --output-format concise "$SCRATCH/gen/proj"
want_rc 1 && want_out "src/m.py:7:5: OOM501"
cd "$SCRATCH" && rm -rf gen
end

# --- .gitignore ------------------------------------------------------------------

# a repository with root and nested .gitignore files
gitrepo() {
  project
  mkdir .git
  mkdir -p data/raw build_out sub/gen sub/keep logs deep/a/b
  for f in top.py data/raw/r.py build_out/b.py sub/s.py sub/gen/g.py sub/keep/k.py logs/l.py \
    deep/a/b/d.py deep/a/x.py skip.py sub/skip.py; do write_multi "$f"; done
  printf '# ignored things\ndata/\n/skip.py\nbuild_*/\nlogs\n**/b/*.py\n' >.gitignore
  printf 'gen/\n*.py\n!s.py\n!keep/\n' >sub/.gitignore
  printf '!k.py\n' >sub/keep/.gitignore
}
walked() { grep -oE '^[^:]+\.py' "$RES/out" | sort -u | tr '\n' ' ' | sed 's/ $//'; }
want_walked() {
  local got
  got=$(walked)
  [ "$got" = "$1" ] || fail "linted $(_show "$got"), expected $(_show "$1")"
}

begin ".gitignore: root and nested rules, negations, folders, anchors, **"
gitrepo
oom --output-format concise --select OOM501 .
want_walked "./deep/a/x.py ./sub/keep/k.py ./sub/s.py ./top.py"
leave
end

begin ".gitignore: an anchored /skip.py leaves sub/skip.py to the nested rules"
gitrepo
printf 'gen/\n' >sub/.gitignore
oom --output-format concise --select OOM501 sub
want_walked "sub/keep/k.py sub/s.py sub/skip.py"
leave
end

begin ".gitignore: walking a subfolder still obeys the root's rules"
gitrepo
oom --output-format concise --select OOM501 deep
want_walked "deep/a/x.py"
leave
end

begin ".gitignore: a file given by name is always linted"
gitrepo
oom --output-format concise --select OOM501 data/raw/r.py sub/gen/g.py
want_walked "data/raw/r.py sub/gen/g.py"
leave
end

begin ".gitignore outside a repository still applies to the walked folder"
project
mkdir out
write_multi out/o.py
write_multi in.py
printf 'out/\n' >.gitignore
oom --output-format concise --select OOM501 .
want_walked "./in.py"
leave
end

begin ".gitignore above the repository root is not read"
project
printf '*.py\n' >.gitignore
mkdir repo && mkdir repo/.git && write_multi repo/r.py
oom --output-format concise --select OOM501 repo
want_walked "repo/r.py"
leave
end

finish
