#!/usr/bin/env python3
"""Recall and false alarms of oomlint on the labeled real-world lines.

Reads manifest.tsv (repo, commit, path, line, code, label, why), lints every
labeled file inside its materialized project folder (see materialize.sh) with
`oomlint check --output-format json`, and prints per code: positives, found,
recall, negatives, false alarms, false-alarm rate, and the overall figures.

Matching: a finding matches a label when it is in the same file, has the same
code and its line is within +-TOLERANCE (default 1) of the labeled line; a
finding within reach of several labels counts for the nearest one only (ties
go to the earlier line). A positive is found when a finding counts for it; a
negative is a false alarm when one does. Findings on unlabeled lines are not
scored (the manifest does not say whether they are right); --verbose counts
them.

usage: score.py [--out DIR] [--oomlint PATH] [--manifest TSV]
                [--tolerance N] [--verbose] [--jobs N] [--json FILE]
Python 3 standard library only.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The codes issue 14 sets its targets on; "overall" also counts the others.
CORE = ("OOM101", "OOM102", "OOM103", "OOM201", "OOM302", "OOM304")

Label = collections.namedtuple("Label", "row repo commit path line code label why")


def read_manifest(path):
    labels = []
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        want = ["repo", "commit", "path", "line", "code", "label", "why"]
        if header != want:
            sys.exit(f"{path}: header must be {' '.join(want)}, not {' '.join(header)}")
        for n, raw in enumerate(f, start=2):
            raw = raw.rstrip("\n")
            if not raw:
                continue
            cols = raw.split("\t")
            if len(cols) != 7:
                sys.exit(f"{path}:{n}: {len(cols)} columns, 7 expected")
            repo, commit, fpath, line, code, label, why = cols
            if label not in ("pos", "neg"):
                sys.exit(f"{path}:{n}: label must be pos or neg, not {label!r}")
            if not line.isdigit():
                sys.exit(f"{path}:{n}: line must be a number, not {line!r}")
            labels.append(Label(n, repo, commit, fpath, int(line), code, label, why))
    return labels


def project_dir(out, repo, commit):
    return os.path.join(out, repo.replace("/", "+") + "@" + commit[:12])


def lint_project(oomlint, folder, paths):
    """Findings of oomlint on PATHS (relative to FOLDER), linted from FOLDER."""
    cmd = [oomlint, "check", "--output-format", "json", "--select", "ALL",
           "--no-cache", "--isolated", "--exit-zero", "--"] + sorted(paths)
    proc = subprocess.run(cmd, cwd=folder, capture_output=True, text=True)
    if proc.returncode != 0:
        return None, f"exit {proc.returncode}: {proc.stderr.strip()[:300]}"
    try:
        findings = json.loads(proc.stdout or "[]")
    except json.JSONDecodeError as e:
        return None, f"unreadable JSON ({e})"
    out = []
    for f in findings:
        name = os.path.normpath(f.get("filename", ""))
        if os.path.isabs(name):
            name = os.path.relpath(name, folder)
        out.append((name, f.get("code"), f["location"]["row"]))
    return out, None


def pct(num, den):
    return f"{100.0 * num / den:5.1f}%" if den else "    -"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.environ.get("OOMLINT_REALWORLD", "/tmp/oomlint-realworld"),
                    help="folder materialize.sh wrote (default $OOMLINT_REALWORLD or /tmp/oomlint-realworld)")
    ap.add_argument("--oomlint", default=os.path.join(ROOT, "build", "oomlint"))
    ap.add_argument("--manifest", default=os.path.join(HERE, "manifest.tsv"))
    ap.add_argument("--tolerance", type=int, default=1)
    ap.add_argument("--verbose", action="store_true", help="list misses and false alarms by manifest row")
    ap.add_argument("--jobs", type=int, default=2, help="projects linted at once")
    ap.add_argument("--json", metavar="FILE", help="also write the counts per code and the row numbers of misses and false alarms to FILE")
    args = ap.parse_args()

    labels = read_manifest(args.manifest)
    if not os.access(args.oomlint, os.X_OK):
        sys.exit(f"no oomlint at {args.oomlint} (build it, or pass --oomlint)")

    # One oomlint run per project folder, on that folder's labeled files.
    by_project = collections.defaultdict(set)
    for lab in labels:
        by_project[(lab.repo, lab.commit)].add(lab.path)
    missing = [p for p in by_project if not os.path.isdir(project_dir(args.out, *p))]
    if missing:
        sys.exit(f"{len(missing)} project folders are not under {args.out}; run "
                 f"bench/realworld/materialize.sh {args.out} first (first missing: {missing[0][0]})")

    findings = {}  # (repo, commit) -> [(path, code, row)]
    errors = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = {pool.submit(lint_project, args.oomlint, project_dir(args.out, *p), paths): p
                for p, paths in by_project.items()}
        for fut in concurrent.futures.as_completed(futs):
            got, err = fut.result()
            if err:
                errors[futs[fut]] = err
                got = []
            findings[futs[fut]] = got

    # Each finding counts for its nearest label of the same file and code.
    index = collections.defaultdict(list)
    for i, lab in enumerate(labels):
        index[(lab.repo, lab.commit, lab.path, lab.code)].append(i)
    hit = [False] * len(labels)
    unlabeled = collections.Counter()
    for proj, items in findings.items():
        for path, code, row in items:
            cands = [i for i in index.get((proj[0], proj[1], path, code), [])
                     if abs(labels[i].line - row) <= args.tolerance]
            if not cands:
                unlabeled[code] += 1
                continue
            best = min(cands, key=lambda i: (abs(labels[i].line - row), labels[i].line))
            hit[best] = True

    codes = sorted({lab.code for lab in labels})
    stats = {c: collections.Counter() for c in codes}
    for i, lab in enumerate(labels):
        s = stats[lab.code]
        if lab.label == "pos":
            s["pos"] += 1
            s["found"] += hit[i]
        else:
            s["neg"] += 1
            s["fa"] += hit[i]

    head = f"{'code':8} {'positives':>9} {'found':>6} {'recall':>7}  {'negatives':>9} {'false alarms':>12} {'FA rate':>7}"
    print(head)
    print("-" * len(head))
    total = collections.Counter()
    core = collections.Counter()
    for c in codes:
        s = stats[c]
        total.update(s)
        if c in CORE:
            core.update(s)
        print(f"{c:8} {s['pos']:9} {s['found']:6} {pct(s['found'], s['pos']):>7}  "
              f"{s['neg']:9} {s['fa']:12} {pct(s['fa'], s['neg']):>7}")
    print("-" * len(head))
    print(f"{'core 6':8} {core['pos']:9} {core['found']:6} {pct(core['found'], core['pos']):>7}  "
          f"{core['neg']:9} {core['fa']:12} {pct(core['fa'], core['neg']):>7}")
    print(f"{'overall':8} {total['pos']:9} {total['found']:6} {pct(total['found'], total['pos']):>7}  "
          f"{total['neg']:9} {total['fa']:12} {pct(total['fa'], total['neg']):>7}")
    repos = len({lab.repo for lab in labels})
    print(f"\ncore 6: {', '.join(CORE)}; overall: every labeled code")
    print(f"{len(labels)} labels from {repos} repositories ({len(by_project)} commits); "
          f"a finding matches a label of the same file and code within +-{args.tolerance} line(s)")
    for proj, err in sorted(errors.items()):
        print(f"oomlint failed on {proj[0]}@{proj[1][:12]}: {err}", file=sys.stderr)

    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({
                "tolerance": args.tolerance,
                "codes": {c: dict(stats[c]) for c in codes},
                "core": dict(core), "overall": dict(total),
                "misses": [lab.row for i, lab in enumerate(labels) if lab.label == "pos" and not hit[i]],
                "false_alarms": [lab.row for i, lab in enumerate(labels) if lab.label == "neg" and hit[i]],
            }, f, indent=1)

    if args.verbose:
        print("\nmisses (positives not reported):")
        for i, lab in enumerate(labels):
            if lab.label == "pos" and not hit[i]:
                print(f"  row {lab.row:3}  {lab.code}  {lab.repo}@{lab.commit[:12]} {lab.path}:{lab.line}  -- {lab.why}")
        print("\nfalse alarms (negatives reported):")
        for i, lab in enumerate(labels):
            if lab.label == "neg" and hit[i]:
                print(f"  row {lab.row:3}  {lab.code}  {lab.repo}@{lab.commit[:12]} {lab.path}:{lab.line}  -- {lab.why}")
        print("\nfindings on unlabeled lines of the labeled files (not scored): "
              + (", ".join(f"{c} {n}" for c, n in sorted(unlabeled.items())) or "none"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
