"""Ground truth for `oomlint estimate`: what PyTorch itself keeps for one training step.

A case file (cases/NAME.py) builds a real script's model with the script's own
defaults and hands one training step to `measure()`.  What is measured:

- parameters: count and bytes of every parameter (shared ones once);
- gradients: bytes of `.grad` after backward;
- optimizer state: bytes of the optimizer's state tensors after one step
  (those with one value per parameter element apart from scalar ones such as
  Adam's `step`, which are listed separately);
- saved activations: every tensor autograd's `saved_tensors_hooks` is handed
  during the step, counted once per storage, leaving out parameters and
  buffers (whose storage is already counted above).  This is the memory the
  forward pass keeps alive for backward, the part the batch size drives;
- on CUDA, `torch.cuda.max_memory_allocated()` over the step, above what was
  allocated before it.

Where the default batch does not fit this machine, the case measures two
smaller batches and extrapolates linearly (saved = fixed + per_sample * batch);
the JSON says so.  Nothing here downloads data: batches are random tensors of
the shapes the script's dataset and transforms produce.
"""
import ast
import argparse
import json
import os
import sys
import types
import weakref

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
FETCHED = os.environ.get("TRUTH_FETCHED", os.path.join(HERE, "fetched"))
DEVICE = torch.device(os.environ.get("TRUTH_DEVICE", "cpu"))


def source(name, path):
    """The materialized file `path` of script row `name` (see materialize.sh)."""
    p = os.path.join(FETCHED, name, path)
    if not os.path.exists(p):
        sys.exit(f"{p} is missing: run materialize.sh first")
    return p


def _storage_key(t):
    if t.is_sparse:
        v = t._values()
        (k, n) = _storage_key(v)
        return k, n + t._indices().numel() * 8
    # One key per storage, whatever the view: PyTorch 2.x has untyped_storage(),
    # 1.13 only storage() (a TypedStorage whose data_ptr is the storage's).
    s = t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()
    nbytes = s.nbytes() if callable(getattr(s, "nbytes", None)) else s.size() * t.element_size()
    return (s.data_ptr(), t.device.type), nbytes


def load_defs(path, module_name, extra_path=None):
    """Execute only the imports, classes and functions of a script, not what it runs.

    Training scripts parse arguments and train at module level or under
    `if __name__ == "__main__"`; the model classes are what a case needs.  An
    import the benchmark machine lacks (wandb, gym, tqdm...) is skipped and
    recorded in `mod.__skipped_imports__`.
    """
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    mod = types.ModuleType(module_name)
    mod.__file__ = path
    mod.__skipped_imports__ = []
    sys.modules[module_name] = mod
    folder = extra_path or os.path.dirname(path)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    for node in tree.body:
        keep = isinstance(node, (ast.Import, ast.ImportFrom, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        if not keep:
            continue
        code = compile(ast.Module(body=[node], type_ignores=[]), path, "exec")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            try:
                exec(code, mod.__dict__)
            except Exception as e:  # noqa: BLE001 - any failing import is skipped and named
                mod.__skipped_imports__.append(f"{ast.unparse(node)}: {type(e).__name__}")
        else:
            exec(code, mod.__dict__)
    return mod


def script_args(path, argv=(), names=None):
    """The script's own argparse defaults: its ArgumentParser and add_argument calls, wherever they are.

    Statements are taken in source order from the module and every function
    body, and run against `argv` (empty: the defaults a user gets).  `names`:
    what else those statements read (a `choices=` list built by the script).
    """
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    kept = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for st in body:
            call = st.value if isinstance(st, (ast.Expr, ast.Assign)) else None
            if not isinstance(call, ast.Call):
                continue
            f = call.func
            name = f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else "")
            if name in ("ArgumentParser", "add_argument", "add_argument_group", "add_mutually_exclusive_group",
                        "add_subparsers", "add_parser", "set_defaults"):
                kept.append(st)
    kept.sort(key=lambda st: st.lineno)
    ns = {"argparse": argparse, "os": os, "torch": torch}
    ns.update(names or {})
    parser = None
    for st in kept:
        exec(compile(ast.Module(body=[st], type_ignores=[]), path, "exec"), ns)
        if isinstance(st, ast.Assign) and isinstance(ns.get(st.targets[0].id if isinstance(st.targets[0], ast.Name) else ""), argparse.ArgumentParser):
            parser = parser or ns[st.targets[0].id]
    if parser is None:
        raise SystemExit(f"{path}: no ArgumentParser found")
    args, _ = parser.parse_known_args(list(argv))
    return args


def _param_storages(modules):
    keys = {}
    for m in modules:
        for t in list(m.parameters()) + list(m.buffers()):
            k, n = _storage_key(t)
            keys[k] = n
    return keys


def _count(modules):
    seen, count, nbytes, trainable = set(), 0, 0, 0
    for m in modules:
        for p in m.parameters():
            if id(p) in seen:
                continue
            seen.add(id(p))
            count += p.numel()
            nbytes += p.numel() * p.element_size()
            trainable += p.numel() if p.requires_grad else 0
    return count, nbytes, trainable


class _Box:
    """What a pack hook hands autograd: its death is the saved tensor's release."""
    __slots__ = ("t", "__weakref__")

    def __init__(self, t):
        self.t = t


def _one_step(modules, step, batch):
    """Run step(batch) under the hooks.

    Returns (peak bytes saved for backward alive at once, storages, bytes of
    every distinct storage saved over the step).  A storage saved by several
    ops counts once while any of them holds it; when autograd frees a graph
    (after its backward) its saved tensors leave the count, so a step with
    several backward calls (a GAN, LBFGS's closure) reports its peak.
    """
    excluded = _param_storages(modules)
    live = {}
    state = {"cur": 0, "peak": 0, "total": 0, "n": 0}

    def release(k):
        e = live[k]
        e[0] -= 1
        if not e[0]:
            state["cur"] -= e[1]
            del live[k]

    def pack(t):
        box = _Box(t)
        k, n = _storage_key(t)
        if k in excluded or not n:
            return box
        e = live.get(k)
        if e:
            e[0] += 1
        else:
            live[k] = [1, n]
            state["cur"] += n
            state["total"] += n
            state["n"] += 1
            state["peak"] = max(state["peak"], state["cur"])
        weakref.finalize(box, release, k)
        return box

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda box: box.t):
        step(batch)
    return state["peak"], state["n"], state["total"]


