#!/usr/bin/env python3
"""Precision of the semantic rules on repositories outside the manifest.

The pool is precision_pool.tsv (repo, commit), materialized with
`materialize.sh -m precision_pool.tsv OUT`. Every finding of the checked
codes on the pool is read by hand and its verdict kept in precision.tsv
(repo, commit, path, line, code, verdict right|wrong, why).

  precision.py list    [--out OUT] [--oomlint PATH]   findings without a verdict, as TSV rows to judge
  precision.py summary [--out OUT] [--oomlint PATH]   files linted, findings, and right/wrong per code
  (--reuse: the findings of the last run, saved in OUT/findings.json;
   --pool FILE: lint only the repositories FILE names, a repo/commit TSV such as
   one holdout's rows of precision_pool.tsv, and judge stale verdicts of those only)

`summary` lints the pool again and matches each finding to a verdict of the
same file, code and line (exactly: the pool does not change), so a verdict
whose finding is gone is reported as stale and a new finding as unjudged.
Python 3 standard library only.
"""

import argparse
import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CODES = ("OOM101", "OOM102", "OOM201", "OOM403", "OOM404", "OOM405")


def read_tsv(path, want):
    rows = []
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        if header != want:
            sys.exit(f"{path}: header must be {' '.join(want)}")
        for n, raw in enumerate(f, start=2):
            raw = raw.rstrip("\n")
            if raw:
                cols = raw.split("\t")
                if len(cols) != len(want):
                    sys.exit(f"{path}:{n}: {len(cols)} columns, {len(want)} expected")
                rows.append(dict(zip(want, cols)))
    return rows


def lint_pool(out, oomlint, pool):
    """[(repo, commit, path, line, code, message)] and the number of files linted."""
    found, nfiles = [], 0
    for p in pool:
        folder = os.path.join(out, p["repo"].replace("/", "+") + "@" + p["commit"][:12])
        if not os.path.isdir(folder):
            sys.exit(f"{folder} is missing: run materialize.sh -m precision_pool.tsv {out}")
        files = []
        for d, dirs, names in os.walk(folder):
            dirs[:] = sorted(x for x in dirs if x != ".git")
            # isfile: a repository's dangling link (ParallelWaveGAN has one) is no file to lint
            files += [os.path.relpath(os.path.join(d, n), folder) for n in sorted(names)
                      if n.endswith(".py") and os.path.isfile(os.path.join(d, n))]
        nfiles += len(files)
        cmd = [oomlint, "check", "--output-format", "json", "--select", ",".join(CODES),
               "--no-cache", "--isolated", "--exit-zero", "--"] + files
        proc = subprocess.run(cmd, cwd=folder, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"oomlint failed on {p['repo']}: exit {proc.returncode}: {proc.stderr[:300]}")
        for f in json.loads(proc.stdout or "[]"):
            if f["code"] not in CODES:  # OOM000 is reported whatever the selection
                continue
            found.append((p["repo"], p["commit"], os.path.normpath(f["filename"]),
                          f["location"]["row"], f["code"], f["message"]))
    return sorted(found), nfiles


def is_test_file(path):
    parts = path.split(os.sep)
    name = parts[-1]
    return any(p in ("test", "tests") for p in parts[:-1]) or name.startswith("test_") or name.endswith("_test.py")


def table(counts):
    print(f"{'code':8} {'findings':>8} {'right':>6} {'wrong':>6} {'unjudged':>8} {'precision':>9}")
    for c in CODES:
        s = counts[c]
        n = s["right"] + s["wrong"]
        prec = f"{100.0 * s['right'] / n:.1f}%" if n else "-"
        print(f"{c:8} {sum(s.values()):8} {s['right']:6} {s['wrong']:6} {s['unjudged']:8} {prec:>9}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["list", "summary"])
    ap.add_argument("--out", default=os.environ.get("OOMLINT_PRECISION", "/tmp/oomlint-precision"))
    ap.add_argument("--oomlint", default=os.path.join(ROOT, "build", "oomlint"))
    ap.add_argument("--reuse", action="store_true",
                    help="read the findings the last run saved in OUT/findings.json instead of linting again")
    ap.add_argument("--pool", default=os.path.join(HERE, "precision_pool.tsv"),
                    help="the repositories to lint (repo, commit TSV); default: the whole pool")
    args = ap.parse_args()

    pool = read_tsv(args.pool, ["repo", "commit"])
    in_pool = {(p["repo"], p["commit"]) for p in pool}
    verdict_path = os.path.join(HERE, "precision.tsv")
    verdicts = read_tsv(verdict_path, ["repo", "commit", "path", "line", "code", "verdict", "why"]) \
        if os.path.exists(verdict_path) else []
    judged = {(v["repo"], v["commit"], v["path"], int(v["line"]), v["code"]): v for v in verdicts}
    saved = os.path.join(args.out, "findings.json")
    if args.reuse:
        with open(saved, encoding="utf-8") as f:
            data = json.load(f)
        found, nfiles = [tuple(x) for x in data["findings"]], data["files"]
    else:
        found, nfiles = lint_pool(args.out, args.oomlint, pool)
        with open(saved, "w", encoding="utf-8") as f:
            json.dump({"files": nfiles, "findings": found}, f)

    if args.mode == "list":
        for repo, commit, path, line, code, msg in found:
            if (repo, commit, path, line, code) not in judged:
                print(f"{repo}\t{commit}\t{path}\t{line}\t{code}\t\t{msg}")
        return 0

    counts = {c: collections.Counter() for c in CODES}
    outside_tests = {c: collections.Counter() for c in CODES}
    current = set()
    for repo, commit, path, line, code, _ in found:
        key = (repo, commit, path, line, code)
        current.add(key)
        v = judged.get(key)
        verdict = v["verdict"] if v else "unjudged"
        counts[code][verdict] += 1
        if not is_test_file(path):
            outside_tests[code][verdict] += 1
    print(f"{nfiles} files from {len(pool)} repositories")
    table(counts)
    print("\nthe same, leaving out test suites (a test/ or tests/ folder, test_*.py, *_test.py):")
    table(outside_tests)
    stale = [k for k in judged if k not in current and (k[0], k[1]) in in_pool]
    for k in stale:
        print(f"stale verdict (no such finding now): {k[0]} {k[2]}:{k[3]} {k[4]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
