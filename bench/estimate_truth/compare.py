#!/usr/bin/env python3
"""Compare `oomlint estimate --output-format json` with what PyTorch keeps for one training step.

    compare.py [--measure [NAME...]] [--markdown]

--measure runs the cases (cases/*.py, with $PYTHON: a Python with PyTorch and torchvision,
Debian's python3 from python3-torch) and stores their results in truth.json; without it the
stored truth is used, so the comparison needs neither PyTorch nor the network.  The scripts
must be materialized (materialize.sh).  $OOMLINT is the binary (default build/oomlint from
the repository root).  Needs only the standard library.
"""
import json
import os
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FETCHED = os.environ.get("TRUTH_FETCHED", os.path.join(HERE, "fetched"))
TRUTH = os.path.join(HERE, os.environ.get("TRUTH_FILE", "truth.json"))


def rows():
    with open(os.path.join(HERE, "scripts.tsv"), encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]


def measure(selected):
    python = os.environ.get("PYTHON", "python3")
    truth = load_truth()
    for r in rows():
        if selected and r["name"] not in selected:
            continue
        cmd = [python] + shlex.split(r["case"])
        cmd[1] = os.path.join(HERE, cmd[1])
        t0 = time.time()
        p = subprocess.run(cmd, capture_output=True, text=True)
        lines = [line for line in p.stdout.splitlines() if line.startswith("{")]
        if p.returncode or not lines:
            print(f"{r['name']}: case failed ({p.returncode}):\n{p.stderr[-2000:]}", file=sys.stderr)
            continue
        result = json.loads(lines[-1])
        result["case_seconds"] = round(time.time() - t0, 1)
        truth[r["name"]] = result
        print(f"measured {r['name']}: {result['saved_activation_bytes']:,} bytes saved, {result['case_seconds']} s", file=sys.stderr)
        with open(TRUTH, "w", encoding="utf-8") as f:
            json.dump(truth, f, indent=1, sort_keys=True)
            f.write("\n")


def load_truth():
    if not os.path.exists(TRUTH):
        return {}
    with open(TRUTH, encoding="utf-8") as f:
        return json.load(f)


def run_oomlint(r):
    """oomlint's JSON for a row, with the row's argv and --assume values when this oomlint takes them."""
    binary = os.environ.get("OOMLINT", os.path.join(ROOT, "build", "oomlint"))
    script = os.path.join(FETCHED, r["name"], r["script"])
    assume = [] if r["assume"] == "-" else r["assume"].split(",")
    argv = [] if r["args"] == "-" else r["args"].split()
    base = [binary, "estimate", "--output-format", "json"]
    rest = ["--"] + argv if argv else []
    full = base + [a for kv in assume for a in ("--assume", kv)] + [script] + rest
    tries = [(full, "")]
    if assume:
        tries.append((base + [script] + rest, "without --assume: this oomlint refused it"))
    if argv:
        what = "--assume or the script's arguments" if assume else "the script's arguments"
        tries.append((base + [script], f"without {what}: this oomlint refused them"))
    for cmd, how in tries:
        t0 = time.time()
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=os.path.dirname(script))
        dt = time.time() - t0
        if p.returncode in (0, 1) and p.stdout.strip().startswith(("{", "[")):
            out = json.loads(p.stdout)
            if isinstance(out, list):  # several files: the script's is the first
                out = out[0]
            return out, dt, how
    return None, 0.0, f"oomlint failed ({p.returncode}): {p.stderr.strip()[:200]}"


def pick(models, wanted):
    if wanted == "-" or not models:
        return models
    names = wanted.split(",")
    chosen = [m for m in models if m.get("name") in names]
    return chosen or models


def human(n):
    if n is None:
        return "-"
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(n) >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} B"


def count(n):
    return "-" if n is None else f"{n:,}"


def main(argv):
    if "--measure" in argv:
        i = argv.index("--measure")
        names = [a for a in argv[i + 1:] if not a.startswith("--")]
        measure(set(names))
    truth = load_truth()
    # PyTorch 2.x on CUDA, where it was measured (truth-gpu.tsv): what oomlint models
    gpu = {}
    gpu_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "truth-gpu.tsv")
    if os.path.exists(gpu_path):
        with open(gpu_path) as f:
            for line in list(f)[1:]:
                c = line.rstrip("\n").split("\t")
                if len(c) >= 2 and c[1].isdigit():
                    gpu[c[0]] = int(c[1])
    table, notes = [], []
    exact = within10 = within25 = reported = 0
    gpu10 = 0
    total = 0
    for r in rows():
        t = truth.get(r["name"])
        if not t:
            notes.append(f"{r['name']}: no truth measured (compare.py --measure {r['name']})")
            continue
        total += 1
        out, secs, how = run_oomlint(r)
        models = pick(out["models"], r["models"]) if out else []
        if how:
            notes.append(f"{r['name']}: {how}")
        params = sum(m["parameters"] for m in models) if models else None
        wgo = sum(m["weights_bytes"] + m["gradients_bytes"] + m["optimizer_state_bytes"] for m in models) if models else None
        acts = [m.get("activations_bytes") for m in models]
        act = sum(acts) if acts and all(a is not None for a in acts) else None
        if out is not None and "activations_bytes" in out:  # a whole-script figure, when oomlint gives one
            act = out["activations_bytes"]
        ta = t["saved_activation_bytes"]
        ratio = act / ta if act is not None and ta else None
        tg = gpu.get(r["name"])
        gratio = act / tg if act is not None and tg else None
        gpu10 += gratio is not None and abs(gratio - 1) <= 0.10
        if params == t["parameters"]:
            exact += 1
        ok = ""
        if ratio is not None:
            reported += 1
            ok = "yes" if abs(ratio - 1) <= 0.10 else ("no (25%)" if abs(ratio - 1) <= 0.25 else "no")
            within10 += abs(ratio - 1) <= 0.10
            within25 += abs(ratio - 1) <= 0.25
        table.append([r["name"], count(t["parameters"]), count(params) + (" =" if params == t["parameters"] else ""),
                      human(t["weights_grads_optimizer_bytes"]), human(wgo), human(ta), human(act),
                      "-" if ratio is None else f"{ratio:.2f}", ok or "no (none)",
                      human(tg) if tg else "-", "-" if gratio is None else f"{gratio:.2f}",
                      f"{len(out['models'])}" if out else "error", f"{secs:.2f}"])
    head = ["script", "params truth", "params oomlint", "W+G+O truth", "W+G+O oomlint", "activations truth",
            "activations oomlint", "ratio", "within 10%", "2.x CUDA truth", "ratio 2.x", "models", "oomlint s"]
    if "--markdown" in argv:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---" for _ in head) + "|")
        for row in table:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(x[i]) for x in table + [head]) for i in range(len(head))]
        for row in [head] + table:
            print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))))
    print()
    print(f"Parameters exact: {exact}/{total}; activations reported: {reported}/{total}, "
          f"within 10%: {within10}/{total}, within 25%: {within25}/{total}; "
          f"within 10% of PyTorch 2.x on CUDA: {gpu10}/{len(gpu) or total}.")
    if notes and "--markdown" in argv:
        print()
    for n in notes:
        print(f"- {n}" if "--markdown" in argv else f"note: {n}")


if __name__ == "__main__":
    main(sys.argv[1:])