def measure(name, modules, optimizers, step, batch, *, cpu_batches=None, notes=(), inputs_desc="", extra=None,
            saved_override=None):
    """Measure one training step of `batch` samples.

    step(b) runs one training step (zero_grad, forward, loss, backward,
    optimizer step) on a random batch of b samples.  cpu_batches=(b1, b2):
    on the CPU the step is run at b1 and b2 (< batch) and the saved bytes
    extrapolated linearly to `batch`; the gradients and optimizer state of the
    last run are reported.  saved_override=(bytes, runs): the case measured
    the saved bytes itself (on smaller models); step(batch) then runs once,
    without hooks, for the gradients and optimizer state.
    """
    modules = [m.to(DEVICE) for m in modules]
    for m in modules:
        m.train()
    params, pbytes, trainable = _count(modules)
    runs = []
    sizes = [batch]
    if cpu_batches and DEVICE.type == "cpu":
        sizes = list(cpu_batches)
    peak = None
    if DEVICE.type == "cuda":
        # The peak of a plain first step (no hooks), above the weights already
        # there: it includes the optimizer state the first step creates.
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        step(batch)
        torch.cuda.synchronize()
        peak = torch.cuda.max_memory_allocated() - base
    if saved_override is not None:
        sizes = []
        for o in optimizers:
            o.zero_grad(set_to_none=True)
        step(batch)
    for b in sizes:
        for o in optimizers:
            o.zero_grad(set_to_none=True)
        peak_saved, n, total = _one_step(modules, step, b)
        runs.append({"batch": b, "saved_bytes": peak_saved, "saved_storages": n, "saved_bytes_all_graphs": total})
    if saved_override is not None:
        saved, runs = saved_override
        scaled = True
        sizes = [r["batch"] for r in runs]
    elif len(sizes) == 1:
        saved = runs[0]["saved_bytes"]
        scaled = False
    else:
        (b1, s1), (b2, s2) = [(r["batch"], r["saved_bytes"]) for r in runs]
        per = (s2 - s1) / (b2 - b1)
        saved = round(s1 + per * (batch - b1))
        scaled = True
    seen, gbytes = set(), 0
    for m in modules:
        for p in m.parameters():
            if id(p) not in seen and p.grad is not None:
                seen.add(id(p))
                gbytes += p.grad.numel() * p.grad.element_size()
    obytes, oscalar = 0, 0
    for o in optimizers:
        for st in o.state.values():
            for v in st.values():
                # LBFGS keeps lists of tensors (its history of directions and steps).
                for t in (v if isinstance(v, (list, tuple)) else [v]):
                    if not torch.is_tensor(t):
                        continue
                    if t.numel() <= 1:
                        oscalar += t.numel() * t.element_size()
                    else:
                        obytes += t.numel() * t.element_size()
    out = {
        "name": name,
        "torch": torch.__version__,
        "device": DEVICE.type,
        "batch": batch,
        "batch_measured": sizes,
        "saved_scaled_linearly": scaled,
        "parameters": params,
        "trainable_parameters": trainable,
        "parameter_bytes": pbytes,
        "gradient_bytes": gbytes,
        "optimizer": ", ".join(type(o).__name__ for o in optimizers),
        "optimizer_state_bytes": obytes,
        "optimizer_scalar_state_bytes": oscalar,
        "weights_grads_optimizer_bytes": pbytes + gbytes + obytes,
        "saved_activation_bytes": saved,
        "cuda_first_step_peak_over_weights_bytes": peak,
        "runs": runs,
        "inputs": inputs_desc,
        "notes": list(notes),
    }
    if extra:
        out.update(extra)
    print(json.dumps(out))
    return out


def row(name):
    """The scripts.tsv row of `name`: (script path as materialized, its argv list)."""
    with open(os.path.join(HERE, "scripts.tsv"), encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(header, line.rstrip("\n").split("\t")))
            if r["name"] == name:
                argv = [] if r["args"] == "-" else r["args"].split()
                return source(name, r["script"]), argv
    raise SystemExit(f"{name} is not in scripts.tsv")


def grad_scaler(enabled):
    """torch.amp.GradScaler("cuda") where it exists (2.x), else 1.13's torch.cuda.amp.GradScaler."""
    if hasattr(torch, "amp") and hasattr(torch.amp, "GradScaler"):
        return torch.amp.GradScaler("cuda", enabled=enabled)
    return torch.cuda.amp.GradScaler(enabled=enabled)
