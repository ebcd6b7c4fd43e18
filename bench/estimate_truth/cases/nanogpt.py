"""karpathy/nanoGPT train.py at its defaults (GPT-2 124M, bias=False, dropout 0, vocab 50304, block 1024,
micro-batch 12, AdamW from configure_optimizers, weight decay 0.1, grad_clip 1.0, dtype bfloat16 on a
bf16 GPU under torch.amp.autocast), one micro-step (gradient accumulation keeps one micro-batch's
activations resident) then clip, optimizer step.  `compile=True` is not applied (torch.compile
changes what is saved and hides it from saved_tensors_hooks).

On CUDA: the whole default step.  On the CPU (too slow for 12 x 1024 tokens through 12 layers),
under CPU autocast to bfloat16 (2 bytes, as the GPU's dtype), the saved bytes are measured with
1 and 2 layers at batch 1 and 2 and extrapolated bilinearly, saved = a + b*B + c*L + d*B*L, to
12 layers at batch 12; parameters, gradients and AdamW state come from the full model.  PyTorch
1.13 has no F.scaled_dot_product_attention, so there nanoGPT takes its manual attention path (the
[B, heads, T, T] scores and softmax are saved): the CPU figure is 1.13's, and PyTorch 2.x
(flash attention) saves much less; the GPU run gives 2.x's.
"""
import ast
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from contextlib import nullcontext
import torch
from harness import DEVICE, _one_step, grad_scaler, load_defs, measure, row

path, argv = row("nanogpt")
# train.py's defaults are module-level assignments above `config_keys = ...`.
cfg = {"torch": torch}
for node in ast.parse(open(path, encoding="utf-8").read()).body:
    if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "config_keys":
        break
    if isinstance(node, ast.Assign):
        exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), cfg)
m = load_defs(os.path.join(os.path.dirname(path), "model.py"), "nanogpt_model")
cuda = DEVICE.type == "cuda"
dtype = cfg["dtype"] if cuda else "bfloat16"
ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]
ctx = torch.autocast(device_type=DEVICE.type, dtype=ptdtype)
BS, T = cfg["batch_size"], cfg["block_size"]


def build(n_layer):
    args = dict(n_layer=n_layer, n_head=cfg["n_head"], n_embd=cfg["n_embd"], block_size=T,
                bias=cfg["bias"], vocab_size=50304, dropout=cfg["dropout"])
    model = m.GPT(m.GPTConfig(**args)).to(DEVICE)
    opt = model.configure_optimizers(cfg["weight_decay"], cfg["learning_rate"], (cfg["beta1"], cfg["beta2"]), DEVICE.type)
    scaler = grad_scaler(dtype == "float16" and cuda)

    def step(b):
        X = torch.randint(0, 50304, (b, T), device=DEVICE)
        Y = torch.randint(0, 50304, (b, T), device=DEVICE)
        with ctx:
            logits, loss = model(X, Y)
            loss = loss / cfg["gradient_accumulation_steps"]
        scaler.scale(loss).backward()
        if cfg["grad_clip"] != 0.0:
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["grad_clip"])
        scaler.step(opt)
        scaler.update()

    return model, opt, step


notes = [f"dtype {dtype} under autocast ({DEVICE.type})", "torch.compile not applied",
         f"flash attention: {hasattr(torch.nn.functional, 'scaled_dot_product_attention')}"]
override = None
if not cuda:
    runs, grid = [], {}
    for L in (1, 2):
        model, opt, step = build(L)
        model.train()
        for b in (1, 2):
            peak, n, total = _one_step([model], step, b)
            grid[(b, L)] = peak
            runs.append({"batch": b, "n_layer": L, "saved_bytes": peak, "saved_storages": n})
        del model, opt, step
    d = grid[(2, 2)] - grid[(1, 2)] - grid[(2, 1)] + grid[(1, 1)]
    bslope = grid[(2, 1)] - grid[(1, 1)] - d  # per sample, outside the layers
    lslope = grid[(1, 2)] - grid[(1, 1)] - d  # per layer, batch-independent part
    a = grid[(1, 1)] - bslope - lslope - d
    L = cfg["n_layer"]
    override = (round(a + bslope * BS + lslope * L + d * BS * L), runs)
    notes.append("CPU: saved bytes extrapolated from n_layer 1-2, batch 1-2 (bilinear in batch and layers)")

model, opt, step = build(cfg["n_layer"])
if not cuda:
    T = 8  # gradients and optimizer state do not depend on the tokens: step() reads T, a short sequence is enough
measure("nanogpt", [model], [opt], step, BS, notes=notes, saved_override=override,
        inputs_desc=f"int64 [B,{cfg['block_size']}] tokens and targets", extra={"block_size": cfg["block_size"]})
