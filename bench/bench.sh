#!/usr/bin/env bash
# Benchmark (not a test): oomlint against the tree-sitter parse floor and peer
# linters on a pinned corpus of real PyTorch code; prints one table. See README.md.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
BUILD=${BUILD:-$root/build-bench}              # a -DCMAKE_BUILD_TYPE=Release build
CORPUS=${CORPUS:-/tmp/oomlint-corpus}          # made from corpus.lock when absent
MIRRORS=${MIRRORS:-}                           # optional: folder of owner+name git mirrors
MIN_MB=${MIN_MB:-20}                           # duplicate the corpus up to this size
PEER_KB=${PEER_KB:-1000}                       # flake8 subset in kB (0: all files)
PYLINT_KB=${PYLINT_KB:-150}                    # pylint subset in kB: it runs at ~10 kB/s
RUFF_WASM=${RUFF_WASM:-}                       # path of @astral-sh/ruff-wasm-nodejs
work=${WORK_DIR:-/tmp/oomlint-bench}
mkdir -p "$work"

say() { printf '%s\n' "$*" >&2; }

# --- corpus: *.py files of each pinned repository at its commit ------------
git_dir() { # owner/name -> a git directory holding its commit
  local name=${1/\//+}
  for d in "$MIRRORS/$name/repo/.git" "$MIRRORS/$name/repo" "$work/git/$name.git"; do
    [[ -n "$MIRRORS" || $d == "$work"/* ]] && git --git-dir="$d" cat-file -e "$2^{commit}" 2>/dev/null && { echo "$d"; return; }
  done
  say "cloning $1 (blobs on demand) into $work/git"
  git clone -q --bare --filter=blob:none "https://github.com/$1" "$work/git/$name.git"
  echo "$work/git/$name.git"
}

if [[ ! -d $CORPUS/base ]]; then
  mkdir -p "$CORPUS/base.part"
  grep -v '^#' "$here/corpus.lock" | while read -r repo commit; do
    [[ -n $repo ]] || continue
    g=$(git_dir "$repo" "$commit")
    git --git-dir="$g" ls-tree -r --name-only "$commit" | { grep '\.py$' || true; } | while read -r p; do
      out="$CORPUS/base.part/${repo/\//+}/$p"
      mkdir -p "$(dirname "$out")"
      git --git-dir="$g" show "$commit:$p" >"$out"
    done
  done
  mv "$CORPUS/base.part" "$CORPUS/base"
fi
# duplicate whole copies of the real files until the corpus reaches MIN_MB
base_bytes=$(find "$CORPUS/base" -name '*.py' -type f -print0 | du -cb --files0-from=- | tail -1 | cut -f1)
copies=$(( (MIN_MB * 1000000 + base_bytes - 1) / base_bytes ))
for ((i = 1; i < copies; i++)); do
  [[ -d $CORPUS/copy$i ]] || cp -r "$CORPUS/base" "$CORPUS/copy$i"
done
find "$CORPUS" -name '*.py' -type f | sort >"$work/files"
bytes=$(tr '\n' '\0' <"$work/files" | du -cb --files0-from=- | tail -1 | cut -f1)
nfiles=$(wc -l <"$work/files")
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
say "corpus: $nfiles files, $(mb "$bytes") MB ($copies copies of $(mb "$base_bytes") MB of real files)"

# --- the floor and the in-process harness, built from the same grammar --------
grammar=$BUILD/grammars/node_modules/tree-sitter-python/src
[[ -x $BUILD/oomlint ]] || { say "no $BUILD/oomlint: cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release && cmake --build build-bench"; exit 2; }
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$grammar" -o "$work/parse_floor" "$here/parse_floor.c" \
  "$grammar/parser.c" "$grammar/scanner.c" $(pkg-config --cflags --libs tree-sitter)
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$root/include" -o "$work/lint_times" "$here/lint_times.c" \
  "$BUILD/liboomlint.a" "$BUILD"/liboom_grammar_*.a $(pkg-config --libs tree-sitter libpcre2-8 jansson) -lpthread -lm

# --- measurements ------------------------------------------------------------
field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$2"; }
timed() { # command... -> "seconds max_rss_kb" of the whole process
  local log=$work/time.log
  /usr/bin/time -v -o "$log" "$@" >/dev/null 2>&1 || true
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$log")
  rss=$(awk -F': ' '/Maximum resident/ { print $2 }' "$log")
  echo "$wall $rss"
}
rate() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.2f", (s > 0 ? b / 1e6 / s : 0) }'; }
rows=()
row() { rows+=("$(printf '%-44s %9s %9s %10s  %s' "$@")"); }

# read every file once first: the first row measured would otherwise pay
# the disk reads the later rows find in the page cache
tr '\n' '\0' <"$work/files" | xargs -0 cat >/dev/null
floor=$("$work/parse_floor" parse <"$work/files")
walk=$("$work/parse_floor" walk <"$work/files")
floor_s=$(field seconds "$floor")
row "tree-sitter parse only (floor)" "$(field mbps "$floor")" "1.00" "-" "in process"
row "tree-sitter parse + cursor walk" "$(field mbps "$walk")" "$(awk -v a="$(field seconds "$walk")" -v b="$floor_s" 'BEGIN{printf "%.2f", a/b}')" "-" "in process"

lt=$("$work/lint_times" <"$work/files")
row "oomlint (library, 1 thread)" "$(field mbps "$lt")" "$(awk -v a="$(field seconds "$lt")" -v b="$floor_s" 'BEGIN{printf "%.2f", a/b}')" "-" \
  "setup $(field setup_ms "$lt") ms; per file p50 $(field p50_ms "$lt") p90 $(field p90_ms "$lt") p99 $(field p99_ms "$lt") max $(field max_ms "$lt") ms"

# one thread: builds with -j default to one per core
one=()
"$BUILD/oomlint" --help 2>&1 | grep -q -- '-j' && one=(-j 1)
# cold runs: no result cache (the warm run below measures it)
nocache=()
"$BUILD/oomlint" --help 2>&1 | grep -q -- '--no-cache' && nocache=(--no-cache)
read -r s rss < <(timed "$BUILD/oomlint" check "${one[@]}" "${nocache[@]}" --exit-zero -q --output-format concise "$CORPUS")
row "oomlint check (whole process, 1 thread)" "$(rate "$bytes" "$s")" "$(awk -v a="$s" -v b="$floor_s" 'BEGIN{printf "%.2f", a/b}')" "$((rss / 1024)) MB" "${s}s"
one_s=$s
if [[ ${#one[@]} -gt 0 ]]; then
  read -r s rss < <(timed "$BUILD/oomlint" check -j 2 "${nocache[@]}" --exit-zero -q --output-format concise "$CORPUS")
  row "oomlint check -j 2" "$(rate "$bytes" "$s")" "-" "$((rss / 1024)) MB" "speed-up $(awk -v a="$one_s" -v b="$s" 'BEGIN{printf "%.2f", a/b}')x"
else
  row "oomlint check -j 2" "-" "-" "-" "skipped: this build has no -j"
fi
# the result cache: a first run fills it, an unchanged second run reads it
if [[ ${#nocache[@]} -gt 0 ]]; then
  timed "$BUILD/oomlint" check --cache-dir "$work/cache" --exit-zero -q --output-format concise "$CORPUS" >/dev/null
  read -r s rss < <(timed "$BUILD/oomlint" check --cache-dir "$work/cache" --exit-zero -q --output-format concise "$CORPUS")
  row "oomlint check, warm result cache" "$(rate "$bytes" "$s")" "$(awk -v a="$s" -v b="$floor_s" 'BEGIN{printf "%.3f", a/b}')" "$((rss / 1024)) MB" "${s}s, unchanged files"
fi
# peak RSS on the largest single file under 1 MB
big=$(tr '\n' '\0' <"$work/files" | xargs -0 stat -c '%s %n' | awk '$1 < 1000000' | sort -n | tail -1)
read -r s rss < <(timed "$BUILD/oomlint" check "${one[@]}" "${nocache[@]}" --exit-zero -q "${big#* }")
row "oomlint, largest file ($(mb "${big%% *}") MB)" "-" "-" "$((rss / 1024)) MB" "${s}s"

# one small file in a fresh process, as a pre-commit hook or a save in an
# editor without the server runs it: the setup (compiling the rule query)
# counts here as much as the lint; median of COLD_RUNS
median_ms() { # command... -> median wall-clock milliseconds of COLD_RUNS runs
  local t=()
  for ((i = 0; i < ${COLD_RUNS:-11}; i++)); do
    local a b
    a=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    b=$(date +%s%N)
    t+=($(((b - a) / 1000)))
  done
  printf '%s\n' "${t[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] / 1000 }'
}
small=$root/examples/train.py
small_note="$(basename "$small"), $(($(stat -c %s "$small") / 1024)) kB"
row "oomlint check, one small file, cold" "-" "-" "-" \
  "median $(median_ms "$BUILD/oomlint" check "${nocache[@]}" --exit-zero -q "$small") ms ($small_note)"

# peers, each with its default rules; flake8 and pylint on a subset (PEER_KB, PYLINT_KB)
subset() { # kB list out -> the first files of the list up to kB (0: all)
  awk -v lim=$(($1 * 1000)) '{ c = "stat -c %s \"" $0 "\""; c | getline n; close(c); print; t += n; if (lim && t >= lim) exit }' "$2" >"$3"
}
subset "$PEER_KB" "$work/files" "$work/peer_files"
subset "$PYLINT_KB" "$work/files" "$work/pylint_files"
note() { echo "on $(wc -l <"$1") files, $(mb "$2") MB"; }
peer_bytes=$(tr '\n' '\0' <"$work/peer_files" | du -cb --files0-from=- | tail -1 | cut -f1)
pylint_bytes=$(tr '\n' '\0' <"$work/pylint_files" | du -cb --files0-from=- | tail -1 | cut -f1)
peer_note=$(note "$work/peer_files" "$peer_bytes")
if command -v flake8 >/dev/null; then
  for j in 1 2; do
    read -r s rss < <(timed xargs -a "$work/peer_files" -d '\n' flake8 -j $j --exit-zero)
    row "flake8 $(flake8 --version | head -1 | cut -d' ' -f1) -j $j" "$(rate "$peer_bytes" "$s")" "-" "$((rss / 1024)) MB" "$peer_note"
  done
  row "flake8, one small file, cold" "-" "-" "-" "median $(median_ms flake8 --exit-zero "$small") ms ($small_note)"
else row "flake8" "-" "-" "-" "not installed (apt-get install flake8)"; fi
if command -v pylint >/dev/null; then
  read -r s rss < <(timed xargs -a "$work/pylint_files" -d '\n' pylint --exit-zero -j 1)
  row "pylint $(pylint --version | head -1 | cut -d' ' -f2) -j 1" "$(rate "$pylint_bytes" "$s")" "-" "$((rss / 1024)) MB" "$(note "$work/pylint_files" "$pylint_bytes")"
else row "pylint" "-" "-" "-" "not installed (apt-get install pylint)"; fi
if command -v node >/dev/null && { [[ -n $RUFF_WASM ]] || node -e 'require.resolve("@astral-sh/ruff-wasm-nodejs")' 2>/dev/null; }; then
  ruff=$(RUFF_WASM=$RUFF_WASM node "$here/ruff_wasm.js" <"$work/files")
  read -r s rss < <(timed env RUFF_WASM="$RUFF_WASM" node "$here/ruff_wasm.js" <"$work/files")
  row "$(cut -d' ' -f1-2 <<<"$ruff") (1 thread)" "$(rate "$bytes" "$s")" "-" "$((rss / 1024)) MB" "whole process; in loop $(field mbps "$ruff") MB/s"
  row "ruff-wasm, one small file, cold" "-" "-" "-" \
    "median $(median_ms env RUFF_WASM="$RUFF_WASM" node "$here/ruff_wasm.js" <<<"$small") ms ($small_note; with node's start)"
else row "ruff-wasm" "-" "-" "-" "not installed (npm install @astral-sh/ruff-wasm-nodejs; RUFF_WASM=its path)"; fi

printf '\noomlint %s (commit %s), %s, %s, %s files, %s MB\n' "$("$BUILD/oomlint" --version | awk '{print $NF}')" \
  "$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet || echo +changes)" "$(date -u +%FT%TZ)" \
  "$(nproc) cores" "$nfiles" "$(mb "$bytes")"
printf '%-44s %9s %9s %10s  %s\n' "" "MB/s" "x floor" "peak RSS" "notes"
printf '%s\n' "${rows[@]}"

if [[ -f $here/lsp_latency.js ]] && command -v node >/dev/null; then
  printf '\nLSP relint after a one-character edit in a 5,000-line file:\n'
  node "$here/lsp_latency.js" "$BUILD/oomlint" --runs "${LSP_RUNS:-50}" 2>&1 | tail -5
fi

# how often the partial relint applies to an edit of a real file, and how
# often it disagrees with a whole-file lint (the server's lint after a pause
# corrects those)
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$root/include" -o "$work/partial_relint" "$here/partial_relint.c" \
  "$BUILD/liboomlint.a" "$BUILD"/liboom_grammar_*.a $(pkg-config --libs tree-sitter libpcre2-8 jansson) -lpthread -lm
printf '\nPartial relints, %s random edits (typed, then deleted) per real file:\n' "${PARTIAL_EDITS:-5}"
grep "/base/" "$work/files" | "$work/partial_relint" "${PARTIAL_EDITS:-5}"
